"""What a player's public page and the club's player search read: published sessions only.

A player's history is every published session in which the player sat in a pair, with
the partner, the pair's figure and place as the session's ranking shows them. All the
sessions are read at once (the player's pairs, then every line and pair of those
sessions: three queries whether the player has played 3 sessions or 300) and scored in
Python by sessions_scores, the same scoring as the rankings page. A session that is not
published does not exist here: neither it nor the partner of that evening shows.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils.safestring import SafeString, mark_safe

from sessions.handrecords import history_svg
from sessions.models import Club, MasterPointAward, Pair, PairLineup, Player, Session
from sessions.scoring.handicaps import PlayerFigure
from sessions.scoring.masterpoints import award_text
from sessions.scoring.session import PairPart, Standing
from sessions.core.text import search_key

from sessions.core.selectors.engine_input import with_lineup_flag
from sessions.clubs.selectors.handicaps import rating_window, window_figures
from sessions.pairs.selectors.lineups import has_lineup, lineups_of, player_shares, spells_of
from sessions.pairs.selectors.public import field_title, ranking_hidden
from sessions.core.selectors.scoring import sessions_scores

#: Names a search shows at most (a query of one letter matches most of a club).
SEARCH_LIMIT = 50


@dataclass(frozen=True)
class PlayedSession:
    """One published session of a player: the pair the player sat in and how it did."""

    session: Session  # with its event and club
    pair: Pair  # with its section and players
    partner: Player | None
    standing: Standing | None  # None when the pair has no scored board, or the ranking is hidden
    field_title: str
    field_size: int
    is_matchpoints: bool
    ranking_hidden: bool
    # The player played some rounds only (a change of player): the pair's figures over
    # their boards, and which rounds; None: every board of the pair.
    part: PairPart | None = None
    rounds: str = ""
    partners: tuple[Player, ...] = ()  # every partner of the session, when there were several

    @property
    def percentage(self) -> Fraction | None:
        if self.part is not None:
            return self.part.percentage if self.standing and self.is_matchpoints else None
        return self.standing.percentage if self.standing and self.is_matchpoints else None

    @property
    def imps(self) -> Fraction | None:
        if self.part is not None:
            return self.part.total if self.standing and not self.is_matchpoints else None
        return self.standing.total if self.standing and not self.is_matchpoints else None


@dataclass(frozen=True)
class LedgerEntry:
    """One master point award of the player: a final session's, with the year's running
    total of that type (in the federation's unit, shown as its results show it)."""

    session: Session
    point_type: str
    award: str
    year_total: str


@dataclass(frozen=True)
class PlayerHistory:
    player: Player  # with its club
    sessions: list[PlayedSession]  # newest first
    # The player's club rating and average over the club's window (RULES 14); None: the
    # player played none of those sessions.
    rating: PlayerFigure | None = None

    @property
    def ledger(self) -> list[LedgerEntry]:
        """The player's awards, oldest first: the pair's award in each final session the
        player sat in for every board (a substitute's rounds earn none here), with the
        running total per type for the calendar year (RULES 12)."""
        totals: dict[tuple[int, str], int] = {}
        entries = []
        for played in reversed(self.sessions):
            pair = played.pair
            points = getattr(pair, "mp_points", None)
            if not points or not played.session.final or self.player.pk not in (pair.player_1_id, pair.player_2_id):
                continue
            key = (played.session.date.year, pair.mp_type)
            totals[key] = totals.get(key, 0) + points
            entries.append(LedgerEntry(played.session, pair.mp_type, award_text(pair.mp_federation, points),
                                       award_text(pair.mp_federation, totals[key])))
        return entries

    @property
    def percentages(self) -> list[PlayedSession]:
        """The matchpoint sessions with a percentage, oldest first: the chart's points."""
        return [played for played in reversed(self.sessions) if played.percentage is not None]

    @property
    def average_percentage(self) -> Fraction | None:
        """The plain average of the session percentages (each session counts once)."""
        figures = [played.percentage for played in self.percentages]
        return sum(figures, Fraction(0)) / len(figures) if figures else None

    @property
    def any_ranking_hidden(self) -> bool:
        return any(played.ranking_hidden for played in self.sessions)

    @property
    def imp_sessions(self) -> int:
        return sum(1 for played in self.sessions if not played.is_matchpoints)

    @property
    def chart(self) -> SafeString:
        """The percentages over time as an SVG drawn here (no script: the page's CSP)."""
        points = [(f"{played.session.date.day} {played.session.date:%b %y}", played.percentage) for played in self.percentages]
        # charts.py escapes every text it writes, the player's name in the title included.
        return mark_safe(history_svg(points, title=f"{self.player.name}: percentage in each session"))  # noqa: S308


def _played_in(player: Player | OuterRef, in_lineups: Player | OuterRef | None = None) -> Q:
    """The pairs the player played in: as one of its players, or for some rounds (a change
    of player). ``in_lineups``: the player as the lineups' subquery names it (an OuterRef
    one level further out), if not ``player``."""
    lineup_player = player if in_lineups is None else in_lineups
    some_rounds = PairLineup.objects.filter(Q(player_1=lineup_player) | Q(player_2=lineup_player)).values("pair")
    return Q(player_1=player) | Q(player_2=player) | Q(pk__in=some_rounds)


def _published_pairs_of(player: Player) -> QuerySet[Pair]:
    # Each pair's master point award rides along (no query more): the ledger's lines.
    award = MasterPointAward.objects.filter(pair=OuterRef("pk"))
    return (
        with_lineup_flag(Pair.objects.filter(_played_in(player), section__session__published=True))
        .annotate(mp_points=Subquery(award.values("points")[:1]), mp_type=Subquery(award.values("point_type")[:1]),
                  mp_federation=Subquery(award.values("federation")[:1]))
        .select_related("section__session__event", "player_1", "player_2")
        .order_by("-section__session__date", "-section__session__published_at", "-section__session_id", "pk")
    )


def player_history(*, player: Player) -> PlayerHistory:
    """Every published session the player played, newest first, scored.

    Queries: the player's pairs with their sessions and events; the club's rating window
    (its last final matchpoint sessions, RULES 14); sessions_scores' two (every line,
    every pair of those sessions and the window's), whatever the number of sessions; one
    more, the lineups, when the player's pairs changed players during a session: each
    player is credited with the boards of the rounds they played.
    """
    pairs = list(_published_pairs_of(player))
    sessions = {pair.section.session_id: pair.section.session for pair in pairs}
    for session in sessions.values():
        session.event.club = player.club  # the player's club is the sessions' club: no query
    window = rating_window(club=player.club)
    scores = sessions_scores(sessions=list({**{session.pk: session for session in window}, **sessions}.values()))
    changed = [pair for pair in pairs if has_lineup(pair)]
    spells = spells_of(changed, lineups_of(pair.pk for pair in changed)) if changed else {}
    played = []
    for pair in pairs:
        scored = scores[pair.section.session_id]
        session = scored.session
        hidden = ranking_hidden(session)
        standing, field_size = (None, 0) if hidden else scored.standing_of(pair)
        share = player_shares(scored, pair, spells[pair.pk]).get(player.pk) if pair.pk in spells else None
        partner = pair.player_2 if pair.player_1_id == player.pk else pair.player_1
        if share is not None:
            partner = share.partners[0] if share.partners else None
        played.append(PlayedSession(
            session=session,
            pair=pair,
            partner=partner,
            standing=standing,
            field_title=field_title(standing.field) if standing else "",
            field_size=field_size,
            is_matchpoints=scored.is_matchpoints,
            ranking_hidden=hidden,
            part=None if share is None or share.whole else share.part,
            rounds="" if share is None or share.whole else share.rounds,
            partners=share.partners if share is not None and len(share.partners) > 1 else (),
        ))
    rating = window_figures(window, scores).get(player.pk)
    return PlayerHistory(player=player, sessions=played, rating=rating)


def published_players(*, club: Club) -> QuerySet[Player]:
    """The club's players who sat in at least one published session (one query).

    Names entered only in unpublished sessions stay out of sight, as those sessions do.
    """
    pairs = Pair.objects.filter(section__session__published=True, section__session__event__club=club)
    lineups = PairLineup.objects.filter(pair__in=pairs)
    return Player.objects.filter(club=club).filter(
        Q(pk__in=pairs.values("player_1")) | Q(pk__in=pairs.values("player_2"))
        | Q(pk__in=lineups.values("player_1")) | Q(pk__in=lineups.values("player_2"))
    ).order_by("name", "pk")


def player_search(*, club: Club, query: str) -> list[Player]:
    """The club's published players whose name holds every word typed, in any case and
    with or without accents ("sio o'sull" finds "Siobhán O'Sullivan"); at most SEARCH_LIMIT.

    One query: names are folded in Python, the same on every database.
    """
    words = search_key(query).split()
    if not words:
        return []
    found = [player for player in published_players(club=club) if all(word in search_key(player.name) for word in words)]
    return found[:SEARCH_LIMIT]


def published_player(*, player_id: int) -> Player | None:
    """The player, with its club, if it sat in a published session (one query); else None."""
    sat_in_published = Pair.objects.filter(
        _played_in(OuterRef("pk"), OuterRef(OuterRef("pk"))), section__session__published=True
    )
    return Player.objects.filter(Exists(sat_in_published), pk=player_id).select_related("club").first()


def player_names(*, player_ids: Collection[int]) -> dict[int, str]:
    """The names of these players, by id (one query)."""
    return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))


def players_of_club(*, club: Club) -> QuerySet[Player]:
    """Every player of the club, published or not, for the director's forms and pickers."""
    return club.players.all()
