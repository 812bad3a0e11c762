"""Writing the pairs' handicaps (RULES 14): typed, or computed from the club's window or
the players' grades, kept on the pair and logged."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from sessions.formats import parse_results_file
from sessions.models import ChangeAction, Club, Event, Pair, Player, ResultChange, Session
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.clubs.services.handicaps import session_compute_handicaps, session_set_handicaps
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.exporters import EXPORTERS
from tests.factories import make_session

PLAYED = {"1NS": ["Ann Archer", "Bob Baker"], "1EW": ["Gil Grant", "Hal Hunt"]}


def pair(session: Session, label: str) -> Pair:
    return next(p for p in Pair.objects.filter(section__session=session) if p.label == label)


def handicaps(session: Session) -> dict[str, Decimal | None]:
    return {p.label: p.handicap for p in Pair.objects.filter(section__session=session)}


def finished(event: Event, ann_wins: bool = True) -> Session:
    """A final session: 1NS (Ann & Bob) 100 %, 1EW (Gil & Hal) 0 % (or the other way
    round, when not ``ann_wins``); the others unnamed."""
    session = make_session(event, pair_players=PLAYED)
    board, section = session.boards.get(number=1), session.sections.get()
    best, worst = ("4S N +1", "4S N -1") if ann_wins else ("4S N -1", "4S N +1")
    for ns, ew, text in (("1NS", "1EW", best), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", worst)):
        result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=text)
    return session_mark_final(session=session_publish(session=session))


@pytest.fixture
def tonight(event) -> Session:
    """After the final session: Ann with Gil, Bob with a newcomer."""
    finished(event)
    return make_session(event, pair_players={"1NS": ["Ann Archer", "Gil Grant"], "1EW": ["Bob Baker", "Nina New"]})


def source(event: Event, name: str) -> None:
    Club.objects.filter(pk=event.club_id).update(handicap_source=name)


def test_typed_handicaps_are_kept_and_logged(session, director):
    changes = session_set_handicaps(session=session, handicaps={pair(session, "1NS").pk: Decimal("-3.5"),
                                                                pair(session, "2EW").pk: Decimal("4")}, by=director)

    assert {(c.pair.label, c.before, c.after) for c in changes} == {("1NS", None, Decimal("-3.50")),
                                                                   ("2EW", None, Decimal("4.00"))}
    assert handicaps(session)["1NS"] == Decimal("-3.50")
    log = ResultChange.objects.get(session=session, subject="pair 1NS")
    assert (log.action, log.before_text, log.after_text, log.changed_by) == (ChangeAction.HANDICAP, "none", "-3.50",
                                                                               director)


def test_a_handicap_cleared_is_logged_and_an_unchanged_one_is_not(session):
    one = pair(session, "1NS").pk
    session_set_handicaps(session=session, handicaps={one: Decimal("2")})
    assert session_set_handicaps(session=session, handicaps={one: Decimal("2.00")}) == []
    session_set_handicaps(session=session, handicaps={one: None})
    assert handicaps(session)["1NS"] is None
    assert list(ResultChange.objects.filter(session=session).values_list("before_text", "after_text")) == [
        ("+2.00", "none"), ("none", "+2.00")]


@pytest.mark.parametrize(("typed", "message"), [
    (Decimal("25.01"), "between -25 and 25"), (Decimal("-40"), "between -25 and 25"),
    (Decimal("1.234"), "two decimals"), (Decimal("NaN"), "between -25 and 25"),
])
def test_a_handicap_out_of_range_refuses_the_whole_form(session, typed, message):
    with pytest.raises(ValidationError, match=message):
        session_set_handicaps(session=session, handicaps={pair(session, "1NS").pk: Decimal("1"),
                                                         pair(session, "2NS").pk: typed})
    assert set(handicaps(session).values()) == {None}
    assert not ResultChange.objects.filter(session=session, action=ChangeAction.HANDICAP).exists()


def test_a_pair_of_another_session_is_refused(session, event):
    other = make_session(event)
    with pytest.raises(ValidationError, match="not in this session"):
        session_set_handicaps(session=session, handicaps={pair(other, "1NS").pk: Decimal("1")})


def test_from_the_club_average_each_pair_gives_away_its_players_percentages(tonight):
    source(tonight.event, "average")
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    # Ann 100 %, Gil 0 %: 50 - 50 = 0. Bob 100 %, Nina none (50): 50 - 75 = -25. Unnamed pairs: none.
    assert handicaps(tonight) == {"1NS": Decimal("0.00"), "1EW": Decimal("-25.00"), "2NS": None, "3NS": None,
                                  "2EW": None, "3EW": None}


def test_from_the_club_rating_the_field_strength_evens_out_a_lopsided_session(tonight):
    # Ann and Bob's 100 % was against Gil and Hal, who average 0: rated 100 + 0 - 50 = 50,
    # and Gil and Hal 0 + 100 - 50 = 50. Every named player rates par: no handicap.
    source(tonight.event, "rating")
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    assert handicaps(tonight)["1NS"] == handicaps(tonight)["1EW"] == Decimal("0.00")


def test_from_national_grades_a_player_without_one_counts_as_par(tonight):
    Player.objects.filter(name="Ann Archer").update(grade=Decimal("60"))
    Player.objects.filter(name="Gil Grant").update(grade=Decimal("54"))
    Event.objects.filter(pk=tonight.event_id).update(handicap_source="grade")  # the event overrides the club
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    assert (handicaps(tonight)["1NS"], handicaps(tonight)["1EW"]) == (Decimal("-7.00"), Decimal("0.00"))


def test_a_session_after_it_does_not_move_the_handicaps_kept(tonight, event):
    source(event, "average")
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    finished(event, ann_wins=False)  # Ann and Bob lose: a computation now would give 1EW +0
    Player.objects.filter(name="Nina New").update(grade=Decimal("70"))
    assert handicaps(tonight)["1EW"] == Decimal("-25.00")


def test_the_window_holds_only_the_clubs_last_sessions_before_this_one(tonight, event):
    Club.objects.filter(pk=event.club_id).update(handicap_source="average", rating_sessions=1)
    later = finished(event, ann_wins=False)  # Ann and Bob 0 %, but played after tonight
    Session.objects.filter(pk=later.pk).update(date="2025-03-05")
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    assert handicaps(tonight)["1EW"] == Decimal("-25.00")  # from the first session only, as before


def test_a_final_session_keeps_its_handicaps(tonight, event):
    source(event, "average")
    final = finished(event)
    with pytest.raises(ValidationError, match="final"):
        session_compute_handicaps(session=Session.objects.get(pk=final.pk))
    assert set(handicaps(final).values()) == {None}


def test_typed_handicaps_have_nothing_to_compute_from(tonight):
    with pytest.raises(ValidationError, match="typed"):
        session_compute_handicaps(session=tonight)


def test_the_usebio_export_carries_the_handicap_computed_and_its_handicapped_percentage(tonight, event):
    Event.objects.filter(pk=event.pk).update(handicap="half", handicap_source="average")
    session_compute_handicaps(session=Session.objects.get(pk=tonight.pk))
    board, section = tonight.boards.get(number=1), tonight.sections.get()
    for ns, ew, text in (("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N =")):
        result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=text)
    parsed = parse_results_file(EXPORTERS["usebio"].render(Session.objects.get(pk=tonight.pk))[2])
    exported = {pair.number + pair.direction: pair for pair in parsed.pairs}
    # 1EW: Bob 100 %, Nina par: -25; every line a tie, 50 % scratch, 50 - 25 / 2 handicapped.
    assert exported["1EW"].handicap == Decimal("-25.00")
    assert exported["1EW"].published_percentage == Decimal("37.50")
    assert exported["2EW"].handicap is None
