"""A player's history and the club's player search: published sessions only.

The figures come from tests/pages.py's sessions, worked out by hand there:
with PLAYED_LINES, 1NS scores 6/8 = 75.00 % (1= of 3 North-South pairs) and 2EW
2/8 = 25.00 % (2= of 3 East-West pairs). Board 1 alone under Butler (datum 270) gives
1NS +420 = +150 = 4 IMPs, second of 3 behind 3NS's 5 IMPs.
"""

import datetime
from fractions import Fraction

import pytest

from sessions.models import Player, Seating, Session
from sessions.clubs.selectors.players import SEARCH_LIMIT, player_history, player_search, published_player
from sessions.clubs.services.players import pair_change_players, player_add
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session
from tests.pages import PLAYED_LINES, PLAYERS, enter


def played(event, day: int, players=PLAYERS, lines=PLAYED_LINES, *, publish: bool = True) -> Session:
    session = make_session(event, pair_players=players)
    Session.objects.filter(pk=session.pk).update(date=datetime.date(2025, 3, day))
    session.refresh_from_db()
    enter(session, lines)
    return session_publish(session=session) if publish else session


def ann() -> Player:
    return Player.objects.get(name="Ann Archer")


@pytest.fixture
def season(club, event):
    """Ann Archer's month: two matchpoint sessions with two partners, one unpublished
    session with a third partner, and one Butler session."""
    first = played(event, 4)
    second = played(event, 11, {**PLAYERS, "1NS": ["Una Upton", "Vic Vale"], "2EW": ["Zoe Zed", "Ann Archer"]})
    hidden = played(event, 18, {**PLAYERS, "1NS": ["Ann Archer", "Secret Sam"]}, publish=False)
    butler = played(make_event(club, name="Butler Pairs", method="butler"), 25, lines=PLAYED_LINES[:3])
    return first, second, hidden, butler


def test_a_history_lists_the_published_sessions_newest_first_with_partner_score_and_place(season):
    first, second, _, butler = season

    history = player_history(player=ann())

    assert [row.session for row in history.sessions] == [butler, second, first]
    assert [row.partner.name for row in history.sessions] == ["Bob Baker", "Zoe Zed", "Bob Baker"]
    assert [row.pair.label for row in history.sessions] == ["1NS", "2EW", "1NS"]
    assert [row.percentage for row in history.sessions] == [None, Fraction(25), Fraction(75)]
    assert [row.imps for row in history.sessions] == [Fraction(4), None, None]
    assert [(row.standing.place, row.field_size) for row in history.sessions] == [("2", 3), ("2=", 3), ("1=", 3)]


def test_a_history_never_shows_an_unpublished_session_or_that_evenings_partner(season):
    _, _, hidden, _ = season

    history = player_history(player=ann())

    assert hidden not in [row.session for row in history.sessions]
    assert "Secret Sam" not in [row.partner.name for row in history.sessions if row.partner]


def test_the_chart_takes_the_matchpoint_sessions_oldest_first_and_averages_them(season):
    first, second, _, _ = season

    history = player_history(player=ann())

    assert [row.session for row in history.percentages] == [first, second]
    assert history.average_percentage == 50  # (75 + 25) / 2
    assert history.imp_sessions == 1
    assert 'data-session="4 Mar 25"' in history.chart and 'data-session="11 Mar 25"' in history.chart
    assert "25 Mar 25" not in history.chart  # the Butler session has no percentage


def test_a_ranking_shown_only_at_the_end_hides_the_figures_until_the_session_is_final(club):
    event = make_event(club, name="Secretive Pairs", live_rankings="end")
    played(event, 4)

    (row,) = player_history(player=ann()).sessions

    assert row.ranking_hidden and row.standing is None and row.percentage is None


def test_a_player_seen_only_in_unpublished_sessions_has_no_page(season):
    assert published_player(player_id=ann().pk) == ann()
    assert published_player(player_id=Player.objects.get(name="Secret Sam").pk) is None
    assert published_player(player_id=0) is None


# --- the club's player search ---------------------------------------------------------


def names(players) -> list[str]:
    return [player.name for player in players]


@pytest.mark.parametrize("query", ["ann", "ARCHER", "archer ann", "  Ann   Arch ", "ánn"])
def test_the_search_ignores_case_accents_spaces_and_word_order(season, club, query):
    assert names(player_search(club=club, query=query)) == ["Ann Archer"]


@pytest.mark.parametrize("query", ["siobhan", "SIOBHÁN o'sull", "wisniewska", "Łukasz"])
def test_the_search_finds_accented_names_typed_without_accents_and_back(club, event, query):
    played(event, 4, {**PLAYERS, "1NS": ["Siobhán O'Sullivan", "Aleksandra Wiśniewska"],
                      "2NS": ["Lukasz Nowak", "Dan Dale"]})
    expected = {"siobhan": ["Siobhán O'Sullivan"], "SIOBHÁN o'sull": ["Siobhán O'Sullivan"],
                "wisniewska": ["Aleksandra Wiśniewska"], "Łukasz": ["Lukasz Nowak"]}[query]

    assert names(player_search(club=club, query=query)) == expected


def test_the_search_leaves_out_players_of_unpublished_sessions_and_other_clubs(season, club):
    other = make_club(name="Other Club")
    played(make_event(other), 4, {**PLAYERS, "1NS": ["Sam Secretan", "Ann Archer"]})

    assert names(player_search(club=club, query="sam")) == []
    assert names(player_search(club=other, query="sam")) == ["Sam Secretan"]


def test_an_empty_search_finds_nobody(season, club):
    assert player_search(club=club, query="  ") == []


def test_a_search_matching_many_players_stops_at_the_limit(club, event):
    many = {f"{number}NS": [f"Smith {number:03}a", f"Smith {number:03}b"] for number in range(1, 4)}
    many |= {f"{number}EW": [f"Smith {number:03}c", f"Smith {number:03}d"] for number in range(1, 4)}
    for day in range(1, 6):  # 5 sessions of 12 Smiths each, 60 Smiths in all
        played(event, day, {label: [f"{name} {day}" for name in pair] for label, pair in many.items()})

    found = player_search(club=club, query="smith")

    assert len(found) == SEARCH_LIMIT < 60
    assert names(found) == sorted(names(found))


# --- a change of player: each player credited with the boards they played ----------------------


def substituted(event) -> Session:
    """Carl Cole plays for Bob Baker (1NS, with Ann Archer) from round 2 of 3, named on the
    phone. Rounds 1 and 2 are played: 1NS +450 on each board of round 1, the other tables
    +420 (top: 4 of 4); 1NS -50 on each board of round 2, the others +420 (0 of 4).
    Bob: 8 of 8, 100 %; Carl: 0 of 8, 0 %; Ann: 8 of 16, 50 %."""
    session = make_session(event, pair_players=PLAYERS)
    section = session.sections.get()
    pair = section.pairs.select_related("section__session__event", "player_1").get(number=1, direction="NS")
    pair_change_players(pair=pair, player_1=pair.player_1, player_2=player_add(club=event.club, name="Carl Cole"),
                        from_round=2)
    lines = []
    for seating in Seating.objects.filter(section=section, round__lte=2).select_related("ns_pair", "ew_pair"):
        ours = seating.ns_pair.label == "1NS"
        text = ("4S N +1" if seating.round == 1 else "4S N -1") if ours else "4S N ="
        lines += [(number, seating.ns_pair.label, seating.ew_pair.label, text, "") for number in seating.boards]
    enter(session, lines)
    return session_publish(session=session)


def test_a_substitute_and_the_player_who_left_are_each_credited_with_their_boards(event):
    session = substituted(event)

    bob = player_history(player=Player.objects.get(name="Bob Baker")).sessions
    carl = player_history(player=Player.objects.get(name="Carl Cole")).sessions
    ann_rows = player_history(player=ann()).sessions

    assert [(row.session, row.rounds, row.percentage, row.partner.name) for row in bob] == [
        (session, "round 1", Fraction(100), "Ann Archer")]
    assert [(row.session, row.rounds, row.percentage, row.partner.name) for row in carl] == [
        (session, "rounds 2-3", Fraction(0), "Ann Archer")]
    assert [(row.rounds, row.percentage) for row in ann_rows] == [("", Fraction(50))]
    assert [partner.name for partner in ann_rows[0].partners] == ["Bob Baker", "Carl Cole"]
    assert ann_rows[0].standing.percentage == 50  # the pair's own standing is unchanged
    assert published_player(player_id=Player.objects.get(name="Bob Baker").pk) is not None
    assert names(player_search(club=event.club, query="carl")) == ["Carl Cole"]
