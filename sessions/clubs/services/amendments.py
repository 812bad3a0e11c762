"""After a write's commit: what a published, final session tells its players and the club's webhooks.

One rule for every write (issue 24), not a call in each service: the outermost unit of
work (services.unit_of_work) hands the sessions and teams events it touched to
``after_commit`` once its transaction has committed. For each session that is published
and final:

- its players' mails are queued (services.mail.mail_queue_session): the results mail of
  each opted-in player not yet written one, an amended mail to each whose own figures
  (place, percentage or IMPs, partner) differ from those they were last sent. A player
  whose figures did not change gets nothing; a second correction before the amended
  mail went rewrites that mail rather than adding one.
- the club's webhooks are told "amended" when the session's figures differ from those
  last told (``Session.told_figures``, a digest): a line's score or points, a pair's
  place or percentage, a pair's players. A rename, a master point award or a second tap
  changes none of them and tells nobody. The first look after "final" (or after the
  publication of a session marked final before) only records the digest: "final" or
  "published" told of those figures.

So a corrected line, an adjusted score, a changed player, a reassigned or turned line,
a late pair, a withdrawal, a new movement, the event's scoring settings and an import
all amend alike. Each look at a final session holds its row (so two commits at once tell
once); for a session that is not final the look is one query, outside any transaction.

The teams events' side (their standings mails and "amended") is
services.team_mail's, called from here with the teams events touched.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from sessions.models import Session, TeamEvent, WebhookEvent
from sessions.core.selectors.scoring import session_score

from sessions.clubs.services.mail import mail_queue_session, mail_start
from sessions.teams.services.team_mail import team_event_changed
from sessions.core.services.unit_of_work import unit, unit_of_work
from sessions.api.services.webhooks import notify_on_commit

logger = logging.getLogger(__name__)


def session_figures(session: Session) -> str:
    """A digest of everything a player's figures are made of: each line's score and points,
    the standings, each pair's players."""
    scored = session_score(session=session)
    players = sorted((key, pair.player_1_id, pair.player_2_id) for key, pair in scored.pairs.items())
    text = repr((scored.result.lines, sorted(scored.result.standings.items()), players))
    return hashlib.sha256(text.encode()).hexdigest()


def _session_changed(session_id: int) -> None:
    # Most writes are to sessions in play: one plain query, no transaction, no lock (the
    # phones' sends and confirms pay only this after their commit).
    if not Session.objects.filter(pk=session_id, published=True, final_at__isnull=False).exists():
        return
    with unit_of_work():
        unit().lock(sessions=[session_id])  # one look at a time: told once
        session = Session.objects.select_related("event").filter(
            pk=session_id, published=True, final_at__isnull=False
        ).first()
        if session is None:
            return
        figures = session_figures(session)
        if figures != session.told_figures:
            # Not a revision bump: nothing a page shows changes.
            Session.objects.filter(pk=session.pk).update(told_figures=figures)
            if session.told_figures:
                notify_on_commit(event=WebhookEvent.AMENDED, session=session.pk)
        queued = mail_queue_session(session=session)
    if queued:
        mail_start()


@dataclass(frozen=True)
class AfterCommit:
    """What one unit of work touched, looked at after its commit (equal ones registered once)."""

    sessions: tuple[int, ...]
    team_events: tuple[int, ...]

    def __call__(self) -> None:
        after_commit(sessions=self.sessions, team_events=self.team_events)


def after_commit(*, sessions: Iterable[int] = (), team_events: Iterable[int] = ()) -> None:
    """The rule: each touched session (and teams event) that is published and final tells
    its players and webhooks what changed. Never raises: the write is committed whatever
    the mails do (``manage.py send_results`` catches up)."""
    wanted = list(Session.objects.filter(pk__in=list(sessions), published=True, final_at__isnull=False)
                  .values_list("pk", flat=True)) if sessions else []
    for session_id in wanted:
        try:
            _session_changed(session_id)
        except Exception:
            logger.exception("the players and webhooks of session %s could not be told of a change", session_id)
    final_events = list(TeamEvent.objects.filter(pk__in=list(team_events), published=True, final_at__isnull=False)
                        .values_list("pk", flat=True)) if team_events else []
    for event_id in final_events:
        try:
            team_event_changed(event_id)
        except Exception:
            logger.exception("the players and webhooks of teams event %s could not be told of a change", event_id)
