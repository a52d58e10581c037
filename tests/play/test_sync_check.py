"""The sync check's "nothing new" answered in front of the app (companion/play/sync_check.py, issue 21): only when
the app would answer the same, with the same empty 200, and everything else left to the app."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from companion import create_app
from companion.play import sync_check
from companion.store import play_version
from companion.web.security import SECURITY_HEADERS
from tests.helpers import api_act, csrf_client, shown_version, start_play

CODE = "tavern-42"


def make_app(tmp_path, **config) -> Flask:
    """An app on its own SQLite file with the given settings."""
    base = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"}
    return create_app({**base, **config})


@pytest.fixture
def hooks(app: Flask) -> list[str]:
    """The paths of the requests that reached the app's own machinery (a before-request hook of the test's)."""
    from flask import request

    reached: list[str] = []
    app.before_request_funcs.setdefault(None, []).insert(0, lambda: reached.append(request.path) and None)
    return reached


def check(client, play_id: int | str, since: int | str, **headers: str):
    """The tracker's sync check as htmx sends it."""
    return client.get(f"/plays/{play_id}/live?since={since}&log_waiting=1", headers={"HX-Request": "true", **headers})


def version_of(client, play_id: int) -> int:
    """The version the tracker page shows."""
    return shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))[0]


def test_nothing_new_is_answered_before_the_app_as_an_empty_200(client, play_id, hooks) -> None:
    version = version_of(client, play_id)
    hooks.clear()
    answer = check(client, play_id, version)
    assert (answer.status_code, answer.data, answer.headers["Content-Length"]) == (200, b"", "0")
    for name, value in SECURITY_HEADERS:
        assert answer.headers[name] == value
    assert hooks == []


def test_the_app_answers_nothing_new_the_same_way(app, client, play_id) -> None:
    version = version_of(client, play_id)
    fast = check(client, play_id, version)
    # Without the middleware (the app's own view, as when the fast path declines): the same status, body, headers.
    logged = app.wsgi_app
    assert isinstance(logged.wsgi_app, sync_check.NothingNew)
    logged.wsgi_app = logged.wsgi_app.wsgi_app
    slow = check(client, play_id, version)
    assert (slow.status_code, slow.data) == (fast.status_code, fast.data) == (200, b"")
    assert {name: slow.headers[name] for name, _ in SECURITY_HEADERS} == {
        name: fast.headers[name] for name, _ in SECURITY_HEADERS
    }


def test_a_change_goes_to_the_app_and_comes_back_whole(client, play_id, hooks) -> None:
    version = version_of(client, play_id)
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "crowns", "delta": 2})
    hooks.clear()
    answer = check(client, play_id, version)
    assert answer.status_code == 200 and shown_version(answer.get_data(as_text=True)) == (version + 1, True)
    assert hooks == [f"/plays/{play_id}/live"]
    hooks.clear()
    assert check(client, play_id, version + 1).data == b"" and hooks == []


@pytest.mark.parametrize(
    ("headers", "method"),
    [
        ({}, "GET"),  # not htmx: the whole page
        ({"HX-Request": "true", "HX-Boosted": "true"}, "GET"),
        ({"HX-Request": "true", "HX-History-Restore-Request": "true"}, "GET"),
        ({"HX-Request": "true"}, "POST"),
    ],
)
def test_anything_but_htmx_asking_is_the_apps(client, play_id, hooks, headers, method) -> None:
    version = version_of(client, play_id)
    hooks.clear()
    answer = client.open(f"/plays/{play_id}/live?since={version}", method=method, headers=headers)
    assert hooks == [f"/plays/{play_id}/live"]
    assert answer.status_code in (200, 405)
    if method == "GET":
        assert "<html" in answer.get_data(as_text=True)


@pytest.mark.parametrize("since", ["", "soon", "1.5"])
def test_a_check_without_a_version_is_the_apps(client, play_id, hooks, since) -> None:
    hooks.clear()
    answer = check(client, play_id, since)
    assert answer.status_code == 200 and answer.data and hooks


@pytest.mark.parametrize("play", ["{id}0000000000", "٣", "2147483648"])
def test_a_play_id_the_route_does_not_take_is_the_apps_404(client, play_id, hooks, play) -> None:
    hooks.clear()
    answer = check(client, play.format(id=play_id), version_of(client, play_id))
    assert answer.status_code == 404


def test_a_play_that_is_not_there_or_finished_is_the_apps(client, play_id, hooks) -> None:
    assert check(client, 999, 0).status_code == 404
    version = version_of(client, play_id)
    client.post(f"/plays/{play_id}/finish", data={})
    hooks.clear()
    answer = check(client, play_id, version)
    assert answer.headers.get("HX-Redirect") == f"/plays/{play_id}" and hooks


def test_behind_the_access_code_only_a_device_that_gave_it(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE)
    device = csrf_client(app)
    assert device.post("/access", data={"code": CODE}).status_code in (302, 303)
    play_id = start_play(device, ["Ann", "Bob"])
    version = version_of(device, play_id)
    assert check(device, play_id, version).data == b""
    # Another device without the code, and one with a cookie forged or signed with another key: the app's 401.
    stranger = csrf_client(app)
    assert check(stranger, play_id, version).status_code == 401
    stranger.set_cookie("session", device.get_cookie("session").value + "x")
    assert check(stranger, play_id, version).status_code == 401
    # A new code locks the device out, on the fast path as on the app's.
    app.config["COMPANION_ACCESS_CODE"] = "another-code"
    assert check(device, play_id, version).status_code == 401


def test_a_session_past_its_lifetime_is_the_apps(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE)
    device = csrf_client(app)
    device.post("/access", data={"code": CODE})
    play_id = start_play(device, ["Ann", "Bob"])
    version = version_of(device, play_id)
    app.permanent_session_lifetime = timedelta(seconds=-1)
    assert check(device, play_id, version).status_code == 401


def test_a_host_outside_trusted_hosts_is_the_apps_400(tmp_path) -> None:
    app = make_app(tmp_path, TRUSTED_HOSTS="localhost")
    device = csrf_client(app)
    play_id = start_play(device, ["Ann", "Bob"])
    version = version_of(device, play_id)
    assert check(device, play_id, version).data == b""
    assert check(device, play_id, version, Host="elsewhere.example").status_code == 400


def test_a_database_that_fails_leaves_the_answer_to_the_app(client, play_id, hooks, monkeypatch) -> None:
    version = version_of(client, play_id)

    def failing(*_args):
        raise OperationalError("SELECT", {}, sqlite3.OperationalError("database is locked"))

    # Failing for the check in front of the app and for the app's own view alike.
    monkeypatch.setattr(sync_check.play_version, "ask_play_version", failing)
    monkeypatch.setattr(sync_check.play_version, "play_version", failing)
    hooks.clear()
    answer = check(client, play_id, version)
    assert hooks and answer.status_code == 503


def test_the_driver_s_own_error_is_sqlalchemy_s(app, client, play_id, monkeypatch) -> None:
    """The version is asked past SQLAlchemy's execution layer; a failure there still reaches the check as the
    SQLAlchemyError it leaves to the app, the connection back in the pool."""
    engine = app.extensions["db_engine"]
    assert play_version.ask_play_version(engine, play_id) == (version_of(client, play_id), "in_progress")
    monkeypatch.setattr(play_version, "_compiled", lambda _dialect: ("SELECT version FROM no_such_table", False))
    with pytest.raises(DBAPIError) as raised:
        play_version.ask_play_version(engine, play_id)
    assert isinstance(raised.value, SQLAlchemyError) and isinstance(raised.value.orig, sqlite3.OperationalError)
    assert engine.pool.checkedout() == 0


def test_an_outdated_schema_is_the_apps_503(app, client, play_id) -> None:
    version = version_of(client, play_id)
    app.extensions["db_outdated"] = "Upgrade the database: companion db upgrade"
    assert check(client, play_id, version).status_code == 503


def test_nothing_new_on_both_databases(db_client) -> None:
    client, _app = db_client
    play_id = start_play(client, ["Ann", "Bob"])
    version = version_of(client, play_id)
    assert check(client, play_id, version).data == b""
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    assert shown_version(check(client, play_id, version).get_data(as_text=True))[0] == version + 1
