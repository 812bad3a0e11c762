"""The players' pages show points the director assigned, marked, with the footnote."""

from django.urls import reverse

from sessions.models import Result
from sessions.pairs.services.results import result_correct
from tests.pairs.views.test_public_pages import body_rows, board_url

FOOTNOTE = "Points assigned by the director"


def assign_board_1_of_2ns(session, text):
    line = Result.objects.get(board__session=session, board__number=1, ns_pair__number=2)
    result_correct(result=line, text=text, version=line.version)


def test_a_traveller_marks_the_assigned_points_and_says_why(client, played_session, tables_of):
    assign_board_1_of_2ns(played_session, "A50/50 MP 3/0.5")

    html = client.get(board_url(played_session, 1)).content.decode()
    (traveller,) = tables_of(html)

    rows = {row[0]: row for row in body_rows(traveller)}
    assert rows["2NS"][2] == "A50/50 MP 3/0.5"  # the ruling, where the contract goes
    assert rows["2NS"][-2:] == ["3.00†", "0.50†"]
    # The two lines left are compared between themselves, Neuberg-factored to three results.
    assert rows["1NS"][-2:] == ["0.50", "3.50"] and rows["3NS"][-2:] == ["3.50", "0.50"]
    assert 'title="assigned by the director"' in html and FOOTNOTE in html


def test_a_board_without_assigned_points_has_no_footnote(client, played_session):
    assign_board_1_of_2ns(played_session, "A50/50")

    assert FOOTNOTE not in client.get(board_url(played_session, 1)).content.decode()


def test_a_score_card_marks_the_assigned_points(client, played_session, tables_of, pair_id):
    assign_board_1_of_2ns(played_session, "MP 1/3")

    html = client.get(reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "3EW")])).content.decode()
    (card,) = tables_of(html)

    board_1 = next(row for row in body_rows(card) if row[0] == "1")
    assert "3.00†" in board_1 and "75.00" in board_1  # 3 of the board's top of 4
    assert FOOTNOTE in html
