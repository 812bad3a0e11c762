"""An import that publishes what it stores tells the club's webhooks, once (issue 24).

Through the command, the upload page and an import job, to a real receiver on 127.0.0.1.
"""

from __future__ import annotations

import json

import pytest
from django.core.management.base import CommandError
from django.urls import reverse

from sessions.models import ImportJob, Session, TeamEvent, WebhookDelivery
from sessions.api.services.webhooks import webhook_create
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services import jobs
from tests.factories import make_club
from tests.formats.data_files import DATA_DIR
from tests.transfer.helpers import GOOD_USEBIO, data, model_counts, run_import
from tests.webhook_receiver import Receiver

TEAMS_FILE = "teams/ebu_example_multiple_teams_teamsscorer.xml"


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_LOCAL = True
    started = Receiver([200]).start()
    yield started
    started.stop()


@pytest.fixture
def club(receiver, director):
    club = make_club(directors=[director], name="Home Club")
    webhook_create(club=club, url=receiver.url)
    return club


def told(receiver: Receiver) -> list[tuple[str, str, int]]:
    return [(body["event"], body["subject"], body["id"]) for body in (json.loads(r.body) for r in receiver.requests)]


@pytest.mark.parametrize(("flag", "events"), [("--publish", ["published"]), ("--final", ["published", "final"])])
def test_the_command_publishes_and_tells_the_webhooks_once(club, receiver, flag, events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        output = run_import(DATA_DIR / GOOD_USEBIO, "--club", club.slug, flag)

    session = Session.objects.get(pk=int(output[-1]))
    assert session.published and session.final == (flag == "--final")
    assert told(receiver) == [(event, "session", session.pk) for event in events]
    assert WebhookDelivery.objects.count() == len(events)


def test_without_a_flag_the_import_stays_unpublished_and_tells_nobody(club, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        output = run_import(DATA_DIR / GOOD_USEBIO, "--club", club.slug)
    assert not Session.objects.get(pk=int(output[-1])).published
    assert receiver.requests == []


def test_publish_and_final_together_are_refused(club):
    with pytest.raises(CommandError):
        run_import(DATA_DIR / GOOD_USEBIO, "--club", club.slug, "--publish", "--final")


def test_an_unknown_publish_value_is_refused_and_nothing_is_stored(club):
    before = model_counts()
    with pytest.raises(ImportRefused, match="publish must be one of"):
        results_import(club=club, data=data(GOOD_USEBIO), filename="x.xml", publish="yes")
    assert model_counts() == before


def test_a_teams_file_imported_final_is_told_published_and_final(club, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        output = run_import(DATA_DIR / TEAMS_FILE, "--club", club.slug, "--final")

    event = TeamEvent.objects.get(pk=int(output[-1]))
    assert event.published and event.final
    assert told(receiver) == [("published", "teams", event.pk), ("final", "teams", event.pk)]


def test_the_upload_page_publishes_when_asked(client, director, club, receiver, django_capture_on_commit_callbacks):
    client.force_login(director)
    with open(DATA_DIR / GOOD_USEBIO, "rb") as upload, django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("sessions:transfer_import", args=[club.slug]),
                               {"file": upload, "publish": "published"})

    session = Session.objects.get(event__club=club)
    assert response.status_code == 302 and session.published
    assert told(receiver) == [("published", "session", session.pk)]


def test_an_import_job_publishes_and_marks_final_once(club, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.import_job_create(club=club, data=data(GOOD_USEBIO), filename="big.xml", publish="final")
    with django_capture_on_commit_callbacks(execute=True):
        jobs.import_jobs_run()  # a second worker's pass finds nothing left to do

    session = ImportJob.objects.get(pk=job.pk).session
    assert session.published and session.final
    assert told(receiver) == [("published", "session", session.pk), ("final", "session", session.pk)]
