"""The procedural penalties of a session (Law 90, RULES 13), for the director's session
page, the ranking's footnote and the pair's score card.

The totals already carry them (the pairs' query adds them up: sessions.core.selectors.engine_input);
these read the reasons, and only where a page shows them: a public page asks only when
a standing it shows carries a penalty, so a session without one costs no query more.
"""

from __future__ import annotations

from collections.abc import Iterable

from sessions.models import Pair, ProceduralPenalty, Session
from sessions.scoring.session import Standing


def session_penalties(*, session: Session) -> list[ProceduralPenalty]:
    """Every penalty of the session, pair by pair (one query)."""
    return list(
        ProceduralPenalty.objects.filter(pair__section__session=session)
        .select_related("pair__section", "given_by")
        .order_by("pair__section__letter", "pair__direction", "pair__number", "pk")
    )


def penalties_shown(*, session: Session, standings: Iterable[Standing | None]) -> list[ProceduralPenalty]:
    """The session's penalties when one of ``standings`` carries one (one query), else none."""
    if not any(standing is not None and standing.penalty for standing in standings):
        return []
    return session_penalties(session=session)


def pair_penalties_shown(*, pair: Pair, standing: Standing | None) -> list[ProceduralPenalty]:
    """The pair's penalties when its standing carries one (one query), else none."""
    if standing is None or not standing.penalty:
        return []
    return list(ProceduralPenalty.objects.filter(pair=pair).select_related("pair").order_by("pk"))


def penalty_pairs(*, session: Session) -> list[Pair]:
    """The pairs a penalty may be given to, with their sections, in the pages' order (one query)."""
    return list(Pair.objects.filter(section__session=session).select_related("section").order_by(
        "section__letter", "direction", "number"))
