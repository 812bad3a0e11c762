"""Load the demo club and print how to log in (safe to run again)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "director"
DEMO_PASSWORD = "demo-director"


class Command(BaseCommand):
    help = "Create the demo director (and demo club data) and print the login."

    def handle(self, *args, **options) -> None:
        user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            f"Demo loaded. Open http://127.0.0.1:8000/ and log in as "
            f"{DEMO_USERNAME} / {DEMO_PASSWORD}"
        )
