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
    *table.PHONE.urls("t", deal=table.table_deal, players=table.table_players, email=table.table_email),
    *team_table.PHONE.urls("tt"),
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
