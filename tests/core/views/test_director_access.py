"""Every URL that writes refuses anyone but the club's own director, and changes nothing.

Personas: anonymous (sent to log in), another club's director and a logged-in user who
directs nothing (both 404: they cannot learn the object exists).
"""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms.models import model_to_dict
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone

from sessions.handrecords import random_deals
from sessions.handrecords.pbn_handrecords import write_hand_records
from sessions.models import (
    ApiKey, Board, Club, ClubDirector, Competition, DirectorCall, Event, ImportJob, MailKind, MailStatus,
    NationalUpload, Pair, Player, ProceduralPenalty, Result, ResultChange, ResultMail, Seating, Session, TableLink,
    Webhook, WebhookDelivery,
)
from sessions.pairs.services.events import EVENT_SETTINGS
from sessions.clubs.services.players import player_add
from sessions.pairs.services.results import result_record
from sessions.api.services.api_keys import api_key_create
from sessions.phones.services.calls import director_call
from sessions.clubs.services.competitions import competition_create
from sessions.pairs.services.penalties import penalty_give
from sessions.api.services.webhooks import webhook_create
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session, make_user
from tests.formats.data_files import DATA_DIR


@pytest.fixture
def entered(session, co_director):
    """The conftest session with two lines on board 1: 1NS v 1EW (round 1, table 1), which
    the requests below change, and 3NS v 2EW (round 2, table 3); the club has a second
    director (not an owner), and a user with an account waits to be added."""
    make_user("newcomer")
    board, section = session.boards.get(number=1), session.sections.get()
    line = result_record(board=board, section=section, ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    result_record(board=board, section=section, ns_pair="3NS", ew_pair="2EW", text="4S N +1")
    links = table_links_ensure(session=session)  # each table's phone link, for the renew and revoke requests
    director_call(link=links[0], client_key="call-from-table-1", round=1)  # an open call, to take
    Session.objects.filter(pk=make_session(session.event).pk).update(name="Spare")  # a session to delete
    player_add(club=session.event.club, name="Ann Smith")
    player_add(club=session.event.club, name="Anne Smith")  # the same person: merged below
    api_key_create(club=session.event.club, name="Club website")  # a key to revoke
    reader = player_add(club=session.event.club, name="Mail Reader")
    Player.objects.filter(pk=reader.pk).update(email="reader@example.org", email_consent=True)
    ResultMail.objects.create(  # a results mail that failed: the director sends it again
        player=reader, session=session, kind=MailKind.RESULTS, key="results:walk", to_address="reader@example.org",
        status=MailStatus.FAILED, attempts=5, next_attempt_at=session.created_at,
    )
    webhook_create(club=session.event.club, url="https://93.184.215.14/hook")  # a webhook to test and remove
    competition_create(event=session.event, name="Club Cup")  # a competition to change
    penalty_give(pair=Pair.objects.get(section__session=session, number=2, direction="NS"), amount=Decimal("1"),
                 penalty_unit="MP", reason="late")  # a penalty to take back
    return session, line


def event_settings(event, **changes):
    values = model_to_dict(event, fields=EVENT_SETTINGS)
    return {**{name: value for name, value in values.items() if value is not False and value is not None}, **changes}


def writing_requests(session, line):
    """(url, POST data) for every writing URL, with data the club's director could send."""
    row_1 = f"A-1-{line.ns_pair_id}-{line.ew_pair_id}"
    row_2 = f"A-2-{line.ns_pair_id}-{line.ew_pair_id}"
    club = session.event.club
    pair_1ns = line.ns_pair_id
    other = line.board.results.exclude(pk=line.pk).get()
    links = {link.table: link for link in TableLink.objects.filter(session=session, revoked_at__isnull=True)}
    spare = Session.objects.get(name="Spare")
    ann, anne = Player.objects.get(name="Ann Smith"), Player.objects.get(name="Anne Smith")
    pair_3ew = Pair.objects.get(section__session=session, number=3, direction="EW")
    round_3 = {"t1_ns": "1NS", "t1_ew": "3EW", "t1_boards": "5-6", "t2_ns": "2NS", "t2_ew": "1EW", "t2_boards": "1-2",
               "t3_ns": "3NS", "t3_ew": "2EW", "t3_boards": "3-4"}  # the EW pairs went to the wrong tables
    helper = ClubDirector.objects.get(club=club, user__username="co_director")
    return [
        (reverse("sessions:director_club_settings", args=[club.slug]),
         {"name": "Renamed Club", "description": "Sneaky words", "website": "example.org"}),
        (reverse("sessions:director_club_directors", args=[club.slug]), {"identifier": "newcomer", "is_owner": "on"}),
        (reverse("sessions:director_club_director_owner", args=[club.slug, helper.pk]), {"is_owner": "1"}),
        (reverse("sessions:director_club_director_unlock", args=[club.slug, helper.pk]), {}),
        (reverse("sessions:director_club_director_remove", args=[club.slug, helper.pk]), {}),
        (reverse("sessions:director_api_key_new", args=[club.slug]), {"key-name": "Sneaky key"}),
        (reverse("sessions:director_api_key_revoke", args=[club.slug, ApiKey.objects.get(club=club).pk]), {}),
        (reverse("sessions:director_webhook_new", args=[club.slug]), {"hook-url": "https://93.184.215.15/sneaky"}),
        (reverse("sessions:director_webhook_test", args=[club.slug, Webhook.objects.get(club=club).pk]), {}),
        (reverse("sessions:director_webhook_delete", args=[club.slug, Webhook.objects.get(club=club).pk]), {}),
        (reverse("sessions:director_session_new", args=[club.slug]),
         {"pairs": 6, "movement": 0, "event": session.event_id, "name": "Sneaky", "date": "2025-01-01"}),
        (reverse("sessions:director_session_new", args=[club.slug]),
         {"pairs": 6, "movement": 0, "new_event": "Sneaky event", "name": "Sneaky 2", "date": "2025-01-01"}),
        (reverse("sessions:director_session_new", args=[club.slug]),
         {"pairs": 12, "sections": 2, "rounds": 2, "boards_per_round": 2, "arrow_switch": "2", "movement": 0,
          "event": session.event_id, "name": "Sneaky sections", "date": "2025-01-01"}),
        # (before the event turns to Butler below: a matchpoint penalty)
        (reverse("sessions:director_penalty_give", args=[session.pk]),
         {"pair": pair_1ns, "amount": "25", "penalty_unit": "TOP", "board": "1", "reason": "Sneaky slow play"}),
        (reverse("sessions:director_penalty_remove", args=[session.pk, ProceduralPenalty.objects.get().pk]), {}),
        (reverse("sessions:director_event_new", args=[club.slug]), event_settings(Event(), name="Sneaky settings")),
        (reverse("sessions:director_event", args=[session.event_id]),
         event_settings(session.event, method="butler", name="Renamed")),
        (reverse("sessions:director_competition_new", args=[session.event_id]),
         {"name": "Sneaky Cup", "place_points": "5,3,1", "minimum_sessions": 0, "tie_breaks": "wins"}),
        (reverse("sessions:director_competition", args=[Competition.objects.get(name="Club Cup").pk]),
         {"name": "Club Cup", "place_points": "12,10,8", "minimum_sessions": 1, "members_only": "on",
          "tie_breaks": "butler,wins"}),
        (reverse("sessions:director_pairs", args=[session.pk]),
         {f"p{pair_1ns}_1_name": "Intruder", f"p{pair_1ns}_1_number": "666"}),
        (reverse("sessions:director_handicaps", args=[session.pk]), {f"h{pair_1ns}": "-3.5", "action": "save"}),
        (reverse("sessions:director_board_groups", args=[session.pk, 1]),
         {f"group_{line.pk}": 1, f"group_{other.pk}": 2}),
        (reverse("sessions:director_players", args=[club.slug]), {"name": "Intruder"}),
        (reverse("sessions:director_publish", args=[session.pk]), {"confirm": "1"}),
        (reverse("sessions:director_mark_final", args=[session.pk]), {}),
        (reverse("sessions:director_reopen", args=[session.pk]), {}),
        (reverse("sessions:director_mark_final", args=[session.pk]), {}),
        (reverse("sessions:director_upload_sent", args=[session.pk]), {"revision": session.revision}),
        (reverse("sessions:director_unpublish", args=[session.pk]), {}),
        (reverse("sessions:director_board", args=[session.pk, 1]),
         {"row": row_1, "result": line.pk, "version": 1, "text": "4S N -3"}),
        (reverse("sessions:director_board", args=[session.pk, 1]),
         {"row": row_1, "result": line.pk, "version": 1, "action": "delete"}),
        (reverse("sessions:director_board", args=[session.pk, 2]), {"row": row_2, "text": "3NT N ="}),
        (reverse("sessions:director_table", args=[session.pk, "A", 1, 1]), {"row": row_2, "text": "3NT N ="}),
        (reverse("sessions:analysis_upload", args=[session.pk]), {"file": hand_record_file()}),
        (reverse("sessions:analysis_generate", args=[session.pk]), {"replace": "on"}),
        (reverse("sessions:transfer_import", args=[club.slug]), {"file": results_file()}),
        (reverse("sessions:director_table_link_renew", args=[session.pk, links[1].pk]), {}),
        (reverse("sessions:director_table_link_revoke", args=[session.pk, links[2].pk]), {}),
        (reverse("sessions:director_table_link_new", args=[session.pk, "A", 2]), {}),
        (reverse("sessions:director_table_links_make", args=[session.pk]), {"next": "cards"}),
        (reverse("sessions:director_session_edit", args=[session.pk]), {"name": "Renamed session", "date": "2025-01-02"}),
        (reverse("sessions:director_session_movement", args=[session.pk]), {"pairs": 6, "movement": 0}),
        (reverse("sessions:director_round_seating", args=[session.pk, "A", 3]), round_3),
        (reverse("sessions:director_table_turn", args=[session.pk, "A", 2, 2]), {}),
        (reverse("sessions:director_line_pairs", args=[session.pk, other.pk]), {"action": "turn", "version": 1}),
        (reverse("sessions:director_pair_late", args=[session.pk, "A"]), {"from_round": 2}),
        (reverse("sessions:director_pair_withdraw", args=[session.pk, pair_3ew.pk]), {"from_round": 1}),
        (reverse("sessions:director_player", args=[club.slug, ann.pk]), {"name": "Ann Smith-Jones"}),
        (reverse("sessions:director_player_merge", args=[club.slug, ann.pk]), {"merge": anne.pk}),
        (reverse("sessions:director_player_email", args=[club.slug, ann.pk]),
         {"email": "ann@example.org", "email_consent": "on"}),
        (reverse("sessions:director_mail_resend", args=[session.pk, ResultMail.objects.get().pk]), {}),
        (reverse("sessions:director_session_delete", args=[spare.pk]), {}),
        (reverse("sessions:director_clock", args=[session.pk]), {"action": "minutes", "minutes": "12"}),
        (reverse("sessions:director_call_take", args=[session.pk, DirectorCall.objects.get(session=session).pk]), {}),
    ]


def hand_record_file():
    deals = dict(enumerate(random_deals(6, seed=5), start=1))
    return SimpleUploadedFile("hands.pbn", write_hand_records(deals))


def results_file():
    path = DATA_DIR / "usebio" / "cobalt_mp_pairs_mitchell_03.xml"
    return SimpleUploadedFile(path.name, path.read_bytes())


def snapshot():
    return (
        list(Club.objects.values_list("pk", "name", "description", "website")),
        list(ClubDirector.objects.values_list("pk", "user", "club", "is_owner")),
        list(Result.objects.values_list("pk", "version", "text", "group")),
        list(Event.objects.values_list(*EVENT_SETTINGS)),
        ResultChange.objects.count(),
        list(Session.objects.values_list("pk", "published", "final_at")),
        list(Player.objects.values_list("pk", "name", "national_number")),
        list(Pair.objects.values_list("pk", "player_1", "player_2")),
        list(Board.objects.values_list("pk", "deal")),
        list(TableLink.objects.values_list("pk", "token", "revoked_at")),
        list(Session.objects.values_list("pk", "name", "date", "tables")),
        list(Seating.objects.values_list("pk", "ns_pair", "ew_pair", "boards")),
        list(Result.objects.values_list("pk", "ns_pair", "ew_pair")),
        list(ApiKey.objects.values_list("pk", "name", "revoked_at")),
        list(Player.objects.values_list("pk", "email", "email_consent")),
        list(ResultMail.objects.values_list("pk", "status", "attempts")),
        list(Webhook.objects.values_list("pk", "url", "secret")), WebhookDelivery.objects.count(),
        list(NationalUpload.objects.values_list("pk", "session", "revision")),
        list(Competition.objects.values_list("pk", "name", "place_points", "members_only", "tie_breaks")),
        list(DirectorCall.objects.values_list("pk", "taken_at", "taken_by")),
        list(Session.objects.values_list("pk", "round_minutes", "clock_round", "clock_started_at")),
        list(ProceduralPenalty.objects.values_list("pk", "pair", "amount", "unit", "reason")),
        list(Pair.objects.order_by("pk").values_list("pk", "handicap")),
    )


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member"])
def test_writing_urls_refuse_everyone_but_the_clubs_director(client, entered, persona, request):
    session, line = entered
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    before = snapshot()

    for url, data in writing_requests(session, line):
        response = client.post(url, data)
        if persona == "anonymous":
            assert response.status_code == 302, url
            assert response.url.startswith(reverse("login")), url
        else:
            assert response.status_code == 404, url

    assert snapshot() == before


def test_the_clubs_director_can_use_every_writing_url(client, entered, director):
    """The refusals above are about who asks: the same requests work for the director."""
    session, line = entered
    client.force_login(director)

    statuses = [client.post(url, data).status_code for url, data in writing_requests(session, line)]

    assert all(status in (200, 302) for status in statuses), statuses
    assert snapshot()[4] > 2  # the director's changes were logged
    assert {"Renamed", "Sneaky event", "Sneaky settings"} <= set(Event.objects.values_list("name", flat=True))
    assert Event.objects.get(name="Renamed").method == "butler"
    assert Competition.objects.filter(name="Sneaky Cup", place_points="5,3,1").exists()
    assert Competition.objects.get(name="Club Cup").points == (12, 10, 8)
    assert Pair.objects.get(pk=line.ns_pair_id).player_1.national_number == "666"
    assert Pair.objects.get(pk=line.ns_pair_id).handicap == Decimal("-3.50")
    assert set(Result.objects.filter(board=line.board).values_list("group", flat=True)) == {1, 2}
    assert all(Board.objects.filter(session=session).values_list("deal", flat=True))
    assert DirectorCall.objects.get().taken_by == director
    assert Session.objects.get(pk=session.pk).round_minutes == 12
    assert list(ProceduralPenalty.objects.values_list("pair", "unit", "board", "reason")) == [
        (line.ns_pair_id, "TOP", 1, "Sneaky slow play")]  # given; the fixture's taken back
    assert Session.objects.filter(name__startswith="EL Thu").exists()  # the imported file
    # Table 1 renewed, table 2 revoked then given a new link: one old and one live link each.
    assert [TableLink.objects.filter(session=session, table=table).count() for table in (1, 2, 3)] == [2, 2, 1]
    assert TableLink.objects.filter(session=session, revoked_at__isnull=True).count() == 3
    # The repairs: renamed, round 3 reseated, table 2 of round 2 turned round, a line
    # turned round, 3EW gone before playing, one player's two records merged, the spare
    # session deleted.
    assert Session.objects.get(pk=session.pk).name == "Renamed session"
    two = Session.objects.get(name="Sneaky sections")  # 2 sections of 3 tables, 2 rounds, switched in round 2
    assert [s.letter for s in two.sections.order_by("letter")] == ["A", "B"]
    assert (two.tables, two.rounds, two.arrow_switch) == (3, 2, True)
    assert not Session.objects.filter(name="Spare").exists()
    assert Seating.objects.get(section__session=session, round=2, table=2).ns_pair.label == "1EW"
    assert Result.objects.get(board=line.board, ew_pair__number=3).ns_pair.label == "2EW"
    assert Seating.objects.get(section__session=session, round=3, table=2).ew_pair.label == "1EW"
    assert not Pair.objects.filter(section__session=session, number=3, direction="EW").exists()
    assert Player.objects.filter(name__startswith="Ann").values_list("name", flat=True).get() == "Ann Smith-Jones"
    assert Player.objects.get(name="Ann Smith-Jones").mail_allowed
    assert ResultMail.objects.get().status != MailStatus.FAILED  # sent again (then cancelled: Mail Reader plays in no session)
    club = Club.objects.get(pk=session.event.club_id)
    assert (club.name, club.description, club.website) == ("Renamed Club", "Sneaky words", "https://example.org")
    assert {(key.name, key.revoked) for key in ApiKey.objects.filter(club=club)} == {
        ("Club website", True), ("Sneaky key", False),
    }
    assert list(Webhook.objects.filter(club=club).values_list("url", flat=True)) == ["https://93.184.215.15/sneaky"]
    assert set(ClubDirector.objects.filter(club=club).values_list("user__username", "is_owner")) == {
        ("director", True), ("newcomer", True),  # co_director was made an owner, then removed
    }


def test_a_director_who_does_not_own_the_club_is_refused_its_settings_and_directors(client, entered, co_director):
    """A director of the club knows it exists: 403, not 404; and nothing changes."""
    session, line = entered
    client.force_login(co_director)
    club = session.event.club
    owner_urls = {"director_club_settings", "director_club_directors", "director_club_director_owner",
                  "director_club_director_remove", "director_club_director_unlock",
                  "director_webhook_new", "director_webhook_test", "director_webhook_delete"}
    before = snapshot()

    for url, data in writing_requests(session, line):
        if resolve(url).url_name in owner_urls:
            assert client.post(url, data).status_code == 403, url
    for name in ("director_club_settings", "director_club_directors"):
        assert client.get(reverse(f"sessions:{name}", args=[club.slug])).status_code == 403, name

    assert snapshot() == before


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_reading_pages_are_hidden_from_other_users(client, entered, persona, request):
    session, _ = entered
    job = ImportJob.objects.create(club=session.event.club, filename="x.pbn", size=1, data=b"x")
    client.force_login(request.getfixturevalue(persona))
    for name, args in [
        ("transfer_import_job", [job.pk]),
        ("director_session", [session.pk]), ("director_standings", [session.pk]),
        ("director_log", [session.pk]), ("director_board", [session.pk, 1]),
        ("director_table", [session.pk, "A", 1, 1]),
        ("director_session_new", [session.event.club.slug]), ("director_players", [session.event.club.slug]),
        ("director_event_new", [session.event.club.slug]), ("director_event", [session.event_id]),
        ("director_cards", [session.pk]), ("director_pairs", [session.pk]),
        ("analysis_hand_records", [session.pk]), ("analysis_pbn", [session.pk]),
        ("analysis_print", [session.pk]), ("transfer_import", [session.event.club.slug]),
        ("director_table_links", [session.pk]),
        ("director_progress", [session.pk]),
        ("director_session_edit", [session.pk]), ("director_session_movement", [session.pk]),
        ("director_session_delete", [session.pk]), ("director_repair", [session.pk]),
        ("director_round_seating", [session.pk, "A", 1]),
        ("director_line_pairs", [session.pk, Result.objects.filter(board__session=session).first().pk]),
        ("director_player", [session.event.club.slug, Player.objects.first().pk]),
        ("director_club_settings", [session.event.club.slug]), ("director_club_directors", [session.event.club.slug]),
        ("director_booklet", [session.pk]), ("director_paper_forms", [session.pk]),
        ("director_uploads", [session.event.club.slug]), ("director_upload_file", [session.pk]),
        ("director_competition_new", [session.event_id]),
        ("director_competition", [Competition.objects.get(name="Club Cup").pk]),
    ]:
        assert client.get(reverse(f"sessions:{name}", args=args)).status_code == 404, name


def test_the_dashboard_lists_only_the_users_own_clubs(client, entered, outsider):
    client.force_login(outsider)

    response = client.get(reverse("sessions:director_dashboard"))

    assert response.status_code == 200
    assert b"Home Club" not in response.content
    assert b"Away Club" in response.content


def test_a_post_without_the_csrf_token_is_refused(entered, director):
    from django.test import Client

    session, _ = entered
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)

    response = client.post(reverse("sessions:director_publish", args=[session.pk]))

    assert response.status_code == 403
    session.refresh_from_db()
    assert not session.published


DIRECTOR_PAGES_WALKED = {
    # writing (the walk above) and reading (the list above) director URLs by name
    "director_session_new", "director_event_new", "director_event", "director_pairs", "director_handicaps",
    "director_board_groups", "director_players", "director_publish", "director_unpublish",
    "director_board", "director_table", "analysis_upload", "analysis_generate", "transfer_import",
    "director_session", "director_standings", "director_log", "director_cards",
    "analysis_hand_records", "analysis_pbn", "analysis_print", "director_dashboard",
    "transfer_import_job",
    "director_table_links", "director_table_links_make", "director_table_link_renew",
    "director_table_link_revoke", "director_table_link_new",
    "director_progress", "director_mark_final", "director_reopen", "director_call_take", "director_clock",
    "director_session_edit", "director_session_movement", "director_session_delete", "director_repair",
    "director_round_seating", "director_table_turn", "director_pair_late", "director_pair_withdraw",
    "director_line_pairs", "director_player", "director_player_merge",
    "director_player_email", "director_mail_resend",
    "director_club_settings", "director_club_directors", "director_club_director_owner",
    "director_club_director_remove", "director_club_director_unlock", "director_api_key_new", "director_api_key_revoke",
    "director_webhook_new", "director_webhook_test", "director_webhook_delete", "director_booklet", "director_paper_forms",
    "director_uploads", "director_upload_file", "director_upload_sent",
    "director_competition_new", "director_competition", "director_penalty_give", "director_penalty_remove",
    # teams events: the walk of teams_writing_requests and TEAMS_READING below
    "director_team_event_new", "director_team_event", "director_team_add", "director_team_draw",
    "director_team_match_new", "director_team_adjustment", "director_team_publish", "director_team_match",
    "director_team_match_totals", "director_team_match_not_played",
    # correcting a teams event: the walk of teams_correcting_requests below
    "director_team_edit", "director_team_delete", "director_team_match_edit", "director_team_match_delete",
    "director_team_match_played", "director_team_adjustment_edit", "director_team_adjustment_delete",
    "director_team_round_undo", "director_team_final", "director_team_mail_round", "director_team_mail_resend",
    "director_team_clock", "director_team_call_take",
    "director_team_round_tables", "director_team_round_progress", "director_team_round_links_make", "director_team_table_link_renew",
    "director_team_table_link_revoke",
}


def test_every_director_url_is_in_the_access_walks():
    """A new director page must be added to the walks above, or this fails."""
    (app,) = [resolver for resolver in get_resolver().url_patterns
              if isinstance(resolver, URLResolver) and resolver.namespace == "sessions"]
    names = {
        pattern.name
        for pattern in app.url_patterns
        if isinstance(pattern, URLPattern) and str(pattern.pattern).startswith("director/")
    }
    assert names and names <= DIRECTOR_PAGES_WALKED, names - DIRECTOR_PAGES_WALKED


# --- teams events ------------------------------------------------------------------------


@pytest.fixture
def team_event(club):
    """A 4-team round robin of the club, scheduled, with one line entered in round 1."""
    from sessions.teams.services.teams import match_record_line, round_robin_schedule
    from tests.factories import make_team_event

    event = make_team_event(club, teams=4, form="round_robin")
    from sessions.phones.services.team_tables import match_table_links_ensure

    match = round_robin_schedule(event=event)[0]
    match_record_line(match=match, board=1, room="open", text="4S N =")
    match_table_links_ensure(event=event, round=1)  # the rooms' phone links, to renew and revoke
    return event


def teams_writing_requests(event):
    match = event.matches.order_by("pk").first()
    other = event.matches.exclude(pk=match.pk).order_by("pk").first()
    team_1, team_2 = event.teams.all()[:2]
    spare = [Player.objects.create(club=event.club, name=f"Spare {i}") for i in range(4)]
    from sessions.models import MatchTableLink

    link_1, link_2 = MatchTableLink.objects.filter(match__event=event).order_by("pk")[:2]
    return [
        (reverse("sessions:director_team_event_new", args=[event.club.slug]),
         {"name": "Sneaky teams", "date": "2025-01-01", "form": "swiss", "scoring": "imps", "vp_scale": "20",
          "imp_table": "wbf", "boards_per_match": 6, "bye_vp": 12, "tie_break": "higher_seed"}),
        (reverse("sessions:director_team_add", args=[event.pk]),
         {"name": "Sneaky team", "players": [p.pk for p in spare], "captain": spare[0].pk}),
        (reverse("sessions:director_team_match_new", args=[event.pk]),
         {"round": 9, "home": team_1.pk, "away": team_2.pk, "boards": 4, "first_board": 1, "carry_over": 0}),
        (reverse("sessions:director_team_adjustment", args=[event.pk]),
         {"team": team_1.pk, "kind": "penalty", "vp": 3, "reason": "slow"}),
        (reverse("sessions:director_team_match", args=[match.pk]), {"b1_open": "4S N -3", "b2_closed": "3NT N ="}),
        (reverse("sessions:director_team_match_totals", args=[other.pk]), {"home_imps": 20, "away_imps": 10}),
        (reverse("sessions:director_team_match_not_played", args=[other.pk]),
         {"status": "average", "home_vp": 10, "away_vp": 10}),
        (reverse("sessions:director_team_draw", args=[event.pk]), {}),
        (reverse("sessions:director_team_publish", args=[event.pk]), {}),
        (reverse("sessions:director_team_round_links_make", args=[event.pk, 2]), {}),
        (reverse("sessions:director_team_table_link_renew", args=[event.pk, link_1.pk]), {}),
        (reverse("sessions:director_team_table_link_revoke", args=[event.pk, link_2.pk]), {}),
    ]


def teams_snapshot():
    from sessions.models import Match, MatchLine, MatchTableLink, Team, TeamAdjustment, TeamEvent

    return (
        list(MatchTableLink.objects.values_list("pk", "token", "revoked_at")),
        list(TeamEvent.objects.values_list("pk", "name", "published", "final_at", "round_minutes")),
        list(Team.objects.values_list("pk", "name")),
        list(Match.objects.values_list("pk", "status", "home_imps", "away_imps", "home_vp_awarded")),
        list(MatchLine.objects.values_list("pk", "text")),
        list(TeamAdjustment.objects.values_list("pk", "vp")),
        list(ResultMail.objects.values_list("pk", "status", "attempts")),
        list(DirectorCall.objects.values_list("pk", "taken_at")),
    )


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member"])
def test_teams_writing_urls_refuse_everyone_but_the_clubs_director(client, team_event, persona, request):
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    requests = teams_writing_requests(team_event)
    before = teams_snapshot()

    for url, data in requests:
        response = client.post(url, data)
        if persona == "anonymous":
            assert response.status_code == 302, url
            assert response.url.startswith(reverse("login")), url
        else:
            assert response.status_code == 404, url

    assert teams_snapshot() == before


def test_the_clubs_director_can_use_every_teams_writing_url(client, team_event, director):
    from sessions.models import MatchLine, MatchTableLink, TeamEvent

    client.force_login(director)

    statuses = [client.post(url, data).status_code for url, data in teams_writing_requests(team_event)]

    assert all(status == 302 for status in statuses), statuses
    assert TeamEvent.objects.filter(name="Sneaky teams").exists()
    assert team_event.teams.filter(name="Sneaky team").exists()
    assert team_event.adjustments.get().vp == -3
    assert sorted(MatchLine.objects.values_list("text", flat=True)) == ["3NT N =", "4S N -3"]
    assert TeamEvent.objects.get(pk=team_event.pk).published
    links = MatchTableLink.objects.filter(match__event=team_event)
    # Round 2's rooms got links; of round 1's, one was renewed (a new one) and one revoked.
    assert links.filter(match__round=2, revoked_at__isnull=True).count() == 4
    assert links.filter(match__round=1, revoked_at__isnull=False).count() == 2
    assert links.filter(match__round=1, revoked_at__isnull=True).count() == 3


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_teams_reading_pages_are_hidden_from_other_users(client, team_event, persona, request):
    client.force_login(request.getfixturevalue(persona))
    match = team_event.matches.first()
    for name, args in [
        ("director_team_event_new", [team_event.club.slug]), ("director_team_event", [team_event.pk]),
        ("director_team_match", [match.pk]), ("director_team_round_tables", [team_event.pk, 1]),
        ("director_team_round_progress", [team_event.pk, 1]),
    ]:
        assert client.get(reverse(f"sessions:{name}", args=args)).status_code == 404, name


def teams_correcting_requests(event):
    """Every correcting URL once, on objects set up for it: (url, data) and the GET pages."""
    from decimal import Decimal

    from sessions.teams.services.teams import adjustment_add, edit_token, match_set_not_played, team_add

    team_1 = event.teams.order_by("number").first()
    spare = team_add(event=event, name="Spare team",
                     players=[Player.objects.create(club=event.club, name=f"Reserve {i}") for i in range(4)])
    round_1 = event.matches.filter(round=1).order_by("pk")
    average = round_1.last()
    match_set_not_played(match=average, status="average", home_vp=Decimal(10), away_vp=Decimal(10))
    to_edit, to_delete = event.matches.filter(round=2).order_by("pk")
    kept = adjustment_add(event=event, team=team_1, kind="penalty", vp=Decimal(2))
    removed = adjustment_add(event=event, team=team_1, kind="fine", vp=Decimal(1))
    players = list(team_1.players.all())
    from sessions.phones.services.team_tables import match_table_links_ensure

    room = match_table_links_ensure(event=event, round=1)[0]
    call = director_call(link=room, client_key="walk-call-key-0001", round=1)
    mail = ResultMail.objects.create(
        player=players[0], team_event=event, round=1, kind="results", key="teams-walk", to_address="x@example.org",
        status="sent", next_attempt_at=timezone.now(),
    )
    posts = [
        (reverse("sessions:director_team_mail_round", args=[event.pk]), {"round": 1}),
        (reverse("sessions:director_team_clock", args=[event.pk]), {"action": "minutes", "minutes": "7"}),
        (reverse("sessions:director_team_call_take", args=[event.pk, call.pk]), {}),
        (reverse("sessions:director_team_mail_resend", args=[event.pk, mail.pk]), {}),
        (reverse("sessions:director_team_edit", args=[team_1.pk]),
         {"name": "Renamed", "players": [p.pk for p in players], "captain": players[1].pk,
          "seen": edit_token(team_1)}),
        (reverse("sessions:director_team_delete", args=[spare.pk]), {}),
        (reverse("sessions:director_team_match_edit", args=[to_edit.pk]),
         {"round": 2, "home": to_edit.away_id, "away": to_edit.home_id, "boards": 5, "first_board": 9,
          "carry_over": 0, "seen": edit_token(to_edit)}),
        (reverse("sessions:director_team_match_delete", args=[to_delete.pk]), {}),
        (reverse("sessions:director_team_match_played", args=[average.pk]), {}),
        (reverse("sessions:director_team_adjustment_edit", args=[kept.pk]),
         {"team": team_1.pk, "kind": "penalty", "vp": 5, "reason": "late", "seen": edit_token(kept)}),
        (reverse("sessions:director_team_adjustment_delete", args=[removed.pk]), {}),
        (reverse("sessions:director_team_round_undo", args=[event.pk, 3]), {}),
        (reverse("sessions:director_team_final", args=[event.pk]), {}),
    ]
    pages = [url for url, _ in posts
             if not url.endswith(("/played/", "/final/", "/round/", "/resend/", "/clock/", "/take/"))]
    return posts, pages


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member"])
def test_teams_correcting_urls_refuse_everyone_but_the_clubs_director(client, team_event, persona, request):
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    posts, pages = teams_correcting_requests(team_event)
    before = teams_snapshot()

    for url, data in posts:
        response = client.post(url, data)
        expected = 302 if persona == "anonymous" else 404
        assert response.status_code == expected, url
    for url in pages:
        assert client.get(url).status_code == (302 if persona == "anonymous" else 404), url

    assert teams_snapshot() == before


def test_the_clubs_director_can_use_every_teams_correcting_url(client, team_event, director):
    from sessions.models import Match, TeamAdjustment

    client.force_login(director)
    posts, pages = teams_correcting_requests(team_event)

    assert all(client.get(url).status_code == 200 for url in pages)
    statuses = [client.post(url, data).status_code for url, data in posts]

    assert all(status == 302 for status in statuses), statuses
    assert list(team_event.teams.values_list("name", flat=True)) == ["Renamed", "Team 2", "Team 3", "Team 4"]
    assert sorted(set(team_event.matches.values_list("round", flat=True))) == [1, 2]
    edited = team_event.matches.get(round=2)
    assert (edited.first_board, edited.boards) == (9, 5)
    assert not Match.objects.filter(status="average").exists()
    assert list(TeamAdjustment.objects.values_list("vp", flat=True)) == [-5]
