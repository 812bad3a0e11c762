"""Long rankings and travellers (a national simultaneous pairs) show a page at a time;
a club's session stays on one page, its links unchanged. LONG_TABLE_ROWS is lowered
here so that the 3-table session's tables count as long."""

import re

from django.urls import reverse

from sessions.models import Result
from sessions.core.selectors.scored import ScoredSession
from sessions.pairs.views import public

ROW = re.compile(rb"<tr[ >]")


def rows(response) -> int:
    return len(ROW.findall(response.content)) - response.content.count(b"<thead")


def test_a_short_ranking_and_traveller_are_one_page_without_page_links(client, played_session):
    ranking = client.get(reverse("sessions:session_results", args=[played_session.pk]))
    traveller = client.get(reverse("sessions:board", args=[played_session.pk, 1]))

    assert rows(ranking) == 6  # 3 NS pairs, 3 EW pairs
    assert rows(traveller) == 3
    assert b"page=" not in ranking.content and b"page=" not in traveller.content


def test_a_long_ranking_shows_a_page_of_each_field_each_paged_apart(client, played_session, monkeypatch):
    monkeypatch.setattr(public, "LONG_TABLE_ROWS", 2)
    url = reverse("sessions:session_results", args=[played_session.pk])

    first = client.get(url)
    assert rows(first) == 4  # two rows of each field
    assert b"ns-page=2" in first.content and b"ew-page=2" in first.content

    second = client.get(url, {"ns-page": 2})
    assert rows(second) == 3  # the third NS pair, the EW field still on its first page


def test_a_long_traveller_shows_a_page_at_a_time(client, played_session, monkeypatch):
    monkeypatch.setattr(public, "LONG_TABLE_ROWS", 2)
    url = reverse("sessions:board", args=[played_session.pk, 1])

    first, second = client.get(url), client.get(url, {"page": 2})

    assert (rows(first), rows(second)) == (2, 1)
    assert b"page=2" in first.content
    past_the_end = client.get(url, {"page": 9})  # a stale link: the last page, never an error
    assert (past_the_end.status_code, rows(past_the_end)) == (200, 1)


def test_a_page_of_a_long_traveller_reads_only_its_lines(client, played_session, monkeypatch):
    """A 3,000-line traveller reads the 60 lines a page shows; sorted by a column, all of it."""
    monkeypatch.setattr(public, "LONG_TABLE_ROWS", 2)
    read: list[int] = []
    real = ScoredSession.results_where

    def counting(self, **where):
        found = real(self, **where)
        read.append(len(found))
        return found

    monkeypatch.setattr(ScoredSession, "results_where", counting)
    url = reverse("sessions:board", args=[played_session.pk, 1])

    second = client.get(url, {"page": 2})
    assert (rows(second), read) == (1, [1])  # the third line, read alone
    ns_third = Result.objects.filter(board__session=played_session, board__number=1).order_by(
        "section__letter", "table", "round", "pk")[2]
    assert f">{ns_third.ns_pair.label}<".encode() in second.content

    read.clear()
    by_score = client.get(url, {"sort": "ns_score"})
    assert (rows(by_score), read) == (2, [3])  # every line read, to sort them
