"""The walk of the services: every public function writes in a unit of work, or says why not.

Each public function of every feature's services (sessions/*/services/*.py) is
either a write (``@write``, sessions.core.services.unit_of_work: its transaction, its locks in
order, its bumps) or listed in NOT_WRITES with the reason. Each write is run by
tests/core/services/test_revisions.py, which checks the right revision moved, or listed in
BUMPS_NOTHING with the reason. A new public function that is neither fails here; a write
of services code outside a unit fails whichever test makes it (tests/conftest.py).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from collections.abc import Iterable

import pytest

from sessions.models import Club, Session
from sessions.core.services import unit_of_work
from sessions.core.services.unit_of_work import LockOrderError, NoUnitOfWork, is_write, write
from tests.core.services import test_revisions
from tests.unit_of_work_guard import SESSIONS, writes_outside_a_unit

def service_modules() -> list[types.ModuleType]:
    """Every module of every feature's services package (sessions/<feature>/services/)."""
    packages = sorted(path.parent for path in SESSIONS.glob("*/services/__init__.py"))
    assert len(packages) >= 8, packages  # core and the features: the walk must not come back empty
    return [
        importlib.import_module(f"sessions.{package.parent.name}.services.{module.name}")
        for package in packages for module in pkgutil.iter_modules([str(package)])
    ]


def public_functions(modules: Iterable[types.ModuleType]) -> dict[str, object]:
    return {
        f"{module.__name__}.{name}": function
        for module in modules
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__ and not name.startswith("_")
    }


#: A service module's full name by its own (no two features' services share a module name).
S = {module.__name__.rsplit(".", 1)[1]: module.__name__ for module in service_modules()}
assert len(S) == len(service_modules()), "two features' services share a module name"

#: Public functions that are no write of their own, with the reason.
NOT_WRITES = {
    **dict.fromkeys([f"{S['unit_of_work']}.{name}" for name in (
        "active", "connect_features", "is_write", "mark_write", "unit", "unit_of_work", "write")], "the unit of work itself"),
    **dict.fromkeys([f"{S['revisions']}.{name}" for name in (
        "bump", "bump_clubs", "bump_sessions", "club_revise", "club_revise_with_sessions", "event_revise", "players_revise", "session_revise",
        "sessions_revise", "team_event_revise")],
        "the bumps the unit makes, kept for the Django admin: a service never calls them"),
    f"{S['analysis']}.analysis_run": "each session's boards marked pending in a unit, each analysis saved in a unit "
                                   "(the solver's work holds no transaction)",
    f"{S['analysis']}.analysis_start": "starts the background worker (analysis_run)",
    f"{S['analysis']}.analysis_deferred": "a context in which analysis_request asks for no pass after the commit",
    f"{S['analysis']}.boards_needing_analysis": "reads",
    f"{S['masterpoints']}.award_fields": "computes the engine's fields from a scored session",
    f"{S['amendments']}.after_commit": "after a unit's commit (the unit calls it): _session_changed and "
                                     "team_event_changed, each its own unit, for the final ones",
    f"{S['amendments']}.session_figures": "reads (a digest of the scored session)",
    f"{S['team_mail']}.team_event_figures": "reads (a digest of the scored teams event)",
    f"{S['team_mail']}.team_event_changed": "after a unit's commit: its own unit, which locks the event and keeps "
                                          "the digest (no page shows it), then webhooks_notify after its commit",
    f"{S['mail']}.mail_run": "the worker's pass: mail_send_due, again as retries fall due",
    f"{S['mail']}.mail_send_due": "each mail claimed and finished in its own unit (no transaction is held while "
                                "the mail server answers)",
    f"{S['mail']}.mail_start": "starts the background worker (mail_run)",
    f"{S['mail']}.player_from_token": "reads",
    f"{S['mail']}.unsubscribe_token": "signs",
    f"{S['mail']}.unsubscribe_url": "formats",
    f"{S['webhooks']}.notify_on_commit": "registers an after-commit hook (webhooks_notify, the write)",
    f"{S['webhooks']}.resolve_public": "resolves and checks an address",
    f"{S['webhooks']}.signature": "signs",
    f"{S['webhooks']}.webhook_deliver": "one try: the POST outside any transaction, then its outcome in its own unit",
    f"{S['webhooks']}.webhooks_run": "the worker's pass: webhook_deliver for each due delivery",
    f"{S['webhooks']}.webhooks_start": "starts the background worker (webhooks_run)",
    f"{S['players']}.main_players": "computes, from spells given",
    f"{S['players']}.spells_text": "formats",
    f"{S['results']}.declarer_swap": "a warning, computed",
    f"{S['results']}.fill_line": "fills a line's fields in memory",
    f"{S['results']}.log_text": "formats",
    f"{S['results']}.result_check": "checks a line, storing nothing",
    f"{S['results']}.line_check": "checks a line, storing nothing",
    f"{S['results']}.refuse_other_deal": "checks a line's deal, storing nothing",
    f"{S['results']}.board_lines": "reads (and locks, in its caller's unit)",
    f"{S['results']}.line_store": "a step of result_record and the phones' confirmations, in their unit",
    f"{S['sessions']}.session_log": "a step of the services that log, in their unit (NoUnitOfWork outside)",
    f"{S['tables']}.check_client_key": "checks a key",
    **dict.fromkeys([f"{S['session_plan']}.{name}" for name in (
        "sections_store", "boards_store", "pairs_store", "seatings_store")],
        "a step of session_store and of a new movement (repair), in their unit (the guard fails one outside)"),
    **dict.fromkeys([f"{S['session_plan']}.boards_planned", f"{S['sessions']}.pairs_planned",
                     f"{S['sessions']}.seatings_planned"], "plans rows in memory"),
    f"{S['rows']}.insert_rows": "the many-rows insert of session_store's steps, in their unit",
    f"{S['tables']}.confirm_entry": "a step of the phones' confirmations, in their unit",
    f"{S['tables']}.settle_entry": "a step of the phones' confirmations, in their unit",
    f"{S['tables']}.refuse_entry": "a step of the phones' refusals, in their unit",
    f"{S['tables']}.refuse_if_final": "reads",
    f"{S['tables']}.replay": "an earlier send's outcome, storing nothing",
    f"{S['tables']}.sends_seen": "reads",
    f"{S['tables']}.earlier_send": "finds a send among those read",
    f"{S['tables']}.replace_waiting": "a step of the phones' sends, in their unit",
    f"{S['tables']}.table_entry_confirm": "runs _confirm (@while_open: its unit), then raises its refusal after the commit",
    f"{S['tables']}.while_open": "the phones' decorator: opens the unit (its wrappers are marked writes)",
    f"{S['teams']}.edit_token": "a fingerprint, computed",
    f"{S['teams']}.match_check_line": "checks a line, storing nothing",
    f"{S['importing']}.check_publish": "checks an argument",
    f"{S['importing']}.clean_lead": "parses",
    f"{S['importing']}.convention_word": "computes",
    f"{S['importing']}.conventions_checked": "checks the director's words",
    f"{S['importing']}.event_settings": "computes",
    f"{S['importing']}.pair_number": "computes",
    f"{S['importing']}.rankings_for": "computes",
    f"{S['importing']}.ranks_as_the_file": "computes",
    f"{S['importing']}.result_values": "computes",
    f"{S['importing']}.results_import": "reads the file, then results_store (the write)",
    f"{S['importing']}.results_read": "reads a file",
    f"{S['importing']}.section_letters": "computes",
    f"{S['teams_import']}.is_teams_file": "reads a file",
    f"{S['teams_import']}.teams_import": "reads the file, then teams_store (the write)",
    f"{S['teams_import']}.teams_read": "reads a file",
    f"{S['jobs']}.import_job_run": "each step its own unit: the claim, the progress, the import with its job's end",
    f"{S['jobs']}.import_jobs_run": "runs import_job_run for each job claimed",
    f"{S['jobs']}.import_jobs_start": "starts the background worker (import_jobs_run)",
    f"{S['jobs']}.in_background": "reads a setting",
}

#: Writes that change nothing a cached page shows, with the reason.
BUMPS_NOTHING = {
    **dict.fromkeys(["director_call", "director_call_take", "clock_set_minutes", "clock_start", "clock_pause",
                     "clock_next_round", "clock_add_minute"],
                    "the director's grid and the table's phone read calls and the clock fresh: no cached page"),
    "national_upload_record": "a record of the file sent to the federation: no page a player sees changes, and a "
                              "bump would itself mark the session amended since sending",
    **dict.fromkeys(["webhook_create", "webhook_delete", "webhook_send_test", "webhooks_notify"],
                    "a club's webhooks and their deliveries show on no cached page"),
    **dict.fromkeys(["player_set_email", "player_unsubscribe", "mail_queue_session", "mail_resend",
                     "mail_queue_team_event", "table_player_email"],
                    "a player's address, consent and mails show on no cached page"),
    **dict.fromkeys(["api_key_create", "api_key_revoke", "api_key_used"], "a club's API keys show on no cached page"),
    **dict.fromkeys(["club_director_add", "club_director_remove", "club_director_set_owner", "club_director_unlock"],
                    "who directs a club shows on no cached page"),
    **dict.fromkeys(["score_pad_save", "score_pad_delete"], "a member's own pads: no cached page"),
    **dict.fromkeys(["table_links_ensure", "match_table_links_ensure", "phone_link_revoke", "phone_link_renew"],
                    "a table's link shows on the director's pages only, which are never cached"),
    "match_table_refuse": "a refused send leaves the teams pages alone, as one waiting for EW does "
                          "(test_a_phone_send_waiting_for_ew_leaves_the_teams_pages_alone)",
    "team_event_create": "a new teams event is unpublished: no public page shows it yet",
    "import_job_create": "a queued job; the import it runs bumps (results_store, teams_store)",
}

#: Writes checked by a test of their own in tests/core/services/test_revisions.py.
REVISION_TESTS = {
    "player_add": "test_adding_a_player_bumps_the_club",
    "player_find_or_add": "test_a_new_session_and_a_new_event_bump_the_club",
    "players_find_or_add": "test_an_import_bumps_the_club_and_gives_the_new_session_a_revision",
    "pair_add_late": "test_a_new_movement_and_a_late_pair_bump_the_session",
    "session_change_movement": "test_a_new_movement_and_a_late_pair_bump_the_session",
    "session_delete": "test_deleting_a_session_bumps_its_club",
    "session_create": "test_a_new_session_and_a_new_event_bump_the_club",
    "session_store": "test_a_new_session_and_a_new_event_bump_the_club",  # as session_create's and the import's store
    "event_create": "test_a_new_session_and_a_new_event_bump_the_club",
    "mark_pending": "test_every_write_bumps_the_session_and_its_club",  # as analysis_request's step
    "results_store": "test_an_import_bumps_the_club_and_gives_the_new_session_a_revision",
    "teams_store": "test_a_teams_import_bumps_its_event_after_its_last_line",
    "competition_create": "test_a_competition_bumps_its_club",
    "competition_update": "test_a_competition_bumps_its_club",
}


def _run_in_test_revisions() -> set[str]:
    return {name.split(",")[0] for name in [*test_revisions.WRITES, *test_revisions.TEAM_WRITES]}


def unaccounted(modules: Iterable[types.ModuleType]) -> list[str]:
    """Public functions that are neither a write nor listed in NOT_WRITES."""
    return sorted(name for name, function in public_functions(modules).items()
                  if not is_write(function) and name not in NOT_WRITES)


def unchecked(modules: Iterable[types.ModuleType]) -> list[str]:
    """Writes whose bump no test checks, and that are not listed in BUMPS_NOTHING."""
    checked = _run_in_test_revisions() | set(REVISION_TESTS) | set(BUMPS_NOTHING)
    return sorted(name for name, function in public_functions(modules).items()
                  if is_write(function) and name.rsplit(".", 1)[1] not in checked)


def test_every_public_service_function_is_a_write_or_says_why_not():
    assert unaccounted(service_modules()) == []


def test_every_write_has_its_bump_checked_or_says_why_it_bumps_nothing():
    assert unchecked(service_modules()) == []


def test_the_lists_name_only_functions_that_exist():
    functions = public_functions(service_modules())
    assert set(NOT_WRITES) - set(functions) == set()
    short = {name.rsplit(".", 1)[1] for name in functions}
    assert set(BUMPS_NOTHING) - short == set()
    assert all(hasattr(test_revisions, test) for test in REVISION_TESTS.values())


def _fake_module(source: str) -> types.ModuleType:
    module = types.ModuleType("sessions.clubs.services.fake")
    exec(compile(source, str(SESSIONS / "clubs" / "services" / "fake.py"), "exec"), module.__dict__)
    return module


NEW_SERVICE = '''
from sessions.models import Club
from sessions.core.services.unit_of_work import write


def club_rename(*, club, name):
    Club.objects.filter(pk=club.pk).update(name=name)


@write
def club_recolour(*, club):
    Club.objects.filter(pk=club.pk).update(description="blue")
'''


def test_a_new_service_that_is_neither_marked_nor_listed_fails_the_walk():
    fake = _fake_module(NEW_SERVICE)
    assert unaccounted([fake]) == ["sessions.clubs.services.fake.club_rename"]
    assert unchecked([fake]) == ["sessions.clubs.services.fake.club_recolour"]


def test_a_write_of_services_code_outside_a_unit_is_caught_and_one_inside_is_not(club, writes_in_units):
    fake = _fake_module(NEW_SERVICE)
    with writes_outside_a_unit() as outside:
        fake.club_recolour(club=club)
    assert outside == []
    with writes_outside_a_unit() as outside:
        fake.club_rename(club=club, name="Renamed")
    assert len(outside) == 1 and "fake.py" in outside[0] and "UPDATE" in outside[0]
    writes_in_units.clear()  # the suite's own guard saw it too: made on purpose here
    Club.objects.filter(pk=club.pk).update(name="A test's own write")  # not services code: left alone


def test_a_unit_bumps_what_it_touched_once_on_exit_and_nothing_when_it_raises(session):
    @write
    def touch_twice() -> None:
        unit_of_work.unit().touch(sessions=[session], lines_only=True)
        unit_of_work.unit().touch(sessions=[session.pk], lines_only=True)

    def revision() -> tuple[int, str]:
        return Session.objects.values_list("revision", "setup_token").get(pk=session.pk)

    before = revision()
    touch_twice()
    assert revision() == (before[0] + 1, before[1])  # lines only: the setup token kept

    @write
    def refused() -> None:
        unit_of_work.unit().touch(sessions=[session])
        raise ValueError("refused")

    with pytest.raises(ValueError):
        refused()
    assert revision() == (before[0] + 1, before[1])


def test_a_session_locked_after_another_row_is_refused(session):
    @write
    def out_of_order() -> None:
        list(unit_of_work.unit().lock_rows(Club.objects.all()))
        unit_of_work.unit().touch(sessions=[session])

    with pytest.raises(LockOrderError):
        out_of_order()


def test_the_unit_is_asked_for_outside_one():
    with pytest.raises(NoUnitOfWork):
        unit_of_work.unit()


def test_a_refused_inner_write_takes_its_touches_with_its_savepoint_and_a_full_change_wins(session):
    def revision() -> tuple[int, str]:
        return Session.objects.values_list("revision", "setup_token").get(pk=session.pk)

    @write
    def inner() -> None:
        unit_of_work.unit().touch(sessions=[session])
        raise ValueError("refused")

    @write
    def outer(then_lines: bool) -> None:
        with pytest.raises(ValueError):
            inner()
        if then_lines:
            unit_of_work.unit().touch(sessions=[session], lines_only=True)
            unit_of_work.unit().touch(sessions=[session])

    before = revision()
    outer(then_lines=False)
    assert revision() == before  # nothing stands of the refused write: nothing to bump
    outer(then_lines=True)
    after = revision()
    assert after[0] == before[0] + 1 and after[1] != before[1]  # one bump, a new setup token


def test_the_app_connects_the_features_the_units_end_calls(monkeypatch):
    """The core imports no feature (tests/test_layers.py): the clubs' master points and
    amendments are connected at the app's start, and a unit never ends without them."""
    from sessions.clubs.services.amendments import AfterCommit
    from sessions.clubs.services.masterpoints import session_award_masterpoints

    assert (unit_of_work.HOOKS.award, unit_of_work.HOOKS.after_commit) == (session_award_masterpoints, AfterCommit)
    monkeypatch.setattr(unit_of_work.HOOKS, "after_commit", None)
    with pytest.raises(RuntimeError, match="not connected"):
        unit_of_work._hook("after_commit")
