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
from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints import Award, Field, Placing, session_awards
from sessions.selectors.masterpoints import session_masterpoint_scale
from sessions.selectors.scoring import ScoredSession, field_parts, session_score

from .unit_of_work import unit, write

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


def _described(awards: dict[int, tuple[int, str]], labels: dict[int, str]) -> str:
    shown = [f"{labels.get(pair, pair)} {points}" for pair, (points, _) in awards.items() if points]
    return ", ".join(shown)[:200]


@write
def session_award_masterpoints(*, session: Session, by: AbstractBaseUser | None = None) -> str:
    """Compute and store the session's awards (replacing any before), logging a change.
    Returns why nothing was awarded ("" when awarded or when the session awards none)."""
    scale = session_masterpoint_scale(session)
    before = {award.pair_id: (award.points, award.point_type) for award in session.masterpoint_awards.all()}
    computed: dict[str, Award] = {}
    problem = ""
    scored: ScoredSession | None = None
    if scale is not None:
        scored = session_score(session=session)
        try:
            computed = session_awards(federation=scale.federation, scale=scale.scale,
                                      fields=award_fields(scored, scale.federation), boards=session.board_count)
        except ScoringError as error:
            problem = f"No master points: {error}"
    after = {int(pair): (award.points, award.point_type) for pair, award in computed.items()}
    if after == before and not problem:
        return ""
    session.masterpoint_awards.all().delete()
    MasterPointAward.objects.bulk_create(
        MasterPointAward(session=session, pair_id=pair, federation=scale.federation, scale=scale.scale,
                         points=points, point_type=point_type)
        for pair, (points, point_type) in after.items() if scale is not None
    )
    pairs = scored.pairs.values() if scored else Pair.objects.filter(section__session=session)
    labels = {pair.pk: pair.label for pair in pairs}
    subject = (str(scale) if scale else "master points")[:80]
    ResultChange.objects.create(
        session=session, action=ChangeAction.MASTERPOINTS, subject=subject, changed_by=by,
        before_text=_described(before, labels), after_text=problem[:200] or _described(after, labels),
    )
    unit().touch(sessions=[session])
    return problem
