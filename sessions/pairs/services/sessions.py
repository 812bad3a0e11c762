"""Creating, publishing and unpublishing sessions, and marking them final.

A session is created from a movement (sessions.movements) as a plan stored by
session_plan.session_store, as an imported file's is: one section per letter, one Pair
per movement pair, one Board per board in play (dealer and vulnerability from the
engine's boards.py) and one Seating per table per round. The phantom of an odd movement
gets no Pair: the pair meeting it simply has no seating that round.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone

from sessions.models import ChangeAction, Event, Pair, Result, ResultChange, Section, Session, WebhookEvent
from sessions.movements import Movement
from sessions.core.text import clean_name

from sessions.clubs.services.masterpoints import session_award_masterpoints
from sessions.pairs.services.session_plan import PlannedPair, PlannedSeating, SessionPlan, boards_planned, session_store
from sessions.clubs.services.players import pair_set_players, player_find_or_add
from sessions.core.services.unit_of_work import unit, write
from sessions.phones.services.tables import table_links_ensure
from sessions.api.services.webhooks import notify_on_commit


def _split_label(label: str) -> tuple[int, str]:
    """"12NS" -> (12, "NS"); a Howell's "5" -> (5, "")."""
    number = label.rstrip("NSEW")
    return int(number), label[len(number):]


@write
def session_create(
    *,
    event: Event,
    name: str,
    date: datetime.date,
    movement: Movement,
    section_letters: Sequence[str] = ("A",),
    own_boards: Collection[str] = (),
    short_sections: Collection[str] = (),
    pair_players: Mapping[str, Sequence[str]] | None = None,
    by: AbstractBaseUser | None = None,
) -> Session:
    """Create a session from ``movement``, with its sections, pairs, boards and seatings.

    ``pair_players`` maps a pair label ("1NS", or "A:1NS" with several sections) to the
    names of its two players: known names are taken from the club's list, new ones added.
    ``own_boards`` names the sections that play deals of their own (different boards);
    the others share the session's boards. ``short_sections`` names the sections one pair
    short (27 pairs in two sections: 14 + 13): they play the same movement without its
    ``short_pair()``, a phantom whose opponents sit out.
    """
    if set(short_sections) - set(section_letters):
        raise ValidationError(f"no section {', '.join(sorted(set(short_sections) - set(section_letters)))} to be short")
    if set(own_boards) - set(section_letters):
        raise ValidationError(f"no section {', '.join(sorted(set(own_boards) - set(section_letters)))} to play its own boards")
    session = Session(
        event=event,
        name=clean_name(name),
        date=date,
        movement_kind=movement.kind,
        movement_description=movement.description[:200],
        tables=movement.tables,
        rounds=movement.rounds,
        boards_per_round=movement.boards_per_round,
        board_count=max(movement.boards()),
        arrow_switch=bool(movement.arrow_switch_rounds),
        created_by=by,
    )
    plan = SessionPlan(session=session, sections=list(section_letters), boards=[], pairs=[], seatings=[])
    if set(section_letters) - set(own_boards):
        plan.boards += boards_planned(movement.boards())
    for letter in section_letters:
        if letter in own_boards:
            plan.boards += boards_planned(movement.boards(), section=letter)
        missing = movement.short_pair() if letter in short_sections else None
        keys = {label: f"{letter}:{label}" for label in movement.pairs if label != missing}
        plan.pairs += pairs_planned(letter, keys)
        plan.seatings += seatings_planned(movement, letter, keys)
    stored = session_store(plan=plan)
    for letter, section in stored.sections.items():
        pairs = {label: stored.pairs[f"{letter}:{label}"] for label in movement.pairs
                 if f"{letter}:{label}" in stored.pairs}
        _name_players(event, section, pairs, pair_players or {}, several=len(section_letters) > 1)
    # Every table gets its phone link now, so the first printed cards carry the QR codes.
    table_links_ensure(session=session)
    return session


def pairs_planned(letter: str, keys: Mapping[str, str]) -> list[PlannedPair]:
    """Section ``letter``'s pairs of a movement: its labels, each under its plan key (``keys``)."""
    return [
        PlannedPair(key=key, section=letter, number=_split_label(label)[0], direction=_split_label(label)[1])
        for label, key in keys.items()
    ]


def seatings_planned(movement: Movement, letter: str, keys: Mapping[str, str]) -> list[PlannedSeating]:
    """Section ``letter``'s seatings of ``movement`` between the pairs of ``keys`` (label ->
    plan key): against a pair left out (a phantom) the other pair sits out, no seating."""
    return [
        PlannedSeating(section=letter, round=seating.round, table=seating.table, ns_pair=keys[seating.ns_pair],
                       ew_pair=keys[seating.ew_pair], boards=tuple(seating.boards))
        for seating in movement.seatings
        if seating.ns_pair in keys and seating.ew_pair in keys
    ]


def _name_players(
    event: Event, section: Section, pairs: Mapping[str, Pair], names: Mapping[str, Sequence[str]], several: bool
) -> None:
    for label, pair in pairs.items():
        key = f"{section.letter}:{label}" if several else label
        typed = [name.strip() for name in names.get(key, ()) if name and name.strip()]
        if not typed:
            continue
        if len(typed) > 2:
            raise ValidationError(f"pair {label} has {len(typed)} players: a pair has two")
        players = [player_find_or_add(club=event.club, name=name) for name in typed]
        players += [None] * (2 - len(players))
        pair_set_players(pair=pair, player_1=players[0], player_2=players[1])


def session_log(
    *,
    session: Session,
    action: str,
    subject: str = "",
    before: str = "",
    after: str = "",
    by: AbstractBaseUser | None = None,
) -> ResultChange:
    """One change-log entry about the session rather than one line (seating, settings,
    publication, an import). Called inside the service that made the change."""
    change = ResultChange(
        session=session, action=action, subject=subject[:80], before_text=before[:200], after_text=after[:200],
        changed_by=by,
    )
    change.full_clean(exclude=["session", "changed_by"])
    unit().touch(sessions=[session], by=by)  # in the caller's unit: NoUnitOfWork outside one, before any write
    change.save()
    return change


@write
def session_publish(*, session: Session, by: AbstractBaseUser | None = None) -> Session:
    """Make the session's results public; refused while no result is entered.

    Publishing a published session changes nothing (a second tap, a resent form). A
    fresh publication starts with no amendment: the page is as published, at that time.
    Lines still missing are the caller's to ask about (session_progress counts them).
    """
    if not Result.objects.filter(board__session=session).exists():
        raise ValidationError("no result is entered yet: there is nothing to publish")
    if session.published:
        return session
    session.published = True
    session.published_at = timezone.now()
    session.amended_at = None
    session.told_figures = ""  # what "published" tells is the figures as they are: nothing amended yet
    session.full_clean()
    session.save(update_fields=["published", "published_at", "amended_at", "told_figures"])
    session_log(session=session, action=ChangeAction.PUBLISHED, by=by)
    notify_on_commit(event=WebhookEvent.PUBLISHED, session=session)
    # Marked final before it was published: the players' mails go now (services.amendments,
    # after the commit, as after every write that touches a published, final session).
    return session


@write
def session_unpublish(*, session: Session, by: AbstractBaseUser | None = None) -> Session:
    """Hide the session's results from the players; a final session is reopened with it."""
    was_published = session.published
    session.published = False
    session.published_at = None
    session.final_at = None
    session.full_clean()
    session.save(update_fields=["published", "published_at", "final_at"])
    if was_published:  # a second tap hides nothing: no log entry
        session_log(session=session, action=ChangeAction.UNPUBLISHED, by=by)
    return session


@write
def session_mark_final(*, session: Session) -> Session:
    """The director has checked every result: the players' pages stop saying "provisional"
    and show the hands and their analysis; master points are awarded (RULES 12). Marking
    a final session again keeps its time."""
    if session.final:
        return session
    session.final_at = timezone.now()
    session.told_figures = ""  # "final" tells the figures as they are: amendments count from here
    session.full_clean()
    session.save(update_fields=["final_at", "told_figures"])
    unit().touch(sessions=[session])
    session_award_masterpoints(session=session)  # (revises the session when awards change)
    # The players' mails follow the commit, in the background (services.amendments).
    notify_on_commit(event=WebhookEvent.FINAL, session=session)
    return session


@write
def session_reopen(*, session: Session) -> Session:
    """Undo session_mark_final: the results are provisional again and the hands hidden."""
    session.final_at = None
    session.full_clean()
    session.save(update_fields=["final_at"])
    unit().touch(sessions=[session])
    return session
