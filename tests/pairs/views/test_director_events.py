"""The event settings page: creating an event, changing how it scores, picking it for a session."""

import re

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from sessions.models import Event, Result, Session
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import EVENT_SETTINGS
from sessions.pairs.services.results import result_record


def settings_data(event=None, **changes):
    """The settings form as the page posts it: the event's current values, then ``changes``."""
    values = model_to_dict(event or Event(), fields=EVENT_SETTINGS)
    # An unticked box and an empty choice (exact line_decimals) post nothing.
    return {**{k: v for k, v in values.items() if v is not False and v is not None}, **changes}


def enter_board_1(session):
    # +450 beats +420 beats -50 (NS): 2NS tops the NS field whatever the method.
    for ns, ew, text in [("1NS", "1EW", "4S N ="), ("2NS", "3EW", "4S N +1"), ("3NS", "2EW", "4S N -1")]:
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=ns, ew_pair=ew, text=text)


def ns_standings(client, session):
    html = client.get(reverse("sessions:director_standings", args=[session.pk])).content.decode()
    return html.split("<h2>NS</h2>")[1].split("</table>")[0]


def test_the_settings_page_explains_every_option(logged_in, event):
    html = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()

    for words in [
        "2 for each result beaten and 1 for each tie", "ACBL", "Neuberg", "ratio scaling",
        "one big field", "its own session percentage", "average them over the number of comparisons",
        "median when a board has only", "IMPs for Ave+", "keep the WBF table",
        "fewer results than usual", "No scaling leaves every board out of its own top",
        "adds up the rounded lines", "Exact: lines and totals are not rounded", "one ranking to list every pair",
    ]:
        assert words in html, words
    assert 'value="butler"' in html and 'value="emp1938"' in html
    assert 'value="none"' in html and 'value="2"' in html and 'value="two"' in html


def test_creating_an_event_with_its_settings(logged_in, club):
    response = logged_in.post(reverse("sessions:director_event_new", args=[club.slug]), settings_data(
        name="Swiss Teams Warm-up", method="butler", butler_datum="median_small", butler_adjusted_imps=2,
        imp_table="1961",
    ))

    event = Event.objects.get(name="Swiss Teams Warm-up")
    assert response.status_code == 302
    assert response.url == reverse("sessions:director_event", args=[event.pk])
    assert (event.club, event.method, event.butler_datum, event.butler_adjusted_imps, event.imp_table) == (
        club, "butler", "median_small", 2, "1961",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Tuesday Pairs"}, "already exists"),
        ({"method": "rubber"}, "Select a valid choice"),
        ({"imp_table": "1937"}, "Select a valid choice"),
        ({"butler_adjusted_imps": 25}, "less than or equal to 24"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_a_new_event_with_a_wrong_setting_is_explained_and_not_created(logged_in, club, event, changes, message):
    response = logged_in.post(
        reverse("sessions:director_event_new", args=[club.slug]), settings_data(**{"name": "Other", **changes})
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert list(Event.objects.values_list("name", flat=True)) == ["Tuesday Pairs"]


def test_a_wrong_setting_on_an_existing_event_changes_nothing(logged_in, event):
    response = logged_in.post(
        reverse("sessions:director_event", args=[event.pk]),
        settings_data(event, method="cross_imps", butler_adjusted_imps=-1),
    )

    assert response.status_code == 200
    assert b"greater than or equal to 0" in response.content
    event.refresh_from_db()
    assert event.method == "matchpoints"


def test_changing_the_method_changes_the_provisional_standings(logged_in, event, session):
    enter_board_1(session)
    assert "100.00" in ns_standings(logged_in, session)  # 2NS: 4 of a top of 4

    response = logged_in.post(
        reverse("sessions:director_event", args=[event.pk]), settings_data(event, method="cross_imps", cross_imps="sum"),
    )

    assert response.status_code == 302
    table = ns_standings(logged_in, session)
    # +450 against +420 (30: 1 IMP) and against -50 (500: 11 IMPs), summed.
    assert "12.00" in table and "100.00" not in table


def test_changing_the_scale_changes_the_matchpoints_but_not_the_percentages(logged_in, event, session):
    enter_board_1(session)
    before = ns_standings(logged_in, session)

    logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, mp_scale="acbl"))

    after = ns_standings(logged_in, session)
    assert ">4.00<" in before and ">2.00<" in after  # the top's total, 2 per beaten then 1
    assert before.count("100.00") == after.count("100.00") == 1


def test_a_session_can_be_created_in_a_new_event(logged_in, club):
    response = logged_in.post(reverse("sessions:director_session_new", args=[club.slug]), {
        "pairs": 6, "movement": 1, "new_event": "Summer Pairs", "name": "Week 1", "date": "2025-07-01",
    })

    session = Session.objects.get(name="Week 1")
    assert response.status_code == 302
    assert (session.event.name, session.event.club, session.event.method) == ("Summer Pairs", club, "matchpoints")


@pytest.mark.parametrize(
    ("event_fields", "message"),
    [
        ({}, "choose the event, or name a new one"),
        ({"event": "EVENT", "new_event": "Another"}, "not both"),
        ({"new_event": "Tuesday Pairs"}, "new event: "),
    ],
)
def test_a_session_needs_exactly_one_event(logged_in, club, event, event_fields, message):
    fields = {key: event.pk if value == "EVENT" else value for key, value in event_fields.items()}

    response = logged_in.post(reverse("sessions:director_session_new", args=[club.slug]), {
        "pairs": 6, "movement": 1, "name": "Week 1", "date": "2025-07-01", **fields,
    })

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Session.objects.exists() and Event.objects.count() == 1


def test_the_dashboard_and_session_page_link_to_the_settings(logged_in, event, session):
    settings_url = reverse("sessions:director_event", args=[event.pk])

    assert settings_url in logged_in.get(reverse("sessions:director_dashboard")).content.decode()
    assert settings_url in logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()


def test_a_new_session_offers_the_event_of_the_latest_session_and_an_iso_date(logged_in, club, event, session):
    from tests.factories import make_event, make_session

    another = make_event(club, name="Another event")  # first by name, but not the latest played
    Session.objects.filter(pk=make_session(another).pk).update(date="2025-01-01")

    html = logged_in.get(reverse("sessions:director_session_new", args=[club.slug]),
                         {"pairs": 6, "movement": 1}).content.decode()

    assert f'<option value="{event.pk}" selected>' in html
    assert re.search(r'type="date" name="date" value="\d{4}-\d\d-\d\d"', html)


def test_a_new_session_from_the_dashboard_offers_the_event_just_created(logged_in, club, event, session):
    logged_in.post(reverse("sessions:director_event_new", args=[club.slug]), settings_data(name="Spring League"))
    spring = Event.objects.get(name="Spring League")
    url = reverse("sessions:director_session_new", args=[club.slug])
    shape = {"pairs": 6, "movement": 1}  # the form's second step, which names the event

    assert f'<option value="{spring.pk}" selected>' in logged_in.get(url, shape).content.decode()


def test_one_ranking_lists_the_mitchells_pairs_together(logged_in, event, session):
    enter_board_1(session)
    assert "<h2>NS</h2>" in logged_in.get(reverse("sessions:director_standings", args=[session.pk])).content.decode()

    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, rankings="one"))

    assert response.status_code == 302
    html = logged_in.get(reverse("sessions:director_standings", args=[session.pk])).content.decode()
    assert "<h2>NS</h2>" not in html and "<h2>All pairs</h2>" in html


def test_line_rounding_is_saved_and_exact_is_the_empty_choice(logged_in, event):
    url = reverse("sessions:director_event", args=[event.pk])
    # An event with exact lines shows the exact choice ticked.
    assert 'name="line_decimals" value="" id="id_line_decimals_0" checked' in logged_in.get(url).content.decode()

    logged_in.post(url, settings_data(event, line_decimals=1, short_boards="none"))
    event.refresh_from_db()
    assert (event.line_decimals, event.short_boards) == (1, "none")

    logged_in.post(url, settings_data(event, line_decimals=""))
    event.refresh_from_db()
    assert event.line_decimals is None


@pytest.mark.parametrize(("changes", "message"), [({"line_decimals": 3}, "Select a valid choice"),
                                                    ({"rankings": "three"}, "Select a valid choice")])
def test_a_wrong_rounding_or_ranking_is_refused(logged_in, event, changes, message):
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, **changes))

    assert response.status_code == 200 and message in response.content.decode()
    event.refresh_from_db()
    assert (event.line_decimals, event.rankings) == (None, "auto")


# --- table entry -------------------------------------------------------------------------------


def test_the_settings_page_has_a_table_entry_section(logged_in, event):
    html = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()

    section = html.split("<legend>Table entry</legend>")[1].split('<button type="submit">')[0]  # the last section
    assert 'name="table_confirmation"' in section and 'name="table_shows_traveller"' in section
    assert 'name="live_rankings"' in section and 'type="radio"' in section
    for words in [
        "recorded only once East-West confirm it", "results so far (the traveller)",
        "marked provisional until you mark the session final", "stays hidden until you mark the session final",
    ]:
        assert words in section, words


def test_a_new_event_confirms_at_the_table_shows_the_traveller_and_ranks_during_play(logged_in, club):
    logged_in.post(reverse("sessions:director_event_new", args=[club.slug]), settings_data(name="Friday"))

    event = Event.objects.get(name="Friday")
    assert (event.table_confirmation, event.table_shows_traveller, event.live_rankings) == (True, True, "during")


def test_changing_the_table_entry_settings(logged_in, event):
    data = settings_data(event, live_rankings="end")
    del data["table_confirmation"]  # unticked: the box posts nothing

    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), data)

    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.table_confirmation, event.table_shows_traveller, event.live_rankings) == (False, True, "end")


def test_a_wrong_live_rankings_choice_is_explained_and_changes_nothing(logged_in, event):
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]),
                              settings_data(event, live_rankings="sometimes"))

    assert response.status_code == 200 and b"Select a valid choice" in response.content
    event.refresh_from_db()
    assert event.live_rankings == "during"


def test_the_event_form_spells_imps_in_capitals(client, director, club):
    client.force_login(director)
    html = client.get(reverse("sessions:director_event_new", args=[club.slug])).content.decode()

    assert "IMP table" in html and "Imp table" not in html


def test_the_deal_era_is_chosen_on_the_event_form_and_scores_the_sessions(logged_in, event, session):
    """1NT making 7 tricks scores 90 under the current laws, 80 under the 1932 ones (30 for
    the first notrump trick): it ties 2C= (90) today and loses to it in 1932."""
    for ns, ew, text in [("1NS", "1EW", "1NT N ="), ("2NS", "3EW", "2C N ="), ("3NS", "2EW", "4S N -1")]:
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=ns, ew_pair=ew, text=text)
    page = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()
    assert 'value="1932"' in page and 'value="1935"' in page and reverse("sessions:score_table") in page
    before = ns_standings(logged_in, session)

    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, deal_era="1932"))

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.deal_era == "1932"
    after = ns_standings(logged_in, session)
    assert before.count("75.00") == 2 and "100.00" not in before
    assert "100.00" in after and "50.00" in after
    # Travellers and score cards, built on session_score, show the era's score; the stored line keeps today's.
    scored = {r.ns_pair.label: r.ns_score for r in session_score(session=session).results}
    assert scored == {"1NS": 80, "2NS": 90, "3NS": -50}
    assert Result.objects.get(ns_pair__number=1, board__number=1).ns_score == 90


def test_an_unknown_deal_era_is_refused_and_changes_nothing(logged_in, event):
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, deal_era="1920"))
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    event.refresh_from_db()
    assert event.deal_era == "current"


def test_a_median_butler_datum_is_chosen_on_the_event_form(logged_in, event, session):
    """seeds/000: "Sometimes, the median score is used instead". Board 1 holds 420, 450 and
    -50: the mean of three is 273.3 (datum 270), the median 420."""
    enter_board_1(session)
    logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, method="butler"))
    mean = ns_standings(logged_in, session)
    logged_in.post(reverse("sessions:director_event", args=[event.pk]),
                   settings_data(event, method="butler", butler_datum="median"))
    event.refresh_from_db()
    assert event.butler_datum == "median"
    median = ns_standings(logged_in, session)
    # 2NS's 450: 5 IMPs against 270 (180), 1 IMP against 420 (30).
    assert re.search(r">\s*5\.00\s*<", mean) and re.search(r">\s*1\.00\s*<", median)


def test_cross_imps_trim_is_an_event_option(logged_in, event):
    page = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()
    assert "leave this many results out at each end" in page
    logged_in.post(reverse("sessions:director_event", args=[event.pk]),
                   settings_data(event, method="cross_imps", cross_imps_trim=1))
    event.refresh_from_db()
    assert event.cross_imps_trim == 1
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]),
                              settings_data(event, cross_imps_trim=9))
    assert "less than or equal to 5" in response.content.decode()
    event.refresh_from_db()
    assert event.cross_imps_trim == 1


def folded_sections(html: str) -> list[str]:
    """The legends of the settings folded away in a closed <details>."""
    return re.findall(r'<details class="setting-other">(?:(?!</details>).)*?<legend>([^<]+)</legend>', html, re.S)


@pytest.mark.parametrize(("method", "folded"), [("matchpoints", ["IMPs"]), ("butler", ["Matchpoints"]),
                                                 ("cross_imps", ["Matchpoints"])])
def test_the_settings_page_shows_what_applies_to_the_events_scoring_and_folds_the_rest(logged_in, club, method,
                                                                                      folded):
    from tests.factories import make_event

    event = make_event(club, name="Scored", method=method)

    html = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()

    assert folded_sections(html) == folded
    assert 'name="imp_table"' in html and 'name="mp_scale"' in html  # still there to switch the scoring


def test_a_new_event_folds_the_imp_settings_and_a_refused_form_follows_the_scoring_typed(logged_in, club):
    url = reverse("sessions:director_event_new", args=[club.slug])
    assert folded_sections(logged_in.get(url).content.decode()) == ["IMPs"]

    refused = logged_in.post(url, settings_data(name="", method="butler")).content.decode()

    assert folded_sections(refused) == ["Matchpoints"]


def test_the_settings_page_offers_nz_scorers_conventions_and_handicaps(logged_in, event):
    html = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()

    for words in [
        "NZ Scorer compares it as a score of 0", "cut (not rounded) to tenths", "each missing result as a tie",
        "counts the phantom&#x27;s table", "NZ Scorer adds half the handicap",
    ]:
        assert words in html, words
    assert 'name="handicap" value="half"' in html and 'name="not_played" value="zero"' in html


def test_a_director_chooses_nz_scorers_conventions_for_an_event(logged_in, club, event):
    logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(
        event, not_played="zero", cut_figures="on", short_totals="ties", phantom_table="on", handicap="half",
    ))

    event.refresh_from_db()
    assert (event.not_played, event.cut_figures, event.short_totals, event.phantom_table, event.handicap) == (
        "zero", True, "ties", True, "half",
    )
