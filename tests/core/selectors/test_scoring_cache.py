"""session_score and sessions_scores through the cache: once per revision, never stale,
never inside a writer's transaction; after a change of lines only its boards scored again."""

import dataclasses
import pickle

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from sessions.models import Pair, Result, Session
from sessions.core.selectors import kept_scores, scoring
from sessions.core.selectors.scoring import scores_from_cache, session_score, sessions_scores
from sessions.pairs.services.results import result_correct, result_record
from tests.factories import make_session


@pytest.fixture
def entered(session) -> Session:
    for ns, ew, text in (("2NS", "3EW", "4S N +1"), ("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    return Session.objects.select_related("event").get(pk=session.pk)


def ns_points(scored, ns_number: int):
    line = next(r for r in scored.results if r.ns_pair.number == ns_number)
    return scored.scored_line(line).ns_points


def test_a_revision_is_scored_once(entered, django_assert_num_queries):
    with scores_from_cache():
        first = session_score(session=entered)
        with django_assert_num_queries(0):
            again = session_score(session=entered)
    assert again.session is entered  # the caller's session object, not the cached one
    assert again.result == first.result


def test_a_correction_is_scored_afresh(entered, django_assert_num_queries):
    with scores_from_cache():
        assert ns_points(session_score(session=entered), 1) == 2
        line = Result.objects.get(board__session=entered, ns_pair__number=1)
        result_correct(result=line, text="4S N +2", version=line.version)  # the top now
        fresh = Session.objects.select_related("event").get(pk=entered.pk)
        with django_assert_num_queries(2):  # its lines, its pairs: a new revision
            scored = session_score(session=fresh)
        assert ns_points(scored, 1) == 4


def test_outside_the_block_nothing_is_cached(entered, django_assert_num_queries):
    session_score(session=entered)
    with django_assert_num_queries(2):
        session_score(session=entered)


def test_a_writers_transaction_never_reads_or_fills_the_cache(entered, django_assert_num_queries):
    with scores_from_cache(), transaction.atomic():
        session_score(session=entered)
        with django_assert_num_queries(2):
            session_score(session=entered)
    with scores_from_cache(), django_assert_num_queries(2):
        session_score(session=entered)  # nothing was kept from inside the transaction


def test_many_sessions_read_only_those_not_cached(entered, event, django_assert_num_queries):
    other = Session.objects.select_related("event").get(pk=make_session(event).pk)
    with scores_from_cache():
        session_score(session=entered)
        with django_assert_num_queries(2):  # the other's results and pairs only
            scored = sessions_scores(sessions=[entered, other])
        with django_assert_num_queries(0):
            again = sessions_scores(sessions=[entered, other])
    assert set(scored) == set(again) == {entered.pk, other.pk}
    assert ns_points(again[entered.pk], 2) == 4


# --- kept figures brought up to date: every write, then the next read ---------------------

from tests.core.services.test_revisions import WRITES, played  # noqa: E402,F401  (the writes and their session)


def fresh(pk: int) -> Session:
    return Session.objects.select_related("event").get(pk=pk)


def figures(scored) -> tuple:
    pairs = {key: (pair.pk, pair.player_1_id, pair.player_2_id, str(pair)) for key, pair in scored.pairs.items()}
    return scored.result, scored.line_ids, pairs, scored.note


@pytest.mark.parametrize(("prepare", "write"), WRITES.values(), ids=WRITES.keys())
def test_after_every_write_the_kept_figures_equal_the_session_scored_afresh(played, prepare, write):  # noqa: F811
    prepared = prepare(fresh(played.pk))
    with scores_from_cache():
        session_score(session=fresh(played.pk))  # kept: the base the next read starts from
    write(fresh(played.pk), prepared)
    if not Session.objects.filter(pk=played.pk).exists():
        return
    with scores_from_cache():
        kept = session_score(session=fresh(played.pk))
    assert figures(kept) == figures(session_score(session=fresh(played.pk)))


def spy_on_rescoring(monkeypatch) -> list[set[int]]:
    """The boards each call of rescore_boards was given."""
    calls: list[set[int]] = []
    real = scoring.rescore_boards

    def spy(previous, session_input, boards):
        calls.append(set(boards))
        return real(previous, session_input, boards)

    monkeypatch.setattr(scoring, "rescore_boards", spy)
    return calls


def test_a_correction_reads_and_scores_only_its_board(entered, django_assert_num_queries, monkeypatch):
    board_2 = entered.boards.get(number=2)
    section = entered.sections.get()
    result_record(board=board_2, section=section, ns_pair="1NS", ew_pair="1EW", text="3NT S =")
    with scores_from_cache():
        session_score(session=fresh(entered.pk))
        line = Result.objects.get(board__session=entered, board__number=1, ns_pair__number=1)
        result_correct(result=line, text="4S N +2", version=line.version)
        rescored = spy_on_rescoring(monkeypatch)
        corrected = fresh(entered.pk)
        with django_assert_num_queries(2):  # the change log since, the lines of board 1
            scored = session_score(session=corrected)
    assert rescored == [{1}]
    assert ns_points(scored, 1) == 4
    assert figures(scored) == figures(session_score(session=fresh(entered.pk)))


def test_a_send_waiting_for_ew_changes_no_figure_and_scores_nothing(entered, django_assert_num_queries, monkeypatch):
    with scores_from_cache():
        before = session_score(session=fresh(entered.pk))
        Session.objects.filter(pk=entered.pk).update(revision=F("revision") + 1)  # as a lines-only bump
        rescored = spy_on_rescoring(monkeypatch)
        bumped = fresh(entered.pk)
        with django_assert_num_queries(1):  # the change log: nothing since
            after = session_score(session=bumped)
    assert rescored == []
    assert after.result is before.result


def test_another_process_without_the_figures_scores_the_session_whole(entered, django_assert_num_queries):
    with scores_from_cache():
        session_score(session=fresh(entered.pk))
        again = fresh(entered.pk)
        kept_scores.forget_all()  # another process: only the shared cache has them
        with django_assert_num_queries(0):
            session_score(session=again)
        cache.clear()
        kept_scores.forget_all()  # nothing anywhere: the two queries
        with django_assert_num_queries(2):
            session_score(session=again)


def test_a_large_session_stays_in_the_process_that_scored_it(entered, monkeypatch):
    monkeypatch.setattr(kept_scores, "LINES_SHARED", 2)
    with scores_from_cache():
        session_score(session=fresh(entered.pk))
    assert kept_scores.kept_here(entered.pk) is not None
    assert kept_scores.kept_shared([entered.pk]) == {}  # 3 lines: more than it may pickle


def test_the_process_keeps_the_latest_sessions_up_to_its_lines(entered, event, monkeypatch):
    monkeypatch.setattr(kept_scores, "LINES_KEPT_HERE", 5)
    other = make_session(event)
    result_record(board=other.boards.get(number=1), section=other.sections.get(), ns_pair="1NS", ew_pair="1EW",
                  text="3NT S =")
    with scores_from_cache():
        session_score(session=fresh(entered.pk))  # 3 lines
        session_score(session=fresh(other.pk))  # 1 line: 4 kept
        session_score(session=fresh(make_session(event).pk))  # 0 lines
        third = make_session(event)
        for ns, ew in (("1NS", "1EW"), ("3NS", "2EW")):
            result_record(board=third.boards.get(number=1), section=third.sections.get(), ns_pair=ns, ew_pair=ew,
                          text="3NT S =")
        session_score(session=fresh(third.pk))  # 2 more: 6, the oldest (3 lines) let go
    assert kept_scores.kept_here(entered.pk) is None
    assert kept_scores.kept_here(other.pk) is not None and kept_scores.kept_here(third.pk) is not None


# --- what the pages read off the kept figures ------------------------------------------------


def test_the_pages_of_a_revision_share_the_indexes_built_from_its_figures(entered):
    with scores_from_cache():
        first = session_score(session=fresh(entered.pk))
        first.rankings()
        again = session_score(session=fresh(entered.pk))  # the next page: a copy of the kept score
    assert again is not first
    assert again.memo is first.memo and again.memo  # the rankings built once, for both


def test_a_page_may_sort_its_ranking_without_reordering_the_kept_one(entered):
    with scores_from_cache():
        field, rows = session_score(session=fresh(entered.pk)).rankings()[0]
        best_first = [row.pair.pk for row in rows]
        rows.reverse()  # as a page sorting by a column would
        again = dict(session_score(session=fresh(entered.pk)).rankings())[field]
    assert [row.pair.pk for row in again] == best_first


def test_a_correction_reads_its_standings_off_the_new_figures(entered):
    pair = Pair.objects.get(section__session=entered, number=1, direction="NS")
    with scores_from_cache():
        before, _ = session_score(session=fresh(entered.pk)).standing_of(pair)
        line = Result.objects.get(board__session=entered, ns_pair=pair)
        result_correct(result=line, text="4S N +2", version=line.version)  # the top now
        after = session_score(session=fresh(entered.pk)).standing_of(pair)
    assert before.place == "2"
    assert after == session_score(session=fresh(entered.pk)).standing_of(pair)
    assert after[0].place == "1"


def test_a_later_revision_starts_with_the_indexes_of_its_pairs_not_of_its_figures(entered):
    with scores_from_cache():
        before = session_score(session=fresh(entered.pk))
        ranked_before = before.rankings()
        of_pairs = (before.pairs_by_id, before.sections_by_id, before.pair_keys, before.section_letters,
                    before.engine_handicaps, before.engine_penalties(entered.event.method))
        line = Result.objects.get(board__session=entered, ns_pair__number=1)
        result_correct(result=line, text="4S N +2", version=line.version)  # the top now
        after = session_score(session=fresh(entered.pk))
    assert after.memo is not before.memo
    assert "_rankings" not in after.memo  # (the new figures' standings: built when read)
    assert (after.pairs_by_id, after.sections_by_id, after.pair_keys, after.section_letters,
            after.engine_handicaps, after.engine_penalties(entered.event.method)) == of_pairs
    assert after.pairs_by_id is of_pairs[0] and after.section_letters is of_pairs[3]
    assert after.rankings() != ranked_before
    assert figures(after) == figures(session_score(session=fresh(entered.pk)))


def test_the_shared_cache_carries_the_figures_not_their_indexes(entered):
    scored = session_score(session=entered)
    scored.rankings(), scored.board_line_ids(entered.boards.get(number=1))

    copy = pickle.loads(pickle.dumps(scored))

    assert copy.memo == {}
    assert figures(copy) == figures(scored)
    assert copy.rankings() == scored.rankings()


def _shares_from(kept: kept_scores.Kept, revisions: range) -> list[int]:
    """The revisions of ``revisions`` at which these figures, brought up to date, would be shared."""
    return [revision for revision in revisions
            if kept_scores._share_due(1, dataclasses.replace(kept, revision=revision))]


def test_a_larger_session_is_shared_again_after_more_revisions(entered, monkeypatch):
    monkeypatch.setattr(kept_scores, "SHARE_EVERY", 3)
    monkeypatch.setattr(kept_scores, "LINES_A_REVISION", 1)  # (every line counts: entered has 3)
    with scores_from_cache():
        scored = session_score(session=fresh(entered.pk))
    kept = kept_scores.Kept(1, 0, 0, scored)
    assert _shares_from(kept, range(0, 12)) == [0, 3, 6, 9]  # 3 lines: max(3, 3 // 1)

    monkeypatch.setattr(kept_scores, "SHARE_EVERY", 2)
    kept_scores.forget_all()
    assert _shares_from(kept, range(0, 12)) == [0, 3, 6, 9]  # the lines' interval, above the floor

    monkeypatch.setattr(kept_scores, "LINES_A_REVISION", 3)
    kept_scores.forget_all()
    assert _shares_from(kept, range(0, 12)) == [0, 2, 4, 6, 8, 10]  # 3 // 3 = 1: the floor


def _shared_revision(session_id: int) -> int | None:
    shared = kept_scores.kept_shared([session_id]).get(session_id)
    return shared.revision if shared else None


def test_figures_brought_up_to_date_here_are_shared_again_only_every_few_revisions(
        entered, django_assert_num_queries, monkeypatch):
    monkeypatch.setattr(kept_scores, "SHARE_EVERY", 3)
    with scores_from_cache():
        first = fresh(entered.pk)
        session_score(session=first)  # scored whole: shared
        assert _shared_revision(entered.pk) == first.revision
        line = Result.objects.get(board__session=entered, ns_pair__number=1)
        for text in ("4S N +2", "4S N =", "4S N +2"):
            line = result_correct(result=line, text=text, version=line.version).result
            session_score(session=fresh(entered.pk))  # brought up to date here, from its own copy
            corrected = fresh(entered.pk)
            expected = first.revision if corrected.revision - first.revision < 3 else corrected.revision
            assert _shared_revision(entered.pk) == expected

        line = result_correct(result=line, text="4S N -2", version=line.version).result
        kept_scores.forget_all()  # another process: the shared copy is some revisions behind
        behind = fresh(entered.pk)
        assert _shared_revision(entered.pk) < behind.revision
        with django_assert_num_queries(2):  # the change log since the shared copy, board 1's lines
            scored = session_score(session=behind)
    assert ns_points(scored, 1) == 0  # 4S N -2: the bottom of three
    assert figures(scored) == figures(session_score(session=fresh(entered.pk)))
