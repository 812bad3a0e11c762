"""Results in and out: imports, exports and national uploads."""

from django.urls import path

from sessions.transfer.views import transfer

urlpatterns = [
    path("director/clubs/<slug:club_slug>/import/", transfer.import_results, name="transfer_import"),
    path("director/imports/<int64:job_id>/", transfer.import_job, name="transfer_import_job"),
    path("director/clubs/<slug:club_slug>/uploads/", transfer.national_uploads, name="director_uploads"),
    path("director/sessions/<int64:session_id>/upload/", transfer.national_upload_file, name="director_upload_file"),
    path("director/sessions/<int64:session_id>/upload/sent/", transfer.national_upload_sent, name="director_upload_sent"),
    path("sessions/<int64:session_id>/export/<str:fmt>/", transfer.export_session, name="transfer_export"),
    path("events/<int64:event_id>/export/<str:fmt>/", transfer.export_event, name="transfer_event_export"),
    path("teams/<int64:event_id>/export/<str:fmt>/", transfer.export_team_event, name="transfer_team_export"),
]
