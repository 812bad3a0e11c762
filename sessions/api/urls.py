"""The API object and its URLs: ``/api/v1/`` (clubscore.urls), the OpenAPI schema at
``/api/v1/schema/``. No interactive docs page: django-ninja's loads Swagger UI from a
CDN, which the Content-Security-Policy (and a club room's internet) would refuse."""

from __future__ import annotations

from ninja import NinjaAPI

from sessions.api.endpoints import router

API_DESCRIPTION = """ClubScore's results, read-only: clubs, events, sessions, rankings,
travellers, score cards, players and teams standings. Only published results, unless
the request carries one of the club's API keys (`Authorization: Bearer <key>`), which
also shows that club's unpublished sessions and teams events. Lists come a page at a
time (`?page=`, `?page_size=`); every answer has an ETag (send it back in
`If-None-Match`: a 304 while nothing changed). Figures are rounded to two places, as on
the pages."""

class ClubScoreApi(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """The schema, with the club's key as an optional bearer scheme (sessions.api.access
        reads it itself: without one the public's view, never a refusal)."""
        schema = super().get_openapi_schema(*args, **kwargs)
        schema.setdefault("components", {}).setdefault("securitySchemes", {})["clubKey"] = {
            "type": "http", "scheme": "bearer",
        }
        schema["security"] = [{}, {"clubKey": []}]
        return schema


api = ClubScoreApi(
    title="ClubScore API",
    version="1",
    description=API_DESCRIPTION,
    urls_namespace="api-v1",
    openapi_url="/schema/",
    docs_url=None,
)
api.add_router("/", router)

urlpatterns = [api.urls]
