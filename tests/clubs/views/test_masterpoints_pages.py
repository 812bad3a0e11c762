"""Master points on the players' pages once the session is final: the ranking's column
and the score card (RULES 12)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions.models import Club, MasterPointAward, Pair
from sessions.pairs.services.sessions import session_mark_final, session_publish, session_reopen
from sessions.transfer.services.importing import results_import
from tests.formats.data_files import usebio_bytes

NAME = "uk_00202711+000827.xml"  # EBUScore: 36, 30, 24, 18, 12, 6 black points


@pytest.fixture
def published(club: Club):
    Club.objects.filter(pk=club.pk).update(masterpoint_federation="ebu")
    club.refresh_from_db()
    session = results_import(club=club, data=usebio_bytes(NAME), filename=NAME).session
    return session_publish(session=session)


def winner(session) -> Pair:
    return MasterPointAward.objects.filter(session=session).order_by("-points").first().pair


def test_the_ranking_shows_each_pairs_award_once_final(client, published):
    url = reverse("sessions:session_results", args=[published.pk])
    assert "Black points" not in client.get(url).content.decode()

    session_mark_final(session=published)
    html = client.get(url).content.decode()

    assert "Black points" in html
    rows = html.split("<tbody")[1].split("</tbody>")[0].split("</tr>")
    assert ">36</td>" in rows[0] and ">30</td>" in rows[1] and ">6</td>" in rows[5]
    assert all(">6</td>" not in row for row in rows[6:])


def test_the_score_card_shows_the_pairs_award(client, published):
    session_mark_final(session=published)
    pair = winner(published)
    html = client.get(reverse("sessions:scorecard", args=[published.pk, pair.pk])).content.decode()
    assert '<span class="masterpoints">36 black points</span>' in html


def test_a_session_reopened_shows_no_award(client, published):
    session_mark_final(session=published)
    session_reopen(session=published)
    url = reverse("sessions:session_results", args=[published.pk])
    assert "Black points" not in client.get(url).content.decode()


def test_the_player_page_lists_each_award_with_the_years_running_total(client, club, published):
    session_mark_final(session=published)
    again = results_import(club=club, data=usebio_bytes(NAME), filename="again.xml").session
    session_mark_final(session=session_publish(session=again))
    player = winner(published).player_1
    assert winner(again).player_1 == player  # the same member, matched by national number

    html = client.get(reverse("sessions:player", args=[player.pk])).content.decode()

    ledger = html.split('class="player-masterpoints"')[1]
    rows = ledger.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    assert len(rows) == 2
    assert '<td class="number">36</td><td class="number">36</td>' in rows[0]
    assert '<td class="number">36</td><td class="number">72</td>' in rows[1]
