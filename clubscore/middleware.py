"""Requests refused before anything reads them, and writes taken in turn."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class RefuseOtherCharsetsMiddleware:
    """A request whose Content-Type names a charset other than UTF-8 is a 400, at once.

    Django refuses to read a form posted in another charset (BadRequest), and its error
    pages, which check the CSRF token, read the form again and raise again: the server's
    bare 500, without the security headers. A charset Python decodes strangely ("rot13")
    breaks even a GET's query. The app's pages are UTF-8, and browsers and htmx post them
    in UTF-8, so nothing real is refused. Placed after the middleware that adds the
    security headers, so the 400 carries them, and before anything that reads the body.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = request.content_params.get("charset") if request.content_params else None
        if charset is not None and charset.strip().lower() != "utf-8":
            return HttpResponseBadRequest(
                "This request is not in UTF-8: send it in UTF-8.", content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


class WritesInTurnMiddleware:
    """At most ``settings.WRITES_AT_ONCE`` writing requests (any method but GET, HEAD and
    OPTIONS) run at once in this process; the others wait their turn, using no CPU.

    Under gunicorn's threaded workers (gunicorn.conf.py) a process serves many requests
    at once. Fifty table phones posting at once would share the CPUs with the players'
    reloads as equals, and a post costs many times a cached page: the reloads starved
    (issue 25: 48 of the 200 a second asked). With the posts taken a few at a time, a
    reload finds a free thread and the CPU, and the posts still go through in order, none
    refused. 0 lets every request run at once. A sync worker serves one request at a
    time, so there it changes nothing.
    """

    READS = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        from django.conf import settings

        self.get_response = get_response
        limit = settings.WRITES_AT_ONCE
        self.turns = threading.BoundedSemaphore(limit) if limit > 0 else None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.turns is None or request.method in self.READS:
            return self.get_response(request)
        with self.turns:
            return self.get_response(request)
