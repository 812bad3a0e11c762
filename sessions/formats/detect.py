"""Recognise a results file's format from its content and read it."""

from __future__ import annotations

import re

from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedEvent
from sessions.formats.pbn import parse_pbn
from sessions.formats.usebio import parse_usebio

_XML_START = re.compile(rb"\s*(<\?xml|<!DOCTYPE|<!--|<[A-Za-z_])")
_PBN_TAG = re.compile(rb"^\s*\[[A-Za-z][A-Za-z0-9_]*\s+\"", re.MULTILINE)
_BOMS = (b"\xef\xbb\xbf",)


def parse_results_file(data: bytes) -> ParsedEvent:
    """Read a USEBIO or PBN results file, whichever this is."""
    body = data
    for bom in _BOMS:
        if body.startswith(bom):
            body = body[len(bom):]
    if _XML_START.match(body):
        return parse_usebio(data)
    if body.lstrip().startswith(b"%") or _PBN_TAG.search(body[:65536]):
        return parse_pbn(data)
    raise FormatError("not a USEBIO or PBN results file")
