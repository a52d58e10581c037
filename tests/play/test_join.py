"""Join (issue 10): the tracker offers a QR code of the play's address on the table's network, made on the server
as SVG, so a second phone joins in one scan. Issue 17 point 5: when the server listens on this machine only (the
default `companion serve`, 127.0.0.1), the panel says so and how to open it to the Wi-Fi instead of a QR code that
leads nowhere; PUBLIC_URL or a trusted proxy in front still show the code."""

from __future__ import annotations

import re

import pytest
import segno

from companion import create_app
from companion.play import join
from tests.helpers import TOKEN, Client, csrf_client


@pytest.mark.parametrize(
    ("page", "public", "lan", "expected"),
    [
        # The tablet opened the app as localhost: the phone needs the LAN address instead.
        ("http://localhost:8000/plays/3", None, "192.168.1.20", "http://192.168.1.20:8000/plays/3"),
        ("http://127.0.0.1/plays/3", None, "10.0.0.5", "http://10.0.0.5/plays/3"),
        # Opened by its network name or address already: that is what the phone opens too.
        ("http://tablet.lan:8000/plays/3", None, "192.168.1.20", "http://tablet.lan:8000/plays/3"),
        ("http://192.168.1.20:8000/plays/3", None, "10.0.0.5", "http://192.168.1.20:8000/plays/3"),
        # No network at all: the page's own address, the best there is.
        ("http://localhost:8000/plays/3", None, None, "http://localhost:8000/plays/3"),
        # A club behind a proxy says where the app lives.
        (
            "http://localhost:8000/plays/3",
            "https://club.example/companion/",
            "10.0.0.5",
            "https://club.example/companion/plays/3",
        ),
    ],
)
def test_the_join_address(monkeypatch, page, public, lan, expected) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: lan)
    assert join.join_url(page, public) == expected


@pytest.mark.parametrize(
    ("listening", "expected"),
    [
        # Every interface: the LAN address, as when the host is unknown.
        ("0.0.0.0", "http://192.168.1.20:5000/plays/3"),
        ("::", "http://192.168.1.20:5000/plays/3"),
        # One address of this machine's: that one, whatever interface the LAN address would be on.
        ("10.1.2.3", "http://10.1.2.3:5000/plays/3"),
        ("fd00::7", "http://[fd00::7]:5000/plays/3"),
    ],
)
def test_the_join_address_follows_where_serve_listens(monkeypatch, listening, expected) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    assert join.join_url("http://127.0.0.1:5000/plays/3", None, listening) == expected


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.1.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("tablet.lan", False),
        ("", False),
        (None, False),
    ],
)
def test_which_hosts_only_this_machine_reaches(host, loopback) -> None:
    assert join.is_loopback(host) is loopback


def test_the_qr_code_is_inline_svg_black_on_white() -> None:
    svg = join.qr_svg("http://192.168.1.20:8000/plays/3", "QR code")
    assert svg.startswith("<svg") and "<title>QR code</title>" in svg
    assert 'stroke="#000"' in svg and 'fill="#fff"' in svg
    assert "<script" not in svg and "style=" not in svg
    # The same symbol segno makes for the address (version and error level as chosen).
    assert svg == segno.make("http://192.168.1.20:8000/plays/3", error="m").svg_inline(
        scale=5, border=4, dark="#000", light="#fff", title="QR code"
    )


def get_join(client, play_id: int, htmx: bool, **kwargs):
    """The Join panel as htmx asks for it (a fragment) or as a page."""
    url = f"/plays/{play_id}/join"
    response = client.htmx("GET", url, **kwargs) if htmx else client.get(url, **kwargs)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert ("<html" in html) is not htmx
    assert ("Back to the game" in html) is not htmx
    return html


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_join_shows_the_code_and_the_address(client, play_id, monkeypatch, htmx) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    html = get_join(client, play_id, htmx)
    address = f"http://192.168.1.20/plays/{play_id}"
    assert f"<title>QR code of {address}</title>" in html
    assert f'<a href="{address}">{address}</a>' in html


# `companion serve` says where it listens (cli.py sets SERVE_HOST); its default is 127.0.0.1.
LOCAL_ONLY = "Only this device can open this game now:"


@pytest.mark.parametrize("listening", ["127.0.0.1", "::1", "localhost"])
@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_a_server_on_this_machine_only_says_so_instead_of_a_code(
    app, client, play_id, monkeypatch, htmx, listening
) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    app.config["SERVE_HOST"] = listening
    html = get_join(client, play_id, htmx)
    assert "<svg" not in html and "QR code of" not in html and "192.168.1.20" not in html
    assert LOCAL_ONLY in html and f"listens on this machine alone ({listening})" in html
    assert '<div class="join-local" role="status">' in html
    assert "To let phones on the same Wi-Fi join, stop the server (Ctrl+C) and start it again with" in html
    assert '<code class="command">companion serve --host 0.0.0.0</code>' in html
    # No code is set: the advice for a shared Wi-Fi.
    assert "set an access code first" in html and "<code>COMPANION_ACCESS_CODE</code>, at least 6 characters" in html


def test_with_the_access_code_set_the_panel_says_it_is_asked(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}",
            "COMPANION_ACCESS_CODE": "table-code-1",
            "SERVE_HOST": "127.0.0.1",
        }
    )
    client = csrf_client(app)
    client.post("/access", data={"code": "table-code-1", "csrf_token": TOKEN})
    body = {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    play = client.post("/api/v1/plays", json=body, headers={"Authorization": "Bearer table-code-1"}).get_json()["id"]
    html = get_join(client, play, True)
    assert LOCAL_ONLY in html and "The access code is set: every new device asks for it once." in html
    assert "set an access code first" not in html
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_on_every_interface_the_code_holds_the_lan_address(app, client, play_id, monkeypatch, htmx) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    app.config["SERVE_HOST"] = "0.0.0.0"
    html = get_join(client, play_id, htmx)
    assert f"<title>QR code of http://192.168.1.20/plays/{play_id}</title>" in html
    assert LOCAL_ONLY not in html and "join-note" not in html


def test_on_every_interface_without_a_network_it_says_to_connect(app, client, play_id, monkeypatch) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: None)
    app.config["SERVE_HOST"] = "0.0.0.0"
    html = get_join(client, play_id, True)
    assert f"QR code of http://localhost/plays/{play_id}" in html
    assert "This machine has no address on a network now: connect it to the Wi-Fi, then open this again." in html


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_not_started_by_serve_and_opened_here_shows_the_code_and_a_note(client, play_id, monkeypatch, htmx) -> None:
    # flask run or a test server: where it listens is unknown, the page was opened at localhost.
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    html = get_join(client, play_id, htmx)
    assert f"QR code of http://192.168.1.20/plays/{play_id}" in html
    assert (
        '<p class="muted small join-note" role="status">If the phone can\'t open it, the server listens on '
        "this machine only: start it with <code>companion serve --host 0.0.0.0</code> to let phones on the same "
        "Wi-Fi join."
        "</p>"
    ) in html


def test_not_started_by_serve_and_opened_by_its_network_name_shows_the_code_alone(client, play_id) -> None:
    html = get_join(client, play_id, True, base_url="http://tablet.lan:8000")
    assert f"QR code of http://tablet.lan:8000/plays/{play_id}" in html
    assert "join-note" not in html and LOCAL_ONLY not in html


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_public_url_shows_the_code_though_serve_listens_here_only(app, client, play_id, htmx) -> None:
    app.config["SERVE_HOST"] = "127.0.0.1"
    app.config["PUBLIC_URL"] = "https://club.example/companion"
    html = get_join(client, play_id, htmx)
    assert f"QR code of https://club.example/companion/plays/{play_id}" in html
    assert LOCAL_ONLY not in html and "join-note" not in html


def proxied_client(tmp_path, proxies: str) -> Client:
    """A client of an app served on 127.0.0.1 only, behind TRUSTED_PROXIES, with a play in progress (id 1)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}",
            "TRUSTED_PROXIES": proxies,
            "SERVE_HOST": "127.0.0.1",
        }
    )
    client = csrf_client(app)
    assert (
        client.post(
            "/api/v1/plays", json={"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
        ).get_json()["id"]
        == 1
    )
    return client


FORWARDED = {
    "X-Forwarded-For": "192.168.1.44",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "club.example",
    "X-Forwarded-Port": "443",
}


@pytest.mark.parametrize("proxies", ["1", "127.0.0.1"])
@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_behind_a_trusted_proxy_the_code_holds_the_proxys_address(tmp_path, proxies, htmx) -> None:
    client = proxied_client(tmp_path, proxies)
    html = get_join(client, 1, htmx, headers=FORWARDED)
    assert "QR code of https://club.example/plays/1" in html
    assert LOCAL_ONLY not in html and "join-note" not in html
    client.application.extensions["db_engine"].dispose()


def test_opened_past_the_trusted_proxy_on_this_machine_it_says_so(tmp_path) -> None:
    # Straight at the app server on 127.0.0.1, not through the proxy: only this machine got there.
    client = proxied_client(tmp_path, "127.0.0.1")
    assert LOCAL_ONLY in get_join(client, 1, True)
    client.application.extensions["db_engine"].dispose()


def test_forwarded_headers_from_an_untrusted_address_do_not_count(tmp_path) -> None:
    client = proxied_client(tmp_path, "10.0.0.2")
    html = get_join(client, 1, True, headers=FORWARDED)
    assert LOCAL_ONLY in html and "club.example" not in html
    client.application.extensions["db_engine"].dispose()


def test_public_url_setting_leads_the_code(app, client, play_id) -> None:
    app.config["PUBLIC_URL"] = "https://club.example/companion"
    html = client.htmx("GET", f"/plays/{play_id}/join").get_data(as_text=True)
    assert f"QR code of https://club.example/companion/plays/{play_id}" in html
    assert "join-note" not in html


def test_the_tracker_offers_join(client, play_id) -> None:
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert re.search(rf'<summary hx-get="/plays/{play_id}/join" hx-target="#join" hx-trigger="click once">', html)
    assert f'<a href="/plays/{play_id}/join">Show the QR code</a>' in html


def test_join_of_a_play_that_is_not_there_is_the_404(client) -> None:
    assert client.get("/plays/999/join").status_code == 404
