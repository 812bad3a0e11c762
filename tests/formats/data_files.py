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
