"""The real results files in the shared data folder, for the format tests."""

from pathlib import Path

DATA_DIR = Path("/work/shared/data")
USEBIO_FILES = sorted(path.name for path in (DATA_DIR / "usebio").glob("*.xml"))
PBN_FILES = sorted(path.name for path in (DATA_DIR / "pbn").glob("*.pbn"))
UNSUPPORTED_USEBIO = "cobalt_notsupported.xml"


def usebio_bytes(name: str) -> bytes:
    return (DATA_DIR / "usebio" / name).read_bytes()


def pbn_bytes(name: str) -> bytes:
    return (DATA_DIR / "pbn" / name).read_bytes()


def line_between(event, board: int, ns_key: str, ew_key: str, section: str = "A"):
    """The one traveller line of ``board`` (in ``section``) between two pair keys."""
    (board_found,) = [b for b in event.boards if b.number == board and b.section == section]
    (line,) = [ln for ln in board_found.lines if ln.ns_pair == ns_key and ln.ew_pair == ew_key]
    return line
