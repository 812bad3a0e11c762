"""The director's teams pages: create, add teams, draw, enter a match, without JavaScript."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.models import MatchLine, Player, TeamEvent
from sessions.teams.services.teams import match_record_line, swiss_draw_next_round
from tests.factories import make_team_event


def test_a_director_creates_a_teams_event_and_adds_a_team(logged_in, club):
    response = logged_in.post(reverse("sessions:director_team_event_new", args=[club.slug]), {
        "name": "County League", "date": "2025-02-01", "form": "round_robin", "scoring": "imps",
        "vp_scale": "wbf2013", "imp_table": "wbf", "boards_per_match": 12, "bye_vp": "12", "tie_break": "extra_boards",
    })
    event = TeamEvent.objects.get(name="County League")
    assert response.url == reverse("sessions:director_team_event", args=[event.pk])
    players = [Player.objects.create(club=club, name=f"Member {i}") for i in range(5)]

    response = logged_in.post(reverse("sessions:director_team_add", args=[event.pk]),
                              {"name": "Aces", "players": [p.pk for p in players], "captain": players[2].pk})

    team = event.teams.get()
    assert (team.name, team.captain, team.players.count()) == ("Aces", players[2], 5)
    page = logged_in.get(reverse("sessions:director_team_event", args=[event.pk])).content.decode()
    assert "Aces" in page and "Schedule the round robin" in page


def test_a_team_of_three_is_refused_on_the_page(logged_in, club):
    event = make_team_event(club, teams=0)
    players = [Player.objects.create(club=club, name=f"Member {i}") for i in range(3)]

    response = logged_in.post(reverse("sessions:director_team_add", args=[event.pk]),
                              {"name": "Short", "players": [p.pk for p in players]})

    assert response.status_code == 400
    assert "a team has 4 to 6 players, not 3" in response.content.decode()
    assert not event.teams.exists()


def test_match_entry_shows_both_rooms_and_the_imps(logged_in, club):
    event = make_team_event(club, teams=2, form="swiss", vp_scale="20", boards_per_match=2)
    match = swiss_draw_next_round(event=event)[0]

    response = logged_in.post(reverse("sessions:director_team_match", args=[match.pk]),
                              {"b2_open": "4H N =", "b2_closed": "3H N +1"})

    assert response.status_code == 302
    page = logged_in.get(response.url).content.decode()
    assert "IMPs 10 - 0" in page  # seeds/004: 620 v 170 is 10 IMPs
    assert "14 - 6" in page  # 10 IMPs: 14-6 on the 20-VP scale
    assert MatchLine.objects.get(room="open").ns_score == 620


def test_a_refused_line_keeps_every_line_of_the_form_unstored(logged_in, club):
    event = make_team_event(club, teams=2, form="swiss", boards_per_match=2)
    match = swiss_draw_next_round(event=event)[0]

    response = logged_in.post(reverse("sessions:director_team_match", args=[match.pk]),
                              {"b1_open": "4S N =", "b1_closed": "9NT N ="})

    assert response.status_code == 400
    assert 'id="id_b1_closed"' in response.content.decode()
    assert not MatchLine.objects.exists()


def test_clearing_a_room_deletes_its_line(logged_in, club):
    event = make_team_event(club, teams=2, form="swiss", boards_per_match=2)
    match = swiss_draw_next_round(event=event)[0]
    match_record_line(match=match, board=1, room="open", text="4S N =")

    # The page's form says what each box showed (the text and the line's version).
    logged_in.post(reverse("sessions:director_team_match", args=[match.pk]),
                   {"b1_open": "", "initial-b1_open": "4S N =", "v1_open": 1})

    assert not MatchLine.objects.exists()


def test_swiss_draw_refused_while_a_match_is_incomplete_says_which(logged_in, club):
    event = make_team_event(club, teams=4, form="swiss")
    swiss_draw_next_round(event=event)

    response = logged_in.post(reverse("sessions:director_team_draw", args=[event.pk]), follow=True)

    assert "round 1 is not complete: Team 1 v Team 2 has no result yet" in response.content.decode()
    assert event.matches.count() == 2


@pytest.mark.parametrize(("teams", "said"), [(4, "2 matches drawn"), (3, "1 match drawn")])
def test_drawing_a_round_says_how_many_matches_and_makes_their_phone_links(logged_in, club, teams, said):
    """Like a pairs session's tables, each room of a drawn match has its phone link at once
    (a bye plays at no table); no separate click each round."""
    from sessions.models import MatchTableLink

    event = make_team_event(club, teams=teams, form="swiss")

    response = logged_in.post(reverse("sessions:director_team_draw", args=[event.pk]), follow=True)

    html = response.content.decode()
    assert f"{said}, each room with its phone link." in html and "match(es)" not in html
    played = event.matches.filter(away__isnull=False)
    assert sorted(MatchTableLink.objects.filter(revoked_at__isnull=True).values_list("match", "room")) == sorted(
        (match.pk, room) for match in played for room in ("closed", "open")
    )
    tables = logged_in.get(reverse("sessions:director_team_round_tables", args=[event.pk, 1])).content.decode()
    assert str(MatchTableLink.objects.first().token) in tables


def test_scheduling_a_round_robin_makes_every_rounds_phone_links(club):
    from sessions.models import MatchTableLink
    from sessions.teams.services.teams import round_robin_schedule

    event = make_team_event(club, teams=4, form="round_robin")
    matches = round_robin_schedule(event=event)

    assert MatchTableLink.objects.filter(revoked_at__isnull=True).count() == 2 * len(matches) == 12


def test_totals_and_not_played_forms_refuse_bad_figures(logged_in, club):
    event = make_team_event(club, teams=2, form="swiss", vp_scale="20")
    match = swiss_draw_next_round(event=event)[0]

    response = logged_in.post(reverse("sessions:director_team_match_not_played", args=[match.pk]),
                              {"status": "forfeit", "home_vp": "25", "away_vp": "0"})

    assert response.status_code == 400
    assert "VPs are between 0 and 20, not 25" in response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.home_vp_awarded) == ("played", None)
    logged_in.post(reverse("sessions:director_team_match_totals", args=[match.pk]),
                   {"home_imps": "31", "away_imps": "19"})
    match.refresh_from_db()
    assert (match.home_imps, match.away_imps) == (Decimal(31), Decimal(19))


def test_a_teams_file_uploaded_on_the_import_page_becomes_a_teams_event(logged_in, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.formats.data_files import DATA_DIR

    path = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"
    response = logged_in.post(reverse("sessions:transfer_import", args=[club.slug]),
                              {"file": SimpleUploadedFile(path.name, path.read_bytes())})

    event = TeamEvent.objects.get(club=club)
    assert response.url == reverse("sessions:director_team_event", args=[event.pk])
    assert event.matches.count() == 40


def test_the_new_teams_event_form_names_its_imp_tables_and_dates_the_event_today(logged_in, club):
    from django.utils import timezone

    html = logged_in.get(reverse("sessions:director_team_event_new", args=[club.slug])).content.decode()

    assert '<option value="wbf" selected>WBF table (1962, current: up to 24 IMPs)</option>' in html
    assert ">1948 Copenhagen table (up to 15 IMPs)</option>" in html
    for code in ("wbf", "1961", "1948", "emp1938"):
        assert f">{code}</option>" not in html
    assert f'name="date" value="{timezone.localdate().isoformat()}"' in html


def test_players_already_in_a_team_are_not_offered_again(logged_in, club):
    event = make_team_event(club, teams=2)
    free = Player.objects.create(club=club, name="Free Agent")
    team_1 = event.teams.get(number=1)
    taken = list(event.teams.get(number=2).players.all())

    new_team = logged_in.get(reverse("sessions:director_team_event", args=[event.pk])).content.decode()
    editing = logged_in.get(reverse("sessions:director_team_edit", args=[team_1.pk])).content.decode()

    assert f'value="{free.pk}"' in new_team and f'value="{free.pk}"' in editing
    for player in taken:
        assert f'name="players" value="{player.pk}"' not in new_team
        assert f'name="players" value="{player.pk}"' not in editing
    for player in team_1.players.all():  # a team being edited keeps its own players
        assert f'name="players" value="{player.pk}"' not in new_team
        assert f'name="players" value="{player.pk}"' in editing


def _form_as_shown(page: str) -> dict[str, str]:
    """Every input of the match page's lines form, as the page filled it in."""
    import re

    start = page.index('<form method="post" novalidate>')
    form = page[start:page.index("</form>", start)]
    fields = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1) != "csrfmiddlewaretoken":
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


def test_a_stale_page_cannot_overwrite_a_line_deleted_and_entered_again(client, director, co_director, club):
    """B saves 3NT N =; A opens the page; B clears the box, saves, then enters 4S S +1 (a new
    line, version 1 again); A's old form with 1C W -3 is refused, naming what the line reads."""
    from django.test import Client

    event = make_team_event(club, teams=2, form="swiss", boards_per_match=2)
    match = swiss_draw_next_round(event=event)[0]
    page_url = reverse("sessions:director_team_match", args=[match.pk])
    b, a = Client(), Client()
    b.force_login(director)
    a.force_login(co_director)
    b.post(page_url, {**_form_as_shown(b.get(page_url).content.decode()), "b1_open": "3NT N ="})
    seen_by_a = _form_as_shown(a.get(page_url).content.decode())
    assert seen_by_a["b1_open"] == "3NT N =" and seen_by_a["v1_open"] == "1"
    b.post(page_url, {**_form_as_shown(b.get(page_url).content.decode()), "b1_open": ""})
    b.post(page_url, {**_form_as_shown(b.get(page_url).content.decode()), "b1_open": "4S S +1"})
    assert MatchLine.objects.get().version == 1

    response = a.post(page_url, {**seen_by_a, "b1_open": "1C W -3"})

    assert response.status_code == 400
    assert "deleted and entered again by director as 4S S +1" in response.content.decode()
    assert list(MatchLine.objects.values_list("text", flat=True)) == ["4S S +1"]
    response = a.post(page_url, {**seen_by_a, "b1_open": ""})  # nor can the old page delete it
    assert response.status_code == 400
    assert list(MatchLine.objects.values_list("text", flat=True)) == ["4S S +1"]


def test_a_board_a_match_event_takes_either_scale_on_the_form(logged_in, club):
    html = logged_in.get(reverse("sessions:director_team_event_new", args=[club.slug])).content.decode()
    assert "1 / ½ / 0 a board" in html and "2 / 1 / 0 a board" in html

    logged_in.post(reverse("sessions:director_team_event_new", args=[club.slug]), {
        "name": "Point a Board", "date": "2025-02-01", "form": "swiss", "scoring": "bam", "bam_points": "2",
        "vp_scale": "wbf2013", "imp_table": "wbf", "boards_per_match": 8, "bye_vp": "12", "tie_break": "extra_boards",
    })

    event = TeamEvent.objects.get(name="Point a Board")
    assert (event.scoring, event.bam_points) == ("bam", 2)
    assert "2 / 1 / 0 a board" in logged_in.get(reverse("sessions:director_team_event", args=[event.pk])).content.decode()
