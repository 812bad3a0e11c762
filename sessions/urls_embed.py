"""Embeds: the club's results for a frame on its own site (no login, published only)."""

from django.urls import path

from .views import embed

urlpatterns = [
    path("embed/clubs/<slug:club_slug>/latest/", embed.latest, name="embed_latest"),
    path("embed/sessions/<int64:session_id>/", embed.session_ranking, name="embed_session"),
]
