"""Real servers for the benches that measure over HTTP (bench/club_night.py, bench/server_rate.py): `companion serve`
(waitress) as a child process on a free port with a fresh database (a SQLite file in a temporary folder, or a
PostgreSQL database made for the run and dropped after it), and the helpers they share.

Every child is started in a session of its own and stopped by its process group (SIGTERM, then SIGKILL), so that
nothing it started is left running; a database made here is dropped even when the bench fails.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlencode

PROJECT_ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_SERVER = "postgresql://postgres@127.0.0.1:5432"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
# Settings a developer's shell may carry that would make a bench's server another one than the bench says.
INHERITED = ("DATABASE_URL", "TRUSTED_HOSTS", "TRUSTED_PROXIES")


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def clean_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment without the app's settings (COMPANION_*, DATABASE_URL, ...), plus `extra`."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("COMPANION_") and key not in INHERITED}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


@contextlib.contextmanager
def fresh_database(folder: Path, postgres: bool) -> Iterator[str]:
    """The URL of an empty database: a SQLite file in `folder`, or a PostgreSQL database dropped afterwards."""
    if not postgres:
        yield f"sqlite:///{folder / 'bench.sqlite'}"
        return
    import psycopg

    name = f"companion_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_SERVER}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_reachable() -> str | None:
    """None when the PostgreSQL server on 127.0.0.1:5432 answers, else why not."""
    try:
        import psycopg
    except ImportError as exc:
        return f"psycopg is not installed: {exc}"
    try:
        with psycopg.connect(PG_ADMIN, connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL is not reachable on 127.0.0.1:5432: {exc}"


class ChildServer:
    """A server as a child process in a session of its own, on a free port; ready once `ready_path` answers 200."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str], log: Path, ready_path: str = "/healthz"):
        """Remember the command (whose `{port}` is filled in by start()), its environment and its log file."""
        self.command = list(command)
        self.env = dict(env)
        self.log = log
        self.ready_path = ready_path
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        """The server process's id."""
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def start(self) -> ChildServer:
        """Start on a free port (a few tries if another process took it meanwhile) and wait until it is ready."""
        for _attempt in range(3):
            self.launch()
            if self._wait_until_ready():
                return self
            self.stop()
        raise RuntimeError(f"The server never became ready; its output:\n{self.output()[-4000:]}")

    def launch(self) -> None:
        """Start the process on a free port without waiting (wait_until_ready() waits)."""
        self.port = free_port()
        with self.log.open("ab") as log:
            log.write(f"--- {' '.join(self.command)} on port {self.port}\n".encode())
            self.process = subprocess.Popen(
                [part.replace("{port}", str(self.port)) for part in self.command],
                cwd=PROJECT_ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_until_ready(self) -> None:
        """Wait until a launched server is ready, or stop it and say why it never was."""
        if not self._wait_until_ready():
            self.stop()
            raise RuntimeError(f"The server never became ready; its output:\n{self.output()[-4000:]}")

    def _wait_until_ready(self) -> bool:
        """True once `ready_path` answers 200; False if the process ends first or START_TIMEOUT passes."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
            try:
                connection.request("GET", self.ready_path)
                if connection.getresponse().status == 200:
                    return True
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            time.sleep(0.1)
        return False

    def stop(self) -> None:
        """SIGTERM the server's process group, then SIGKILL it if it does not end in time; never leaves it running."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_TIMEOUT)
        # The group may outlive its leader (a thread's child, say): nothing of it stays.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

    def output(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def companion_server(
    database_url: str, instance: Path, log: Path, threads: int = 8, settings: Mapping[str, str] | None = None
) -> ChildServer:
    """`python -m companion serve` on 127.0.0.1 with the default settings but for `settings` (COMPANION_* names)."""
    instance.mkdir(parents=True, exist_ok=True)
    env = clean_environment(
        {
            "DATABASE_URL": database_url,
            "COMPANION_INSTANCE": str(instance),
            "COMPANION_SECRET_KEY": "bench",
            **(settings or {}),
        }
    )
    command = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", "{port}"]
    return ChildServer([*command, "--threads", str(threads)], env, log)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, from /proc; 0.0 where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the command's name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def access_cookie(port: int, code: str) -> str:
    """Enter the access code on the access page as a device does; the session cookie that carries it."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", "/access")
        page = connection.getresponse()
        html = page.read().decode()
        cookie = session_cookie(page.getheader("Set-Cookie", ""))
        found = re.search(r'name="csrf_token" value="([^"]+)"', html)
        assert found and cookie, f"no access form: {page.status}"
        body = urlencode({"csrf_token": found.group(1), "code": code, "next": "/"})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        connection.request("POST", "/access", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 303, f"the access code was not taken: {answer.status}"
        return session_cookie(answer.getheader("Set-Cookie", "")) or cookie
    finally:
        connection.close()


def session_cookie(set_cookie: str) -> str:
    """'session=...' out of a Set-Cookie header ('' when it sets none)."""
    found = re.search(r"(session=[^;]+)", set_cookie or "")
    return found.group(1) if found else ""
