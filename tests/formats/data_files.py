"""The real results files in tests/data (sources and conventions: tests/data/README.md).

The files are listed by name rather than globbed, so that a missing file fails the tests
that read it instead of quietly removing them from the parametrization;
tests/formats/test_data_files.py checks that each folder holds exactly its list.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data"

USEBIO_FILES = [
    "cobalt_butler_howell.xml",
    "cobalt_mp_pairs_mitchell_03.xml",
    "cobalt_mp_pairs_mitchell_03_assigned.xml",
    "cobalt_mp_pairs_mitchell_04.xml",
    "cobalt_notsupported.xml",
    "cross-imp-pairs.xml",
    "mp-pairs-pairsscorer.xml",
    "nzscorer_handicap_pairs.xml",
    "nzscorer_multi-section-multi-movement-pairs.xml",
    "nzscorer_pairs-with-np-passed.xml",
    "nzscorer_three_quarter_howell_with_phantom.xml",
    "uk_00201789+001571.xml",
    "uk_00202131+001686.xml",
    "uk_00202217+001532.xml",
    "uk_00202711+000827.xml",
    "uk_00210009+002061.xml",
    "uk_00210009+002061_assigned.xml",
    "uk_brian_welwyn_20250409.xml",
    "uk_realbridge_20250407.xml",
]
PBN_FILES = [
    "bridgewebs_hands_welwyn.pbn",
    "magiccontest_butler_median.pbn",
    "ruter_cross_imp_league.pbn",
    "ruter_mp_pairs_sm2.pbn",
]
#: Team-of-four events (tests/data/README.md, "Team-of-four results files").
TEAMS_FILES = [
    "ebu_example_multiple_teams_teamsscorer.xml",
    "realbridge_online_qual_2021_open_r2.pbn",
    "ruter_swiss_teams_salo_2013.pbn",
]
#: Published scales (tests/data/README.md, "Published scales").
VP_FILES = ["wbf2013_published.csv"]
#: Every listed file by its path under DATA_DIR, folder by folder.
DATA_FILES = {"usebio": USEBIO_FILES, "pbn": PBN_FILES, "teams": TEAMS_FILES, "vp": VP_FILES}
#: The pairs sessions ("usebio/name" or "pbn/name"), teams files apart.
PAIRS_FILES = [f"usebio/{name}" for name in USEBIO_FILES] + [f"pbn/{name}" for name in PBN_FILES]
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
