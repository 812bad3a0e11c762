"""A table (or a teams room) calls the director from its phone; a director takes the call.

One press stores one call: the phone makes a key per press (as for its sends), so a
press repeated by a retry or by a phone coming back online finds its first call; and a
press while the table's call is still open returns that call (the database keeps one
open call per table). Calls are made while the session is open only (``@while_open``,
as every other write from a phone): once final, the phone reads and writes nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from sessions.models import CallReason, DirectorCall, MatchTableLink, TableLink
from sessions.phones.selectors.calls import call_place

from sessions.phones.services.tables import check_client_key, while_open
from sessions.core.services.unit_of_work import write


def _open_call(link: TableLink | MatchTableLink) -> DirectorCall | None:
    return DirectorCall.objects.filter(**call_place(link), taken_at__isnull=True).first()


@while_open
def director_call(
    *, link: TableLink | MatchTableLink, client_key: str, round: int | None = None, reason: str = "",
    now: datetime | None = None,
) -> DirectorCall:
    """The table's (or teams room's) open call: the one this press (or an earlier one) made, never two."""
    key = check_client_key(client_key)
    place = call_place(link)
    earlier = DirectorCall.objects.filter(client_key=key).first()
    if earlier is not None:
        if any(getattr(earlier, name) != value for name, value in place.items()):
            raise ValidationError("this call belongs to another table: reload the page")
        return earlier
    already = _open_call(link)
    if already is not None:
        return already
    call = DirectorCall(
        **place, round=round, reason=reason if reason in CallReason.values else CallReason.NONE,
        client_key=key, called_at=now or timezone.now(),
    )
    call.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():  # a savepoint: a press racing this one made the open call
            call.save()
    except IntegrityError:
        raced = _open_call(link) or DirectorCall.objects.filter(client_key=key).first()
        if raced is None:
            raise
        return raced
    return call


@write
def director_call_take(*, call: DirectorCall, by: AbstractBaseUser, now: datetime | None = None) -> DirectorCall:
    """The director is on the way: the call leaves the grid and the phone says so.
    Taking a call already taken changes nothing (two directors, one walk)."""
    DirectorCall.objects.filter(pk=call.pk, taken_at__isnull=True).update(taken_at=now or timezone.now(), taken_by=by)
    call.refresh_from_db()
    return call
