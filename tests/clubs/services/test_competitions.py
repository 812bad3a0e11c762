"""competition_create / competition_update: the rules checked, the club's revision bumped."""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Club
from sessions.clubs.services.competitions import competition_create, competition_update


def test_a_new_competition_keeps_the_default_rules_and_bumps_the_clubs_revision(event):
    before = Club.objects.get(pk=event.club_id).revision
    competition = competition_create(event=event, name="  Summer   Cup ")
    assert (competition.name, competition.points, competition.tie_break_order) == (
        "Summer Cup", (10, 9, 8, 7, 6, 5, 4, 3, 2, 1), ("butler", "head_to_head", "wins"))
    assert Club.objects.get(pk=event.club_id).revision > before


@pytest.mark.parametrize("settings", [
    {"place_points": "10, nine"}, {"place_points": ""}, {"tie_breaks": "wins,coin"}, {"tie_breaks": "wins,wins"},
    {"minimum_sessions": 5, "best_sessions": 3}, {"best_sessions": 0}, {"colour": "red"},
])
def test_impossible_rules_are_refused(event, settings):
    with pytest.raises(ValidationError):
        competition_create(event=event, name="Cup", **settings)


def test_an_update_changes_the_rules_and_bumps_the_clubs_revision(event):
    competition = competition_create(event=event, name="Cup")
    before = Club.objects.get(pk=event.club_id).revision
    competition_update(competition=competition, tie_breaks="wins, head_to_head", members_only=True)
    competition.refresh_from_db()
    assert competition.tie_break_order == ("wins", "head_to_head") and competition.members_only
    assert Club.objects.get(pk=event.club_id).revision > before
