"""load_demo: a usable demo club, and running it again changes nothing."""

from io import StringIO

from django.core.management import call_command

from sessions.models import Board, Club, Player, Result, ResultChange, Session


def run_load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_twice_gives_one_demo_club(client, db):
    first = run_load_demo()
    counts = (Club.objects.count(), Session.objects.count(), Player.objects.count(),
              Result.objects.count(), ResultChange.objects.count())

    second = run_load_demo()

    assert "log in as director / demo-director" in first and first == second
    assert (Club.objects.count(), Session.objects.count(), Player.objects.count(),
            Result.objects.count(), ResultChange.objects.count()) == counts
    club = Club.objects.get(slug="demo")
    assert club.directors.filter(username="director").exists()
    assert club.players.count() == 30

    mitchell = Session.objects.get(movement_kind="mitchell")
    assert mitchell.published and mitchell.final and mitchell.tables == 7
    assert Result.objects.filter(board__session=mitchell).count() == 7 * 7 * mitchell.boards_per_round

    howell = Session.objects.get(movement_kind="howell")
    assert not howell.published and howell.tables == 4
    expected = howell.rounds * howell.tables * howell.boards_per_round
    entered = Result.objects.filter(board__session=howell).count()
    assert 0 < entered < expected and abs(entered - expected / 2) <= howell.boards_per_round * 2


    # The printed login works through the login page (as a person would use it).
    response = client.post("/accounts/login/", {"username": "director", "password": "demo-director"})
    assert response.status_code == 302
    assert client.get("/director/").status_code == 200


def test_load_demo_prints_a_table_link_of_the_session_in_play(client, db):
    out = StringIO()
    call_command("load_demo", "--base-url", "http://127.0.0.1:8123", stdout=out)

    printed = out.getvalue()
    assert "Open http://127.0.0.1:8123/ and log in" in printed
    link = printed.strip().splitlines()[-1].split(": ", 1)[1]
    assert link.startswith("http://127.0.0.1:8123/t/")
    response = client.get(link.removeprefix("http://127.0.0.1:8123"))
    assert response.status_code == 200 and b"Monday 10 March" in response.content


def test_load_demo_leaves_its_deals_for_analyse_boards_and_starts_no_solver(db, settings,
                                                                           django_capture_on_commit_callbacks):
    """bin/demo runs analyse_boards beside the server: the command itself prints the login
    at once and leaves no thread in the solver as it exits."""
    from sessions.analysis.services.analysis import WORKER, boards_needing_analysis

    settings.ANALYSIS_BACKGROUND = False  # an analysis that started would run here, inline
    with django_capture_on_commit_callbacks(execute=True):
        run_load_demo()
    boards = Board.objects.filter(session__event__club__slug="demo").exclude(deal="").count()
    assert boards and boards_needing_analysis().count() == boards
    assert WORKER.thread is None
