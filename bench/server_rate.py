"""What a real server answers per second, as ratios to a bare Flask app on the same waitress settings, in one run.

Run: python3 bench/server_rate.py [--seconds 10] [--connections 16] [--threads 2] [--postgres] [--quick].
Debian's wrk (/usr/bin/wrk; `apt-get install wrk`) drives, from 127.0.0.1, each of:
- (a) hello: a bare Flask app answering "Hello" to GET /, served by waitress with the settings `companion serve`
  uses (companion/cli.py's create_server arguments and SERVER_DEFAULTS, 8 threads, its per-device connection
  guard): the baseline, measured first and again last, and the ratios are to the mean of the two; (a') the same
  app's empty 200 (Content-Length 0: the least a "nothing new" can be, its connection kept);
- (a") the floor of the stack itself: the hello's app with one route more, POST /write/<id> (the same body, read with
  get_json), which moves one row's version on in a SQLModel session on a database of its own (the same kind as the
  companion servers') and commits: Flask, SQLAlchemy and the database, none of the app's hooks, no request log;
- (b) the tracker's sync check when nothing is new (GET /plays/<id>/live?since=<version>&log_waiting=<entry>,
  HX-Request: true; an empty 200 from one small query, answered in front of the app by
  companion/play/sync_check.py) on `companion serve`, without an access code and with one set
  (COMPANION_ACCESS_CODE; the device's session cookie sent, as a phone that entered the code once does);
- (c) a tap through the JSON API (a wrk Lua script POSTing {"action": "add", "field": "scroll_vp", "delta": ±1}
  to the actions of PLAYS plays in turn; each play's counter first set to the middle of its range, so no tap is
  refused), on the server without a code;
- (d) the floor of a tap: the least write a request through the app can make. The same app as `companion serve`
  (create_app, every request hook, the request log), served by the same code (companion/cli.py serve_app) with one
  route more, registered in this child alone: POST /api/v1/floor/<id>, the same JSON body as the tap's, read with
  Flask's get_json; it takes its write turn and moves the play's version on (the claim every tap begins with) in
  the request's session, commits and answers {"version": n}. No game rule, no read of the play, no log row: what
  the app and its stack cost a write before the tap's own work. The table's last line gives the tap's rate as a
  share of this floor's, and both floors' as shares of the hello's.
Each companion server is a child process with a fresh database (SQLite in a temporary folder, or with --postgres
a PostgreSQL database on 127.0.0.1:5432 made for the run and dropped after it), logging as it does by default (a
line per request, into a file; --log-level WARNING leaves that out). For each case it prints requests per second,
wrk's latency p50/p99, the answers that were not 2xx, socket errors, the server's CPU (100% = one core) and the
ratio of its rate to the hello's. Connections stay within the server's share per device (24, all from 127.0.0.1).

--quick (1-second runs, 2 connections) is what tests/bench/test_bench_server_rate.py runs, so that this script
never rots; it is skipped with the reason when wrk is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.servers import (
    HOST,
    ChildServer,
    access_cookie,
    clean_environment,
    companion_server,
    cpu_seconds,
    fresh_database,
    postgres_reachable,
)

WRK = "/usr/bin/wrk"
ACCESS_CODE = "bench-code-2026"
PLAYS = 4
PLAYERS = ("Ann", "Bob")
TAP_SCRIPT = """
-- Each tap goes to the next of the plays, +1 then -1 on one counter, so no tap runs out of room.
local plays = {%(plays)s}
local n = 0
request = function()
  n = n + 1
  local play = plays[(n %% #plays) + 1]
  local delta = (math.floor(n / #plays) %% 2 == 0) and 1 or -1
  local body = '{"action": "add", "player": "%(player)s", "field": "scroll_vp", "delta": ' .. delta .. '}'
  return wrk.format("POST", "%(path)s" .. play .. "%(end)s", {["Content-Type"] = "application/json"}, body)
end
"""


def write_script(path: Path, plays: Sequence[int], route: str, end: str = "") -> Path:
    """TAP_SCRIPT for these plays, POSTing to <route><play><end>: the tap's, and the floors' with the same bodies."""
    path.write_text(TAP_SCRIPT % {"plays": ", ".join(map(str, plays)), "player": PLAYERS[0], "path": route, "end": end})
    return path


def version_moved_on(play_id: int) -> Any:
    """The floors' one write: the play's version moved on (the claim every tap begins with), the new one returned."""
    from sqlalchemy import update

    from companion.store.models import Play

    return update(Play).where(Play.id == play_id).values(version=Play.version + 1).returning(Play.version)


@dataclass
class Rate:
    """One wrk run: what it measured, and the server's CPU meanwhile."""

    case: str
    per_second: float
    p50_ms: float
    p99_ms: float
    requests: int
    not_2xx: int
    socket_errors: int
    server_cpu: float


def wrk_missing() -> str | None:
    """None when wrk is installed, else what to do."""
    if Path(WRK).exists() or shutil.which("wrk"):
        return None
    return f"wrk is not installed ({WRK}): apt-get install wrk"


def hello_process() -> int:
    """Serve the bare hello app on the port of argv with companion serve's waitress settings (the child of (a))."""
    from flask import Flask, jsonify, request
    from sqlmodel import Session, SQLModel
    from waitress.server import create_server

    from companion.cli import SERVER_DEFAULTS
    from companion.config import SETTINGS
    from companion.store.db import make_engine
    from companion.store.models import Play
    from companion.web.security import guard_connections

    port = int(sys.argv[sys.argv.index("--hello") + 1])
    engine = make_engine(os.environ["DATABASE_URL"])
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all(Play(game="spires", rules_version="bench") for _ in range(PLAYS))
        session.commit()
    app = Flask("hello")
    defaults = {setting.name: setting.default for setting in SETTINGS}
    # What companion serve tells waitress at the default settings: twice the larger of the two body limits.
    body_limit = max(defaults["MAX_CONTENT_LENGTH"], defaults["IMPORT_MAX_LENGTH"]) * 2

    @app.get("/")
    def hello() -> str:
        """The least a Flask answer can be."""
        return "Hello"

    @app.get("/nothing")
    def nothing() -> str:
        """The least a "nothing new" answer can be: an empty 200 (Content-Length 0, so the connection is kept)."""
        return ""

    @app.post("/write/<int:play_id>")
    def write(play_id: int) -> object:
        """The least write on the bare stack (a"): the body read, one row's version moved on, committed."""
        request.get_json()
        with Session(engine) as session:
            version = session.connection().execute(version_moved_on(play_id)).scalar_one()
            session.commit()
        return jsonify(version=version)

    @app.get("/healthz")
    def healthz() -> str:
        """Ready."""
        return "ok"

    server = create_server(
        app,
        host=HOST,
        port=port,
        threads=8,
        ident="companion",
        max_request_body_size=body_limit,
        connection_limit=SERVER_DEFAULTS["SERVER_CONNECTION_LIMIT"],
        channel_timeout=SERVER_DEFAULTS["SERVER_IDLE_TIMEOUT"],
        cleanup_interval=1,
        asyncore_use_poll=True,
        clear_untrusted_proxy_headers=True,
    )
    guard_connections(
        server, SERVER_DEFAULTS["SERVER_CONNECTIONS_PER_DEVICE"], SERVER_DEFAULTS["SERVER_HEADER_TIMEOUT"]
    )
    try:
        server.run()
    finally:
        server.close()
    return 0


def floor_process() -> int:
    """Serve the app as `companion serve` does, with the floor route of (d) added (the child of (d))."""
    from flask import jsonify, request

    from companion import create_app
    from companion.cli import serve_app
    from companion.store import write_turns
    from companion.store.db import get_session
    from companion.web import logs

    port = int(sys.argv[sys.argv.index("--floor") + 1])
    logs.configure(os.environ.get("COMPANION_LOG_LEVEL", "INFO"))
    app = create_app()

    @app.post("/api/v1/floor/<int:play_id>")
    def floor(play_id: int) -> object:
        """The least write through the app: the tap's body read, the play's version moved on, committed."""
        request.get_json()
        session = get_session()
        # In its turn, as every write of the app takes it (on SQLite, never left to SQLite's busy handler's sleeps).
        write_turns.take_turn(session)
        version = session.connection().execute(version_moved_on(play_id)).scalar_one()
        session.commit()
        return jsonify(version=version)

    serve_app(app, HOST, port, 8)
    return 0


def parse_wrk(case: str, output: str, server_cpu: float) -> Rate:
    """wrk's --latency report as a Rate."""

    def number(pattern: str, default: str = "0") -> str:
        found = re.search(pattern, output)
        return found.group(1) if found else default

    def ms(text: str) -> float:
        found = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
        if found is None:
            return 0.0
        return float(found.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[found.group(2)]

    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return Rate(
        case=case,
        per_second=float(number(r"Requests/sec:\s+([\d.]+)")),
        p50_ms=ms(number(r"\s50%\s+([\d.]+(?:us|ms|s))", "0ms")),
        p99_ms=ms(number(r"\s99%\s+([\d.]+(?:us|ms|s))", "0ms")),
        requests=int(number(r"(\d+) requests in")),
        not_2xx=int(number(r"Non-2xx or 3xx responses: (\d+)")),
        socket_errors=sum(int(n) for n in errors.groups()) if errors else 0,
        server_cpu=server_cpu,
    )


def run_wrk(case: str, server: ChildServer, path: str, args: argparse.Namespace, extra: list[str]) -> Rate:
    """One wrk run against the server; its rate and the server's CPU meanwhile."""
    command = [
        shutil.which("wrk") or WRK,
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{args.seconds:g}s",
        "--latency",
        "--timeout",
        "10s",
        *extra,
        f"http://{HOST}:{server.port}{path}",
    ]
    before = cpu_seconds(server.pid)
    done = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 60, check=False)
    cpu = (cpu_seconds(server.pid) - before) / args.seconds
    if done.returncode != 0 or "Requests/sec" not in done.stdout:
        raise RuntimeError(f"wrk failed for {case} (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
    return parse_wrk(case, done.stdout, cpu)


def api(port: int, method: str, path: str, body: object = None) -> dict:
    """A JSON API call; its answer (the status checked by the caller through the answer's content)."""
    import http.client

    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        data = json.dumps(body) if body is not None else None
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        view = json.loads(answer.read() or b"{}")
        assert answer.status in (200, 201), (answer.status, view)
        return view
    finally:
        connection.close()


def tracker_state(port: int, play_id: int, cookie: str = "") -> tuple[int, str]:
    """The version and the log field a freshly opened tracker page shows: what its sync check sends."""
    import http.client

    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("GET", f"/plays/{play_id}", headers={"Cookie": cookie} if cookie else {})
        answer = connection.getresponse()
        html = answer.read().decode()
    finally:
        connection.close()
    version = re.search(r'id="play-version" name="since" value="(\d+)"', html)
    log = re.search(r'id="log-after" name="(\w+)" value="(\d+)"', html)
    assert answer.status == 200 and version and log, f"the tracker page answered {answer.status}"
    return int(version.group(1)), f"{log.group(1)}={log.group(2)}"


def answers(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """The status and body of one GET: each case is checked once before wrk runs it (wrk counts a redirect, or the
    whole tracker where "nothing new" was meant, as an answer)."""
    import http.client

    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def start_play(server: ChildServer, code: str = "") -> int:
    """A Spires play in progress on the server (the API, with the code when one is set); its id."""
    import http.client

    connection = http.client.HTTPConnection(HOST, server.port, timeout=30)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {code}"} if code else {})}
    try:
        body = {"game": "spires", "track": True, "players": [{"name": name} for name in PLAYERS]}
        connection.request("POST", "/api/v1/plays", body=json.dumps(body), headers=headers)
        answer = connection.getresponse()
        view = json.loads(answer.read())
        assert answer.status == 201, (answer.status, view)
        return int(view["id"])
    finally:
        connection.close()


def measure(args: argparse.Namespace) -> list[Rate]:
    """Start the three servers, measure every case with wrk (the hello first and last), stop them."""
    from companion.games.spires import SCROLL_VP_MAX

    if args.postgres and (why := postgres_reachable()):
        raise SystemExit(why)
    rates: list[Rate] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with (
            fresh_database(folder / "open", args.postgres) as open_url,
            fresh_database(folder / "code", args.postgres) as code_url,
            fresh_database(folder / "floor", args.postgres) as floor_url,
            fresh_database(folder / "hello", args.postgres) as hello_url,
        ):
            for name in ("open", "code", "floor", "hello"):
                (folder / name).mkdir()
            hello = ChildServer(
                [sys.executable, __file__, "--hello", "{port}"],
                clean_environment({"DATABASE_URL": hello_url}),
                folder / "hello.log",
            )
            level = {"COMPANION_LOG_LEVEL": args.log_level} if args.log_level else {}
            open_server = companion_server(open_url, folder / "open" / "instance", folder / "open.log", settings=level)
            code_server = companion_server(
                code_url,
                folder / "code" / "instance",
                folder / "code.log",
                settings={**level, "COMPANION_ACCESS_CODE": ACCESS_CODE},
            )
            floor_environment = {"DATABASE_URL": floor_url, "COMPANION_INSTANCE": str(folder / "floor" / "instance")}
            floor_server = ChildServer(
                [sys.executable, __file__, "--floor", "{port}"],
                clean_environment({**floor_environment, "COMPANION_SECRET_KEY": "bench", **level}),
                folder / "floor.log",
            )
            servers = [hello, open_server, code_server, floor_server]
            try:
                # Started together, then waited for: three imports of the app take turns on the cores anyway.
                for server in servers:
                    server.launch()
                for server in servers:
                    server.wait_until_ready()
                # (b) without a code: a play nobody taps, asked by a device that shows its newest version.
                watched = start_play(open_server)
                version, log = tracker_state(open_server.port, watched)
                sync = f"/plays/{watched}/live?since={version}&{log}"
                # (b) with the code: the same on the server that wants it, with the device's cookie.
                cookie = access_cookie(code_server.port, ACCESS_CODE)
                guarded = start_play(code_server, ACCESS_CODE)
                guarded_version, guarded_log = tracker_state(code_server.port, guarded, cookie)
                guarded_sync = f"/plays/{guarded}/live?since={guarded_version}&{guarded_log}"
                # (c) the plays the taps go to, each counter in the middle of its range.
                tapped = [start_play(open_server) for _ in range(PLAYS)]
                for play in tapped:
                    middle = {"action": "set", "player": PLAYERS[0], "field": "scroll_vp", "value": SCROLL_VP_MAX // 2}
                    api(open_server.port, "POST", f"/api/v1/plays/{play}/actions", middle)
                script = write_script(folder / "tap.lua", tapped, "/api/v1/plays/", "/actions")
                # (d) as many plays on the floor's server, and (a") the hello's, written to in the same turns with
                # the same bodies.
                floored = [start_play(floor_server) for _ in range(PLAYS)]
                floor_script = write_script(folder / "floor.lua", floored, "/api/v1/floor/")
                bare_script = write_script(folder / "bare.lua", range(1, PLAYS + 1), "/write/")
                htmx = ["-H", "HX-Request: true"]
                checks = {
                    "hello": answers(hello.port, "/", {}),
                    "hello's empty 200": answers(hello.port, "/nothing", {}),
                    "sync": answers(open_server.port, sync, {"HX-Request": "true"}),
                    "sync with the code": answers(
                        code_server.port, guarded_sync, {"HX-Request": "true", "Cookie": cookie}
                    ),
                }
                nothing_new = (200, b"")
                expected = {"hello": (200, b"Hello"), "hello's empty 200": nothing_new}
                if checks != {**expected, "sync": nothing_new, "sync with the code": nothing_new}:
                    raise RuntimeError(f"a case does not answer as it should before it is measured: {checks}")
                rates.append(run_wrk("(a) hello", hello, "/", args, []))
                rates.append(run_wrk("(a') hello's empty 200", hello, "/nothing", args, []))
                rates.append(run_wrk("(a\") hello's one-row write", hello, "/", args, ["-s", str(bare_script)]))
                rates.append(run_wrk("(b) sync, nothing new", open_server, sync, args, htmx))
                rates.append(
                    run_wrk(
                        "(b) sync, access code set", code_server, guarded_sync, args, [*htmx, "-H", f"Cookie: {cookie}"]
                    )
                )
                rates.append(run_wrk("(c) tap through the API", open_server, "/", args, ["-s", str(script)]))
                rates.append(run_wrk("(d) the least write", floor_server, "/", args, ["-s", str(floor_script)]))
                rates.append(run_wrk("(a) hello again", hello, "/", args, []))
            finally:
                for server in servers:
                    server.stop()
    return rates


def report(rates: list[Rate]) -> str:
    """The table: each case's rate and latency, and its ratio to the mean of the two hello runs."""
    hellos = [rate.per_second for rate in rates if rate.case.startswith("(a) hello")]
    baseline = sum(hellos) / len(hellos) if hellos else 0.0
    lines = [
        (
            f"{'case':<28} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'requests':>8} {'non-2xx':>7} {'sock err':>8}"
            f" {'server':>6} {'vs hello':>8}"
        )
    ]
    for rate in rates:
        ratio = f"{rate.per_second / baseline:.2f}x" if baseline else "-"
        lines.append(
            f"{rate.case:<28} {rate.per_second:>8.0f} {rate.p50_ms:>7.2f} {rate.p99_ms:>7.2f} {rate.requests:>8}"
            f" {rate.not_2xx:>7} {rate.socket_errors:>8} {rate.server_cpu:>5.0%} {ratio:>8}"
        )
    taps = [rate.per_second for rate in rates if rate.case.startswith("(c)")]
    floors = [rate.per_second for rate in rates if rate.case.startswith("(d)")]
    bare = [rate.per_second for rate in rates if rate.case.startswith('(a") ')]
    if taps and floors and floors[0] and bare and baseline:
        lines.append(
            f"The tap answers {taps[0] / floors[0]:.2f}x the least write through the app, which answers "
            f"{floors[0] / baseline:.2f}x the hello; a bare Flask app's one-row write answers "
            f"{bare[0] / baseline:.2f}x."
        )
    lines.append(
        f"CPU 100% = one core of {os.cpu_count()}; the machine's load average (1, 5, 15 min) at the end: "
        + ", ".join(f"{load:.1f}" for load in os.getloadavg())
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure every case and print the table; 2 when wrk is missing, 1 when a quick run saw a refused answer."""
    if argv is None and "--hello" in sys.argv:
        return hello_process()
    if argv is None and "--floor" in sys.argv:
        return floor_process()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per wrk run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk's connections, at most 24 (default 16)")
    parser.add_argument("--threads", type=int, default=2, help="wrk's threads (default 2)")
    parser.add_argument("--postgres", action="store_true", help="fresh PostgreSQL databases on 127.0.0.1:5432")
    parser.add_argument("--log-level", help="the companion servers' log level (default: theirs, INFO)")
    parser.add_argument("--quick", action="store_true", help="1-second runs, 2 connections: for the test suite")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.connections, args.threads = 1.0, 2, 1
    if args.connections > 24:
        parser.error("--connections: the server takes at most 24 from one address (SERVER_CONNECTIONS_PER_DEVICE)")
    args.threads = min(args.threads, args.connections)
    if why := wrk_missing():
        print(why, file=sys.stderr)
        return 2
    rates = measure(args)
    print(report(rates), flush=True)
    if args.quick and any(rate.not_2xx or rate.socket_errors or not rate.requests for rate in rates):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
