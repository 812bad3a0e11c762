"""The phones: a pairs table's (/t/) and a teams room's (/tt/), the link's token in every address
(no login); and the director's pages that make, renew and revoke the links."""

from django.urls import path

from sessions.phones.views import director_tables, table, team_table, team_tables

urlpatterns = [
    path("director/sessions/<int64:session_id>/tables/", director_tables.table_links, name="director_table_links"),
    path("director/sessions/<int64:session_id>/tables/make/", director_tables.table_links_make, name="director_table_links_make"),
    path("director/sessions/<int64:session_id>/tables/links/<int64:link_id>/renew/", director_tables.table_link_renew_view,
         name="director_table_link_renew"),
    path("director/sessions/<int64:session_id>/tables/links/<int64:link_id>/revoke/", director_tables.table_link_revoke_view,
         name="director_table_link_revoke"),
    path("director/sessions/<int64:session_id>/tables/<letter:letter>/<int64:table>/new/", director_tables.table_link_new,
         name="director_table_link_new"),
    path("t/<str:token>/", table.table_home, name="table_page"),
    path("t/<str:token>/send/", table.table_send, name="table_send"),
    path("t/<str:token>/confirm/", table.table_confirm, name="table_confirm"),
    path("t/<str:token>/refuse/", table.table_refuse, name="table_refuse"),
    path("t/<str:token>/call/", table.table_call_director, name="table_call"),
    path("t/<str:token>/deal/", table.table_deal, name="table_deal"),
    path("t/<str:token>/preview/", table.table_preview, name="table_preview"),
    path("t/<str:token>/players/", table.table_players, name="table_players"),
    path("t/<str:token>/email/", table.table_email, name="table_email"),
    path("t/<str:token>/sw.js", table.table_service_worker, name="table_sw"),
    path("tt/<str:token>/", team_table.team_table_home, name="team_table_page"),
    path("tt/<str:token>/send/", team_table.team_table_send, name="team_table_send"),
    path("tt/<str:token>/call/", team_table.team_table_call, name="team_table_call"),
    path("tt/<str:token>/confirm/", team_table.team_table_confirm, name="team_table_confirm"),
    path("tt/<str:token>/refuse/", team_table.team_table_refuse, name="team_table_refuse"),
    path("tt/<str:token>/preview/", team_table.team_table_preview, name="team_table_preview"),
    path("tt/<str:token>/sw.js", team_table.team_table_service_worker, name="team_table_sw"),
    path("director/teams/<int64:event_id>/rounds/<int64:round>/tables/", team_tables.team_round_tables,
         name="director_team_round_tables"),
    path("director/teams/<int64:event_id>/rounds/<int64:round>/tables/progress/", team_tables.team_round_progress,
         name="director_team_round_progress"),
    path("director/teams/<int64:event_id>/rounds/<int64:round>/tables/make/", team_tables.team_round_links_make,
         name="director_team_round_links_make"),
    path("director/teams/<int64:event_id>/table-links/<int64:link_id>/renew/", team_tables.team_table_link_renew_view,
         name="director_team_table_link_renew"),
    path("director/teams/<int64:event_id>/table-links/<int64:link_id>/revoke/", team_tables.team_table_link_revoke_view,
         name="director_team_table_link_revoke"),
]
