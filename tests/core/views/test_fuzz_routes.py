"""Every route, fed hostile input, answers anything but a server error (issue 25).

The URL resolver is walked (as in test_director_access) and each route gets a bounded,
repeatable run of hypothesis examples, as an anonymous visitor and as the club's
director: its URL parameters (each the real object's, or hostile), query parameters and
form fields (the names its own page shows and the walk of writing requests posts,
real values or hostile ones). Hostile means NUL, thousands of digits, digits that are
not ASCII, ids past 64 bits, "%", any unicode, nothing at all. Each example runs in a
savepoint rolled back after it, so a deleted session or a revoked link does not hide the
routes that follow; the cache (the table links' throttle) is emptied for each. The CSRF
check runs as in production, with the token posted (Django's error pages check it again).

A failure names the persona, method, address, query and form that got the 500.
"""

from __future__ import annotations

import re
from copy import deepcopy
from urllib.parse import quote, urlencode

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions.models import (
    ApiKey, ClubDirector, Competition, DirectorCall, ImportJob, MatchTableLink, Pair, Player, ProceduralPenalty, Result,
    ResultMail, ScorePad, Session, TableLink, TeamAdjustment, Webhook,
)
from sessions.core import kept_here
from sessions.core.selectors import kept_scores
from sessions.pairs.services.sessions import session_publish
from sessions.clubs.services.mail import unsubscribe_token
from sessions.teams.services.teams import adjustment_add, team_event_publish
from tests.core.views.test_director_access import (  # noqa: F401 (entered and team_event are fixtures)
    entered, team_event, teams_correcting_requests, teams_writing_requests, writing_requests,
)

#: Examples a route gets for each persona: enough to meet every kind of hostile value
#: on most of its parameters, few enough that the walk stays near a minute.
EXAMPLES = 12

HOSTILE = [
    "\x00", "a\x00", "9" * 5000, "9" * 40, str(2**63), str(2**64), str(-(2**63) - 1), "-1", "0", "²", "٣", "¹²",
    "%", "%00", "%zz", "", " ", "1.5", "1e400", "NaN", "ß", "😀", "\u202e", "\ud7ff", "[" * 3000, "A\x00", "1-²",
    "0x10", "١٢٣", "1 - 3", "null", "<script>",
]
hostile = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=12),
    st.integers().map(str),
    st.text(alphabet="0123456789", min_size=17, max_size=25),  # as from_regex("[0-9]{17,25}"), 4x faster to draw
)
#: Query parameters the views read (and django-tables2's).
QUERY_NAMES = ["event", "edit", "arrow_switch", "pairs", "sections", "rounds", "boards_per_round", "movement",
               "section", "board", "text", "q", "only", "focus", "era", "next", "sort", "page", "per_page"]
#: Fields some forms post that a page may not show (the htmx entry rows, the pad's sync).
EXTRA_FIELDS = ["row", "result", "version", "text", "lead", "action", "client_key", "board", "accept_warnings", "reason", "minutes",
                "confirm", "next", "stopped", "pad", "client_id", "round", "deal", "players", "captain", "merge",
                "drop_players", "movement", "event", "seen", "from_round", "status"]
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
NAME = re.compile(r"""<(?:input|select|textarea|button)\b[^>]*\bname="([^"]+)\"""")


def routes() -> list[tuple[str, str]]:
    """(route, name) of every URL but the admin's (Django's own)."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if str(pattern.pattern) != "admin/":
                    yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name or prefix + str(pattern.pattern)

    return list(walk(get_resolver().url_patterns))


@pytest.fixture
def world(request, director):
    """The access walk's session (lines, phone links, a spare session, players), published,
    and its teams event (a line, room links), published; with a kept pad, an import job
    and an adjustment: a real object for every URL parameter."""
    session, line = request.getfixturevalue("entered")
    events = request.getfixturevalue("team_event")
    session_publish(session=session)
    team_event_publish(event=events)
    club = session.event.club
    adjustment_add(event=events, team=events.teams.first(), kind="penalty", vp=1)
    pad = ScorePad.objects.create(user=director, client_id="abcdefgh", kind="rubber", names=["A", "B", "C", "D"],
                                  data={"kind": "rubber", "names": ["A", "B", "C", "D"], "rounds": []})
    job = ImportJob.objects.create(club=club, filename="x.pbn", size=1, data=b"x")
    posts: dict[str, list[dict]] = {}
    for url, data in [*writing_requests(session, line), *teams_writing_requests(events),
                      *teams_correcting_requests(events)[0]]:
        posts.setdefault(resolve(url).url_name, []).append({k: v for k, v in data.items() if not hasattr(v, "read")})
    values = {
        "session_id": session.pk, "number": 1, "pair_id": line.ns_pair_id, "letter": "A", "round": 1, "table": 1,
        "link_id": TableLink.objects.filter(session=session).first().pk, "result_id": line.pk,
        "club_slug": club.slug, "player_id": Player.objects.filter(club=club).first().pk,
        "membership_id": ClubDirector.objects.exclude(user=director).first().pk, "job_id": job.pk, "pk": pad.pk,
        "fmt": "pbn", "uidb64": "MQ", "match_id": events.matches.first().pk, "team_id": events.teams.first().pk,
        "adjustment_id": TeamAdjustment.objects.first().pk, "key_id": ApiKey.objects.get(club=club).pk,
        "mail_id": ResultMail.objects.first().pk,
        "webhook_id": Webhook.objects.get(club=club).pk,
        "competition_id": Competition.objects.get(event=session.event).pk,
        "call_id": DirectorCall.objects.get(session=session).pk,
        "penalty_id": ProceduralPenalty.objects.get().pk,
    }
    return {"session": session, "events": events, "values": values, "posts": posts, "pad": pad,
            "table_token": TableLink.objects.filter(session=session, revoked_at__isnull=True).first().token,
            "room_token": MatchTableLink.objects.filter(match__event=events, revoked_at__isnull=True).first().token}


def real_value(world, route: str, name: str) -> str:
    """The real object's value for a URL parameter of ``route``."""
    if name == "event_id":
        teams = route.startswith(("director/teams/", "teams/", "api/v1/teams/"))
        return str(world["events"].pk if teams else world["session"].event_id)
    if name == "call_id" and route.startswith("director/teams/"):
        return str(DirectorCall.objects.filter(team_event=world["events"]).first().pk)
    if name == "mail_id" and route.startswith("director/teams/"):
        return str(ResultMail.objects.filter(team_event=world["events"]).first().pk)
    if name == "link_id" and route.startswith("director/teams/"):
        return str(MatchTableLink.objects.filter(match__event=world["events"]).first().pk)
    if name == "token":
        if route.startswith("tt/"):
            return world["room_token"]
        if route.startswith("mail/"):
            return unsubscribe_token(Player.objects.filter(email_consent=True).first())
        return world["pad"].share_token if route.startswith("pad/") else world["table_token"]
    return str(world["values"][name])


def field_names(client: Client, path: str, posts: list[dict]) -> list[str]:
    """The fields the route's own page shows, those the access walk posts, and the extras."""
    response = client.get(path)
    shown = NAME.findall(response.content.decode(errors="replace")) if response.status_code == 200 else []
    posted = [name for data in posts for name in data]
    return sorted((set(shown) | set(posted) | set(EXTRA_FIELDS)) - {"csrfmiddlewaretoken"})


def fuzz_route(client: Client, world, route: str, name: str, persona: str) -> None:
    params = CONVERTER.findall(route)
    real = {param: real_value(world, route, param) for _, param in params}

    def build(chosen: dict[str, str]) -> str:
        return "/" + CONVERTER.sub(lambda m: quote(chosen[m.group(2)], safe=""), route)

    real_path = build(real)
    posts = world["posts"].get(name, [])
    names = field_names(client, real_path, posts)
    base = posts[0] if posts else {}
    cookies = deepcopy(client.cookies)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                     HealthCheck.large_base_example])
    @given(
        path_values=st.fixed_dictionaries({param: st.one_of(st.just(real[param]), hostile) for _, param in params}),
        query=st.dictionaries(st.sampled_from(QUERY_NAMES), hostile, max_size=4),
        method=st.sampled_from(["GET", "POST"]),
        form=st.dictionaries(st.sampled_from(names), st.one_of(hostile, st.lists(hostile, min_size=2, max_size=3)),
                             max_size=6),
        keep_base=st.booleans(),
        charset=st.sampled_from([None, None, None, "utf-8", "latin-1"]),
    )
    def example(path_values, query, method, form, keep_base, charset):
        cache.clear()
        kept_scores.forget_all()
        kept_here.forget_all()
        client.cookies = deepcopy(cookies)  # a logout or login in an earlier example is undone
        path = build(path_values)
        url = f"{path}?{urlencode(query, doseq=True)}" if query else path
        data = {"csrfmiddlewaretoken": client.cookies["csrftoken"].value, **(base if keep_base else {}), **form}
        asked = (f"{persona} {method} {path!r} (route {route}) query={query!r} form={data!r}"
                 f"{f' charset={charset}' if charset else ''}")
        with transaction.atomic():
            try:
                if method == "GET":
                    response = client.get(url)
                elif charset is None:
                    response = client.post(url, data)
                else:
                    response = client.generic("POST", url, urlencode(data, doseq=True).encode(),
                                              content_type=f"application/x-www-form-urlencoded; charset={charset}")
            except Exception as error:  # raised past Django's own handlers: the server's bare 500
                raise AssertionError(f"{asked}: {error!r}") from error
            finally:
                transaction.set_rollback(True)
        assert response.status_code < 500, f"{asked}: {response.status_code}"

    example()


@pytest.mark.parametrize("persona", ["anonymous", "director"])
def test_no_route_answers_hostile_input_with_a_server_error(world, director, persona):
    # CSRF checked as in production (the error pages check it too), with the token posted.
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    if persona == "director":
        client.force_login(director)
    client.get(reverse("login"))  # the CSRF cookie
    walked = routes()
    assert len(walked) > 100  # the resolver was walked, not an empty list

    for route, name in walked:
        fuzz_route(client, world, route, name, persona)

    # The examples were rolled back: the world is as the fixture left it.
    assert Session.objects.filter(pk=world["session"].pk, published=True).exists()
    assert Result.objects.filter(board__session=world["session"]).count() == 2
    assert Pair.objects.filter(section__session=world["session"]).count() == 6
