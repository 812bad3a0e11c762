"""The director's pages: login required, objects scoped to the director's clubs."""

from django.urls import path

from . import director_views as director

urlpatterns = [
    path("director/", director.dashboard, name="director_dashboard"),
    path("director/clubs/<slug:club_slug>/sessions/new/", director.session_new, name="director_session_new"),
    path("director/clubs/<slug:club_slug>/players/", director.club_players, name="director_players"),
    path("director/sessions/<int:session_id>/", director.session_detail, name="director_session"),
    path("director/sessions/<int:session_id>/publish/", director.session_publish_view, name="director_publish"),
    path("director/sessions/<int:session_id>/unpublish/", director.session_unpublish_view,
         name="director_unpublish"),
    path("director/sessions/<int:session_id>/standings/", director.session_standings, name="director_standings"),
    path("director/sessions/<int:session_id>/log/", director.session_log, name="director_log"),
    path("director/sessions/<int:session_id>/boards/<int:number>/", director.board_entry, name="director_board"),
    path(
        "director/sessions/<int:session_id>/sections/<str:letter>/rounds/<int:round>/tables/<int:table>/",
        director.table_entry,
        name="director_table",
    ),
]
