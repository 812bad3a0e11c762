"""The director's pages: login required, objects scoped to the director's clubs."""

from django.urls import path

from .views import competitions, director, handicaps
from .views import booklet, live
from .views import mail

urlpatterns = [
    path("director/", director.dashboard, name="director_dashboard"),
    path("director/events/<int64:event_id>/competitions/new/", competitions.competition_new,
         name="director_competition_new"),
    path("director/competitions/<int64:competition_id>/", competitions.competition_edit, name="director_competition"),
    path("director/clubs/<slug:club_slug>/sessions/new/", director.session_new, name="director_session_new"),
    path("director/clubs/<slug:club_slug>/players/", director.club_players, name="director_players"),
    path("director/clubs/<slug:club_slug>/events/new/", director.event_new, name="director_event_new"),
    path("director/events/<int64:event_id>/", director.event_edit, name="director_event"),
    path("director/sessions/<int64:session_id>/", director.session_detail, name="director_session"),
    path("director/sessions/<int64:session_id>/mails/<int64:mail_id>/resend/", mail.session_mail_resend,
         name="director_mail_resend"),
    path("director/clubs/<slug:club_slug>/players/<int64:player_id>/email/", mail.player_email,
         name="director_player_email"),
    path("director/sessions/<int64:session_id>/publish/", live.session_publish_view, name="director_publish"),
    path("director/sessions/<int64:session_id>/unpublish/", live.session_unpublish_view,
         name="director_unpublish"),
    path("director/sessions/<int64:session_id>/standings/", director.session_standings, name="director_standings"),
    path("director/sessions/<int64:session_id>/log/", director.session_log, name="director_log"),
    path("director/sessions/<int64:session_id>/booklet/", booklet.director_booklet, name="director_booklet"),
    path("director/sessions/<int64:session_id>/paper/", booklet.paper_forms, name="director_paper_forms"),
    path("director/sessions/<int64:session_id>/cards/", director.session_cards_view, name="director_cards"),
    path("director/sessions/<int64:session_id>/pairs/", director.session_pairs_view, name="director_pairs"),
    path("director/sessions/<int64:session_id>/handicaps/", handicaps.session_handicaps, name="director_handicaps"),
    path("director/sessions/<int64:session_id>/boards/<int64:number>/", director.board_entry, name="director_board"),
    path("director/sessions/<int64:session_id>/boards/<int64:number>/fouled/", director.board_groups,
         name="director_board_groups"),
    path(
        "director/sessions/<int64:session_id>/sections/<letter:letter>/rounds/<int64:round>/tables/<int64:table>/",
        director.table_entry,
        name="director_table",
    ),
    path("director/sessions/<int64:session_id>/progress/", live.session_progress_grid, name="director_progress"),
    path("director/sessions/<int64:session_id>/calls/<int64:call_id>/taken/", live.director_call_take_view,
         name="director_call_take"),
    path("director/sessions/<int64:session_id>/clock/", live.session_clock_view, name="director_clock"),
    path("director/sessions/<int64:session_id>/final/", live.session_mark_final_view, name="director_mark_final"),
    path("director/sessions/<int64:session_id>/reopen/", live.session_reopen_view, name="director_reopen"),
]

# Procedural penalties (Law 90), given from the session page.
from .views import penalties  # noqa: E402

urlpatterns += [
    path("director/sessions/<int64:session_id>/penalties/", penalties.penalty_give_view, name="director_penalty_give"),
    path("director/sessions/<int64:session_id>/penalties/<int64:penalty_id>/remove/", penalties.penalty_remove_view,
         name="director_penalty_remove"),
]

# The table links page: each table's phone link, its QR code, renew and revoke.
from .views import director_tables as links  # noqa: E402

urlpatterns += [
    path("director/sessions/<int64:session_id>/tables/", links.table_links, name="director_table_links"),
    path("director/sessions/<int64:session_id>/tables/make/", links.table_links_make, name="director_table_links_make"),
    path("director/sessions/<int64:session_id>/tables/links/<int64:link_id>/renew/", links.table_link_renew_view,
         name="director_table_link_renew"),
    path("director/sessions/<int64:session_id>/tables/links/<int64:link_id>/revoke/", links.table_link_revoke_view,
         name="director_table_link_revoke"),
    path("director/sessions/<int64:session_id>/tables/<letter:letter>/<int64:table>/new/", links.table_link_new,
         name="director_table_link_new"),
]

# Repairing a session as it really went, and the club's player records.
from .views import repair  # noqa: E402

urlpatterns += [
    path("director/sessions/<int64:session_id>/edit/", repair.session_edit, name="director_session_edit"),
    path("director/sessions/<int64:session_id>/movement/", repair.session_movement, name="director_session_movement"),
    path("director/sessions/<int64:session_id>/delete/", repair.session_delete_view, name="director_session_delete"),
    path("director/sessions/<int64:session_id>/repair/", repair.session_repair, name="director_repair"),
    path("director/sessions/<int64:session_id>/sections/<letter:letter>/rounds/<int64:round>/seating/",
         repair.round_seating, name="director_round_seating"),
    path("director/sessions/<int64:session_id>/sections/<letter:letter>/rounds/<int64:round>/tables/<int64:table>/turn/",
         repair.table_turn, name="director_table_turn"),
    path("director/sessions/<int64:session_id>/sections/<letter:letter>/late-pair/", repair.pair_late,
         name="director_pair_late"),
    path("director/sessions/<int64:session_id>/pairs/<int64:pair_id>/withdraw/", repair.pair_withdraw_view,
         name="director_pair_withdraw"),
    path("director/sessions/<int64:session_id>/lines/<int64:result_id>/pairs/", repair.line_pairs,
         name="director_line_pairs"),
    path("director/clubs/<slug:club_slug>/players/<int64:player_id>/", repair.player_edit, name="director_player"),
    path("director/clubs/<slug:club_slug>/players/<int64:player_id>/merge/", repair.player_merge_view,
         name="director_player_merge"),
]

# The club owner's pages: the club's settings and who directs it.
from .views import clubs  # noqa: E402

urlpatterns += [
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
]
