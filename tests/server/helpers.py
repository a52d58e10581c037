"""A real `companion serve` (waitress) in a subprocess on SQLite or PostgreSQL, and a plain HTTP client for it.

Only the standard library talks HTTP here, only to 127.0.0.1, with a timeout on every request; every wait is
bounded. A server started by a test is always stopped at its end (terminate, then kill), even when it fails.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent


HOST = "127.0.0.1"


# Long enough for a write that waits its turn behind every other one (SQLite's busy timeout is 15 s).
REQUEST_TIMEOUT = 30.0


START_TIMEOUT = 40.0


STOP_TIMEOUT = 10.0


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Server:
    """`python3 -m companion serve` as a child process: the waitress process itself, no shell in between."""

    def __init__(
        self, database_url: str, instance: Path, log: Path, threads: int = 8, env: Mapping[str, str] | None = None
    ):
        """Remember where the data is, where the server's output goes and any settings of its own (COMPANION_*
        variables in `env`); start() runs it."""
        self.database_url = database_url
        self.instance = instance
        self.log = log
        self.threads = threads
        self.env = dict(env or {})
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        """The waitress process's id."""
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        """Start the server on a free port and wait until it answers HTTP (a few tries if the port was taken)."""
        env = {
            **os.environ,
            **self.env,
            "DATABASE_URL": self.database_url,
            "COMPANION_INSTANCE": str(self.instance),
            "PYTHONUNBUFFERED": "1",
        }
        for _attempt in range(3):
            self.port = free_port()
            with self.log.open("ab") as log:
                log.write(f"--- serve on port {self.port}\n".encode())
                self.process = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "companion",
                        "serve",
                        "--host",
                        HOST,
                        "--port",
                        str(self.port),
                        "--threads",
                        str(self.threads),
                    ],
                    cwd=PROJECT_ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            if self._wait_until_it_answers():
                return self
            self.stop()
        raise AssertionError(f"The server never answered; its output:\n{self.output()}")

    def _wait_until_it_answers(self) -> bool:
        """True once any HTTP answer comes back; False if the process ends first or START_TIMEOUT passes."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
                try:
                    connection.request("GET", "/api/v1/plays/2147483647")
                    connection.getresponse().read()
                    return True
                finally:
                    connection.close()
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        return False

    def kill9(self) -> None:
        """SIGKILL the waitress process: no shutdown, no chance to finish anything."""
        assert self.process is not None and self.process.poll() is None, "the server is not running"
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=STOP_TIMEOUT)

    def stop(self) -> None:
        """Terminate the server, and kill it if it does not end in time; never leaves it running."""
        process, self.process = self.process, None
        end_process(process)

    def output(self) -> str:
        """Everything the server printed (and logged) so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def client(self) -> Client:
        """A client with its own kept-alive connection to this server."""
        return Client(self.port)


class Client:
    """One device: a kept-alive HTTP connection to 127.0.0.1, JSON in and out, a timeout on every request."""

    def __init__(self, port: int):
        """Connect lazily to the port."""
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """(status, JSON answer, else the text, or None). Raises OSError or HTTPException when no answer came."""
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        try:
            answer = json.loads(raw) if raw else None
        except ValueError:
            answer = raw.decode(errors="replace")
        return response.status, answer

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


def end_process(process: subprocess.Popen[str] | subprocess.Popen[bytes] | None) -> None:
    """SIGTERM a child process, then SIGKILL it if it does not end in time; never leaves it running."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT)
