"""Readers for published results files (USEBIO 1.2 XML, PBN 2.1) into one parsed model.

Pure Python, no Django: a file format is an adapter at the edge. Each reader returns a
`ParsedEvent`; importers and the engine comparison work from that model only. The
writers (write_usebio, write_pbn) go the other way, from the same model to a file.
"""

from sessions.formats.detect import parse_results_file
from sessions.formats.errors import FormatError
from sessions.formats.model import (
    ParsedBoard,
    ParsedEvent,
    ParsedLine,
    ParsedPair,
    ParsedPlayer,
)
from sessions.formats.pbn import parse_pbn, parse_pbn_deals
from sessions.formats.pbn_write import pbn_scoring_tag, write_pbn
from sessions.formats.usebio import parse_usebio
from sessions.formats.usebio_write import write_usebio

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
    "pbn_scoring_tag",
    "write_pbn",
    "write_usebio",
]
