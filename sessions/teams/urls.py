"""Teams events: the players' pages (no login, published only) and the director's (login, club-scoped)."""

from django.urls import path

from sessions.teams.views import public_teams, teams, teams_edit

urlpatterns = [
    path("teams/<int64:event_id>/", public_teams.team_event, name="team_event"),
    path("teams/<int64:event_id>/matches/<int64:match_id>/", public_teams.team_match, name="team_match"),
    path("teams/<int64:event_id>/teams/<int64:team_id>/", public_teams.team_page, name="team_page"),
    path("director/clubs/<slug:club_slug>/teams/new/", teams.team_event_new, name="director_team_event_new"),
    path("director/teams/<int64:event_id>/", teams.team_event_detail, name="director_team_event"),
    path("director/teams/<int64:event_id>/teams/", teams.team_add_view, name="director_team_add"),
    path("director/teams/<int64:event_id>/draw/", teams.team_event_draw, name="director_team_draw"),
    path("director/teams/<int64:event_id>/matches/", teams.team_match_new, name="director_team_match_new"),
    path("director/teams/<int64:event_id>/adjustments/", teams.team_adjustment_new, name="director_team_adjustment"),
    path("director/teams/<int64:event_id>/publish/", teams.team_event_publish_view, name="director_team_publish"),
    path("director/team-matches/<int64:match_id>/", teams.team_match_entry, name="director_team_match"),
    path("director/team-matches/<int64:match_id>/totals/", teams.team_match_totals, name="director_team_match_totals"),
    path("director/team-matches/<int64:match_id>/not-played/", teams.team_match_not_played,
         name="director_team_match_not_played"),
    path("director/team-teams/<int64:team_id>/edit/", teams_edit.team_edit, name="director_team_edit"),
    path("director/team-teams/<int64:team_id>/delete/", teams_edit.team_delete, name="director_team_delete"),
    path("director/team-matches/<int64:match_id>/edit/", teams_edit.match_edit, name="director_team_match_edit"),
    path("director/team-matches/<int64:match_id>/delete/", teams_edit.match_delete, name="director_team_match_delete"),
    path("director/team-matches/<int64:match_id>/played/", teams_edit.match_played, name="director_team_match_played"),
    path("director/team-adjustments/<int64:adjustment_id>/edit/", teams_edit.adjustment_edit,
         name="director_team_adjustment_edit"),
    path("director/team-adjustments/<int64:adjustment_id>/delete/", teams_edit.adjustment_delete,
         name="director_team_adjustment_delete"),
    path("director/teams/<int64:event_id>/rounds/<int64:round>/undo/", teams_edit.round_undo,
         name="director_team_round_undo"),
    path("director/teams/<int64:event_id>/final/", teams_edit.team_event_final, name="director_team_final"),
    path("director/teams/<int64:event_id>/clock/", teams.team_clock_view, name="director_team_clock"),
    path("director/teams/<int64:event_id>/calls/<int64:call_id>/take/", teams.team_call_take,
         name="director_team_call_take"),
]
