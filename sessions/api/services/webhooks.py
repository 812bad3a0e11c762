"""Webhooks: a club's programs told when its results are published, marked final or amended.

An owner registers an https address on the club's settings page (``webhook_create``); each
gets its own shared secret. When a session or teams event of the club is published,
marked final, or corrected after final, the service that did it calls ``webhooks_notify``
after its commit: one WebhookDelivery row per webhook, fixed with its JSON body and the
revision the event made. The database refuses a second row for the same webhook, event,
subject and revision, so nothing is delivered twice. The sending is slow work for the
background worker (sessions.core.services.background: the work queue, a thread, or at once
in tests), never the request's:

- each delivery is a JSON POST signed ``X-ClubScore-Signature: t=<unix time>,v1=<hex>``,
  the hex being HMAC-SHA256 with the webhook's secret of ``<unix time>.<body>``
  (``signature``; the README shows a receiver checking it);
- a 2xx answer ends it; anything else (another code, a timeout, a refused connection, a
  redirect, which is never followed) is tried again after WEBHOOK_BACKOFF seconds,
  doubling each time, until WEBHOOK_ATTEMPTS tries have failed: then it is marked failed;
- private, loopback, link-local and reserved addresses are refused when the address is
  registered and again when each delivery connects (a name may resolve elsewhere later),
  and the connection goes to the very address that was checked. WEBHOOK_ALLOW_LOCAL
  (tests only) allows http and loopback addresses, for a receiver on 127.0.0.1.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import http.client
import ipaddress
import json
import secrets
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from sessions.models import (
    DeliveryStatus, Session, TeamEvent, Webhook, WebhookDelivery, WebhookEvent, WebhookSubject,
)

from sessions.core.services.background import BackgroundWorker
from sessions.core.services.unit_of_work import unit_of_work, write

#: The header that carries the signature, and the version of its scheme.
SIGNATURE_HEADER = "X-ClubScore-Signature"
#: A club registers at most this many addresses: each event is sent to every one.
MAX_WEBHOOKS = 5
DEFAULT_ATTEMPTS = 6
DEFAULT_BACKOFF = 30.0  # seconds before the second try; then 60, 120, ... (about 15 minutes in all)
DEFAULT_TIMEOUT = 5.0  # seconds to connect, and again to read the answer: a slow receiver holds up the others
#: What is kept of an answer or an error on the log.
ERROR_LENGTH = 300


def _setting(name: str, default):
    return getattr(settings, name, default)


# --- addresses ----------------------------------------------------------------------------------

def _allow_local() -> bool:
    return bool(_setting("WEBHOOK_ALLOW_LOCAL", False))


def _public_address(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if _allow_local() and ip.is_loopback:
        return True
    return ip.is_global and not ip.is_multicast


def resolve_public(url: str) -> list[str]:
    """The addresses ``url``'s host resolves to, all public; else ValidationError (the SSRF guard)."""
    try:
        parts = urlsplit(url)
    except ValueError as error:
        raise ValidationError("that is not a web address") from error
    if parts.scheme != "https" and not (_allow_local() and parts.scheme == "http"):
        raise ValidationError("a webhook's address must start with https://")
    if not parts.hostname or parts.username or parts.password:
        raise ValidationError("a webhook's address needs a host name, and no user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as error:
        raise ValidationError(f"the host {parts.hostname} cannot be found") from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    refused = [address for address in addresses if not _public_address(address)]
    if refused or not addresses:
        raise ValidationError(
            f"{parts.hostname} is a private, local or reserved address ({', '.join(refused)}): webhooks go to public sites only"
        )
    return addresses


# --- registering ------------------------------------------------------------------------------

@write
def webhook_create(*, club, url: str) -> Webhook:
    """A new address of the club, with a new secret; refused if not https or not public."""
    url = url.strip()
    if Webhook.objects.filter(club=club).count() >= MAX_WEBHOOKS:
        raise ValidationError(f"a club has at most {MAX_WEBHOOKS} webhooks: remove one first")
    resolve_public(url)
    webhook = Webhook(club=club, url=url, secret=secrets.token_hex(32))
    webhook.full_clean()
    webhook.save()
    return webhook


@write
def webhook_delete(*, webhook: Webhook) -> None:
    """The address is told nothing more; its log goes with it."""
    webhook.delete()


@write
def webhook_send_test(*, webhook: Webhook) -> WebhookDelivery:
    """A test delivery (event "test"), sent like any other once the commit is done."""
    body = _body(event=WebhookEvent.TEST, club=webhook.club, subject="", subject_id=None, revision=0, extra={})
    delivery = WebhookDelivery.objects.create(webhook=webhook, event=WebhookEvent.TEST, body=body)
    transaction.on_commit(webhooks_start)
    return delivery


# --- what happened ------------------------------------------------------------------------------

def _absolute(path: str) -> str:
    return _setting("SITE_URL", "").rstrip("/") + path


def _body(*, event: str, club, subject: str, subject_id: int | None, revision: int, extra: dict) -> str:
    payload = {
        "event": event,
        "club": {"slug": club.slug, "name": club.name, "url": _absolute(reverse("sessions:club", args=[club.slug]))},
        "subject": subject or None,
        "id": subject_id,
        "revision": revision,
        "occurred_at": timezone.now().isoformat(),
        **extra,
    }
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def _session_subject(session_id: int) -> tuple | None:
    session = Session.objects.select_related("event__club").filter(pk=session_id).first()
    if session is None:
        return None
    extra = {"session": {
        "name": session.name, "event": session.event.name, "date": session.date.isoformat(),
        "final": session.final, "published": session.published,
        "url": _absolute(reverse("sessions:session_results", args=[session.pk])),
        "booklet_url": _absolute(reverse("sessions:session_booklet", args=[session.pk])),
        "api_url": _absolute(f"/api/v1/sessions/{session.pk}/"),
    }}
    return session.event.club, session.revision, session.published, session.final, extra


def _teams_subject(event_id: int) -> tuple | None:
    event = TeamEvent.objects.select_related("club").filter(pk=event_id).first()
    if event is None:
        return None
    extra = {"teams_event": {
        "name": event.name, "final": event.final, "published": event.published,
        "url": _absolute(reverse("sessions:team_event", args=[event.pk])),
        "api_url": _absolute(f"/api/v1/teams/{event.pk}/"),
    }}
    return event.club, event.revision, event.published, event.final, extra


@write
def webhooks_notify(*, event: str, subject: str, subject_id: int) -> list[WebhookDelivery]:
    """One delivery per webhook of the subject's club (none twice for one revision), then the sending.

    Only a published subject is told of, and "amended" only once it is final: the
    correction services call this for any published session (they know no more without
    another query).

    Called after the commit of the write (``notify_on_commit``): the revision read is the
    one the write made, and a rolled-back write tells nobody anything."""
    found = (_session_subject if subject == WebhookSubject.SESSION else _teams_subject)(subject_id)
    if found is None:
        return []
    club, revision, published, final, extra = found
    if not published or (event == WebhookEvent.AMENDED and not final):
        return []  # a correction before final, or an event hidden again since: nothing to tell
    webhooks = list(Webhook.objects.filter(club=club))
    if not webhooks:
        return []
    body = _body(event=event, club=club, subject=subject, subject_id=subject_id, revision=revision, extra=extra)
    rows = [WebhookDelivery(webhook=webhook, event=event, subject=subject, subject_id=subject_id, revision=revision,
                            body=body) for webhook in webhooks]
    created = WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    transaction.on_commit(webhooks_start)
    return created


def notify_on_commit(*, event: str, session: Session | int | None = None, teams_event: TeamEvent | int | None = None) -> None:
    """The hook the services call inside their transaction: the deliveries are made after its commit."""
    if session is not None:
        subject, subject_id = WebhookSubject.SESSION, session if isinstance(session, int) else session.pk
    elif teams_event is not None:
        subject, subject_id = WebhookSubject.TEAMS, teams_event if isinstance(teams_event, int) else teams_event.pk
    else:
        raise TypeError("notify_on_commit needs a session or a teams event")
    transaction.on_commit(lambda: webhooks_notify(event=event, subject=subject, subject_id=subject_id))


# --- sending ------------------------------------------------------------------------------------

def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``<timestamp>.<body>`` with the webhook's secret."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Answer:
    code: int | None
    error: str


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _post(delivery: WebhookDelivery) -> Answer:
    webhook = delivery.webhook
    try:
        address = resolve_public(webhook.url)[0]
    except ValidationError as error:
        return Answer(None, "refused: " + " ".join(error.messages))
    parts = urlsplit(webhook.url)
    https = parts.scheme == "https"
    connection_class = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
    body = delivery.body.encode()
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "ClubScore-Webhook/1",
        "X-ClubScore-Event": delivery.event,
        "X-ClubScore-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: f"t={timestamp},v1={signature(secret=webhook.secret, timestamp=timestamp, body=body)}",
    }
    connection = connection_class(
        parts.hostname or "", parts.port or (443 if https else 80), address=address,
        timeout=float(_setting("WEBHOOK_TIMEOUT", DEFAULT_TIMEOUT)),
    )
    try:
        connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
        response = connection.getresponse()
        response.read(1024)  # the answer itself is of no interest; a little is read to end the exchange
        code = response.status
    except (OSError, http.client.HTTPException) as error:
        return Answer(None, f"{type(error).__name__}: {error}"[:ERROR_LENGTH])
    finally:
        connection.close()
    return Answer(code, "" if 200 <= code < 300 else f"the receiver answered {code}")


def _backoff(attempts: int) -> datetime.timedelta:
    return datetime.timedelta(seconds=float(_setting("WEBHOOK_BACKOFF", DEFAULT_BACKOFF)) * 2 ** (attempts - 1))


def webhook_deliver(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """One try of one delivery, and its outcome on the log."""
    answer = _post(delivery)
    now = timezone.now()
    delivery.attempts += 1
    delivery.last_attempt_at = now
    delivery.response_code = answer.code
    delivery.last_error = answer.error[:ERROR_LENGTH]
    if not answer.error:
        delivery.status, delivery.delivered_at = DeliveryStatus.SENT, now
    elif delivery.attempts >= int(_setting("WEBHOOK_ATTEMPTS", DEFAULT_ATTEMPTS)):
        delivery.status = DeliveryStatus.FAILED
    else:
        delivery.next_attempt_at = now + _backoff(delivery.attempts)
    with unit_of_work():  # the POST above held no transaction open
        delivery.save(update_fields=[
            "attempts", "last_attempt_at", "response_code", "last_error", "status", "delivered_at", "next_attempt_at",
        ])
    return delivery


def _pending():
    return WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)


def webhooks_run() -> int:
    """Deliver every due delivery, waiting for those backing off, until none is pending: how many tries.

    The pass stays while a retry waits (a few minutes at most, see DEFAULT_BACKOFF), looking
    each second for new deliveries; a pass cut short loses nothing: the rows stay pending
    for the next pass (any new event starts one)."""
    tries = 0
    while True:
        due = list(_pending().filter(next_attempt_at__lte=timezone.now()).select_related("webhook")
                   .order_by("next_attempt_at", "pk"))
        for delivery in due:
            webhook_deliver(delivery=delivery)
            tries += 1
        following = _pending().order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first()
        if following is None:
            return tries
        wait = (following - timezone.now()).total_seconds()
        if wait > 0:
            time.sleep(min(wait, 1.0))


def webhooks_start() -> threading.Thread | None:
    """Send the pending deliveries: queued, in the background thread or now (see services.background)."""
    return WORKER.start(
        background=bool(_setting("WEBHOOK_BACKGROUND", _setting("ANALYSIS_BACKGROUND", True))),
        pending=lambda: _pending().exists(),
    )


WORKER = BackgroundWorker(
    name="webhooks", path=f"{__name__}.WORKER", run=webhooks_run,
    exclusive=True,  # two passes at once would send a delivery twice
    summary=lambda tries: f"{tries} webhook deliveries tried",
    stopped="background delivery of the webhooks stopped",
)
