"""Writing the pairs' handicaps: typed by the director, or computed from the club's
averages, ratings or the players' national grades (RULES 14).

A handicap is kept on the pair when it is set: later sessions moving the averages never
move what a session published. Each change goes into the session's change log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, HandicapSource, Pair, ResultChange, Session
from sessions.scoring.handicaps import HANDICAP_LIMIT, stored_handicap
from sessions.clubs.selectors.handicaps import computed_handicaps, handicap_source
from sessions.pairs.selectors.sessions import session_pairs

from sessions.core.services.unit_of_work import unit, write


@dataclass(frozen=True)
class HandicapChange:
    """A pair whose handicap changed, and its figures before and after (None: none)."""

    pair: Pair
    before: Decimal | None
    after: Decimal | None


def _text(handicap: Decimal | None) -> str:
    return "none" if handicap is None else f"{handicap:+.2f}"


def _checked(pair: Pair, handicap: Decimal | None) -> Decimal | None:
    if handicap is None:
        return None
    if not handicap.is_finite() or abs(handicap) > HANDICAP_LIMIT:
        raise ValidationError(f"pair {pair.label}: a handicap is between -{HANDICAP_LIMIT} and {HANDICAP_LIMIT} "
                              f"percentage points, not {handicap}")
    if handicap != handicap.quantize(Decimal("0.01")):
        raise ValidationError(f"pair {pair.label}: a handicap has two decimals at most, not {handicap}")
    return handicap.quantize(Decimal("0.01"))


def _write(session: Session, pairs: Sequence[Pair], handicaps: Mapping[int, Decimal | None],
           by: AbstractBaseUser | None) -> list[HandicapChange]:
    changes = []
    for pair in pairs:
        if pair.pk not in handicaps:
            continue
        after = _checked(pair, handicaps[pair.pk])
        if after == pair.handicap:
            continue
        changes.append(HandicapChange(pair=pair, before=pair.handicap, after=after))
        pair.handicap = after
    if not changes:
        return []
    Pair.objects.bulk_update([change.pair for change in changes], ["handicap"])
    log = [
        ResultChange(session=session, action=ChangeAction.HANDICAP, subject=f"pair {change.pair.label}",
                     before_text=_text(change.before), after_text=_text(change.after), changed_by=by)
        for change in changes
    ]
    ResultChange.objects.bulk_create(log)
    # The scratch places and their awards stand (RULES 8): only the handicapped figures move.
    unit().touch(sessions=[session], places=False, by=by)
    return changes


@write
def session_set_handicaps(
    *, session: Session, handicaps: Mapping[int, Decimal | None], by: AbstractBaseUser | None = None,
) -> list[HandicapChange]:
    """The handicaps the director typed (pair pk -> percentage points, None: none), all or
    nothing: each within +-HANDICAP_LIMIT, two decimals at most. Returns the changes."""
    unit().lock(sessions=[session])
    pairs = list(session_pairs(session=session))
    unknown = set(handicaps) - {pair.pk for pair in pairs}
    if unknown:
        raise ValidationError("a handicap was given for a pair not in this session")
    return _write(session, pairs, handicaps, by)


@write
def session_compute_handicaps(*, session: Session, by: AbstractBaseUser | None = None) -> list[HandicapChange]:
    """Each pair's handicap from the session's source (the club's averages or ratings over
    the sessions before this one, or the players' national grades), kept on the pair.

    Refused while the session is final (what it published stays) and when the source is
    "typed" (nothing to compute from)."""
    unit().lock(sessions=[session])
    if session.final:
        raise ValidationError("the session is final: its handicaps stay as published (type a change instead)")
    if handicap_source(session) == HandicapSource.TYPED:
        raise ValidationError("this event's handicaps are typed by the director: nothing to compute them from")
    pairs = list(session_pairs(session=session))
    computed = computed_handicaps(session=session, pairs=pairs)
    return _write(session, pairs, {
        pk: None if handicap is None else stored_handicap(handicap) for pk, handicap in computed.items()
    }, by)
