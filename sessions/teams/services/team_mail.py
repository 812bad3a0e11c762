"""A teams event's side of services.amendments: after a write's commit, its players' mails and "amended".

The rule is the pairs sessions' one: for a published, final teams event, the final
standings go to each opted-in player not yet sent them, and an amended mail to each whose
team's place or VPs changed (services.mail.mail_queue_team_event); the club's webhooks
are told "amended" when the figures (each match's IMPs and VPs, the standings after each
round, the teams' players) differ from those last told (``TeamEvent.told_figures``); the
first look after "final" only records them. No service calls it: the unit of work does,
for every teams event a write touched. (The standings after a round go when the director
sends them: mail_queue_team_event with the round.)
"""

from __future__ import annotations

import hashlib

from sessions.models import Team, TeamEvent, WebhookEvent
from sessions.teams.selectors.teams import team_event_score

from sessions.clubs.services.mail import mail_queue_team_event
from sessions.core.services.unit_of_work import unit, unit_of_work
from sessions.api.services.webhooks import notify_on_commit


def team_event_figures(event: TeamEvent) -> str:
    """A digest of the event's figures: every match's outcome, the standings after each round, the rosters."""
    score = team_event_score(event)
    outcomes = sorted((scored.match.pk, repr(scored.outcome), repr((scored.home_vp, scored.away_vp)))
                      for scored in score.matches)
    rosters = sorted(Team.players.through.objects.filter(team__event=event).values_list("team_id", "player_id"))
    text = repr((outcomes, sorted(score.by_round.items()), rosters))
    return hashlib.sha256(text.encode()).hexdigest()


def team_event_changed(event_id: int) -> None:
    """One look at a teams event after a write (the event's row held: told once); an event
    still in play costs one plain query (the rooms' phones pay only this)."""
    if not TeamEvent.objects.filter(pk=event_id, published=True, final_at__isnull=False).exists():
        return
    with unit_of_work():
        unit().lock(team_events=[event_id])
        event = TeamEvent.objects.filter(pk=event_id, published=True, final_at__isnull=False).first()
        if event is None:
            return
        figures = team_event_figures(event)
        if figures != event.told_figures:
            TeamEvent.objects.filter(pk=event.pk).update(told_figures=figures)  # no page shows it: no bump
            if event.told_figures:
                notify_on_commit(event=WebhookEvent.AMENDED, teams_event=event.pk)
        mail_queue_team_event(event=event)  # its mails start after this unit's commit
