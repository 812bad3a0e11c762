"""Values kept as objects in this process (sessions/core/kept_here.py): a table's setup.

The kept objects are shared by every request of the process, so a whole evening of a
table's phones (pages, sends, confirmations, a refusal, hands typed at the table, the
moves to the next round) must leave each one exactly as the shared cache's copy, which
was pickled when it was loaded. The conftest session is a 3-table Mitchell of 2 boards a
round (boards 1-6, three rounds).
"""

from __future__ import annotations

import pickle
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from sessions.core import kept_here, shared_cache
from sessions.models import Board
from sessions.phones.services.tables import table_links_ensure

SCRIPT = {"HTTP_HX_REQUEST": "true"}
NORTH, EAST, SOUTH = "A98.J92.A75.Q852", "532.86.K632.KJT7", "KQ4.AKT73.JT.A93"


@pytest.fixture
def links(session):
    return {link.table: link for link in table_links_ensure(session=session)}


def _post(client, link, route: str, data: dict) -> str:
    response = client.post(reverse(f"sessions:table_{route}", args=[link.token]), data, **SCRIPT)
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


def _play(client, link, board: int, text: str, *, answer: str = "confirm") -> str:
    key = uuid.uuid4().hex
    _post(client, link, "send", {"board": board, "text": text, "lead": "", "client_key": key})
    return _post(client, link, answer, {"client_key": key})


def _boards_of_round(session, table: int, round: int) -> list[int]:
    return list(session.sections.get().seatings.get(table=table, round=round).boards)


def test_an_evening_of_posts_leaves_every_kept_object_as_the_shared_cache_keeps_it(client, session, links):
    _post(client, links[1], "deal", {"board": 1, "north": NORTH, "east": EAST, "south": SOUTH, "west": "",
                                     "client_key": uuid.uuid4().hex})
    for round in (1, 2, 3):
        for table, link in links.items():
            client.get(reverse("sessions:table_page", args=[link.token]))
            first, second = _boards_of_round(session, table, round)
            _play(client, link, first, "4S N -1", answer="refuse")
            _play(client, link, first, "4S N =")
            _play(client, link, second, "3NT S +1")
        client.get(reverse("sessions:table_players", args=[links[1].token]))

    keys = kept_here.kept_keys()
    kinds = {key.split(":")[2] for key in keys}
    assert {"seatings", "deals", "round2", "round3"} <= kinds, keys  # what the walk must have kept
    for key in keys:
        copy = cache.get(key)
        assert copy is not None, key
        assert pickle.dumps(kept_here.kept(key), pickle.HIGHEST_PROTOCOL) == pickle.dumps(
            copy, pickle.HIGHEST_PROTOCOL), f"a request changed the object kept under {key}"


def test_a_post_reads_its_setup_from_this_processs_memory_until_the_setup_changes(client, session, links,
                                                                                  monkeypatch):
    page = reverse("sessions:table_page", args=[links[1].token])
    client.get(page)
    asked: list[str] = []
    shared_get = shared_cache.get
    monkeypatch.setattr(shared_cache, "get", lambda key, default=None: asked.append(key) or shared_get(key, default))

    _play(client, links[1], 1, "3NT N =")
    assert not [key for key in asked if key.startswith("clubscore:table:")]

    # The hands typed at the table draw a new setup token: the board is read anew, with them.
    assert '<option value="2"' in client.get(page).content.decode()
    _post(client, links[1], "deal", {"board": 2, "north": NORTH, "east": EAST, "south": SOUTH, "west": "",
                                     "client_key": uuid.uuid4().hex})
    assert Board.objects.get(session=session, number=2).deal
    assert '<option value="2"' not in client.get(page).content.decode()
    assert [key for key in asked if key.startswith("clubscore:table:deals:")]


def test_a_key_is_loaded_once_and_another_processs_copy_is_taken_from_the_shared_cache():
    loads: list[str] = []

    def load(value: str):
        return lambda: loads.append(value) or [value]

    first = kept_here.get_or_load("clubscore:test:a", load("a"), 60)
    assert kept_here.get_or_load("clubscore:test:a", load("again"), 60) is first
    assert loads == ["a"] and cache.get("clubscore:test:a") == ["a"]

    cache.set("clubscore:test:b", ["from another process"], 60)
    assert kept_here.get_or_load("clubscore:test:b", load("b"), 60) == ["from another process"]
    assert loads == ["a"]


def test_the_least_recently_read_key_goes_first(monkeypatch):
    monkeypatch.setattr(kept_here, "MOST_KEPT", 2)
    for key in ("a", "b"):
        kept_here.get_or_load(key, lambda: [1], 60)
    kept_here.get_or_load("a", lambda: [2], 60)  # read again: now the most recent
    kept_here.get_or_load("c", lambda: [3], 60)

    assert kept_here.kept_keys() == ["a", "c"]
    kept_here.forget_all()
    assert kept_here.kept_keys() == []
