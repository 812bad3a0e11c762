"""The app's URLs: one module per area, all in the "sessions" namespace."""

from .urls_analysis import urlpatterns as analysis_urls
from .urls_director import urlpatterns as director_urls
from .urls_embed import urlpatterns as embed_urls
from .urls_pad import urlpatterns as pad_urls
from .urls_public import urlpatterns as public_urls
from .urls_table import urlpatterns as table_urls
from .urls_teams import urlpatterns as teams_urls
from .urls_transfer import urlpatterns as transfer_urls

app_name = "sessions"

urlpatterns = public_urls + embed_urls + pad_urls + director_urls + transfer_urls + analysis_urls + table_urls + teams_urls
