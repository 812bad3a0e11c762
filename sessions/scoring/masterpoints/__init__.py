"""Master point awards for club sessions, one module per federation (pure Python).

Each module cites the regulation it implements and keeps its scales as data
(``SCALES``); ``session_awards`` runs one over a session's fields. Which federation
and scale a session uses: the club's setting, an event's override, or for an imported
file its own MASTER_POINT_SCALE and program (``federation_for_program``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import ModuleType

from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints import abf, acbl, ebu, nzb
from sessions.scoring.masterpoints.base import Award, Field, Placing, shared_awards, third_of
from sessions.scoring.masterpoints.stratified import stratified_awards

FEDERATIONS: dict[str, ModuleType] = {module.FEDERATION: module for module in (ebu, nzb, abf, acbl)}

#: The federation whose rules a results program applies when its file names none.
PROGRAM_FEDERATIONS = {
    "ebuscore": "ebu",
    "scorebridge": "ebu",
    "realbridge": "ebu",
    "bbo extractor": "ebu",
    "brian": "ebu",
    "pairsscorer": "ebu",
    "pianola": "ebu",
    "scorer": "nzb",
    "compscore": "abf",
    "compscore3": "abf",
}

__all__ = [
    "Award", "award_text", "FEDERATIONS", "Field", "Placing", "federation_for_program", "scale_key",
    "session_awards", "shared_awards", "third_of",
]


def award_text(federation: str, points: int) -> str:
    """An award as the federation's results show it: EBU "36", NZ "40.00", ABF "0.24"."""
    places = FEDERATIONS[federation].SHOWN_PLACES
    return str(Decimal(points).scaleb(-places)) if places else str(points)


def scale_key(text: str) -> str:
    """A file's MASTER_POINT_SCALE as a scale name: "Club", "CLUB" -> "club"."""
    return text.strip().lower()


def federation_for_program(program: str) -> str | None:
    """The federation a program's awards follow ("EBUScore Pairs" -> "ebu"), or None."""
    name = program.strip().lower()
    for known, federation in PROGRAM_FEDERATIONS.items():
        if name == known or name.startswith(known + " "):
            return federation
    return None


def session_awards(
    *, federation: str, scale: str, fields: list[Field], boards: int,
    strata: Mapping[str, str] | None = None, strata_order: Sequence[str] = (),
) -> dict[str, Award]:
    """Every pair's award (pairs out of the awards get 0), field by field; in a stratified
    session (``strata``: each pair's stratum, ``strata_order`` from A) each stratum's
    group awarded too, each pair keeping its highest award (RULES 15)."""
    module = FEDERATIONS.get(federation)
    if module is None:
        raise ScoringError(f"federation {federation!r} is not known: one of {', '.join(FEDERATIONS)}")
    scale = scale or module.DEFAULT_SCALE

    def award(groups: list[Field]) -> dict[str, Award]:
        awards: dict[str, Award] = {}
        for field in groups:
            awards.update(module.field_awards(field, scale, boards))
        return awards

    if strata is None:
        return award(fields)
    return stratified_awards(award=award, fields=fields, strata=strata, order=strata_order)
