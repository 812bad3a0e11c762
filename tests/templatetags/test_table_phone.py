"""The table phone's template tags (sessions/templatetags/table_phone.py): a static part
rendered once a process, the same as Django renders it."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from sessions.phones.services.tables import table_links_ensure
from sessions.templatetags import table_phone

KEYPAD = "phones/table/_keypad.html"


@pytest.fixture(autouse=True)
def nothing_rendered_yet():
    table_phone._rendered.cache_clear()
    yield
    table_phone._rendered.cache_clear()


def _counting_renders(monkeypatch) -> list[str]:
    rendered: list[str] = []

    def render(name, *args, **kwargs):
        rendered.append(name)
        return render_to_string(name, *args, **kwargs)

    monkeypatch.setattr(table_phone, "render_to_string", render)
    return rendered


def test_a_static_part_is_the_template_as_django_renders_it_once_a_process(settings, monkeypatch):
    settings.DEBUG = False
    rendered = _counting_renders(monkeypatch)

    first, again = table_phone.static_part(KEYPAD), table_phone.static_part(KEYPAD)

    assert first == again == render_to_string(KEYPAD)
    assert rendered == [KEYPAD]


def test_while_debug_a_static_part_is_rendered_at_each_use(settings, monkeypatch):
    settings.DEBUG = True
    rendered = _counting_renders(monkeypatch)

    table_phone.static_part(KEYPAD)
    table_phone.static_part(KEYPAD)

    assert rendered == [KEYPAD, KEYPAD]


def test_the_send_form_carries_the_whole_keypad(client, session):
    link = table_links_ensure(session=session)[0]
    html = client.get(reverse("sessions:table_page", args=[link.token])).content.decode()
    keys = re.findall(r'data-key="(\w+)" data-value="([^"]*)"', html)

    assert [value for key, value in keys if key == "level"] == list("1234567")
    assert [value for key, value in keys if key == "declarer"] == list("NESW")
    assert [value for key, value in keys if key == "outcome"] == ["=", *(f"+{n}" for n in range(1, 7)),
                                                                   *(f"-{n}" for n in range(1, 8))]
    assert {value for key, value in keys if key == "strain"} == {"C", "D", "H", "S", "NT"}
    assert html.count('class="keypad" hidden') == 1
