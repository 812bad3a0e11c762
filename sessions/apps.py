from django.apps import AppConfig


class SessionsConfig(AppConfig):
    # The package is "sessions"; its default label would clash with django.contrib.sessions.
    name = "sessions"
    label = "clubsessions"
    verbose_name = "Club sessions"
    default_auto_field = "django.db.models.BigAutoField"
