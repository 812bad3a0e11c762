"""Who sees what through the API, its ETags and its pages.

Personas: the public (no key), the club's own key, a revoked key of the club, another
club's key, and a header that names no key. The public sees published results only (an
unpublished session is a 404 as on the pages); the club's key also sees its own club's
unpublished sessions; nobody's key opens another club's.
"""

from __future__ import annotations

import pytest

from sessions.models import ApiKey
from sessions.api.services.api_keys import api_key_create, api_key_revoke
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session
from tests.pages import PLAYED_LINES, PLAYERS, enter


def bearer(key: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


@pytest.fixture
def own_key(club) -> str:
    return api_key_create(club=club, name="Club website")[1]


@pytest.fixture
def other_key(db) -> str:
    return api_key_create(club=make_club(name="Other Club"), name="Their website")[1]


def unpublished_urls(session, pair_id) -> list[str]:
    return [f"/api/v1/sessions/{session.pk}/", f"/api/v1/sessions/{session.pk}/ranking/",
            f"/api/v1/sessions/{session.pk}/boards/1/", f"/api/v1/sessions/{session.pk}/pairs/{pair_id(session, '1NS')}/"]


def test_an_unpublished_session_is_a_404_for_the_public(client, unpublished_session, pair_id):
    for url in unpublished_urls(unpublished_session, pair_id):
        assert client.get(url).status_code == 404, url


def test_the_clubs_own_key_sees_its_unpublished_session(client, unpublished_session, pair_id, own_key):
    for url in unpublished_urls(unpublished_session, pair_id):
        response = client.get(url, **bearer(own_key))
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-cache"  # never kept by a shared cache
        assert "Authorization" in response["Vary"]
    body = client.get(f"/api/v1/sessions/{unpublished_session.pk}/", **bearer(own_key)).json()
    assert body["session"]["published"] is False
    listed = client.get(f"/api/v1/clubs/{unpublished_session.event.club.slug}/sessions/", **bearer(own_key)).json()
    assert [item["id"] for item in listed["items"]] == [unpublished_session.pk]
    public = client.get(f"/api/v1/clubs/{unpublished_session.event.club.slug}/sessions/").json()
    assert public == {"items": [], "count": 0}


def test_another_clubs_key_sees_nothing_unpublished(client, unpublished_session, pair_id, other_key):
    for url in unpublished_urls(unpublished_session, pair_id):
        assert client.get(url, **bearer(other_key)).status_code == 404, url


def test_a_revoked_or_unknown_key_is_refused(client, club, unpublished_session, pair_id, own_key):
    api_key_revoke(api_key=ApiKey.objects.get(club=club))
    url = f"/api/v1/sessions/{unpublished_session.pk}/"
    for header in [f"Bearer {own_key}", "Bearer cs_not-a-key", "Basic dXNlcjpwdw==", "Bearer", own_key]:
        response = client.get(url, HTTP_AUTHORIZATION=header)
        assert response.status_code == 401, header
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Bearer {own_key}").status_code == 401


def test_a_key_is_stored_only_as_its_digest_and_notes_its_use(client, club, played_session, own_key):
    stored = ApiKey.objects.get(club=club)
    assert own_key not in {stored.hashed_key, stored.prefix} and own_key.startswith(stored.prefix)
    assert stored.last_used_at is None

    client.get(f"/api/v1/sessions/{played_session.pk}/", **bearer(own_key))

    stored.refresh_from_db()
    assert stored.last_used_at is not None


def test_a_conditional_get_with_the_etag_gets_a_304_until_a_write(client, played_session):
    url = f"/api/v1/sessions/{played_session.pk}/ranking/"
    first = client.get(url)
    etag = first["ETag"]

    again = client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert (first.status_code, again.status_code) == (200, 304)
    assert again.content == b""
    result_record(board=played_session.boards.get(number=3), section=played_session.sections.get(),
                  ns_pair="1NS", ew_pair="3EW", text="3NT N =")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_public_and_a_key_never_share_an_etag(client, played_session, own_key):
    url = f"/api/v1/sessions/{played_session.pk}/"
    public_etag = client.get(url)["ETag"]

    assert client.get(url, HTTP_IF_NONE_MATCH=public_etag, **bearer(own_key)).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=public_etag).status_code == 304


def test_lists_come_a_page_at_a_time(client, event):
    sessions = []
    for _ in range(5):
        session = make_session(event)
        enter(session, PLAYED_LINES[:1])
        sessions.append(session_publish(session=session))
    url = f"/api/v1/clubs/{event.club.slug}/sessions/"

    pages = [client.get(url, {"page": page, "page_size": 2}).json() for page in (1, 2, 3, 4)]

    assert [len(page["items"]) for page in pages] == [2, 2, 1, 0]
    assert {page["count"] for page in pages} == {5}
    assert sorted(item["id"] for page in pages for item in page["items"]) == sorted(s.pk for s in sessions)
    for bad in [{"page": 0}, {"page": "x"}, {"page": 10**30}, {"page_size": 501}]:
        assert client.get(url, bad).status_code == 422, bad


def test_a_hidden_ranking_stays_hidden(client, club, pair_id, own_key):
    # An event that ranks at the end: nothing of the ranking before the session is final.
    session = make_session(make_event(club, live_rankings="end"), pair_players=PLAYERS)
    enter(session, PLAYED_LINES)
    session_publish(session=session)

    assert client.get(f"/api/v1/sessions/{session.pk}/ranking/").json() == {"items": [], "count": 0}
    assert client.get(f"/api/v1/sessions/{session.pk}/").json()["ranking_hidden"] is True
    card = client.get(f"/api/v1/sessions/{session.pk}/pairs/{pair_id(session, '1NS')}/").json()
    assert card["standing"] is None
    assert client.get(f"/api/v1/sessions/{session.pk}/ranking/", **bearer(own_key)).json()["count"] == 6


def test_the_api_only_reads(client, played_session):
    url = f"/api/v1/sessions/{played_session.pk}/"
    assert [client.generic(method, url).status_code for method in ("POST", "PUT", "PATCH", "DELETE")] == [405] * 4
