from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from sessions.api.urls import api


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the real icon.
    (Resolved per request: the static files' hashed names exist only after collectstatic.)"""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("favicon.ico", favicon),
    path("api/v1/", api.urls),
    path("", include("sessions.urls")),
]
