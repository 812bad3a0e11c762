"""Requests refused before anything reads them."""

from __future__ import annotations

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

