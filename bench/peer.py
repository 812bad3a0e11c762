"""ClubScore's engine against bridge-scorer (npm, JavaScript) on identical boards.

Run from the project root:

    .venv/bin/python bench/peer.py [--rounds 3] [--repeats 3] [--no-install]

Random boards (bench/engine.py's, seeded) are written to JSON; bench/peer.js scores
them with bridge-scorer 2.4.0 under Node and prints its own timing; then our engine
scores the same boards in this process. Printed: results scored per second for each
method and board size (13 results on 20,000 boards, 1,000 and 10,000 results), for
both programs, and our figure over the peer's. Each figure is the best of --rounds x
--repeats runs, the peer's and ours interleaved round by round so that both meet the
same load on a shared machine. Never asserted.

bridge-scorer is installed into bench/.peer/ (git-ignored) the first time, with
``npm install --prefix bench/.peer bridge-scorer@2.4.0``; without Node or npm (or with
--no-install and no package) the script says so and prints our figures alone.

Before timing, the first board of each size is scored by both and compared: the same
matchpoints (both count 2 per result beaten, 1 per tie), the same average cross-IMPs,
and the same Butler IMPs wherever the datums agree. bridge-scorer rounds a datum's
half up (Math.round: -445 -> -440), where we round halves away from zero (-450, as
Compscore3 does); a board where only that differs is reported as such.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine import random_board  # noqa: E402
from sessions.scoring.butler import butler_board, butler_boards, trim_count  # noqa: E402
from sessions.scoring.crossimps import cross_imps_board, cross_imps_boards  # noqa: E402
from sessions.scoring.matchpoints import matchpoint_board, matchpoint_boards  # noqa: E402

PEER = "bridge-scorer@2.4.0"
PEER_DIR = ROOT / "bench" / ".peer"
PEER_SCRIPT = ROOT / "bench" / "peer.js"
METHODS: dict[str, Callable[[list[int]], object]] = {
    "matchpoints": matchpoint_board,
    "cross_imps": cross_imps_board,
    "butler": butler_board,
}
#: The same, every board of a group in one call (numpy stacks boards of one size).
BATCHES: dict[str, Callable[[list[list[int]]], object]] = {
    "matchpoints": matchpoint_boards,
    "cross_imps": cross_imps_boards,
    "butler": butler_boards,
}
LABELS = {"matchpoints": "matchpoints", "cross_imps": "cross-IMPs", "butler": "Butler"}


@dataclass(frozen=True)
class Group:
    """Boards of one size, and the methods timed on them."""

    size: int
    boards: list[list[int]]
    methods: tuple[str, ...]
    repeats: int


def board_groups(repeats: int, seed: int = 20261125) -> list[Group]:
    """20,000 boards of 13; 20 of 1,000; 3 of 10,000 (cross-IMPs: one, the peer is quadratic)."""
    import random

    generator = random.Random(seed)
    every = tuple(METHODS)
    small = [random_board(13, generator) for _ in range(20_000)]
    middle = [random_board(1_000, generator) for _ in range(20)]
    large = [random_board(10_000, generator) for _ in range(3)]
    return [
        Group(13, small, every, repeats),
        Group(1_000, middle, every, repeats),
        Group(10_000, large, ("matchpoints", "butler"), repeats),
        # bridge-scorer's cross-IMPs take seconds on one board of 10,000: time it once.
        Group(10_000, large[:1], ("cross_imps",), 1),
    ]


def peer_directory(install: bool) -> Path | None:
    """Where bridge-scorer is installed, installing it if asked; None (said why) if absent."""
    if shutil.which("node") is None:
        print("Node is not installed: the peer's figures are left out.")
        return None
    if (PEER_DIR / "node_modules" / "bridge-scorer").is_dir():
        return PEER_DIR
    if not install:
        print(f"{PEER} is not installed: npm install --prefix bench/.peer {PEER}")
        return None
    if shutil.which("npm") is None:
        print("npm is not installed: the peer's figures are left out.")
        return None
    command = ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(PEER_DIR), PEER]
    print("Installing the peer:", " ".join(command))
    PEER_DIR.mkdir(parents=True, exist_ok=True)
    if subprocess.run(command, capture_output=True, text=True).returncode != 0:
        print(f"npm could not install {PEER}: the peer's figures are left out.")
        return None
    return PEER_DIR


def run_peer(directory: Path, groups: Sequence[Group]) -> dict[str, dict[str, object]]:
    """bridge-scorer's best seconds and first-board figures, per "method/size"."""
    payload = {
        "groups": [
            {"size": group.size, "boards": group.boards, "methods": group.methods, "repeats": group.repeats}
            for group in groups
        ]
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json") as boards_file:
        json.dump(payload, boards_file)
        boards_file.flush()
        finished = subprocess.run(
            ["node", str(PEER_SCRIPT), str(directory), boards_file.name],
            capture_output=True,
            text=True,
            check=True,
        )
    answer: dict[str, dict[str, object]] = json.loads(finished.stdout)
    return answer


def our_seconds(method: Callable[[list[int]], object], boards: list[list[int]], repeats: int) -> float:
    """Best wall time over ``repeats`` runs of scoring every board once, one call a board."""
    return best_seconds(lambda: [method(board) for board in boards], repeats)


def best_seconds(work: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _js_datum(scores: Sequence[int]) -> int:
    """bridge-scorer's datum: our trimmed mean, with JavaScript's Math.round (halves up)."""
    ordered = sorted(scores)
    k = trim_count(len(ordered))
    kept = ordered[k : len(ordered) - k]
    tenths = Fraction(sum(kept), len(kept)) / 10
    return 10 * int((tenths + Fraction(1, 2)).__floor__())


def disagreements(name: str, board: Sequence[int], sample: dict[str, object]) -> list[str]:
    """How the peer's figures for ``board`` differ from ours (empty when they agree)."""
    theirs = [float(value) for value in sample["points"]]  # type: ignore[union-attr]
    if name == "butler":
        datum, _ = butler_board(board)
        if sample["datum"] != datum:
            if sample["datum"] != _js_datum(board):
                return [f"Butler datum {sample['datum']} against our {datum}"]
            return [f"(Butler datum {sample['datum']} against our {datum}: only the rounding of a half differs)"]
        ours = [float(value) for value in butler_board(board)[1]]
    else:
        ours = [float(value) for value in METHODS[name](board)]  # type: ignore[attr-defined]
    wrong = [index for index, (a, b) in enumerate(zip(ours, theirs)) if abs(a - b) > 1e-9]
    if len(ours) != len(theirs) or wrong:
        return [f"{LABELS[name]}: {len(wrong)} of {len(ours)} results differ on the first board of {len(board)}"]
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of peer then ours, interleaved")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each timing within a round")
    parser.add_argument("--no-install", action="store_true", help="never run npm install")
    arguments = parser.parse_args()

    groups = board_groups(arguments.repeats)
    directory = peer_directory(install=not arguments.no_install)
    best: dict[tuple[str, str, int], float] = {}
    for _ in range(arguments.rounds):
        # Each round times the peer, then us: on a shared machine both meet the same load.
        if directory:
            peer = run_peer(directory, groups)
            for key, seconds in peer["timings"].items():
                name, size = key.split("/")
                _keep_best(best, ("peer", name, int(size)), seconds)  # type: ignore[arg-type]
        for group in groups:
            for name in group.methods:
                _keep_best(best, ("ours", name, group.size), our_seconds(METHODS[name], group.boards, group.repeats))
                batch = best_seconds(lambda f=BATCHES[name], b=group.boards: f(b), group.repeats)
                _keep_best(best, ("batch", name, group.size), batch)
    if directory:
        check_same_figures(groups, peer["samples"])  # type: ignore[arg-type]
    print_rates(groups, best, arguments, with_peer=directory is not None)


def _keep_best(best: dict[tuple[str, str, int], float], key: tuple[str, str, int], seconds: float) -> None:
    best[key] = min(seconds, best.get(key, seconds))


def check_same_figures(groups: Sequence[Group], samples: dict[str, dict[str, object]]) -> None:
    notes = [
        note
        for group in groups
        for name in group.methods
        for note in disagreements(name, group.boards[0], samples[f"{name}/{group.size}"])
    ]
    real = [note for note in notes if not note.startswith("(")]
    print("Same figures on the first board of each size:", "no" if real else "yes")
    for note in notes:
        print("  " + note)


def print_rates(
    groups: Sequence[Group], best: dict[tuple[str, str, int], float], arguments: argparse.Namespace, with_peer: bool
) -> None:
    runs = arguments.rounds * arguments.repeats
    print(f"Results scored per second, best of {runs} runs ({arguments.rounds} rounds, peer and ours interleaved).")
    print("ours: one call a board; batch: every board of the group in one call.")
    if with_peer:
        print(f"peer: {PEER}, one call a board; ratios: ours / peer (above 1: we are faster).")
    header = f"{'results':>8} {'boards':>7}  {'method':<12}{'ours':>12}{'batch':>12}"
    print(header + (f"{'peer':>12}{'ours/peer':>10}{'batch/peer':>11}" if with_peer else ""))
    for group in groups:
        results = group.size * len(group.boards)
        for name in group.methods:
            ours, batch = (results / best[(kind, name, group.size)] for kind in ("ours", "batch"))
            row = f"{group.size:>8,} {len(group.boards):>7,}  {LABELS[name]:<12}{ours:>12,.0f}{batch:>12,.0f}"
            if with_peer:
                theirs = results / best[("peer", name, group.size)]
                row += f"{theirs:>12,.0f}{ours / theirs:>10.2f}{batch / theirs:>11.2f}"
            print(row)
    print_growth(groups, best, with_peer)


def print_growth(groups: Sequence[Group], best: dict[tuple[str, str, int], float], with_peer: bool) -> None:
    """How the cost of one board grows with its size, ours and the peer's: a ratio per
    step (x1.0 a result is linear; a quadratic step shows as the size ratio itself)."""
    kinds = ("ours", "peer") if with_peer else ("ours",)
    print("Growth of one board's cost per result from one size to the next (1.0 = linear):")
    for name in dict.fromkeys(name for group in groups for name in group.methods):
        sized = sorted((group for group in groups if name in group.methods), key=lambda group: group.size)
        for small, large in zip(sized, sized[1:]):
            scale = large.size / small.size
            cells = [
                f"{kind} x{best[(kind, name, large.size)] / len(large.boards) / (best[(kind, name, small.size)] / len(small.boards)) / scale:.2f}"
                for kind in kinds
            ]
            print(f"  {LABELS[name]:<12} {small.size:>6,} -> {large.size:>6,} results: " + ", ".join(cells))


if __name__ == "__main__":
    main()
