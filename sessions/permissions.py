"""Every object a director's page touches is fetched through one club-scoped helper.

A user sees only the objects of the clubs they direct: anything else, another club's
session or a user who directs nothing, is a 404, so outsiders cannot even learn that
an object exists.
"""

from __future__ import annotations

from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Model
from django.http import Http404
from django.shortcuts import get_object_or_404

M = TypeVar("M", bound=Model)


def club_scoped(user: AbstractBaseUser | AnonymousUser, model: type[M]):
    """``model``'s objects in the clubs ``user`` directs, with the path to the club loaded."""
    if not user.is_authenticated:
        return model.objects.none()
    path = model.club_path
    queryset = model.objects.filter(**{f"{path}__directors" if path else "directors": user})
    return queryset.select_related(path) if path else queryset


def get_club_object_or_404(user: AbstractBaseUser | AnonymousUser, model: type[M], **lookup) -> M:
    """The object matching ``lookup`` in one of the user's clubs, else Http404."""
    if not user.is_authenticated:
        raise Http404("not found")
    return get_object_or_404(club_scoped(user, model), **lookup)
