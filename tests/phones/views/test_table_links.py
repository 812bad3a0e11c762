"""The director's table links page: every table's full URL and QR code, renew, revoke, make.

The conftest session is a 3-table Mitchell. A URL on the page is checked by opening it:
the table's page answers 200, and a renewed or revoked link's old address answers 404.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import segno
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sessions.models import TableLink
from sessions.movements import mitchell
from sessions.phones.services.phone_links import phone_link_revoke
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session


@pytest.fixture(autouse=True)
def no_throttle():
    """The table pages throttle addresses that try unknown tokens: start each test afresh."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def links(session):
    return table_links_ensure(session=session)


def page_url(session) -> str:
    return reverse("sessions:director_table_links", args=[session.pk])


def table_url(link: TableLink) -> str:
    return f"http://testserver/t/{link.token}/"


def qr(url: str) -> str:
    """The QR code of a URL as the page inlines it (segno, medium error correction)."""
    return segno.make_qr(url, error="m").svg_inline(scale=4, svgclass="qr", omitsize=True)


def row(html: str, key: str) -> str:
    return html.split(f'id="table-link-{key}"')[1].split("</tr>")[0]


def opens(client: Client, url: str) -> int:
    return client.get(urlsplit(url).path).status_code


def live(session) -> list[TableLink]:
    return list(TableLink.objects.filter(session=session, revoked_at__isnull=True).order_by("table"))


def test_the_page_lists_every_table_with_a_working_url_and_its_qr_code(logged_in, session, links):
    html = logged_in.get(page_url(session)).content.decode()

    assert [link.table for link in links] == [1, 2, 3]
    assert html.count('<svg viewBox="') == 3
    for link in links:
        url = table_url(link)
        assert f'<a href="{url}">{url}</a>' in row(html, f"A{link.table}")
        assert qr(url) in row(html, f"A{link.table}")  # the QR code made from that URL
        assert opens(Client(), url) == 200  # a phone, not logged in, opens it


def test_every_change_is_a_post_form_with_csrf_and_explained_before_it_is_made(logged_in, session, links):
    html = logged_in.get(page_url(session)).content.decode()

    for link in links:
        cells = row(html, f"A{link.table}")
        for action in ("renew", "revoke"):
            form = cells.split(f'action="{reverse(f"sessions:director_table_link_{action}", args=[session.pk, link.pk])}"')
            assert len(form) == 2 and 'method="post"' in form[0][-30:]
            assert 'name="csrfmiddlewaretoken"' in form[1].split("</form>")[0]
        assert "<summary>Renew…</summary>" in cells and "<summary>Revoke…</summary>" in cells
        assert "loses this link at once" in cells and "can no longer enter scores" in cells


def test_renew_makes_a_new_link_and_the_old_one_stops_working(logged_in, session, links):
    old = links[0]

    response = logged_in.post(reverse("sessions:director_table_link_renew", args=[session.pk, old.pk]))

    assert response.status_code == 302 and response.url == page_url(session)
    new = live(session)[0]
    assert new.table == 1 and new.token != old.token
    assert opens(Client(), table_url(old)) == 404
    assert opens(Client(), table_url(new)) == 200
    html = logged_in.get(page_url(session)).content.decode()
    assert table_url(new) in html and old.token not in html
    assert "Section A, table 1: new link made" in html


def test_revoke_cuts_the_link_off_until_a_new_one_is_made(logged_in, session, links):
    old = links[1]

    response = logged_in.post(reverse("sessions:director_table_link_revoke", args=[session.pk, old.pk]))

    assert response.status_code == 302
    assert opens(Client(), table_url(old)) == 404
    html = logged_in.get(page_url(session)).content.decode()
    cells = row(html, "A2")
    assert "No live link" in cells and "Make a new link" in cells and old.token not in html
    assert "<svg" not in cells and html.count("<svg") == 2

    response = logged_in.post(reverse("sessions:director_table_link_new", args=[session.pk, "A", 2]))

    assert response.status_code == 302
    (new,) = [link for link in live(session) if link.table == 2]
    assert new.token != old.token and opens(Client(), table_url(new)) == 200
    assert opens(Client(), table_url(old)) == 404
    assert qr(table_url(new)) in row(logged_in.get(page_url(session)).content.decode(), "A2")


def test_a_stale_button_changes_nothing(logged_in, session, links):
    """Renew or revoke sent again (a double click, an old tab) finds the link gone and stops."""
    old = links[0]
    logged_in.post(reverse("sessions:director_table_link_renew", args=[session.pk, old.pk]))
    current = live(session)

    for action in ("renew", "revoke"):
        response = logged_in.post(reverse(f"sessions:director_table_link_{action}", args=[session.pk, old.pk]),
                                  follow=True)
        assert "already renewed or revoked; nothing changed" in response.content.decode()
    response = logged_in.post(reverse("sessions:director_table_link_new", args=[session.pk, "A", 1]), follow=True)
    assert "already has a live link; nothing changed" in response.content.decode()

    assert live(session) == current
    assert TableLink.objects.filter(session=session).count() == 4


def test_a_new_session_has_a_link_per_table_and_revoked_ones_wait_for_the_director(logged_in, session):
    assert len(live(session)) == 3  # made with the session
    TableLink.objects.filter(session=session).update(revoked_at=timezone.now())

    html = logged_in.get(page_url(session)).content.decode()

    assert not live(session)  # reading the page makes nothing
    assert "3 tables without a live link" in html and html.count("No live link") == 3
    assert html.count("Make a new link") == 3  # per table, besides the button at the top for all

    response = logged_in.post(reverse("sessions:director_table_links_make", args=[session.pk]))

    assert response.status_code == 302 and response.url == page_url(session)
    html = logged_in.get(page_url(session)).content.decode()
    assert len(live(session)) == 3 and html.count("<svg") == 3 and "without a live link" not in html


def test_make_links_fills_only_the_tables_without_one(logged_in, session, links):
    phone_link_revoke(link=links[2])

    logged_in.post(reverse("sessions:director_table_links_make", args=[session.pk]))

    now = live(session)
    assert [link.token for link in now[:2]] == [link.token for link in links[:2]]
    assert now[2].table == 3 and now[2].token != links[2].token


def test_the_changes_need_a_post_and_the_csrf_token(director, session, links):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    urls = [
        reverse("sessions:director_table_link_renew", args=[session.pk, links[0].pk]),
        reverse("sessions:director_table_link_revoke", args=[session.pk, links[0].pk]),
        reverse("sessions:director_table_link_new", args=[session.pk, "A", 1]),
        reverse("sessions:director_table_links_make", args=[session.pk]),
    ]

    for url in urls:
        assert client.get(url).status_code == 405
        assert client.post(url).status_code == 403

    assert live(session) == links


def test_a_link_of_another_session_or_a_table_that_does_not_play_is_a_404(logged_in, event, session, links):
    other = make_session(event)
    other_link = table_links_ensure(session=other)[0]

    assert logged_in.post(reverse("sessions:director_table_link_renew", args=[session.pk, other_link.pk])).status_code == 404
    assert logged_in.post(reverse("sessions:director_table_link_revoke", args=[session.pk, other_link.pk])).status_code == 404
    assert logged_in.post(reverse("sessions:director_table_link_new", args=[session.pk, "A", 9])).status_code == 404
    assert logged_in.post(reverse("sessions:director_table_link_new", args=[session.pk, "Z", 1])).status_code == 404
    assert other_link.live and TableLink.objects.get(pk=other_link.pk).revoked_at is None


def test_a_phantom_table_nobody_sits_at_gets_no_link(logged_in, event):
    session = make_session(event, mitchell(3, 2, phantom="3NS"))
    table_links_ensure(session=session)

    html = logged_in.get(page_url(session)).content.decode()

    # Table 3's NS pair is the phantom: the EW pair there sits out, so no one plays there.
    assert re.findall(r'id="table-link-(\w+)"', html) == ["A1", "A2"]
    assert "without a live link" not in html


def test_the_session_page_links_to_the_table_links(logged_in, session):
    html = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    assert f'href="{page_url(session)}"' in html


def test_the_page_takes_the_same_queries_for_3_and_11_tables(logged_in, event):
    counts = []
    for tables in (3, 11):
        session = make_session(event, mitchell(tables, 2), sections=("A", "B"))
        links = table_links_ensure(session=session)
        phone_link_revoke(link=links[1])  # one table without a live link, one with a revoked one
        with CaptureQueriesContext(connection) as queries:
            response = logged_in.get(page_url(session))
        assert response.status_code == 200
        assert response.content.decode().count("<svg") == 2 * tables - 1
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_anonymous_is_sent_to_log_in(client, session, links):
    response = client.get(page_url(session))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
