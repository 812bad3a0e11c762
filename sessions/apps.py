from django.apps import AppConfig


class SessionsConfig(AppConfig):
    # The package is "sessions"; its default label would clash with django.contrib.sessions.
    name = "sessions"
    label = "clubsessions"
    verbose_name = "Club sessions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions.clubs.services.amendments import AfterCommit
        from sessions.clubs.services.masterpoints import session_award_masterpoints
        from sessions.core import converters
        from sessions.core.services import unit_of_work

        converters.register()  # before the URLconf, which Django loads on the first request
        unit_of_work.connect_features(award=session_award_masterpoints, after_commit=AfterCommit)
