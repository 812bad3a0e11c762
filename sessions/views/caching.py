"""Public pages served from the cache by revision, and 304s for the phones that refresh.

``cached_page(stamp_of)`` wraps a players' page. ``stamp_of`` reads, in one query, the
revision the page stands on (sessions.selectors.revisions; None for an unknown or
unpublished object, which the view then answers itself, a 404, never the cache). That
revision is the page's ETag and its time the Last-Modified: a phone that reloads a page
nothing has changed gets a 304 before anything else is read. Otherwise the rendered
page is taken from Django's cache (Redis with REDIS_URL, local memory without) under
its address and revision, or rendered, through the scored-session cache, and kept.

A write bumps the revision in its own transaction, so the next request after a
correction has a new key and a new ETag: nothing is ever deleted from the cache.
Each logged-in visitor has entries (and ETags) of their own, never shared with another
or with the anonymous public, and only
anonymous answers may be kept by a shared cache on the way (Cache-Control private for
the others). The pages carry no CSP nonce and no CSRF token, so one body serves all;
a page that used the CSRF token or set a cookie is not kept.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag

from sessions import shared_cache
from sessions.selectors.revisions import Stamp
from sessions.selectors.scoring import scores_from_cache

#: Seconds a rendered page stays in the cache. A revision's page is never wrong, only
#: unused once the revision moves on: this bounds the memory old revisions take.
PAGE_CACHE_SECONDS = 24 * 60 * 60



ROOT = Path(__file__).resolve().parents[2]


def code_version(root: Path = ROOT) -> str:
    """A digest of the templates and the app's code: part of every key and ETag, so that
    a deployment that changes how pages look never serves a page the old code rendered
    (every app server running the same code computes the same digest)."""
    files = sorted([*(root / "templates").rglob("*.html"), *(root / "sessions").rglob("*.py")])
    digest = hashlib.blake2b(digest_size=8)
    for path in files:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


PAGE_VERSION = code_version()

View = Callable[..., HttpResponse]


def _audience(request: HttpRequest) -> str:
    # Each signed-in visitor has entries of their own: a club's director may see what the
    # page hides from others (rankings hidden during play, the downloads before final).
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return "public"  # no session, so nobody signed in: the phones' reloads skip loading the user
    return f"user:{request.user.pk}" if request.user.is_authenticated else "public"


def _digest(*parts: str) -> str:
    return hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()


def _page_key(request: HttpRequest, stamp: Stamp, audience: str) -> str:
    return f"clubscore:page:{_digest(PAGE_VERSION, stamp.key, audience, request.get_full_path())}"


def _keepable(request: HttpRequest, response: HttpResponse) -> bool:
    """Only a plain 200 that holds nothing of this visitor's own."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_USED")
    )


def _from_cache(key: str) -> HttpResponse | None:
    kept = shared_cache.get(key)
    if kept is None:
        return None
    content, content_type = kept
    return HttpResponse(content, content_type=content_type)


def _label(response: HttpResponse, *, etag: str, stamp: Stamp, audience: str, vary: str) -> HttpResponse:
    response.headers["ETag"] = etag
    response.headers["Last-Modified"] = http_date(stamp.changed_at.timestamp())
    # Every reload asks again (a provisional page changes any minute), cheaply with the ETag.
    if audience == "public":
        patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, [vary])
    _allow_framing(response, stamp.frame_origins)
    return response


def _allow_framing(response: HttpResponse, origins: tuple[str, ...]) -> None:
    """Let the club's own sites frame the page: CSP frame-ancestors names them (django-csp
    reads ``_csp_replace``) and X-Frame-Options, which knows no list, is left off. Every
    other page keeps the settings' frame-ancestors 'none' and DENY. Set on the 304 too: a
    browser takes a 304's headers into the page it kept."""
    if origins:
        response._csp_replace = {"frame-ancestors": list(origins)}  # type: ignore[attr-defined]
        response.xframe_options_exempt = True  # type: ignore[attr-defined]


def serve_by_stamp(
    request: HttpRequest, *, stamp: Stamp, audience: str, render: Callable[[], HttpResponse], vary: str = "Cookie",
) -> HttpResponse:
    """A GET of a page standing on ``stamp``, as ``audience`` sees it: a 304 when the
    visitor has it, else from the cache, else ``render()``ed (through the scored-session
    cache) and kept when it may be. ``vary`` names the request header the audience is
    read from."""
    etag = quote_etag(_digest(PAGE_VERSION, stamp.key, audience, *stamp.frame_origins))
    not_modified = get_conditional_response(
        request, etag=etag, last_modified=int(stamp.changed_at.timestamp()),
    )
    if not_modified is not None:
        return _label(not_modified, etag=etag, stamp=stamp, audience=audience, vary=vary)
    key = _page_key(request, stamp, audience)
    response = _from_cache(key)
    if response is None:
        with scores_from_cache():
            response = render()
        if not _keepable(request, response):
            return response  # a 404 (an unknown board or pair) carries no ETag
        shared_cache.set(key, (response.content, response["Content-Type"]), PAGE_CACHE_SECONDS)
    return _label(response, etag=etag, stamp=stamp, audience=audience, vary=vary)


def cached_page(stamp_of: Callable[..., Stamp | None]) -> Callable[[View], View]:
    """Serve the view's GETs from the cache by revision; see the module docstring.

    ``stamp_of`` takes those of the view's URL keyword arguments it names.
    """
    names = set(inspect.signature(stamp_of).parameters)

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            stamp = stamp_of(**{name: value for name, value in kwargs.items() if name in names})
            if stamp is None:
                return view(request, *args, **kwargs)
            return serve_by_stamp(
                request, stamp=stamp, audience=_audience(request), render=lambda: view(request, *args, **kwargs),
            )

        return wrapper

    return decorator


def cached_scores(view: View) -> View:
    """Score through the scored-session cache on a GET (a director's standings): the page
    itself is rendered for each request, after the view's own permission check."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        with scores_from_cache():
            return view(request, *args, **kwargs)

    return wrapper
