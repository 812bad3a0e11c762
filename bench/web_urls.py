"""The web benchmark's URLconf: the app's URLs, and a trivial view as the yardstick
(what Django, the middleware and gunicorn cost before any page does any work)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/trivial/", trivial, name="bench_trivial"),
    path("", include("clubscore.urls")),
]
