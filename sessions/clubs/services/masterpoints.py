"""Master point awards of a final session: computed, stored per pair, changes logged.

Which scale: the event's override, else the club's federation and scale; for a club
with no federation, the scale an imported file carried (Session.masterpoints_from_file).
The engine (sessions.scoring.masterpoints) awards field by field from the session's
ranking: the ranking's fields, each Bridge NZ field split by section and direction (NZ
awards each direction of each section, whatever the ranking).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from django.contrib.auth.models import AbstractBaseUser

from sessions.models import ChangeAction, MasterPointAward, Pair, ResultChange, Session
from sessions.models.events import strata_limits
from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints import Award, Field, Placing, session_awards
from sessions.scoring.strata import strata_from_limits
from sessions.clubs.selectors.masterpoints import session_masterpoint_scale
from sessions.core.selectors.scored import ScoredSession, field_parts
from sessions.core.selectors.scoring import session_score
from sessions.clubs.selectors.strata import session_strata

from sessions.core.services.unit_of_work import unit, write

#: The federations that award each section's directions apart, whatever the ranking.
SECTION_DIRECTION_FIELDS = {"nzb"}


def award_fields(scored: ScoredSession, federation: str) -> list[Field]:
    """The ranking's fields as the engine's, with each section's tables (a half table whole)."""
    pairs_in_section = Counter(pair.section_id for pair in scored.pairs.values())
    grouped: dict[tuple[str, str, str], list] = defaultdict(list)
    for field_name, ranked in scored.rankings():
        _, direction = field_parts(field_name)
        for item in ranked:
            if federation in SECTION_DIRECTION_FIELDS:
                key = (field_name, item.pair.section.letter, item.pair.direction)
            else:
                key = (field_name, "", direction)
            grouped[key].append(item)
    fields = []
    for (field_name, section, direction), items in grouped.items():
        placings = tuple(
            Placing(pair=str(item.pair.pk), place=item.standing.rank, boards_played=item.standing.boards_played)
            for item in items
        )
        tables = max(math.ceil(pairs_in_section[item.pair.section_id] / 2) for item in items)
        fields.append(Field(f"{field_name} {section} {direction}".strip(), placings, tables, bool(direction)))
    return fields


def _award_strata(scored: ScoredSession) -> dict:
    """A stratified event's strata for the engine (each pair's, and their order from A):
    each stratum's group is awarded too, each pair keeping its highest (RULES 15)."""
    found = session_strata(scored=scored)
    if not found:
        return {}
    order = [stratum.letter for stratum in strata_from_limits(strata_limits(scored.session.event.strata_limits))]
    return {"strata": {str(pk): pair.letter for pk, pair in found.items()}, "strata_order": order}


Awarded = dict[int, tuple[int, str, str]]  # pair -> points, type, the players' names


def _described(awards: Awarded, labels: dict[int, str], pairs: set[int]) -> str:
    """The awards of ``pairs``: "5 36 (Ann & Bob)", each pair whose award changed."""
    shown = [
        f"{labels.get(pair, pair)} {points}" + (f" ({names})" if names else "")
        for pair, (points, _, names) in sorted(awards.items(), key=lambda item: -item[1][0])
        if points and pair in pairs
    ]
    return ", ".join(shown)[:200]


def _changed(before: Awarded, after: Awarded) -> set[int]:
    """The pairs whose award changed: its points, its type, or whom it goes to."""
    return {pair for pair in before.keys() | after.keys() if before.get(pair) != after.get(pair)}


@write
def session_award_masterpoints(*, session: Session, by: AbstractBaseUser | None = None) -> str:
    """Compute and store the session's awards (replacing any before), logging what changed
    for whom. Returns why nothing was awarded ("" when awarded or when the session awards none).

    Called when the session is marked final and, by the unit of work, at the end of every
    later write that may move a place (unit_of_work: ``touch(places=...)``)."""
    unit().awarded(session)
    scale = session_masterpoint_scale(session)
    before = {award.pair_id: (award.points, award.point_type, award.players)
              for award in session.masterpoint_awards.all()}
    computed: dict[str, Award] = {}
    problem = ""
    scored: ScoredSession | None = None
    if scale is not None:
        scored = session_score(session=session)
        try:
            computed = session_awards(federation=scale.federation, scale=scale.scale,
                                      fields=award_fields(scored, scale.federation), boards=session.board_count,
                                      **_award_strata(scored))
        except ScoringError as error:
            problem = f"No master points: {error}"
    names = {pair.pk: pair.names[:120] for pair in scored.pairs.values()} if scored else {}
    after = {int(pair): (award.points, award.point_type, names.get(int(pair), ""))
             for pair, award in computed.items()}
    changed = _changed(before, after)
    if not changed and not problem:
        return ""
    if problem and not before and session.changes.filter(action=ChangeAction.MASTERPOINTS, after_text=problem[:200]).exists():
        return problem  # the same refusal, already logged: an amendment changes nothing to say
    session.masterpoint_awards.all().delete()
    MasterPointAward.objects.bulk_create(
        MasterPointAward(session=session, pair_id=pair, federation=scale.federation, scale=scale.scale,
                         points=points, point_type=point_type, players=players)
        for pair, (points, point_type, players) in after.items() if scale is not None
    )
    pairs = scored.pairs.values() if scored else Pair.objects.filter(section__session=session)
    labels = {pair.pk: pair.label for pair in pairs}
    subject = (str(scale) if scale else "master points")[:80]
    ResultChange.objects.create(
        session=session, action=ChangeAction.MASTERPOINTS, subject=subject, changed_by=by,
        before_text=_described(before, labels, changed),
        after_text=problem[:200] or _described(after, labels, changed),
    )
    unit().touch(sessions=[session], places=False)  # the awards follow the places: they move none
    return problem
