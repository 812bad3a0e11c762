"""The API's figures are the pages' figures: the same selectors, the same rounding.

The demo club's published session (load_demo: a 7-table Mitchell, every board played,
final) is read through the API and through the selectors the players' pages render
(results_sheet, traveller_sheet, scorecard_sheet): every place, percentage, total,
traveller line and score card figure must agree, rounded as the pages show them
(format_points). The hand-worked session of tests/pages.py pins a few figures
independently of both.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from sessions.models import Board, Pair, Session
from sessions.scoring import format_points
from sessions.pairs.services.penalties import penalty_give
from sessions.pairs.selectors.public import results_sheet, scorecard_sheet, traveller_sheet
from tests.once import built_once


def shown(value) -> str:
    """A figure as the pages show it ("" for none); the API's number printed the same way."""
    return format_points(value)


def api_shown(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def every_item(client, url: str) -> list[dict]:
    items, page = [], 1
    while True:
        body = client.get(url, {"page": page, "page_size": 7}).json()
        items += body["items"]
        if len(items) >= body["count"]:
            return items
        page += 1


def test_the_hand_worked_session_reads_as_worked_out(client, played_session, pair_id):
    # tests/pages.py: 1NS and 3NS 75 % (1=), 2NS 0 % (3); 3EW 100 % (1), 1EW and 2EW 25 % (2=).
    lines = client.get(f"/api/v1/sessions/{played_session.pk}/ranking/").json()["items"]

    ranked = {(line["pair"]["label"], line["place"], line["percentage"]) for line in lines}
    assert ranked == {("1NS", "1=", 75.0), ("3NS", "1=", 75.0), ("2NS", "3", 0.0),
                      ("3EW", "1", 100.0), ("1EW", "2=", 25.0), ("2EW", "2=", 25.0)}
    card = client.get(f"/api/v1/sessions/{played_session.pk}/pairs/{pair_id(played_session, '1NS')}/").json()
    assert [(row["board"], row["score"], row["points"]) for row in card["boards"]] == [(1, 420, 2.0), (2, 630, 4.0)]
    traveller = client.get(f"/api/v1/sessions/{played_session.pk}/boards/1/").json()["items"]
    assert {(line["ns_pair"]["label"], line["ns_score"], line["ns_points"], line["lead"]) for line in traveller} == {
        ("1NS", 420, 2.0, "HK"), ("3NS", 450, 4.0, ""), ("2NS", -50, 0.0, "")}


def test_a_procedural_penalty_reads_as_the_pages_say_it(client, played_session, pair_id):
    base = f"/api/v1/sessions/{played_session.pk}"
    card_url = f"{base}/pairs/{pair_id(played_session, '1NS')}/"
    assert client.get(base + "/").json()["penalties"] == [] and client.get(card_url).json()["penalties"] == []
    penalty_give(pair=Pair.objects.get(pk=pair_id(played_session, "1NS")), amount=Decimal("25"),
                 penalty_unit="TOP", reason="slow play", board=1)

    # 1NS: 6 of 8 matchpoints, less a quarter of board 1's top of 4: 5 of 8, 62.5 %, behind 3NS.
    lines = {line["pair"]["label"]: line for line in client.get(base + "/ranking/").json()["items"]}
    assert (lines["1NS"]["place"], lines["1NS"]["total"], lines["1NS"]["percentage"], lines["1NS"]["penalty"]) == (
        "2", 5.0, 62.5, 1.0)
    assert (lines["3NS"]["place"], lines["3NS"]["penalty"]) == ("1", 0.0)
    said = {"pair": "1NS", "amount": 25.0, "unit": "TOP", "board": 1, "reason": "slow play",
            "text": "25% of a top on board 1: slow play"}
    assert client.get(base + "/").json()["penalties"] == [said]
    card = client.get(card_url).json()
    assert card["penalties"] == [said] and card["standing"]["penalty"] == 1.0


def test_the_teams_standings_are_the_standings_pages(client, club):
    from sessions.teams.selectors.teams import standing_rows, team_event_score
    from sessions.teams.services.teams import match_record_line, round_robin_schedule, team_event_publish
    from tests.factories import make_team_event

    event = make_team_event(club, teams=4, form="round_robin")
    for match, (open_text, closed_text) in zip(round_robin_schedule(event=event), [("4S N =", "4S N -1"),
                                                                                  ("3NT S +1", "3NT S =")]):
        match_record_line(match=match, board=1, room="open", text=open_text)
        match_record_line(match=match, board=1, room="closed", text=closed_text)
    team_event_publish(event=event)
    rows = standing_rows(team_event_score(event))

    body = client.get(f"/api/v1/teams/{event.pk}/").json()

    assert [(line["place"], line["team"], api_shown(line["vp"]), [api_shown(vp) for vp in line["after_round"]])
            for line in body["standings"]] == [
        (row.place, row.team.name, shown(row.total), [shown(vp) for vp in row.after_round]) for row in rows
    ]
    assert len({line["vp"] for line in body["standings"]}) > 1  # the lines entered made a difference


# The demo's tests come last: its rows (and its user "director") stay from the first of them
# to the end of the module.
@pytest.fixture(scope="module")
def demo_session_pk(django_db_setup, django_db_blocker) -> int:
    """The demo loaded once for the module: its tests only read it."""

    def load() -> int:
        call_command("load_demo", stdout=io.StringIO())
        return Session.objects.get(published=True, event__club__slug="demo").pk

    yield from built_once(django_db_blocker, load)


@pytest.fixture
def demo_session(demo_session_pk, db) -> Session:
    return Session.objects.select_related("event__club").get(pk=demo_session_pk)


def test_the_ranking_is_the_results_pages(client, demo_session):
    sheet = results_sheet(session=demo_session)
    expected = [
        (line.standing.field, line.standing.place, line.pair.pk, line.pair.names,
         shown(line.standing.percentage), shown(line.standing.total))
        for ranking in sheet.rankings for line in ranking.rows
    ]

    lines = every_item(client, f"/api/v1/sessions/{demo_session.pk}/ranking/")

    got = [(line["field"], line["place"], line["pair"]["id"], line["pair"]["names"],
            api_shown(line["percentage"]), api_shown(line["total"])) for line in lines]
    assert got == expected
    assert len(got) == 14  # 7 NS and 7 EW pairs


def test_every_traveller_is_the_board_pages(client, demo_session):
    numbers = sorted(set(Board.objects.filter(session=demo_session).values_list("number", flat=True)))
    for number in numbers:
        board = Board.objects.select_related("session__event").get(session=demo_session, number=number)
        expected = [
            (row.ns_pair.label, row.ew_pair.label, row.contract, row.declarer, row.outcome, row.result.ns_score,
             shown(row.ns_points), shown(row.ew_points))
            for row in traveller_sheet(board=board).rows
        ]

        lines = every_item(client, f"/api/v1/sessions/{demo_session.pk}/boards/{number}/")

        got = [(line["ns_pair"]["label"], line["ew_pair"]["label"], line["contract"], line["declarer"],
                line["outcome"], line["ns_score"], api_shown(line["ns_points"]), api_shown(line["ew_points"]))
               for line in lines]
        assert got == expected, number
        assert got  # every board of the demo was played


def test_every_score_card_is_the_score_card_pages(client, demo_session):
    pairs = Pair.objects.filter(section__session=demo_session).select_related(
        "section__session__event__club", "player_1", "player_2")
    for pair in pairs:
        card = scorecard_sheet(pair=pair)

        body = client.get(f"/api/v1/sessions/{demo_session.pk}/pairs/{pair.pk}/").json()

        assert [(row["board"], row["side"], row["score"], api_shown(row["points"]), api_shown(row["percent"]))
                for row in body["boards"]] == [
            (row.board, row.side, row.score, shown(row.points), shown(row.percent)) for row in card.rows
        ]
        assert (body["standing"]["place"], api_shown(body["standing"]["percentage"])) == (
            card.standing.place, shown(card.standing.percentage))
        assert api_shown(body["points_total"]) == shown(card.points_total)
        assert body["field_size"] == card.field_size
