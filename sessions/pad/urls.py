"""The rubber and Chicago score pad (public) and the score table of each era."""

from django.urls import path

from sessions.pad.views import pad

urlpatterns = [
    path("pad/", pad.pad, name="pad"),
    path("pad/sw.js", pad.pad_service_worker, name="pad_service_worker"),
    path("pad/new/", pad.pad_new, name="pad_new"),
    path("pad/deal/", pad.pad_deal, name="pad_deal"),
    path("pad/deal/delete/", pad.pad_delete_deal, name="pad_delete_deal"),
    path("pad/stop/", pad.pad_stop, name="pad_stop"),
    path("pad/discard/", pad.pad_discard, name="pad_discard"),
    path("pad/save/", pad.pad_save, name="pad_save"),
    path("pad/mine/", pad.pad_list, name="pad_list"),
    path("pad/mine/<int64:pk>/open/", pad.pad_open, name="pad_open"),
    path("pad/mine/<int64:pk>/delete/", pad.pad_forget, name="pad_forget"),
    path("pad/shared/<str:token>/", pad.pad_shared, name="pad_shared"),
    path("score-table/", pad.score_table, name="score_table"),
]
