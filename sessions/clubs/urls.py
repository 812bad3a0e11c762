"""The club's pages: its settings, directors, players, competitions, handicaps and mails; embeds for its site."""

from django.urls import path

from sessions.clubs.views import clubs, competitions, embed, handicaps, mail

urlpatterns = [
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="mail_unsubscribe"),
    path("embed/clubs/<slug:club_slug>/latest/", embed.latest, name="embed_latest"),
    path("embed/sessions/<int64:session_id>/", embed.session_ranking, name="embed_session"),
    path("director/events/<int64:event_id>/competitions/new/", competitions.competition_new,
         name="director_competition_new"),
    path("director/competitions/<int64:competition_id>/", competitions.competition_edit, name="director_competition"),
    path("director/sessions/<int64:session_id>/mails/<int64:mail_id>/resend/", mail.session_mail_resend,
         name="director_mail_resend"),
    path("director/clubs/<slug:club_slug>/players/<int64:player_id>/email/", mail.player_email,
         name="director_player_email"),
    path("director/sessions/<int64:session_id>/handicaps/", handicaps.session_handicaps, name="director_handicaps"),
    path("director/clubs/<slug:club_slug>/settings/", clubs.club_settings, name="director_club_settings"),
    path("director/clubs/<slug:club_slug>/directors/", clubs.club_directors, name="director_club_directors"),
    path("director/clubs/<slug:club_slug>/api-keys/", clubs.api_key_new, name="director_api_key_new"),
    path("director/clubs/<slug:club_slug>/api-keys/<int64:key_id>/revoke/", clubs.api_key_revoke_view,
         name="director_api_key_revoke"),
    path("director/clubs/<slug:club_slug>/webhooks/", clubs.webhook_new, name="director_webhook_new"),
    path("director/clubs/<slug:club_slug>/webhooks/<int64:webhook_id>/delete/", clubs.webhook_delete_view,
         name="director_webhook_delete"),
    path("director/clubs/<slug:club_slug>/webhooks/<int64:webhook_id>/test/", clubs.webhook_test_view,
         name="director_webhook_test"),
    path("director/clubs/<slug:club_slug>/directors/<int64:membership_id>/remove/", clubs.club_director_remove_view,
         name="director_club_director_remove"),
    path("director/clubs/<slug:club_slug>/directors/<int64:membership_id>/owner/", clubs.club_director_owner_view,
         name="director_club_director_owner"),
    path("director/clubs/<slug:club_slug>/directors/<int64:membership_id>/unlock/", clubs.club_director_unlock_view,
         name="director_club_director_unlock"),
    path("director/teams/<int64:event_id>/mails/round/", mail.team_mail_round, name="director_team_mail_round"),
    path("director/teams/<int64:event_id>/mails/<int64:mail_id>/resend/", mail.team_mail_resend,
         name="director_team_mail_resend"),
]
