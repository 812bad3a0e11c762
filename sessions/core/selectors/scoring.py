"""Scoring a session from the database, through the kept figures when a read allows.

One job: the entry points that score. ``session_score`` reads the session's lines and
pairs (two queries, whatever the size: sessions.core.selectors.engine_input), has the
engine score them and returns a ScoredSession (sessions.core.selectors.scored);
``sessions_scores`` does the same for many sessions in the same two queries;
``score_loaded`` scores rows the caller loaded.

Inside ``scores_from_cache()`` (the public pages and the director's standings, on a
GET) both keep each session's latest scored figures (sessions.core.selectors.kept_scores)
under its setup token and revision (sessions.core.services.revisions): every page of one
revision scores it once; a write of lines (logged, board by board, in the change log)
makes the next read score those boards again and keep the rest; any other write draws a
new setup token, and the next read scores the session whole. Never inside a writer's
transaction: its revision is not committed yet (a rollback would leave figures under a
number the next writer takes), and a session loaded before its own bump carries the
old number.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

from django.db import connection
from django.db.models import OuterRef, Subquery

from sessions.models import Pair, Result, ResultChange, Session
from sessions.core.performance import garbage_collection_paused
from sessions.core.query_speed import Prepared
from sessions.scoring.session import SessionInput, rescore_boards, score_session

from sessions.core.selectors import kept_scores
from sessions.core.selectors.engine_input import (
    STORED_LINE_FIELDS, StoredLine, apply_deal_era, engine_input, engine_lines, in_session_era, lines_in_order,
    pair_sections, pairs_in_order, results_in_order, scoring_options, share_pairs,
    stored_line,
)
# (Figures kept in the shared cache before the read model had a module of its own were
# pickled as sessions.core.selectors.scoring.ScoredSession: this import still finds them.)
from sessions.core.selectors.scored import ScoredSession

_scores_cached: ContextVar[bool] = ContextVar("scores_cached", default=False)


@contextmanager
def scores_from_cache() -> Iterator[None]:
    """Score through the cache in this block: a read whose sessions were loaded in it."""
    token = _scores_cached.set(True)
    try:
        yield
    finally:
        _scores_cached.reset(token)


def _cache_usable() -> bool:
    # A test's own transaction is no writer's: tests see the cache as a request does.
    outside_writes = all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)
    return _scores_cached.get() and outside_writes


def _as_loaded(cached: ScoredSession, session: Session) -> ScoredSession:
    """A kept score with the caller's session object (the same row, the same revision),
    sharing the kept one's indexes (its ``memo``: see ``_indexed``)."""
    return dataclasses.replace(cached, session=session)


def session_score(*, session: Session) -> ScoredSession:
    """Score the session as entered so far (two queries, plus the event if not loaded).

    A read: it lives with the selectors, which build every page on it; nothing is stored
    in the database. The lines are read as rows (StoredLine), not as Results: see
    ScoredSession. Inside ``scores_from_cache`` the latest scored figures of the session
    are kept (sessions.core.selectors.kept_scores): a revision already scored costs no query,
    and after lines changed only the boards the change log names are read and scored
    again (two queries), the other boards' figures kept.
    """
    if not _cache_usable():
        return _scored_whole(session).scored
    token, revision = session.setup_token, session.revision
    here = kept_scores.kept_here(session.pk)
    if here is not None and here.serves(token, revision):
        return _as_loaded(here.scored, session)
    shared = None
    if here is None or not here.base_for(token):
        shared = kept_scores.kept_shared([session.pk]).get(session.pk)
        if shared is not None and shared.serves(token, revision):
            kept_scores.keep(session.pk, shared, share=False)
            return _as_loaded(shared.scored, session)
    base = next((kept for kept in (here, shared) if kept is not None and kept.base_for(token)), None)
    with garbage_collection_paused():  # (the kept figures are many objects and no cycles)
        kept = _brought_up_to_date(session, base) if base is not None else None
    if kept is None:
        kept = _scored_whole(session)
    kept_scores.keep(session.pk, kept)
    return _as_loaded(kept.scored, session)


def _scored_whole(session: Session) -> kept_scores.Kept:
    """Every line read and scored; with the change log's last entry, read first (so the
    lines are at least as new as it: a later change is read again next time)."""
    last_change = ResultChange.objects.filter(session=OuterRef("section__session")).order_by("-pk").values("pk")[:1]
    with garbage_collection_paused():  # a large session is many objects and no cycles
        # (the last change rides on the pairs' query: no query more)
        pairs = list(pairs_in_order().filter(section__session=session).annotate(last_change=Subquery(last_change)))
        rows = lines_in_order().filter(board__session=session).values_list(*STORED_LINE_FIELDS)
        lines = in_session_era([StoredLine(*row) for row in rows], session)
        scored = _score_lines(session=session, pairs=pairs, lines=lines)
    last = (pairs[0].last_change or 0) if pairs else None
    return kept_scores.Kept(session.setup_token, session.revision, last, scored)


# A phone's post reads them (its answer is scored through the kept figures): their SQL
# prepared (sessions/core/query_speed.py).
_CHANGES_SINCE: Prepared[tuple] = Prepared(
    lambda session, last: ResultChange.objects.filter(session=session, pk__gt=last).values_list("pk", "board__number"),
    name="the change log since the kept figures",
)
_BOARDS_LINES: Prepared[tuple] = Prepared(
    lambda session, numbers: lines_in_order().filter(board__session=session, board__number__in=numbers)
    .values_list(*STORED_LINE_FIELDS),
    name="the lines of a few boards, to score again",
)


def _brought_up_to_date(session: Session, base: kept_scores.Kept) -> kept_scores.Kept | None:
    """``base`` (an earlier revision of the same setup) with the boards the change log
    names since then read and scored again; None when the change reaches further (the
    session itself changed, or its sections play their own deals)."""
    previous: ScoredSession = base.scored
    changes = _CHANGES_SINCE(session=session.pk, last=base.last_change)
    numbers = {number for _, number in changes}
    if None in numbers or previous.note or previous.result.workings is None or (
        len(previous.line_boards) != len(previous.line_ids) or len(previous.line_rounds) != len(previous.line_ids)
    ):
        return None
    last = max((pk for pk, _ in changes), default=base.last_change)
    if not numbers:  # (a phone's send waiting for EW: no line changed)
        return replace(base, revision=session.revision, last_change=last)
    rows = _BOARDS_LINES(session=session.pk, numbers=tuple(sorted(numbers)))
    fresh = in_session_era([StoredLine(*row) for row in rows], session)
    keys, letters = previous.pair_keys, previous.section_letters
    if any(line.board_section_id is not None for line in fresh):
        return None  # a section's own deal: across the field may no longer hold
    if any(line.ns_pair_id not in keys or line.ew_pair_id not in keys for line in fresh):
        return None  # (a pair the kept figures do not know: its setup changed)
    kept = [
        (pk, board_id, scored.line, round)
        for pk, board_id, scored, round in zip(
            previous.line_ids, previous.line_boards, previous.result.lines, previous.line_rounds
        )
        if scored.line.board not in numbers
    ]
    renewed = zip((line.pk for line in fresh), (line.board_id for line in fresh), engine_lines(fresh, keys, letters),
                  (line.round for line in fresh))
    # Both in the engine's order, which is by board first: one stable sort merges them.
    merged = sorted(kept + list(renewed), key=lambda item: item[2].board)
    session_input = SessionInput(
        lines=tuple(line for _, _, line, _ in merged), fields=previous.result.workings.fields,
        options=scoring_options(session.event), handicaps=previous.engine_handicaps,
        penalties=previous.engine_penalties(session.event.method),
    )
    result = rescore_boards(previous.result, session_input, numbers)
    scored = ScoredSession(session=session, result=result, line_ids=tuple(pk for pk, _, _, _ in merged),
                           pairs=previous.pairs, note=previous.note,
                           line_boards=tuple(board_id for _, board_id, _, _ in merged),
                           line_rounds=tuple(round for _, _, _, round in merged), memo=previous.pairs_memo())
    return kept_scores.Kept(session.setup_token, session.revision, last, scored)


def sessions_scores(*, sessions: Sequence[Session]) -> dict[int, ScoredSession]:
    """Score several sessions (by id) in two queries however many they are: a player's
    history reads every session the player played at once, then scores each in Python.

    Each session's ``event`` must be loaded by the caller. Inside ``scores_from_cache``
    the sessions whose figures are kept come from there (one round trip to the shared
    cache), a session kept at an earlier revision is brought up to date as session_score
    does, and the two queries read only the others (none when every one was kept).
    """
    by_id = {session.pk: session for session in sessions}
    use_cache = _cache_usable()
    found = _kept_scores(by_id) if use_cache else {}
    missing = [pk for pk in by_id if pk not in found]
    if not missing:
        return {pk: found[pk] for pk in by_id}
    pairs: dict[int, list[Pair]] = defaultdict(list)
    results: dict[int, list[Result]] = defaultdict(list)
    # Both queries keep session_score's order, and grouping keeps it within each session.
    for pair in pairs_in_order().filter(section__session__in=missing):
        pairs[pair.section.session_id].append(pair)
    for result in results_in_order().filter(board__session__in=missing):
        results[result.board.session_id].append(result)
    scored = {pk: score_loaded(session=by_id[pk], pairs=pairs[pk], results=results[pk]) for pk in missing}
    if use_cache:
        kept_scores.keep_many({
            pk: kept_scores.Kept(by_id[pk].setup_token, by_id[pk].revision, None, replace(scored[pk], loaded=None))
            for pk in missing
        })
    return {pk: found.get(pk) or scored[pk] for pk in by_id}


def _kept_scores(by_id: Mapping[int, Session]) -> dict[int, ScoredSession]:
    """The sessions whose figures are kept at their revision, or can be brought up to it."""
    found: dict[int, ScoredSession] = {}
    elsewhere = []
    for pk, session in by_id.items():
        here = kept_scores.kept_here(pk)
        if here is not None and here.serves(session.setup_token, session.revision):
            found[pk] = _as_loaded(here.scored, session)
        elif here is not None and here.base_for(session.setup_token):
            found[pk] = session_score(session=session)  # brought up to date
        else:
            elsewhere.append(pk)
    for pk, kept in kept_scores.kept_shared(elsewhere).items():
        if kept.serves(by_id[pk].setup_token, by_id[pk].revision):
            kept_scores.keep(pk, kept, share=False)
            found[pk] = _as_loaded(kept.scored, by_id[pk])
    return found


def score_loaded(*, session: Session, pairs: Sequence[Pair], results: Sequence[Result]) -> ScoredSession:
    """Score a session from its pairs and results already loaded (no query): what
    session_score does after its two queries, and what an event's combined ranking and a
    player's history do for each session after loading every session's rows at once.

    ``pairs`` with their sections and players; ``results`` with their boards, in the
    order session_score loads them (``_pairs`` and ``_results``).
    """
    pairs = list(pairs)
    results = tuple(results)
    share_pairs(results, {pair.pk: pair for pair in pairs}, pair_sections(pairs))
    apply_deal_era(results, session.event.deal_era)
    return _score_lines(session=session, pairs=pairs, lines=[stored_line(result) for result in results], loaded=results)


def _score_lines(
    *, session: Session, pairs: Sequence[Pair], lines: Sequence[StoredLine], loaded: tuple[Result, ...] | None = None
) -> ScoredSession:
    built = engine_input(session=session, pairs=pairs, lines=lines)
    return ScoredSession(
        session=session, result=score_session(built.session_input), line_ids=tuple(line.pk for line in lines),
        pairs=built.pairs, note=built.note, loaded=loaded,
        line_boards=tuple(line.board_id for line in lines), line_rounds=tuple(line.round for line in lines),
    )
