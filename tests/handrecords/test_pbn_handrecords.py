"""Hand-record PBN files: reading real and awkward files, writing for dealing machines."""

import re
from datetime import date

import pytest

from sessions.formats.errors import FormatError
from sessions.handrecords.deals import parse_deal
from sessions.handrecords.generate import random_deals
from sessions.handrecords.pbn_handrecords import read_hand_records, write_hand_records
from tests.handrecords.bridgewebs import WELWYN, published_boards

WELWYN_1 = "N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64"
WELWYN_2 = "E:J943.KQ64.532.J9 AKT5.A9532.9.K62 .87.AK874.AT8753 Q8762.JT.QJT6.Q4"
# RULES.md section 1: dealer N/E/S/W for n mod 4 = 1/2/3/0; vulnerability every 16 boards.
SIXTEEN_BOARDS = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "All"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "All"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "All"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "All"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]  # fmt: skip


def _game(board: int | str, deal: str, **tags: str) -> str:
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    return "\r\n".join([*lines, f'[Board "{board}"]', f'[Deal "{deal}"]']) + "\r\n"


def test_the_bridgewebs_hand_record_gives_its_24_deals():
    deals = read_hand_records(WELWYN.read_bytes())
    published = published_boards()
    assert list(deals) == list(range(1, 25))
    assert deals == {board.number: parse_deal(board.deal) for board in published}
    assert deals[1].to_pbn() == WELWYN_1
    assert deals[2].to_pbn(first="E") == WELWYN_2


def test_written_deals_read_back_the_same():
    deals = dict(enumerate(random_deals(27, seed=11), start=1))
    assert read_hand_records(write_hand_records(deals, event="Tuesday Pairs")) == deals


def test_boards_need_not_start_at_one_or_be_consecutive():
    deals = dict(zip([17, 18, 40], random_deals(3, seed=2), strict=True))
    assert read_hand_records(write_hand_records(deals)) == deals


@pytest.mark.parametrize(("board", "dealer", "vulnerable"), SIXTEEN_BOARDS)
def test_each_written_board_carries_its_dealer_and_vulnerability(board, dealer, vulnerable):
    deal = random_deals(1, seed=board)[0]
    for number in (board, board + 16):
        text = write_hand_records({number: deal}).decode("iso-8859-1")
        assert f'[Dealer "{dealer}"]' in text
        assert f'[Vulnerable "{vulnerable}"]' in text
        # Export format: the deal is written from the dealer.
        assert f'[Deal "{deal.to_pbn(first=dealer)}"]' in text


def test_a_written_game_has_the_dealing_machine_tags_in_order():
    text = write_hand_records({1: parse_deal(WELWYN_1)}, event="Wed", site="Welwyn", date=date(2025, 4, 9))
    tags = re.findall(r'^\[(\w+) "([^"]*)"\]', text.decode("iso-8859-1"), re.MULTILINE)
    assert tags == [
        ("Event", "Wed"), ("Site", "Welwyn"), ("Date", "2025.04.09"), ("Board", "1"),
        ("Dealer", "N"), ("Vulnerable", "None"), ("Deal", WELWYN_1),
    ]  # fmt: skip


def test_written_lines_end_in_crlf_and_the_charset_is_declared():
    data = write_hand_records({1: parse_deal(WELWYN_1)}, site="Café Bridge")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n% Content-type: text/pbn; charset=ISO-8859-1\r\n")
    assert "Café".encode("iso-8859-1") in data


def test_text_outside_latin1_is_written_as_declared_utf8():
    data = write_hand_records({1: parse_deal(WELWYN_1)}, event="Łódź Pairs ♠")
    assert b"charset=UTF-8" in data
    assert '[Event "Łódź Pairs ♠"]'.encode() in data


def test_quotes_backslashes_and_line_breaks_in_names_cannot_break_a_tag():
    data = write_hand_records({1: parse_deal(WELWYN_1)}, event='The "Big" \\ Pairs\r\n[Deal "x"]')
    lines = data.decode("iso-8859-1").split("\r\n")
    assert '[Event "The \\"Big\\" \\\\ Pairs [Deal \\"x\\"]"]' in lines
    assert read_hand_records(data) == {1: parse_deal(WELWYN_1)}


def test_an_unknown_date_is_written_as_the_standard_says():
    assert b'[Date "????.??.??"]' in write_hand_records({1: parse_deal(WELWYN_1)})


def test_iso_8859_1_and_utf8_files_are_both_read():
    body = _game(1, WELWYN_1, Event="Café")
    assert read_hand_records(body.encode("iso-8859-1")) == {1: parse_deal(WELWYN_1)}
    assert read_hand_records(body.encode("utf-8")) == {1: parse_deal(WELWYN_1)}
    assert read_hand_records(body) == {1: parse_deal(WELWYN_1)}


def test_a_hash_repeats_the_previous_games_values():
    text = _game(1, WELWYN_1, Event="Pairs", Site="Club") + "\r\n" + _game(2, WELWYN_2, Event="#", Site="#")
    assert read_hand_records(text) == {1: parse_deal(WELWYN_1), 2: parse_deal(WELWYN_2)}


def test_a_file_without_deals_is_refused():
    with pytest.raises(FormatError, match="holds no deals"):
        read_hand_records('[Event "Pairs"]\r\n[Board "1"]\r\n')


def test_a_bad_deal_is_refused_naming_its_board():
    short_west = WELWYN_1[:-1]  # West's 4 of clubs lost
    text = _game(1, WELWYN_2) + "\r\n" + _game(3, short_west)
    with pytest.raises(FormatError, match="^board 3: West has 12 cards; the 4 of clubs is missing$"):
        read_hand_records(text)


def test_the_same_deal_on_two_boards_is_refused():
    text = _game(1, WELWYN_1) + "\r\n" + _game(5, WELWYN_1)
    with pytest.raises(FormatError, match="boards 1 and 5 have the same deal"):
        read_hand_records(text)


def test_board_zero_is_refused():
    with pytest.raises(FormatError, match="board 0: boards are numbered from 1"):
        read_hand_records(_game(0, WELWYN_1))
