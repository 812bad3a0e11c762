"""PBN reader: the real files read with their published figures, the syntax corners hold, bad input is refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sessions.formats.errors import FormatError
from sessions.formats.pbn import parse_pbn, parse_pbn_deals
from tests.formats.data_files import PBN_FILES, line_between, pbn_bytes


def read(name: str):
    return parse_pbn(pbn_bytes(name))


@pytest.mark.parametrize("name", PBN_FILES)
def test_every_file_reads_with_lines_naming_known_pairs(name):
    event = read(name)
    keys = {pair.key for pair in event.pairs}
    assert len(keys) == len(event.pairs)
    assert event.source_format == "pbn" and event.boards
    for board in event.boards:
        for line in board.lines:
            assert {line.ns_pair, line.ew_pair} <= keys


@pytest.mark.parametrize(
    "name, program, event_type, scoring, movement, pairs, boards, lines",
    [
        ("ruter_mp_pairs_sm2.pbn", "Ruter", "MatchPoints;MP1", "matchpoints", "howell", 36, 39, 702),
        # 16 boards played in two sections: one ParsedBoard per (section, board).
        ("ruter_cross_imp_league.pbn", "Ruter", "IMP;Cross2", "cross_imps", "mitchell", 24, 32, 192),
        # 7 pairs and the phantom; every board has 3 results and a bye.
        ("magiccontest_butler_median.pbn", "Magic Contest", "IMP;Butler-2;Mean", "butler", "howell", 8, 28, 112),
        ("bridgewebs_hands_welwyn.pbn", "Bridgewebs", "MP", "", "", 0, 24, 0),
    ],
)
def test_file_shape_matches_what_the_file_holds(name, program, event_type, scoring, movement, pairs, boards, lines):
    event = read(name)
    assert (event.program, event.event_type, event.scoring, event.movement) == (
        program,
        event_type,
        scoring,
        movement,
    )
    assert (len(event.pairs), len(event.boards)) == (pairs, boards)
    assert sum(len(board.lines) for board in event.boards) == lines


# -- Ruter matchpoints: one session of a two-session event, ISO-8859-1, CRLF ---------------


def test_ruter_session_figures_are_published_and_the_event_totals_kept():
    event = read("ruter_mp_pairs_sm2.pbn")
    pair = event.pairs_by_key()["A:2"]
    assert (pair.published_total, pair.published_percentage, pair.published_place) == (
        Decimal("805.0"),
        Decimal("60.71"),
        "3",
    )
    assert pair.boards_played == 39
    assert (pair.extra["TotalScoreMP"], pair.extra["TotalPercentage"], pair.extra["Rank"]) == ("2084.4", "58.39", "1")
    assert [player.name for player in pair.players] == ["Player 27733", "Player 34942"]
    assert [player.national_id for player in pair.players] == ["145982", "305256"]
    assert any("session" in note for note in event.notes)


@pytest.mark.parametrize("key", ["A:33", "A:8"])
def test_ruter_rank_tie_is_published_with_an_equals_sign(key):
    pair = read("ruter_mp_pairs_sm2.pbn").pairs_by_key()[key]
    assert (pair.published_total, pair.published_place) == (Decimal("701.0"), "10=")


def test_ruter_line_carries_matchpoints_percentages_table_and_round():
    line = line_between(read("ruter_mp_pairs_sm2.pbn"), 67, "A:7", "A:4")
    assert (line.contract, line.declarer, line.tricks, line.lead, line.score) == ("2DX", "E", 4, "ST", "1100")
    assert (line.published_ns_points, line.published_ew_points) == (Decimal("34"), Decimal("0"))
    assert (line.table, line.round) == (17, 1)
    assert line.extra == {"Percentage_NS": "100", "Percentage_EW": "0"}


def test_ruter_passed_out_line_scores_pass():
    line = line_between(read("ruter_mp_pairs_sm2.pbn"), 68, "A:1", "A:10")
    assert (line.contract, line.score, line.declarer, line.tricks) == ("Pass", "PASS", "", None)
    assert line.published_ns_points == Decimal("17")


def test_ruter_board_keeps_deal_dealer_vulnerability_and_optimum():
    board = read("ruter_mp_pairs_sm2.pbn").boards[0]
    assert (board.number, board.dealer, board.vulnerability) == (67, "S", "EW")
    assert board.deal == "S:T.AQJ72.K42.A854 832.K984.J97.J93 KJ964.5.AQT6.762 AQ75.T63.853.KQT"
    assert (board.extra["OptimumScore"], board.extra["OptimumContract"]) == ("NS 140", "3S S 9")
    assert board.extra["OptimumResultTable"].splitlines()[:2] == ["W S 3", "W H 4"]


def test_ruter_pairs_changing_direction_make_one_field():
    event = read("ruter_mp_pairs_sm2.pbn")
    assert all(pair.direction == "" for pair in event.pairs)
    assert event.pairs_by_key()["A:2"].extra["Direction"] == "N-S"


# -- Ruter cross-IMPs: two sections, Finnish "Ö-V" ------------------------------------------


def test_ruter_cross_imp_pairs_have_section_and_latin1_direction():
    pair = read("ruter_cross_imp_league.pbn").pairs_by_key()["B:305EW"]
    assert (pair.section, pair.number, pair.direction) == ("B", "305", "EW")
    assert (pair.published_total, pair.published_place) == (Decimal("4.14"), "1")
    assert pair.extra["Team"] == "HELP?"


def test_ruter_cross_imp_line_from_ew_score_is_turned_to_ns():
    event = read("ruter_cross_imp_league.pbn")
    ns_scored = line_between(event, 17, "A:5NS", "A:205EW")
    assert (ns_scored.score, ns_scored.published_ns_points, ns_scored.published_ew_points) == (
        "50",
        Decimal("112"),
        Decimal("-112"),
    )
    ew_scored = line_between(event, 17, "B:106NS", "B:306EW", section="B")
    assert (ew_scored.score, ew_scored.raw_score, ew_scored.published_ns_points) == ("-400", "EW 400", Decimal("-1"))


# -- Magic Contest Butler with a phantom ------------------------------------------------------


def test_magic_contest_line_carries_the_butler_datum():
    line = line_between(read("magiccontest_butler_median.pbn"), 1, "A:8", "A:1")
    assert (line.contract, line.declarer, line.tricks, line.lead, line.score) == ("2H", "W", 7, "SA", "50")
    assert (line.published_ns_points, line.published_datum) == (Decimal("3.0"), -50)


def test_magic_contest_bye_is_a_not_played_line_against_the_phantom():
    event = read("magiccontest_butler_median.pbn")
    phantom = event.pairs_by_key()["A:7"]
    assert phantom.is_phantom and phantom.players == []
    line = line_between(event, 1, "A:7", "A:3")
    assert (line.score, line.raw_score, line.contract) == ("NP", "Bye", "")
    assert (line.published_ns_points, line.published_ew_points) == (None, Decimal("0.2"))


def test_magic_contest_pair_totals_and_starting_direction():
    pair = read("magiccontest_butler_median.pbn").pairs_by_key()["A:5"]
    assert (pair.published_total, pair.published_place, pair.boards_played) == (Decimal("42.0"), "1", 28)
    assert (pair.direction, pair.extra["Direction"]) == ("", "N-S")


# -- Bridgewebs hand record -----------------------------------------------------------------------


def test_hand_record_boards_have_deals_and_double_dummy_data_but_no_lines():
    event = read("bridgewebs_hands_welwyn.pbn")
    board = event.boards[0]
    assert board.deal == "N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64"
    assert board.extra["DoubleDummyTricks"] == "98a79989794536445364"
    assert board.extra["OptimumResultTable"].splitlines()[0] == "N S 8"
    assert board.lines == [] and "ScoreTable" in board.extra


def test_vulnerability_all_reads_as_both():
    board = [b for b in read("bridgewebs_hands_welwyn.pbn").boards if b.number == 4][0]
    assert (board.dealer, board.vulnerability) == ("W", "Both")


def test_deals_of_a_hand_record_by_board_number():
    deals = parse_pbn_deals(pbn_bytes("bridgewebs_hands_welwyn.pbn"))
    assert sorted(deals) == list(range(1, 25))
    assert deals[2] == "E:J943.KQ64.532.J9 AKT5.A9532.9.K62 .87.AK874.AT8753 Q8762.JT.QJT6.Q4"


def test_games_without_a_deal_give_no_deals():
    assert parse_pbn_deals(pbn_bytes("magiccontest_butler_median.pbn")) == {}


# -- syntax corners on small files ------------------------------------------------------------


TOTALS = (
    '[TotalScoreTable "Rank\\1R;PairId\\1R;Direction\\3R;TotalMP\\4R;Names\\20L"]\n'
    '1 1 "NS" 3 "Ann Ash - Bo Birch"\n'
    '2 2 "EW" 1 "Cy Cole;Di Dunn"\n'
)


def game(board: int, event: str = "Club night", score_table: str | None = None, totals: str = "") -> str:
    score_table = score_table if score_table is not None else (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]\n'
        '1 2 4S N 10 420 - 2 0\n'
    )
    return (
        f'[Event "{event}"]\n[Site "Our club"]\n[Date "2025.01.02"]\n[Board "{board}"]\n'
        f'[Dealer "N"]\n[Vulnerable "None"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n'
        f'[Scoring "MP"]\n{totals}{score_table}'
    )


def pbn(*games: str, newline: str = "\n") -> bytes:
    return ("% PBN 2.1\n" + "\n".join(games)).replace("\n", newline).encode("utf-8")


def test_minimal_results_file_reads_with_crlf_and_utf8_names():
    event = parse_pbn(pbn(game(1, event="Café pairs", totals=TOTALS), newline="\r\n"))
    assert event.title == "Café pairs"
    assert [pair.key for pair in event.pairs] == ["A:1NS", "A:2EW"]
    assert [player.name for player in event.pairs[1].players] == ["Cy Cole", "Di Dunn"]
    (line,) = event.boards[0].lines
    assert (line.ns_pair, line.ew_pair, line.score, line.published_ns_points) == ("A:1NS", "A:2EW", "420", Decimal("2"))


def test_hash_repeats_the_previous_game_and_double_hash_sets_later_games():
    text = pbn(
        game(1, event="##Spring pairs", totals=TOTALS),
        game(2, event="#").replace('[Site "Our club"]\n', ""),
    )
    event = parse_pbn(text)
    assert event.title == "Spring pairs"
    (first, second) = event.boards
    assert second.number == 2 and second.lines[0].score == "420"


def test_table_cells_may_run_across_lines_and_commentary_is_skipped():
    score_table = (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"] ; Ruter-style\n'
        "{ a comment\n spanning lines }\n"
        "1 2 4S N 10\n420 - 2 0\n"
    )
    event = parse_pbn(pbn(game(1, totals=TOTALS, score_table=score_table)))
    assert event.boards[0].lines[0].tricks == 10


def test_latin1_file_is_decoded():
    data = pbn(game(1, event="Åbo", totals=TOTALS)).decode("utf-8").encode("iso-8859-1")
    assert parse_pbn(data).title == "Åbo"


def test_without_a_total_score_table_pairs_come_from_the_score_tables():
    event = parse_pbn(pbn(game(1)))
    assert [pair.key for pair in event.pairs] == ["A:1NS", "A:2EW"]
    assert all(pair.published_total is None for pair in event.pairs)


@pytest.mark.parametrize(
    "score_ns, score_ew, expected",
    [("-", "50", "-50"), ("A+", "-", "A6040"), ("-", "A+", "A4060"), ("A60A40", "-", "A6040"), ("NP", "NP", "NP")],
)
def test_score_cells_are_read_from_ns_side(score_ns, score_ew, expected):
    score_table = (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]\n'
        f"1 2 - - - {score_ns} {score_ew} 1 1\n"
    )
    event = parse_pbn(pbn(game(1, totals=TOTALS, score_table=score_table)))
    assert event.boards[0].lines[0].score == expected


def test_score_table_naming_an_unknown_pair_is_refused_with_its_line():
    score_table = (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]\n'
        "1 14 4S N 10 420 - 2 0\n"
    )
    # Line 14: "% PBN", eight tags, the TotalScoreTable tag and its two rows, the ScoreTable tag, then the row.
    expected = r"line 14: board 1 ScoreTable names pair 14 as EW, who is not in the TotalScoreTable"
    with pytest.raises(FormatError, match=expected):
        parse_pbn(pbn(game(1, totals=TOTALS, score_table=score_table)))


def test_ragged_table_is_refused():
    score_table = (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]\n'
        "1 2 4S N\n"
    )
    with pytest.raises(FormatError, match="not a whole number of rows of 9 columns"):
        parse_pbn(pbn(game(1, totals=TOTALS, score_table=score_table)))


def test_board_that_is_not_a_number_is_refused():
    with pytest.raises(FormatError, match="Board 'x' is not a number"):
        parse_pbn(pbn(game(1).replace('[Board "1"]', '[Board "x"]')))


def test_malformed_tag_is_refused_with_its_line():
    with pytest.raises(FormatError, match="line 2: malformed tag"):
        parse_pbn(b'[Event "x"]\n[Board "1\n')


@pytest.mark.parametrize("scoring", ["IMP", "Chicago", "Rubber"])
def test_unsupported_scoring_is_refused(scoring):
    with pytest.raises(FormatError, match=f"PBN scoring '{scoring}' is not supported"):
        parse_pbn(pbn(game(1).replace('[Scoring "MP"]', f'[Scoring "{scoring}"]')))


def test_teams_competition_is_refused():
    with pytest.raises(FormatError, match="competition 'Teams' is not supported"):
        parse_pbn(pbn(game(1).replace('[Scoring "MP"]', '[Scoring "MP"]\n[Competition "Teams"]')))


@pytest.mark.parametrize("data", [b"", b"  \r\n", b"just some words\nand more"])
def test_empty_or_tagless_input_is_refused(data):
    with pytest.raises(FormatError):
        parse_pbn(data)
