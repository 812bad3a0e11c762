"""A table's phone (pairs, /t/) and a teams room's (/tt/): no login, the link's token in every address."""

from django.urls import path

from .views import table, team_table

urlpatterns = [
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
]

# A teams room's phone.
urlpatterns += [
    path("tt/<str:token>/", team_table.team_table_home, name="team_table_page"),
    path("tt/<str:token>/send/", team_table.team_table_send, name="team_table_send"),
    path("tt/<str:token>/call/", team_table.team_table_call, name="team_table_call"),
    path("tt/<str:token>/confirm/", team_table.team_table_confirm, name="team_table_confirm"),
    path("tt/<str:token>/refuse/", team_table.team_table_refuse, name="team_table_refuse"),
    path("tt/<str:token>/preview/", team_table.team_table_preview, name="team_table_preview"),
    path("tt/<str:token>/sw.js", team_table.team_table_service_worker, name="team_table_sw"),
]
