"""Players' pages: no login, published sessions only."""

from django.urls import path

from .views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("clubs/<slug:club_slug>/", public.club, name="club"),
    path("events/<int:event_id>/", public.event_results, name="event_results"),
    path("clubs/<slug:club_slug>/players/", public.club_players, name="club_players"),
    path("players/<int:player_id>/", public.player, name="player"),
    path("sessions/<int:session_id>/", public.session_results, name="session_results"),
    path("sessions/<int:session_id>/boards/<int:number>/", public.board, name="board"),
    path("sessions/<int:session_id>/pairs/<int:pair_id>/", public.scorecard, name="scorecard"),
]
