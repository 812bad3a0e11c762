"""The Phone base (sessions/phones/views/phone.py): a phone's addresses, reversed once a route."""

import pytest
from django.urls import clear_script_prefix, reverse, set_script_prefix

from sessions.phones.views.phone import PHONE_ROUTES, phone_address

#: Every route of both kinds of phone, by name.
ROUTES = [f"sessions:{kind}_{name}" for kind in ("table", "team_table") for name in PHONE_ROUTES] + [
    f"sessions:table_{name}" for name in ("players", "email", "deal")]
TOKENS = ["Xb3_-9kQz", "a" * 64, "-", "0tokenplace0"]


@pytest.mark.parametrize("prefix", ["/", "/club/"])
def test_a_phones_address_is_djangos_reverse_for_every_route_token_and_script_prefix(prefix):
    set_script_prefix(prefix)
    try:
        for route in ROUTES:
            for token in TOKENS:
                assert phone_address(route, token) == reverse(route, args=[token]), (route, token)
        assert phone_address("sessions:table_send", "Xb3").startswith(prefix + "t/Xb3/")
    finally:
        clear_script_prefix()


def test_what_is_no_token_is_reversed_as_django_reverses_it():
    for text in ("a b", "é", "x" * 65):
        assert phone_address("sessions:table_page", text) == reverse("sessions:table_page", args=[text])
