from django.apps import AppConfig


class SessionsConfig(AppConfig):
    # The package is "sessions"; its default label would clash with django.contrib.sessions.
    name = "sessions"
    label = "clubsessions"
    verbose_name = "Club sessions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import converters

        converters.register()  # before the URLconf, which Django loads on the first request
