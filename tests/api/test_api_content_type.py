"""No other web page can drive the JSON API: every unsafe request under /api/ must be sent as application/json
(which a cross-site form or a simple fetch can't send), and a browser's cross-site request is refused outright.

Finding 3 of the probe: a page on another origin undid two taps and finished a live game 0-0 with text/plain
and empty bodies, since /api/ skips the CSRF check. Each case here changes nothing, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from companion import create_app
from tests.helpers import Client, csrf_client, postgres_url

UNSAFE = ["POST", "PUT", "PATCH", "DELETE"]
# What a page on another site can send without a CORS preflight, and what a careless program sends.
NOT_JSON = [
    pytest.param({}, id="no-body-no-type"),
    pytest.param({"data": "{}", "content_type": "text/plain"}, id="text-plain-json"),
    pytest.param({"data": "{}", "content_type": "text/plain;charset=UTF-8"}, id="text-plain-charset"),
    pytest.param({"data": {"action": "undo"}}, id="form-urlencoded"),
    pytest.param({"data": "", "content_type": "application/x-www-form-urlencoded"}, id="empty-form"),
    pytest.param({"data": "x", "content_type": "multipart/form-data; boundary=x"}, id="multipart"),
    pytest.param({"data": "{}", "content_type": "application/jsonp"}, id="near-json"),
    pytest.param({"data": "{}", "content_type": "json"}, id="bare-json-word"),
]
WRONG_TYPE = "Send the request as application/json"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def api_app(request, tmp_path) -> Iterator[Flask]:
    """The app on SQLite or PostgreSQL."""
    urls = iter([f"sqlite:///{tmp_path / 'db.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "api", "DATABASE_URL": next(urls)})
    app.test_client_class = Client
    yield app
    app.extensions["db_engine"].dispose()
    next(urls, None)


@pytest.fixture
def api(api_app: Flask) -> Client:
    """A program's client: no CSRF token, no browser headers."""
    return api_app.test_client()  # type: ignore[return-value]


def send(client: Client, method: str, url: str, body: Any = None, **headers: str):
    """A JSON request as another tool sends it."""
    return client.open(url, method=method, json=body, headers=headers, csrf=False)


def spqf_play_with_two_taps(client: Client) -> int:
    """A live SPQF play where Ann has 3 VP tokens from two taps; its id."""
    started = send(
        client, "POST", "/api/v1/plays", {"game": "spqf", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert started.status_code == 201, started.get_json()
    play = started.get_json()["id"]
    for delta in (1, 2):
        action = {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": delta}
        assert send(client, "POST", f"/api/v1/plays/{play}/actions", action).status_code == 200
    return play


def view(client: Client, play: int) -> dict[str, Any]:
    """The play view as the API reads it."""
    return client.get(f"/api/v1/plays/{play}").get_json()


def ann_tokens(client: Client, play: int) -> int:
    """Ann's VP tokens as stored."""
    return view(client, play)["players"][0]["vp_tokens"]


def api_rules(app: Flask) -> list[tuple[str, str]]:
    """(method, URL) of every unsafe API route of the URL map, with a play id filled in."""
    adapter = app.url_map.bind("localhost")
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        values = {name: "spqf" if name == "game_id" else 1 for name in rule.arguments}
        url = adapter.build(rule.endpoint, values)
        found += [(method, url) for method in sorted((rule.methods or set()) - {"GET", "HEAD", "OPTIONS"})]
    return found


@pytest.mark.parametrize("sent", NOT_JSON)
@pytest.mark.parametrize("route", ["undo", "finish"])
def test_undo_and_finish_refuse_what_is_not_json_and_change_nothing(api, sent: dict[str, Any], route: str) -> None:
    play = spqf_play_with_two_taps(api)
    response = api.post(f"/api/v1/plays/{play}/{route}", csrf=False, **sent)
    assert response.status_code == 415
    assert response.is_json
    [error] = response.get_json()["errors"]
    assert error["field"] == "" and WRONG_TYPE in error["message"]
    after = view(api, play)
    assert after["status"] == "in_progress" and after["result"] is None
    assert ann_tokens(api, play) == 3


def test_the_probe_s_attack_changes_nothing(api) -> None:
    """Two undos and a finish as a page on another site sends them (text/plain and empty, with its Origin)."""
    play = spqf_play_with_two_taps(api)
    foreign = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    for route, body in (("undo", "{}"), ("undo", ""), ("finish", "")):
        response = api.post(
            f"/api/v1/plays/{play}/{route}", data=body, content_type="text/plain", headers=foreign, csrf=False
        )
        assert response.status_code in (403, 415)
    assert ann_tokens(api, play) == 3 and view(api, play)["status"] == "in_progress"


@pytest.mark.parametrize("method", UNSAFE)
def test_every_unsafe_api_route_refuses_a_body_that_is_not_json(api_app: Flask, api, method: str) -> None:
    routes = [*api_rules(api_app), (method, "/api/v1/no-such-thing")]
    assert any(url.endswith("/undo") for _, url in routes) and any(url.endswith("/finish") for _, url in routes)
    for _route_method, url in routes:
        for body, content_type in (("", None), ("{}", "text/plain"), ("a=1", "application/x-www-form-urlencoded")):
            response = api.open(url, method=method, data=body, content_type=content_type, csrf=False)
            assert response.status_code == 415, (method, url, content_type)
            assert WRONG_TYPE in response.get_json()["errors"][0]["message"]


def test_undo_and_finish_work_with_an_empty_json_object(api) -> None:
    play = spqf_play_with_two_taps(api)
    undone = send(api, "POST", f"/api/v1/plays/{play}/undo", {})
    assert undone.status_code == 200 and ann_tokens(api, play) == 1
    finished = send(api, "POST", f"/api/v1/plays/{play}/finish", {})
    assert finished.status_code == 200 and finished.get_json()["result"] is not None


def test_json_with_a_charset_or_an_empty_body_is_json(api) -> None:
    play = spqf_play_with_two_taps(api)
    undone = api.post(f"/api/v1/plays/{play}/undo", data=b"", content_type="application/json", csrf=False)
    assert undone.status_code == 200
    action = json.dumps({"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 1})
    acted = api.post(
        f"/api/v1/plays/{play}/actions", data=action, content_type="application/json; charset=utf-8", csrf=False
    )
    assert acted.status_code == 200


def test_reading_needs_no_content_type(api) -> None:
    play = spqf_play_with_two_taps(api)
    assert api.get(f"/api/v1/plays/{play}").status_code == 200
    assert api.head(f"/api/v1/plays/{play}").status_code == 200


# Origin and Sec-Fetch-Site: a second line, for pages and the API --------------------------------------------


CROSS_SITE = [
    pytest.param({"Sec-Fetch-Site": "cross-site"}, id="sec-fetch-site"),
    pytest.param({"Origin": "http://evil.example"}, id="foreign-origin"),
    pytest.param({"Origin": "http://localhost:8080"}, id="other-port"),
    pytest.param({"Origin": "null"}, id="null-origin"),
    pytest.param({"Origin": "http://localhost.evil.example"}, id="lookalike"),
    pytest.param({"Origin": "http://[::1"}, id="broken-origin"),
    pytest.param({"Origin": "http://localhost", "Sec-Fetch-Site": "cross-site"}, id="both-say-cross"),
]
SAME_SITE = [
    pytest.param({}, id="no-headers"),
    pytest.param({"Origin": "http://localhost"}, id="same-origin"),
    pytest.param({"Origin": "HTTP://LOCALHOST:80"}, id="same-origin-spelled-out"),
    pytest.param({"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}, id="browser-same-origin"),
    pytest.param({"Sec-Fetch-Site": "none"}, id="typed-by-the-user"),
]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_api_request_is_403_and_changes_nothing(api, headers: dict[str, str]) -> None:
    play = spqf_play_with_two_taps(api)
    response = send(api, "POST", f"/api/v1/plays/{play}/undo", {}, **headers)
    assert response.status_code == 403
    assert "another website" in response.get_json()["errors"][0]["message"]
    assert ann_tokens(api, play) == 3


@pytest.mark.parametrize("headers", SAME_SITE)
def test_same_origin_and_programs_pass(api, headers: dict[str, str]) -> None:
    play = spqf_play_with_two_taps(api)
    assert send(api, "POST", f"/api/v1/plays/{play}/undo", {}, **headers).status_code == 200


def test_public_url_is_this_site_too(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "api",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}",
            "PUBLIC_URL": "https://club.example/companion",
        }
    )
    app.test_client_class = Client
    client = app.test_client()
    body = {"game": "spqf", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    assert send(client, "POST", "/api/v1/plays", body, Origin="https://club.example").status_code == 201
    assert send(client, "POST", "/api/v1/plays", body, Origin="http://club.example").status_code == 403
    app.extensions["db_engine"].dispose()


@pytest.fixture
def page_client(api_app: Flask) -> Client:
    """A browser's client: its session holds the CSRF token, which it sends."""
    return csrf_client(api_app)


def start_page_play(client: Client, **headers: str):
    """POST the new-play form (with the CSRF token)."""
    return client.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob"}, headers=headers)


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_form_post_is_403_even_with_the_token(page_client, headers: dict[str, str]) -> None:
    response = start_page_play(page_client, **headers)
    assert response.status_code == 403
    page = response.get_data(as_text=True)
    assert "came from another website" in page and "<html" in page
    assert page_client.get("/history/in-progress").get_data(as_text=True).count("Ann") == 0


def test_a_cross_site_htmx_post_is_403_in_the_flash(page_client) -> None:
    played = start_page_play(page_client)
    play = int(played.headers["Location"].rsplit("/", 1)[1])
    response = page_client.htmx("POST", f"/plays/{play}/undo", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert response.headers["HX-Retarget"] == "#flash"
    assert "came from another website" in response.get_data(as_text=True)


@pytest.mark.parametrize("headers", SAME_SITE)
def test_a_same_origin_form_post_passes(page_client, headers: dict[str, str]) -> None:
    assert start_page_play(page_client, **headers).status_code == 303


def test_a_cross_site_link_that_only_reads_is_served(page_client) -> None:
    response = page_client.get("/", headers={"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"})
    assert response.status_code == 200
