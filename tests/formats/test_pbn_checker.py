"""The PBN 2.1 export-format checker finds what the standard forbids (it can fail)."""

from __future__ import annotations

import pytest

from tests.formats.pbn_checker import export_problems

GOOD = [
    "% PBN 2.1", "% EXPORT",
    '[Event "Club night"]', '[Site "Town"]', '[Date "2025.03.03"]', '[Board "1"]',
    '[West ""]', '[North ""]', '[East ""]', '[South ""]', '[Dealer "N"]', '[Vulnerable "None"]',
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]',
    '[Scoring "MatchPoints;MP1"]', '[Declarer "S"]', '[Contract "3NT"]', '[Result "9"]',
    '[Competition "Pairs"]',
    '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]',
    '1 2 3NTX S 9 550 -', '3 4 Pass - - 0 0',
    '[TotalScoreTable "Rank;PairId;Names"]', '1 1 "Ann Smith;Bob Jones"',
    "",
    '[Event "Club night"]', '[Site "Town"]', '[Date "2025.03.03"]', '[Board "2"]',
    '[West ""]', '[North ""]', '[East ""]', '[South ""]', '[Dealer "E"]', '[Vulnerable "NS"]',
    '[Deal ""]', '[Scoring "MatchPoints;MP1"]', '[Declarer ""]', '[Contract "Pass"]', '[Result ""]',
]


def pbn(lines: list[str]) -> bytes:
    return ("\r\n".join(lines) + "\r\n").encode("iso-8859-1")


def test_a_file_in_export_format_passes():
    assert export_problems(pbn(GOOD)) == []


def changed(old: str, new: str | None) -> list[str]:
    index = GOOD.index(old)
    return GOOD[:index] + ([] if new is None else [new]) + GOOD[index + 1:]


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (changed('[West ""]', None), "the mandatory tags"),
        (changed('[Deal ""]', None), "the mandatory tags"),
        (changed('[Board "2"]', '[Board ""]'), "Board ''"),
        (changed('[Contract "Pass"]', '[Contract "PASS"]'), "Contract 'PASS'"),
        (changed('[Contract "3NT"]', '[Contract "3N"]'), "Contract '3N'"),
        (changed('[Result "9"]', '[Result "14"]'), "Result '14'"),
        (changed('[Vulnerable "None"]', '[Vulnerable "Both"]'), "Vulnerable 'Both'"),
        (changed('[Date "2025.03.03"]', '[Date "03/03/2025"]'), "Date"),
        (changed('[Deal ""]', '[Deal "N:AKQJ.T98.765.432 - - -"]'), "Deal"),  # not from the dealer (E)
        (changed('3 4 Pass - - 0 0', '3 4 PASS - - 0 0'), "ScoreTable Contract 'PASS'"),
        (changed('3 4 Pass - - 0 0', '3 4 Pass - - 0'), "6 elements for 7 columns"),
        (changed('3 4 Pass - - 0 0', '3 4 Pass -  - 0 0'), "single spaces"),
        (changed('[Competition "Pairs"]', '[Competition  "Pairs"]'), "alone on its line"),
        (changed('[TotalScoreTable "Rank;PairId;Names"]', '[TotalScoreTable "Rank;Rank;Names"]'), "twice"),
        (changed('1 1 "Ann Smith;Bob Jones"', '1 1 "Ann Smith;Bob Jones"\r\n[Annotator "x"]'), "the standard's order"),
        (changed('[Event "Club night"]', '% <META name=X content="' + "x" * 240 + '">'), "characters with its CRLF"),
        (changed('[Site "Town"]', '[Site "T\town"]'), "control character"),
    ],
)
def test_each_rule_of_export_format_is_checked(lines, problem):
    assert any(problem in found for found in export_problems(pbn(lines)))


def test_bare_line_feeds_and_utf8_are_not_export_format():
    assert any("CRLF" in found for found in export_problems("\n".join(GOOD).encode()))
    utf8 = pbn(["% Content-type: text/pbn; charset=UTF-8", *GOOD])
    assert any("UTF-8" in found for found in export_problems(utf8))
