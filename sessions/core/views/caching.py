"""Public pages served from the cache by revision, and 304s for the phones that refresh.

``cached_page(stamp_of)`` wraps a players' page. ``stamp_of`` reads, in one query, the
revision the page stands on (sessions.core.selectors.revisions; None for an unknown or
unpublished object, which the view then answers itself, a 404, never the cache). That
revision is the page's ETag and its time the Last-Modified: a phone that reloads a page
nothing has changed gets a 304 before anything else is read. Otherwise the rendered
page is taken from Django's cache (Redis with REDIS_URL, local memory without) under
its address and revision, or rendered, through the scored-session cache, and kept.

A write bumps the revision in its own transaction, so the next request after a
correction has a new key and a new ETag: nothing is ever deleted from the cache.

With a shared cache (Redis) the stamp itself comes from the cache, with the page's last
rendered revision, in one round trip and no query: each write puts its new stamps there
after its commit, and a missing stamp is read from the database and kept for
STAMP_CACHE_SECONDS (sessions.core.selectors.revisions, SharedStamp). Each worker's own
local memory would not see another's writes, so without Redis the database is asked.

While the tables play, every line bumps the revision, and two hundred players reloading
the ranking would each render it again. So one request at a time renders a page's new
revision (a claim in the cache); the others asking for that page meanwhile get the
revision before it at once, if it was rendered in the last STALE_WHILE_RENDERING_SECONDS,
with its own ETag, so their next reload gets the new one. One request after another (a
director's correction, then a look) always sees the new revision: only a request that
arrives while another renders is answered from the one before.
Each logged-in visitor has entries (and ETags) of their own, never shared with another
or with the anonymous public, and only
anonymous answers may be kept by a shared cache on the way (Cache-Control private for
the others). The pages carry no CSP nonce and no CSRF token, so one body serves all;
a page that used the CSRF token or set a cookie is not kept.
"""

from __future__ import annotations

import hashlib
import inspect
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag

from sessions.core import shared_cache
from sessions.core.selectors.revisions import SHARED_STAMPS, SharedStamp, Stamp
from sessions.core.selectors.scoring import scores_from_cache

#: Seconds a rendered page stays in the cache. A revision's page is never wrong, only
#: unused once the revision moves on: this bounds the memory old revisions take.
PAGE_CACHE_SECONDS = 24 * 60 * 60
#: How old the revision before may be to answer while another request renders the new
#: one: a player then sees the page of a few lines ago, never of a round ago.
STALE_WHILE_RENDERING_SECONDS = 20
#: How long one render holds a page's claim: after that (a worker killed mid-render)
#: another request renders it.
RENDER_CLAIM_SECONDS = 10


ROOT = Path(__file__).resolve().parents[3]  # the repository: its templates/ and sessions/


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
#: A page's last rendered revision: content, content type, ETag, changed at, rendered at
#: (time.time()), and the stamp key it stands on.
Latest = tuple[bytes, str, str, float, float, str]


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


def _latest_key(request: HttpRequest, audience: str) -> str:
    """The page at this address for this audience, whatever its revision: the last one
    rendered (the answer while another request renders the new one, and, with a shared
    cache, read with the page's stamp in one round trip), and the claim."""
    return f"clubscore:latest:{_digest(PAGE_VERSION, audience, request.get_full_path())}"


def _label(response: HttpResponse, *, etag: str, changed_at: float, frame_origins: tuple[str, ...],
           audience: str, vary: str) -> HttpResponse:
    response.headers["ETag"] = etag
    response.headers["Last-Modified"] = http_date(changed_at)
    # Every reload asks again (a provisional page changes any minute), cheaply with the ETag.
    if audience == "public":
        patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, [vary])
    _allow_framing(response, frame_origins)
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
    latest: Latest | None = None,
) -> HttpResponse:
    """A GET of a page standing on ``stamp``, as ``audience`` sees it: a 304 when the
    visitor has it, else from the cache, else the revision before while another request
    renders this one, else ``render()``ed (through the scored-session cache) and kept
    when it may be. ``vary`` names the request header the audience is read from;
    ``latest``: the page's last rendered revision, already read with the stamp."""
    etag = quote_etag(_digest(PAGE_VERSION, stamp.key, audience, *stamp.frame_origins))
    changed_at = stamp.changed_at.timestamp()
    labels: dict[str, Any] = {"audience": audience, "vary": vary, "frame_origins": stamp.frame_origins}
    not_modified = get_conditional_response(request, etag=etag, last_modified=int(changed_at))
    if not_modified is not None:
        return _label(not_modified, etag=etag, changed_at=changed_at, **labels)
    if latest is not None and latest[5] == stamp.key:
        response: HttpResponse | None = HttpResponse(latest[0], content_type=latest[1])
    else:
        response = _from_cache(_page_key(request, stamp, audience))
    if response is not None:
        return _label(response, etag=etag, changed_at=changed_at, **labels)
    latest_key = _latest_key(request, audience)
    claim = f"{latest_key}:rendering"
    claimed = shared_cache.claim(claim, RENDER_CLAIM_SECONDS)
    if not claimed:
        before = _revision_before(request, latest_key, labels)
        if before is not None:
            return before
    try:
        with scores_from_cache():
            response = render()
        if not _keepable(request, response):
            return response  # a 404 (an unknown board or pair) carries no ETag
        kept = (response.content, response["Content-Type"])
        shared_cache.set(_page_key(request, stamp, audience), kept, PAGE_CACHE_SECONDS)
        # With a shared cache the last revision is also what the next request serves (read
        # with the stamp); otherwise only the answer while another request renders.
        latest_seconds = PAGE_CACHE_SECONDS if shared_cache.is_shared() else STALE_WHILE_RENDERING_SECONDS
        shared_cache.set(latest_key, (*kept, etag, changed_at, time.time(), stamp.key), latest_seconds)
    finally:
        if claimed:
            shared_cache.release(claim)
    return _label(response, etag=etag, changed_at=changed_at, **labels)


def _revision_before(request: HttpRequest, latest: str, labels: dict[str, Any]) -> HttpResponse | None:
    """The page's last rendered revision, while another request renders the new one: a
    304 when the visitor has it. None when none was rendered recently."""
    kept = shared_cache.get(latest)
    if kept is None:
        return None
    content, content_type, etag, changed_at, rendered_at, _stamp_key = kept
    if time.time() - rendered_at > STALE_WHILE_RENDERING_SECONDS:
        return None
    response = get_conditional_response(request, etag=etag, last_modified=int(changed_at))
    if response is None:
        response = HttpResponse(content, content_type=content_type)
    response.headers["X-Page-Revision"] = "previous"
    return _label(response, etag=etag, changed_at=changed_at, **labels)


def cached_page(stamp_of: Callable[..., Stamp | None]) -> Callable[[View], View]:
    """Serve the view's GETs from the cache by revision; see the module docstring.

    ``stamp_of`` takes those of the view's URL keyword arguments it names.
    """
    names = set(inspect.signature(stamp_of).parameters)
    shared = SHARED_STAMPS.get(stamp_of)

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            arguments = {name: value for name, value in kwargs.items() if name in names}
            audience, latest = None, None
            if shared is not None and shared_cache.is_shared():
                audience = _audience(request)  # (the page's key: read with the stamp)
                stamp, latest = _shared_stamp(shared, arguments, _latest_key(request, audience))
            else:
                stamp = stamp_of(**arguments)
            if stamp is None:
                return view(request, *args, **kwargs)
            return serve_by_stamp(
                request, stamp=stamp, audience=audience or _audience(request),
                render=lambda: view(request, *args, **kwargs), latest=latest,
            )

        return wrapper

    return decorator


def _shared_stamp(shared: SharedStamp, arguments: dict[str, Any], latest_key: str) -> tuple[Stamp | None, Latest | None]:
    """The page's stamp and its last rendered revision from the shared cache, in one round
    trip; the stamp from the database (one query) when the cache has none."""
    key = shared.key(arguments)
    if key is not None:
        kept = shared_cache.get_many([key, latest_key])
        entry = kept.get(key)
        if entry is not None:
            return shared.stamp(entry), kept.get(latest_key)
    entry = shared.load(arguments)
    return (shared.stamp(entry) if entry is not None else None), None


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
