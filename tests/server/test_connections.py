"""One device can't jam the server (finding 4: about 101 idle connections from one device locked everyone out for
two minutes, waitress's connection limit with slow headers kept open 120 s).

A real `companion serve` on SQLite (the connections are the server's, whatever the database). The jamming device
connects from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to this machine), the others from 127.0.0.1; every
socket goes to 127.0.0.1 only, every wait is bounded, and every socket is closed at the end.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.server.helpers import HOST, Server

JAMMER = "127.0.0.2"
SLOW_SOCKETS = 120
ANSWER_WITHIN = 3.0
# Half a request: the headers never end, as a slow client (or an attacker) sends them.
HALF_A_REQUEST = b"GET /history HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
def start_server(tmp_path) -> Iterator[Callable[..., Server]]:
    """Start a server with the given instance/config.py settings; stopped at the end of the test."""
    servers: list[Server] = []

    def start(**settings: object) -> Server:
        Path(tmp_path / "config.py").write_text("".join(f"{name} = {value!r}\n" for name, value in settings.items()))
        server = Server(f"sqlite:///{tmp_path / 'companion.sqlite'}", tmp_path, tmp_path / "server.log")
        servers.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@contextlib.contextmanager
def slow_sockets(port: int, count: int, source: str = JAMMER) -> Iterator[list[socket.socket]]:
    """`count` connections from `source`, each with half a request sent; all closed on leaving."""
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.settimeout(2)
            sock.bind((source, 0))
            opened.append(sock)
            try:
                sock.connect((HOST, port))
                sock.sendall(HALF_A_REQUEST)
            except OSError:
                pass  # refused or reset: one fewer jammed connection
        yield opened
    finally:
        for sock in opened:
            sock.close()


def timed_get(port: int, path: str = "/history") -> tuple[int, float]:
    """(status, seconds) of one GET from another device, on a new connection, bounded by the timeout."""
    began = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=ANSWER_WITHIN + 2)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - began
    finally:
        connection.close()


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes this connection (EOF or reset) within `within` seconds; reads what it sent."""
    deadline = time.monotonic() + within
    sock.settimeout(0.25)
    while time.monotonic() < deadline:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def test_other_devices_are_answered_while_one_holds_120_slow_connections(start_server) -> None:
    server = start_server()
    with slow_sockets(server.port, SLOW_SOCKETS) as jam:
        time.sleep(0.5)  # the server has accepted (or turned away) every one of them
        answers = [timed_get(server.port) for _ in range(5)]
        assert all(status == 200 for status, _ in answers), answers
        assert max(seconds for _, seconds in answers) < ANSWER_WITHIN, answers
        # The jamming device got its share and no more: the rest were told so and closed at once.
        turned_away = sum(closed_by_server(sock, 0.05) for sock in jam)
        assert turned_away >= SLOW_SOCKETS - 24
    assert "Traceback" not in server.output()


def test_the_share_per_device_is_a_setting_and_says_why(start_server) -> None:
    server = start_server(SERVER_CONNECTIONS_PER_DEVICE=3)
    with slow_sockets(server.port, 3):
        sock = socket.create_connection((HOST, server.port), timeout=2, source_address=(JAMMER, 0))
        try:
            answer = b""
            with contextlib.suppress(OSError):
                while chunk := sock.recv(4096):
                    answer += chunk
        finally:
            sock.close()
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"Too many connections from this device" in answer
        assert timed_get(server.port)[0] == 200


def test_headers_that_never_end_are_cut_off(start_server) -> None:
    server = start_server(SERVER_HEADER_TIMEOUT=2)
    with slow_sockets(server.port, 1) as [sock]:
        # A byte now and then keeps a connection busy for waitress's idle timeout, not for the header deadline.
        began = time.monotonic()
        closed = False
        while not closed and time.monotonic() - began < 8:
            with contextlib.suppress(OSError):
                sock.sendall(b"x")
            closed = closed_by_server(sock, 0.5)
        assert closed and time.monotonic() - began < 5


def test_idle_connections_are_closed(start_server) -> None:
    server = start_server(SERVER_IDLE_TIMEOUT=2)
    connection = http.client.HTTPConnection(HOST, server.port, timeout=5)
    try:
        connection.request("GET", "/history")
        connection.getresponse().read()
        assert closed_by_server(connection.sock, 5)
    finally:
        connection.close()


def test_a_slow_upload_is_not_cut_off_by_the_header_deadline(start_server) -> None:
    """The deadline is for the headers: a body that comes slowly (a big import on a weak Wi-Fi) still arrives."""
    server = start_server(SERVER_HEADER_TIMEOUT=1)
    body = b'{"game": "nope"}'
    with socket.create_connection((HOST, server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /api/v1/score/nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n"
        )
        for byte in range(len(body)):
            sock.sendall(body[byte : byte + 1])
            time.sleep(0.15)  # 2.4 s in all, past the 1 s deadline
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 404 "), answer[:200]


def test_a_trusted_proxy_carries_everyone_s_connections(start_server) -> None:
    """Behind a reverse proxy every device comes from its address: the per-device share does not apply to it."""
    server = start_server(SERVER_CONNECTIONS_PER_DEVICE=3, TRUSTED_PROXIES=JAMMER)
    with slow_sockets(server.port, 6) as through_the_proxy:
        time.sleep(0.3)
        assert not any(closed_by_server(sock, 0.05) for sock in through_the_proxy)
    with slow_sockets(server.port, 6, source="127.0.0.3") as one_device:
        time.sleep(0.3)
        assert sum(closed_by_server(sock, 0.05) for sock in one_device) == 3
