"""Keeping a member's score pads on the server (the pad itself: sessions.scoring.scorepad)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from sessions.models import ScorePad
from sessions.scoring.scorepad import Pad

from sessions.core.services.unit_of_work import unit, write


@write
def score_pad_save(*, user: AbstractBaseUser, client_id: str, pad: Pad) -> ScorePad:
    """Store the member's pad, or replace the copy kept under the same browser id.

    A phone may send two syncs of a new pad at once: the second insert then meets the
    unique (user, client_id) and becomes an update of the row the first one made.
    """
    stored = unit().lock_rows(ScorePad.objects.filter(user=user, client_id=client_id)).first()
    stored = stored or ScorePad(user=user, client_id=client_id)
    stored.kind, stored.era, stored.names, stored.data = pad.kind, pad.era, list(pad.names), pad.as_json()
    # The unique (user, client_id) is left to the database, whose IntegrityError below says a
    # concurrent sync stored the pad since the read above: validated here, it would refuse
    # that sync's pad instead of updating it. The pad's own checks (kind, era) still run.
    stored.full_clean(validate_unique=False, validate_constraints=False)
    stored.validate_constraints(exclude={"user", "client_id"})
    try:
        with transaction.atomic():
            stored.save()
    except IntegrityError:
        ScorePad.objects.filter(user=user, client_id=client_id).update(
            kind=stored.kind, era=stored.era, names=stored.names, data=stored.data, updated_at=timezone.now())
        stored = ScorePad.objects.get(user=user, client_id=client_id)
    return stored


@write
def score_pad_delete(*, pad: ScorePad) -> None:
    pad.delete()
