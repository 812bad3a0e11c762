"""Print every table's phone link of a session, making those that do not exist yet.

    python manage.py table_links SESSION_ID [--base-url URL]

One line per table, in section then table order: ``SECTION TABLE URL``, e.g.
``A 1 http://127.0.0.1:8000/t/<token>/``. The base URL is --base-url, else the SITE_URL
setting or environment variable, else http://127.0.0.1:8000. A table whose link was
revoked gets a new one. An unknown session is refused (non-zero exit, the reason).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from sessions.models import Session
from sessions.phones.services.tables import table_links_ensure

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def default_base_url() -> str:
    return getattr(settings, "SITE_URL", "") or os.environ.get("SITE_URL", "") or DEFAULT_BASE_URL


class Command(BaseCommand):
    help = "Print each table's phone link of a session (SECTION TABLE URL), making missing ones."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int)
        parser.add_argument(
            "--base-url", help=f"scheme and host the phones reach the site at (default: SITE_URL or {DEFAULT_BASE_URL})"
        )

    def handle(self, *args, session_id: int, base_url: str | None, **options) -> None:
        base = self.base_url(base_url or default_base_url())
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"no session with id {session_id}")
        for link in table_links_ensure(session=session):
            path = reverse("sessions:table_page", args=[link.token])
            self.stdout.write(f"{link.section.letter} {link.table} {base}{path}")

    def base_url(self, url: str) -> str:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise CommandError(f"base URL {url!r} is not like http://host[:port]: give the scheme and host")
        return url.strip().rstrip("/")
