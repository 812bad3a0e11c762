"""Procedural penalties (Law 90): the director gives a pair of a pairs session a penalty,
or takes one back; each logged in the session's change log (RULES 13).

A penalty lowers that pair's total only (sessions.scoring.penalties): the lines keep
their figures, so the session is scored again whole on the next read (the session is
touched as a full change). A final session's master points follow at the end of the
unit of work, as after every change that can move a place.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone

from sessions.models import ChangeAction, Pair, ProceduralPenalty, ResultChange, Session, WebhookEvent
from sessions.scoring.errors import ScoringError
from sessions.scoring.penalties import Penalty, check_unit

from sessions.core.services.unit_of_work import unit, write
from sessions.api.services.webhooks import notify_on_commit


def _log(session: Session, penalty: ProceduralPenalty, before: str, after: str, by: AbstractBaseUser | None) -> None:
    change = ResultChange(
        session=session, action=ChangeAction.PENALTY, subject=f"pair {penalty.pair.label}"[:80],
        before_text=before[:200], after_text=after[:200], changed_by=by,
    )
    change.full_clean(exclude=["session", "changed_by"])
    change.save()
    if Session.objects.filter(pk=session.pk, published=True).update(amended_at=timezone.now()):
        notify_on_commit(event=WebhookEvent.AMENDED, session=session)  # told only if final


@write
def penalty_give(
    *, pair: Pair, amount: Decimal, penalty_unit: str, reason: str, board: int | None = None,
    by: AbstractBaseUser | None = None,
) -> ProceduralPenalty:
    """Give ``pair`` a procedural penalty of ``amount`` in ``penalty_unit`` (matchpoints or
    percent of a top in a matchpointed session, IMPs in an IMP one), on ``board`` or for
    the session, with the reason the players will read. ValidationError, nothing saved,
    for a unit the session's scoring does not take, a board it does not have, no reason."""
    session = pair.section.session
    unit().touch(sessions=[session], by=by)  # every total may move: scored again whole
    try:
        check_unit(penalty_unit, session.event.method)
    except (ScoringError, ValueError) as error:
        raise ValidationError({"penalty_unit": str(error)}) from None
    try:
        Penalty(Fraction(amount), penalty_unit)  # the engine's own checks: more than 0, at most a top
    except (ScoringError, ValueError, TypeError) as error:
        raise ValidationError({"amount": f"{error}: nothing was changed"}) from None
    if board is not None and not session.boards.filter(number=board).exists():
        raise ValidationError({"board": f"the session has no board {board}: nothing was changed"})
    penalty = ProceduralPenalty(pair=pair, amount=amount, unit=penalty_unit, board=board,
                                reason=" ".join(reason.split()), given_by=by)
    penalty.full_clean()
    penalty.save()
    _log(session, penalty, "", penalty.text, by)
    return penalty


@write
def penalty_remove(*, penalty: ProceduralPenalty, by: AbstractBaseUser | None = None) -> None:
    """Take a penalty back (given in error, or withdrawn on appeal); logged with what it was."""
    session = penalty.pair.section.session
    unit().touch(sessions=[session], by=by)
    removed = ProceduralPenalty.objects.filter(pk=penalty.pk).delete()[0]
    if not removed:
        raise ValidationError("that penalty was already taken back: nothing was changed")
    _log(session, penalty, penalty.text, "", by)
