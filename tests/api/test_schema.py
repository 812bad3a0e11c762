"""The API's OpenAPI schema is valid OpenAPI 3, and every endpoint answers what it says.

Every path the schema lists is fetched on the demo club (load_demo: a published,
final 7-table Mitchell) and a published teams event, each parameter given a real
object's value, and its 200 answer is checked against the schema's own response schema
(JSON Schema, with the schema's components): a field the schema promises and the answer
lacks, or a type it does not have, fails.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from sessions.models import Event, Pair, Player, Session
from sessions.teams.services.teams import match_record_line, round_robin_schedule, team_event_publish
from tests.factories import make_team_event

SCHEMA_URL = "/api/v1/schema/"


@pytest.fixture
def spec(client, db):
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def test_the_schema_is_valid_openapi_3(spec):
    validate(spec)  # raises on anything invalid
    assert spec["openapi"].startswith("3.")
    assert spec["info"]["title"] == "ClubScore API"


def test_the_schema_documents_every_resource_and_the_bearer_key(spec):
    paths = set(spec["paths"])
    assert {
        "/api/v1/clubs/", "/api/v1/clubs/{club_slug}/", "/api/v1/clubs/{club_slug}/sessions/",
        "/api/v1/clubs/{club_slug}/events/", "/api/v1/clubs/{club_slug}/players/", "/api/v1/clubs/{club_slug}/teams/",
        "/api/v1/events/{event_id}/", "/api/v1/players/{player_id}/", "/api/v1/sessions/{session_id}/",
        "/api/v1/sessions/{session_id}/ranking/", "/api/v1/sessions/{session_id}/boards/{number}/",
        "/api/v1/sessions/{session_id}/pairs/{pair_id}/", "/api/v1/teams/{event_id}/",
    } <= paths
    assert spec["components"]["securitySchemes"]["clubKey"] == {"type": "http", "scheme": "bearer"}
    assert all(set(operations) == {"get"} for operations in spec["paths"].values())  # read-only


@pytest.fixture
def demo_values(db, club):
    call_command("load_demo", stdout=io.StringIO())
    session = Session.objects.get(published=True, event__club__slug="demo")
    teams = make_team_event(club, teams=4, form="round_robin")
    match = round_robin_schedule(event=teams)[0]
    match_record_line(match=match, board=1, room="open", text="4S N =")
    match_record_line(match=match, board=1, room="closed", text="4S N -1")
    team_event_publish(event=teams)
    pair = Pair.objects.filter(section__session=session).first()
    return {
        "club_slug": "demo", "session_id": session.pk, "number": 1, "pair_id": pair.pk,
        "player_id": Player.objects.filter(club__slug="demo").first().pk,
        "event_id": Event.objects.get(club__slug="demo").pk, "teams_event_id": teams.pk,
    }


def _validator(spec: dict, path: str) -> Draft202012Validator:
    schema = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": spec["components"]})


def test_every_endpoint_answers_as_its_schema_says(client, spec, demo_values):
    checked = []
    for path in spec["paths"]:
        if path == SCHEMA_URL:
            continue
        values = dict(demo_values, event_id=demo_values["teams_event_id"]) if "/teams/{" in path else demo_values
        url = path.format(**values)
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.json()
        errors = sorted(_validator(spec, path).iter_errors(body), key=str)
        assert not errors, f"{url}: {errors[0].message} at {list(errors[0].absolute_path)}"
        assert body, url
        checked.append(path)
    assert len(checked) == 13
