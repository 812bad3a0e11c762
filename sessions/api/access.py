"""Who asks the API, and its answers served by revision like the players' pages.

Without an ``Authorization`` header the public asks, and sees what the players' pages
show: published sessions and events only. ``Authorization: Bearer <key>`` with a club's
unrevoked key also shows that club's own unpublished sessions and teams events (never
another club's); a key that is unknown or revoked is a 401, so a program learns at once
that its key no longer works.

``by_revision(stamp_of)`` wraps an endpoint as ``cached_page`` wraps a page: the stamp
of what it shows (sessions.core.selectors.revisions) is its ETag (a conditional GET gets a
304 before anything else is read) and part of its cache key; the public and each key
have answers of their own (Vary: Authorization).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse

from sessions.api.selectors.api_keys import active_api_key
from sessions.core.selectors.revisions import Stamp
from sessions.api.services.api_keys import api_key_used
from sessions.core.views.caching import serve_by_stamp


@dataclass(frozen=True)
class Viewer:
    """The public (``club_id`` None) or the holder of club ``club_id``'s key."""

    club_id: int | None = None

    @property
    def audience(self) -> str:
        return "public" if self.club_id is None else f"api-key-club:{self.club_id}"


PUBLIC = Viewer()


class BadKey(Exception):
    """An Authorization header that names no usable key."""


def _viewer(request: HttpRequest) -> Viewer:
    header = request.headers.get("Authorization")
    if header is None:
        return PUBLIC
    scheme, _, key = header.partition(" ")
    api_key = active_api_key(key=key.strip()) if scheme.lower() == "bearer" else None
    if api_key is None:
        raise BadKey
    api_key_used(api_key=api_key)
    return Viewer(api_key.club_id)


def viewer_of(request: HttpRequest) -> Viewer:
    """The viewer ``by_revision`` found for the request."""
    return getattr(request, "api_viewer", PUBLIC)


def unauthorised() -> JsonResponse:
    response = JsonResponse({"detail": "This API key is unknown or revoked."}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="clubscore"'
    return response


StampOf = Callable[..., Stamp | None]


def by_revision(stamp_of: StampOf | None) -> Callable:
    """Decorate an endpoint's run (django-ninja ``decorate_view``): find the viewer, then
    serve by ``stamp_of(viewer, **path_arguments)``; None (unknown, or not the viewer's
    to see) lets the endpoint answer, a 404. ``stamp_of`` None: nothing to cache by."""

    def decorator(run: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(run)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                viewer = _viewer(request)
            except BadKey:
                return unauthorised()
            request.api_viewer = viewer  # type: ignore[attr-defined]
            stamp = stamp_of(viewer, **kwargs) if stamp_of and request.method in ("GET", "HEAD") else None
            if stamp is None:
                return run(request, *args, **kwargs)
            # The API's answers are JSON, never framed: the stamp's frame origins stay off.
            return serve_by_stamp(
                request, stamp=dataclasses.replace(stamp, frame_origins=()), audience=viewer.audience,
                render=lambda: run(request, *args, **kwargs), vary="Authorization",
            )

        return wrapper

    return decorator
