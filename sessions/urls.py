"""The app's URLs: each feature's own (sessions/<feature>/urls.py), all in the "sessions" namespace.

No two routes of different features can match one address (each starts with its own
literal words), so the order below is only for reading."""

from sessions.analysis.urls import urlpatterns as analysis_urls
from sessions.clubs.urls import urlpatterns as clubs_urls
from sessions.pad.urls import urlpatterns as pad_urls
from sessions.pairs.urls import urlpatterns as pairs_urls
from sessions.phones.urls import urlpatterns as phones_urls
from sessions.teams.urls import urlpatterns as teams_urls
from sessions.transfer.urls import urlpatterns as transfer_urls

app_name = "sessions"

urlpatterns = pairs_urls + clubs_urls + teams_urls + phones_urls + pad_urls + analysis_urls + transfer_urls
