"""Every write bumps the revision the cached pages stand on, in its own transaction.

Each case below is one write service run on a published 3-table Mitchell with board 1
entered (1NS v 1EW, 3NS v 2EW, 2NS v 3EW); the session's revision and its club's must
both have moved afterwards. A service that forgot its bump would leave the players'
pages served from the cache with the figures from before the write.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db.models import F
from django.utils import timezone

from sessions.models import Club, Match, MatchLine, Pair, Player, Result, Session, Team, TeamAdjustment, TeamEvent
from sessions.movements import mitchell
from sessions.pairs.services.results import board_set_groups, result_correct, result_delete, result_record
from sessions.clubs.services.clubs import club_update
from sessions.pairs.services.events import event_create, event_update
from sessions.clubs.services.players import (
    pair_change_players, pair_name_players, pair_set_players, player_add, player_find_or_add,
    player_find_or_add_numbered, session_name_players,
)
from sessions.pairs.services.sessions import session_publish, session_unpublish
from sessions.analysis.services.analysis import analysis_request, analysis_run, deals_generate, hand_records_load
from sessions.clubs.services.player_records import player_merge, player_update
from sessions.pairs.services.repair import (
    TableSeating,
    pair_add_late,
    pair_withdraw,
    result_reassign_pairs,
    result_turn_round,
    round_set_seatings,
    seating_turn_round,
    session_change_movement,
    session_delete,
    session_update,
)
from sessions.clubs.services.masterpoints import session_award_masterpoints
from sessions.clubs.services.handicaps import session_compute_handicaps, session_set_handicaps
from sessions.pairs.services.penalties import penalty_give, penalty_remove
from sessions.core.services.unit_of_work import unit_of_work
from sessions.pairs.services.sessions import session_mark_final, session_reopen
from sessions.phones.services.team_tables import match_table_confirm, match_table_links_ensure, match_table_send
from sessions.teams.services.teams import (
    adjustment_add,
    adjustment_delete,
    adjustment_edit,
    match_create,
    match_delete,
    match_delete_line,
    match_edit,
    match_record_line,
    match_set_not_played,
    match_set_played,
    match_set_totals,
    round_robin_schedule,
    round_undo,
    swiss_draw_next_round,
    team_add,
    team_delete,
    team_edit,
    team_event_mark_final,
    team_event_publish,
    team_event_reopen,
    team_event_unpublish,
)
from sessions.phones.services.tables import (
    SeatChoice, table_deal_enter, table_entry_confirm, table_entry_refuse, table_entry_send, table_links_ensure,
    table_seat_players,
)
from sessions.transfer.services.importing import results_import
from tests.factories import make_session, make_team_event
from tests.formats.data_files import pbn_bytes

PLAYERS = {"1NS": ["Ann Archer", "Bob Baker"], "1EW": ["Gil Grant", "Hal Hunt"]}


def record(session: Session, number: int, ns: str, ew: str, text: str) -> Result:
    board = session.boards.get(number=number)
    return result_record(board=board, section=session.sections.get(), ns_pair=ns, ew_pair=ew, text=text).result


@pytest.fixture
def played(event) -> Session:
    session = make_session(event, pair_players=PLAYERS)
    record(session, 1, "1NS", "1EW", "4S N +1")
    record(session, 1, "3NS", "2EW", "4S N =")
    record(session, 1, "2NS", "3EW", "4S N -1")
    return session_publish(session=session)


def line(session: Session, ns: str) -> Result:
    return Result.objects.get(board__session=session, board__number=1, ns_pair__number=int(ns[0]))


def pair(session: Session, label: str) -> Pair:
    return next(p for p in session.sections.get().pairs.all() if p.label == label)


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def send(session: Session, table: int = 2, text: str = "3NT S =") -> str:
    """NS of ``table`` send board 3 (round 1, 2NS v 2EW), waiting for EW."""
    link = {link.table: link for link in table_links_ensure(session=session)}[table]
    client_key = uuid.uuid4().hex
    table_entry_send(link=link, board=session.boards.get(number=3), text=text, client_key=client_key)
    return client_key


def _link(session: Session, table: int = 2):
    return {link.table: link for link in table_links_ensure(session=session)}[table]


def _nothing(session: Session) -> None:
    return None


def _club_awards_nz_points(session: Session) -> None:
    Club.objects.filter(pk=session.event.club_id).update(masterpoint_federation="nzb")


def _graded(session: Session) -> None:
    """Handicaps from national grades, Ann Archer's entered (RULES 14)."""
    Club.objects.filter(pk=session.event.club_id).update(handicap_source="grade")
    Player.objects.filter(name="Ann Archer").update(grade=Decimal("60"))


def _without_3ns_line(session: Session) -> None:
    """Board 1's 3NS v 2EW line gone (straight from the table, no service): the 2NS line
    may then be reassigned to them."""
    line(session, "3NS").delete()


def _round_1_turned(session: Session) -> list[TableSeating]:
    """Round 1 as seated, but table 2's pairs the other way round."""
    seatings = session.sections.get().seatings.filter(round=1).select_related("ns_pair", "ew_pair")
    return [
        TableSeating(s.table, *((s.ew_pair.label, s.ns_pair.label) if s.table == 2 else (s.ns_pair.label, s.ew_pair.label)),
                     tuple(s.boards))
        for s in seatings
    ]


#: Each write: (what to prepare first, unmeasured; the write, given the session and what was prepared).
WRITES: dict[str, tuple[Callable[[Session], object], Callable[[Session, object], object]]] = {
    "result_record": (_nothing, lambda s, _: record(s, 2, "1NS", "1EW", "3NT S =")),
    "result_correct": (_nothing, lambda s, _: result_correct(result=line(s, "1NS"), text="4S N =", version=1)),
    "result_delete": (_nothing, lambda s, _: result_delete(result=line(s, "1NS"), version=1)),
    "board_set_groups": (_nothing, lambda s, _: board_set_groups(
        board=s.boards.get(number=1),
        groups={r.pk: 1 if r.ns_pair.number == 1 else 2 for r in Result.objects.filter(board__session=s)},
    )),
    "table_entry_send": (_nothing, lambda s, _: send(s)),
    "table_entry_confirm": (send, lambda s, key: table_entry_confirm(link=_link(s), client_key=key)),
    "table_entry_refuse": (send, lambda s, key: table_entry_refuse(link=_link(s), client_key=key)),
    "result_reassign_pairs": (_without_3ns_line, lambda s, _: result_reassign_pairs(
        result=line(s, "2NS"), ns_pair="3NS", ew_pair="2EW", version=1)),
    "result_turn_round": (_nothing, lambda s, _: result_turn_round(result=line(s, "1NS"), version=1)),
    "seating_turn_round": (_nothing, lambda s, _: seating_turn_round(section=s.sections.get(), round=1, table=1)),
    "round_set_seatings": (_round_1_turned, lambda s, seatings: round_set_seatings(
        section=s.sections.get(), round=1, seatings=seatings)),
    "pair_withdraw": (_nothing, lambda s, _: pair_withdraw(pair=pair(s, "1EW"), from_round=2)),
    "session_update": (_nothing, lambda s, _: session_update(session=s, name="Renamed", date=datetime.date(2025, 1, 1))),
    "session_publish": (lambda s: session_unpublish(session=s), lambda s, _: session_publish(session=Session.objects.get(pk=s.pk))),
    "session_unpublish": (_nothing, lambda s, _: session_unpublish(session=s)),
    "session_mark_final": (_nothing, lambda s, _: session_mark_final(session=s)),
    "session_reopen": (lambda s: session_mark_final(session=s), lambda s, _: session_reopen(session=Session.objects.get(pk=s.pk))),
    "pair_set_players": (_nothing, lambda s, _: pair_set_players(
        pair=pair(s, "1NS"), player_1=player("Bob Baker"), player_2=player("Ann Archer"))),
    "pair_name_players": (_nothing, lambda s, _: pair_name_players(
        pair=pair(s, "2NS"), players=[("Cat Cole", ""), ("Dan Dale", "")])),
    "session_name_players": (_nothing, lambda s, _: session_name_players(
        pairs=[pair(s, "2NS")], players={pair(s, "2NS").pk: [("Cat Cole", ""), ("Dan Dale", "")]})),
    "pair_change_players": (_nothing, lambda s, _: pair_change_players(
        pair=pair(s, "1NS"), player_1=player("Ann Archer"), player_2=player_add(club=s.event.club, name="Sub"),
        from_round=2)),
    "player_update": (_nothing, lambda s, _: player_update(player=player("Ann Archer"), name="Ann Archer-Smith")),
    "player_merge": (lambda s: player_add(club=s.event.club, name="A. Archer"),
                     lambda s, keep: player_merge(keep=keep, merge=player("Ann Archer"))),
    "player_find_or_add_numbered": (_nothing, lambda s, _: player_find_or_add_numbered(
        club=s.event.club, name="Ann Archer", national_number="12345")),
    "event_update": (_nothing, lambda s, _: event_update(event=s.event, mp_scale="acbl")),
    "session_set_handicaps": (_nothing, lambda s, _: session_set_handicaps(
        session=s, handicaps={pair(s, "1NS").pk: Decimal("-2.5")})),
    "session_compute_handicaps": (_graded, lambda s, _: session_compute_handicaps(session=s)),
    "club_update": (_nothing, lambda s, _: club_update(club=s.event.club, name="Renamed Club")),
    "deals_generate": (_nothing, lambda s, _: deals_generate(session=s, seed=1)),
    "session_award_masterpoints": (_club_awards_nz_points, lambda s, _: session_award_masterpoints(session=s)),
    "penalty_give": (_nothing, lambda s, _: penalty_give(
        pair=pair(s, "1NS"), amount=Decimal("25"), penalty_unit="TOP", reason="slow play")),
    "penalty_remove": (lambda s: penalty_give(pair=pair(s, "2NS"), amount=Decimal("1"), penalty_unit="MP",
                                              reason="late"),
                       lambda s, penalty: penalty_remove(penalty=penalty)),
    "hand_records_load": (_nothing, lambda s, _: hand_records_load(session=s, data=pbn_bytes("bridgewebs_hands_welwyn.pbn"))),
    "analysis_request": (lambda s: deals_generate(session=s, seed=1),
                         lambda s, _: analysis_request(boards=list(s.boards.all()))),
    "table_deal_enter": (_nothing, lambda s, _: table_deal_enter(
        link=_link(s, 1), board=s.boards.get(number=1),
        hands={"north": "A98.J92.A75.Q852", "east": "532.86.K632.KJT7", "south": "KQ4.AKT73.JT.A93"})),
    "table_seat_players": (_nothing, lambda s, _: table_seat_players(
        link=_link(s, 1), seating=s.sections.get().seatings.get(round=1, table=1),
        seats={"N": SeatChoice(name="Zed Zee")})),
}


@pytest.mark.parametrize(("prepare", "write"), WRITES.values(), ids=WRITES.keys())
def test_every_write_bumps_the_session_and_its_club(played, prepare, write):
    prepared = prepare(Session.objects.get(pk=played.pk))
    before = Session.objects.get(pk=played.pk)
    club_before = Club.objects.get(pk=played.event.club_id)

    write(Session.objects.get(pk=played.pk), prepared)

    after = Session.objects.get(pk=played.pk)
    club_after = Club.objects.get(pk=played.event.club_id)
    assert after.revision > before.revision
    assert after.revised_at >= before.revised_at
    assert club_after.revision > club_before.revision


def test_adding_a_player_bumps_the_club(club):
    before = Club.objects.get(pk=club.pk).revision
    player_add(club=club, name="New Player")
    assert Club.objects.get(pk=club.pk).revision > before


def _revision(session: Session) -> int:
    return Session.objects.values_list("revision", flat=True).get(pk=session.pk)


def test_the_analysis_of_each_board_bumps_the_session(played):
    deals_generate(session=played, seed=1)
    before = _revision(played)
    report = analysis_run(session=played)
    assert report.done
    assert _revision(played) >= before + len(report.done)


def test_a_new_movement_and_a_late_pair_bump_the_session(event):
    session = make_session(event, mitchell(3, 2, phantom="3EW"))
    before = _revision(session)
    pair_add_late(section=session.sections.get(), from_round=2)
    assert _revision(session) > before
    before = _revision(session)
    session_change_movement(session=session, movement=mitchell(4, 2))
    assert _revision(session) > before


def test_a_new_session_and_a_new_event_bump_the_club(event):
    club = Club.objects.get(pk=event.club_id)
    before = club.revision
    make_session(event)
    after_session = Club.objects.get(pk=club.pk).revision
    event_create(club=club, name="Friday Pairs")
    assert before < after_session < Club.objects.get(pk=club.pk).revision
    player_find_or_add(club=club, name="Brand New Player")
    assert Club.objects.get(pk=club.pk).revision > after_session + 1


def test_a_competition_bumps_its_club(event):
    """The competition's page stands on the club's revision (sessions.clubs.views.competitions)."""
    from sessions.clubs.services.competitions import competition_create, competition_update

    before = Club.objects.get(pk=event.club_id).revision
    competition = competition_create(event=event, name="Club Cup")
    created = Club.objects.get(pk=event.club_id).revision
    competition_update(competition=competition, name="Club Cup", minimum_sessions=2)
    assert before < created < Club.objects.get(pk=event.club_id).revision


def test_deleting_a_session_bumps_its_club(event):
    session = make_session(event)
    before = Club.objects.get(pk=event.club_id).revision
    session_delete(session=session)
    assert Club.objects.get(pk=event.club_id).revision > before


def test_an_import_bumps_the_club_and_gives_the_new_session_a_revision(club):
    before = Club.objects.get(pk=club.pk).revision
    report = results_import(club=club, data=pbn_bytes("ruter_mp_pairs_sm2.pbn"), filename="ruter_mp_pairs_sm2.pbn")
    assert Club.objects.get(pk=club.pk).revision > before
    assert _revision(report.session) > 0


def test_event_settings_bump_every_session_of_the_event(played):
    other = make_session(played.event)
    before = {s.pk: _revision(s) for s in (played, other)}
    event_update(event=played.event, mp_scale="acbl")
    assert all(_revision(s) > before[s.pk] for s in (played, other))


def test_two_bumps_from_stale_objects_are_both_counted(played):
    """An F() update: two writers holding the same loaded row never lose a bump."""
    first, second = Session.objects.get(pk=played.pk), Session.objects.get(pk=played.pk)
    before = first.revision
    for stale in (first, second):
        with unit_of_work() as unit:
            unit.touch(sessions=[stale])
    assert _revision(played) == before + 2


def test_a_full_save_of_a_stale_session_keeps_the_revision(played):
    stale = Session.objects.get(pk=played.pk)
    Session.objects.filter(pk=played.pk).update(revision=F("revision") + 5, revised_at=timezone.now())
    stale.name = "Saved whole"
    stale.save()
    fresh = Session.objects.get(pk=played.pk)
    assert (fresh.name, fresh.revision) == ("Saved whole", stale.revision + 5)


def test_publishing_a_teams_event_bumps_the_club_whose_page_lists_it(club):
    event = make_team_event(club)
    swiss_draw_next_round(event=event)
    before = Club.objects.get(pk=club.pk).revision
    team_event_publish(event=event)
    published = Club.objects.get(pk=club.pk).revision
    team_event_unpublish(event=event)
    assert before < published < Club.objects.get(pk=club.pk).revision


def test_a_change_of_lines_locks_its_session_before_it_logs_the_change(played):
    """The change log's entries of line changes take their ids in commit order (the kept
    figures are brought up to date from the entries after the last one read): the
    session's row is locked (by the unit of work, on PostgreSQL its SELECT ... FOR UPDATE;
    any UPDATE of the row locks it too) before the entry is inserted."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        result_correct(result=line(played, "1NS"), text="4S N =", version=1)
    statements = [query["sql"] for query in captured]
    lock = next(i for i, sql in enumerate(statements) if sql.startswith('UPDATE "clubsessions_session"') or (
        connection.features.has_select_for_update and 'FROM "clubsessions_session"' in sql and "FOR UPDATE" in sql))
    logged = next(i for i, sql in enumerate(statements) if sql.startswith('INSERT INTO "clubsessions_resultchange"'))
    assert lock < logged


# --- teams events ---------------------------------------------------------------------------
#
# Each case below is one write run on a published Swiss of four teams, two boards a match,
# round 1 drawn (team 1 v team 4, team 2 v team 3: the top half against the bottom) with
# nothing entered; the event's revision must have moved afterwards.


@pytest.fixture
def teams_event(club) -> TeamEvent:
    event = make_team_event(club, teams=4, form="swiss", boards_per_match=2, vp_scale="20")
    swiss_draw_next_round(event=event)
    return team_event_publish(event=event)


def _match(event: TeamEvent, home: int = 1) -> Match:
    return Match.objects.select_related("event", "home", "away").get(event=event, round=1, home__number=home)


def _team(event: TeamEvent, number: int) -> Team:
    return Team.objects.select_related("event").get(event=event, number=number)


def _new_players(event: TeamEvent) -> list[Player]:
    return [player_add(club=event.club, name=f"New Player {seat}") for seat in range(4)]


def _totals(event: TeamEvent) -> None:
    for match in Match.objects.filter(event=event, round=1).select_related("event"):
        match_set_totals(match=match, home_imps=Decimal(10), away_imps=Decimal(3))


def _record(event: TeamEvent) -> None:
    match_record_line(match=_match(event), board=1, room="open", text="4S N =")


def _room(event: TeamEvent, room: str = "open"):
    return {link.room: link for link in match_table_links_ensure(event=event, round=1) if link.match.home.number == 1}[room]


def _phone_send(event: TeamEvent) -> str:
    client_key = uuid.uuid4().hex
    match_table_send(link=_room(event), board=1, text="4S N =", client_key=client_key)
    return client_key


def _adjustment(event: TeamEvent) -> TeamAdjustment:
    return adjustment_add(event=event, team=_team(event, 1), kind="penalty", vp=Decimal(2))


def _fresh(event: TeamEvent) -> TeamEvent:
    return TeamEvent.objects.get(pk=event.pk)


def _round_robin_undrawn(event: TeamEvent) -> None:
    round_undo(event=event, round=1)
    TeamEvent.objects.filter(pk=event.pk).update(form="round_robin")


#: Each write: (what to prepare first, unmeasured; the write, given the event and what was prepared).
TEAM_WRITES: dict[str, tuple[Callable[[TeamEvent], object], Callable[[TeamEvent, object], object]]] = {
    "team_add": (_new_players, lambda e, players: team_add(event=e, name="Team 5", players=players)),
    "team_edit": (_nothing, lambda e, _: team_edit(team=_team(e, 1), name="Renamed", players=list(
        _team(e, 1).players.all()))),
    "team_delete": (lambda e: team_add(event=e, name="Team 5", players=_new_players(e)),
                    lambda e, team: team_delete(team=team)),
    "round_robin_schedule": (_round_robin_undrawn, lambda e, _: round_robin_schedule(event=_fresh(e))),
    "swiss_draw_next_round": (_totals, lambda e, _: swiss_draw_next_round(event=e)),
    "match_create": (_nothing, lambda e, _: match_create(event=e, round=2, home=_team(e, 1), away=_team(e, 2))),
    "match_record_line": (_nothing, lambda e, _: _record(e)),
    "match_delete_line": (_record, lambda e, _: match_delete_line(match=_match(e), board=1, room="open", version=1)),
    "match_set_totals": (_nothing, lambda e, _: match_set_totals(
        match=_match(e), home_imps=Decimal(10), away_imps=Decimal(3))),
    "match_set_not_played": (_nothing, lambda e, _: match_set_not_played(
        match=_match(e), status="average", home_vp=Decimal(10), away_vp=Decimal(10))),
    "match_set_played": (lambda e: match_set_not_played(match=_match(e), status="forfeit", home_vp=Decimal(12),
                                                        away_vp=Decimal(0)),
                         lambda e, _: match_set_played(match=_match(e))),
    "match_edit": (_nothing, lambda e, _: match_edit(match=_match(e), round=1, home=_team(e, 1), away=_team(e, 4),
                                                     boards=3)),
    "match_delete": (_nothing, lambda e, _: match_delete(match=_match(e))),
    "adjustment_add": (_nothing, lambda e, _: _adjustment(e)),
    "adjustment_edit": (_adjustment, lambda e, adjustment: adjustment_edit(
        adjustment=adjustment, team=_team(e, 2), kind="penalty", vp=Decimal(3))),
    "adjustment_delete": (_adjustment, lambda e, adjustment: adjustment_delete(adjustment=adjustment)),
    "round_undo": (_nothing, lambda e, _: round_undo(event=e, round=1)),
    "team_event_publish": (lambda e: team_event_unpublish(event=e), lambda e, _: team_event_publish(event=e)),
    "team_event_unpublish": (_nothing, lambda e, _: team_event_unpublish(event=e)),
    "team_event_mark_final": (_totals, lambda e, _: team_event_mark_final(event=e)),
    "team_event_reopen": (lambda e: (_totals(e), team_event_mark_final(event=e)),
                          lambda e, _: team_event_reopen(event=_fresh(e))),
    "match_table_send, recorded at once": (
        lambda e: TeamEvent.objects.filter(pk=e.pk).update(table_confirmation=False), lambda e, _: _phone_send(e)),
    "match_table_confirm": (_phone_send, lambda e, key: match_table_confirm(link=_room(e), client_key=key)),
    "player_update": (_nothing, lambda e, _: player_update(
        player=_team(e, 1).players.first(), name="Renamed Player")),
    "club_update": (_nothing, lambda e, _: club_update(club=e.club, name="Renamed Club")),
}


@pytest.mark.parametrize(("prepare", "write"), TEAM_WRITES.values(), ids=TEAM_WRITES.keys())
def test_every_teams_write_bumps_the_event(teams_event, prepare, write):
    prepared = prepare(_fresh(teams_event))
    before = _fresh(teams_event)

    write(_fresh(teams_event), prepared)

    after = _fresh(teams_event)
    assert after.revision > before.revision
    assert after.revised_at >= before.revised_at


def test_a_teams_import_bumps_its_event_after_its_last_line(club):
    """The import writes matches and lines itself, after the teams (which team_add bumps)."""
    from sessions.transfer.services.teams_import import teams_import
    from tests.formats.data_files import DATA_DIR

    path = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"
    event = teams_import(club=club, data=path.read_bytes(), filename=path.name).event

    last_line = MatchLine.objects.filter(match__event=event).latest("updated_at")
    assert _fresh(event).revised_at >= last_line.updated_at


def test_a_phone_send_waiting_for_ew_leaves_the_teams_pages_alone(teams_event):
    """Nothing the public pages show changes until EW confirm (the line is not stored)."""
    before = _fresh(teams_event).revision
    _phone_send(teams_event)
    assert _fresh(teams_event).revision == before
