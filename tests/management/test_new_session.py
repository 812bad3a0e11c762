"""new_session: a session with the suggested movement, its id on the last line; anything
the club or the movement cannot take is refused with a plain message and stores nothing."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from sessions.models import Board, Event, Pair, Seating, Section, Session, TableLink
from sessions.movements import howell, mitchell, suggest_movements

ROOT = Path(__file__).resolve().parents[2]


def new_session(*args: str) -> tuple[Session, list[str]]:
    out = StringIO()
    call_command("new_session", *args, stdout=out)
    lines = out.getvalue().splitlines()
    return Session.objects.get(pk=int(lines[-1])), lines


def stored() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Event, Session, Section, Pair, Board, Seating))


def labels(session: Session) -> set[str]:
    return {pair.label for pair in Pair.objects.filter(section__session=session)}


def test_a_mitchell_has_n_ns_and_n_ew_pairs_and_the_id_last(club):
    session, lines = new_session("--club", club.slug, "--event", "Tuesday Pairs", "--movement", "mitchell",
                                 "--tables", "7")

    suggested = next(m for m in suggest_movements(14) if m.kind == "mitchell")
    assert lines[-1] == str(session.pk) and suggested.description in lines
    assert (session.movement_kind, session.tables, session.rounds) == ("mitchell", 7, 7)
    assert session.movement_description == suggested.description
    assert labels(session) == {f"{n}{line}" for n in range(1, 8) for line in ("NS", "EW")}
    assert session.sections.get().letter == "A"
    assert Seating.objects.filter(section__session=session).count() == 7 * 7
    assert Board.objects.filter(session=session).count() == session.board_count == 7 * suggested.boards_per_round
    today = timezone.localdate()
    assert session.date == today and session.name == f"Tuesday Pairs {today.isoformat()}"
    assert session.event.club == club and session.event.name == "Tuesday Pairs"


def test_twenty_seven_pairs_in_two_sections_are_fourteen_and_thirteen(club):
    session, lines = new_session("--club", club.slug, "--event", "Big night", "--movement", "mitchell",
                                 "--tables", "7", "--sections", "2", "--pairs", "27")

    assert "Sections A, B" in lines and "27 pairs, boards 1-28" in lines
    assert "One pair short in section(s) B: pair 7EW is a phantom, its opponents sit out" in lines
    assert labels_of(session, "A") == {f"{n}{line}" for n in range(1, 8) for line in ("NS", "EW")}
    assert labels_of(session, "B") == labels_of(session, "A") - {"7EW"}
    # Each round the NS pair that would meet 7EW sits out: 6 tables play in B, 7 in A.
    in_b = Seating.objects.filter(section__session=session, section__letter="B")
    assert [in_b.filter(round=r).count() for r in range(1, 8)] == [6] * 7
    assert Seating.objects.filter(section__session=session, section__letter="A").count() == 7 * 7


def labels_of(session: Session, letter: str) -> set[str]:
    return {pair.label for pair in Pair.objects.filter(section__session=session, section__letter=letter)}


def test_a_howell_has_2n_pairs(club):
    session, _ = new_session("--club", club.slug, "--event", "Howell night", "--movement", "howell", "--tables", "4")

    assert (session.movement_kind, session.tables, session.rounds) == ("howell", 4, 7)
    assert labels(session) == {str(n) for n in range(1, 9)}
    assert session.movement_description == howell(8, session.boards_per_round).description


def test_the_clubs_event_of_that_name_is_used_and_a_missing_one_created(club, event):
    first, _ = new_session("--club", club.slug, "--event", event.name, "--movement", "mitchell", "--tables", "3")
    second, _ = new_session("--club", club.slug, "--event", "Friday Teams Pairs", "--movement", "mitchell",
                            "--tables", "3")

    assert first.event == event
    assert second.event.name == "Friday Teams Pairs" and second.event.club == club
    assert club.events.count() == 2


def test_name_and_date_can_be_given(club):
    session, lines = new_session("--club", club.slug, "--event", "Tuesday Pairs", "--movement", "mitchell",
                                 "--tables", "3", "--name", "Spring heat", "--date", "2025-04-01")

    assert (session.name, session.date) == ("Spring heat", datetime.date(2025, 4, 1))
    assert "Spring heat" in lines[0]


@pytest.mark.parametrize(("tables", "rounds", "kind"), [
    (7, 5, "7-table Mitchell, 5 rounds"),
    (8, 6, "8-table skip Mitchell, 6 rounds"),  # fewer rounds than tables: a skip
    (8, 8, "8-table relay-and-bye Mitchell, 8 rounds"),  # all rounds: a relay
])
def test_a_mitchell_plays_the_rounds_asked_for(club, tables, rounds, kind):
    session, _ = new_session("--club", club.slug, "--event", "E", "--movement", "mitchell",
                             "--tables", str(tables), "--rounds", str(rounds))

    assert session.rounds == rounds and session.movement_description.startswith(kind)
    assert session.boards_per_round == 28 // rounds
    assert Seating.objects.filter(section__session=session).count() == tables * rounds
    assert len(labels(session)) == 2 * tables


def test_a_ten_table_howell_beyond_the_old_limit(club):
    session, _ = new_session("--club", club.slug, "--event", "Big Howell", "--movement", "howell", "--tables", "10")
    assert (session.movement_kind, session.tables, session.rounds, session.boards_per_round) == ("howell", 10, 13, 2)
    assert session.movement_description == howell(20, 2, rounds=13).description


def test_boards_per_round_and_a_short_howell(club):
    session, _ = new_session("--club", club.slug, "--event", "E", "--movement", "howell", "--tables", "5",
                             "--rounds", "5", "--boards-per-round", "3")

    assert (session.rounds, session.boards_per_round, session.board_count) == (5, 3, 15)
    assert session.movement_description == howell(10, 3, rounds=5).description
    assert len(labels(session)) == 10


def test_boards_per_round_alone_keeps_the_suggested_rounds(club):
    session, _ = new_session("--club", club.slug, "--event", "E", "--movement", "mitchell", "--tables", "6",
                             "--boards-per-round", "3")

    assert session.movement_description == mitchell(6, 3).description
    assert (session.rounds, session.boards_per_round, session.board_count) == (6, 3, 18)


REFUSED = [
    (["--club", "nowhere"], "no club with slug 'nowhere'"),
    (["--movement", "swiss"], "unknown movement 'swiss': choose mitchell or howell"),
    (["--tables", "2"], "a Mitchell needs at least 3 tables, not 2"),
    (["--tables", "0"], "a Mitchell needs at least 3 tables, not 0"),
    (["--movement", "howell", "--tables", "1"], "a Howell is offered for 2 to 15 tables, not 1"),
    (["--movement", "howell", "--tables", "16"], "a Howell is offered for 2 to 15 tables, not 16: use a Mitchell"),
    (["--rounds", "8"], "a 7-table Mitchell plays 1 to 7 rounds, not 8"),
    (["--rounds", "0"], "--rounds must be at least 1, not 0"),
    (["--movement", "howell", "--tables", "4", "--rounds", "5"], "no 5-round Howell for 8 pairs here; choose 7 rounds"),
    (["--boards-per-round", "0"], "--boards-per-round must be at least 1, not 0"),
    (["--date", "tomorrow"], "--date 'tomorrow' is not a date: give it as YYYY-MM-DD"),
    (["--event", "  "], "--event is empty: name the event"),
    (["--name", " "], "--name is empty"),
    (["--name", "x" * 121], "Ensure this value has at most 120 characters"),  # refused after the event is made
    (["--tables", "seven"], "argument --tables: invalid int value: 'seven'"),
    (["--sections", "5"], "--sections must be 1 to 4, not 5"),
    (["--sections", "2", "--pairs", "25"], "--pairs 25 do not fit 2 section(s) of this movement's 14 pairs: give 26 to 28"),
    (["--sections", "2", "--pairs", "29"], "give 26 to 28 (a section may be one pair short), or change --tables"),
]


@pytest.mark.parametrize(("changes", "message"), REFUSED, ids=[message[:40] for _, message in REFUSED])
def test_what_cannot_be_made_is_refused_and_nothing_is_stored(club, changes, message):
    options = {"--club": club.slug, "--event": "A new event", "--movement": "mitchell", "--tables": "7"}
    args = [*[item for pair in options.items() for item in pair], *changes]
    before = stored()

    with pytest.raises(CommandError) as refused:
        call_command("new_session", *args, stdout=StringIO())

    assert message in str(refused.value)
    assert stored() == before
    assert not Event.objects.filter(name="A new event").exists()


def _test_database_url() -> str:
    """The test database (SQLite file or PostgreSQL database) as a URL for another process."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings["USER"] or "postgres"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgres://{user}{password}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{settings['NAME']}"


def test_scripts_get_the_id_last_then_the_links_and_a_non_zero_exit_when_refused(transactional_db, club):
    """As an outside script runs them: manage.py in its own process, on the test database."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "clubscore.settings_test", "DATABASE_URL": _test_database_url()}

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)

    made = manage("new_session", "--club", club.slug, "--event", "Tuesday Pairs", "--movement", "mitchell",
                  "--tables", "3", "--boards-per-round", "2")
    assert made.returncode == 0, made.stderr
    session = Session.objects.get(pk=int(made.stdout.splitlines()[-1]))
    assert session.tables == 3 and session.board_count == 6

    links = manage("table_links", str(session.pk), "--base-url", "https://club.example.org")
    assert links.returncode == 0, links.stderr
    tokens = dict(TableLink.objects.filter(session=session).values_list("table", "token"))
    assert links.stdout.splitlines() == [f"A {table} https://club.example.org/t/{tokens[table]}/" for table in (1, 2, 3)]

    refused = manage("new_session", "--club", club.slug, "--event", "Tuesday Pairs", "--movement", "mitchell",
                     "--tables", "2")
    assert refused.returncode != 0 and "a Mitchell needs at least 3 tables, not 2" in refused.stderr
    assert Session.objects.count() == 1
