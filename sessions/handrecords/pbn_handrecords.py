"""Hand-record PBN files: read a session's deals, and write them for a dealing machine.

Reading goes through the PBN reader of sessions.formats (encodings, CRLF, commentary,
"#" and "##" tag values are handled there once) and keeps what a hand record needs:
{board number: Deal}. A file with no deals, a board number outside 1 to
MAX_BOARD_NUMBER (the results importer's limit), a deal that is not 52 cards dealt 13
to each hand, or two boards with the very same deal (a copying slip) is refused with a
message naming the board.

Writing gives one game per board with Event, Site, Date, Board, Dealer, Vulnerable and
Deal, the tags dealing-machine software (Duplimate, Dealer4) reads. Dealer and
vulnerability follow from the board number (RULES.md section 1), the deal is written
from the dealer and "All" stands for both vulnerable, as the standard's export format
asks. The encoding is ISO-8859-1 when every character fits (what older PBN programs
expect), UTF-8 otherwise, declared either way in a "% Content-type" line; lines end in
CRLF.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date as Date

from sessions.formats.common import MAX_BOARD_NUMBER
from sessions.formats.errors import FormatError
from sessions.formats.pbn import parse_pbn_deals
from sessions.formats.pbn_write import EXPORT_VULNERABILITY, pbn_document, pbn_tag
from sessions.scoring.boards import dealer, vulnerability

from sessions.handrecords.deals import Deal, DealError, parse_deal

UNKNOWN_DATE = "????.??.??"  # the standard's spelling of an unknown date


def read_hand_records(data: bytes | str) -> dict[int, Deal]:
    """Board number -> Deal for every board of a PBN file; FormatError says what is wrong."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    deals = {number: _board_deal(number, text) for number, text in sorted(parse_pbn_deals(raw).items())}
    if not deals:
        raise FormatError("the file holds no deals: a hand record has a Deal tag for each board")
    _refuse_repeated_deals(deals)
    return deals


def _board_deal(number: int, text: str) -> Deal:
    if not 1 <= number <= MAX_BOARD_NUMBER:  # the reader refuses them first, with the line
        raise FormatError(f"board {number}: boards are numbered from 1 to {MAX_BOARD_NUMBER}")
    try:
        return parse_deal(text)
    except DealError as error:
        raise FormatError(f"board {number}: {error}") from error


def _refuse_repeated_deals(deals: Mapping[int, Deal]) -> None:
    first_board: dict[Deal, int] = {}
    for number, deal in deals.items():
        earlier = first_board.setdefault(deal, number)
        if earlier != number:
            raise FormatError(f"boards {earlier} and {number} have the same deal")


def write_hand_records(
    deals: Mapping[int, Deal], *, event: str = "", site: str = "", date: Date | None = None
) -> bytes:
    """A hand-record PBN file of ``deals`` (board number -> Deal), boards in order."""
    identification = [pbn_tag("Event", event), pbn_tag("Site", site), pbn_tag("Date", _pbn_date(date))]
    return pbn_document([identification + _board_tags(number, deals[number]) for number in sorted(deals)])


def _board_tags(number: int, deal: Deal) -> list[str]:
    board_dealer = dealer(number)
    return [
        pbn_tag("Board", str(number)),
        pbn_tag("Dealer", board_dealer.value),
        pbn_tag("Vulnerable", EXPORT_VULNERABILITY[vulnerability(number).value]),
        pbn_tag("Deal", deal.to_pbn(first=board_dealer)),
    ]


def _pbn_date(value: Date | None) -> str:
    return UNKNOWN_DATE if value is None else f"{value.year:04d}.{value.month:02d}.{value.day:02d}"


