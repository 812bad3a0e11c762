"""A club's evening as the demo has it, for the browser tests of layout and accessibility.

A 5-table Mitchell of 2 boards a round (10 boards), played in full by pairs with real,
long names (the longest name is what breaks a phone's layout first), published and
marked final with random deals analysed double dummy, so that the board pages show the
hands, the DD table, par and the traveller's "DD" and "v par" columns, and the score
cards their charts. A second session of the same event is half entered and not
published: its director's pages have a fouled-board form, a publish confirmation and
table links for the phones.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.analysis.services.analysis import analysis_run, deals_generate
from sessions.models import Club, Pair, Session
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_club, make_event, make_session, make_user

PASSWORD = "a long enough password"

NAMES = [
    ("Maximilian Featherstonehaugh-Cholmondeley", "Bartholomew Wolstenholme-Marjoribanks"),
    ("Margaret Richardson", "Christopher Wainwright"),
    ("Ann Archer", "Bob Baker"),
    ("Siobhan O'Sullivan-McGillycuddy", "Aleksandra Wiśniewska-Kowalczyk"),
    ("Jo Lee", "Al Roy"),
    ("Elizabeth Fotheringham", "Wilhelmina Vandenberghe"),
    ("Rosalind Pemberton-Smythe", "Gwendolyn Abernathy"),
    ("Tom Hill", "Sue Hill"),
    ("Frederick Montgomery", "Penelope Worthington"),
    ("Hermione Cavendish-Bentinck", "Ptolemy Ashburnham"),
]
LABELS = [f"{table}{line}" for line in ("NS", "EW") for table in range(1, 6)]
PLAYERS = dict(zip(LABELS, NAMES, strict=True))
# Results that vary from table to table (doubled, redoubled, slams, passes): a spread of
# contracts, scores and matchpoints, with wide figures ("+1430", "-1100").
RESULTS = ["4S N =", "4S N +1", "4SX N -2", "3NT S =", "2H E =", "6NT S =", "P", "3NT S +2", "5DXX W =",
           "1NT E -3"]
LEADS = ["HK", "", "S4", "", "CA", "D10", "", "H2"]


@dataclass
class Evening:
    director: object
    club: Club
    final: Session  # played in full, published, final, with hands and analysis
    partial: Session  # half entered, not published, with table links

    def pair(self, label: str, session: Session | None = None) -> Pair:
        session = session or self.final
        return next(pair for pair in session.sections.get().pairs.all() if pair.label == label)


def play(session: Session, *, share: float = 1.0) -> None:
    """Enter the movement's lines through the service (the first ``share`` of them)."""
    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    lines = [
        (seating, number)
        for seating in section.seatings.select_related("ns_pair", "ew_pair").order_by("round", "table")
        for number in seating.boards
    ]
    for seating, number in lines[: round(len(lines) * share)]:
        text = RESULTS[(number + 3 * seating.table) % len(RESULTS)]
        result_record(
            board=boards[number], section=section, ns_pair=seating.ns_pair.label,
            ew_pair=seating.ew_pair.label, text=text,
            lead="" if text == "P" else LEADS[(number + seating.table) % len(LEADS)],
        )


def make_evening(*, analysed: bool = True) -> Evening:
    director = make_user("director", password=PASSWORD)
    club = make_club(directors=[director], name="The Royal Leamington Spa Duplicate Bridge Club")
    club.description = "Duplicate pairs on Monday and Thursday evenings at 7.15, in the Pump Rooms. Visitors welcome."
    club.website = "https://leamington-bridge.example.org/results-and-club-news/"
    club.save(update_fields=["description", "website"])
    event = make_event(club, name="Thursday Evening Championship Pairs")
    final = make_session(event, mitchell(5, 2), pair_players=PLAYERS)
    final.name = "Spring Championship, second qualifying session"
    final.save(update_fields=["name"])
    play(final)
    if analysed:
        deals_generate(session=final, seed=2025)
        analysis_run(session=final)
    final = session_mark_final(session=session_publish(session=final))
    partial = make_session(event, mitchell(5, 2), pair_players=PLAYERS)
    play(partial, share=0.4)
    table_links_ensure(session=partial)
    return Evening(director=director, club=club, final=final, partial=partial)
