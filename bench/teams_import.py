"""Benchmark: a teams file's import time as the file grows (it must grow linearly).

Run from the project root: .venv/bin/python bench/teams_import.py [COPIES ...]
(default 1 5 10; DATABASE_URL=postgres://... to run on PostgreSQL).

The file is EBUScore TeamsScorer's example (tests/data/teams, 174 KB: 10 teams, 40
matches, 240 room lines) made COPIES times as large: each copy is the same event again
with its own teams, players (names and national numbers of their own) and matches, in
one USEBIO file. Each import (teams_import: read, store, rescore and compare, one
transaction) goes into a fresh club of a throwaway test database. The last column is
the time per room line against the smallest file: 1.0 is linear growth.
"""

from __future__ import annotations

import copy
import os
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings_test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from sessions.models import Club  # noqa: E402
from sessions.transfer.services.teams_import import teams_import  # noqa: E402

SOURCE = Path(__file__).resolve().parent.parent / "tests/data/teams/ebu_example_multiple_teams_teamsscorer.xml"
TEAM_OFFSET = 100  # copy k's teams are numbered k * 100 + the original's


def _renumbered(text: str, copy_number: int) -> str:
    """A team number ("3") or pair number ("3-1-2") of the original, in copy ``copy_number``."""
    team, _, rest = text.strip().partition("-")
    number = str(int(team) + copy_number * TEAM_OFFSET)
    return f"{number}-{rest}" if rest else number


def scaled_file(copies: int) -> bytes:
    """The example event ``copies`` times over, in one file."""
    tree = ET.parse(SOURCE)
    session = tree.getroot().find("EVENT/SESSION")
    participants = session.find("PARTICIPANTS")
    teams, matches = list(participants), session.findall("MATCH")
    for number in range(1, copies):
        for team in teams:
            twin = copy.deepcopy(team)
            twin.set("TEAM_ID", _renumbered(team.get("TEAM_ID"), number))
            twin.set("TEAM_NAME", f"{team.get('TEAM_NAME') or 'Team'} {twin.get('TEAM_ID')}")
            for element in twin.iter("PAIR_NUMBER"):
                element.text = _renumbered(element.text, number)
            for element in twin.iter("PLAYER_NAME"):
                element.text = f"{element.text} {number}"
            for element in twin.iter("NATIONAL_ID_NUMBER"):
                element.text = str(int(element.text) + number * 1_000_000)
            participants.append(twin)
        for match in matches:
            twin = copy.deepcopy(match)
            for tag in ("TEAM", "OPPOSING_TEAM", "NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
                for element in twin.iter(tag):
                    element.text = _renumbered(element.text, number)
            session.append(twin)
    return ET.tostring(tree.getroot(), encoding="iso-8859-1", xml_declaration=True)


def main(sizes: list[int]) -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"database: {connection.vendor}")
        print(f"{'copies':>6} {'bytes':>10} {'lines':>7} {'seconds':>8} {'per line vs first':>18}")
        first = None
        for copies in sizes:
            data = scaled_file(copies)
            club = Club.objects.create(name=f"Bench club {copies}", slug=f"bench-{copies}-{time.monotonic_ns()}")
            start = time.perf_counter()
            report = teams_import(club=club, data=data, filename=f"teams-x{copies}.xml")
            seconds = time.perf_counter() - start
            per_line = seconds / report.lines
            first = first or per_line
            print(f"{copies:>6} {len(data):>10,} {report.lines:>7,} {seconds:>8.2f} {per_line / first:>18.2f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main([int(size) for size in sys.argv[1:]] or [1, 5, 10])
