"""TRUSTED_PROXIES under a real `companion serve`: waitress deletes every X-Forwarded-* header by default, so the
app's own proxy handling (security.py) must be handed them; from the trusted proxy they name the device (wrong
access codes count against it) and the address it used (the Join code). On SQLite, without nginx: this test
stands in for the proxy (its requests come from 127.0.0.1); tests/server/test_nginx.py has the real one."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.server.helpers import Client, Server

CODE = "proxy-code-1"
PROXIED = {"COMPANION_TRUSTED_PROXIES": "127.0.0.1"}


@pytest.fixture
def behind_proxy(tmp_path) -> Iterator[Callable[[dict[str, str]], Client]]:
    """Start a server with these settings (trusting 127.0.0.1 as its proxy); a client of it, the proxy."""
    started: list[tuple[Server, Client]] = []

    def start(env: dict[str, str]) -> Client:
        server = Server(f"sqlite:///{tmp_path / 'companion.sqlite'}", tmp_path, tmp_path / "server.log", env=env)
        server.start()
        started.append((server, server.client()))
        return started[-1][1]

    try:
        yield start
    finally:
        for server, client in started:
            client.close()
            server.stop()


def from_device(address: str, code: str = CODE) -> dict[str, str]:
    """Headers as nginx sends a device's API request on."""
    return {"X-Forwarded-For": address, "Authorization": f"Bearer {code}"}


def test_wrong_codes_count_against_the_device_behind_the_proxy(behind_proxy) -> None:
    proxy = behind_proxy({**PROXIED, "COMPANION_ACCESS_CODE": CODE})
    for _ in range(5):
        assert proxy.call("GET", "/api/v1/plays/1", headers=from_device("192.168.1.50", "wrong!"))[0] == 401
    status, answer = proxy.call("GET", "/api/v1/plays/1", headers=from_device("192.168.1.50"))
    assert status == 429 and "from this device" in answer["errors"][0]["message"]
    # Another device behind the same proxy: let in (no such play).
    assert proxy.call("GET", "/api/v1/plays/1", headers=from_device("192.168.1.51"))[0] == 404


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_the_join_code_holds_the_address_the_proxy_was_asked_at(behind_proxy, htmx) -> None:
    proxy = behind_proxy(PROXIED)
    start = {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    status, started = proxy.call("POST", "/api/v1/plays", start)
    assert status == 201, started
    forwarded = {
        "X-Forwarded-For": "192.168.1.50",
        "X-Forwarded-Host": "club.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Port": "443",
        **({"HX-Request": "true"} if htmx else {}),
    }
    status, html = proxy.call("GET", f"/plays/{started['id']}/join", headers=forwarded)
    assert status == 200
    address = f"https://club.example/plays/{started['id']}"
    assert f"<title>QR code of {address}</title>" in html and f'<a href="{address}">{address}</a>' in html
    assert "Only this device can open this game now" not in html
    assert ("<html" in html) is not htmx
