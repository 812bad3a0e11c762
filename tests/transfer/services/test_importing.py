"""Importing results files: every real file through the command, our figures against
the published ones, and bad files refused with the reason and nothing stored."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.utils import timezone

from sessions.formats import parse_results_file
from sessions.models import Club, Result, ResultKind, Seating, Session
from sessions.core.selectors.scoring import session_score
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services import importing
from tests.factories import make_club, make_event
from tests.formats.data_files import DATA_DIR
from tests.formats.test_real_sessions import FULL_REPRODUCTIONS, agrees_to_the_hundredth, place_agrees
from tests.transfer.helpers import BAD_FILES, GOOD_USEBIO, data, model_counts, results_files, run_import

UNSUPPORTED = {
    "usebio/cobalt_notsupported.xml": "not supported",
    "pbn/bridgewebs_hands_welwyn.pbn": "no traveller lines",  # hand records only
}
#: Files whose every published line, percentage (or total) and place our stored
#: session reproduces with the program's options: the oracle's full reproductions
#: (tests/formats/test_real_sessions.py), stored and scored from the database.
REPRODUCED = [name for name, _ in FULL_REPRODUCTIONS]
#: Files whose published lines (not their totals) reproduce from the database: the
#: oracle shows which options (Ruter: summed cross-IMPs pooled across both sections,
#: one ranking; Magic Contest: the median datum on 3-result boards).
LINES_REPRODUCED = ["pbn/ruter_cross_imp_league.pbn", "pbn/magiccontest_butler_median.pbn"]


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


def stored_letters(parsed):
    """The file's section names as the importer stores them ("Sect1" -> "A")."""
    names = [pair.section for pair in parsed.pairs] + [board.section for board in parsed.boards]
    return importing.section_letters(list(dict.fromkeys(names)))


def stored_and_published_lines(scored, parsed):
    """(our line scored from the database, the file's line) for every stored line."""
    pairs, letters = parsed.pairs_by_key(), stored_letters(parsed)
    ours = {
        (r.board.number, r.section.letter, r.ns_pair.label, r.ew_pair.label): scored.scored_line(r) for r in scored.results
    }
    matched = [
        (ours.pop((board.number, letters[board.section], ns.number + ns.direction, ew.number + ew.direction)), line)
        for board in parsed.boards for line in board.lines
        for ns, ew in [(pairs[line.ns_pair], pairs[line.ew_pair])]
        if not (ns.is_phantom or ew.is_phantom) or line.score != "NP"  # a phantom's byes are not stored
    ]
    assert ours == {}, "every stored line is the file's"
    return matched


def stored_and_published_pairs(scored, parsed):
    """(our standing scored from the database, the file's pair) for every stored pair that played."""
    letters = stored_letters(parsed)
    by_label = {(letters[p.section], p.number, p.direction): p for p in parsed.pairs}
    standings = {s.pair: s for field in scored.result.standings.values() for s in field}
    return [
        (ours, by_label[(pair.section.letter, str(pair.number), pair.direction)])
        for key, pair in scored.pairs.items() for ours in [standings.get(key)] if ours is not None
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("name", REPRODUCED)
def test_the_stored_session_scores_as_the_program_published(name):
    imported = results_import(club=make_club(), data=data(name), filename=name)
    assert imported.comparison.agrees, imported.summary()
    # Checked again here with the oracle's own comparison, straight from the database.
    scored = session_score(session=imported.session)
    parsed = parse_results_file(data(name))
    pairs = stored_and_published_pairs(scored, parsed)
    assert len(pairs) == len(parsed.pairs)
    for ours, published in pairs:
        figure, expected = (
            (ours.percentage, published.published_percentage) if scored.is_matchpoints
            else (ours.total, published.published_total)
        )
        assert agrees_to_the_hundredth(figure, expected), ours.pair
        assert place_agrees(published.published_place, ours.place, ours.rank), ours.pair
    for ours, line in stored_and_published_lines(scored, parsed):
        assert agrees_to_the_hundredth(ours.ns_points, line.published_ns_points)
        assert agrees_to_the_hundredth(ours.ew_points, line.published_ew_points)


@pytest.mark.django_db
@pytest.mark.parametrize("name", LINES_REPRODUCED)
def test_the_stored_session_reproduces_every_line_and_place(name):
    # Their totals are the programs' own per-board or per-comparison figures
    # (tests/formats/test_real_sessions.py); lines and places are ours to match.
    imported = results_import(club=make_club(), data=data(name), filename=name)
    assert imported.comparison.line_differences == (), imported.summary()
    scored = session_score(session=imported.session)
    parsed = parse_results_file(data(name))
    lines = stored_and_published_lines(scored, parsed)
    assert len(lines) == imported.comparison.lines_compared
    for ours, line in lines:
        assert agrees_to_the_hundredth(ours.ns_points, line.published_ns_points)
        assert agrees_to_the_hundredth(ours.ew_points, line.published_ew_points)
        assert ours.datum == line.published_datum or line.published_datum is None
    for ours, published in stored_and_published_pairs(scored, parsed):
        assert place_agrees(published.published_place, ours.place, ours.rank), ours.pair
    assert list(scored.result.standings) == [""]  # both programs rank every pair together


@pytest.mark.django_db
def test_differences_from_the_file_are_counted_and_named():
    # EBUScore adds its 2-decimal lines; an event adding exact lines puts two pairs 0.01 away.
    club = make_club()
    exact = make_event(club, line_decimals=None)
    imported = results_import(club=club, data=data("usebio/uk_00210009+002061.xml"), filename="x.xml", event=exact)
    comparison = imported.comparison
    assert comparison.line_differences == ()
    assert [text.split(":")[0] for text in comparison.pair_differences] == ["16EW", "18EW"]
    assert "2 of 18 pairs" in imported.summary()[3]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "settings"),
    [
        ("usebio/uk_00210009+002061.xml", {"line_decimals": 2, "short_boards": "neuberg"}),  # EBUScore
        ("usebio/uk_00202131+001686.xml", {"line_decimals": 1}),  # ScoreBridge
        ("usebio/uk_brian_welwyn_20250409.xml", {"short_boards": "none", "line_decimals": None}),  # BriAn
        ("usebio/cobalt_mp_pairs_mitchell_04.xml", {"line_display": "as_played", "rankings": "auto"}),
        ("pbn/ruter_cross_imp_league.pbn", {"cross_imps": "sum", "across_field": True, "rankings": "one"}),
        ("usebio/nzscorer_multi-section-multi-movement-pairs.xml", {"across_field": True, "rankings": "one"}),
        ("pbn/magiccontest_butler_median.pbn", {"butler_datum": "median_small", "rankings": "auto"}),
    ],
)
def test_the_new_event_holds_the_programs_conventions(name, settings):
    imported = results_import(club=make_club(), data=data(name), filename="x")
    event = imported.session.event
    assert {option: getattr(event, option) for option in settings} == settings
    assert not imported.session.arrow_switch  # the file says nothing of an arrow-switch


@pytest.mark.django_db
def test_a_mitchell_ranked_in_one_field_gets_one_ranking_not_an_arrow_switch():
    imported = results_import(club=make_club(), data=data("pbn/ruter_cross_imp_league.pbn"), filename="x.pbn")
    assert imported.session.is_mitchell and not imported.session.arrow_switch
    assert list(session_score(session=imported.session).result.standings) == [""]


@pytest.mark.django_db
def test_an_event_ranking_otherwise_than_the_file_is_noted():
    club = make_club()
    two = make_event(club, method="cross_imps", cross_imps="sum", across_field=True, rankings="two")
    imported = results_import(club=club, data=data("pbn/ruter_cross_imp_league.pbn"), filename="x.pbn", event=two)
    assert list(session_score(session=imported.session).result.standings) == ["EW", "NS"]
    assert any("ranks the pairs otherwise than the file" in note for note in imported.notes)


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
def test_imported_lines_carry_the_defaults_timestamps_and_author_of_a_stored_line(director):
    started = timezone.now()
    imported = results_import(club=make_club(), data=data(GOOD_USEBIO), filename="x.xml", user=director)
    lines = Result.objects.filter(board__session=imported.session)
    assert lines.count() == imported.lines
    assert set(lines.values_list("version", "group", "weighted_parts", "updated_by")) == {(1, None, None, director.pk)}
    for line in lines:
        assert started <= line.created_at <= timezone.now() and started <= line.updated_at <= timezone.now()
    seating = Seating.objects.filter(section__session=imported.session).first()
    assert isinstance(seating.boards, list) and seating.boards


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
