"""A players' page of a session or teams event that exists but is not published answers
404 with a page that says so, instead of a bare "Not Found"; it names nothing of the
session (no name, club or date), so a visitor learns only that it is not published yet."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from sessions.pairs.selectors.public import unpublished_exists

View = Callable[..., HttpResponse]


def not_published_yet(model: type[Model], what: str, key: str) -> Callable[[View], View]:
    """Wrap a players' view whose URL names a ``model`` row by ``key``: its 404 for a row
    that exists unpublished is the "not published yet" page (still a 404)."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except Http404:
                if not unpublished_exists(model=model, pk=kwargs[key]):
                    raise
                return render(request, "pairs/public/not_published.html", {"what": what}, status=404)

        return wrapper

    return decorator
