"""Issue 17 point 5 with a real `companion serve`: by default it listens on 127.0.0.1 alone, so the Join panel
says that only this device can open the game and how to open it to the Wi-Fi, instead of a QR code of a LAN
address that leads nowhere; and serve says so when it starts."""

from __future__ import annotations

import pytest

START = {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_the_default_serve_says_only_this_device_can_join(serve, htmx) -> None:
    server = serve()
    client = server.client()
    try:
        status, started = client.call("POST", "/api/v1/plays", START)
        assert status == 201, started
        headers = {"HX-Request": "true"} if htmx else {}
        status, html = client.call("GET", f"/plays/{started['id']}/join", headers=headers)
    finally:
        client.close()
    assert status == 200
    assert "Only this device can open this game now:" in html
    assert "the server listens on this machine alone (127.0.0.1)" in html
    assert '<code class="command">companion serve --host 0.0.0.0</code>' in html
    assert "<svg" not in html and "QR code of" not in html
    assert ("<html" in html) is not htmx
    assert (
        "Only this machine can open it: start it with companion serve --host 0.0.0.0 to let phones on the same "
        "Wi-Fi join (with COMPANION_ACCESS_CODE set on a Wi-Fi others share)."
    ) in server.output()
