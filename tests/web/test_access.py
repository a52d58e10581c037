"""The table's access code (pages, htmx, API), its slow-down on wrong codes (per device and from everyone), its
minimum length, trusted proxies, trusted hosts and body size limits."""

from __future__ import annotations

import io
import re
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask

from companion import create_app
from companion.config import SettingError
from companion.web.security import LIMITER_EXTENSION, WrongCodeLimiter, parse_hosts, parse_proxies
from tests.helpers import TOKEN, Client, csrf_client, start_play

CODE = "tavern-42"
SPIRES = [
    {"name": "Ann", "towers": {"red": 3, "blue": 2, "green": 5}, "crowns": 3, "scroll_vp": 8},
    {"name": "Bob", "towers": {"purple": 3, "black": 1}, "swords": 4, "quills": 2, "scroll_vp": 12},
]


def make_app(tmp_path, **config: Any) -> Flask:
    """An app on its own SQLite file with the given settings."""
    base = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"}
    return create_app({**base, **config})


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def locked_app(tmp_path) -> Iterator[Flask]:
    """The app with an access code, 3 wrong tries allowed per 30 seconds, and a clock the test moves."""
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, ACCESS_CODE_MAX_TRIES=3, ACCESS_CODE_WINDOW_SECONDS=30)
    app.extensions[LIMITER_EXTENSION].clock = FakeClock()
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def visitor(locked_app: Flask) -> Client:
    """A device that has not entered the code yet."""
    return csrf_client(locked_app)


@pytest.fixture
def member(visitor: Client) -> Client:
    """A device that has entered the code."""
    assert visitor.post("/access", data={"code": CODE}).status_code == 303
    return visitor


def advance(app: Flask, seconds: float) -> None:
    app.extensions[LIMITER_EXTENSION].clock.now += seconds


def bearer(code: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {code}"}


# Pages ---------------------------------------------------------------------------------------------------------


def test_without_a_code_everything_is_open_and_the_access_page_steps_aside(client) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/plays/1").status_code == 404
    response = client.get("/access?next=/history")
    assert response.status_code == 303 and response.headers["Location"] == "/history"


@pytest.mark.parametrize("url", ["/", "/history", "/plays/new?game=spires", "/calculator/", "/nowhere"])
def test_pages_send_a_new_device_to_the_access_page(visitor, url: str) -> None:
    response = visitor.get(url)
    assert response.status_code == 303
    location = urlsplit(response.headers["Location"])
    assert location.path == "/access" and not location.netloc
    assert parse_qs(location.query) == ({} if url == "/" else {"next": [url]})


def test_a_form_post_without_access_changes_nothing(visitor, locked_app: Flask) -> None:
    response = visitor.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob"})
    assert response.status_code == 303 and response.headers["Location"].startswith("/access")
    member = csrf_client(locked_app)
    member.post("/access", data={"code": CODE})
    assert "Ann" not in member.get("/").get_data(as_text=True)


def test_the_access_page_is_one_labelled_field(visitor) -> None:
    response = visitor.get("/access?next=/history")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<label for="code">Access code</label>' in html
    assert re.search(r'<input type="text" id="code" name="code" required', html)
    assert 'name="next" value="/history"' in html
    assert f'name="csrf_token" value="{TOKEN}"' in html
    assert "aria-invalid" not in html and 'class="error"' not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert " style=" not in html and not re.search(r"\son\w+=", html)
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_head_of_the_access_page_counts_no_try(visitor) -> None:
    for _ in range(5):
        assert visitor.head("/access").status_code == 200
    assert visitor.post("/access", data={"code": CODE}).status_code == 303


def test_the_right_code_lets_the_device_in_and_goes_back(visitor) -> None:
    response = visitor.post("/access", data={"code": CODE, "next": "/history?page=1"})
    assert response.status_code == 303 and response.headers["Location"] == "/history?page=1"
    assert visitor.get("/history").status_code == 200
    assert visitor.get("/").status_code == 200
    # Once in, the access page steps aside.
    assert visitor.get("/access").headers["Location"] == "/"


def test_the_code_is_trimmed(visitor) -> None:
    assert visitor.post("/access", data={"code": f"  {CODE} "}).status_code == 303


def test_the_whole_flow_as_a_browser_does_it(locked_app: Flask) -> None:
    """No token planted: the access page's own form carries it."""
    browser = locked_app.test_client()
    first = browser.get("/plays/new?game=spires")
    page = browser.get(first.headers["Location"])
    html = page.get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    following = re.search(r'name="next" value="([^"]+)"', html).group(1)
    response = browser.post("/access", data={"csrf_token": token, "next": following, "code": CODE})
    assert response.status_code == 303 and response.headers["Location"] == "/plays/new?game=spires"
    assert browser.get("/plays/new?game=spires").status_code == 200


def test_the_access_form_needs_the_csrf_token(visitor) -> None:
    assert visitor.post("/access", data={"code": CODE}, csrf=False).status_code == 400


def test_a_wrong_code_is_401_with_the_message_beside_the_field(visitor) -> None:
    response = visitor.post("/access", data={"code": "nope", "next": "/history"})
    html = response.get_data(as_text=True)
    assert response.status_code == 401
    assert 'aria-invalid="true" aria-describedby="code-error"' in html
    assert re.search(r'<p class="error" id="code-error" role="alert">That code is not right', html)
    assert 'name="next" value="/history"' in html
    assert visitor.get("/").status_code == 303


def test_an_empty_code_is_422(visitor) -> None:
    response = visitor.post("/access", data={"code": "   "})
    assert response.status_code == 422
    assert "Enter the access code." in response.get_data(as_text=True)


def test_a_non_ascii_code_is_compared_not_a_crash(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE="café-crème")
    client = csrf_client(app)
    assert client.post("/access", data={"code": "cafe-creme"}).status_code == 401
    assert client.post("/access", data={"code": "café-crème"}).status_code == 303
    assert client.get("/api/v1/plays/1", headers={"Authorization": "Bearer jeté"}).status_code == 401
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize(
    "following",
    [
        "//evil.example",
        "https://evil.example",
        "http://evil.example/plays",
        "/\\evil.example",
        "\\\\evil.example",
        "/\t/evil.example",
        "javascript:alert(1)",
        "evil.example",
        "///evil.example",
        "",
        "/access",
        "/access?next=/x",
    ],
)
def test_no_open_redirect(visitor, following: str) -> None:
    response = visitor.post("/access", data={"code": CODE, "next": following})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_next_in_the_query_string_is_checked_too(member) -> None:
    assert member.get("/access?next=//evil.example").headers["Location"] == "/"
    assert member.get("/access?next=/history").headers["Location"] == "/history"


def test_the_cookie_is_long_lived_and_survives_a_new_client(member, locked_app: Flask) -> None:
    cookie = member.get_cookie("session")
    assert cookie is not None and cookie.http_only
    assert cookie.expires is not None and cookie.expires > datetime.now(UTC) + timedelta(days=399)
    assert locked_app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=400)
    later = locked_app.test_client()
    later.set_cookie("session", cookie.value, domain=cookie.domain or "localhost")
    assert later.get("/").status_code == 200
    stranger = locked_app.test_client()
    assert stranger.get("/").status_code == 303


def test_a_new_code_locks_every_device_out(member, locked_app: Flask) -> None:
    locked_app.config["COMPANION_ACCESS_CODE"] = "new-code"
    assert member.get("/").status_code == 303
    assert member.post("/access", data={"code": "new-code"}).status_code == 303
    assert member.get("/").status_code == 200


def test_a_forged_session_is_not_let_in(visitor) -> None:
    with visitor.session_transaction() as session:
        session["access"] = "0" * 64
    assert visitor.get("/").status_code == 303


@pytest.mark.parametrize(
    "url",
    ["/static/css/app.css", "/static/js/app.js", "/static/vendor/htmx-2.0.11.min.js", "/static/icons/companion.svg"],
)
def test_static_files_need_no_code(visitor, url: str) -> None:
    assert visitor.get(url).status_code == 200


def test_a_member_uses_the_app_as_before(member) -> None:
    play = start_play(member, ["Ann", "Bob"])
    assert member.get(f"/plays/{play}").status_code == 200
    assert member.htmx("POST", f"/plays/{play}/undo").status_code in (200, 409, 422)


# htmx ----------------------------------------------------------------------------------------------------------


def test_htmx_without_access_is_401_with_hx_redirect_back_to_the_page(visitor) -> None:
    response = visitor.htmx(
        "POST",
        "/plays/1/seats/1",
        data={"field": "crowns", "delta": "1"},
        headers={"HX-Current-URL": "http://table.lan:5000/plays/1"},
    )
    assert response.status_code == 401
    assert response.headers["HX-Redirect"] == "/access?next=/plays/1"
    assert "Location" not in response.headers


def test_htmx_from_a_foreign_current_url_still_goes_to_a_local_path(visitor) -> None:
    response = visitor.htmx("GET", "/history", headers={"HX-Current-URL": "//evil.example"})
    assert response.status_code == 401 and response.headers["HX-Redirect"] == "/access"


def test_htmx_history_restore_gets_a_redirect(visitor) -> None:
    response = visitor.get("/history", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert response.status_code == 303


# The JSON API --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("authorization", [None, "", "Bearer", "Bearer ", "Basic dGF2ZXJuOjQy", CODE])
def test_api_without_the_bearer_code_is_401_json(visitor, authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    response = visitor.post("/api/v1/score/spires", json={"players": SPIRES}, headers=headers)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="companion"'
    errors = response.get_json()["errors"]
    assert errors[0]["field"] == "" and "Authorization: Bearer" in errors[0]["message"]


def test_api_with_a_wrong_code_is_401_json(visitor) -> None:
    response = visitor.get("/api/v1/plays/1", headers=bearer("wrong"))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="companion", error="invalid_token"'
    assert response.get_json() == {"errors": [{"field": "", "message": "The access code is not right."}]}


def test_api_with_the_right_code_answers(visitor) -> None:
    response = visitor.post("/api/v1/score/spires", json={"players": SPIRES}, headers=bearer(CODE))
    assert response.status_code == 200 and response.get_json()["winners"] == ["Bob"]
    saved = visitor.post("/api/v1/plays", json={"game": "spires", "players": SPIRES}, headers=bearer(CODE))
    assert saved.status_code == 201
    read = visitor.get(saved.headers["Location"].replace("/plays/", "/api/v1/plays/"), headers=bearer(CODE))
    assert read.status_code == 200 and read.get_json()["status"] == "finished"
    # The scheme's case does not matter (RFC 9110), and the API's own answers are unchanged.
    assert visitor.get("/api/v1/plays/999", headers={"Authorization": f"bearer {CODE}"}).status_code == 404


def test_a_page_session_is_not_an_api_credential(member) -> None:
    assert member.get("/api/v1/plays/1").status_code == 401


# The slow-down -------------------------------------------------------------------------------------------------


def test_wrong_codes_are_slowed_down_on_the_page(visitor, locked_app: Flask) -> None:
    for _ in range(3):
        assert visitor.post("/access", data={"code": "guess"}).status_code == 401
    blocked = visitor.post("/access", data={"code": CODE})
    assert blocked.status_code == 429
    assert blocked.headers["Retry-After"] == "30"
    assert "Too many wrong codes" in blocked.get_data(as_text=True)
    assert 'id="code-error"' in blocked.get_data(as_text=True)
    advance(locked_app, 10)
    assert visitor.post("/access", data={"code": CODE}).headers["Retry-After"] == "20"
    advance(locked_app, 20)
    assert visitor.post("/access", data={"code": CODE}).status_code == 303
    assert visitor.get("/").status_code == 200


def test_wrong_codes_are_slowed_down_on_the_api(visitor, locked_app: Flask) -> None:
    for _ in range(3):
        assert visitor.get("/api/v1/plays/1", headers=bearer("guess")).status_code == 401
    blocked = visitor.get("/api/v1/plays/1", headers=bearer(CODE))
    assert blocked.status_code == 429 and blocked.headers["Retry-After"] == "30"
    assert "Too many wrong codes" in blocked.get_json()["errors"][0]["message"]
    advance(locked_app, 30)
    assert visitor.get("/api/v1/plays/1", headers=bearer(CODE)).status_code == 404


def test_page_and_api_tries_count_together_and_per_address(visitor, locked_app: Flask) -> None:
    visitor.post("/access", data={"code": "guess"})
    visitor.get("/api/v1/plays/1", headers=bearer("guess"))
    visitor.post("/access", data={"code": "guess"})
    assert visitor.post("/access", data={"code": CODE}).status_code == 429
    neighbour = {"REMOTE_ADDR": "192.168.1.23"}
    assert visitor.get("/api/v1/plays/1", headers=bearer(CODE), environ_overrides=neighbour).status_code == 404


def test_tries_spread_over_more_than_the_window_are_not_blocked(visitor, locked_app: Flask) -> None:
    for _ in range(6):
        assert visitor.post("/access", data={"code": "guess"}).status_code == 401
        advance(locked_app, 16)


def test_the_right_code_clears_the_count(visitor, locked_app: Flask) -> None:
    visitor.post("/access", data={"code": "guess"})
    visitor.post("/access", data={"code": "guess"})
    assert visitor.get("/api/v1/plays/1", headers=bearer(CODE)).status_code == 404
    visitor.post("/access", data={"code": "guess"})
    visitor.post("/access", data={"code": "guess"})
    assert visitor.post("/access", data={"code": CODE}).status_code == 303


def test_empty_or_missing_codes_do_not_count(visitor) -> None:
    for _ in range(5):
        visitor.post("/access", data={"code": ""})
        visitor.get("/api/v1/plays/1")
    assert visitor.post("/access", data={"code": CODE}).status_code == 303


def test_the_default_slow_down_is_five_a_minute(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE)
    client = csrf_client(app)
    for _ in range(5):
        assert client.post("/access", data={"code": "guess"}).status_code == 401
    blocked = client.post("/access", data={"code": CODE})
    assert blocked.status_code == 429 and 55 <= int(blocked.headers["Retry-After"]) <= 60
    app.extensions["db_engine"].dispose()


def test_the_window_is_real_time(tmp_path) -> None:
    """With a one-second window and the real clock, the block lifts by itself."""
    import time

    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, ACCESS_CODE_MAX_TRIES=1, ACCESS_CODE_WINDOW_SECONDS=0.3)
    client = csrf_client(app)
    assert client.post("/access", data={"code": "guess"}).status_code == 401
    assert client.post("/access", data={"code": CODE}).status_code == 429
    time.sleep(0.35)
    assert client.post("/access", data={"code": CODE}).status_code == 303
    app.extensions["db_engine"].dispose()


def test_the_limiter_is_bounded_oldest_forgotten_first() -> None:
    limiter = WrongCodeLimiter(max_clients=3, clock=FakeClock())
    for address in ("a", "b", "c"):
        assert limiter.attempt(address, False, 1, 60) == 0
    assert limiter.attempt("a", True, 1, 60) == 60  # blocked: not taken, but "a" is now the newest
    limiter.attempt("d", False, 1, 60)  # so "b" is forgotten
    assert len(limiter) == 3
    assert limiter.retry_after("b", 1, 60) == 0
    assert all(limiter.retry_after(address, 1, 60) == 60 for address in ("a", "c", "d"))


def test_the_limiter_keeps_only_what_it_needs() -> None:
    clock = FakeClock()
    limiter = WrongCodeLimiter(clock=clock)
    for _ in range(100):
        limiter.attempt("a", False, 2, 60)
        clock.now += 31
    assert len(limiter._failures["a"]) == 2
    clock.now += 60
    assert limiter.attempt("a", True, 2, 60) == 0
    assert len(limiter) == 0


def test_the_limiter_is_thread_safe_and_lets_no_burst_through() -> None:
    limiter = WrongCodeLimiter(max_clients=1000)
    taken: list[int] = []
    start = threading.Barrier(8)

    def hammer(worker: int) -> None:
        start.wait()
        for i in range(300):
            if limiter.attempt("10.0.0.1", False, 5, 60) == 0:
                taken.append(worker)
            limiter.attempt(f"10.0.{worker}.{i % 40}", i % 11 == 0, 5, 60)
            limiter.retry_after(f"10.0.{worker}.{i % 7}", 5, 60)

    threads = [threading.Thread(target=hammer, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 5
    assert 0 < len(limiter) <= 1 + 8 * 40


# Many addresses at once (finding 9: 30 source addresses made 150 guesses in half a second) ----------------------


def address(number: int) -> dict[str, str]:
    """The environ of a request from another device on the Wi-Fi."""
    return {"REMOTE_ADDR": f"10.0.{number // 250}.{number % 250 + 1}"}


@pytest.fixture
def crowded_app(tmp_path) -> Iterator[Flask]:
    """The app with the default limits (5 per device, 20 from everyone, a minute) and a clock the test moves."""
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE)
    app.extensions[LIMITER_EXTENSION].clock = FakeClock()
    yield app
    app.extensions["db_engine"].dispose()


def test_thirty_addresses_get_twenty_guesses_in_all_not_a_hundred_and_fifty(crowded_app: Flask) -> None:
    client = csrf_client(crowded_app)
    answers = Counter()
    for attempt in range(150):
        where = address(attempt % 30)
        if attempt % 2:
            answers[client.post("/access", data={"code": f"guess{attempt}"}, environ_overrides=where).status_code] += 1
        else:
            answers[
                client.get("/api/v1/plays/1", headers=bearer(f"guess{attempt}"), environ_overrides=where).status_code
            ] += 1
    assert answers == {401: 20, 429: 130}


def test_the_global_back_off_says_it_is_the_server_and_lifts_after_the_window(crowded_app: Flask) -> None:
    client = csrf_client(crowded_app)
    for number in range(20):
        assert client.post("/access", data={"code": "guess"}, environ_overrides=address(number)).status_code == 401
    newcomer = address(99)
    blocked = client.post("/access", data={"code": CODE}, environ_overrides=newcomer)  # even the right code waits
    assert blocked.status_code == 429 and blocked.headers["Retry-After"] == "60"
    assert "Too many wrong codes were tried on this server just now. Try again in 60 seconds." in blocked.get_data(
        as_text=True
    )
    api = client.get("/api/v1/plays/1", headers=bearer(CODE), environ_overrides=newcomer)
    assert api.status_code == 429 and "on this server" in api.get_json()["errors"][0]["message"]
    advance(crowded_app, 60)
    assert client.post("/access", data={"code": CODE}, environ_overrides=newcomer).status_code == 303


def test_the_global_back_off_never_locks_out_a_device_that_has_the_code(crowded_app: Flask) -> None:
    member = csrf_client(crowded_app)
    assert member.post("/access", data={"code": CODE}).status_code == 303
    program = csrf_client(crowded_app)
    program_address = address(200)
    assert program.get("/api/v1/plays/99", headers=bearer(CODE), environ_overrides=program_address).status_code == 404
    guesser = csrf_client(crowded_app)
    for number in range(40):
        guesser.get("/api/v1/plays/1", headers=bearer("guess"), environ_overrides=address(number))
    assert guesser.post("/access", data={"code": CODE}, environ_overrides=address(150)).status_code == 429
    assert member.get("/").status_code == 200  # its session holds the code
    assert member.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob"}).status_code == 303
    # A program that gave the code from its address before keeps using the API.
    assert program.get("/api/v1/plays/99", headers=bearer(CODE), environ_overrides=program_address).status_code == 404


def test_the_global_count_is_configurable(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, ACCESS_CODE_GLOBAL_MAX_TRIES=2)
    client = csrf_client(app)
    for number in range(2):
        assert client.post("/access", data={"code": "guess"}, environ_overrides=address(number)).status_code == 401
    assert client.post("/access", data={"code": "guess"}, environ_overrides=address(5)).status_code == 429
    app.extensions["db_engine"].dispose()


def test_the_limiter_counts_everyone_and_spares_the_admitted() -> None:
    clock = FakeClock()
    limiter = WrongCodeLimiter(clock=clock)
    assert limiter.attempt("known", True, 5, 60, everyone=3) == 0
    for number in range(3):
        assert limiter.attempt(f"10.0.0.{number}", False, 5, 60, everyone=3) == 0
        clock.now += 10
    assert limiter.attempt("10.0.0.9", True, 5, 60, everyone=3) == 30  # until the first of the three is 60 s old
    assert limiter.retry_after("10.0.0.9", 5, 60, everyone=3) == 30
    assert limiter.retry_after("10.0.0.9", 5, 60) == 0  # its own count is clean
    assert limiter.attempt("known", True, 5, 60, everyone=3) == 0
    assert len(limiter._everyone) == 3
    clock.now += 30
    assert limiter.attempt("10.0.0.9", False, 5, 60, everyone=3) == 0


def test_a_global_limit_of_one_holds() -> None:
    limiter = WrongCodeLimiter(clock=FakeClock())
    assert limiter.attempt("a", False, 5, 60, everyone=1) == 0
    assert limiter.attempt("b", False, 5, 60, everyone=1) == 60
    assert len(limiter._everyone) == 1


def test_the_global_limit_lets_no_burst_through_from_many_threads() -> None:
    limiter = WrongCodeLimiter()
    taken: list[int] = []
    start = threading.Barrier(8)

    def hammer(worker: int) -> None:
        start.wait()
        for i in range(100):
            if limiter.attempt(f"10.{worker}.0.{i}", False, 5, 60, everyone=20) == 0:
                taken.append(worker)

    threads = [threading.Thread(target=hammer, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 20


# The code's minimum length ------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["a", "12345", "  abc  ", "café"])
def test_a_code_shorter_than_six_characters_refuses_to_start(tmp_path, code: str) -> None:
    with pytest.raises(SettingError) as refused:
        make_app(tmp_path, COMPANION_ACCESS_CODE=code)
    message = str(refused.value)
    assert "too short" in message and "at least 6" in message and repr(code.strip()) not in message


def test_six_characters_are_enough(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE="123456")
    assert csrf_client(app).post("/access", data={"code": "123456"}).status_code == 303
    app.extensions["db_engine"].dispose()


def test_a_short_code_in_the_environment_stops_the_command_with_the_reason(tmp_path, monkeypatch, capsys) -> None:
    from companion.cli import main

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    monkeypatch.setenv("COMPANION_ACCESS_CODE", "1234")
    assert main(["serve", "--port", "1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("Companion can't start: The access code (COMPANION_ACCESS_CODE) is too short")
    assert "Traceback" not in error


# Behind a reverse proxy (finding 9: one device's wrong codes locked out the whole table) -----------------------


def proxied(device: str, proxy: str = "127.0.0.1", chain: str = "") -> dict[str, Any]:
    """What a request from `device` looks like after it passed the proxy at `proxy` (and `chain` before it)."""
    forwarded = ", ".join(part for part in (chain, device) if part)
    return {"environ_overrides": {"REMOTE_ADDR": proxy}, "headers": {"X-Forwarded-For": forwarded}}


def wrong_then_right(app: Flask, wrong: dict[str, Any], right: dict[str, Any]) -> int:
    """Five wrong codes as `wrong`, then the right code as `right`: the status of the last."""
    client = csrf_client(app)
    for _ in range(5):
        client.post("/access", data={"code": "guess"}, **wrong)
    return csrf_client(app).post("/access", data={"code": CODE}, **right).status_code


def test_without_trusted_proxies_forwarded_headers_are_ignored(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE)
    assert app.config["TRUSTED_PROXIES"] is None
    # Everyone comes from the proxy's address: one device's wrong codes hold the others back.
    assert wrong_then_right(app, proxied("192.168.1.5"), proxied("192.168.1.6")) == 429
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize("setting", [1, "1", "127.0.0.1", "127.0.0.0/8, 10.0.0.2", ["127.0.0.1"]])
def test_with_trusted_proxies_each_device_behind_the_proxy_counts_alone(tmp_path, setting: Any) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, TRUSTED_PROXIES=setting)
    assert wrong_then_right(app, proxied("192.168.1.5"), proxied("192.168.1.6")) == 303
    assert wrong_then_right(app, proxied("192.168.1.7"), proxied("192.168.1.7")) == 429
    app.extensions["db_engine"].dispose()


def test_forwarded_headers_from_an_untrusted_address_are_ignored(tmp_path) -> None:
    """A device that sends X-Forwarded-For itself can't pose as another device to escape its count."""
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, TRUSTED_PROXIES="10.0.0.2")
    client = csrf_client(app)
    for number in range(5):
        client.post("/access", data={"code": "guess"}, **proxied(f"192.168.1.{number}", proxy="192.168.1.66"))
    again = client.post("/access", data={"code": CODE}, **proxied("192.168.1.99", proxy="192.168.1.66"))
    assert again.status_code == 429
    app.extensions["db_engine"].dispose()


def test_a_chain_of_trusted_proxies_is_walked_to_the_device(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE=CODE, TRUSTED_PROXIES="10.0.0.0/24")
    # The device forged an entry of its own on the left: only the addresses the trusted proxies added count.
    wrong = proxied("192.168.1.5", proxy="10.0.0.2", chain="6.6.6.6, 10.0.0.3")
    wrong["headers"]["X-Forwarded-For"] = "6.6.6.6, 192.168.1.5, 10.0.0.3"
    right = proxied("192.168.1.6", proxy="10.0.0.2")
    assert wrong_then_right(app, wrong, right) == 303
    again = proxied("192.168.1.5", proxy="10.0.0.2")
    assert csrf_client(app).post("/access", data={"code": CODE}, **again).status_code == 429
    app.extensions["db_engine"].dispose()


def test_trusted_proxies_also_give_the_host_and_scheme(tmp_path) -> None:
    app = make_app(tmp_path, TRUSTED_PROXIES=1, TRUSTED_HOSTS="club.example, localhost")
    client = csrf_client(app)
    headers = {"X-Forwarded-For": "192.168.1.5", "X-Forwarded-Host": "club.example", "X-Forwarded-Proto": "https"}
    assert client.get("/", headers={**headers, "Host": "127.0.0.1:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "127.0.0.1:5000"}).status_code == 400
    # The browser's Origin is the proxy's public address, which is this site.
    started = client.post(
        "/plays",
        data={"game": "spires", "name-0": "Ann", "name-1": "Bob"},
        headers={**headers, "Origin": "https://club.example"},
    )  # the test client's own Host
    assert started.status_code == 303
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        (None, None),
        ("", None),
        (" ", None),
        ("0", None),
        (0, None),
        ("2", 2),
        (1, 1),
        ("10.0.0.2", ("10.0.0.2/32",)),
        ("10.0.0.0/24, ::1", ("10.0.0.0/24", "::1/128")),
        (["192.168.1.9"], ("192.168.1.9/32",)),
    ],
)
def test_trusted_proxies_are_parsed(value: Any, parsed: Any) -> None:
    result = parse_proxies(value)
    assert (tuple(str(network) for network in result) if isinstance(result, tuple) else result) == parsed


@pytest.mark.parametrize("value", ["proxy.lan", "10.0.0.300", "-1", "11", True, "1, 2"])
def test_bad_trusted_proxies_refuse_to_start(tmp_path, value: Any) -> None:
    with pytest.raises(SettingError, match="TRUSTED_PROXIES"):
        make_app(tmp_path, TRUSTED_PROXIES=value)


# Settings from the environment ---------------------------------------------------------------------------------


def test_settings_come_from_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_ACCESS_CODE", " from-env ")
    monkeypatch.setenv("TRUSTED_HOSTS", "table.lan, 192.168.1.10")
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app(
        {
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'env.sqlite'}",
            "COMPANION_ACCESS_CODE": "from-config",
        }
    )
    assert app.config["COMPANION_ACCESS_CODE"] == "from-env"
    assert app.config["TRUSTED_HOSTS"] == ["table.lan", "192.168.1.10"]
    client = app.test_client()
    assert client.get("/", headers={"Host": "table.lan"}).status_code == 303
    app.extensions["db_engine"].dispose()


def test_trusted_proxies_come_from_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.2")
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'env.sqlite'}"})
    assert [str(network) for network in app.config["TRUSTED_PROXIES"]] == ["10.0.0.2/32"]
    app.extensions["db_engine"].dispose()


def test_tests_ignore_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_ACCESS_CODE", "from-env")
    monkeypatch.setenv("TRUSTED_HOSTS", "table.lan")
    app = make_app(tmp_path)
    assert app.config["COMPANION_ACCESS_CODE"] is None and app.config["TRUSTED_HOSTS"] is None
    assert app.test_client().get("/").status_code == 200
    app.extensions["db_engine"].dispose()


def test_an_empty_code_means_open(tmp_path) -> None:
    app = make_app(tmp_path, COMPANION_ACCESS_CODE="  ")
    assert app.test_client().get("/").status_code == 200
    app.extensions["db_engine"].dispose()


# Trusted hosts -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "hosts"),
    [
        (None, None),
        ("", None),
        (" , ", None),
        ("table.lan", ["table.lan"]),
        ("a.lan, B.Lan,", ["a.lan", "b.lan"]),
        (["a.lan"], ["a.lan"]),
    ],
)
def test_trusted_hosts_are_parsed(value, hosts) -> None:
    assert parse_hosts(value) == hosts


@pytest.fixture
def hosts_app(tmp_path) -> Iterator[Flask]:
    app = make_app(tmp_path, TRUSTED_HOSTS="table.lan, 192.168.1.10")
    yield app
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize("host", ["table.lan", "table.lan:5000", "192.168.1.10:5000"])
def test_a_trusted_host_is_served(hosts_app: Flask, host: str) -> None:
    client = hosts_app.test_client()
    assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.get("/api/v1/plays/1", headers={"Host": host}).status_code == 404


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "table.lan.evil.example", "192.168.1.11"])
def test_another_host_is_400(hosts_app: Flask, host: str) -> None:
    client = hosts_app.test_client()
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 400 and "does not answer to that address" in page.get_data(as_text=True)
    assert page.headers["Content-Type"].startswith("text/plain")
    assert page.headers["X-Frame-Options"] == "DENY"
    api = client.post("/api/v1/score/spires", json={"players": SPIRES}, headers={"Host": host})
    assert api.status_code == 400 and api.get_json()["errors"][0]["field"] == ""
    assert client.get("/static/css/app.css", headers={"Host": host}).status_code == 400


def test_a_bad_host_is_400_before_the_access_code(tmp_path) -> None:
    app = make_app(tmp_path, TRUSTED_HOSTS="table.lan", COMPANION_ACCESS_CODE=CODE)
    client = app.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "table.lan"}).status_code == 303
    app.extensions["db_engine"].dispose()


def test_without_trusted_hosts_any_host_is_served(client) -> None:
    assert client.get("/", headers={"Host": "anything.example:8080"}).status_code == 200


# Body size -----------------------------------------------------------------------------------------------------


class UnreadableBody(io.BytesIO):
    """A body whose length is announced but which fails if anyone reads it."""

    def read(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")

    readline = read

    def readinto(self, *args: Any) -> int:
        raise AssertionError("the body was read")


BIG = 512 * 1024 + 1


def test_a_too_big_page_post_is_413_unread(client) -> None:
    response = client.post(
        "/plays",
        input_stream=UnreadableBody(b"x" * BIG),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "at most 512 KiB" in html and "<html" in html


def test_a_too_big_htmx_post_is_413_in_the_flash(client, play_id: int) -> None:
    response = client.htmx("POST", f"/plays/{play_id}/table", data={"field": "x" * BIG, "delta": "1"})
    assert response.status_code == 413 and response.headers["HX-Retarget"] == "#flash"


def test_a_too_big_api_body_is_413_json_unread(client) -> None:
    response = client.post(
        "/api/v1/plays", input_stream=UnreadableBody(b"x" * BIG), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert response.get_json() == {
        "errors": [{"field": "", "message": "That is too much data: a request may carry at most 512 KiB."}]
    }


def test_a_body_at_the_limit_is_read(client) -> None:
    body = b'{"game": "spires", "players": [], "notes": "' + b"x" * (512 * 1024 - 100) + b'"}'
    response = client.post("/api/v1/plays", data=body, content_type="application/json")
    assert response.status_code == 422


def test_a_big_body_is_413_before_the_access_code(visitor) -> None:
    response = visitor.post(
        "/api/v1/plays", input_stream=UnreadableBody(b"x" * BIG), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
