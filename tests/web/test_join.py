"""Join (issue 10): the tracker offers a QR code of the play's address on the table's network, made on the server
as SVG, so a second phone joins in one scan."""

from __future__ import annotations

import re

import pytest
import segno

from companion import join


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
        ("http://localhost:8000/plays/3", "https://club.example/companion/", "10.0.0.5",
         "https://club.example/companion/plays/3"),
    ],
)
def test_the_join_address(monkeypatch, page, public, lan, expected) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: lan)
    assert join.join_url(page, public) == expected


def test_the_qr_code_is_inline_svg_black_on_white() -> None:
    svg = join.qr_svg("http://192.168.1.20:8000/plays/3", "QR code")
    assert svg.startswith("<svg") and "<title>QR code</title>" in svg
    assert 'stroke="#000"' in svg and 'fill="#fff"' in svg
    assert "<script" not in svg and "style=" not in svg
    # The same symbol segno makes for the address (version and error level as chosen).
    assert svg == segno.make("http://192.168.1.20:8000/plays/3", error="m").svg_inline(
        scale=5, border=4, dark="#000", light="#fff", title="QR code"
    )


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_join_shows_the_code_and_the_address(client, play_id, monkeypatch, htmx) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    response = client.htmx("GET", f"/plays/{play_id}/join") if htmx else client.get(f"/plays/{play_id}/join")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    address = f"http://192.168.1.20/plays/{play_id}"
    assert f"<title>QR code of {address}</title>" in html
    assert f'<a href="{address}">{address}</a>' in html
    assert ("<html" in html) is not htmx
    if not htmx:
        assert "Back to the game" in html


def test_public_url_setting_leads_the_code(app, client, play_id) -> None:
    app.config["PUBLIC_URL"] = "https://club.example/companion"
    html = client.htmx("GET", f"/plays/{play_id}/join").get_data(as_text=True)
    assert f"QR code of https://club.example/companion/plays/{play_id}" in html


def test_the_tracker_offers_join(client, play_id) -> None:
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert re.search(rf'<summary hx-get="/plays/{play_id}/join" hx-target="#join" hx-trigger="click once">', html)
    assert f'<a href="/plays/{play_id}/join">Show the QR code</a>' in html


def test_join_of_a_play_that_is_not_there_is_the_404(client) -> None:
    assert client.get("/plays/999/join").status_code == 404
