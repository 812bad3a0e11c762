"""Failed logins as django-axes keeps them (one AccessAttempt row per account, address and
browser, counting its failures since the cool-off began).

axes locks an account at one address (AXES_LOCKOUT_PARAMETERS: the pair), so failures
from elsewhere never refuse the account's owner. ``login_failure_limit`` is axes'
AXES_FAILURE_LIMIT: how many failures an address may make on the account before that
pair waits; an account failed many times from anywhere gets fewer tries from each
address, which slows down a guesser with many addresses without refusing anyone who
knows the password.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

from sessions.models import Club


def _recent() -> dict:
    return {"attempt_time__gt": timezone.now() - get_cool_off()}


def account_failures(username: str) -> int:
    """Failed logins on the account in the cool-off time, from every address (one query)."""
    total = AccessAttempt.objects.filter(username=username, **_recent()).aggregate(n=Sum("failures_since_start"))["n"]
    return total or 0


def login_failure_limit(request: HttpRequest, credentials: dict | None = None) -> int:
    """Failures an address may make on this account before they lock that pair."""
    username = get_client_username(request, credentials)
    if username and account_failures(username) >= settings.LOGIN_ACCOUNT_ALERT:
        return settings.LOGIN_FAILURE_LIMIT_ALERTED
    return settings.LOGIN_FAILURE_LIMIT


@dataclass
class LoginFailures:
    """An account's recent failed logins: how many, and the addresses now locked out."""

    failures: int = 0
    locked_addresses: list[str] = field(default_factory=list)


def club_login_failures(*, club: Club) -> dict[str, LoginFailures]:
    """The recent failed logins on the club's directors' accounts, by username (one query)."""
    rows = list(
        AccessAttempt.objects.filter(username__in=club.directors.values("username"), **_recent())
        .values("username", "ip_address").annotate(failures=Sum("failures_since_start"))
        .order_by("username", "ip_address")
    )
    accounts: dict[str, LoginFailures] = defaultdict(LoginFailures)
    for row in rows:
        accounts[row["username"]].failures += row["failures"]
    for row in rows:
        account = accounts[row["username"]]
        alerted = account.failures >= settings.LOGIN_ACCOUNT_ALERT
        limit = settings.LOGIN_FAILURE_LIMIT_ALERTED if alerted else settings.LOGIN_FAILURE_LIMIT
        if row["failures"] >= limit:
            account.locked_addresses.append(row["ip_address"] or "an unknown address")
    return dict(accounts)
