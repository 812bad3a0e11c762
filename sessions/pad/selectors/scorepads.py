"""A member's score pads kept on the server (one query)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from sessions.models import ScorePad


def member_score_pads(*, user: AbstractBaseUser) -> QuerySet[ScorePad]:
    """The member's pads, latest first, without the pads' deals (the list does not show them)."""
    return ScorePad.objects.filter(user=user).defer("data").order_by("-updated_at", "-pk")
