"""Every export, in one registry keyed by (subject, format): the download URLs, their
buttons on the pages and the ``export_results`` command all take their exporter from it.

An exporter is a subject (what is exported: a session, an event's sessions ranked
together, a teams event) and a format's renderer (renderers.py). The subject loads its
figures, always our engine's (session_score, the combined ranking, team_event_score:
nothing is copied from an imported file), and names the file; the renderer makes the
bytes from the subject's rows (report.py, teams_export.py) or parsed model (to_parsed.py,
teams_export.py). To add a format: a renderer class, then one entry in EXPORTS per subject.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify

from sessions.formats import pbn_scoring_tag, write_pbn, write_usebio
from sessions.formats.teams_pbn import write_pbn_teams
from sessions.formats.teams_write import write_usebio_teams
from sessions.models import CrossImps, MatchpointScale, Session, TeamEvent
from sessions.pairs.selectors.events import CombinedRanking
from sessions.core.selectors.scored import ScoredSession
from sessions.core.selectors.scoring import session_score
from sessions.teams.selectors.teams import TeamEventScore, team_event_score

from sessions.transfer import report, teams_export
from sessions.transfer.renderers import CsvTable, CsvZip, Pbn, Renderer, Usebio, Workbook
from sessions.transfer.to_parsed import ExportRefused, session_to_parsed

Rendered = tuple[str, str, bytes]  # filename, content type, content


class Subject:
    """What is exported: its figures (``load``) and its files' name (``stem``)."""

    kind = ""  # the registry's key
    noun = ""  # in messages: "a session"
    url_name = ""  # the download URL, reversed with (object's pk, format)

    def load(self, exported: Any) -> Any:
        raise NotImplementedError

    def stem(self, exported: Any) -> str:
        raise NotImplementedError


class SessionSubject(Subject):
    kind, noun, url_name = "session", "a session", "sessions:transfer_export"

    def load(self, exported: Session) -> ScoredSession:
        return session_score(session=exported)

    def stem(self, exported: Session) -> str:
        return f"{slugify(exported.name) or 'session'}-{exported.date.isoformat()}"


class EventSubject(Subject):
    """An event's sessions ranked together: the ranking the caller chose (published
    sessions only, or every one for the club's directors)."""

    kind, noun, url_name = "event", "an event", "sessions:transfer_event_export"

    def load(self, exported: CombinedRanking) -> CombinedRanking:
        if exported.error:
            raise ExportRefused(f"the sessions cannot be ranked together: {exported.error}")
        return exported

    def stem(self, exported: CombinedRanking) -> str:
        return f"{slugify(exported.event.name) or 'event'}-all-sessions"


class TeamsSubject(Subject):
    kind, noun, url_name = "teams", "a teams event", "sessions:transfer_team_export"

    def load(self, exported: TeamEvent) -> TeamEventScore:
        return team_event_score(exported)

    def stem(self, exported: TeamEvent) -> str:
        return f"{slugify(exported.name) or 'teams'}-{exported.date.isoformat()}"


SESSION, EVENT, TEAMS = SessionSubject(), EventSubject(), TeamsSubject()


@dataclass(frozen=True)
class Exporter:
    """One subject in one format: ``render(exported) -> (filename, content type, bytes)``."""

    subject: Subject
    identifier: str  # the URL's and the command's --format
    renderer: Renderer
    description: str = ""  # what the file holds, where it is offered alone (the uploads page)
    suffix: str = ""  # after the subject's name in the filename
    button: bool = True  # offered among the page's download buttons

    @property
    def label(self) -> str:
        return self.renderer.label

    @property
    def verbose_name(self) -> str:
        return self.description or self.renderer.label

    @property
    def content_type(self) -> str:
        return self.renderer.content_type

    def filename(self, exported: Any) -> str:
        return f"{self.subject.stem(exported)}{self.suffix}.{self.renderer.extension}"

    def render(self, exported: Any) -> Rendered:
        content = self.renderer.render(self.subject.load(exported))
        return self.filename(exported), self.content_type, content


# --- the results files' writers, for each subject ----------------------------------------


def session_usebio(scored: ScoredSession) -> bytes:
    return write_usebio(session_to_parsed(scored))


def session_pbn(scored: ScoredSession) -> bytes:
    event = scored.session.event
    tag = pbn_scoring_tag(
        event.method, cross_imps_averaged=event.cross_imps == CrossImps.AVERAGE, half_matchpoints=event.mp_scale == MatchpointScale.ACBL
    )
    return write_pbn(session_to_parsed(scored), scoring_tag=tag)


def teams_usebio(score: TeamEventScore) -> bytes:
    return write_usebio_teams(teams_export.team_event_to_parsed(score))


def teams_pbn(score: TeamEventScore) -> bytes:
    return write_pbn_teams(teams_export.team_event_to_parsed(score))


def session_csv_tables(scored: ScoredSession) -> list[report.Table]:
    return [report.rankings(scored), report.travellers(scored)]


#: Every export; a subject's buttons come in this order.
EXPORTS: dict[tuple[str, str], Exporter] = {
    (exporter.subject.kind, exporter.identifier): exporter
    for exporter in (
        Exporter(SESSION, "xlsx", Workbook(report.all_tables)),
        Exporter(SESSION, "csv", CsvZip(session_csv_tables), "Rankings and traveller lines (CSV, zipped)"),
        Exporter(SESSION, "usebio", Usebio(session_usebio)),
        Exporter(SESSION, "pbn", Pbn(session_pbn)),
        Exporter(SESSION, "csv-rankings", CsvTable(report.rankings), "Rankings (CSV)", "-rankings", button=False),
        Exporter(SESSION, "csv-travellers", CsvTable(report.travellers), "Traveller lines (CSV)", "-travellers",
                 button=False),
        Exporter(EVENT, "xlsx", Workbook(report.event_tables), "Excel workbook: the combined ranking, then each session's"),
        Exporter(EVENT, "csv", CsvTable(report.combined), "The combined ranking (CSV)"),
        Exporter(TEAMS, "xlsx", Workbook(teams_export.sheets)),
        Exporter(TEAMS, "csv", CsvZip(teams_export.csv_tables)),
        Exporter(TEAMS, "usebio", Usebio(teams_usebio)),
        Exporter(TEAMS, "pbn", Pbn(teams_pbn)),
    )
}
SUBJECTS: dict[str, Subject] = {subject.kind: subject for subject in (SESSION, EVENT, TEAMS)}


def exporters_of(kind: str) -> dict[str, Exporter]:
    """A subject's exporters by format, in the registry's order."""
    return {identifier: exporter for (subject, identifier), exporter in EXPORTS.items() if subject == kind}


#: A session's exporters by format (the national uploads name theirs by it).
EXPORTERS = exporters_of(SESSION.kind)
