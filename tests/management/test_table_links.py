"""table_links: SECTION TABLE URL for every table, in order, making the links missing."""

from __future__ import annotations

from io import StringIO
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command

from sessions.models import TableLink
from sessions.movements import mitchell
from sessions.phones.services.phone_links import phone_link_revoke
from tests.factories import make_session


@pytest.fixture(autouse=True)
def no_site_url(settings):
    """A deployment that names no SITE_URL (the tests' settings name one for the mails)."""
    settings.SITE_URL = ""


@pytest.fixture(autouse=True)
def no_throttle():
    """The table pages throttle addresses that try unknown tokens: start each test afresh."""
    cache.clear()
    yield
    cache.clear()


def table_links(*args: str) -> list[str]:
    out = StringIO()
    call_command("table_links", *args, stdout=out)
    return out.getvalue().splitlines()


def live_tokens(session) -> dict[tuple[str, int], str]:
    return {
        (link.section.letter, link.table): link.token
        for link in TableLink.objects.filter(session=session, revoked_at__isnull=True).select_related("section")
    }


def test_one_line_per_table_in_section_then_table_order(event, client):
    session = make_session(event, mitchell(4, 2), sections=("B", "A"))

    lines = table_links(str(session.pk))

    tokens = live_tokens(session)
    assert len(tokens) == 8
    assert lines == [
        f"{letter} {table} http://127.0.0.1:8000/t/{tokens[(letter, table)]}/"
        for letter in ("A", "B") for table in range(1, 5)
    ]
    for line in lines:  # each address opens its table's page
        assert client.get(urlsplit(line.split()[2]).path).status_code == 200


def test_running_again_prints_the_same_links_and_replaces_a_revoked_one(session):
    first = table_links(str(session.pk))
    revoked = TableLink.objects.get(session=session, table=2)
    phone_link_revoke(link=revoked)

    second = table_links(str(session.pk))

    assert second[0] == first[0] and second[2] == first[2]
    assert second[1].startswith("A 2 ") and second[1] != first[1]
    assert revoked.token not in second[1]
    assert TableLink.objects.filter(session=session).count() == 4


def test_the_base_url_can_be_given(session):
    lines = table_links(str(session.pk), "--base-url", "https://club.example.org/")

    assert all(line.split()[2].startswith("https://club.example.org/t/") for line in lines)


def test_the_base_url_comes_from_site_url(session, settings, monkeypatch):
    monkeypatch.setenv("SITE_URL", "http://from-env.example.org")
    assert table_links(str(session.pk))[0].split()[2].startswith("http://from-env.example.org/t/")

    settings.SITE_URL = "https://from-settings.example.org"
    assert table_links(str(session.pk))[0].split()[2].startswith("https://from-settings.example.org/t/")


@pytest.mark.parametrize(("args", "message"), [
    (["999999"], "no session with id 999999"),
    (["{pk}", "--base-url", "club.example.org"], "base URL 'club.example.org' is not like http://host[:port]"),
    (["{pk}", "--base-url", "ftp://club.example.org"], "is not like http://host[:port]"),
    (["twelve"], "invalid int value: 'twelve'"),
])
def test_refused_with_a_message_and_nothing_made(session, args, message):
    TableLink.objects.all().delete()  # made with the session: none, to see that none are made
    with pytest.raises(CommandError) as refused:
        call_command("table_links", *[arg.format(pk=session.pk) for arg in args], stdout=StringIO())

    assert message in str(refused.value)
    assert not TableLink.objects.exists()
