"""Teams events through the services: teams, draws, match entry, VPs and standings."""

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Match, MatchLine, MatchStatus, Player, Team, TeamEvent
from sessions.teams.selectors.teams import team_event_score
from sessions.teams.services.teams import (
    adjustment_add,
    match_create,
    match_record_line,
    match_set_not_played,
    match_set_totals,
    round_robin_schedule,
    swiss_draw_next_round,
    team_add,
    team_event_create,
)
from tests.factories import make_club, make_team_event


def _players(club, count, prefix="P"):
    return [Player.objects.create(club=club, name=f"{prefix} {i}") for i in range(count)]


def _single_match(club, **settings):
    event = make_team_event(club, teams=2, form="match", **settings)
    home, away = event.teams.all()
    return match_create(event=event, round=1, home=home, away=away, boards=settings.get("boards_per_match", 8))


def _scored(match):
    return next(m for m in team_event_score(match.event).matches if m.match.pk == match.pk)


# --- teams -----------------------------------------------------------------------------


def test_a_team_has_four_to_six_players_with_its_captain(club):
    event = team_event_create(club=club, name="Winter Teams", date=datetime.date(2025, 1, 7))
    players = _players(club, 6)

    team = team_add(event=event, name=" North  Stars ", players=players, captain=players[5])

    assert (team.number, team.name, team.captain, team.players.count()) == (1, "North Stars", players[5], 6)


@pytest.mark.parametrize(("count", "reason"), [(3, "4 to 6 players, not 3"), (7, "4 to 6 players, not 7")])
def test_a_team_of_the_wrong_size_is_refused(club, count, reason):
    event = team_event_create(club=club, name="Winter Teams", date=datetime.date(2025, 1, 7))

    with pytest.raises(ValidationError, match=reason):
        team_add(event=event, name="Small", players=_players(club, count))
    assert not Team.objects.exists()


def test_a_captain_outside_the_team_is_refused(club):
    event = team_event_create(club=club, name="Winter Teams", date=datetime.date(2025, 1, 7))
    players = _players(club, 5)

    with pytest.raises(ValidationError, match="captain"):
        team_add(event=event, name="A", players=players[:4], captain=players[4])


def test_a_player_of_another_club_or_another_team_is_refused(club):
    event = team_event_create(club=club, name="Winter Teams", date=datetime.date(2025, 1, 7))
    players = _players(club, 4)
    team_add(event=event, name="A", players=players)
    stranger = Player.objects.create(club=make_club(), name="Stranger")

    with pytest.raises(ValidationError, match="already in another team of this event: P 0 \\(in A\\)"):
        team_add(event=event, name="B", players=[players[0], *_players(club, 3, "Q")])
    with pytest.raises(ValidationError, match="not a player of this club: Stranger"):
        team_add(event=event, name="C", players=[stranger, *_players(club, 3, "R")])
    assert event.teams.count() == 1


@pytest.mark.parametrize(
    ("setting", "value", "reason"),
    [("vp_scale", "25", "not a valid choice"), ("imp_table", "emp1937", "unknown IMP table"),
     ("boards_per_match", 0, "teamevent_has_boards|greater than or equal to 1")],
)
def test_bad_event_settings_are_refused(club, setting, value, reason):
    with pytest.raises(ValidationError, match=reason):
        team_event_create(club=club, name="Bad", date=datetime.date(2025, 1, 7), **{setting: value})
    assert not TeamEvent.objects.exists()


# --- entering a match --------------------------------------------------------------------


def test_seed_swing_through_both_rooms_is_ten_imps(club):
    # seeds/004: 4H making (+620 vulnerable) against 3H+1 (+170) at the other table: 10 IMPs.
    # Board 2: NS vulnerable. Home sits NS in the open room, EW in the closed room.
    match = _single_match(club, vp_scale="20", boards_per_match=2)
    match_record_line(match=match, board=2, room="open", text="4H= N")
    match_record_line(match=match, board=2, room="closed", text="3H+1 N")

    scored = _scored(match)
    assert (scored.outcome.home_points, scored.outcome.away_points) == (10, 0)
    assert (scored.home_vp, scored.away_vp) == (14, 6)  # seeds/004: 10 IMPs is 14-6
    assert not scored.complete  # board 1 has no lines yet


def test_the_tutorials_five_swings_lose_by_nineteen(club):
    # seeds/004 swings (620 v 170, 170 v 620, -100 v 140, equal, -1430 v -680): 10, -10, -6, 0, -13,
    # so the home team loses 10 to 29, by 19: 3-17 on the 20-VP scale. Boards 4, 7, 10 and 13
    # are vulnerable both ways, board 16 EW only.
    match = _single_match(club, vp_scale="20", boards_per_match=16)
    for board, open_room, closed_room in [
        (4, "4H= N", "3H+1 N"), (7, "3H+1 N", "4H= N"), (10, "4H-1 N", "3H= N"),
        (13, "4S= N", "4S= N"), (16, "6S= E", "4S+2 E"),
    ]:
        match_record_line(match=match, board=board, room="open", text=open_room)
        match_record_line(match=match, board=board, room="closed", text=closed_room)

    scored = _scored(match)
    by_board = {board.number: board.home - board.away for board in scored.outcome.boards if board.home is not None}
    assert by_board == {4: 10, 7: -10, 10: -6, 13: 0, 16: -13}
    assert (scored.outcome.home_points, scored.outcome.away_points) == (10, 29)
    assert (scored.home_vp, scored.away_vp) == (3, 17)
    assert not scored.complete  # eleven boards still to come


def test_a_line_that_cannot_be_is_refused_with_the_pairs_entry_message(club):
    match = _single_match(club)

    with pytest.raises(ValidationError) as refused:
        match_record_line(match=match, board=1, room="open", text="8S= N")
    assert "text" in refused.value.message_dict
    with pytest.raises(ValidationError, match="plays boards 1 to 8, not 9"):
        match_record_line(match=match, board=9, room="open", text="4S= N")
    assert not MatchLine.objects.exists()


def test_a_contract_declared_by_the_other_side_in_the_other_room_warns(club):
    match = _single_match(club)
    match_record_line(match=match, board=1, room="open", text="4S= N")

    outcome = match_record_line(match=match, board=1, room="closed", text="4S= E")

    assert "declared by N at the other tables but by E here" in outcome.warnings[0]
    assert MatchLine.objects.count() == 2


def test_a_second_line_for_a_room_replaces_the_first(club):
    match = _single_match(club)
    match_record_line(match=match, board=1, room="open", text="4S= N")
    match_record_line(match=match, board=1, room="open", text="4S-1 N")

    assert [line.ns_score for line in MatchLine.objects.all()] == [-50]


def test_imp_totals_score_a_match_without_its_boards(club):
    match = _single_match(club, vp_scale="30")

    match_set_totals(match=match, home_imps=Decimal(40), away_imps=Decimal(28))

    scored = _scored(match)
    assert (scored.home_vp, scored.away_vp, scored.complete) == (25, 5, True)  # seeds/000: 12 IMPs, 25-5


def test_board_a_match_through_the_services(club):
    # seeds/000: 1 won, 1/2 tied, 0 lost; the board points are the match score.
    match = _single_match(club, scoring="bam", boards_per_match=2)
    for board, open_room, closed_room in [(1, "4S= N", "4S-1 N"), (2, "3NT= S", "3NT= S")]:
        match_record_line(match=match, board=board, room="open", text=open_room)
        match_record_line(match=match, board=board, room="closed", text=closed_room)

    scored = _scored(match)
    assert (scored.home_vp, scored.away_vp) == (Fraction(3, 2), Fraction(1, 2))
    with pytest.raises(ValidationError, match=r"add up to 1 a board \(2 for 2 boards\)"):
        match_set_totals(match=Match.objects.create(
            event=match.event, round=2, home=match.home, away=match.away, boards=2), home_imps=Decimal(2),
            away_imps=Decimal(1))


def test_board_a_match_on_two_points_a_board_through_the_services(club):
    # EBUScoreTeams' scale: 2 won, 1 tied, 0 lost.
    match = _single_match(club, scoring="bam", bam_points=2, boards_per_match=2)
    for board, open_room, closed_room in [(1, "4S= N", "4S-1 N"), (2, "3NT= S", "3NT= S")]:
        match_record_line(match=match, board=board, room="open", text=open_room)
        match_record_line(match=match, board=board, room="closed", text=closed_room)

    scored = _scored(match)
    assert (scored.home_vp, scored.away_vp) == (3, 1)
    totals = Match.objects.create(event=match.event, round=2, home=match.home, away=match.away, boards=2)
    with pytest.raises(ValidationError, match=r"add up to 2 a board \(4 for 2 boards\), not 3"):
        match_set_totals(match=totals, home_imps=Decimal(2), away_imps=Decimal(1))
    match_set_totals(match=totals, home_imps=Decimal(3), away_imps=Decimal(1))


def test_wbf_vps_through_the_services(club):
    match = _single_match(club, vp_scale="wbf2013", boards_per_match=16)
    match_set_totals(match=match, home_imps=Decimal(31), away_imps=Decimal(30))

    assert (_scored(match).home_vp, _scored(match).away_vp) == (Fraction("10.31"), Fraction("9.69"))


def test_a_forfeit_gives_the_stated_vps(club):
    match = _single_match(club, vp_scale="20")

    match_set_not_played(match=match, status=MatchStatus.FORFEIT, home_vp=Decimal(18), away_vp=Decimal(0))

    standings = team_event_score(match.event).standings
    assert [(line.team, line.vp) for line in standings] == [(match.home_id, 18), (match.away_id, 0)]
    with pytest.raises(ValidationError, match="between 0 and 20"):
        match_set_not_played(match=match, status=MatchStatus.AVERAGE, home_vp=Decimal(21), away_vp=Decimal(0))


def test_a_penalty_is_taken_off_the_total(club):
    match = _single_match(club, vp_scale="20")
    match_set_totals(match=match, home_imps=Decimal(12), away_imps=Decimal(12))

    adjustment_add(event=match.event, team=match.home, kind="penalty", vp=Decimal(3), reason="slow play")

    standings = team_event_score(match.event).standings
    assert [(line.team, line.vp) for line in standings] == [(match.away_id, 10), (match.home_id, 7)]


def test_knockout_carry_over_counts_in_the_match(club):
    event = make_team_event(club, teams=2, form="knockout", vp_scale="20")
    home, away = event.teams.all()
    match = match_create(event=event, round=1, home=home, away=away, boards=16, carry_over=Decimal("-3.5"))
    match_set_totals(match=match, home_imps=Decimal(30), away_imps=Decimal(25))

    outcome = _scored(match).outcome
    assert (outcome.home_points, outcome.away_points) == (30, Fraction(57, 2))


# --- draws -------------------------------------------------------------------------------


def test_round_robin_schedule_meets_everyone_once_with_byes(club):
    event = make_team_event(club, teams=5, form="round_robin", bye_vp=Decimal(12))

    matches = round_robin_schedule(event=event)

    played = {frozenset((m.home_id, m.away_id)) for m in matches if m.away_id}
    assert len(played) == 10 and len(matches) == 15
    byes = [m for m in matches if m.status == MatchStatus.BYE]
    assert sorted(m.home_id for m in byes) == sorted(event.teams.values_list("pk", flat=True))
    assert {m.home_vp_awarded for m in byes} == {Decimal(12)}
    assert [m.first_board for m in matches if m.round == 2][0] == 9  # each round its own boards
    with pytest.raises(ValidationError, match="already scheduled"):
        round_robin_schedule(event=event)


def test_swiss_refuses_to_draw_before_the_round_is_complete(club):
    event = make_team_event(club, teams=4, form="swiss")
    swiss_draw_next_round(event=event)

    with pytest.raises(ValidationError, match="round 1 is not complete: Team 1 v Team 2 has no result yet"):
        swiss_draw_next_round(event=event)
    assert Match.objects.filter(round=2).count() == 0


def _strength(team):
    return 100 - 7 * team.number


def test_swiss_of_twelve_teams_over_six_rounds(club):
    event = make_team_event(club, teams=12, form="swiss", vp_scale="wbf2013", boards_per_match=8)
    met = set()
    for round_number in range(1, 7):
        before = team_event_score(event)
        drawn = swiss_draw_next_round(event=event)

        assert {m.round for m in drawn} == {round_number}
        teams = [t for m in drawn for t in (m.home_id, m.away_id)]
        assert sorted(teams) == sorted(before.teams[i].pk for i in range(12))  # each team once
        pairs = {frozenset((m.home_id, m.away_id)) for m in drawn}
        assert not pairs & met  # no repeat opponents
        met |= pairs
        ranked = [line.team for line in before.standings] if round_number > 1 else [t.pk for t in before.teams]
        _check_top_against_top(drawn, ranked, met - pairs)
        for match in drawn:  # the stronger team wins by the difference in strength, plus a little noise
            home, away = Team.objects.get(pk=match.home_id), Team.objects.get(pk=match.away_id)
            margin = _strength(home) - _strength(away) + (round_number * match.pk) % 5
            match_set_totals(match=match, home_imps=Decimal(max(margin, 0) + 10), away_imps=Decimal(max(-margin, 0) + 10))
    assert len(met) == 36


def _check_top_against_top(drawn, ranked, met_before):
    """The top remaining team always meets the highest team below it that it can meet."""
    opponents = {}
    for m in drawn:
        opponents[m.home_id], opponents[m.away_id] = m.away_id, m.home_id
    leader = ranked[0]
    best_unmet = next(team for team in ranked[1:] if frozenset((leader, team)) not in met_before)
    assert opponents[leader] == best_unmet
    # Every match joins teams close in the ranking: none reaches past half the field.
    for m in drawn:
        assert abs(ranked.index(m.home_id) - ranked.index(m.away_id)) <= len(ranked) // 2


def test_an_odd_swiss_gives_the_bye_its_stated_vps(club):
    event = make_team_event(club, teams=5, form="swiss", bye_vp=Decimal("12.00"))

    drawn = swiss_draw_next_round(event=event)

    bye = [m for m in drawn if m.away_id is None]
    assert len(bye) == 1 and bye[0].home.number == 5
    score = team_event_score(event)
    assert next(line.vp for line in score.standings if line.team == bye[0].home_id) == 12


def test_the_database_refuses_a_team_playing_itself_and_a_bye_with_an_opponent(club):
    from django.db import IntegrityError, transaction

    event = make_team_event(club, teams=2)
    home, away = event.teams.all()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(event=event, round=1, home=home, away=home, boards=8)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(event=event, round=1, home=home, away=away, boards=8, status=MatchStatus.BYE,
                             home_vp_awarded=12)
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("scale", "home_imps", "away_imps", "home_vp", "away_vp"),
    [
        ("20", 20, 20, 10, 10),  # seeds/004: a tie gives 10 each
        ("20", 30, 20, 14, 6),  # seeds/004: won by 10 IMPs, 14-6
        ("20", 48, 20, 20, 0),  # seeds/004: won by 28 IMPs, 20-0
        ("20", 20, 32, 5, 15),  # seeds/000: 12 IMPs, 15-5
        ("30", 32, 20, 25, 5),  # seeds/000: 12 IMPs on the 30 scale, 25-5
    ],
)
def test_seed_vp_examples_through_the_services(club, scale, home_imps, away_imps, home_vp, away_vp):
    match = _single_match(club, vp_scale=scale, boards_per_match=7)

    match_set_totals(match=match, home_imps=Decimal(home_imps), away_imps=Decimal(away_imps))

    assert (_scored(match).home_vp, _scored(match).away_vp) == (home_vp, away_vp)


def test_a_knockout_tie_is_decided_by_extra_boards_or_the_stated_rule(club):
    from sessions.teams.selectors.teams import knockout_verdicts

    event = make_team_event(club, teams=2, form="knockout", vp_scale="20", tie_break="extra_boards")
    home, away = event.teams.all()
    main = match_create(event=event, round=1, home=home, away=away, boards=16, carry_over=Decimal(2))
    match_set_totals(match=main, home_imps=Decimal(30), away_imps=Decimal(32))  # 32-32 with the carry-over

    assert knockout_verdicts(team_event_score(event)) == {main.pk: "tied: extra boards to play"}
    extra = match_create(event=event, round=1, home=away, away=home, boards=4, first_board=17)
    match_set_totals(match=extra, home_imps=Decimal(5), away_imps=Decimal(1))
    assert knockout_verdicts(team_event_score(event)) == {main.pk: "Team 2 goes through"}

    TeamEvent.objects.filter(pk=event.pk).update(tie_break="higher_seed")
    extra.delete()
    event.refresh_from_db()
    assert knockout_verdicts(team_event_score(event)) == {main.pk: "Team 1 goes through"}  # team 1 is seeded first
