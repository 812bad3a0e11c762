"""The repair pages as a director uses them (the access walk covers the other personas).

The conftest session: a 3-table Mitchell, 2 boards a round. Board 1 is played by 1NS v
1EW (round 1, table 1), 3NS v 2EW (round 2, table 3) and 2NS v 3EW (round 3, table 2).
"""

from django.urls import reverse

from sessions.models import ChangeAction, Pair, Player, Result, ResultChange, Seating, Session
from sessions.movements import mitchell
from sessions.clubs.services.players import player_add
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_session


def record(session, number, ns, ew, text):
    board = session.boards.get(number=number)
    return result_record(board=board, section=session.sections.get(), ns_pair=ns, ew_pair=ew, text=text).result


def seating_post(rounds: dict[int, tuple[str, str, str]]) -> dict[str, str]:
    data = {}
    for table, (ns, ew, boards) in rounds.items():
        data |= {f"t{table}_ns": ns, f"t{table}_ew": ew, f"t{table}_boards": boards}
    return data


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_seating_page_shows_the_round_as_the_movement_has_it(logged_in, session):
    html = logged_in.get(reverse("sessions:director_round_seating", args=[session.pk, "A", 2])).content.decode()

    # Round 2: 1NS v 3EW at table 1 with boards 3 and 4.
    assert '<option value="3EW" selected>' in html
    assert 'value="3, 4"' in html
    assert "Turn table 1 round (1NS v 3EW)" in html


def test_a_round_reseated_in_the_page_moves_its_lines(logged_in, event):
    # A 5-table Mitchell of 1 board a round: in round 2, 5EW (table 1, board 2) and 1EW
    # (table 2, board 3) swapped tables; the lines were entered as the movement said.
    session = make_session(event, mitchell(5, 1, rounds=3))
    on_2 = record(session, 2, "1NS", "5EW", "NS 110")
    on_3 = record(session, 3, "2NS", "1EW", "NS 200")
    url = reverse("sessions:director_round_seating", args=[session.pk, "A", 2])

    response = logged_in.post(url, seating_post({
        1: ("1NS", "1EW", "2"), 2: ("2NS", "5EW", "3"), 3: ("3NS", "2EW", "4"), 4: ("4NS", "3EW", "5"),
        5: ("5NS", "4EW", "1"),
    }), follow=True)

    assert "Round 2, table 1, 2 changed; 2 lines moved. The session is re-scored." in messages_of(response)
    assert Result.objects.get(pk=on_2.pk).ew_pair.label == "1EW"
    assert Result.objects.get(pk=on_3.pk).ew_pair.label == "5EW"
    log = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()
    assert "section A, round 2, table 1" in log and "1NS v 5EW, boards 2" in log


def test_a_refused_round_says_why_and_changes_nothing(logged_in, session):
    url = reverse("sessions:director_round_seating", args=[session.pk, "A", 2])

    response = logged_in.post(url, seating_post({
        1: ("1NS", "3EW", "3-4"), 2: ("2NS", "3EW", "5-6"), 3: ("3NS", "2EW", "1-2"),
    }))

    assert response.status_code == 200
    assert "3EW cannot sit at two tables at once" in response.content.decode()
    assert Seating.objects.get(section__session=session, round=2, table=2).ew_pair.label == "1EW"


def test_boards_that_are_not_a_list_are_refused_on_the_field(logged_in, session):
    url = reverse("sessions:director_round_seating", args=[session.pk, "A", 1])

    response = logged_in.post(url, seating_post({
        1: ("1NS", "1EW", "one and two"), 2: ("2NS", "2EW", "3-4"), 3: ("3NS", "3EW", "5-6"),
    }))

    assert "is not a list of boards" in response.content.decode()
    assert Seating.objects.get(section__session=session, round=1, table=1).boards == [1, 2]


def test_turning_a_table_round_from_the_page(logged_in, session):
    line = record(session, 1, "1NS", "1EW", "4S N +1")

    response = logged_in.post(reverse("sessions:director_table_turn", args=[session.pk, "A", 1, 1]), follow=True)

    assert "Round 1, table 1 changed; 1 line moved." in " ".join(messages_of(response))
    assert Result.objects.get(pk=line.pk).ns_pair.label == "1EW"


def test_a_line_is_reassigned_from_its_page(logged_in, session):
    wrong = record(session, 1, "3NS", "2EW", "4S N -1")
    url = reverse("sessions:director_line_pairs", args=[session.pk, wrong.pk])
    assert "Turn the line round (2EW sat NS)" in logged_in.get(url).content.decode()

    response = logged_in.post(url, {"ns_pair": "2NS", "ew_pair": "3EW", "version": 1, "action": "reassign"})

    assert response.status_code == 302
    assert (Result.objects.get(pk=wrong.pk).ns_pair.label, Result.objects.get(pk=wrong.pk).table) == ("2NS", 2)
    log = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()
    assert "Pairs changed" in log and "3NS v 2EW: 4S N -1" in log


def test_a_stale_line_page_is_refused(logged_in, session):
    line = record(session, 1, "3NS", "2EW", "4S N -1")

    response = logged_in.post(reverse("sessions:director_line_pairs", args=[session.pk, line.pk]),
                              {"version": 7, "action": "turn"})

    assert "Not saved" in response.content.decode()
    assert Result.objects.get(pk=line.pk).ns_pair.label == "3NS"


def test_late_and_leaving_pairs_from_the_repair_page(logged_in, session):
    pair = Pair.objects.get(section__session=session, number=3, direction="EW")
    url = reverse("sessions:director_repair", args=[session.pk])
    assert "Withdraw 3EW" in logged_in.get(url).content.decode()

    left = logged_in.post(reverse("sessions:director_pair_withdraw", args=[session.pk, pair.pk]),
                          {"from_round": 1}, follow=True)
    late = logged_in.post(reverse("sessions:director_pair_late", args=[session.pk, "A"]), {"from_round": 2}, follow=True)

    assert "Pair 3EW is out of the movement: its opponents sit out." in messages_of(left)
    assert any("Pair 3EW plays from round 2" in message for message in messages_of(late))
    assert Seating.objects.filter(section__session=session, ew_pair__number=3, ew_pair__direction="EW").count() == 2


def test_the_late_pair_form_names_its_players_from_the_club_list_or_new(logged_in, event):
    session = make_session(event, mitchell(3, 2, phantom="3EW"))
    member = player_add(club=event.club, name="Ann Member")
    page = logged_in.get(reverse("sessions:director_repair", args=[session.pk])).content.decode()
    assert 'name="player_1_name"' in page and 'name="player_2_number"' in page
    assert '<option value="Ann Member">' in page  # the club's list, to choose from

    late = logged_in.post(reverse("sessions:director_pair_late", args=[session.pk, "A"]), {
        "from_round": 2, "player_1_name": "Ann Member", "player_1_number": "",
        "player_2_name": "Carl New", "player_2_number": "77",
    }, follow=True)

    pair = Pair.objects.get(section__session=session, number=3, direction="EW")
    assert (pair.player_1, pair.player_2.name, pair.player_2.national_number) == (member, "Carl New", "77")
    assert "Pair 3EW plays from round 2: Ann Member & Carl New; print its card." in messages_of(late)


def test_editing_a_session_is_saved_and_logged(logged_in, session):
    response = logged_in.post(reverse("sessions:director_session_edit", args=[session.pk]),
                              {"name": "Club night", "date": "2025-04-01"})

    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.name, str(session.date)) == ("Club night", "2025-04-01")
    log = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()
    assert "Settings" in log and "Club night, 2025-04-01" in log


def test_a_movement_change_with_lines_says_what_would_happen(logged_in, session):
    record(session, 1, "1NS", "1EW", "4S N +1")
    url = reverse("sessions:director_session_movement", args=[session.pk])
    edit = logged_in.get(reverse("sessions:director_session_edit", args=[session.pk])).content.decode()
    assert "the movement cannot be replaced (the lines would be orphaned)" in edit

    response = logged_in.post(url, {"pairs": 8, "movement": 0})

    assert "a new movement would orphan them" in " ".join(messages_of(response))
    session.refresh_from_db()
    assert session.tables == 3


def test_a_movement_change_without_lines(logged_in, session):
    url = reverse("sessions:director_session_movement", args=[session.pk])
    assert "8-pair complete Howell on 4 tables" in logged_in.get(url, {"pairs": 8}).content.decode()

    response = logged_in.post(url, {"pairs": 8, "movement": 0})

    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.movement_kind, session.tables) == ("howell", 4)


def test_a_movement_change_dropping_players_asks_first(logged_in, session):
    pair_1ns = Pair.objects.get(section__session=session, number=1, direction="NS")
    pair_1ns.player_1 = player_add(club=session.event.club, name="Ann Smith")
    pair_1ns.save()
    url = reverse("sessions:director_session_movement", args=[session.pk])

    # An 8-pair Howell has pairs 1 to 8: 1NS and its player would go.
    asked = logged_in.post(url, {"pairs": 8, "movement": 0})

    html = asked.content.decode()
    assert "their players would leave the session" in html and "1NS: Ann Smith" in html
    assert 'name="drop_players"' in html
    session.refresh_from_db()
    assert session.movement_kind == "mitchell"

    confirmed = logged_in.post(url, {"pairs": 8, "movement": 0, "drop_players": "1"})

    assert confirmed.status_code == 302
    session.refresh_from_db()
    assert session.movement_kind == "howell"


def test_the_movement_page_has_no_sections_box_and_ignores_one(logged_in, event):
    two = make_session(event, mitchell(3, 2), sections=("A", "B"))
    url = reverse("sessions:director_session_movement", args=[two.pk])

    html = logged_in.get(url, {"pairs": 8, "sections": 2}).content.decode()

    assert 'name="sections"' not in html and "Pairs in each section" in html
    assert "Every section plays the new movement" in html
    assert "8-pair complete Howell on 4 tables" in html  # 8 pairs a section, not 4
    logged_in.post(url, {"pairs": 8, "sections": 2, "movement": 0})
    assert Pair.objects.filter(section__session=two).count() == 16


def test_deleting_asks_first_then_deletes(logged_in, session):
    url = reverse("sessions:director_session_delete", args=[session.pk])

    assert "It cannot be undone" in logged_in.get(url).content.decode()
    assert Session.objects.filter(pk=session.pk).exists()
    response = logged_in.post(url)

    assert response.url == reverse("sessions:director_dashboard")
    assert not Session.objects.filter(pk=session.pk).exists()


def test_a_published_session_is_not_deleted(logged_in, session):
    record(session, 1, "1NS", "1EW", "4S N +1")
    session_publish(session=session)

    response = logged_in.post(reverse("sessions:director_session_delete", args=[session.pk]), follow=True)

    assert "unpublish it before deleting it" in " ".join(messages_of(response))
    assert Session.objects.filter(pk=session.pk).exists()


def test_a_new_session_from_an_event_page_preselects_that_event(logged_in, club, event):
    other = event.__class__.objects.create(club=club, name="Another event")
    event_page = logged_in.get(reverse("sessions:director_event", args=[other.pk])).content.decode()
    new = reverse("sessions:director_session_new", args=[club.slug])
    assert f"{new}?event={other.pk}" in event_page

    step_2 = logged_in.get(new, {"event": other.pk, "pairs": 6}).content.decode()
    step_3 = logged_in.get(new, {"event": other.pk, "pairs": 6, "movement": 0}).content.decode()

    assert f'name="event" value="{other.pk}"' in step_2
    assert f'<option value="{other.pk}" selected>Another event</option>' in step_3
    assert 'type="date"' in step_3


def test_the_pairs_page_warns_of_a_player_entered_twice(logged_in, session):
    pairs = reverse("sessions:director_pairs", args=[session.pk])
    ids = {pair.label: pair.pk for pair in Pair.objects.filter(section__session=session)}

    saved = logged_in.post(pairs, {f"p{ids['1NS']}_1_name": "Ann Smith", f"p{ids['2EW']}_2_name": "ann smith"},
                           follow=True)

    assert any("is entered twice in this session" in message for message in messages_of(saved))
    assert "is entered twice in this session (pairs 1NS, 2EW)" in logged_in.get(pairs).content.decode()


def test_the_change_log_lists_publication(logged_in, session):
    record(session, 1, "1NS", "1EW", "4S N +1")
    logged_in.post(reverse("sessions:director_publish", args=[session.pk]), {"confirm": "1"})

    log = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()

    assert ResultChange.objects.filter(action=ChangeAction.PUBLISHED).count() == 1
    assert "Published" in log


def test_a_player_is_edited_and_merged_from_the_players_page(logged_in, club):
    ann = player_add(club=club, name="Ann Smith")
    anne = player_add(club=club, name="Anne Smith", national_number="77")
    assert reverse("sessions:director_player", args=[club.slug, ann.pk]) in logged_in.get(
        reverse("sessions:director_players", args=[club.slug])
    ).content.decode()

    logged_in.post(reverse("sessions:director_player", args=[club.slug, ann.pk]), {"name": "Ann Smith-Jones"})
    merged = logged_in.post(reverse("sessions:director_player_merge", args=[club.slug, ann.pk]),
                            {"merge": anne.pk}, follow=True)

    assert "Anne Smith merged into Ann Smith-Jones: 0 pairs moved." in messages_of(merged)
    assert list(Player.objects.filter(club=club).values_list("name", "national_number")) == [("Ann Smith-Jones", "77")]


def test_another_clubs_player_cannot_be_merged_in(logged_in, club, outsider):
    ann = player_add(club=club, name="Ann Smith")
    theirs = player_add(club=outsider.directed_clubs.get(), name="Ann Smith")

    response = logged_in.post(reverse("sessions:director_player_merge", args=[club.slug, ann.pk]),
                              {"merge": theirs.pk}, follow=True)

    assert "Nothing changed" in " ".join(messages_of(response))
    assert Player.objects.filter(pk=theirs.pk).exists()


def test_a_new_session_with_a_player_typed_twice_is_created_with_a_warning(logged_in, club, event):
    url = reverse("sessions:director_session_new", args=[club.slug])

    response = logged_in.post(url, {
        "pairs": 6, "movement": 1, "event": event.pk, "name": "Evening", "date": "2025-05-06",
        "pair_1NS_1": "Ann Smith", "pair_2NS_1": "Ann Smith",
    }, follow=True)

    assert any("Ann Smith is entered twice in this session" in message for message in messages_of(response))
    assert Session.objects.filter(name="Evening").exists()
