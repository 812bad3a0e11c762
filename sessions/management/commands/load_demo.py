"""Load the demo club and print how to log in (safe to run again).

The demo club has a director (the demo user), 30 players (each with a national
number, as real results files carry) and an event with two
sessions: a 7-table Mitchell with every result entered and published, and a 4-table
Howell half entered and not published. Results are plausible random contracts from a
fixed seed, entered through the same service as the director's pages. Its deals are
left pending for `manage.py analyse_boards`.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from sessions.analysis.services.analysis import analysis_deferred, deals_generate
from sessions.handrecords.deals import SEATS, SUITS, Deal, parse_deal
from sessions.models import Club, ClubDirector, Event, Session
from sessions.movements import Movement, howell, mitchell
from sessions.scoring.boards import Seat
from sessions.scoring.notation import Played, parse_result
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_create, session_publish
from sessions.clubs.services.players import player_find_or_add_numbered
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_links_ensure

DEMO_USERNAME = "director"
DEMO_PASSWORD = "demo-director"
DEMO_CLUB = ("Demo Bridge Club", "demo")
DEMO_EVENT = "Monday Pairs"
SEED = 20250304
FIRST_DEMO_NUMBER = 990000  # the demo players' national numbers follow it (990001 ...)

PLAYERS = [
    "Alice Archer", "Brian Bell", "Carol Clarke", "David Dunn", "Emma Ellis", "Frank Foster",
    "Grace Green", "Henry Hall", "Irene Innes", "Jack Jones", "Karen King", "Leo Lewis",
    "Mary Moore", "Nigel Nash", "Olive Owen", "Peter Price", "Quentin Quinn", "Rose Reid",
    "Simon Shaw", "Tessa Taylor", "Ursula Upton", "Victor Vale", "Wendy Wood", "Xavier Xu",
    "Yvonne Young", "Zach Zeller", "Amy Adams", "Ben Brooks", "Chloe Cole", "Dan Drake",
]

class Command(BaseCommand):
    help = "Create the demo director (and demo club data) and print the login."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="where the app is served")

    def handle(self, *args, **options) -> None:
        user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        # The demo's deals are analysed by `manage.py analyse_boards` (bin/demo runs it beside
        # the server): the login is printed at once, not after seconds of double dummy.
        with analysis_deferred():
            club = load_demo_club(user)
        base = options["base_url"].rstrip("/")
        self.stdout.write(f"Demo loaded. Open {base}/ and log in as {DEMO_USERNAME} / {DEMO_PASSWORD}")
        in_play = club.events.get(name=DEMO_EVENT).sessions.filter(published=False).first()
        if in_play is not None:
            link = table_links_ensure(session=in_play)[0]
            self.stdout.write(
                f"Table {link.table} of {in_play.name} on a phone (no login): "
                f"{base}{reverse('sessions:table_page', args=[link.token])}"
            )


@transaction.atomic
def load_demo_club(director) -> Club:
    """The demo club and its sessions; anything already there is left as it is."""
    name, slug = DEMO_CLUB
    club, _ = Club.objects.get_or_create(slug=slug, defaults={"name": name})
    ClubDirector.objects.update_or_create(user=director, club=club, defaults={"is_owner": True})
    for index, player in enumerate(PLAYERS, start=1):
        # A national number each, as every real results file carries its players'.
        player_find_or_add_numbered(club=club, name=player, national_number=str(FIRST_DEMO_NUMBER + index))
    event, _ = Event.objects.get_or_create(club=club, name=DEMO_EVENT)
    chooser = random.Random(SEED)
    mitchell_session = _demo_session(event, "Monday 3 March", datetime.date(2025, 3, 3), mitchell(7, 3), director)
    if mitchell_session is not None:
        _enter(mitchell_session, chooser, director, share=1.0)
        session_mark_final(session=session_publish(session=mitchell_session))
    howell_session = _demo_session(event, "Monday 10 March", datetime.date(2025, 3, 10), howell(8, 3), director)
    if howell_session is not None:
        _enter(howell_session, chooser, director, share=0.5)
    return club


def _demo_session(event: Event, name: str, date: datetime.date, movement: Movement, director) -> Session | None:
    """A new demo session, or None if it exists already."""
    if event.sessions.filter(name=name).exists():
        return None
    players = iter(PLAYERS * 2)
    pair_players = {label: [next(players), next(players)] for label in movement.pairs}
    return session_create(event=event, name=name, date=date, movement=movement,
                          pair_players=pair_players, by=director)


def _enter(session: Session, chooser: random.Random, director, share: float) -> None:
    """Deal the boards, then enter the first ``share`` of the table-rounds in playing order."""
    deals_generate(session=session, seed=f"demo-{session.name}")
    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    deals = {number: parse_deal(board.deal) for number, board in boards.items()}
    plans = {number: _board_plan(deals[number], chooser) for number, board in boards.items()}
    seatings = list(section.seatings.select_related("ns_pair", "ew_pair").order_by("round", "table"))
    for seating in seatings[: round(len(seatings) * share)]:
        for number in seating.boards:
            text = _table_result(plans[number], chooser)
            lead = _lead(deals[number], text, number, chooser.choice(["", "", "HK", "S4", "DQ", "C2"])) \
                if text != "P" else ""
            result_record(
                board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                ew_pair=seating.ew_pair.label, text=text, lead=lead, by=director,
            )


def _lead(deal: Deal, text: str, number: int, wanted: str) -> str:
    """``wanted`` ("HK") if the hand on declarer's left holds it, else that hand's lowest
    card of the suit, else of its longest suit: a lead the hand record allows."""
    played = parse_result(text, number)
    if not wanted or not isinstance(played, Played):
        return ""
    hand = deal[SEATS[(SEATS.index(played.declarer) + 1) % len(SEATS)]]
    suit = wanted[0] if hand[wanted[0]] else max(SUITS, key=lambda each: len(hand[each]))
    ranks = hand[suit]
    return suit + (wanted[1:] if wanted[1:] in ranks else ranks[-1])


# --- plausible results ----------------------------------------------------------------

# Combined high-card points -> the level the stronger side usually bids (game at 25+).
LEVELS = ((33, 6), (25, 0), (23, 2), (0, 1))  # 0: game in the chosen strain
GAME_LEVEL = {"S": 4, "H": 4, "NT": 3, "D": 5, "C": 5}


def _board_plan(deal: Deal, chooser: random.Random) -> dict:
    """What the field will mostly play: the side with more points, in its best fit."""
    hcp = deal.hcp()
    north_south = hcp[Seat.N] + hcp[Seat.S]
    side, seats = ("NS", (Seat.N, Seat.S)) if north_south >= 20 else ("EW", (Seat.E, Seat.W))
    points = max(north_south, 40 - north_south)
    fits = {suit: sum(deal[seat].lengths[i] for seat in seats) for i, suit in enumerate("SHDC")}
    best = max(fits, key=lambda suit: (fits[suit], suit in "SH"))
    strain = best if fits[best] >= 8 and (best in "SH" or points < 25 or fits[best] >= 10) else "NT"
    level = next(level for floor, level in LEVELS if points >= floor) or GAME_LEVEL[strain]
    expected = level + 6 + (1 if points >= 28 else 0) + chooser.choice([-1, 0, 0, 1])
    return {"level": level, "strain": strain, "side": side, "tricks": min(13, expected)}


def _table_result(plan: dict, chooser: random.Random) -> str:
    """One table's result: usually the field's contract, sometimes a variation or a pass-out."""
    roll = chooser.random()
    if roll < 0.03:
        return "P"
    level, strain, side = plan["level"], plan["strain"], plan["side"]
    if roll < 0.15:  # a different level of the same denomination
        level = max(1, min(7, level + chooser.choice([-1, 1])))
    doubled = "X" if roll > 0.96 else ""
    declarer = chooser.choice(["N", "S"] if side == "NS" else ["E", "W"])
    tricks = max(0, min(13, plan["tricks"] + chooser.choice([-1, 0, 0, 0, 1])))
    return f"{level}{strain}{doubled} {declarer} {tricks}"
