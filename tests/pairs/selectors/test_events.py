"""event_ranking: an event's sessions ranked together, competitors matched by their players.

Every session is the conftest's 3-table Mitchell with board 1 alone entered: board 1 is
played by 1NS v 1EW, 3NS v 2EW and 2NS v 3EW, so with three results (top 4 on the
2-1 scale, one board) 4S+1 (450) scores 100 %, 4S= (420) 50 % and 4S-1 (-50) 0 %, and
the EW pair the opposite. Percentages below are worked from that.
"""

from fractions import Fraction

import pytest

from sessions.models import Combination, CombinedBy, LiveRankings, ScoringMethod, Seating
from sessions.pairs.selectors.events import event_ranking
from sessions.pairs.services.events import event_update
from sessions.clubs.services.players import pair_change_players, player_add
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from tests.factories import make_session

BOARD_1 = (("1NS", "1EW"), ("3NS", "2EW"), ("2NS", "3EW"))
TOP, MIDDLE, BOTTOM = "4S N +1", "4S N =", "4S N -1"


def played(event, players, texts, *, publish=True):
    """A session with named pairs (label -> two names) and board 1 entered (NS label -> result)."""
    session = make_session(event, pair_players=players)
    board, section = session.boards.get(number=1), session.sections.get()
    for ns, ew in BOARD_1:
        result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=texts[ns])
    return session_publish(session=session) if publish else session


def ranked(ranking):
    return [(row.place, row.name, row.total) for row in ranking.rows if row.standing.ranked]


@pytest.fixture
def two_evenings(event):
    # S1: Ann & Bob 1NS (100 %), Cat & Dan 2NS (50 %).
    first = played(event, {"1NS": ("Ann", "Bob"), "2NS": ("Cat", "Dan")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM})
    # S2: the same players as other pairs, Ann & Bob sitting the other way round in 2EW,
    # which meets 3NS (50 %, so 2EW 50 %); Cat & Dan 1NS (0 %).
    second = played(event, {"2EW": ("Bob", "Ann"), "1NS": ("Cat", "Dan")}, {"1NS": BOTTOM, "2NS": TOP, "3NS": MIDDLE})
    return first, second


def test_a_pair_is_the_same_pair_when_both_players_are_the_same_whatever_its_number(event, two_evenings):
    # Ann & Bob (100 + 50) / 2 = 75; Cat & Dan (50 + 0) / 2 = 25. Everyone else played once.
    event_update(event=event, combination=Combination.AVERAGE, minimum_sessions=2)
    ranking = event_ranking(event=event)
    assert ranked(ranking) == [("1", "Ann & Bob", Fraction(75)), ("2", "Cat & Dan", Fraction(25))]
    assert len(ranking.rows) == 2 + 4 + 4  # the unnamed pairs stand alone, unranked
    assert not ranking.error


def test_scaled_matchpoints_add_each_sessions_percentage_of_the_common_top(event, two_evenings):
    # Each session's most a pair could score: top 4 x 1 board. Ann & Bob 4 + 2, Cat & Dan 2 + 0.
    event_update(event=event, combination=Combination.SCALED, minimum_sessions=2)
    ranking = event_ranking(event=event)
    assert ranking.result.common_top == 4
    assert ranked(ranking) == [("1", "Ann & Bob", Fraction(6)), ("2", "Cat & Dan", Fraction(2))]


def test_each_cell_names_the_pair_played_in_that_session(event, two_evenings):
    first, second = two_evenings
    row = event_ranking(event=event).rows[0]
    assert row.name == "Ann & Bob"
    assert [(cell.pair.section.session_id, cell.pair.label) for cell in row.cells.values()] == [
        (first.pk, "1NS"), (second.pk, "2EW"),
    ]


def test_ranking_players_credits_each_player_with_every_partnership(event):
    # S1: Ann & Bob 1NS 100 %. S2: Ann & Eve 1NS 0 %, Bob & Fay 2NS 100 %.
    # Ann (100 + 0) / 2 = 50, Bob (100 + 100) / 2 = 100; Eve and Fay played once.
    event_update(event=event, combination=Combination.AVERAGE, combined_by=CombinedBy.PLAYERS, minimum_sessions=2)
    played(event, {"1NS": ("Ann", "Bob")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM})
    played(event, {"1NS": ("Ann", "Eve"), "2NS": ("Bob", "Fay")}, {"1NS": BOTTOM, "2NS": TOP, "3NS": MIDDLE})
    assert ranked(event_ranking(event=event)) == [("1", "Bob", Fraction(100)), ("2", "Ann", Fraction(50))]


def test_an_imp_event_adds_the_session_imps(event):
    # Butler: with three results nothing is trimmed (RULES 6), the datum is the mean
    # (450 + 420 - 50) / 3 = 273.3, 270 to the nearest 10.
    # S1: Ann & Bob 1NS +450: 180 over the datum, 5 IMPs.
    # S2: Ann & Bob 2EW against 3NS -50: 320 over the datum for EW, 8 IMPs. 13 in all.
    event_update(event=event, method=ScoringMethod.BUTLER, minimum_sessions=2)
    played(event, {"1NS": ("Ann", "Bob")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM})
    played(event, {"2EW": ("Ann", "Bob")}, {"1NS": MIDDLE, "2NS": TOP, "3NS": BOTTOM})
    ranking = event_ranking(event=event)
    assert ranking.combination == "imps"
    assert ranked(ranking) == [("1", "Ann & Bob", Fraction(13))]


def test_the_players_see_published_sessions_the_director_every_session(event, two_evenings):
    played(event, {"1NS": ("Ann", "Bob")}, {"1NS": BOTTOM, "2NS": TOP, "3NS": MIDDLE}, publish=False)
    event_update(event=event, combination=Combination.AVERAGE, minimum_sessions=2)
    public = event_ranking(event=event)
    director = event_ranking(event=event, published_only=False)
    assert len(public.sessions) == 2 and len(director.sessions) == 3
    assert [view.session.published for view in director.sessions] == [True, True, False]
    # Ann & Bob (100 + 50 + 0) / 3 = 50 on the director's page.
    assert director.rows[0].name == "Ann & Bob" and director.rows[0].total == 50


def test_a_session_whose_ranking_waits_for_the_end_is_not_counted_before_it_is_final(event, two_evenings):
    first, second = two_evenings
    event_update(event=event, live_rankings=LiveRankings.AT_THE_END, combination=Combination.AVERAGE)
    session_mark_final(session=first)
    ranking = event_ranking(event=event)
    assert [view.counted for view in ranking.sessions] == [True, False]
    assert ranking.rows[0].standing.played == 1


def test_a_player_entered_twice_in_a_session_is_reported_not_raised(event):
    event_update(event=event, combined_by=CombinedBy.PLAYERS)
    played(event, {"1NS": ("Ann", "Bob"), "2NS": ("Ann", "Cat")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM})
    ranking = event_ranking(event=event)
    assert ranking.rows == ()
    assert "Ann played twice" in ranking.error


def test_an_event_without_sessions_has_an_empty_ranking(event):
    ranking = event_ranking(event=event)
    assert ranking.sessions == () and ranking.rows == () and not ranking.error


def test_ranking_players_credits_a_substitute_and_the_player_who_left_with_their_boards(event):
    # Ann & Bob 1NS in round 1, Ann & Carl from round 2 (a substitute). Board 1 (round 1):
    # 1NS top, 100 %; 1NS's first board of round 2: 1NS bottom, 0 %. Bob 100 %, Carl 0 %,
    # Ann over both boards 50 %.
    event_update(event=event, combination=Combination.AVERAGE, combined_by=CombinedBy.PLAYERS)
    session = played(event, {"1NS": ("Ann", "Bob")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM}, publish=False)
    section = session.sections.get()
    pair = section.pairs.select_related("section__session__event", "player_1").get(number=1, direction="NS")
    pair_change_players(pair=pair, player_1=pair.player_1, player_2=player_add(club=event.club, name="Carl"),
                        from_round=2)
    number = min(Seating.objects.get(section=section, round=2, ns_pair=pair).boards)
    for seating in Seating.objects.filter(section=section).select_related("ns_pair", "ew_pair"):
        if number in seating.boards:  # the board's three lines: 1NS's in round 2, the others' in other rounds
            text = BOTTOM if seating.ns_pair.label == "1NS" else MIDDLE
            result_record(board=session.boards.get(number=number), section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=text)
    session_publish(session=session)

    rows = {row.name: row.total for row in event_ranking(event=event).rows}

    assert (rows["Bob"], rows["Ann"], rows["Carl"]) == (Fraction(100), Fraction(50), Fraction(0))
