"""Published sessions for the players' pages, and a reader for their tables.

``played_session`` is the 3-table Mitchell of the root conftest with boards 1 and 2
entered and published. Its figures, worked out by hand (top 4 on a board: three
results, 2 per result beaten, 1 per tie):

board 1 (none vul)   1NS v 1EW 4S N =   +420   NS 2  EW 2
                     3NS v 2EW 4S N +1  +450   NS 4  EW 0
                     2NS v 3EW 4S N -1   -50   NS 0  EW 4
board 2 (NS vul)     1NS v 1EW 3NT S +1 +630   NS 4  EW 0
                     3NS v 2EW 3NT S =  +600   NS 2  EW 2
                     2NS v 3EW 3NT S -1 -100   NS 0  EW 4

North-South: 1NS 6/8 = 75.00 %, 3NS 6/8 = 75.00 % (1= each), 2NS 0 % (3).
East-West:   3EW 8/8 = 100.00 % (1), 1EW 2/8 = 25.00 %, 2EW 2/8 = 25.00 % (2= each).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from sessions.models import Session
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_event, make_session

NASTY_NAME = "<script>alert(1)</script>"

PLAYERS = {
    "1NS": ["Ann Archer", "Bob Baker"],
    "2NS": ["Cat Cole", "Dan Dale"],
    "3NS": ["Eve Evans", "Fay Ford"],
    "1EW": ["Gil Grant", "Hal Hunt"],
    "2EW": ["Ivy Irwin", "Jo Jones"],
    "3EW": [NASTY_NAME, "Kay King"],
}

PLAYED_LINES = [
    (1, "1NS", "1EW", "4S N =", "HK"),
    (1, "3NS", "2EW", "4S N +1", ""),
    (1, "2NS", "3EW", "4S N -1", ""),
    (2, "1NS", "1EW", "3NT S +1", ""),
    (2, "3NS", "2EW", "3NT S =", ""),
    (2, "2NS", "3EW", "3NT S -1", ""),
]


def enter(session: Session, lines) -> None:
    """Record (board, NS pair, EW pair, result, lead) lines through the service."""
    boards = {board.number: board for board in session.boards.all()}
    section = session.sections.get()
    for number, ns_pair, ew_pair, text, lead in lines:
        result_record(board=boards[number], section=section, ns_pair=ns_pair, ew_pair=ew_pair,
                      text=text, lead=lead)


@pytest.fixture
def logged_in(client, director):
    """The test client, logged in as the club's director."""
    client.force_login(director)
    return client


@pytest.fixture
def played_session(event) -> Session:
    session = make_session(event, pair_players=PLAYERS)
    enter(session, PLAYED_LINES)
    return session_publish(session=session)


@pytest.fixture
def unpublished_session(event) -> Session:
    session = make_session(event, pair_players=PLAYERS)
    enter(session, PLAYED_LINES[:1])
    return session


@pytest.fixture
def butler_session(club) -> Session:
    """Board 1 of the same deals under Butler: datum (420 + 450 - 50) / 3 = 273.3 -> 270.

    NS: +450 is +180 = 5 IMPs, +420 is +150 = 4 IMPs, -50 is -320 = -8 IMPs.
    """
    session = make_session(make_event(club, name="Butler Pairs", method="butler"), pair_players=PLAYERS)
    enter(session, PLAYED_LINES[:3])
    return session_publish(session=session)


@pytest.fixture
def pair_id():
    """The id of the pair with a label ("1NS") in a session."""
    def find(session: Session, label: str) -> int:
        return next(pair.pk for pair in session.sections.get().pairs.all() if pair.label == label)
    return find


class _TableReader(HTMLParser):
    """The text of every cell of every results table, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and "results" in (dict(attrs).get("class") or ""):
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def read_tables(html: str) -> list[list[list[str]]]:
    """Each results table of the page as rows of cell texts (header row first)."""
    reader = _TableReader()
    reader.feed(html)
    return reader.tables


@pytest.fixture
def tables_of():
    return read_tables
