"""Embeds: a club's results framed by its own sites, and by nobody else's.

The headers decide: a page of a club's published session and its embeds carry
``Content-Security-Policy: frame-ancestors <the club's sites>`` and no X-Frame-Options;
every other page (another club's, a club that lists no site, the director's pages, the
API) keeps ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``. The snippet pages
show the ranking in a narrow page with no site header, and the club's owner gets the
<iframe> to copy on the settings page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions.models import Club
from sessions.clubs.services.clubs import club_update
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session
from tests.pages import PLAYED_LINES, PLAYERS, enter

SITES = ["https://www.homeclub.org.uk", "https://results.example.com:8443"]


def allow(club: Club, origins: list[str]) -> None:
    club_update(club=club, name=club.name, frame_origins="\n".join(origins))


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(part.strip() for part in policy.split(";") if part.strip().startswith("frame-ancestors"))


def framed_by(response, origins: list[str]) -> bool:
    return frame_ancestors(response) == f"frame-ancestors {' '.join(origins)}" and "X-Frame-Options" not in response


def refused(response) -> bool:
    return frame_ancestors(response) == "frame-ancestors 'none'" and response["X-Frame-Options"] == "DENY"


def session_pages(session, pair_id) -> list[str]:
    return [
        reverse("sessions:session_results", args=[session.pk]),
        reverse("sessions:board", args=[session.pk, 1]),
        reverse("sessions:scorecard", args=[session.pk, pair_id(session, "1NS")]),
        reverse("sessions:embed_session", args=[session.pk]),
        reverse("sessions:embed_latest", args=[session.event.club.slug]),
    ]


def test_the_clubs_sites_may_frame_its_session_pages_and_embeds(client, club, played_session, pair_id):
    allow(club, SITES)

    for url in session_pages(played_session, pair_id):
        first = client.get(url)
        assert first.status_code == 200, url
        assert framed_by(first, SITES), url
        assert framed_by(client.get(url), SITES), url  # served from the cache: the same headers
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert not_modified.status_code == 304 and framed_by(not_modified, SITES), url


def test_a_club_that_lists_no_site_is_framed_by_nobody(client, played_session, pair_id):
    for url in session_pages(played_session, pair_id):
        assert refused(client.get(url)), url


def test_another_clubs_pages_keep_their_own_refusal(client, club, played_session, pair_id):
    allow(club, SITES)
    other = make_session(make_event(make_club(name="Other Club")), pair_players=PLAYERS)
    enter(other, PLAYED_LINES)
    session_publish(session=other)

    for url in session_pages(other, pair_id):
        assert refused(client.get(url)), url


def test_the_director_pages_the_club_page_and_the_api_are_never_framed(client, director, club, played_session):
    allow(club, SITES)
    client.force_login(director)
    for url in [
        reverse("sessions:director_session", args=[played_session.pk]),
        reverse("sessions:director_board", args=[played_session.pk, 1]),
        reverse("sessions:director_club_settings", args=[club.slug]),
        reverse("sessions:club", args=[club.slug]),
        f"/api/v1/sessions/{played_session.pk}/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert refused(response), url


def test_a_changed_list_of_sites_changes_the_etag(client, club, played_session):
    url = reverse("sessions:session_results", args=[played_session.pk])
    allow(club, SITES)
    etag = client.get(url)["ETag"]

    allow(club, SITES[:1])

    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and framed_by(response, SITES[:1])


@pytest.mark.parametrize("origin", [
    "http://www.homeclub.org.uk", "*", "https://*.example.com", "'self'", "https://example.com/results",
    "https://example.com; script-src *", "example.com", "https://exa mple.com",
])
def test_only_https_origins_may_be_listed(club, origin):
    with pytest.raises(Exception) as refusal:
        allow(club, [SITES[0], origin])
    assert "https://host" in str(refusal.value)
    club.refresh_from_db()
    assert club.frame_origins == ""


def test_the_settings_page_saves_the_sites_and_shows_the_snippets(client, director, club, played_session):
    client.force_login(director)
    url = reverse("sessions:director_club_settings", args=[club.slug])

    response = client.post(url, {"name": club.name, "frame_origins": "https://WWW.homeclub.org.uk/\n\n"})

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.frame_origins == "https://www.homeclub.org.uk"
    page = client.get(url).content.decode()
    latest = f"http://testserver{reverse('sessions:embed_latest', args=[club.slug])}"
    ranking = f"http://testserver{reverse('sessions:embed_session', args=[played_session.pk])}"
    assert f"&lt;iframe src=&quot;{latest}&quot;" in page  # in a textarea, to copy
    assert f"&lt;iframe src=&quot;{ranking}&quot;" in page
    refused_post = client.post(url, {"name": club.name, "frame_origins": "http://insecure.example"})
    assert refused_post.status_code == 200 and "https://host" in refused_post.content.decode()


def test_the_ranking_embed_is_the_ranking_in_a_narrow_page(client, played_session):
    response = client.get(reverse("sessions:embed_session", args=[played_session.pk]))

    page = response.content.decode()
    assert 'class="site-header"' not in page and "css/embed.css" in page
    assert "Ann Archer &amp; Bob Baker" in page and "75.00" in page and "100.00" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert 'target="_blank" rel="noopener"' in page


def test_the_latest_results_embed_shows_the_latest_session_and_links_the_earlier(client, club, event, played_session):
    later = make_session(event, pair_players=PLAYERS)
    later.date = played_session.date.replace(year=played_session.date.year + 1)
    later.save(update_fields=["date"])
    enter(later, PLAYED_LINES[:3])
    session_publish(session=later)

    page = client.get(reverse("sessions:embed_latest", args=[club.slug])).content.decode()

    assert later.name in page.split("Earlier")[0]
    assert reverse("sessions:session_results", args=[played_session.pk]) in page.split("Earlier")[1]


def test_an_unpublished_session_has_no_embed(client, unpublished_session):
    assert client.get(reverse("sessions:embed_session", args=[unpublished_session.pk])).status_code == 404
    page = client.get(reverse("sessions:embed_latest", args=[unpublished_session.event.club.slug])).content.decode()
    assert "No results published yet" in page and unpublished_session.name not in page
