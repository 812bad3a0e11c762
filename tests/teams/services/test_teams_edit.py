"""Correcting a teams event through the services: teams, matches, adjustments, drawn rounds."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Match, MatchStatus, Player, Team, TeamAdjustment
from sessions.teams.selectors.teams import team_event_score
from sessions.teams.services.teams import (
    adjustment_add,
    adjustment_delete,
    adjustment_edit,
    edit_token,
    match_create,
    match_delete,
    match_edit,
    match_record_line,
    match_set_not_played,
    match_set_played,
    match_set_totals,
    round_robin_schedule,
    round_undo,
    swiss_draw_next_round,
    team_delete,
    team_edit,
    team_event_mark_final,
    team_event_publish,
    team_event_reopen,
    team_event_unpublish,
)
from tests.factories import make_team_event


def _players(club, count, prefix="New"):
    return [Player.objects.create(club=club, name=f"{prefix} {i}") for i in range(count)]


def _standing(event, team):
    return next(line for line in team_event_score(event).standings if line.team == team.pk)


# --- teams ------------------------------------------------------------------------------


def test_a_team_is_renamed_and_its_players_and_captain_changed(club):
    event = make_team_event(club, teams=2)
    team = event.teams.first()
    players = [*team.players.all()[:3], *_players(club, 3)]

    team_edit(team=team, name=" Old  Hands ", players=players, captain=players[4], seen=edit_token(team))

    team.refresh_from_db()
    assert (team.name, team.captain, set(team.players.all())) == ("Old Hands", players[4], set(players))


def test_a_team_edit_keeps_the_size_and_membership_rules(club):
    event = make_team_event(club, teams=2)
    first, second = event.teams.all()
    before = set(first.players.all())

    with pytest.raises(ValidationError, match="4 to 6 players, not 3"):
        team_edit(team=first, name="A", players=list(before)[:3])
    with pytest.raises(ValidationError, match="already in another team of this event"):
        team_edit(team=first, name="A", players=[*list(before)[:3], second.players.first()])
    assert set(first.players.all()) == before


def test_a_stale_team_form_is_refused_and_changes_nothing(club):
    event = make_team_event(club, teams=1)
    team = event.teams.get()
    seen = edit_token(team)
    team_edit(team=team, name="Renamed by another director", players=list(team.players.all()))

    with pytest.raises(ValidationError, match="was changed since this form was opened"):
        team_edit(team=team, name="Mine", players=list(team.players.all()), seen=seen)
    assert Team.objects.get(pk=team.pk).name == "Renamed by another director"


def test_a_team_without_a_match_is_deleted_one_with_a_match_is_refused(club):
    event = make_team_event(club, teams=3, form="match")
    first, second, spare = event.teams.all()
    match_create(event=event, round=1, home=first, away=second, boards=4)

    team_delete(team=spare)
    with pytest.raises(ValidationError, match="Team 1 has 1 match: delete or undo them first"):
        team_delete(team=first)
    assert list(event.teams.values_list("name", flat=True)) == ["Team 1", "Team 2"]


# --- matches ----------------------------------------------------------------------------


def test_a_match_without_results_is_edited_freely(club):
    event = make_team_event(club, teams=3, form="knockout")
    first, second, third = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=4)

    match_edit(match=match, round=2, home=third, away=first, boards=6, first_board=5, carry_over=Decimal("3.5"),
               seen=edit_token(match))

    match.refresh_from_db()
    assert (match.round, match.home, match.away, list(match.board_numbers), match.carry_over) == (
        2, third, first, [5, 6, 7, 8, 9, 10], Decimal("3.5"))


def test_a_match_with_lines_keeps_its_teams_and_its_entered_boards(club):
    event = make_team_event(club, teams=3, form="match")
    first, second, third = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=4)
    match_record_line(match=match, board=3, room="open", text="4S N =")

    with pytest.raises(ValidationError, match="the teams of this match cannot change: it has 1 line entered"):
        match_edit(match=match, round=1, home=first, away=third, boards=4)
    with pytest.raises(ValidationError, match="board 3 has a line and would be outside the match"):
        match_edit(match=match, round=1, home=first, away=second, boards=2)
    match_edit(match=match, round=1, home=first, away=second, boards=6, carry_over=Decimal(2))

    match.refresh_from_db()
    assert (match.away, match.boards, match.carry_over) == (second, 6, 2)


def test_a_stale_match_form_is_refused(club):
    event = make_team_event(club, teams=2, form="match")
    first, second = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=4)
    seen = edit_token(match)
    match_record_line(match=match, board=1, room="open", text="3NT N =")

    with pytest.raises(ValidationError, match="The match was changed since this form was opened"):
        match_edit(match=match, round=1, home=first, away=second, boards=8, seen=seen)
    assert Match.objects.get(pk=match.pk).boards == 4


def test_a_match_is_deleted_only_while_nothing_is_entered(club):
    event = make_team_event(club, teams=2, form="match")
    first, second = event.teams.all()
    empty, with_totals, forfeited = (
        match_create(event=event, round=r, home=first, away=second, boards=4) for r in (1, 2, 3)
    )
    match_set_totals(match=with_totals, home_imps=Decimal(12), away_imps=Decimal(3))
    match_set_not_played(match=forfeited, status="forfeit", home_vp=Decimal(12), away_vp=Decimal(0))

    match_delete(match=empty)
    with pytest.raises(ValidationError, match="its IMP totals are entered"):
        match_delete(match=with_totals)
    with pytest.raises(ValidationError, match="it is marked forfeited"):
        match_delete(match=forfeited)
    assert sorted(event.matches.values_list("round", flat=True)) == [2, 3]


def test_an_average_withdrawn_is_scored_from_its_boards_again(club):
    event = make_team_event(club, teams=2, form="match", vp_scale="20", boards_per_match=2)
    first, second = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=2)
    match_set_not_played(match=match, status="average", home_vp=Decimal(10), away_vp=Decimal(10))
    assert _standing(event, first).vp == 10

    match_set_played(match=match)
    match_record_line(match=match, board=2, room="open", text="4H N =")
    match_record_line(match=match, board=2, room="closed", text="3H N +1")

    match.refresh_from_db()
    assert (match.status, match.home_vp_awarded) == (MatchStatus.PLAYED, None)
    assert _standing(event, first).vp == 14  # 10 IMPs: 14-6 on the 20-VP scale
    with pytest.raises(ValidationError, match="not marked as an average or a forfeit"):
        match_set_played(match=match)


# --- adjustments ------------------------------------------------------------------------


def test_an_adjustment_is_corrected_and_deleted_and_the_standings_follow(club):
    event = make_team_event(club, teams=2)
    first, second = event.teams.all()
    adjustment = adjustment_add(event=event, team=first, kind="penalty", vp=Decimal(3), reason="slow play")

    adjustment_edit(adjustment=adjustment, team=second, kind="fine", vp=Decimal(1), reason="late",
                    seen=edit_token(adjustment))
    assert (_standing(event, first).vp, _standing(event, second).vp) == (0, Fraction(-1))

    adjustment_delete(adjustment=adjustment)
    assert _standing(event, second).vp == 0
    with pytest.raises(ValidationError, match="deleted since this page was opened"):
        adjustment_delete(adjustment=adjustment)


def test_a_stale_or_impossible_adjustment_edit_changes_nothing(club):
    event = make_team_event(club, teams=2)
    first, _ = event.teams.all()
    other_event_team = make_team_event(club, teams=1).teams.get()
    adjustment = adjustment_add(event=event, team=first, kind="other", vp=Decimal(2))
    seen = edit_token(adjustment)
    adjustment_edit(adjustment=adjustment, team=first, kind="other", vp=Decimal(4))

    with pytest.raises(ValidationError, match="The adjustment was changed since"):
        adjustment_edit(adjustment=adjustment, team=first, kind="other", vp=Decimal(1), seen=seen)
    with pytest.raises(ValidationError, match="that team is not in this event"):
        adjustment_edit(adjustment=adjustment, team=other_event_team, kind="other", vp=Decimal(1))
    with pytest.raises(ValidationError):
        adjustment_edit(adjustment=adjustment, team=first, kind="other", vp=Decimal(0))
    assert TeamAdjustment.objects.get().vp == 4


# --- drawn rounds -----------------------------------------------------------------------


def test_the_last_swiss_round_with_nothing_entered_is_undone_and_drawn_again(club):
    event = make_team_event(club, teams=5, form="swiss", boards_per_match=2)
    first_round = swiss_draw_next_round(event=event)
    for match in first_round:
        if match.away_id:
            match_set_totals(match=match, home_imps=Decimal(5), away_imps=Decimal(1))
    swiss_draw_next_round(event=event)

    assert round_undo(event=event, round=2) == 3  # two matches and the bye
    assert sorted(set(event.matches.values_list("round", flat=True))) == [1]
    assert len(swiss_draw_next_round(event=event)) == 3


def test_undoing_a_round_is_refused_with_the_reason(club):
    event = make_team_event(club, teams=4, form="round_robin", boards_per_match=2)
    round_robin_schedule(event=event)
    match = event.matches.filter(round=3).first()
    match_record_line(match=match, board=5, room="open", text="1NT S =")

    with pytest.raises(ValidationError, match="only the last round \\(round 3\\) can be undone, not round 1"):
        round_undo(event=event, round=1)
    with pytest.raises(ValidationError, match="round 3 cannot be undone: .* it has 1 line entered"):
        round_undo(event=event, round=3)
    with pytest.raises(ValidationError, match="round 7 is not drawn"):
        round_undo(event=event, round=7)
    assert event.matches.count() == 6


def test_a_knockout_round_is_undone(club):
    event = make_team_event(club, teams=4, form="knockout")
    teams = list(event.teams.all())
    match_create(event=event, round=1, home=teams[0], away=teams[3])
    match_create(event=event, round=1, home=teams[1], away=teams[2])

    assert round_undo(event=event, round=1) == 2
    assert not event.matches.exists()


# --- final --------------------------------------------------------------------------------


def test_the_event_is_final_only_published_and_complete_and_unpublishing_reopens_it(club):
    event = make_team_event(club, teams=2, form="match")
    first, second = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=2)
    team_event_publish(event=event)

    with pytest.raises(ValidationError, match="has no result yet"):
        team_event_mark_final(event=event)
    match_set_totals(match=match, home_imps=Decimal(4), away_imps=Decimal(0))
    assert team_event_mark_final(event=event).final
    assert not team_event_reopen(event=event).final
    team_event_mark_final(event=event)
    assert not team_event_unpublish(event=event).final
    with pytest.raises(ValidationError, match="publish the event before marking it final"):
        team_event_mark_final(event=event)
