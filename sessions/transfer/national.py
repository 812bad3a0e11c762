"""The file each national body takes for a club session's results and master points.

One entry per federation of MasterPointFederation, saying what the body's upload takes
and, where the format is public, which exporter of EXPORTERS makes it (no second writer:
the upload is byte for byte what ``export_results ID --format <identifier>`` writes).

- EBU: its Results/Master Point upload takes USEBIO 1.2; EBUScore writes the awards in
  each PAIR's MASTER_POINTS (type BLACK) with the EVENT's MASTER_POINT_SCALE: our USEBIO.
- Bridge NZ: NZ Scorer's USEBIO with MASTER_POINTS of type "c" (hundredths: 4000 for a
  win) is what Bridge NZ's results and master point service reads: our USEBIO.
- ABF: the results application of My ABF (the ABF's Cobalt system) reads USEBIO, as
  Compscore3 writes it, green points in each PAIR's MASTER_POINTS: our USEBIO.
- ACBL: clubs report through ACBLscore game files, a format the ACBL has never
  published; ClubScore does not produce them (no exporter, said on the uploads page).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sessions.models import Session

from sessions.transfer.exporters import EXPORTERS, Exporter, Rendered


@dataclass(frozen=True)
class UploadFormat:
    federation: str
    takes: str  # what the body's upload accepts, in its own words
    exporter_identifier: str  # "" when the format is not public and ClubScore makes no file

    @property
    def exporter(self) -> Exporter | None:
        return EXPORTERS[self.exporter_identifier] if self.exporter_identifier else None


UPLOAD_FORMATS: dict[str, UploadFormat] = {
    upload.federation: upload
    for upload in (
        UploadFormat("ebu", "the EBU's Results/Master Point upload: a USEBIO 1.2 file with each pair's master points", "usebio"),
        UploadFormat("nzb", "Bridge NZ: a USEBIO file with each pair's C points, as NZ Scorer writes it", "usebio"),
        UploadFormat("abf", "the ABF's My ABF results upload: a USEBIO file with each pair's green points, "
                            "as Compscore3 writes it", "usebio"),
        UploadFormat("acbl", "the ACBL: ACBLscore game files, a format the ACBL has not published; "
                             "ClubScore does not produce them", ""),
    )
}


class UploadRefused(ValueError):
    """No upload file for this session: the reason, for the director."""


NOT_FINAL = "Mark the session final first: the national body takes a session's results once they are final."
NO_FEDERATION = "Choose the club's federation in its settings: the upload is that body's file."


def upload_format(session: Session) -> UploadFormat:
    """The club's federation's upload, for a final session; else UploadRefused saying why."""
    upload = UPLOAD_FORMATS.get(session.event.club.masterpoint_federation)
    if upload is None:
        raise UploadRefused(NO_FEDERATION)
    if upload.exporter is None:
        raise UploadRefused(f"No file to make for {upload.takes}.")
    if not session.final:
        raise UploadRefused(NOT_FINAL)
    return upload


def upload_file(session: Session) -> Rendered:
    """The federation's file for a final session: the exporter's own output, unchanged."""
    exporter = upload_format(session).exporter
    assert exporter is not None  # upload_format refused the formats without one
    return exporter.render(session)


def file_sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()
