"""A table's phone: no login, the table's link token in every address."""

from django.urls import path

from .views import table

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
