"""Every object a director's page touches is fetched through one club-scoped helper.

A user sees only the objects of the clubs they direct: anything else, another club's
session or a user who directs nothing, is a 404, so outsiders cannot even learn that
an object exists.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_protect

from sessions.models import Club, ClubDirector, Session

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


def directed_session(request: HttpRequest, session_id: int) -> Session:
    """The session ``session_id`` of a club the request's user directs (its event and club
    loaded), else Http404: every director's session page starts here."""
    return get_club_object_or_404(request.user, Session, pk=session_id)


def get_owned_club_or_404(user: AbstractBaseUser | AnonymousUser, **lookup) -> Club:
    """The club matching ``lookup`` if the user owns it.

    Like every director object, a club the user does not direct is a 404; a director of
    the club who is not an owner knows the club exists, and is refused (403).
    """
    club = get_club_object_or_404(user, Club, **lookup)
    if not ClubDirector.objects.filter(club=club, user=user, is_owner=True).exists():
        raise PermissionDenied("only the club's owners manage its settings and directors")
    return club


def htmx_login_required(logged_out: Callable[[], HttpResponse]):
    """login_required, except that an htmx request from a logged-out user gets ``logged_out()``.

    login_required answers with a redirect to the login page, which htmx follows and would
    swap into the page (an entry row, the progress grid) in place of the fragment; the
    page shows a short answer instead and keeps what was typed. That answer comes before
    the CSRF check (nothing is read or written to give it), so a browser that lost all its
    cookies hears "log in again", not a CSRF failure; every other request is checked as
    usual (csrf_protect, then login_required).
    """

    def decorator(view):
        protected = csrf_protect(login_required(view))

        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.htmx and not request.user.is_authenticated:
                return logged_out()
            return protected(request, *args, **kwargs)

        wrapper.csrf_exempt = True  # the middleware's check: csrf_protect above does it instead
        return wrapper

    return decorator
