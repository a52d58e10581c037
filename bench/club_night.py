"""A club night measured over HTTP: devices following plays on a real `companion serve`, each play's active device
tapping once a second through the JSON API while the other devices at its table run the tracker's sync check.

Run: python3 bench/club_night.py [--devices 200] [--plays 40] [--steps 25,50,100,200] [--seconds 20]
[--postgres] [--servers 2] [--clients 1] [--quick]

The server: `companion serve` (waitress, its default settings and 8 threads) started as a child process on a free
port with a fresh database: a SQLite file in a temporary folder, or with --postgres a PostgreSQL database made on
127.0.0.1:5432 for the run and dropped after it; --servers 2 runs two app servers on that one PostgreSQL
database, the devices split between them (device i on server i mod 2, so a table's devices use both).

The devices: --devices at --plays tables (default 200 at 40: five a table) sets the size of a table; each step
of --steps keeps that size (25 devices: 5 plays). Of each table's devices one is the active device, which taps a
counter once a second (POST /api/v1/plays/<id>/actions, {"action": "add", "field": "scroll_vp", "delta": ±1}, a
Spires play of three players); every other device first opens the tracker page, then every 400 ms asks the
tracker's sync check (GET /plays/<id>/live?since=<the version it shows>&log_waiting=<its log's newest entry>, with
HX-Request: true, as templates/play/_tracker_body.html's hidden poller sends it) and, answered with something,
takes the new version out of the answer's #play-version as htmx swaps it in. As htmx does, a tick that comes while the device's
previous check is still on its way is dropped (counted as "skipped"), and so is a tap: so latencies are those of
the requests sent, and the skipped column says how far the load fell behind. Each device is one kept-alive
HTTP/1.1 connection from an address of its own (127.1.x.y: the server's share per device, 24 connections, is per
address, as a club's phones each have theirs).

The client runs in its own processes (--clients, default 1; plays are dealt out between them), raw HTTP over
asyncio streams (the standard library only). For each step it prints the latency percentiles (p50, p95, p99) of
the sync checks and the taps, "new" (the share of sync checks that brought something: every counter, the
scoreboard and the log came back, where "nothing new" is an empty 200 from one small query), "seen" (from a tap's sending to a following device holding its version: what a
table waits for), answers per second, errors (any status but 200, a refused or dropped connection, no answer
within 10 s) and the CPU the server and the client used (100% = one core), then says at which step p95 passes
500 ms. Figures are for this machine: compare them between runs on one machine, or read them against
bench/server_rate.py's baseline (a bare Flask app on the same waitress settings) measured beside them.

--quick (4 devices at 2 plays, one step of 2 seconds, no time asserted) is what tests/bench/test_bench_club_night.py
runs, so that this script never rots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.servers import HOST, ChildServer, companion_server, cpu_seconds, fresh_database, postgres_reachable

# A player's pace; the tracker's poll is the app's own (companion/play/views.py SYNC_EVERY_MS), read at the start.
TAP_EVERY = 1.0
REQUEST_TIMEOUT = 10.0
SLOW_MS = 500.0
WARMUP = 3.0
PLAYERS = ("Ann", "Γιώργος", "Хана")
VERSION = re.compile(rb'id="play-version" name="since" value="(\d+)"')
LOG_AFTER = re.compile(rb'id="log-after" name="(\w+)" value="(\d+)"')
QUICK = {"devices": 4, "plays": 2, "steps": [4], "seconds": 2.0, "warmup": 0.5}


# --- The client: raw HTTP/1.1 over asyncio streams, one kept-alive connection a device.


class HTTPError(Exception):
    """A request that got no usable answer: the connection refused, dropped or timed out, or a broken answer."""


@dataclass
class Answer:
    """A response: its status, its headers (lower-case names) and its body."""

    status: int
    headers: dict[str, str]
    body: bytes


class Connection:
    """One device's kept-alive connection to a server, from the device's own address; reopened after a failure."""

    def __init__(self, port: int, source: str):
        """Remember where to connect and from which address (connect lazily)."""
        self.port = port
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Answer:
        """Send one request and read its whole answer, within REQUEST_TIMEOUT."""
        try:
            return await asyncio.wait_for(self._request(method, path, headers, body), REQUEST_TIMEOUT)
        except TimeoutError as exc:
            self.close()
            raise HTTPError("timeout") from exc
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            self.close()
            raise HTTPError(type(exc).__name__) from exc

    async def _request(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        """The request itself: connect if needed, write, read the status line, headers and body."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.source, 0))
        assert self.reader is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", *(f"{k}: {v}" for k, v in headers.items())]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        answer_headers: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                name, _, value = line.partition(":")
                answer_headers[name.strip().lower()] = value.strip()
        if status in (204, 304) or method == "HEAD":
            content = b""
        elif answer_headers.get("transfer-encoding", "").lower() == "chunked":
            content = await self._chunked()
        elif "content-length" in answer_headers:
            content = await self.reader.readexactly(int(answer_headers["content-length"]))
        else:
            content = await self.reader.read()
            answer_headers["connection"] = "close"
        if answer_headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, answer_headers, content)

    async def _chunked(self) -> bytes:
        """A chunked body, whole."""
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Window:
    """The measured stretch of a step, on the event loop's clock: requests sent within it are counted."""

    start: float
    end: float

    def holds(self, moment: float) -> bool:
        """Whether a request sent at `moment` is measured."""
        return self.start <= moment < self.end


@dataclass
class Samples:
    """What one client process measured: latencies in seconds, and the counts."""

    sync: list[float] = field(default_factory=list)
    tap: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    changed: int = 0
    answers: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        """The samples as JSON for the orchestrating process."""
        return {
            "sync": self.sync,
            "tap": self.tap,
            "seen": self.seen,
            "changed": self.changed,
            "answers": self.answers,
            "errors": dict(self.errors),
            "skipped": dict(self.skipped),
        }


@dataclass
class PlayClock:
    """A play as its table's devices see it: the version before the first tap, and when each tap was sent."""

    play_id: int
    base_version: int = 0
    sent: list[float] = field(default_factory=list)


def device_address(index: int) -> str:
    """The loopback address device `index` connects from: 127.1.0.1, 127.1.0.2, ... (250 a block)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


def tracker_fields(body: bytes) -> tuple[int, tuple[str, str]] | None:
    """The version an answer shows and its log field (name, newest entry), as htmx would swap them in."""
    version = VERSION.search(body)
    if version is None:
        return None
    log = LOG_AFTER.search(body)
    return int(version.group(1)), ((log.group(1).decode(), log.group(2).decode()) if log else ("log_waiting", "0"))


class Follower:
    """A device following a play on its tracker page: the page once (keeping the session cookie it sets, as a
    browser does), then the sync check every 400 ms."""

    def __init__(self, connection: Connection, clock: PlayClock, cookie: str):
        """The device's connection, its play, and the access code's cookie (or '')."""
        self.connection = connection
        self.clock = clock
        self.cookie = cookie
        self.version = 0
        self.log_field = ("log_waiting", "0")

    def headers(self, htmx: bool) -> dict[str, str]:
        """What a browser sends (htmx adds its own headers to the sync check)."""
        headers = {"Accept": "text/html"}
        if htmx:
            headers.update({"HX-Request": "true", "HX-Current-URL": f"http://{HOST}/plays/{self.clock.play_id}"})
        if self.cookie:
            headers["Cookie"] = self.cookie
        return headers

    async def open_page(self) -> None:
        """Open the tracker page: the version and the log entry it shows."""
        answer = await self.connection.request("GET", f"/plays/{self.clock.play_id}", self.headers(htmx=False))
        shown = tracker_fields(answer.body) if answer.status == 200 else None
        if shown is None:
            raise HTTPError(f"the tracker page answered {answer.status} without its version")
        self.version, self.log_field = shown
        # As a browser does: the session the page began (its CSRF token, for the Undo form) goes with every check.
        if "set-cookie" in answer.headers:
            self.cookie = answer.headers["set-cookie"].split(";", 1)[0]

    async def check(self, samples: Samples, window: Window) -> None:
        """One sync check; a 200 brings the new version, and "seen" for every tap it shows for the first time."""
        loop = asyncio.get_running_loop()
        sent = loop.time()
        counted = window.holds(sent)
        name, newest = self.log_field
        path = f"/plays/{self.clock.play_id}/live?since={self.version}&{name}={newest}"
        try:
            answer = await self.connection.request("GET", path, self.headers(htmx=True))
        except HTTPError as exc:
            if counted:
                samples.errors[f"sync {exc}"] += 1
            return
        now = loop.time()
        if counted:
            samples.answers += 1
            samples.sync.append(now - sent)
        if answer.status == 200 and not answer.body:  # nothing new
            return
        shown = tracker_fields(answer.body) if answer.status == 200 else None
        if shown is None:
            if counted:
                samples.errors[f"sync {answer.status}"] += 1
            return
        version, self.log_field = shown
        if counted:
            samples.changed += 1
        clock = self.clock
        # Each tap moves the play's version on by one: the taps this answer shows for the first time.
        for tap in range(self.version - clock.base_version, min(version - clock.base_version, len(clock.sent))):
            if tap >= 0 and window.holds(clock.sent[tap]):
                samples.seen.append(now - clock.sent[tap])
        self.version = max(self.version, version)


class Tapper:
    """A play's active device: a tap a second through the JSON API, +1 then −1 on one counter."""

    def __init__(self, connection: Connection, clock: PlayClock, player: str):
        """The device's connection, its play and the player whose counter it taps."""
        self.connection = connection
        self.clock = clock
        self.player = player
        self.delta = -1

    async def learn_version(self, cookie: str) -> None:
        """The play's version before the first tap, read off its tracker page."""
        headers = {"Cookie": cookie} if cookie else {}
        answer = await self.connection.request("GET", f"/plays/{self.clock.play_id}", headers)
        shown = tracker_fields(answer.body) if answer.status == 200 else None
        if shown is None:
            raise HTTPError(f"the tracker page answered {answer.status} without its version")
        self.clock.base_version = shown[0]

    async def tap(self, samples: Samples, window: Window, code: str) -> None:
        """One tap; its latency, or the error."""
        loop = asyncio.get_running_loop()
        self.delta = -self.delta
        body = json.dumps({"action": "add", "player": self.player, "field": "scroll_vp", "delta": self.delta})
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if code:
            headers["Authorization"] = f"Bearer {code}"
        sent = loop.time()
        self.clock.sent.append(sent)
        counted = window.holds(sent)
        try:
            answer = await self.connection.request(
                "POST", f"/api/v1/plays/{self.clock.play_id}/actions", headers, body.encode()
            )
        except HTTPError as exc:
            if counted:
                samples.errors[f"tap {exc}"] += 1
            return
        if counted:
            samples.answers += 1
            samples.tap.append(loop.time() - sent)
            if answer.status != 200:
                samples.errors[f"tap {answer.status}"] += 1


async def every(
    interval: float, due: float, window: Window, kind: str, samples: Samples, send: Any
) -> list[asyncio.Task[None]]:
    """Call `send()` every `interval` from the moment `due` until the window ends, dropping a tick while the last
    call is on its way (as htmx drops a poll while its element's request is in flight); the calls still running."""
    loop = asyncio.get_running_loop()
    running: asyncio.Task[None] | None = None
    while True:
        await asyncio.sleep(max(0.0, due - loop.time()))
        if loop.time() >= window.end:
            return [running] if running is not None and not running.done() else []
        if running is not None and not running.done():
            if window.holds(loop.time()):
                samples.skipped[kind] += 1
        else:
            running = asyncio.ensure_future(send())
        due += interval


async def client_main(spec: dict[str, Any]) -> dict[str, Any]:
    """Open every device's page, say ready, wait for go, run the step, and answer the samples."""
    loop = asyncio.get_running_loop()
    samples = Samples()
    ports: list[int] = spec["ports"]
    code: str = spec.get("code", "")
    cookie: str = spec.get("cookie", "")
    followers: list[Follower] = []
    tappers: list[Tapper] = []
    for play in spec["plays"]:
        clock = PlayClock(play["id"])
        tapper_index, *follower_indexes = play["devices"]
        tappers.append(
            Tapper(Connection(ports[tapper_index % len(ports)], device_address(tapper_index)), clock, play["player"])
        )
        followers.extend(
            Follower(Connection(ports[index % len(ports)], device_address(index)), clock, cookie)
            for index in follower_indexes
        )
    await asyncio.gather(*(tapper.learn_version(cookie) for tapper in tappers))
    # The pages opened a few at a time: a club's devices don't all open at the same millisecond either.
    gate = asyncio.Semaphore(16)

    async def opened(follower: Follower) -> None:
        """The follower's page, opened within the gate."""
        async with gate:
            await follower.open_page()

    await asyncio.gather(*(opened(follower) for follower in followers))
    print("ready", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    warmup, seconds = float(spec["warmup"]), float(spec["seconds"])
    now = loop.time()
    window = Window(now + warmup, now + warmup + seconds)
    rng = random.Random(spec.get("seed", 0))
    before = resource.getrusage(resource.RUSAGE_SELF)
    sync_every = float(spec["sync_every"])
    loops = [
        every(
            sync_every, now + rng.uniform(0, sync_every), window, "sync", samples, lambda f=f: f.check(samples, window)
        )
        for f in followers
    ] + [
        every(
            TAP_EVERY, now + rng.uniform(0, TAP_EVERY), window, "tap", samples, lambda t=t: t.tap(samples, window, code)
        )
        for t in tappers
    ]
    left = [task for tasks in await asyncio.gather(*loops) for task in tasks]
    after = resource.getrusage(resource.RUSAGE_SELF)
    if left:
        await asyncio.wait(left, timeout=REQUEST_TIMEOUT + 1)
    for connection in [device.connection for device in followers] + [device.connection for device in tappers]:
        connection.close()
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / (warmup + seconds)
    return {**samples.to_json(), "cpu": cpu}


def client_process() -> int:
    """The client as a process of its own: its spec on the first line of stdin, "go" on the next; answers JSON."""
    spec = json.loads(sys.stdin.readline())
    result = asyncio.run(client_main(spec))
    print(json.dumps(result), flush=True)
    return 0


# --- The orchestration: servers, plays, steps, the table.


@dataclass
class Step:
    """One step measured: how many devices and plays, and what all the clients saw."""

    devices: int
    plays: int
    seconds: float
    sync: list[float] = field(default_factory=list)
    tap: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    changed: int = 0
    answers: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    # The machine's 1-minute load average at the step's end: what else wanted its cores meanwhile.
    load: float = 0.0

    def add(self, result: dict[str, Any]) -> None:
        """Fold one client's samples in."""
        self.sync += result["sync"]
        self.tap += result["tap"]
        self.seen += result["seen"]
        self.changed += result["changed"]
        self.answers += result["answers"]
        self.errors.update(result["errors"])
        self.skipped.update(result["skipped"])
        self.client_cpu += result["cpu"]

    @property
    def error_count(self) -> int:
        """Every error of the step."""
        return sum(self.errors.values())

    def p95_ms(self) -> float:
        """The worse p95 of the sync checks and the taps, in milliseconds."""
        return max(percentile(self.sync, 95), percentile(self.tap, 95)) * 1000


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile by the nearest rank (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def tables(devices: int, plays: int) -> list[int]:
    """Devices per play: `devices` dealt out over `plays` tables, at least one (the active device) at each."""
    plays = max(1, min(plays, devices))
    return [devices // plays + (1 if table < devices % plays else 0) for table in range(plays)]


def start_plays(port: int, count: int, code: str) -> list[int]:
    """Start `count` Spires plays of three players through the API; their ids."""
    import http.client

    ids = []
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {code}"} if code else {})}
    try:
        for _ in range(count):
            body = {"game": "spires", "track": True, "players": [{"name": name} for name in PLAYERS]}
            connection.request("POST", "/api/v1/plays", body=json.dumps(body), headers=headers)
            answer = connection.getresponse()
            view = json.loads(answer.read())
            assert answer.status == 201, (answer.status, view)
            ids.append(int(view["id"]))
    finally:
        connection.close()
    return ids


def run_step(
    servers: list[ChildServer], play_ids: list[int], devices: int, plays: int, args: argparse.Namespace
) -> Step:
    """Run one step: the clients open their pages, then tap and follow for the warm-up and the window."""
    sizes = tables(devices, plays)
    step = Step(devices, len(sizes), args.seconds)
    specs: list[dict[str, Any]] = [
        {
            "ports": [server.port for server in servers],
            "plays": [],
            "warmup": args.warmup,
            "seconds": args.seconds,
            "sync_every": sync_every(),
            "seed": index,
            "code": args.access_code or "",
            "cookie": args.cookie,
        }
        for index in range(max(1, min(args.clients, len(sizes))))
    ]
    first = 0
    for table, size in enumerate(sizes):
        specs[table % len(specs)]["plays"].append(
            {"id": play_ids[table], "player": PLAYERS[0], "devices": list(range(first, first + size))}
        )
        first += size
    clients = [
        subprocess.Popen(
            [sys.executable, __file__, "--client"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        for _spec in specs
    ]
    try:
        for client, spec in zip(clients, specs, strict=True):
            assert client.stdin is not None
            client.stdin.write(json.dumps(spec) + "\n")
            client.stdin.flush()
        for client in clients:
            assert client.stdout is not None
            ready = client.stdout.readline().strip()
            if ready != "ready":
                raise RuntimeError(f"a client could not open its devices' pages (it said {ready!r})")
        started = time.monotonic()
        for client in clients:
            assert client.stdin is not None
            client.stdin.write("go\n")
            client.stdin.flush()
        time.sleep(args.warmup)
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        time.sleep(max(0.0, started + args.warmup + args.seconds - time.monotonic()))
        step.server_cpu = (sum(cpu_seconds(server.pid) for server in servers) - cpu_before) / args.seconds
        step.load = os.getloadavg()[0]
        for client in clients:
            out, _ = client.communicate(timeout=REQUEST_TIMEOUT * 3 + args.seconds)
            if client.returncode != 0:
                raise RuntimeError(f"a client failed (exit {client.returncode})")
            step.add(json.loads(out.strip().splitlines()[-1]))
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
                client.wait(timeout=10)
    return step


def sync_every() -> float:
    """The tracker's sync interval in seconds, as the app sets it."""
    from companion.play.views import SYNC_EVERY_MS

    return SYNC_EVERY_MS / 1000


def report(steps: list[Step], where: str) -> str:
    """The table, and where p95 passes SLOW_MS."""

    def ms(values: list[float], p: float) -> str:
        return f"{percentile(values, p) * 1000:.0f}" if values else "-"

    lines = [
        (
            f"club night on {where}: sync every {sync_every() * 1000:.0f} ms, a tap a second per play; latencies in"
            f" ms; CPU 100% = one core of {os.cpu_count()}, load = the machine's 1-minute load average"
        ),
        (
            f"{'devices':>7} {'plays':>5} | {'sync p50':>8} {'p95':>5} {'p99':>5} {'new':>4} | {'tap p50':>7} {'p95':>5}"
            f" {'p99':>5} | {'seen p50':>8} {'p95':>5} | {'answers/s':>9} {'errors':>6} {'skipped':>7} |"
            f" {'server':>6} {'client':>6} {'load':>5}"
        ),
    ]
    for step in steps:
        lines.append(
            f"{step.devices:>7} {step.plays:>5} | {ms(step.sync, 50):>8} {ms(step.sync, 95):>5} {ms(step.sync, 99):>5}"
            f" {step.changed / max(len(step.sync), 1):>4.0%}"
            f" | {ms(step.tap, 50):>7} {ms(step.tap, 95):>5} {ms(step.tap, 99):>5}"
            f" | {ms(step.seen, 50):>8} {ms(step.seen, 95):>5}"
            f" | {step.answers / step.seconds:>9.0f} {step.error_count:>6} {sum(step.skipped.values()):>7}"
            f" | {step.server_cpu:>5.0%} {step.client_cpu:>6.0%} {step.load:>5.1f}"
        )
    for step in steps:
        if step.errors:
            lines.append(f"errors at {step.devices} devices: " + ", ".join(f"{k} ×{n}" for k, n in step.errors.items()))
    slow = next((step for step in steps if step.p95_ms() > SLOW_MS), None)
    if slow is not None:
        lines.append(f"p95 passes {SLOW_MS:.0f} ms at {slow.devices} devices ({slow.p95_ms():.0f} ms).")
    elif steps:
        lines.append(f"p95 stays under {SLOW_MS:.0f} ms up to {steps[-1].devices} devices.")
    return "\n".join(lines)


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line, --quick's sizes filled in."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=200, help="devices at the largest step (default 200)")
    parser.add_argument("--plays", type=int, default=40, help="plays those devices follow (default 40)")
    parser.add_argument("--steps", help="device counts to measure, e.g. 25,50,100,200 (default: 1/8 to all)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step (default 20)")
    parser.add_argument("--warmup", type=float, default=WARMUP, help=f"seconds before measuring (default {WARMUP:g})")
    parser.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database on 127.0.0.1:5432")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2), help="app servers (2: needs --postgres)")
    parser.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--access-code", help="set COMPANION_ACCESS_CODE on the servers (devices enter it once)")
    parser.add_argument("--quick", action="store_true", help="4 devices, 2 plays, 2 seconds: for the test suite")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.devices, args.plays, args.seconds, args.warmup = (
            QUICK[k] for k in ("devices", "plays", "seconds", "warmup")
        )
        args.steps = QUICK["steps"]
    elif args.steps:
        args.steps = [int(part) for part in args.steps.split(",")]
    else:
        args.steps = sorted({max(1, args.devices * share // 8) for share in (1, 2, 4, 8)})
    if args.servers > 1 and not args.postgres:
        parser.error("--servers 2 runs two app servers on one PostgreSQL database: add --postgres")
    args.cookie = ""
    return args


def plays_at(devices: int, args: argparse.Namespace) -> int:
    """The plays a step of `devices` follows: a table as large as --devices at --plays makes it."""
    return max(1, round(devices * args.plays / args.devices))


def measure(args: argparse.Namespace) -> list[Step]:
    """Start the servers on a fresh database, start the plays, and run every step."""
    if args.postgres and (why := postgres_reachable()):
        raise SystemExit(why)
    steps: list[Step] = []
    with tempfile.TemporaryDirectory() as folder, fresh_database(Path(folder), args.postgres) as url:
        settings = {"COMPANION_ACCESS_CODE": args.access_code} if args.access_code else {}
        servers = [
            companion_server(url, Path(folder) / "instance", Path(folder) / f"serve-{n}.log", settings=settings)
            for n in range(args.servers)
        ]
        try:
            # One after the other: the first brings the fresh database to the schema, the next finds it done.
            for server in servers:
                server.start()
            if args.access_code:
                from bench.servers import access_cookie

                args.cookie = access_cookie(servers[0].port, args.access_code)
            most = max(len(tables(devices, plays_at(devices, args))) for devices in args.steps)
            play_ids = start_plays(servers[0].port, most, args.access_code or "")
            for devices in args.steps:
                steps.append(run_step(servers, play_ids, devices, plays_at(devices, args), args))
        finally:
            for server in servers:
                server.stop()
    return steps


def main(argv: list[str] | None = None) -> int:
    """Measure every step and print the table; 1 when the quick run saw an error or measured nothing."""
    args = parse(argv)
    if args.client:
        return client_process()
    where = ("PostgreSQL" if args.postgres else "SQLite") + (
        f", {args.servers} app servers" if args.servers > 1 else ""
    )
    steps = measure(args)
    print(report(steps, where), flush=True)
    if args.quick and any(step.error_count or not step.sync or not step.tap for step in steps):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
