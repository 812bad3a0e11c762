"""Hostile and damaged results files, each made from a real one, with the reason it is refused.

Shared by the reader tests (tests/formats/test_hostile_files.py), the upload page and
import command tests (tests/transfer/test_hostile_uploads.py). Every file here crashed
the readers (a 500 on the upload page, a traceback from the command) or was read
without a word before the readers were hardened; each must now be refused with the
plain message given, nothing stored.
"""

from __future__ import annotations

import re

from tests.formats.data_files import pbn_bytes, usebio_bytes

#: Small real files: Magic Contest's Butler PBN (ISO-8859-1, 28 boards) and Compscore3's
#: matchpointed Mitchell (USEBIO).
PBN = "magiccontest_butler_median.pbn"
USEBIO = "cobalt_mp_pairs_mitchell_03.xml"
FIVE_THOUSAND_DIGITS = "9" * 5000


def pbn() -> bytes:
    return pbn_bytes(PBN)


def pbn_utf8() -> bytes:
    """The Magic Contest file re-encoded as UTF-8 (it reads the same)."""
    return pbn().decode("iso-8859-1").encode("utf-8")


def usebio() -> bytes:
    return usebio_bytes(USEBIO)


def once(data: bytes, old: bytes, new: bytes) -> bytes:
    """``data`` with the first ``old`` replaced, which must be there."""
    assert old in data, old
    return data.replace(old, new, 1)


def pbn_board(number: str) -> bytes:
    return once(pbn_utf8(), b'[Board "1"]', f'[Board "{number}"]'.encode())


def usebio_board(number: str) -> bytes:
    return once(usebio(), b"<BOARD_NUMBER>1</BOARD_NUMBER>", f"<BOARD_NUMBER>{number}</BOARD_NUMBER>".encode())


def usebio_declaring(encoding: str) -> bytes:
    return once(usebio(), b'<?xml version="1.0"?>', f'<?xml version="1.0" encoding="{encoding}"?>'.encode())


def usebio_first_line(element: str, value: str) -> bytes:
    """Board 1's first traveller line (2NS v 3EW: 3D by N, 9 tricks, NS 110) with one element changed."""
    old = {"TRICKS": b"<TRICKS>9</TRICKS>", "SCORE": b"<SCORE>110</SCORE>"}[element]
    return once(usebio(), old, f"<{element}>{value}</{element}>".encode())


def pbn_last_game_contract(contract: str) -> bytes:
    """The last game's own Contract tag (empty in the real file) set to ``contract``."""
    data = pbn()
    at = data.rindex(b'[Contract ""]')
    return data[:at] + f'[Contract "{contract}"]'.encode() + data[at + len(b'[Contract ""]'):]


def pbn_cut_in_last_row() -> bytes:
    """Cut off five bytes early: the last ScoreTable row (board 28's bye) loses two columns."""
    return pbn()[:-5]


def pbn_cut_in_a_quoted_cell() -> bytes:
    data = pbn()
    return data[: data.rindex(b'"Bye"') + 3]


def pbn_cut_in_a_tag() -> bytes:
    data = pbn()
    return data[: data.rindex(b"[Application") + 20]


def pbn_cut_before_the_last_board() -> bytes:
    """Ends after board 27: the header (META BoardCount) says 28."""
    data = pbn()
    return data[: data.rindex(b'[Event "')]


def pbn_with_an_open_comment() -> bytes:
    return pbn() + b"{ a comment the file never closes\r\n"


def pbn_pair_numbered(number: str) -> bytes:
    """Pair 8 renumbered in the TotalScoreTable and in every ScoreTable row."""
    text = pbn().decode("iso-8859-1")
    text = re.sub(r"(?m)^(\d+ )8( \d+ \")", rf"\g<1>{number}\2", text)  # TotalScoreTable: Rank PairId Table
    text = re.sub(r"(?m)^(\d+ \d+ )8( )", rf"\g<1>{number}\2", text)  # ScoreTable: Table Round PairId_NS
    text = re.sub(r"(?m)^(\d+ \d+ [\d-]+ )8( )", rf"\g<1>{number}\2", text)  # PairId_EW
    return text.encode("iso-8859-1")


def pbn_table_numbered(number: str) -> bytes:
    """Board 1's first ScoreTable row played at table ``number``."""
    return once(pbn(), b'1 1 8 1 2H W 7 SA "50"', f'{number} 1 8 1 2H W 7 SA "50"'.encode())


def pbn_event_of(size: int, fill: bytes = b"x") -> bytes:
    """The file with an Event tag of ``size`` bytes first (escapes count as they are written)."""
    return b'[Event "' + fill * (size // len(fill)) + b'"]\r\n' + pbn()


#: name -> (file, what the refusal says). Board 1's first line of the USEBIO file is
#: 2NS v 3EW; the PBN file's last board is 28.
REFUSED = {
    "PBN declaring charset=undefined": (
        lambda: b"% charset=undefined\r\n" + pbn(), "unsupported encoding",
    ),
    "PBN board ²": (lambda: pbn_board("²"), "Board '²' is not a number"),
    "PBN board ٣ (Arabic-Indic three)": (lambda: pbn_board("٣"), "Board '٣' is not a number"),
    "PBN board of 5,000 digits": (lambda: pbn_board(FIVE_THOUSAND_DIGITS), "boards are numbered from 1 to 999"),
    "PBN board 40000": (lambda: pbn_board("40000"), "board 40000: boards are numbered from 1 to 999"),
    "PBN board 0": (lambda: pbn_board("0"), "board 0: boards are numbered from 1 to 999"),
    "PBN table 40000": (lambda: pbn_table_numbered("40000"), "table 40000: tables are numbered from 1 to 999"),
    "USEBIO board ²": (lambda: usebio_board("²"), "BOARD_NUMBER '²' is not a number"),
    "USEBIO board of 5,000 digits": (
        lambda: usebio_board(FIVE_THOUSAND_DIGITS), "boards are numbered from 1 to 999",
    ),
    "USEBIO board 40000": (lambda: usebio_board("40000"), "board 40000: boards are numbered from 1 to 999"),
    "USEBIO board 0": (lambda: usebio_board("0"), "board 0: boards are numbered from 1 to 999"),
    "USEBIO pair 40000": (
        lambda: once(usebio(), b"<PAIR_NUMBER>1NS</PAIR_NUMBER>", b"<PAIR_NUMBER>40000NS</PAIR_NUMBER>"),
        "pair 40000: pairs are numbered from 1 to 999",
    ),
    "USEBIO declaring encoding undefined": (lambda: usebio_declaring("undefined"), "unsupported encoding"),
    "USEBIO declaring encoding UTF-7": (lambda: usebio_declaring("utf-7"), "unsupported encoding"),
    "USEBIO declaring encoding Shift-JIS (multi-byte)": (lambda: usebio_declaring("shift_jis"), "unsupported encoding"),
    "USEBIO line taking 14 tricks": (
        lambda: usebio_first_line("TRICKS", "14"), "board 1, 2NS v 3EW: 14 tricks cannot be",
    ),
    "USEBIO line taking -1 tricks": (
        lambda: usebio_first_line("TRICKS", "-1"), "board 1, 2NS v 3EW: -1 tricks cannot be",
    ),
    "USEBIO score no contract can produce": (
        lambda: usebio_first_line("SCORE", "115"),
        "board 1, 2NS v 3EW: the score NS 115 does not follow from 3D N 9 tricks (which scores NS 110), "
        "and it is not a score any contract can produce on this board",
    ),
    "PBN cut off in the last row": (
        pbn_cut_in_last_row, "board 28 ScoreTable has 50 cells, not a whole number of rows of 13 columns",
    ),
    "PBN cut off in a quoted cell": (pbn_cut_in_a_quoted_cell, "board 28 ScoreTable: a quoted value is never closed"),
    "PBN cut off in a tag": (pbn_cut_in_a_tag, "malformed tag '[Application \"Magic' in board 28"),
    "PBN cut off before its last board": (
        pbn_cut_before_the_last_board, "the session has 28 boards, but it holds 27 and ends with board 27",
    ),
    "PBN ending in a comment never closed": (pbn_with_an_open_comment, "a { comment } is never closed in board 28"),
    "PBN ending in a game with Contract 9Q": (
        lambda: pbn_last_game_contract("9Q"), "board 28: Contract '9Q' is not a contract",
    ),
}


# -- mutations for the fuzz tests -------------------------------------------------------------

#: Bytes that matter to one format or the other, spliced into real files.
TOKENS = [
    b'"', b"\\", b"[", b"]", b"{", b"}", b";", b"%", b"#", b"##", b"\n", b"\r\n", b"<", b">", b"</", b"/>", b"&",
    b"&amp;", b"&#0;", b"<![CDATA[", b"<!--", b"=", b"0", b"-1", b"14", b"999", b"1000", b"40000", b"9" * 30,
    "²".encode(), "٣".encode(), b"\xb2", b"\xff", b"\x00", b"\xef\xbb\xbf", b"-", b"?", b"^", b"A6040",
    b"A60/40", b"PASS", b"NP", b"4S", b"7NTXX", b"9Q", b"N", b"W", b"NS", b"EW", b"(B) 3 NS",
    b"% charset=utf-7\r\n", b" encoding='undefined'", b"<TRICKS>", b"<SCORE>", b'[Board "', b'[Contract "',
]


#: What a number in a file may be replaced by: zero, negative, too many tricks, too large
#: for the database, not ASCII digits, too long for int().
NUMBERS = [b"0", b"-1", b"14", b"1000", b"40000", "²".encode(), "٣".encode(), b"\xb2", FIVE_THOUSAND_DIGITS.encode()]


def mutations(st, seeds: list[bytes] | None = None):
    """A hypothesis strategy: a small real file (of each format, unless ``seeds`` says)
    with one to three of its numbers (board, pair, table, tricks, score ...) replaced, or
    with a few splices, cuts and stray bytes."""
    seeds = seeds or [pbn(), usebio()]
    numbers = {seed: [match.span() for match in re.finditer(rb"[0-9]+", seed)] for seed in seeds}

    @st.composite
    def renumbered(draw):
        seed = draw(st.sampled_from(seeds))
        data = bytearray(seed)
        spans = draw(st.lists(st.sampled_from(numbers[seed]), min_size=1, max_size=3, unique=True))
        for start, end in sorted(spans, reverse=True):  # from the end: earlier spans stay put
            data[start:end] = draw(st.sampled_from(NUMBERS))
        return bytes(data)

    @st.composite
    def spliced(draw):
        data = bytearray(draw(st.sampled_from(seeds)))
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            kind = draw(st.sampled_from(["replace", "insert", "delete", "cut", "byte"]))
            if kind == "replace":
                data[at : at + draw(st.integers(1, 6))] = draw(st.sampled_from(TOKENS))
            elif kind == "insert":
                data[at:at] = draw(st.sampled_from(TOKENS))
            elif kind == "delete":
                del data[at : at + draw(st.integers(1, 40))]
            elif kind == "cut":
                del data[at:]
            else:
                data[at : at + 1] = bytes([draw(st.integers(0, 255))])
        return bytes(data)

    return st.one_of(renumbered(), spliced())
