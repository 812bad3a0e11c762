"""rescore_boards: scoring only the boards a change touched gives score_session's result.

Sessions of one or two sections (a Mitchell's NS and EW fields, or one field across
the field) with played, weighted, artificial and not-played lines, under every method
and the conventions that change a line's figures; then a board is changed (a score
corrected, a line deleted or added, a line made not played or artificial) and the
result of rescoring that board must equal the whole session scored afresh, standings,
lines and top, and stay so over a second change.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.scoring.errors import ScoringError
from sessions.scoring.options import ImpTotal, LineDisplay, Method, ShortBoards
from sessions.scoring.scores import NOT_PLAYED, Artificial, Weighted
from sessions.scoring.session import Line, ScoringOptions, SessionInput, rescore_boards, score_session

SOME = settings(max_examples=120, deadline=None)
ns_scores = st.integers(min_value=-120, max_value=120).map(lambda tens: tens * 10)
AVERAGES = (Artificial(60, 40), Artificial(50, 50), Artificial(40, 60), Artificial(60, 60))


@st.composite
def line_scores(draw):
    kind = draw(st.sampled_from(["score"] * 8 + ["weighted", "artificial", "not played"]))
    if kind == "weighted":
        return Weighted(((Fraction(1, 2), draw(ns_scores)), (Fraction(1, 2), draw(ns_scores))))
    if kind == "artificial":
        return draw(st.sampled_from(AVERAGES))
    if kind == "not played":
        return NOT_PLAYED
    return draw(ns_scores)


@st.composite
def options(draw):
    method = draw(st.sampled_from(list(Method)))
    return ScoringOptions(
        method=method,
        across_field=draw(st.booleans()),
        line_display=draw(st.sampled_from(list(LineDisplay))),
        short_boards=draw(st.sampled_from(list(ShortBoards))),
        line_decimals=draw(st.sampled_from([None, 0, 1, 2])),
        imp_total=draw(st.sampled_from(list(ImpTotal))),
    )


def pairs_of(sections: int, tables: int) -> list[tuple[str, str, str]]:
    """(section, NS pair, EW pair key stem) per table."""
    return [(letter, f"{letter}:{table}NS", letter) for letter in "AB"[:sections] for table in range(1, tables + 1)]


@st.composite
def sessions(draw):
    sections = draw(st.integers(min_value=1, max_value=2))
    tables = draw(st.integers(min_value=2, max_value=5))
    boards = draw(st.integers(min_value=2, max_value=4))
    chosen = draw(options())
    lines = []
    for board in range(1, boards + 1):
        for letter in "AB"[:sections]:
            for table in range(1, tables + 1):
                if draw(st.integers(min_value=0, max_value=9)) == 0:
                    continue  # a table that did not get to the board: no line at all
                ew = (table + board) % tables + 1  # each EW pair meets the board once
                lines.append(Line(board, f"{letter}:{table}NS", f"{letter}:{ew}EW", draw(line_scores()), letter))
    fields = {}
    for letter in "AB"[:sections]:
        for table in range(1, tables + 1):
            for direction in ("NS", "EW"):
                fields[f"{letter}:{table}{direction}"] = direction if chosen.across_field else f"{letter}{direction}"
    return SessionInput(lines=tuple(lines), fields=fields, options=chosen), tables, boards


@st.composite
def changes(draw, session_and_tables):
    """A change to one board's lines: (the session with it, the board)."""
    session, tables, boards = session_and_tables
    lines = list(session.lines)
    board = draw(st.integers(min_value=1, max_value=boards))
    on_board = [index for index, line in enumerate(lines) if line.board == board]
    what = draw(st.sampled_from(["correct", "delete", "add", "correct"]))
    if what == "correct" and on_board:
        index = draw(st.sampled_from(on_board))
        lines[index] = Line(board, lines[index].ns_pair, lines[index].ew_pair, draw(line_scores()), lines[index].section)
    elif what == "delete" and on_board:
        del lines[draw(st.sampled_from(on_board))]
    else:  # a line for a table that has none on this board, in the engine's order (by board)
        taken = {lines[index].ns_pair for index in on_board}
        free = [pair for pair in session.fields if pair.endswith("NS") and pair not in taken]
        if free:
            ns = draw(st.sampled_from(free))
            letter, table = ns[0], int(ns[2:-2])
            line = Line(board, ns, f"{letter}:{(table + board) % tables + 1}EW", draw(line_scores()), letter)
            where = max(on_board) + 1 if on_board else sum(1 for other in lines if other.board < board)
            lines.insert(where, line)
    return SessionInput(lines=tuple(lines), fields=session.fields, options=session.options), board


def score_or_refusal(session):
    try:
        return score_session(session)
    except ScoringError as error:
        return str(error)


@SOME
@given(st.data())
def test_rescoring_a_changed_board_equals_scoring_the_whole_session(data):
    session_and_tables = data.draw(sessions())
    previous = score_or_refusal(session_and_tables[0])
    if isinstance(previous, str):
        return  # (an artificial 60/60 under IMPs: refused either way)
    for _ in range(2):  # a change, then another on the rescored result
        changed, board = data.draw(changes(session_and_tables))
        expected = score_or_refusal(changed)
        if isinstance(expected, str):
            with pytest.raises(ScoringError):
                rescore_boards(previous, changed, {board})
            return
        rescored = rescore_boards(previous, changed, {board})
        assert rescored == expected
        assert rescored.workings.tallies.keys() == expected.workings.tallies.keys()
        previous, session_and_tables = rescored, (changed, *session_and_tables[1:])


def test_a_change_that_moves_the_full_top_scores_everything_again():
    """Board 2 gains a fourth result: the usual number of results, so every board's
    factoring changes; the figures of board 1 are not those kept from before."""
    fields = {f"{table}{d}": d for table in range(1, 5) for d in ("NS", "EW")}
    lines = [Line(1, f"{t}NS", f"{t}EW", 10 * t) for t in range(1, 4)] + [
        Line(2, f"{t}NS", f"{t}EW", -10 * t) for t in range(1, 4)
    ]
    options = ScoringOptions(short_boards=ShortBoards.NEUBERG)
    before = score_session(SessionInput(lines=tuple(lines), fields=fields, options=options))
    after_lines = (*lines, Line(2, "4NS", "4EW", 420))
    after = SessionInput(lines=after_lines, fields=fields, options=options)
    rescored = rescore_boards(before, after, {2})
    assert rescored == score_session(after)
    assert rescored.top == 6 and before.top == 4
    assert rescored.lines[0].ns_points != before.lines[0].ns_points  # board 1 factored to the new top


def test_lines_changed_outside_the_boards_named_are_refused():
    fields = {"1NS": "NS", "1EW": "EW", "2NS": "NS", "2EW": "EW"}
    lines = (Line(1, "1NS", "1EW", 100), Line(1, "2NS", "2EW", 50), Line(2, "1NS", "2EW", 0))
    before = score_session(SessionInput(lines=lines, fields=fields))
    after = SessionInput(lines=lines[:2], fields=fields)  # board 2's line gone, board 1 named
    with pytest.raises(ScoringError, match="outside the boards named"):
        rescore_boards(before, after, {1})


def test_a_first_line_on_a_new_board_rescales_every_fields_scaled_imp_totals():
    """IMPs scaled to the session's boards (no board count given): a board played for the
    first time, in section A, scales section B's totals too, though none of its pairs played it."""
    fields = {f"{letter}:{table}{d}": f"{letter}{d}" for letter in "AB" for table in (1, 2, 3) for d in ("NS", "EW")}
    scores = {1: (420, -50, 170), 2: (-100, 620, 140)}
    lines = [Line(board, f"{letter}:{table}NS", f"{letter}:{table}EW", scores[board][table - 1], letter)
             for board in (1, 2) for letter in "AB" for table in (1, 2, 3)]
    options = ScoringOptions(method=Method.CROSS_IMPS, imp_total=ImpTotal.SCALED)
    before = score_session(SessionInput(lines=tuple(lines), fields=fields, options=options))
    after = SessionInput(lines=(*lines, Line(3, "A:1NS", "A:1EW", 420, "A")), fields=fields, options=options)

    rescored = rescore_boards(before, after, {3})

    assert rescored == score_session(after)
    assert rescored.standings["BNS"] != before.standings["BNS"]  # (scaled to 3 boards, not 2)


def test_a_line_on_a_board_both_sections_play_re_ranks_only_its_own_sections_fields():
    """Scored within each section: a line of section A's on a shared board changes no
    figure of section B's, whose standings are kept as they were, not ranked again."""
    fields = {f"{letter}:{table}{d}": f"{letter}{d}" for letter in "AB" for table in (1, 2, 3) for d in ("NS", "EW")}
    played = [(1, "A", 1), (1, "A", 2), (1, "B", 1), (1, "B", 2), (1, "B", 3)] + [
        (2, letter, table) for letter in "AB" for table in (1, 2, 3)]  # A's table 3 has yet to play board 1
    lines = [Line(board, f"{letter}:{table}NS", f"{letter}:{table}EW", 10 * table * board, letter)
             for board, letter, table in played]
    before = score_session(SessionInput(lines=tuple(lines), fields=fields))
    after = SessionInput(lines=(*lines[:2], Line(1, "A:3NS", "A:3EW", 50, "A"), *lines[2:]), fields=fields)

    rescored = rescore_boards(before, after, {1})

    assert rescored == score_session(after)
    assert rescored.standings["BNS"] is before.standings["BNS"]
    assert rescored.standings["BEW"] is before.standings["BEW"]
    assert rescored.standings["ANS"] != before.standings["ANS"]
