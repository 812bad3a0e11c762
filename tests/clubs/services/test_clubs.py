"""A club owner's changes: the club's settings and who directs it; the club keeps an owner."""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Club, ClubDirector
from sessions.clubs.services.clubs import club_director_add, club_director_remove, club_director_set_owner, club_update
from tests.factories import make_club, make_user


def membership(club: Club, username: str) -> ClubDirector:
    return ClubDirector.objects.select_related("user").get(club=club, user__username=username)


def roles(club: Club) -> dict[str, bool]:
    return dict(ClubDirector.objects.filter(club=club).values_list("user__username", "is_owner"))


# --- settings ---------------------------------------------------------------------------


def test_the_club_settings_are_saved_cleaned_and_the_address_stays(club):
    slug = club.slug

    club_update(club=club, name="  Home \u202eClub  of   Bridge ", description="  Tuesdays at 7.30.\n", website="https://example.org/")

    club.refresh_from_db()
    assert (club.name, club.description, club.website, club.slug) == (
        "Home Club of Bridge", "Tuesdays at 7.30.", "https://example.org/", slug,
    )


@pytest.mark.parametrize("settings, field", [
    ({"name": ""}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"name": "Club", "website": "javascript:alert(1)"}, "website"),
    ({"name": "Club", "description": "x" * 1001}, "description"),
])
def test_bad_settings_are_refused_and_change_nothing(club, settings, field):
    with pytest.raises(ValidationError) as refused:
        club_update(club=club, **settings)

    assert field in refused.value.error_dict
    assert Club.objects.get(pk=club.pk).name == "Home Club"


# --- directors --------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["newcomer", "NEWCOMER", "new@example.org", " New@Example.org "])
def test_a_director_is_added_by_username_or_email_in_any_case(club, typed):
    newcomer = make_user("newcomer")
    newcomer.email = "new@example.org"
    newcomer.save()

    added = club_director_add(club=club, identifier=typed)

    assert added.user.username == "newcomer" and not added.is_owner
    assert roles(club) == {"director": True, "newcomer": False}


def test_a_director_may_be_added_as_an_owner(club):
    make_user("newcomer")

    club_director_add(club=club, identifier="newcomer", is_owner=True)

    assert roles(club) == {"director": True, "newcomer": True}


@pytest.mark.parametrize("typed, message", [
    ("nobody", "nobody has the username or e-mail 'nobody'"),
    ("", "type the username or e-mail"),
    ("director", "director already directs Home Club"),
    ("shared@example.org", "several accounts match 'shared@example.org'"),
])
def test_an_unknown_ambiguous_or_existing_director_is_refused(club, typed, message):
    for name in ("first", "second"):
        user = make_user(name)
        user.email = "shared@example.org"
        user.save()

    with pytest.raises(ValidationError, match=message):
        club_director_add(club=club, identifier=typed)

    assert roles(club) == {"director": True}


def test_an_exact_username_wins_over_an_email_of_another_account(club):
    make_user("ann")
    other = make_user("someone")
    other.email = "ann"  # odd, but Django allows it
    other.save()

    assert club_director_add(club=club, identifier="ann").user.username == "ann"


def test_a_director_is_removed(club, co_director):
    club_director_remove(membership=membership(club, "co_director"))

    assert roles(club) == {"director": True}


def test_the_last_owner_cannot_be_removed_or_demoted(club, co_director):
    owner = membership(club, "director")

    with pytest.raises(ValidationError, match="only owner"):
        club_director_remove(membership=owner)
    with pytest.raises(ValidationError, match="only owner"):
        club_director_set_owner(membership=owner, is_owner=False)

    assert roles(club) == {"director": True, "co_director": False}


def test_an_owner_may_leave_once_another_director_owns_the_club(club, co_director):
    club_director_set_owner(membership=membership(club, "co_director"), is_owner=True)

    club_director_remove(membership=membership(club, "director"))

    assert roles(club) == {"co_director": True}


def test_another_clubs_owners_do_not_count(club, director):
    other = make_club(directors=[make_user("elsewhere")])
    ClubDirector.objects.create(club=other, user=director, is_owner=True)

    with pytest.raises(ValidationError):
        club_director_remove(membership=membership(club, "director"))
