"""CSRF on every state-changing request, escaping, security headers, and errors that are never a 500."""

from __future__ import annotations

import re

import pytest

from tests.helpers import start_play

UNSAFE_ROUTES = [
    ("/plays", {"game": "spires", "name-0": "Ann", "name-1": "Bob"}),
    ("/plays/new/first-player", {"game": "spires", "name-0": "Ann"}),
    ("/plays/{play}/seats/{seat}", {"field": "crowns", "delta": "1"}),
    ("/plays/{play}/table", {"field": "discard.crowns", "delta": "1"}),
    ("/plays/{play}/undo", {}),
    ("/plays/{play}/finish", {}),
    ("/plays/{play}/abandon", {}),
    ("/plays/{play}/resume", {}),
]


@pytest.mark.parametrize(("route", "form"), UNSAFE_ROUTES)
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_unsafe_requests_need_the_csrf_token(client, play_id: int, route: str, form: dict, htmx: bool) -> None:
    seat = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    url = route.format(play=play_id, seat=seat)
    headers = {"HX-Request": "true"} if htmx else {}
    missing = client.post(url, data=form, headers=headers, csrf=False)
    wrong = client.post(url, data=form, headers={**headers, "X-CSRF-Token": "forged"}, csrf=False)
    assert missing.status_code == 400
    assert wrong.status_code == 400
    assert "This page has expired" in missing.get_data(as_text=True)


def test_form_field_token_is_accepted(client) -> None:
    response = client.post(
        "/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob", "csrf_token": "test-csrf-token"}, csrf=False
    )
    assert response.status_code == 303


def test_pages_carry_the_token_for_htmx(client) -> None:
    html = client.get("/plays/new?game=spires").get_data(as_text=True)
    assert """hx-headers='{"X-CSRF-Token": "test-csrf-token"}'""" in html


def test_security_headers(client) -> None:
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_no_inline_script_in_pages(client, play_id: int) -> None:
    for url in ("/", "/plays/new?game=spires", f"/plays/{play_id}", "/history"):
        html = client.get(url).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], url
        assert " style=" not in html and "<style" not in html, url
        assert not re.search(r"\son\w+=", html), url


def test_htmx_is_vendored_with_its_licence(client) -> None:
    js = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert js.status_code == 200 and b"Zero-Clause BSD" in js.data[:200]
    assert b"Zero-Clause BSD" in client.get("/static/vendor/htmx-2.0.11.LICENSE").data


def test_player_names_are_escaped_and_trimmed(client) -> None:
    play = start_play(client, ["  <script>alert(1)</script>  ", "Bob"])
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;  " not in html


@pytest.mark.parametrize(
    ("method", "url"),
    [("GET", "/nowhere"), ("GET", "/plays/abc"), ("DELETE", "/plays"), ("GET", "/plays/1/sheet.pdf")],
)
def test_errors_are_pages_not_tracebacks(client, method: str, url: str) -> None:
    response = client.open(url, method=method)
    assert response.status_code in (404, 405)
    assert "Traceback" not in response.get_data(as_text=True)


def test_oversized_body_is_refused_cleanly(client) -> None:
    response = client.post("/plays", data={"game": "spires", "name-0": "A" * 600_000})
    assert response.status_code == 413


@pytest.mark.parametrize(
    "url",
    [
        "/plays/99999999999999999999",
        "/plays/1/seats/99999999999999999999",
        "/api/v1/plays/99999999999999999999",
        "/plays/99999999999999999999/sheet.pdf",
    ],
)
def test_huge_ids_are_not_found(client, url: str) -> None:
    assert client.get(url).status_code in (404, 405)


def test_huge_history_page_is_a_page(client) -> None:
    assert client.get("/history?page=99999999999999999999").status_code == 200


def test_forged_non_ascii_token_is_refused_not_a_crash(client) -> None:
    response = client.post("/plays", data={"game": "spires", "csrf_token": "é"}, csrf=False)
    assert response.status_code == 400
    response = client.post("/plays", data={"game": "spires"}, headers={"X-CSRF-Token": "jeté"}, csrf=False)
    assert response.status_code == 400


def test_htmx_errors_land_in_the_flash(client, play_id: int) -> None:
    """An expired token on a tap says so in the page's message area instead of doing nothing."""
    response = client.post(f"/plays/{play_id}/undo", headers={"HX-Request": "true", "X-CSRF-Token": "old"}, csrf=False)
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#flash"
    assert "This page has expired" in response.get_data(as_text=True)
    assert "<html" not in response.get_data(as_text=True)
    assert 'id="flash"' in client.get("/").get_data(as_text=True)


# A Host header that is no address at all (finding 8: `a..b` answered 500 with TRUSTED_HOSTS unset).
MALFORMED_HOSTS = [
    "a..b",
    "a..b:5000",
    ".",
    "..",
    ".lan",
    "a b",
    "a/b",
    "a\\b",
    "é.lan",
    "a.b:99999999",
    "a.b:0",
    "a.b:x",
    "a.b:",
    "[::1",
    "[zz]",
    "a:b:c",
    "-",
    "-a.lan",
    "a" * 64 + ".lan",
    "a.b@evil",
    "\x00",
    "a.b\r\nX: y",
    "%61.lan",
    "my_box.local",
    "[fe80::1%25eth0]",
]  # Werkzeug takes neither as a host
GOOD_HOSTS = [
    "localhost",
    "localhost:5000",
    "127.0.0.1:5000",
    "192.168.1.20",
    "[::1]:5000",
    "table.lan",
    "Companion.LAN:8080",
    "example.com.",
    "xn--caf-dma.lan",
]


def raw(app, method: str, path: str, host: str, **headers: str):
    """Call the WSGI app itself: the test client's own URL parsing can't take such a host (a port past 65535)."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    environ = EnvironBuilder(path=path, method=method, headers=headers).get_environ()
    environ["HTTP_HOST"] = host  # as a server would pass it, even with characters no header may carry
    body, status, response_headers = run_wsgi_app(app, environ, buffered=True)
    return app.response_class(body, status, response_headers)


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
@pytest.mark.parametrize("path", ["/", "/history", "/api/v1/plays/1", "/static/css/app.css", "/nowhere"])
def test_a_malformed_host_is_400_never_500(app, host: str, path: str) -> None:
    response = raw(app, "GET", path, host)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "does not answer to that address" in text and "Traceback" not in text
    if path.startswith("/api/"):
        assert response.is_json


@pytest.mark.parametrize("host", ["a..b", "a.b:99999999"])
def test_a_malformed_host_is_400_for_htmx_and_posts_too(app, host: str) -> None:
    assert raw(app, "GET", "/", host, **{"HX-Request": "true"}).status_code == 400
    assert raw(app, "POST", "/plays", host).status_code == 400
    assert raw(app, "POST", "/api/v1/plays", host, **{"Content-Type": "application/json"}).status_code == 400


@pytest.mark.parametrize("host", GOOD_HOSTS)
def test_a_wellformed_host_is_served(app, host: str) -> None:
    assert raw(app, "GET", "/", host).status_code == 200


def test_a_malformed_host_is_400_outside_tests_too(tmp_path) -> None:
    """Not testing, an error while drawing the error page would be a 500 (no URL adapter for such a host)."""
    from companion import create_app

    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite'}"})
    statuses = [raw(app, "GET", "/", host).status_code for host in MALFORMED_HOSTS]
    assert statuses == [400] * len(MALFORMED_HOSTS)
    app.extensions["db_engine"].dispose()


# Dependencies (finding 9: `waitress>=3.0` admitted releases with known CVEs, and Werkzeug was not declared).
VULNERABLE_RELEASES = {
    "waitress": ["2.1.2", "3.0.0"],  # CVE-2024-49768, CVE-2024-49769
    "werkzeug": ["3.0.5", "3.1.3", "3.1.5"],  # CVE-2024-49766/49767, CVE-2025-66221, CVE-2026-27199
    "flask": ["3.1.0", "3.1.2"],  # CVE-2025-47278, CVE-2026-27205
    "jinja2": ["3.1.4", "3.1.5"],  # CVE-2024-56201/56326, CVE-2025-27516
}


@pytest.mark.parametrize("package", sorted(VULNERABLE_RELEASES))
def test_dependency_floors_exclude_known_vulnerable_releases(package: str) -> None:
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    from packaging.requirements import Requirement

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = {
        Requirement(line).name.lower(): Requirement(line).specifier
        for line in tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    }
    assert package in declared, f"{package} is not declared"
    assert not any(declared[package].contains(release) for release in VULNERABLE_RELEASES[package])
    assert declared[package].contains(version(package))  # and what is installed satisfies it
