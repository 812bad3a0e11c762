"""The round clock on the director's grid and on the phones (sessions/pairs/views/live.py,
sessions/phones/views/table.py): the director's buttons, the clock's state in every poll for the
page's script to count down, and the tables still playing once the time is up. The clock
is started at a chosen moment in the past (the services take ``now``): no sleeping.

The conftest session is a 3-table Mitchell of 2 boards a round.
"""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sessions.models import Seating, Session
from sessions.pairs.services.results import result_record
from sessions.phones.services.clock import clock_pause, clock_set_minutes, clock_start
from sessions.phones.services.tables import table_links_ensure

SCRIPT = {"HTTP_HX_REQUEST": "true"}


def grid(client, session) -> str:
    response = client.get(reverse("sessions:director_progress", args=[session.pk]), **SCRIPT)
    assert response.status_code == 200
    return response.content.decode()


def clock_of(html: str) -> str:
    return re.search(r'<p id="round-clock"[^>]*>.*?</p>', html).group(0)


def started(session: Session, *, minutes: int, ago: timedelta) -> None:
    clock_set_minutes(session=session, minutes=minutes)
    clock_start(session=session, now=timezone.now() - ago)


def enter_round_1(session: Session, table: int) -> None:
    seating = Seating.objects.select_related("ns_pair", "ew_pair", "section").get(
        section__session=session, round=1, table=table)
    for number in seating.boards:
        result_record(board=session.boards.get(number=number), section=seating.section,
                      ns_pair=seating.ns_pair.label, ew_pair=seating.ew_pair.label, text="4S N =", round=1)


def press(client, session, action: str, **fields):
    return client.post(reverse("sessions:director_clock", args=[session.pk]), {"action": action, **fields}, **SCRIPT)


def test_the_director_sets_the_minutes_and_starts_the_clock_from_the_grid(logged_in, session):
    assert press(logged_in, session, "minutes", minutes="14").status_code == 200
    html = press(logged_in, session, "start").content.decode()

    clock = clock_of(html)
    assert "Round 1:" in clock and "data-ends-at-ms" in clock
    stored = Session.objects.get(pk=session.pk)
    assert (stored.round_minutes, stored.clock_round, stored.clock_started_at is not None) == (14, 1, True)
    assert 'value="pause"' in html and 'value="next"' in html


def test_the_poll_carries_the_clocks_end_and_the_servers_time(logged_in, session):
    started(session, minutes=15, ago=timedelta(minutes=5))

    clock = clock_of(grid(logged_in, session))

    now_ms = int(re.search(r'data-now-ms="(\d+)"', clock).group(1))
    ends_ms = int(re.search(r'data-ends-at-ms="(\d+)"', clock).group(1))
    assert 599_000 <= ends_ms - now_ms <= 600_000  # ten minutes left
    assert re.search(r"(10:00|9:59) left", clock)


def test_a_paused_clock_shows_its_time_left_without_an_end(logged_in, session):
    started(session, minutes=15, ago=timedelta(minutes=5))
    clock_pause(session=session, now=timezone.now() - timedelta(minutes=3))  # paused 2 minutes in

    clock = clock_of(grid(logged_in, session))

    assert "data-ends-at-ms" not in clock and "13:00 left" in clock and "(paused)" in clock


def test_once_the_time_is_up_the_tables_still_playing_the_round_are_flagged(logged_in, session):
    enter_round_1(session, 2)  # table 2 has finished round 1; tables 1 and 3 have not
    started(session, minutes=10, ago=timedelta(minutes=11))

    html = grid(logged_in, session)

    assert "time is up" in clock_of(html)
    flagged = html.split('class="over-time"')[1].split("</p>")[0]
    assert re.findall(r'class="over-time-table">([^<]+)<', flagged) == ["Table 1", "Table 3"]


def test_before_the_time_is_up_no_table_is_flagged(logged_in, session):
    started(session, minutes=10, ago=timedelta(minutes=9))
    assert 'class="over-time"' not in grid(logged_in, session)


def test_the_phone_shows_the_clock_to_count_down(client, session):
    link = table_links_ensure(session=session)[0]
    started(session, minutes=20, ago=timedelta(minutes=1))

    html = client.get(reverse("sessions:table_page", args=[link.token])).content.decode()

    clock = clock_of(html)
    assert "Round 1:" in clock and "data-ends-at-ms" in clock and re.search(r"(19:00|18:59) left", clock)
    assert "js/clock.js" in html


def test_a_phone_has_no_clock_buttons(client, session):
    link = table_links_ensure(session=session)[0]
    started(session, minutes=20, ago=timedelta(minutes=1))
    html = client.get(reverse("sessions:table_page", args=[link.token])).content.decode()
    assert reverse("sessions:director_clock", args=[session.pk]) not in html


def test_an_unknown_clock_button_changes_nothing(logged_in, session):
    assert press(logged_in, session, "explode").status_code == 200
    assert Session.objects.get(pk=session.pk).clock_round is None


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_only_the_clubs_directors_run_the_clock(client, session, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert press(client, session, "minutes", minutes="9").status_code == 404
    assert Session.objects.get(pk=session.pk).round_minutes == 0
