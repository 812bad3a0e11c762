"""The unit of work: every write's one transaction, its row locks in one order, its revision bumps.

A write service is ``@write`` (or runs its body in ``with unit_of_work():``). The unit
opens the transaction and, as the service names what it changes, locks the rows and
records the revisions to bump:

- ``unit().touch(sessions=..., team_events=..., clubs=...)``: these rows' pages change.
  Sessions and teams events are locked at once (``SELECT ... FOR UPDATE``, by pk, one
  query a kind); all of them are bumped when the unit ends, inside its transaction.
  ``touch_players``, ``touch_event`` and ``touch_club_and_all`` name what a player's
  name, an event's settings or a club's name show on.
- ``unit().lock(...)``: the same lock without a bump (a phone's send that may store
  nothing).
- ``unit().lock_rows(queryset)``: any other row a service holds against a concurrent
  edit (a line, a seating, an entry), locked after its session or teams event.

Rows are locked sessions first, then teams events, then any other row, then clubs (only
by the bump, last): two writers never wait for each other in opposite orders. A service
that would lock a session after a teams event or another row, or a teams event after
another row, raises LockOrderError: name the session or event first, at the top of the
service. A service called by another joins the caller's unit (in a savepoint, as
``transaction.atomic`` nests: a refused inner write takes its locks and touches with it);
the outermost unit bumps. A unit that changes nothing a page shows (an unchanged second
tap) bumps nothing, as nothing was touched. The bumps themselves are
sessions.core.services.revisions'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.db import connection, transaction
from django.db.models import Model, Q, QuerySet

from sessions.models import Club, Event, Player, Session, TeamEvent

from sessions.core.query_speed import Prepared, prepared
from sessions.core.services import revisions

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M", bound=Model)

#: The lock order: a tier is never locked after a later one.
SESSIONS, TEAM_EVENTS, ROWS = 1, 2, 3
_TIER_NAMES = {SESSIONS: "a session", TEAM_EVENTS: "a teams event", ROWS: "another row"}


class LockOrderError(RuntimeError):
    """A service locked rows out of the one order (sessions, teams events, other rows, clubs)."""


class NoUnitOfWork(RuntimeError):
    """unit() called outside a unit of work."""


@dataclass
class FeatureHooks:
    """What the end of a unit asks of the features; the core imports none of them, so the
    app connects these when it starts (sessions.apps): the master points of a final
    session whose places may have moved (clubs), and who hears of a published, final
    session's change after the commit (clubs' amendments)."""

    award: Callable[..., None] | None = None
    after_commit: Callable[[tuple[int, ...], tuple[int, ...]], Callable[[], None]] | None = None


HOOKS = FeatureHooks()


def connect_features(*, award: Callable[..., None],
                     after_commit: Callable[[tuple[int, ...], tuple[int, ...]], Callable[[], None]]) -> None:
    """Called once by the app's ready(): the features' side of a unit's end."""
    HOOKS.award, HOOKS.after_commit = award, after_commit


def _hook(name: str) -> Callable[..., Any]:
    hook = getattr(HOOKS, name)
    if hook is None:  # a unit ending unconnected would silently skip awards or mails
        raise RuntimeError("the unit of work's feature hooks are not connected (sessions.apps.ready)")
    return hook


@dataclass
class _State:
    sessions: dict[int, bool] = field(default_factory=dict)  # id -> lines only (False once any full change)
    team_events: set[int] = field(default_factory=set)
    clubs: set[int] = field(default_factory=set)
    locked_sessions: set[int] = field(default_factory=set)
    locked_team_events: set[int] = field(default_factory=set)
    places: set[int] = field(default_factory=set)  # sessions whose places may have moved
    open_sessions: set[int] = field(default_factory=set)  # read not final under their lock (not_final)
    open_team_events: set[int] = field(default_factory=set)
    by: Any = None  # who made the change, for the change log of the awards it moves
    tier: int = 0

    def copy(self) -> _State:
        return replace(
            self, sessions=dict(self.sessions), team_events=set(self.team_events), clubs=set(self.clubs),
            locked_sessions=set(self.locked_sessions), locked_team_events=set(self.locked_team_events),
            places=set(self.places), open_sessions=set(self.open_sessions),
            open_team_events=set(self.open_team_events),
        )


Rows = QuerySet | Iterable[Model | int]


def _reading(model: type[Model], fields: tuple[str, ...], *, lock: bool) -> Prepared:
    """``fields`` of one row of ``model`` by pk (held to the commit with ``lock``; SQLite
    has no row lock, it locks the whole database), its SQL prepared (query_speed)."""

    def build(pk: int) -> QuerySet:
        rows = model._default_manager.filter(pk=pk).order_by()
        return (rows.select_for_update() if lock else rows).values_list(*fields)

    return prepared(("unit_of_work.reading", model, fields, lock), build,
                    name=f"{model.__name__} {', '.join(fields)}{' held' if lock else ''}")


def _ids(rows: Rows) -> list[int]:
    if isinstance(rows, QuerySet):
        return list(rows.values_list("pk", flat=True))
    return [row if isinstance(row, int) else row.pk for row in rows]


class UnitOfWork:
    """What one write (with the services it calls) has locked and must bump; see the module docstring."""

    def __init__(self) -> None:
        self.state = _State()

    # --- locks -------------------------------------------------------------------------------

    def lock(self, *, sessions: Rows = (), team_events: Rows = ()) -> None:
        """Lock these sessions, then these teams events (by pk, one query each), bumping nothing."""
        self._lock(Session, sessions, self.state.locked_sessions, SESSIONS)
        self._lock(TeamEvent, team_events, self.state.locked_team_events, TEAM_EVENTS)

    def lock_reading(self, *, session: int | None = None, team_event: int | None = None, fields: tuple[str, ...]) -> tuple:
        """Lock one session or teams event as ``lock`` does, reading ``fields`` of its row in
        the same query (a phone's write asks whether it is final as it takes the lock)."""
        if session is not None:
            model, pk, locked, tier = Session, session, self.state.locked_sessions, SESSIONS
        elif team_event is not None:
            model, pk, locked, tier = TeamEvent, team_event, self.state.locked_team_events, TEAM_EVENTS
        else:
            raise TypeError("lock_reading locks a session or a teams event: give one")
        if pk not in locked:
            self._check_order(tier)
        values = _reading(model, fields, lock=pk not in locked)(pk=pk)
        if pk not in locked:
            locked.add(pk)
            self.state.tier = tier
        if not values:
            raise model.DoesNotExist(f"no {model.__name__} {pk}")
        return values[0]

    def _check_order(self, tier: int) -> None:
        if self.state.tier > tier:
            raise LockOrderError(
                f"{_TIER_NAMES[tier]} locked after {_TIER_NAMES[self.state.tier]}: rows are locked sessions "
                "first, then teams events, then other rows; name it at the top of the service"
            )

    def _lock(self, model: type[Model], rows: Rows, locked: set[int], tier: int) -> list[int]:
        """The rows' ids, locked (those not locked yet: in pk order, in one query)."""
        if isinstance(rows, QuerySet):
            selected = model._default_manager.filter(pk__in=rows.values("pk"))
            if connection.features.has_select_for_update:
                selected = selected.select_for_update()
            ids = list(selected.order_by("pk").values_list("pk", flat=True))
            new = [row for row in ids if row not in locked]
        else:
            ids = _ids(rows)
            new = sorted({row for row in ids if row not in locked})
            # SQLite takes the database's one write lock when the transaction begins
            # (settings: IMMEDIATE): it has no row to lock.
            if new and connection.features.has_select_for_update:
                list(model._default_manager.filter(pk__in=new).select_for_update().order_by("pk")
                     .values_list("pk", flat=True))
        if new:
            self._check_order(tier)
            locked.update(new)
            self.state.tier = tier
        return ids

    def lock_rows(self, rows: QuerySet, *, of: tuple[str, ...] = ("self",)) -> QuerySet:
        """``rows`` to be read under their lock (held to the commit), after any session or teams
        event: a line, a seating, an entry, a link held against a concurrent edit."""
        self.state.tier = max(self.state.tier, ROWS)
        return rows.select_for_update(of=of)

    def read_locked(self, rows: Prepared[M], **values: Any) -> list[M]:
        """A prepared query's rows read under their lock, as ``lock_rows``: its function
        builds the QuerySet with ``select_for_update`` (a phone's post: query_speed)."""
        self.state.tier = max(self.state.tier, ROWS)
        return rows(**values)

    # --- what the write changes ----------------------------------------------------------

    def touch(
        self, *, sessions: Rows = (), lines_only: bool = False, team_events: Rows = (),
        clubs: Iterable[Club | int] = (), places: bool = True, by: Any = None,
    ) -> None:
        """These rows' pages change: lock the sessions and teams events now, bump all at the end.

        ``lines_only``: the write changed lines only, each logged in the change log with its
        board (or changed no line at all): the sessions keep their setup token (see
        revisions.sessions_revise). A session touched both ways is bumped as a full change.
        ``places``: the change may move a place, so a final session's master points are
        awarded again when the unit ends (False: a name, the deals, the awards themselves);
        ``by``: who changed it, named in the awards' change log."""
        for session in self._lock(Session, sessions, self.state.locked_sessions, SESSIONS):
            self.state.sessions[session] = self.state.sessions.get(session, True) and lines_only
            if places:
                self.state.places.add(session)
        if by is not None:
            self.state.by = by
        self.state.team_events.update(self._lock(TeamEvent, team_events, self.state.locked_team_events, TEAM_EVENTS))
        self.state.clubs.update(_ids(clubs))

    def touch_event(self, event: Event, *, by: Any = None) -> None:
        """Event settings change every session's figures (and so its places), and the club's pages."""
        self.touch(sessions=Session.objects.filter(event=event), clubs=[event.club_id], by=by)

    def touch_club_and_all(self, club: Club | int, *, places: bool = False) -> None:
        """The club's name heads every page of its sessions and teams events; ``places``: its
        master point settings changed too, so its final sessions are awarded again."""
        club_id = club if isinstance(club, int) else club.pk
        self.touch(sessions=Session.objects.filter(event__club_id=club_id),
                   team_events=TeamEvent.objects.filter(club_id=club_id), clubs=[club_id], places=places)

    def touch_players(self, players: Iterable[Player | int]) -> None:
        """A player's name shows on every session and team the player played, and the club's
        pages: found now, while the pairs and teams still name the players."""
        ids = _ids(players)
        played = Session.objects.filter(
            Q(sections__pairs__player_1__in=ids) | Q(sections__pairs__player_2__in=ids)
            | Q(sections__pairs__lineups__player_1__in=ids) | Q(sections__pairs__lineups__player_2__in=ids)
        ).distinct()
        self.touch(
            sessions=played, team_events=TeamEvent.objects.filter(teams__players__in=ids).distinct(),
            clubs=list(Player.objects.filter(pk__in=ids).values_list("club_id", flat=True).distinct()),
            places=False,  # a name moves no place
        )

    def awarded(self, session: Session | int) -> None:
        """The session's master points follow its places as they are now (the award service's
        own call): not awarded again at the end unless touched again."""
        self.state.places.discard(session if isinstance(session, int) else session.pk)

    def not_final(self, *, sessions: Iterable[int] = (), team_events: Iterable[int] = ()) -> None:
        """These sessions and teams events were read not final under their lock at the end of
        the outermost unit (a phone's write: services.tables.while_open), so they stay so to
        its commit: no master points to award again, nobody to tell after the commit (the
        queries that would ask are not made)."""
        self.state.open_sessions.update(sessions)
        self.state.open_team_events.update(team_events)

    # --- the end -----------------------------------------------------------------------------

    def _award_again(self) -> None:
        """Award the final sessions whose places may have moved again (one query when none is
        final; the award service logs only a change)."""
        self.state.places -= self.state.open_sessions
        while self.state.places:
            pending = sorted(self.state.places)
            self.state.places.clear()
            for session in Session.objects.filter(pk__in=pending, final_at__isnull=False).select_related("event__club"):
                _hook("award")(session=session, by=self.state.by)  # it writes through this unit

    def _bump(self) -> None:
        """Bump everything touched, sessions first, then teams events, then clubs (three to four
        queries whatever their number; none when nothing was touched)."""
        touched = self.state.sessions
        for lines_only in (False, True):
            ids = [session for session, only in touched.items() if only == lines_only]
            if ids:
                setup = {} if lines_only else {"setup_token": revisions.new_setup_token()}
                revisions.bump_sessions(ids, **setup)
        if self.state.team_events:
            revisions.bump(TeamEvent.objects.filter(pk__in=self.state.team_events))
        if touched or self.state.clubs:
            revisions.bump_clubs(clubs=self.state.clubs, of_sessions=list(touched))


    def _after_commit(self) -> None:
        """After the commit: the players and webhooks of what was touched hear of it if it
        is published and final (clubs' services.amendments, the one rule for every write)."""
        sessions = tuple(sorted(set(self.state.sessions) - self.state.open_sessions))
        team_events = tuple(sorted(self.state.team_events - self.state.open_team_events))
        if not (sessions or team_events):
            return
        transaction.on_commit(_hook("after_commit")(sessions, team_events))


_active: ContextVar[UnitOfWork | None] = ContextVar("unit_of_work", default=None)


def unit() -> UnitOfWork:
    """The unit of work the caller runs in; NoUnitOfWork outside one."""
    current = _active.get()
    if current is None:
        raise NoUnitOfWork("no unit of work: a writing service is @write (sessions.core.services.unit_of_work)")
    return current


def active() -> bool:
    return _active.get() is not None


@contextmanager
def unit_of_work(*, savepoint: bool = True) -> Iterator[UnitOfWork]:
    """One unit of work: its transaction (a savepoint within a caller's unit, which it joins),
    and, when the outermost unit ends without an error, the bumps.

    ``savepoint=False``: a step that only ever fails as a whole with its caller joins the
    caller's transaction without a savepoint of its own (a lookup that then writes
    nothing costs no query more)."""
    outer = _active.get()
    if outer is not None:
        saved = outer.state.copy()
        try:
            with transaction.atomic(savepoint=savepoint):
                yield outer
        except BaseException:
            outer.state = saved  # the savepoint's rollback released its locks and undid its writes
            raise
        return
    current = UnitOfWork()
    token = _active.set(current)
    try:
        with transaction.atomic(savepoint=savepoint):
            yield current
            current._award_again()
            current._bump()
            current._after_commit()
    finally:
        _active.reset(token)


def write(service: Callable[P, R] | None = None, *, savepoint: bool = True) -> Any:
    """A writing service: its body runs in a unit of work (see the module docstring).
    ``@write(savepoint=False)``: see unit_of_work."""

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @wraps(service)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            with unit_of_work(savepoint=savepoint):
                return service(*args, **kwargs)

        mark_write(wrapper)
        return wrapper

    return decorate if service is None else decorate(service)


def mark_write(function: Any) -> None:
    """Mark a function as a write that runs in a unit of work (for the walk of the services
    in tests/core/services/test_unit_of_work.py): ``write`` marks its own; a decorator that opens
    the unit itself (tables.while_open) marks its wrapper."""
    function.unit_of_work = True


def is_write(function: Any) -> bool:
    return getattr(function, "unit_of_work", False) is True
