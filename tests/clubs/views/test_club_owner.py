"""The club owner's pages: settings and directors, as the owner uses them.

Who may not use them (403 for a director who is not an owner, 404 for everyone else)
is walked in test_director_access.py.
"""

import pytest
from django.test import Client
from django.urls import reverse

from sessions.models import Club, ClubDirector
from tests.factories import make_user


@pytest.fixture
def owner(client, director):
    client.force_login(director)
    return client


def settings_url(club: Club) -> str:
    return reverse("sessions:director_club_settings", args=[club.slug])


def directors_url(club: Club) -> str:
    return reverse("sessions:director_club_directors", args=[club.slug])


def roles(club: Club) -> dict[str, bool]:
    return dict(ClubDirector.objects.filter(club=club).values_list("user__username", "is_owner"))


def test_the_owner_changes_the_club_and_its_public_page_shows_it(owner, club):
    response = owner.post(settings_url(club), {
        "name": "Home Bridge Club", "description": "Tuesdays at 7.30.", "website": "homebridge.example.org",
    })

    assert response.status_code == 302 and response.url == settings_url(club)
    public = owner.get(reverse("sessions:club", args=[club.slug])).content.decode()
    assert "<h1>Home Bridge Club</h1>" in public and "Tuesdays at 7.30." in public
    assert 'href="https://homebridge.example.org"' in public


def test_the_settings_form_shows_the_club_as_stored(owner, club):
    club.description = "Visitors welcome."
    club.save()

    html = owner.get(settings_url(club)).content.decode()

    assert 'value="Home Club"' in html and ">\nVisitors welcome.</textarea>" in html


@pytest.mark.parametrize("data, message", [
    ({"name": "", "website": ""}, "This field is required."),
    ({"name": "Club", "website": "not a website"}, "Enter a valid URL."),
])
def test_bad_settings_are_explained_and_change_nothing(owner, club, data, message):
    response = owner.post(settings_url(club), data)

    assert response.status_code == 200 and message in response.content.decode()
    assert "<h1>Settings of Home Club</h1>" in response.content.decode()
    assert Club.objects.get(pk=club.pk).name == "Home Club"


def test_the_directors_page_lists_each_director_with_role(owner, club, co_director):
    html = owner.get(directors_url(club)).content.decode()

    assert "director <small>(you)</small>" in html and "co_director" in html
    assert html.count("<td>Owner</td>") == 1 and html.count("<td>Director</td>") == 1


def test_the_owner_adds_a_director_by_email(owner, club):
    newcomer = make_user("newcomer")
    newcomer.email = "new@example.org"
    newcomer.save()

    response = owner.post(directors_url(club), {"identifier": "new@example.org"}, follow=True)

    assert "newcomer now directs Home Club." in response.content.decode()
    assert roles(club) == {"director": True, "newcomer": False}


def test_adding_someone_without_an_account_is_explained_and_keeps_what_was_typed(owner, club):
    response = owner.post(directors_url(club), {"identifier": "<b>ghost</b>"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "must first have an account" in html and 'value="&lt;b&gt;ghost&lt;/b&gt;"' in html
    assert roles(club) == {"director": True}


def test_the_last_owner_cannot_remove_themselves(owner, club, director):
    mine = ClubDirector.objects.get(club=club, user=director)

    response = owner.post(reverse("sessions:director_club_director_remove", args=[club.slug, mine.pk]), follow=True)

    assert "the club&#x27;s only owner: make another director an owner first" in response.content.decode()
    assert roles(club) == {"director": True}


def test_an_owner_who_hands_over_and_leaves_lands_on_the_dashboard(owner, club, director, co_director):
    theirs = ClubDirector.objects.get(club=club, user=co_director)
    mine = ClubDirector.objects.get(club=club, user=director)
    owner.post(reverse("sessions:director_club_director_owner", args=[club.slug, theirs.pk]), {"is_owner": "1"})

    response = owner.post(reverse("sessions:director_club_director_remove", args=[club.slug, mine.pk]))

    assert response.status_code == 302 and response.url == reverse("sessions:director_dashboard")
    assert roles(club) == {"co_director": True}
    assert owner.get(directors_url(club)).status_code == 404  # no longer a director of the club


def test_a_membership_of_another_club_is_not_found(owner, club, outsider):
    elsewhere = ClubDirector.objects.get(user=outsider)

    response = owner.post(reverse("sessions:director_club_director_remove", args=[club.slug, elsewhere.pk]))

    assert response.status_code == 404 and ClubDirector.objects.filter(pk=elsewhere.pk).exists()


def test_a_bad_owner_choice_is_refused(owner, club, co_director):
    theirs = ClubDirector.objects.get(club=club, user=co_director)

    response = owner.post(reverse("sessions:director_club_director_owner", args=[club.slug, theirs.pk]),
                          {"is_owner": "maybe"}, follow=True)

    assert "Choose owner or director." in response.content.decode()
    assert roles(club) == {"director": True, "co_director": False}


def test_the_dashboard_offers_the_club_pages_to_owners_only(client, club, director, co_director):
    client.force_login(director)
    assert settings_url(club) in client.get(reverse("sessions:director_dashboard")).content.decode()

    client.force_login(co_director)
    html = client.get(reverse("sessions:director_dashboard")).content.decode()
    assert "Home Club" in html and settings_url(club) not in html and directors_url(club) not in html


# --- failed logins ------------------------------------------------------------------------------


def fail_logins(username: str, address: str, times: int) -> None:
    for _ in range(times):
        Client().post(reverse("login"), {"username": username, "password": "wrong"}, REMOTE_ADDR=address)


def log_in(username: str, address: str) -> int:
    return Client().post(reverse("login"), {"username": username, "password": "pw"}, REMOTE_ADDR=address).status_code


def unlock_url(club: Club, username: str) -> str:
    membership = ClubDirector.objects.get(club=club, user__username=username)
    return reverse("sessions:director_club_director_unlock", args=[club.slug, membership.pk])


def test_the_owner_sees_a_directors_lockout_and_unlocks_it(owner, club, co_director, settings):
    fail_logins("co_director", "10.9.9.9", settings.LOGIN_FAILURE_LIMIT)
    assert log_in("co_director", "10.9.9.9") == 429

    html = owner.get(directors_url(club)).content.decode()
    assert "lately; locked out from 10.9.9.9" in html  # the refused right password counts too
    response = owner.post(unlock_url(club, "co_director"), follow=True)

    assert "co_director&#x27;s failed logins are cleared" in response.content.decode()
    assert log_in("co_director", "10.9.9.9") == 302
    assert "locked out from" not in owner.get(directors_url(club)).content.decode()


def test_the_directors_page_shows_no_failures_of_anyone_outside_the_club(owner, club, outsider):
    fail_logins("outsider", "10.9.9.9", 2)

    html = owner.get(directors_url(club)).content.decode()

    assert "lately" not in html and "10.9.9.9" not in html


@pytest.mark.parametrize(("persona", "status"), [("co_director", 403), ("outsider", 404), ("member", 404)])
def test_only_an_owner_of_the_club_unlocks_its_directors(client, club, co_director, persona, status, request, settings):
    fail_logins("director", "10.9.9.9", settings.LOGIN_FAILURE_LIMIT)
    client.force_login(request.getfixturevalue(persona))

    assert client.post(unlock_url(club, "director")).status_code == status
    assert log_in("director", "10.9.9.9") == 429
