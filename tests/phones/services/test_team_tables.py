"""Teams table entry from the phones through the services: links per room, sends,
confirmations, the director's line winning, and the match's IMPs and VPs following."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import (
    EntryStatus, Match, MatchLine, MatchLineChange, MatchTableEntry, MatchTableLink, Room, TeamEvent,
)
from sessions.scoring.teams import victory_points
from sessions.teams.selectors.teams import team_event_score
from sessions.core.services.errors import EntryClosed
from sessions.phones.services.phone_links import phone_link_renew, phone_link_revoke
from sessions.phones.services.team_tables import (
    match_table_confirm,
    match_table_links_ensure,
    match_table_refuse,
    match_table_send,
)
from sessions.teams.services.teams import match_record_line, round_robin_schedule
from tests.factories import make_team_event, make_user

KEYS = iter(f"key-{n:012d}" for n in range(10_000))


def key() -> str:
    return next(KEYS)


@pytest.fixture
def match(club):
    """Round 1 of a 3-team round robin (one match and a bye), 2 boards a match, 20-VP scale."""
    event = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    round_robin_schedule(event=event)
    return event.matches.get(round=1, away__isnull=False)


@pytest.fixture
def rooms(match):
    links = match_table_links_ensure(event=match.event, round=1)
    return {link.room: link for link in links}


def play(link, board, text, lead=""):
    """NS send, EW confirm: the room's line as a phone enters it."""
    sent = key()
    outcome = match_table_send(link=link, board=board, text=text, lead=lead, client_key=sent)
    assert outcome.entry is not None, outcome
    return match_table_confirm(link=link, client_key=sent)


# --- links -------------------------------------------------------------------------------------


def test_each_match_of_the_round_gets_one_live_link_per_room_and_a_bye_none(match, rooms):
    assert set(rooms) == {Room.OPEN, Room.CLOSED}
    assert all(link.match_id == match.pk for link in rooms.values())
    again = match_table_links_ensure(event=match.event, round=1)
    assert {link.pk for link in again} == {link.pk for link in rooms.values()}


def test_a_round_without_a_match_at_the_tables_is_refused(match):
    with pytest.raises(ValidationError, match="round 9 has no match"):
        match_table_links_ensure(event=match.event, round=9)


def test_renewing_a_rooms_link_revokes_the_old_one(rooms):
    old = rooms[Room.OPEN]
    new = phone_link_renew(link=old)
    old.refresh_from_db()
    assert not old.live and new.live and new.token != old.token
    assert MatchTableLink.objects.filter(match=old.match, room=Room.OPEN, revoked_at__isnull=True).get() == new
    phone_link_revoke(link=new)
    assert not MatchTableLink.objects.filter(match=new.match, revoked_at__isnull=True, room=Room.OPEN).exists()


# --- sends and confirmations ----------------------------------------------------------------------


def test_a_confirmed_send_is_the_rooms_line_logged_as_the_rooms_phone(rooms, match):
    outcome = play(rooms[Room.CLOSED], 1, "4s n -1", "hk")

    line = MatchLine.objects.get()
    assert (line.room, line.text, line.lead, line.ns_score, line.version) == (Room.CLOSED, "4S N -1", "HK", -50, 1)
    assert outcome.entry.status == EntryStatus.CONFIRMED and outcome.stored == line
    change = MatchLineChange.objects.get()
    assert (change.action, change.after_text, change.via_room, change.author) == (
        "recorded", "4S N -1 lead HK", Room.CLOSED, "closed room phone")


def test_nothing_is_stored_before_ew_confirm_and_a_refusal_returns_the_line(rooms):
    sent = key()
    match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key=sent)
    assert not MatchLine.objects.exists()

    match_table_refuse(link=rooms[Room.OPEN], client_key=sent)

    assert MatchTableEntry.objects.get().status == EntryStatus.REFUSED
    with pytest.raises(ValidationError, match="refused or replaced"):
        match_table_confirm(link=rooms[Room.OPEN], client_key=sent)
    assert not MatchLine.objects.exists()
    play(rooms[Room.OPEN], 1, "4S N +1")
    assert MatchLine.objects.get().text == "4S N +1"


def test_a_repeated_send_and_confirmation_store_one_line(rooms):
    sent = key()
    for _ in range(3):
        match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key=sent)
    for _ in range(3):
        match_table_confirm(link=rooms[Room.OPEN], client_key=sent)

    assert MatchTableEntry.objects.count() == 1
    assert MatchLine.objects.count() == 1 and MatchLineChange.objects.count() == 1


def test_with_confirmation_off_a_send_is_recorded_at_once(rooms, match):
    match.event.table_confirmation = False
    match.event.save()
    link = MatchTableLink.objects.select_related("match__event").get(pk=rooms[Room.OPEN].pk)

    outcome = match_table_send(link=link, board=2, text="3NT S +1", client_key=key())

    assert outcome.entry.status == EntryStatus.CONFIRMED
    assert MatchLine.objects.get().ns_score == 630


def test_the_directors_line_wins_over_a_phones(rooms, match, director):
    sent = key()
    match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key=sent)
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N +2", by=director, version=0)

    outcome = match_table_confirm(link=rooms[Room.OPEN], client_key=sent)

    assert outcome.entry.status == EntryStatus.SUPERSEDED
    assert MatchLine.objects.get().text == "4S N +2"
    # A later send for that board is answered with the stored line and stores nothing.
    again = match_table_send(link=rooms[Room.OPEN], board=1, text="4S N -1", client_key=key())
    assert again.entry is None and again.stored.text == "4S N +2"
    assert MatchTableEntry.objects.count() == 1


def test_a_board_outside_the_match_or_an_impossible_line_is_refused(rooms):
    with pytest.raises(ValidationError, match="boards 1 to 2, not 3"):
        match_table_send(link=rooms[Room.OPEN], board=3, text="4S N =", client_key=key())
    with pytest.raises(ValidationError):
        match_table_send(link=rooms[Room.OPEN], board=1, text="8S N =", client_key=key())
    with pytest.raises(ValidationError, match="no valid key"):
        match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key="short")
    assert not MatchTableEntry.objects.exists()


def test_a_rooms_key_opens_nothing_in_the_other_room(rooms):
    sent = key()
    match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key=sent)

    with pytest.raises(ValidationError, match="never sent from this table"):
        match_table_confirm(link=rooms[Room.CLOSED], client_key=sent)
    with pytest.raises(ValidationError, match="belongs to another table"):
        match_table_send(link=rooms[Room.CLOSED], board=1, text="4S N =", client_key=sent)
    assert not MatchLine.objects.exists()


def test_a_declarer_swap_asks_for_a_second_look_first(rooms):
    play(rooms[Room.OPEN], 1, "4S N =")

    first = match_table_send(link=rooms[Room.CLOSED], board=1, text="4S E =", client_key=key())
    assert first.needs_check and "check the declarer" in first.warnings[0]
    assert MatchLine.objects.count() == 1

    sent = key()
    match_table_send(link=rooms[Room.CLOSED], board=1, text="4S E =", client_key=sent, accept_warnings=True)
    match_table_confirm(link=rooms[Room.CLOSED], client_key=sent)
    assert MatchLine.objects.count() == 2


def test_the_matchs_imps_and_vps_follow_the_phones_lines(rooms, match):
    play(rooms[Room.OPEN], 1, "4S N =")  # home NS +420
    play(rooms[Room.CLOSED], 1, "4S N -1")  # away NS -50: home +470, 10 IMPs
    play(rooms[Room.OPEN], 2, "3NT S +1")  # vulnerable NS +630
    play(rooms[Room.CLOSED], 2, "3NT S =")  # away NS +600: home +30, 1 IMP

    scored = next(m for m in team_event_score(match.event).matches if m.match.pk == match.pk)

    assert scored.complete
    assert (scored.outcome.home_points, scored.outcome.away_points) == (11, 0)
    assert (scored.home_vp, scored.away_vp) == tuple(Fraction(vp) for vp in victory_points(11, "20"))


def test_a_revoked_link_is_no_longer_found_by_its_token(rooms):
    from sessions.phones.selectors.team_tables import match_table_link_by_token

    link = rooms[Room.OPEN]
    assert match_table_link_by_token(link.token) == link
    phone_link_revoke(link=link)
    assert match_table_link_by_token(link.token) is None


def test_a_director_is_named_in_the_log(match):
    user = make_user("td")
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N =", by=user)
    assert MatchLineChange.objects.get().author == "td"


# --- once the event is final ---------------------------------------------------------------------


def published_and_final(event) -> None:
    """Every match given its IMP totals (a final event need not have its boards), published, final."""
    from sessions.teams.services.teams import match_set_totals, team_event_mark_final, team_event_publish

    for match in event.matches.filter(away__isnull=False):
        match_set_totals(match=match, home_imps=Decimal(10), away_imps=Decimal(4))
    team_event_publish(event=event)
    team_event_mark_final(event=TeamEvent.objects.get(pk=event.pk))


def test_once_the_event_is_final_a_rooms_phone_can_neither_send_nor_confirm_nor_refuse(rooms, match):
    waiting = match_table_send(link=rooms[Room.OPEN], board=1, text="4S N =", client_key=key()).entry
    published_and_final(match.event)

    with pytest.raises(EntryClosed, match="marked this event final"):
        match_table_send(link=rooms[Room.OPEN], board=2, text="3NT S =", client_key=key())
    with pytest.raises(EntryClosed):
        match_table_confirm(link=rooms[Room.OPEN], client_key=waiting.client_key)
    with pytest.raises(EntryClosed):
        match_table_refuse(link=rooms[Room.OPEN], client_key=waiting.client_key)

    assert not MatchLine.objects.exists()
    assert list(MatchTableEntry.objects.values_list("board", "status")) == [(1, EntryStatus.PENDING)]
    assert Match.objects.get(pk=match.pk).home_imps == 10  # the totals stand


def test_reopening_the_event_opens_the_rooms_phones_again(rooms, match):
    from sessions.teams.services.teams import team_event_reopen

    published_and_final(match.event)
    team_event_reopen(event=TeamEvent.objects.get(pk=match.event_id))

    play(rooms[Room.OPEN], 1, "4S N =")

    assert MatchLine.objects.get().text == "4S N ="


def test_an_event_marked_final_while_a_send_is_on_its_way_stores_nothing(rooms, match, monkeypatch):
    """The check before the write passed; the director marks final before the write ends:
    the check at the end, under the event's lock, undoes it."""
    from django.utils import timezone

    from sessions.phones.services import team_tables

    match.event.table_confirmation = False
    match.event.save()
    real_check = team_tables.match_check_line

    def check_then_final(**kwargs):
        TeamEvent.objects.filter(pk=match.event_id).update(final_at=timezone.now())
        return real_check(**kwargs)

    monkeypatch.setattr(team_tables, "match_check_line", check_then_final)
    link = MatchTableLink.objects.select_related("match__event").get(pk=rooms[Room.OPEN].pk)

    with pytest.raises(EntryClosed):
        match_table_send(link=link, board=1, text="4S N =", client_key=key())
    assert not MatchLine.objects.exists() and not MatchTableEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_the_directors_deletion_of_the_rooms_line_gets_an_answer(club, monkeypatch):
    """PostgreSQL once failed the confirmation at COMMIT (its entry named the deleted line:
    the line's lock went with the savepoint of the refused recording): a 500."""
    from sessions.teams.services.teams import match_delete_line
    from tests.phones.services.test_tables import _confirm_racing_delete

    event = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    round_robin_schedule(event=event)
    match = event.matches.get(round=1, away__isnull=False)
    link = next(link for link in match_table_links_ensure(event=event, round=1) if link.room == Room.OPEN)
    sent = match_table_send(link=link, board=1, text="4S N =", client_key=key()).entry
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N +1", version=0)

    outcomes = _confirm_racing_delete(
        MatchTableEntry,
        lambda: match_table_confirm(link=link, client_key=sent.client_key),
        lambda: match_delete_line(match=match, board=1, room=Room.OPEN, version=1),
        monkeypatch,
    )

    assert outcomes == [None, None]  # the confirmation first, then the deletion: no error for either
    entry = MatchTableEntry.objects.get()
    assert (entry.status, entry.line) == (EntryStatus.SUPERSEDED, None)  # the director's line stood, then went
    assert not MatchLine.objects.exists()
