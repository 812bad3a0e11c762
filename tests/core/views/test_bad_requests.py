"""Bad input is a clear 400 or 404 (or the form again, with a message), never a server error,
and it changes nothing: the causes of the 500s an attack on the running app found (issue 25).

Personas: the club's director for the director's pages, a signed-in member for the pad,
an anonymous visitor for the public pages and the phones' links.
"""

import json

import pytest
from django.test import Client
from django.urls import reverse

from sessions.models import MatchTableLink, ScorePad, Team
from sessions.phones.services.tables import table_links_ensure
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import round_robin_schedule, team_event_publish
from sessions.core import throttle
from tests.factories import make_team_event, make_user

#: Just past the largest id a 64-bit column holds.
TOO_BIG = 2**63
#: Digits, but not ASCII ones: str.isdigit() says yes, int() says no ("²") or reads them ("٣").
ODD_DIGITS = ["²", "٣", "¹²", "5000" * 1250]



@pytest.fixture
def teams(club):
    """A published 4-team round robin of the club, scheduled, with its round-1 rooms' links."""
    event = make_team_event(club, teams=4, form="round_robin")
    round_robin_schedule(event=event)
    match_table_links_ensure(event=event, round=1)
    return team_event_publish(event=event)


# --- numbers in the address and the query -------------------------------------------------


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_an_odd_event_number_on_the_new_session_page_preselects_nothing(client, director, club, typed):
    client.force_login(director)

    response = client.get(reverse("sessions:director_session_new", args=[club.slug]), {"event": typed})

    assert response.status_code == 200
    assert response.context["preselected"] is None


@pytest.mark.parametrize("typed", ["²", "٣", "¹²", "9" * 60, "0"])
def test_odd_arrow_switch_rounds_are_refused_with_a_message(client, director, club, typed):
    client.force_login(director)

    response = client.get(reverse("sessions:director_session_new", args=[club.slug]),
                          {"pairs": 6, "arrow_switch": typed})

    assert response.status_code == 200
    assert "arrow-switch rounds as numbers" in response.content.decode()


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_an_odd_round_or_deal_to_correct_on_the_pad_fills_nothing(client, db, typed):
    client.post(reverse("sessions:pad_new"), {"kind": "rubber", "era": "current", "north": "Ann", "south": "Bob",
                                             "east": "Cat", "west": "Dan", "first_dealer": "N"})
    client.post(reverse("sessions:pad_deal"), {"level": "4", "strain": "S", "declarer": "N", "tricks": 10})

    for edit in (f"{typed}-1", f"1-{typed}"):
        response = client.get(reverse("sessions:pad"), {"edit": edit})
        assert response.status_code == 200
        assert response.context["deal_form"].initial == {}
    assert client.get(reverse("sessions:pad"), {"edit": "1-1"}).context["deal_form"].initial["level"] == "4"


@pytest.mark.parametrize("typed", ["²", "٣", "¹²", "9" * 60])
def test_odd_boards_of_a_round_are_refused_with_a_message(client, director, session, typed):
    client.force_login(director)
    url = reverse("sessions:director_round_seating", args=[session.pk, "A", 1])
    before = list(session.sections.get().seatings.values_list("round", "table", "ns_pair", "ew_pair", "boards"))

    response = client.post(url, {"t1_ns": "1NS", "t1_ew": "1EW", "t1_boards": typed, "t2_ns": "2NS",
                                 "t2_ew": "3EW", "t2_boards": "3-4", "t3_ns": "3NS", "t3_ew": "2EW",
                                 "t3_boards": "5-6"})

    assert response.status_code == 200
    assert "is not a " in response.content.decode()  # a list of boards, or a range from 1
    after = list(session.sections.get().seatings.values_list("round", "table", "ns_pair", "ew_pair", "boards"))
    assert after == before


# --- ids beyond a 64-bit column -------------------------------------------------------------


def test_an_id_beyond_64_bits_in_a_public_address_is_not_found(client, played_session, teams, pair_id):
    session = played_session
    team = Team.objects.filter(event=teams).first()
    match = teams.matches.first()
    for name, args in [
        ("session_results", [TOO_BIG]), ("board", [TOO_BIG, 1]), ("board", [session.pk, TOO_BIG]),
        ("scorecard", [session.pk, TOO_BIG]), ("scorecard", [TOO_BIG, pair_id(session, "1NS")]),
        ("player", [TOO_BIG]), ("event_results", [TOO_BIG]), ("team_event", [TOO_BIG]),
        ("team_match", [TOO_BIG, match.pk]), ("team_match", [teams.pk, TOO_BIG]),
        ("team_page", [TOO_BIG, team.pk]), ("team_page", [teams.pk, TOO_BIG]),
        ("transfer_export", [TOO_BIG, "pbn"]),
    ]:
        assert client.get(reverse(f"sessions:{name}", args=args)).status_code == 404, (name, args)
    assert client.get(reverse("sessions:session_results", args=[session.pk])).status_code == 200


@pytest.mark.parametrize("players", [[str(TOO_BIG)], ["1", str(TOO_BIG)], [str(-TOO_BIG)], ["²"]])
def test_players_beyond_64_bits_in_a_team_are_refused_with_a_message(client, director, teams, players):
    client.force_login(director)
    event = teams
    first = Team.objects.filter(event=event).order_by("number").first()
    from sessions.teams.services.teams import edit_token

    before = list(Team.objects.values_list("pk", "name"))
    added = client.post(reverse("sessions:director_team_add", args=[event.pk]), {"name": "New", "players": players})
    edited = client.post(reverse("sessions:director_team_edit", args=[first.pk]),
                         {"name": "Renamed", "players": players, "seen": edit_token(first)})

    for response in (added, edited):
        assert response.status_code in (200, 400)
        assert "valid" in response.content.decode()
    assert list(Team.objects.values_list("pk", "name")) == before


# --- NUL in a token or a section letter --------------------------------------------------------


def test_a_nul_in_a_phone_or_pad_token_is_not_found(client, session, teams):
    table_links_ensure(session=session)
    for url in ["/t/%00/", "/t/%00/preview/", "/tt/%00/", "/tt/a%00b/preview/", "/pad/shared/%00/"]:
        assert client.get(url).status_code == 404, url


def test_nul_tokens_count_as_guesses_like_any_unknown_token(client, session, teams):
    good = table_links_ensure(session=session)[0]
    room = MatchTableLink.objects.filter(match__event=teams).first()

    for attempt in range(throttle.THROTTLE_MISSES):
        assert client.get(f"/{'t' if attempt % 2 else 'tt'}/{attempt}%00/").status_code == 404

    # Counted: the next guess waits; a valid link always opens (sessions/core/throttle.py).
    assert client.get("/t/unknown-token/").status_code == 429
    assert client.get(reverse("sessions:table_page", args=[good.token])).status_code == 200
    assert client.get(reverse("sessions:team_table_page", args=[room.token])).status_code == 200


def test_a_nul_section_letter_is_not_found(client, director, session):
    client.force_login(director)
    base = f"/director/sessions/{session.pk}"
    for url in [f"{base}/sections/%00/rounds/1/tables/1/", f"{base}/sections/%00/rounds/1/seating/",
                f"{base}/sections/%00/late-pair/", f"{base}/tables/%00/1/new/"]:
        assert client.get(url).status_code in (404, 405), url
        assert client.post(url, {"from_round": 1}).status_code == 404, url
    assert client.get(reverse("sessions:analysis_pbn", args=[session.pk]), {"section": "\x00"}).status_code == 200


# --- a charset other than UTF-8 -------------------------------------------------------------------

SECURITY_HEADERS = ["Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
                    "Permissions-Policy", "Cross-Origin-Opener-Policy"]


@pytest.mark.parametrize("charset", ["latin-1", "iso-8859-1", "utf-16", "rot13", "no-such-charset"])
def test_a_post_in_another_charset_is_a_bad_request_with_the_security_headers(director, session, charset):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    client.get(reverse("sessions:director_session_edit", args=[session.pk]))  # the CSRF cookie a browser has
    token = client.cookies["csrftoken"].value
    content_type = f"application/x-www-form-urlencoded; charset={charset}"

    for url in [reverse("sessions:director_session_edit", args=[session.pk]), reverse("login"),
                reverse("sessions:pad_new"), "/t/no-such-token/send/", "/no/such/page/"]:
        # generic(): post() would encode the body in that charset itself
        response = client.generic("POST", url, f"name=Renamed&date=2025-01-01&csrfmiddlewaretoken={token}",
                                  content_type=content_type)
        assert response.status_code == 400, url
        assert all(header in response.headers for header in SECURITY_HEADERS), (url, response.headers)
    session.refresh_from_db()
    assert session.name != "Renamed"


def test_a_post_in_utf_8_still_works(director, session):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    client.get(reverse("sessions:director_session_edit", args=[session.pk]))
    token = client.cookies["csrftoken"].value

    response = client.post(reverse("sessions:director_session_edit", args=[session.pk]),
                           f"name=Renamed&date=2025-01-01&csrfmiddlewaretoken={token}",
                           content_type="application/x-www-form-urlencoded; charset=UTF-8")

    assert response.status_code == 302
    session.refresh_from_db()
    assert session.name == "Renamed"


# --- a pad nested too deeply ---------------------------------------------------------------------------


@pytest.mark.parametrize("pad", ["[" * 50_000, "{\"a\":" * 30_000, "[" * 40 + "]" * 40])
@pytest.mark.parametrize("sync", [True, False])
def test_a_pad_nested_too_deeply_is_refused(client, db, pad, sync):
    client.force_login(make_user("member"))
    headers = {"HTTP_X_PAD_SYNC": "1"} if sync else {}

    response = client.post(reverse("sessions:pad_save"), {"client_id": "phone-pad-1", "pad": pad}, **headers)

    assert response.status_code == 400
    assert not ScorePad.objects.exists()


def test_a_pad_of_the_usual_depth_is_kept(client, db):
    client.force_login(make_user("member"))
    pad = {"kind": "rubber", "era": "current", "names": ["A", "B", "C", "D"], "first_dealer": "N",
           "rounds": [{"deals": [{"declarer": "N", "contract": "4S", "tricks": 10, "honours": "",
                                  "honours_side": ""}], "stopped": False}]}

    response = client.post(reverse("sessions:pad_save"), {"client_id": "phone-pad-1", "pad": json.dumps(pad)},
                           HTTP_X_PAD_SYNC="1")

    assert response.status_code == 204
    assert ScorePad.objects.get().data["rounds"][0]["deals"][0]["contract"] == "4S"


def test_json_depth_counts_brackets_outside_strings_only():
    from sessions.pad.forms.pad import json_depth

    assert json_depth('{"a": [1, {"b": []}]}') == 4
    assert json_depth('["[[[[", "\\\\", "\\"[["]') == 1
    assert json_depth("[" * 50_000) == 50_000
    assert json_depth('"just a string"') == 0


# --- the helper every number read from a request goes through ------------------------------------


@pytest.mark.parametrize("text, number", [
    ("1", 1), ("42", 42), (str(2**63 - 1), 2**63 - 1), (str(TOO_BIG), None), ("0", None), ("-1", None),
    ("²", None), ("٣", None), (" 7", None), ("7 ", None), ("+7", None), ("", None), ("9" * 5000, None),
    ("1_000", None), ("\x00", None), (None, None),
])
def test_a_number_from_a_request_is_ascii_digits_within_range_or_nothing(text, number):
    from sessions.core.values import parse_number

    assert parse_number(text) == number


def test_boards_written_with_spaces_round_the_dash_are_a_range():
    from sessions.pairs.forms.repair import parse_boards

    assert parse_boards("1 - 3") == (1, 2, 3)
    assert parse_boards("7 -9, 11") == (7, 8, 9, 11)
