"""Readers for published results files (USEBIO 1.2 XML, PBN 2.1) into one parsed model.

Pure Python, no Django: a file format is an adapter at the edge. Each reader returns a
`ParsedEvent`; importers and the engine comparison work from that model only.
"""

from .detect import parse_results_file
from .errors import FormatError
from .model import (
    ParsedBoard,
    ParsedEvent,
    ParsedLine,
    ParsedPair,
    ParsedPlayer,
)
from .pbn import parse_pbn, parse_pbn_deals
from .usebio import parse_usebio

__all__ = [
    "FormatError",
    "ParsedBoard",
    "ParsedEvent",
    "ParsedLine",
    "ParsedPair",
    "ParsedPlayer",
    "parse_pbn",
    "parse_pbn_deals",
    "parse_results_file",
    "parse_usebio",
]
