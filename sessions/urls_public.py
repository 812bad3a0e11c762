"""Players' pages: no login, published sessions and teams events only."""

from django.urls import path

from .views import booklet, mail, public, public_teams

urlpatterns = [
    path("", public.home, name="home"),
    path("clubs/<slug:club_slug>/", public.club, name="club"),
    path("events/<int64:event_id>/", public.event_results, name="event_results"),
    path("competitions/<int64:competition_id>/", public.competition, name="competition"),
    path("clubs/<slug:club_slug>/players/", public.club_players, name="club_players"),
    path("players/<int64:player_id>/", public.player, name="player"),
    path("sessions/<int64:session_id>/", public.session_results, name="session_results"),
    path("sessions/<int64:session_id>/booklet/", booklet.booklet, name="session_booklet"),
    path("sessions/<int64:session_id>/boards/<int64:number>/", public.board, name="board"),
    path("sessions/<int64:session_id>/pairs/<int64:pair_id>/", public.scorecard, name="scorecard"),
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="mail_unsubscribe"),
]

# Teams events.
urlpatterns += [
    path("teams/<int64:event_id>/", public_teams.team_event, name="team_event"),
    path("teams/<int64:event_id>/matches/<int64:match_id>/", public_teams.team_match, name="team_match"),
    path("teams/<int64:event_id>/teams/<int64:team_id>/", public_teams.team_page, name="team_page"),
]
