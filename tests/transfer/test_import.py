"""Importing results files: every real file through the command, our figures against
the published ones, and bad files refused with the reason and nothing stored."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError

from sessions.formats import parse_results_file
from sessions.models import Club, Result, ResultKind, Session
from sessions.services import session_score
from sessions.transfer import ImportRefused, importing, results_import
from tests.factories import make_club
from tests.formats.data_files import DATA_DIR
from tests.formats.test_real_sessions import agrees_to_the_hundredth, place_agrees
from tests.transfer.helpers import BAD_FILES, data, model_counts, results_files, run_import

UNSUPPORTED = {
    "usebio/cobalt_notsupported.xml": "not supported",
    "pbn/bridgewebs_hands_welwyn.pbn": "no traveller lines",  # hand records only
}
#: Files whose every published line, percentage (or total) and place our stored
#: session reproduces with the program's options (tests/formats/test_real_sessions.py).
REPRODUCED = [
    "usebio/cobalt_mp_pairs_mitchell_03.xml",
    "usebio/cobalt_mp_pairs_mitchell_04.xml",
    "usebio/cobalt_butler_howell.xml",
    "usebio/uk_00202711+000827.xml",  # EBUScore
    "usebio/uk_00202217+001532.xml",
    "usebio/uk_realbridge_20250407.xml",
    "usebio/uk_00201789+001571.xml",
    "usebio/mp-pairs-pairsscorer.xml",
    "pbn/ruter_mp_pairs_sm2.pbn",
]


@pytest.mark.django_db
@pytest.mark.parametrize("name", [name for name in results_files() if name not in UNSUPPORTED])
def test_every_results_file_imports_through_the_command(name):
    output = run_import(DATA_DIR / name)
    session = Session.objects.get(pk=int(output[-1]))
    parsed = parse_results_file(data(name))
    assert output[0].startswith("program: ")
    assert any(line.startswith("our figures differ from the file's on") for line in output)
    assert session.event.club.slug == "imported"
    played = sum(len(board.lines) for board in parsed.boards)
    byes = sum(1 for board in parsed.boards for line in board.lines
               if any(pair.is_phantom for pair in parsed.pairs if pair.key in (line.ns_pair, line.ew_pair)))
    assert Result.objects.filter(board__session=session).count() == played - byes


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "reason"), UNSUPPORTED.items())
def test_a_file_without_pairs_results_is_refused_and_nothing_is_stored(name, reason):
    before = model_counts()
    with pytest.raises(CommandError, match=reason):
        run_import(DATA_DIR / name)
    assert model_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("name", REPRODUCED)
def test_the_stored_session_scores_as_the_program_published(name):
    club = make_club()
    imported = results_import(club=club, data=data(name), filename=name)
    assert imported.comparison.agrees, imported.summary()
    # Checked again here with the oracle's own comparison, straight from the database.
    scored = session_score(session=imported.session)
    parsed = parse_results_file(data(name))
    standings = {s.pair: s for field in scored.result.standings.values() for s in field}
    pairs = {pair.key: pair for pair in parsed.pairs}
    assert len(standings) == len(pairs)
    matchpoints = scored.is_matchpoints
    for stored_key, ours in standings.items():
        pair = scored.pairs[stored_key]
        published = next(p for p in parsed.pairs if p.number == str(pair.number) and p.direction == pair.direction)
        figure, expected = (ours.percentage, published.published_percentage) if matchpoints else (ours.total, published.published_total)
        assert agrees_to_the_hundredth(figure, expected), stored_key
        assert place_agrees(published.published_place, ours.place, ours.rank), stored_key
    lines = {(r.board.number, r.ns_pair.label, r.ew_pair.label): scored.scored_line(r) for r in scored.results}
    for board in parsed.boards:
        for line in board.lines:
            ns, ew = pairs[line.ns_pair], pairs[line.ew_pair]
            ours = lines[(board.number, ns.number + ns.direction, ew.number + ew.direction)]
            assert agrees_to_the_hundredth(ours.ns_points, line.published_ns_points)
            assert agrees_to_the_hundredth(ours.ew_points, line.published_ew_points)


@pytest.mark.django_db
def test_differences_from_the_file_are_counted_and_named():
    # EBUScore adds its 2-decimal lines; our exact totals put two pairs 0.01 away.
    imported = results_import(club=make_club(), data=data("usebio/uk_00210009+002061.xml"), filename="x.xml")
    comparison = imported.comparison
    assert comparison.line_differences == ()
    assert [text.split(":")[0] for text in comparison.pair_differences] == ["16EW", "18EW"]
    assert "2 of 18 pairs" in imported.summary()[3]
    assert any("rounded to 2 decimals" in note for note in imported.notes)


@pytest.mark.django_db
def test_a_score_that_does_not_follow_from_the_contract_stands_as_assigned():
    imported = results_import(club=make_club(), data=data("usebio/cross-imp-pairs.xml"), filename="x.xml")
    line = Result.objects.get(board__session=imported.session, board__number=1, entered_text__startswith="42 ")
    assert (line.kind, line.ns_score, line.text) == (ResultKind.ASSIGNED, 480, "NS 480")
    assert line.level is None  # "42" is no contract: kept only as the file's text


@pytest.mark.django_db
def test_artificial_not_played_and_passed_lines_keep_their_kind():
    imported = results_import(
        club=make_club(), data=data("usebio/nzscorer_multi-section-multi-movement-pairs.xml"), filename="x.xml"
    )
    kinds = set(Result.objects.filter(board__session=imported.session).values_list("kind", flat=True))
    assert {ResultKind.ARTIFICIAL, ResultKind.PASSED, ResultKind.PLAYED, ResultKind.ASSIGNED} <= kinds
    assert imported.session.sections.count() == 3
    imported = results_import(club=make_club(), data=data("usebio/nzscorer_pairs-with-np-passed.xml"), filename="x")
    assert Result.objects.filter(board__session=imported.session, kind=ResultKind.NOT_PLAYED).count() == 1


@pytest.mark.django_db
def test_players_are_found_in_the_club_by_national_number_then_name():
    club = make_club()
    first = results_import(club=club, data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"), filename="a.xml")
    players = club.players.count()
    assert players > 0
    second = results_import(club=club, data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"), filename="b.xml")
    assert club.players.count() == players
    assert first.session.event_id == second.session.event_id  # same title and settings: same event
    pair = second.session.sections.get().pairs.get(number=1, direction="NS")
    assert pair.player_1 is not None and pair.player_1.club_id == club.pk


@pytest.mark.django_db
def test_the_seatings_put_every_line_at_a_table_of_its_round():
    imported = results_import(club=make_club(), data=data("usebio/uk_realbridge_20250407.xml"), filename="x")
    section = imported.session.sections.get()
    seatings = {(s.round, s.table): s for s in section.seatings.all()}
    for line in Result.objects.filter(section=section).select_related("board"):
        seating = seatings[(line.round, line.table)]
        assert (seating.ns_pair_id, seating.ew_pair_id) == (line.ns_pair_id, line.ew_pair_id)
        assert line.board.number in seating.boards


@pytest.mark.django_db
def test_a_file_ranking_one_field_is_stored_so_that_ours_has_one_too():
    imported = results_import(club=make_club(), data=data("pbn/ruter_cross_imp_league.pbn"), filename="x.pbn")
    assert imported.session.arrow_switch
    assert list(session_score(session=imported.session).result.standings) == [""]


@pytest.mark.django_db
@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_file_is_refused_with_the_reason_and_nothing_stored(case, tmp_path):
    make_club()
    build, reason = BAD_FILES[case]
    path = tmp_path / "bad.xml"
    path.write_bytes(build())
    before = model_counts()
    with pytest.raises(CommandError, match=reason):
        run_import(path)
    assert model_counts() == before


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_refused(settings):
    settings.MAX_UPLOAD_BYTES = 1000
    before = model_counts()
    with pytest.raises(ImportRefused, match="largest file accepted"):
        results_import(club=make_club(), data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"), filename="x.xml")
    assert model_counts() == {**before, "Club": before["Club"] + 1}


@pytest.mark.django_db
def test_a_failure_after_some_rows_are_written_rolls_everything_back(monkeypatch):
    club = make_club()
    before = model_counts()

    def scoring_fails(**kwargs):
        raise importing.ScoringError("board 1 cannot be scored")

    monkeypatch.setattr(importing, "session_score", scoring_fails)
    with pytest.raises(ImportRefused, match="cannot be scored"):
        results_import(club=club, data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"), filename="x.xml")
    assert model_counts() == before


@pytest.mark.django_db
def test_the_command_needs_a_club_when_there_are_several():
    make_club()
    make_club()
    with pytest.raises(CommandError, match="--club"):
        run_import(DATA_DIR / "usebio/cobalt_mp_pairs_mitchell_03.xml")


@pytest.mark.django_db
def test_the_command_imports_into_the_named_club():
    club = make_club()
    make_club()
    output = run_import(DATA_DIR / "usebio/cobalt_butler_howell.xml", "--club", club.slug)
    assert Session.objects.get(pk=int(output[-1])).event.club == club
    assert Club.objects.filter(slug="imported").count() == 0
