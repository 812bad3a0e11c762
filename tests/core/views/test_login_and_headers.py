"""Logging in is throttled per account and per address; every page carries a strict CSP."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_user

LOGIN = "/accounts/login/"


@pytest.fixture
def director_account(db):
    return make_user("director-x", password="right-password")


def fail(client, username="director-x", address="10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": "wrong"}, REMOTE_ADDR=address)


def login(username="director-x", password="right-password", address="10.0.0.99"):
    return Client().post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_failures_from_other_addresses_never_lock_the_owner_out(director_account, settings):
    for attempt in range(settings.LOGIN_FAILURE_LIMIT + 1):
        fail(Client(), address=f"10.0.0.{attempt + 1}")

    assert login(address="10.0.0.99").status_code == 302


def test_an_account_is_locked_at_an_address_after_five_failures_from_it(director_account, settings):
    make_user("director-y", password="other-password")
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert fail(client, address="10.9.9.9").status_code == 200
    assert fail(client, address="10.9.9.9").status_code == 429  # the last allowed failure locks

    locked = client.post(LOGIN, {"username": "director-x", "password": "right-password"}, REMOTE_ADDR="10.9.9.9")

    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "ask an owner of your club to unlock it" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert login(address="10.1.1.1").status_code == 302  # the account elsewhere
    assert login("director-y", "other-password", address="10.9.9.9").status_code == 302  # another account there


def test_an_account_failed_from_many_addresses_gives_each_new_address_fewer_tries(director_account, settings):
    for attempt in range(settings.LOGIN_ACCOUNT_ALERT):
        fail(Client(), address=f"10.5.{attempt // 200}.{attempt % 200 + 1}")

    guesser = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT_ALERTED):
        fail(guesser, address="10.6.0.1")
    assert login(address="10.6.0.1").status_code == 429  # that address had its tries

    assert login(address="10.7.0.1").status_code == 302  # the owner, from a new address


PROXY = "192.0.2.10"


def test_behind_a_proxy_failures_count_against_the_client_not_the_proxy(director_account, settings):
    settings.TRUSTED_PROXIES = 1
    guesser = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        guesser.post(LOGIN, {"username": "director-x", "password": "wrong"})

    right = {"username": "director-x", "password": "right-password"}
    assert guesser.post(LOGIN, right).status_code == 429
    assert Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7").post(LOGIN, right).status_code == 302


def test_without_a_proxy_a_forged_forwarded_header_changes_nothing(director_account, settings):
    settings.TRUSTED_PROXIES = 0
    for attempt in range(settings.LOGIN_FAILURE_LIMIT):
        client = Client(REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR=f"203.0.113.{attempt + 1}")
        client.post(LOGIN, {"username": "director-x", "password": "wrong"})

    locked = Client(REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="198.51.100.7").post(
        LOGIN, {"username": "director-x", "password": "right-password"})

    assert locked.status_code == 429


def test_failed_logins_are_logged(director_account, caplog):
    with caplog.at_level("INFO"):
        fail(Client())
    assert any("AXES: User login failed" in record.getMessage() for record in caplog.records)


def test_a_good_login_still_works(director_account):
    response = Client().post(LOGIN, {"username": "director-x", "password": "right-password"})
    assert response.status_code == 302


@pytest.mark.parametrize("path", ["/", LOGIN])
def test_pages_carry_a_content_security_policy_and_a_permissions_policy(client, db, path):
    response = client.get(path)

    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response.headers["Permissions-Policy"]


def test_the_table_page_carries_the_policy_too(client, session):
    from sessions.phones.services.tables import table_links_ensure

    link = table_links_ensure(session=session)[0]
    response = client.get(reverse("sessions:table_page", args=[link.token]))

    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
