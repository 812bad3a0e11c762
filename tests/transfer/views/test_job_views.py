"""A large upload becomes an import job: the director lands on its page, which polls itself
with htmx until the job is done (a link to the session) or failed (the reason); only the
club's directors see it. Small files are still imported in the request (test_views.py)."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from sessions.models import ImportJob, ImportStatus, Session
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services import jobs
from tests.factories import make_club, make_user
from tests.transfer.helpers import BAD_FILES, GOOD_USEBIO, data, model_counts

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def small_threshold(settings):
    """Every test file counts as large here; the job runs inline when its commit's callbacks run."""
    settings.IMPORT_BACKGROUND_BYTES = 1_000
    settings.IMPORT_BACKGROUND = False


def upload(client, club, content: bytes, **fields):
    url = reverse("sessions:transfer_import", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile("big.xml", content), **fields})


def job_url(job) -> str:
    return reverse("sessions:transfer_import_job", args=[job.pk])


def test_a_large_upload_goes_to_its_jobs_page_which_follows_it(client, club, director):
    client.force_login(director)
    response = upload(client, club, data(GOOD_USEBIO))  # the commit's callbacks do not run: it waits
    job = ImportJob.objects.get(club=club)
    assert response.status_code == 302 and response.url == job_url(job)
    assert (job.status, job.created_by, bytes(job.data)) == (ImportStatus.QUEUED, director, data(GOOD_USEBIO))
    assert not Session.objects.exists()

    page = client.get(job_url(job)).content.decode()
    assert "Step 1 of 3: waiting to start" in page
    assert f'hx-get="{job_url(job)}" hx-trigger="every 1s"' in page
    assert '<meta http-equiv="refresh"' in page  # without JavaScript the page reloads itself


def test_the_job_is_run_after_the_commit_and_its_page_links_the_session(
    client, club, director, django_capture_on_commit_callbacks
):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, club, data(GOOD_USEBIO))
    session = Session.objects.get(event__club=club)
    assert session.created_by == director

    page = client.get(response.url).content.decode()
    assert reverse("sessions:director_session", args=[session.pk]) in page
    summary = results_import(club=make_club(), data=data(GOOD_USEBIO), filename="big.xml").summary()
    assert all(escape(line) in page for line in summary)
    assert "hx-trigger" not in page and "http-equiv" not in page  # done: no more polling


def test_the_chosen_event_goes_with_the_job(client, club, director, event, django_capture_on_commit_callbacks):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        upload(client, club, data(GOOD_USEBIO), event=event.pk)
    assert ImportJob.objects.get().event == event
    assert Session.objects.get(event__club=club).event == event


@pytest.mark.parametrize("case", ["truncated XML", "unknown pair on a line"])
def test_a_refused_large_file_shows_the_same_message_on_the_jobs_page(
    client, club, director, case, django_capture_on_commit_callbacks
):
    client.force_login(director)
    build, reason = BAD_FILES[case]
    with pytest.raises(ImportRefused) as refused:
        results_import(club=club, data=build(), filename="big.xml")
    before = model_counts()
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, club, build())

    page = client.get(response.url).content.decode()
    assert f'<div class="errors" role="alert"><p>{escape(str(refused.value))}</p></div>' in page
    assert escape(reason) in page and "hx-trigger" not in page
    assert model_counts() == before


@pytest.mark.parametrize(("status", "lines", "shown"), [
    (ImportStatus.QUEUED, None, "Step 1 of 3: waiting to start"),
    (ImportStatus.RUNNING, None, "Step 2 of 3: reading the file"),
    (ImportStatus.RUNNING, 405, "Storing and scoring 405 traveller lines of 30 pairs on 27 boards"),
])
def test_a_poll_answers_with_the_status_block_alone_while_the_job_runs(client, club, director, status, lines, shown):
    client.force_login(director)
    job = ImportJob.objects.create(
        club=club, filename="big.pbn", size=3_000_000, data=b"...", status=status, lines=lines,
        pairs=30 if lines else None, boards=27 if lines else None,
        started_at=timezone.now() if status == ImportStatus.RUNNING else None,
    )
    response = client.get(job_url(job), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith("<div id=\"import-job\"") and "<html" not in html
    assert shown in html and "every 1s" in html
    assert "2.9\xa0MB" in html  # the file's size
    assert ("Running for" in html) == (status == ImportStatus.RUNNING)


@pytest.mark.django_db(transaction=True)  # the worker thread reads what the request committed
def test_with_the_background_thread_the_page_is_polled_until_the_session_is_there(client, settings):
    settings.IMPORT_BACKGROUND = True
    director = make_user("thread-director")
    club = make_club(directors=[director], name="Thread Club")
    client.force_login(director)
    response = upload(client, club, data(GOOD_USEBIO))
    assert response.status_code == 302
    deadline = time.monotonic() + 120
    while "Imported big.xml" not in (html := client.get(response.url, **HTMX).content.decode()):
        assert "hx-trigger=\"every 1s\"" in html  # still polling
        assert time.monotonic() < deadline, html
        time.sleep(0.1)
    session = Session.objects.get(event__club=club)
    assert reverse("sessions:director_session", args=[session.pk]) in html and "hx-get" not in html
    if (worker := jobs.WORKER.thread) is not None:  # the thread ends with its connection closed, before the test's
        worker.join(timeout=60)


def test_a_finished_jobs_poll_stops_the_polling(client, club, director, django_capture_on_commit_callbacks):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        upload(client, club, data(GOOD_USEBIO))
    html = client.get(job_url(ImportJob.objects.get()), **HTMX).content.decode()
    assert "Imported big.xml" in html and "hx-get" not in html


def test_the_upload_page_lists_the_clubs_recent_jobs(client, club, director):
    client.force_login(director)
    mine = ImportJob.objects.create(club=club, filename="mine.pbn", size=1, data=b"x")
    theirs = ImportJob.objects.create(club=make_club(), filename="theirs.pbn", size=1, data=b"x")
    page = client.get(reverse("sessions:transfer_import", args=[club.slug])).content.decode()
    assert job_url(mine) in page and "mine.pbn" in page
    assert job_url(theirs) not in page


# --- who sees a job ----------------------------------------------------------------------------


@pytest.fixture
def job(club):
    return ImportJob.objects.create(club=club, filename="big.pbn", size=1, data=b"x")


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_another_clubs_director_or_a_member_cannot_see_a_job(client, job, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(job_url(job)).status_code == 404
    assert client.get(job_url(job), **HTMX).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(client, job):
    response = client.get(job_url(job))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_poll_after_the_login_expired_stops_with_a_note(client, job):
    response = client.get(job_url(job), **HTMX)
    assert response.status_code == 286  # htmx stops polling
    assert "log in again" in response.content.decode()


def test_a_job_page_is_read_only(client, director, job):
    client.force_login(director)
    assert client.post(job_url(job)).status_code == 405


TEAMS_FILE = "teams/ebu_example_multiple_teams_teamsscorer.xml"


def test_a_large_teams_file_goes_to_a_job_too_and_its_page_links_the_teams_event(
    client, club, director, django_capture_on_commit_callbacks
):
    """A teams file used to be imported inside the request whatever its size (a 1.6 MB file
    outlived gunicorn's timeout): it goes to a job like a pairs file."""
    from sessions.models import TeamEvent

    client.force_login(director)
    response = upload(client, club, data(TEAMS_FILE))  # the commit's callbacks do not run: it waits
    job = ImportJob.objects.get(club=club)
    assert response.status_code == 302 and response.url == job_url(job)
    assert not TeamEvent.objects.exists()

    job.delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, club, data(TEAMS_FILE))
    job = ImportJob.objects.get(club=club)
    event = TeamEvent.objects.get(club=club)
    assert (job.status, job.team_event, job.session, job.teams) == (ImportStatus.DONE, event, None, True)
    assert (job.pairs, job.lines) == (10, 240)  # teams and room lines, shown while it stored
    page = client.get(response.url).content.decode()
    assert reverse("sessions:director_team_event", args=[event.pk]) in page
    assert "open the teams event" in page and "hx-trigger" not in page
    assert event.matches.count() == 40


def test_a_teams_file_is_never_put_into_a_pairs_event_by_a_job(client, club, director, event):
    client.force_login(director)

    response = upload(client, club, data(TEAMS_FILE), event=event.pk)

    assert response.status_code == 200
    assert "a teams file is imported as a new teams event" in response.content.decode()
    assert not ImportJob.objects.exists()
