"""The Django admin: what is saved or deleted there moves the revisions the cached pages
stand on, as the services' writes do."""

import pytest

from sessions.admin import revise_after_admin_write
from sessions.models import Club, ClubDirector, Event, Pair, Player, Result, Seating, Session
from sessions.pairs.services.results import result_record
from tests.factories import make_session


def revisions(session: Session) -> tuple[int, int]:
    session = Session.objects.select_related("event__club").get(pk=session.pk)
    return session.revision, session.event.club.revision


@pytest.fixture
def played(event) -> Session:
    session = make_session(event, pair_players={"1NS": ["Ann Archer", "Bob Baker"]})
    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS",
                  ew_pair="1EW", text="4S N =")
    return session


def test_a_board_changed_in_the_admin_bumps_its_session(played, admin_client):
    board = played.boards.get(number=1)
    before = revisions(played)
    form = {"session": played.pk, "number": 1, "dealer": board.dealer, "vulnerability": "Both", "deal": ""}
    response = admin_client.post(f"/admin/clubsessions/board/{board.pk}/change/", form)
    assert response.status_code == 302
    after = revisions(played)
    assert after[0] > before[0] and after[1] > before[1]


def test_a_result_deleted_in_the_admin_bumps_its_session_and_its_setup(played, admin_client):
    line = Result.objects.get(board__session=played)
    before = Session.objects.get(pk=played.pk)
    response = admin_client.post(f"/admin/clubsessions/result/{line.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    after = Session.objects.get(pk=played.pk)
    assert not Result.objects.filter(pk=line.pk).exists()
    # Not in the change log: the scored figures are read whole again, not board by board.
    assert after.revision > before.revision and after.setup_token != before.setup_token


def test_sessions_deleted_from_the_admin_list_bump_their_club(played, admin_client):
    before = revisions(played)[1]
    response = admin_client.post("/admin/clubsessions/session/", {
        "action": "delete_selected", "_selected_action": [played.pk], "post": "yes",
    })
    assert response.status_code == 302
    assert not Session.objects.filter(pk=played.pk).exists()
    assert Club.objects.get(pk=played.event.club_id).revision > before


def test_a_player_deleted_in_the_admin_bumps_the_sessions_they_played(played, admin_client):
    ann = Player.objects.get(name="Ann Archer")
    before = revisions(played)
    response = admin_client.post(f"/admin/clubsessions/player/{ann.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=ann.pk).exists()
    after = revisions(played)  # the rankings named her: they must not be served as they were
    assert after[0] > before[0] and after[1] > before[1]


def test_players_deleted_from_the_admin_list_bump_the_sessions_they_played(played, admin_client):
    ann = Player.objects.get(name="Ann Archer")
    before = revisions(played)
    response = admin_client.post("/admin/clubsessions/player/", {
        "action": "delete_selected", "_selected_action": [ann.pk], "post": "yes",
    })
    assert response.status_code == 302
    assert not Player.objects.filter(pk=ann.pk).exists()
    after = revisions(played)
    assert after[0] > before[0] and after[1] > before[1]


@pytest.mark.parametrize("row", [
    lambda s: s.event.club,
    lambda s: s.event,
    lambda s: s,
    lambda s: s.boards.get(number=2),
    lambda s: s.sections.get(),
    lambda s: Pair.objects.get(section__session=s, number=2, direction="NS"),
    lambda s: Seating.objects.filter(section__session=s).first(),
    lambda s: Result.objects.get(board__session=s),
    lambda s: Player.objects.get(name="Ann Archer"),
], ids=["club", "event", "session", "board", "section", "pair", "seating", "result", "player"])
def test_every_row_the_admin_can_change_bumps_what_shows_it(played, row):
    before = revisions(played)
    revise_after_admin_write(row(Session.objects.select_related("event__club").get(pk=played.pk)))
    after = revisions(played)
    assert after[0] > before[0] and after[1] > before[1]


def test_a_director_changed_in_the_admin_bumps_the_club(played, director):
    membership = ClubDirector.objects.filter(club=played.event.club_id).first() or ClubDirector.objects.create(
        user=director, club=played.event.club
    )
    before = revisions(played)[1]
    revise_after_admin_write(membership)
    assert revisions(played)[1] > before


def test_every_model_the_admin_shows_revises(played):
    from django.contrib import admin

    from sessions.admin import RevisingAdmin

    ours = [model for model in admin.site._registry if model._meta.app_label == "clubsessions"]
    assert {Club, Event, Session, Pair, Player} <= set(ours)
    assert all(isinstance(admin.site._registry[model], RevisingAdmin) for model in ours)
