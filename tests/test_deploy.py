"""The production set-up as written in the repository: deploy/nginx.conf's routes and
gunicorn.conf.py's two pools (README "Production").

The phones of a whole evening must queue among themselves, never in front of the
players' reloads, so every table-phone route must reach the "tables" pool and every other
route the "pages" pool: a route added later under a new prefix is checked here too.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
NGINX = ROOT / "deploy" / "nginx.conf"
GUNICORN = ROOT / "gunicorn.conf.py"

#: The views whose routes are the table phones' (pairs and teams rooms).
PHONE_VIEWS = ("sessions.phones.views.phone", "sessions.phones.views.table", "sessions.phones.views.team_table")
#: What each pool is called in nginx.conf.
UPSTREAMS = {"pages": "clubscore_pages", "tables": "clubscore_tables"}


def nginx_config() -> str:
    return re.sub(r"#[^\n]*", "", NGINX.read_text())


def upstream_servers(config: str) -> dict[str, str]:
    """Each upstream's name and its (one) server address."""
    return {name: server for name, server in re.findall(r"upstream\s+(\w+)\s*\{[^}]*?server\s+([^;\s]+);", config)}


def locations(config: str) -> dict[str, str]:
    """Each prefix location of the TLS server and the upstream it passes to."""
    found = dict(re.findall(r"location\s+(/[^\s{]*)\s*\{[^}]*?proxy_pass\s+http://(\w+);", config))
    assert found, "deploy/nginx.conf passes no location to the app"
    return found


def pool_of(path: str, routes: dict[str, str]) -> str:
    """nginx's choice among prefix locations: the longest that the path starts with."""
    prefix = max((prefix for prefix in routes if path.startswith(prefix)), key=len)
    return routes[prefix]


def _sample(route: str) -> str:
    """A path the route matches: each converter given a value it accepts."""
    def value(match: re.Match) -> str:
        return "1" if match.group(1) in ("int", "int64") else "x"

    if route.startswith("^"):  # a regex route (the admin's): its literal start is enough
        return re.split(r"[\\(\[.*+?$]", route[1:], maxsplit=1)[0] + "x"
    return re.sub(r"<(?:(\w+):)?\w+>", value, route)


def app_routes(patterns=None, prefix: str = "/") -> list[tuple[str, str]]:
    """Every route of the project: a sample path and the module of its view."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        path = prefix + _sample(str(pattern.pattern))
        if isinstance(pattern, URLResolver):
            found += app_routes(pattern.url_patterns, path)
        elif isinstance(pattern, URLPattern):
            found.append((path, getattr(pattern.callback, "__module__", "")))
    return found


def test_every_phone_route_reaches_the_tables_pool_and_every_other_route_the_pages_pool():
    routes = locations(nginx_config())
    paths = app_routes()
    phones = [path for path, module in paths if module in PHONE_VIEWS]
    assert len(phones) >= 10 and len(paths) > 100  # the walk found the app's routes
    misrouted = [(path, module) for path, module in paths
                 if pool_of(path, routes) != UPSTREAMS["tables" if module in PHONE_VIEWS else "pages"]]
    assert misrouted == []


def test_a_table_phones_path_and_a_players_page_go_to_different_pools():
    routes = locations(nginx_config())
    assert pool_of("/t/abc/send/", routes) == "clubscore_tables"
    assert pool_of("/tt/abc/confirm/", routes) == "clubscore_tables"
    assert pool_of("/sessions/1/", routes) == "clubscore_pages"
    assert pool_of("/director/", routes) == "clubscore_pages"


def test_the_proxys_upstreams_are_where_gunicorn_binds_each_pool(monkeypatch):
    servers = upstream_servers(nginx_config())
    for pool, upstream in UPSTREAMS.items():
        monkeypatch.setenv("GUNICORN_POOL", pool)
        assert runpy.run_path(str(GUNICORN))["bind"] == [servers[upstream]]


def test_the_proxy_forwards_the_clients_address_and_scheme():
    config = nginx_config()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in config
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in config
    assert "proxy_set_header Host $host;" in config


def test_two_pools_keep_the_workers_and_connections_of_one(monkeypatch):
    monkeypatch.delenv("GUNICORN_WORKERS", raising=False)
    monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    monkeypatch.setattr("multiprocessing.cpu_count", lambda: 2)
    monkeypatch.delenv("GUNICORN_POOL", raising=False)
    one = runpy.run_path(str(GUNICORN))
    assert "bind" not in one  # one pool: gunicorn's own default or the command line's
    connections = []
    for pool in UPSTREAMS:
        monkeypatch.setenv("GUNICORN_POOL", pool)
        config = runpy.run_path(str(GUNICORN))
        assert config["proc_name"] == f"clubscore-{pool}" and config["worker_class"] == "gthread"
        connections.append(config["workers"] * config["threads"])
    assert sum(connections) == one["workers"] * one["threads"] <= 100 - 20


def test_an_unknown_pool_stops_gunicorn_with_what_to_set(monkeypatch):
    monkeypatch.setenv("GUNICORN_POOL", "phones")
    with pytest.raises(SystemExit, match="GUNICORN_POOL='phones': use one of pages, tables"):
        runpy.run_path(str(GUNICORN))
