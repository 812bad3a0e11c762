"""Procedural penalties (Law 90, RULES 13) on the pages: the director gives and takes them
back from the session page; the public sees their effect on the ranking (a column and a
footnote with the reason) and on the pair's score card, never the form."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.models import ChangeAction, Pair, ProceduralPenalty
from sessions.pairs.services.penalties import penalty_give
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish


@pytest.fixture
def published(session):
    for ns, ew, text in (("1NS", "1EW", "4S N +1"), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    return session_publish(session=session)


def pair_1ns(session) -> Pair:
    return Pair.objects.get(section__session=session, number=1, direction="NS")


def test_the_director_gives_a_penalty_from_the_session_page(client, director, published):
    client.force_login(director)
    page = client.get(reverse("sessions:director_session", args=[published.pk])).content.decode()
    assert "Give the penalty" in page and 'value="TOP"' in page and 'value="IMP"' not in page

    response = client.post(reverse("sessions:director_penalty_give", args=[published.pk]), {
        "pair": pair_1ns(published).pk, "amount": "25", "penalty_unit": "TOP", "board": "1", "reason": "slow play"})

    assert response.status_code == 302
    penalty = ProceduralPenalty.objects.get()
    assert (penalty.pair, penalty.amount, penalty.unit, penalty.board, penalty.given_by) == (
        pair_1ns(published), Decimal("25"), "TOP", 1, director)
    page = client.get(reverse("sessions:director_session", args=[published.pk])).content.decode()
    assert "25% of a top on board 1: slow play" in page and "Take back" in page
    log = client.get(reverse("sessions:director_log", args=[published.pk])).content.decode()
    assert "slow play" in log


@pytest.mark.parametrize("data, message", [
    ({"amount": "3", "penalty_unit": "IMP", "reason": "phone"}, "Select a valid choice"),
    ({"amount": "1", "penalty_unit": "MP", "reason": ""}, "This field is required"),
    ({"amount": "-1", "penalty_unit": "MP", "reason": "phone"}, "greater than or equal to 0.01"),
    ({"amount": "1", "penalty_unit": "MP", "reason": "phone", "board": "40"}, "no board 40"),
    ({"amount": "abc", "penalty_unit": "MP", "reason": "phone"}, "Enter a number"),
])
def test_a_bad_penalty_says_why_and_changes_nothing(client, director, published, data, message):
    client.force_login(director)
    response = client.post(reverse("sessions:director_penalty_give", args=[published.pk]),
                           {"pair": pair_1ns(published).pk, **data}, follow=True)
    assert response.status_code == 200
    assert "Nothing changed" in response.content.decode() and message in response.content.decode()
    assert not ProceduralPenalty.objects.exists()
    assert not published.changes.filter(action=ChangeAction.PENALTY).exists()


def test_taking_a_penalty_back(client, director, published):
    penalty = penalty_give(pair=pair_1ns(published), amount=Decimal("1"), penalty_unit="MP", reason="late")
    client.force_login(director)
    response = client.post(reverse("sessions:director_penalty_remove", args=[published.pk, penalty.pk]))
    assert response.status_code == 302 and not ProceduralPenalty.objects.exists()


def test_the_public_ranking_and_score_card_show_the_penalty_and_its_reason(client, published):
    plain = client.get(reverse("sessions:session_results", args=[published.pk])).content.decode()
    assert "Penalty (P)" not in plain and "Procedural penalties" not in plain
    penalty_give(pair=pair_1ns(published), amount=Decimal("25"), penalty_unit="TOP", reason="slow play", board=1)

    page = client.get(reverse("sessions:session_results", args=[published.pk])).content.decode()
    assert "Penalty (P)" in page and "-1.00" in page
    assert "Pair 1NS: 25% of a top on board 1: slow play" in page
    assert "Give the penalty" not in page and "penalty_unit" not in page

    card = client.get(reverse("sessions:scorecard", args=[published.pk, pair_1ns(published).pk])).content.decode()
    assert "Procedural penalty (Law 90)" in card and "25% of a top on board 1: slow play" in card
    # 1NS had a top on its one board (4 of 4), less 1: 3 MP, 75%.
    assert "<strong>75.00%</strong>, 3.00 MP" in card


def test_the_booklet_carries_the_penalty_column_and_its_reason(client, published):
    url = reverse("sessions:session_booklet", args=[published.pk])
    assert "Procedural penalties" not in client.get(url).content.decode()
    penalty_give(pair=pair_1ns(published), amount=Decimal("25"), penalty_unit="TOP", reason="slow play", board=1)

    booklet = client.get(url).content.decode()
    assert "Penalty (P)" in booklet and "-1.00" in booklet
    assert "<h3>Procedural penalties</h3>" in booklet
    assert "Pair 1NS: 25% of a top on board 1: slow play" in booklet
