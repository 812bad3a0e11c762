"""Hand records and analysis: the director's hand-record pages (the public analysis is
shown on the players' own board and score-card pages, through analysis_tags)."""

from django.urls import path

from sessions.analysis.views import analysis

urlpatterns = [
    path("director/sessions/<int64:session_id>/hands/", analysis.hand_records, name="analysis_hand_records"),
    path("director/sessions/<int64:session_id>/hands/upload/", analysis.hand_records_upload,
         name="analysis_upload"),
    path("director/sessions/<int64:session_id>/hands/generate/", analysis.deals_generate_view,
         name="analysis_generate"),
    path("director/sessions/<int64:session_id>/hands/pbn/", analysis.hand_records_pbn, name="analysis_pbn"),
    path("director/sessions/<int64:session_id>/hands/print/", analysis.hand_records_print, name="analysis_print"),
]
