"""On a real `companion serve` (SQLite and PostgreSQL), the sync check's "nothing new" keeps the device's connection:
many checks on one socket, then the change on that same socket (issue 21; waitress closes after every 204)."""

from __future__ import annotations

import http.client

from tests.helpers import shown_version
from tests.server.helpers import HOST

SYNC = {"HX-Request": "true"}


def test_many_checks_and_the_change_on_one_connection(serve) -> None:
    server = serve()
    device = server.client()
    status, started = device.call(
        "POST", "/api/v1/plays", {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert status == 201, started
    play = started["id"]
    connection = http.client.HTTPConnection(HOST, server.port, timeout=10)
    try:
        connection.request("GET", f"/plays/{play}")
        version = shown_version(connection.getresponse().read().decode())[0]
        socket = connection.sock
        for _ in range(20):
            connection.request("GET", f"/plays/{play}/live?since={version}", headers=SYNC)
            answer = connection.getresponse()
            assert (answer.status, answer.read(), answer.getheader("Connection")) == (200, b"", None)
        status, _ = device.call(
            "POST", f"/api/v1/plays/{play}/actions", {"action": "add", "player": "Ann", "field": "crowns", "delta": 1}
        )
        assert status == 200
        connection.request("GET", f"/plays/{play}/live?since={version}", headers=SYNC)
        changed = connection.getresponse()
        assert changed.status == 200 and shown_version(changed.read().decode()) == (version + 1, True)
        assert connection.sock is socket, "the server closed the connection"
    finally:
        connection.close()
        device.close()
