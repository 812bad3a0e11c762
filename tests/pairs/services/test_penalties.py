"""Procedural penalties (Law 90, RULES 13): given and taken back by the director, each
logged; they lower the penalised pair's total only; a final session's master points follow."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, MasterPointAward, Pair, ProceduralPenalty, Session
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_update
from sessions.pairs.services.penalties import penalty_give, penalty_remove
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_mark_final, session_publish
from sessions.transfer.services.importing import results_import
from tests.formats.data_files import usebio_bytes


@pytest.fixture
def played(session):
    """Board 1 played at every table: NS 1 top (+450), NS 3 middle, NS 2 bottom; a top of 4."""
    for ns, ew, text in (("1NS", "1EW", "4S N +1"), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    return session


def pair(session: Session, label: str) -> Pair:
    return next(pair for pair in Pair.objects.filter(section__session=session) if pair.label == label)


def standing(session: Session, label: str):
    scored = session_score(session=Session.objects.get(pk=session.pk))
    return scored.result.standing(f"A:{label}")


def totals(session: Session) -> dict[str, object]:
    scored = session_score(session=Session.objects.get(pk=session.pk))
    return {s.pair: (s.total, s.percentage) for ranked in scored.result.standings.values() for s in ranked}


def test_a_penalty_lowers_the_pairs_total_only_and_is_logged(played, director):
    before = totals(played)
    penalty = penalty_give(pair=pair(played, "1NS"), amount=Decimal("25"), penalty_unit="TOP",
                           reason="  slow   play ", board=1, by=director)
    after = totals(played)
    assert after["A:1NS"][0] == before["A:1NS"][0] - 1  # 25% of a top of 4
    assert standing(played, "1NS").penalty == 1
    assert {key: value for key, value in after.items() if key != "A:1NS"} == {
        key: value for key, value in before.items() if key != "A:1NS"}
    entry = played.changes.get(action=ChangeAction.PENALTY)
    assert (entry.subject, entry.before_text, entry.after_text, entry.changed_by) == (
        "pair 1NS", "", "25% of a top on board 1: slow play", director)
    assert penalty.text == "25% of a top on board 1: slow play"


def test_taking_a_penalty_back_restores_the_total_and_is_logged(played):
    before = totals(played)
    penalty = penalty_give(pair=pair(played, "2EW"), amount=Decimal("1.5"), penalty_unit="MP", reason="late")
    penalty_remove(penalty=penalty)
    assert totals(played) == before
    entries = list(played.changes.filter(action=ChangeAction.PENALTY).order_by("pk"))
    assert [(e.before_text, e.after_text) for e in entries] == [("", "1.5 matchpoints: late"),
                                                                 ("1.5 matchpoints: late", "")]
    with pytest.raises(ValidationError, match="already taken back"):
        penalty_remove(penalty=penalty)


@pytest.mark.parametrize("amount, unit, board, reason, field", [
    (Decimal("3"), "IMP", None, "phone rang", "penalty_unit"),  # a matchpointed session takes no IMPs
    (Decimal("1"), "MP", 99, "phone rang", "board"),
    (Decimal("1"), "MP", None, "   ", "reason"),
    (Decimal("0"), "MP", None, "phone rang", "amount"),
    (Decimal("150"), "TOP", None, "phone rang", "amount"),
])
def test_a_bad_penalty_is_refused_with_nothing_changed(played, amount, unit, board, reason, field):
    revision = Session.objects.get(pk=played.pk).revision
    with pytest.raises(ValidationError) as refused:
        penalty_give(pair=pair(played, "1NS"), amount=amount, penalty_unit=unit, reason=reason, board=board)
    assert field in refused.value.message_dict
    assert not ProceduralPenalty.objects.exists() and not played.changes.filter(action=ChangeAction.PENALTY).exists()
    assert Session.objects.get(pk=played.pk).revision == revision


def test_an_imp_session_takes_imps(played):
    event_update(event=played.event, method="butler")
    before = totals(played)["A:3EW"][0]
    penalty_give(pair=pair(played, "3EW"), amount=Decimal("3"), penalty_unit="IMP", reason="mobile phone")
    assert totals(played)["A:3EW"][0] == before - 3


def test_a_penalty_in_matchpoints_counts_for_nothing_once_the_event_scores_imps(played):
    penalty_give(pair=pair(played, "1NS"), amount=Decimal("1"), penalty_unit="MP", reason="late")
    event_update(event=played.event, method="butler")
    assert standing(played, "1NS").penalty == 0


def test_a_penalty_on_a_published_session_marks_it_amended(played):
    session_publish(session=played)
    penalty_give(pair=pair(played, "1NS"), amount=Decimal("1"), penalty_unit="MP", reason="late")
    assert Session.objects.get(pk=played.pk).amended_at is not None


def test_a_penalty_on_a_final_session_awards_its_master_points_again(club):
    club.masterpoint_federation = "ebu"
    club.save()
    name = "uk_00202711+000827.xml"  # pair 5 won 36
    session = results_import(club=club, data=usebio_bytes(name), filename=name).session
    session_mark_final(session=session)
    winners = Pair.objects.get(section__session=session, number=5)
    assert MasterPointAward.objects.get(pair=winners).points == 36
    penalty_give(pair=winners, amount=Decimal("100"), penalty_unit="MP", reason="repeated slow play")
    assert MasterPointAward.objects.filter(pair=winners, points=36).exists() is False
    entry = session.changes.filter(action=ChangeAction.MASTERPOINTS).order_by("pk").last()
    assert "5 36 (" in entry.before_text
