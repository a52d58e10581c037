"""Fuzz every route of the URL map with bounded random and hostile requests, and count the 5xx answers.

Run: python3 bench/fuzz.py [--requests N] [--seed S] [--database-url URL] [--quick]. Through the Flask test
client (nothing leaves the process), on a fresh SQLite file in a temporary folder unless --database-url names
another (e.g. a throwaway PostgreSQL database). It first starts a play of every game (tracked, some finished) and
reads every page once to learn its forms' fields, then sends requests drawn from: every rule of the URL map, with
good, missing, huge, negative, non-numeric and every-alphabet path values; every method (allowed or not); JSON
bodies mutated from valid ones (huge numbers, wrong types, nested 1,000 deep, NUL, lone surrogates, right-to-left
marks, scripts of many alphabets), form bodies with the pages' own field names, bad or missing content types,
invalid UTF-8, hostile query strings, htmx or not, the CSRF token or not, and now and then a malformed Host, a
foreign Origin or a forged cookie. Prints the number of requests, the answers by status, and every 5xx with what
was sent (the first few in full); exits 1 when there was any 5xx.

The PDF routes (each a WeasyPrint render) get a small share so that a run stays within minutes, and none in the
quick mode that tests/bench/test_bench_fuzz.py runs (their own tests cover them).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from werkzeug.test import EnvironBuilder, run_wsgi_app

from companion import create_app
from companion.games import GAMES

TOKEN = "fuzz-csrf-token"
QUICK_REQUESTS = 400
FULL_REQUESTS = 20000
SHOWN_FAILURES = 5
# Requests that render a PDF or start a report: a few each, since one takes a good part of a second.
SLOW_ENDPOINTS = {"sheets.pad", "sheets.report", "plays.score_sheet", "sheets.report_file"}
SLOW_SHARE = 0.002
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND"]

# Text from many alphabets and the characters that break naive code.
ALPHABETS = [
    "Ann",
    "Zoë",
    "Ærøskøbing",
    "Łódź",
    "Анна",
    "Ελένη",
    "אבי",
    "مريم",
    "देवनागरी",
    "தமிழ்",
    "ภาษาไทย",
    "漢字かな",
    "한국어",
    "ქართული",
    "Հայերեն",
    "ᚠᚢᚦ",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "🎲🏰👑",
    "e\u0301\u0301\u0301",
    "\u202eevil",
    "\u200b",
    "\ufeffbom",
    "\u00a0",
    "İı",
    "ß",
    "ﬁ",
    "Ⅻ",
    "١٢٣",
    "１２３",
    "\U0010ffff",
]
HOSTILE_TEXT = [
    "",
    " ",
    "\t",
    "\n",
    "\x00",
    "a\x00b",
    "\x7f",
    "\r\nSet-Cookie: x=1",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{7*7}}",
    "{% raw %}",
    "${7*7}",
    "' OR 1=1 --",
    '"; DROP TABLE play; --',
    "../../../../etc/passwd",
    "..\\..\\windows",
    "%00",
    "%2e%2e%2f",
    "//evil.example",
    "javascript:alert(1)",
    "null",
    "None",
    "undefined",
    "true",
    "NaN",
    "-Infinity",
    "[]",
    "{}",
    "a" * 300,
    "é" * 2000,
    "x" * 20000,
]
NUMBERS = [
    0,
    1,
    -1,
    2,
    7,
    13,
    99,
    10**6,
    2**31 - 1,
    2**31,
    -(2**31) - 1,
    2**53 + 1,
    2**63,
    10**30,
    -(10**30),
    0.5,
    -0.0,
    1e308,
    -1e308,
    3.14159,
    True,
    False,
]
NUMBER_TEXT = [
    "0",
    "-1",
    "1.5",
    "1e309",
    "-1e309",
    "NaN",
    "Infinity",
    "0x10",
    "1_000",
    " 7 ",
    "٣",
    "１２",
    "++1",
    "9" * 400,
    "-" + "9" * 400,
    "1" * 30,
]
ID_SEGMENTS = [
    "0",
    "-1",
    "99999",
    "2147483647",
    "2147483648",
    "99999999999999999999",
    "abc",
    "1.5",
    "%00",
    "١",
    "1%20",
    "%2e%2e",
    "",
    "1/2",
]
GAME_SEGMENTS = ["SPQF", "nope", "spqf%00", "spires.", "%F0%9F%8E%B2", "a" * 300, "..", "speros%2F..", ""]
JOB_SEGMENTS = ["deadbeef", "0", "../../etc/passwd", "a" * 200, "%00", "%F0%9F%8E%B2"]
STATIC_SEGMENTS = [
    "css/app.css",
    "vendor/htmx-2.0.11.min.js",
    "../companion/security.py",
    "%2e%2e/README.md",
    "css/",
    "nope.png",
    "css/app.css%00",
    "a" * 300,
]
CONTENT_TYPES = [
    None,
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "multipart/form-data; boundary=x",
    "application/xml",
    "application/json; charset=latin-1",
    "*/*",
    "",
    "application/jsonx",
    "text/html; charset=\x00",
]
QUERY_NAMES = [
    "game",
    "player",
    "from",
    "to",
    "page",
    "players",
    "q",
    "next",
    "format",
    "solo",
    "since",
    "version",
    "sort",
    "status",
    "id",
    "job",
    "limit",
    "offset",
    "year",
]
BAD_HOSTS = ["a..b", "a.b:99999999", "[::1", "é.lan", "evil.example", "localhost:0", ".", "a b"]
PLAYERS = ["Ann", "Bob", "Cy", "Di"]


@dataclass
class Corpus:
    """What the fuzzer learned from the app: ids that exist, valid bodies to mutate, the pages' form fields."""

    play_ids: list[int] = field(default_factory=list)
    player_ids: list[int] = field(default_factory=list)
    json_bodies: list[Any] = field(default_factory=list)
    form_fields: dict[str, set[str]] = field(default_factory=dict)  # a form's action -> the names of its fields
    field_names: set[str] = field(default_factory=set)


@dataclass
class Tally:
    """Requests sent, answers by status, and the 5xx with what was sent."""

    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    endpoints: Counter = field(default_factory=Counter)
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        """How many answers were 5xx (or raised instead of answering)."""
        return len(self.failures)


def make_app(database_url: str | None, folder: Path) -> Any:
    """The app as it serves (not testing: errors are answered, not raised), on its own instance folder."""
    import os

    url = database_url or f"sqlite:///{folder / 'fuzz.sqlite'}"
    before = os.environ.get("COMPANION_INSTANCE")
    os.environ["COMPANION_INSTANCE"] = str(folder)
    try:
        return create_app({"SECRET_KEY": "fuzz", "DATABASE_URL": url, "PROPAGATE_EXCEPTIONS": False})
    finally:  # the test suite's process keeps its own setting
        if before is None:
            os.environ.pop("COMPANION_INSTANCE", None)
        else:
            os.environ["COMPANION_INSTANCE"] = before


def new_client(app: Any) -> Any:
    """A browser's client: its session holds the CSRF token."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client


def valid_players(game_id: str, count: int, rng: random.Random) -> list[dict[str, Any]]:
    """End-of-game counts the game accepts (bench/seed.py's), named Ann, Bob, ..."""
    from bench.seed import _inputs

    players, _options = _inputs(game_id, count, rng)
    for seat, player in enumerate(players):
        player["name"] = PLAYERS[seat]
    return players


def seed(app: Any, rng: random.Random) -> Corpus:
    """Plays of every game (tracked, finished, one put aside), and the valid JSON bodies the fuzzer mutates."""
    corpus = Corpus()
    client = app.test_client()

    def post(url: str, body: Any) -> Any:
        return client.post(url, json=body)

    for game_id, game in GAMES.items():
        count = 2 if game_id != "spires" else 3
        players = valid_players(game_id, count, rng)
        score = {"players": players, "options": {}}
        corpus.json_bodies += [score, {"game": game_id, **score, "played_at": "2026-11-30", "notes": "fuzz"}]
        saved = post("/api/v1/plays", {"game": game_id, **score})
        if saved.status_code == 201:
            corpus.play_ids.append(saved.get_json()["id"])
        colours = list(getattr(game, "colours", []) or [])
        seats = [
            {"name": name, **({"colour": colours[seat]} if colours else {})}
            for seat, name in enumerate(PLAYERS[:count])
        ]
        tracked = post("/api/v1/plays", {"game": game_id, "track": True, "players": seats})
        corpus.json_bodies.append({"game": game_id, "track": True, "players": seats})
        if tracked.status_code != 201:
            continue
        play = tracked.get_json()["id"]
        corpus.play_ids.append(play)
        field_name = next(iter(tracked.get_json()["players"][0]), "vp_tokens")
        for action in (
            {"action": "add", "player": "Ann", "field": field_name, "delta": 1},
            {"action": "set", "player": "Bob", "field": field_name, "value": 2},
            {"action": "next_turn"},
            {"action": "start_turn"},
        ):
            corpus.json_bodies.append(action)
            post(f"/api/v1/plays/{play}/actions", action)
    corpus.json_bodies += [{"encampments": 4, "placements": ["Red", "Green", "Green"]}, {}, []]
    corpus.player_ids = list(range(1, 9))  # the roster the plays above made (Ann, Bob, Cy, Di and their ids)
    page = new_client(app)
    started = page.post(
        "/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob"}, headers={"X-CSRF-Token": TOKEN}
    )
    if started.status_code == 303:
        put_aside = int(started.headers["Location"].rsplit("/", 1)[1])
        page.post(f"/plays/{put_aside}/abandon", headers={"X-CSRF-Token": TOKEN})
        corpus.play_ids.append(put_aside)
    learn_forms(app, corpus)
    return corpus


FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.DOTALL | re.IGNORECASE)
ACTION = re.compile(r"""(?:action|hx-post)=["']([^"']*)["']""", re.IGNORECASE)
NAME = re.compile(r"""\bname=["']([^"']+)["']""", re.IGNORECASE)


def learn_forms(app: Any, corpus: Corpus) -> None:
    """Read every page once and keep its forms' fields, so that form bodies carry names the views read."""
    client = new_client(app)
    pages = ["/", "/plays/new", "/history", "/import", "/access", "/calculator/", "/players"]
    pages += [f"/plays/new?game={game}" for game in GAMES] + [f"/calculator/{game}" for game in GAMES]
    pages += [f"/plays/{play}" for play in corpus.play_ids] + [f"/history/{play}/correct" for play in corpus.play_ids]
    for url in pages:
        html = client.get(url).get_data(as_text=True)
        for form in FORM.findall(html):
            names = set(NAME.findall(form))
            for action in ACTION.findall(form) or [url]:
                corpus.form_fields.setdefault(action, set()).update(names)
            corpus.field_names |= names
    corpus.field_names |= {"game", "field", "delta", "value", "action", "player", "code", "next", "notes"}


def hostile_text(rng: random.Random) -> str:
    """A string from every alphabet or one that breaks naive code."""
    choice = rng.random()
    if choice < 0.4:
        return rng.choice(ALPHABETS)
    if choice < 0.8:
        return rng.choice(HOSTILE_TEXT)
    return rng.choice(NUMBER_TEXT)


def hostile_value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, mostly a hostile one."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(NUMBERS)
    if roll < 0.6:
        return hostile_text(rng)
    if roll < 0.68:
        return None
    if depth > 2 or roll < 0.8:
        return [hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {hostile_text(rng)[:20]: hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def mutate(value: Any, rng: random.Random) -> Any:
    """The value with one place in it replaced, dropped or doubled."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        key = rng.choice(list(value))
        changed = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del changed[key]
        elif roll < 0.25:
            changed[hostile_text(rng)[:30]] = hostile_value(rng)
        else:
            changed[key] = mutate(value[key], rng)
        return changed
    if isinstance(value, list) and value and rng.random() < 0.85:
        changed = list(value)
        index = rng.randrange(len(changed))
        roll = rng.random()
        if roll < 0.1:
            changed += changed * rng.randint(1, 30)
        elif roll < 0.2:
            del changed[index]
        else:
            changed[index] = mutate(changed[index], rng)
        return changed
    return hostile_value(rng)


def nested(depth: int) -> str:
    """JSON nested `depth` deep, as text (json.dumps itself would refuse to go that deep)."""
    return "[" * depth + "]" * depth


def json_body(corpus: Corpus, rng: random.Random) -> bytes:
    """A JSON body: a valid one mutated, or something no parser should choke on."""
    roll = rng.random()
    if roll < 0.75:
        return json.dumps(mutate(rng.choice(corpus.json_bodies), rng), ensure_ascii=rng.random() < 0.5).encode()
    specials = [
        nested(rng.choice([50, 1000, 5000])).encode(),
        ('{"players": ' + nested(3000) + "}").encode(),
        b'{"players": [{"name": "\\ud800"}]}',
        b'{"notes": "\\u0000"}',
        b'{"a": 1, "a": 2}',
        b"\xff\xfe{}",
        b"\xc3\x28",
        b'{"players": [' + b"1e999," * 50 + b"1]}",
        b"9" * 5000,
        b"",
        b"{",
        b"null",
        b"[]",
        b'"text"',
        json.dumps({"players": [{"name": "x" * 100}] * 2000}).encode(),
        json.dumps({"game": "spqf", "players": [{"name": f"p{i}", "vp_tokens": 2**70} for i in range(50)]}).encode(),
    ]
    return rng.choice(specials)


def form_body(url: str, corpus: Corpus, rng: random.Random) -> dict[str, Any]:
    """Form fields as a page would send them (its own names), with hostile values, some left out or repeated."""
    names = corpus.form_fields.get(url.split("?", 1)[0]) or set()
    pool = sorted(names or corpus.field_names)
    chosen = rng.sample(pool, k=min(len(pool), rng.randint(1, 12)))
    form: dict[str, Any] = {}
    for name in chosen:
        roll = rng.random()
        if roll < 0.2:
            form[name] = str(rng.choice(NUMBERS))
        elif roll < 0.3:
            form[name] = [hostile_text(rng), hostile_text(rng)]
        else:
            form[name] = hostile_text(rng)
    if rng.random() < 0.3:
        form["game"] = rng.choice([*GAMES, "nope", ""])
    return form


def path_for(rule: Any, corpus: Corpus, rng: random.Random) -> str:
    """The rule's path with each variable part filled with a good or a hostile value (URL-quoted as a browser does)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1).rpartition(":")[2]
        good = rng.random() < 0.6
        if name in ("play_id", "seat_id", "player_id"):
            pool = corpus.play_ids if name == "play_id" else corpus.player_ids
            if name == "seat_id":
                pool = list(range(1, 40))
            return str(rng.choice(pool)) if good and pool else rng.choice(ID_SEGMENTS)
        if name == "game_id":
            return rng.choice(list(GAMES)) if good else rng.choice(GAME_SEGMENTS)
        if name == "filename":
            return rng.choice(STATIC_SEGMENTS)
        if good:
            return quote(hostile_text(rng)[:40], safe="")
        return rng.choice(JOB_SEGMENTS)

    return re.sub(r"<([^>]+)>", value, rule.rule)


def query_for(rng: random.Random) -> str:
    """A query string of known and unknown names with hostile values (or none)."""
    if rng.random() < 0.5:
        return ""
    pairs = [
        (rng.choice(QUERY_NAMES), hostile_text(rng) if rng.random() < 0.7 else str(rng.choice(NUMBERS)))
        for _ in range(rng.randint(1, 4))
    ]
    if rng.random() < 0.1:
        return "?" + "%zz=%&&=&" + "a" * 2000
    return "?" + urlencode(pairs)


def requests(app: Any, corpus: Corpus, count: int, rng: random.Random, slow: bool = True) -> Iterator[dict[str, Any]]:
    """`count` requests, each a dict of what to send plus the rule it aimed at (the PDF routes only if `slow`)."""
    rules = [rule for rule in app.url_map.iter_rules() if slow or rule.endpoint not in SLOW_ENDPOINTS]
    fast = [rule for rule in rules if rule.endpoint not in SLOW_ENDPOINTS]
    slow = [rule for rule in rules if rule.endpoint in SLOW_ENDPOINTS]
    for number in range(count):
        # Each rule in turn first (every route is reached even in a short run), then at random.
        if number < len(rules):
            rule = rules[number]
        else:
            rule = rng.choice(slow) if slow and rng.random() < SLOW_SHARE else rng.choice(fast)
        allowed = sorted((rule.methods or set()) - {"OPTIONS"})
        method = rng.choice(allowed) if rng.random() < 0.85 else rng.choice(METHODS)
        path = path_for(rule, corpus, rng)
        url = path + query_for(rng)
        headers: dict[str, str] = {}
        if rng.random() < 0.9:
            headers["X-CSRF-Token"] = TOKEN
        if rng.random() < 0.4:
            headers["HX-Request"] = "true"
            headers["HX-Current-URL"] = rng.choice(["http://localhost/", "http://evil.example/", hostile_text(rng)])
        if rng.random() < 0.03:
            headers["Host"] = rng.choice(BAD_HOSTS)
        if rng.random() < 0.03:
            headers["Origin"] = rng.choice(["http://evil.example", "null", "http://localhost", "http://[::1"])
        if rng.random() < 0.02:
            headers["Cookie"] = rng.choice(["session=garbage", "session=" + "a" * 4000, "session=.eJwAAA.x.y"])
        if rng.random() < 0.05:
            headers["Accept"] = rng.choice(["application/json", "*/*", "text/html;q=0", "\x00"])
        arguments: dict[str, Any] = {"method": method, "path": url, "headers": headers, "rule": rule.endpoint}
        if method not in ("GET", "HEAD"):
            roll = rng.random()
            if path.startswith("/api/") and roll < 0.75:
                arguments["data"] = json_body(corpus, rng)
                arguments["content_type"] = "application/json" if rng.random() < 0.9 else rng.choice(CONTENT_TYPES)
            elif roll < 0.8:
                arguments["data"] = form_body(path, corpus, rng)
            elif roll < 0.9:
                arguments["data"] = json_body(corpus, rng)
                arguments["content_type"] = rng.choice(CONTENT_TYPES)
            else:
                arguments["data"] = {"file": (io.BytesIO(json_body(corpus, rng)), "export.json")}
                arguments["content_type"] = "multipart/form-data"
        yield arguments


def describe(arguments: dict[str, Any]) -> str:
    """What was sent, in a line or a few."""
    data = arguments.get("data")
    shown = repr(data)[:300] if data is not None else "-"
    return (
        f"{arguments['method']} {arguments['path'][:200]} headers={arguments['headers']} "
        f"type={arguments.get('content_type')} body={shown}"
    )


def session_cookie(app: Any) -> str:
    """The Cookie header of a browser whose session holds the CSRF token."""
    client = new_client(app)
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    return f"{cookie.key}={cookie.value}"


def send(app: Any, arguments: dict[str, Any], cookie: str) -> tuple[int, bytes]:
    """One request straight to the WSGI app (the test client's own URL and cookie parsing can't take every Host)."""
    # No header on the wire holds a line break (the server would read a new header): the rest is sent as is.
    headers = {name: re.sub(r"[\r\n]", "", value) for name, value in arguments["headers"].items()}
    host = headers.pop("Host", None)
    headers.setdefault("Cookie", cookie)
    builder = EnvironBuilder(
        path=arguments["path"],
        method=arguments["method"],
        headers=headers,
        data=arguments.get("data"),
        content_type=arguments.get("content_type"),
    )
    try:
        environ = builder.get_environ()
    finally:
        builder.close()
    if host is not None:
        environ["HTTP_HOST"] = host
    body, status, _headers = run_wsgi_app(app, environ, buffered=True)
    return int(status.split(" ", 1)[0]), b"".join(body)


def run(count: int, seed_value: int = 0, database_url: str | None = None, slow: bool = True) -> Tally:
    """Seed an app, send `count` fuzzed requests (to the PDF routes too if `slow`), and tally the answers."""
    rng = random.Random(seed_value)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="companion-fuzz-") as folder:
        app = make_app(database_url, Path(folder))
        # A 5xx is reported below with what caused it. app.logger is the process's "companion" logger, shared
        # with every other app: it is switched back on at the end.
        app.logger.disabled = True
        try:
            corpus = seed(app, rng)
            cookie = session_cookie(app)
            started = time.perf_counter()
            for arguments in requests(app, corpus, count, rng, slow):
                endpoint = arguments.pop("rule")
                try:
                    status, answer = send(app, arguments, cookie)
                except Exception as error:  # noqa: BLE001  (anything the app raised instead of answering is a 5xx)
                    tally.requests += 1
                    tally.failures.append({"sent": describe(arguments), "error": repr(error), "endpoint": endpoint})
                    continue
                tally.requests += 1
                tally.endpoints[endpoint] += 1
                tally.statuses[status] += 1
                if status >= 500:
                    tally.failures.append(
                        {
                            "sent": describe(arguments),
                            "status": status,
                            "answer": answer[:300].decode(errors="replace"),
                            "endpoint": endpoint,
                        }
                    )
            tally.seconds = time.perf_counter() - started
        finally:
            app.logger.disabled = False
            app.extensions["db_engine"].dispose()
    return tally


def report(tally: Tally) -> str:
    """The counts, the statuses and the 5xx, as printed."""
    lines = [
        f"requests: {tally.requests}",
        f"5xx: {tally.server_errors}",
        f"seconds: {tally.seconds:.1f}",
        "statuses: " + ", ".join(f"{status}: {n}" for status, n in sorted(tally.statuses.items())),
        f"routes reached: {len(tally.endpoints)}",
    ]
    for failure in tally.failures[:SHOWN_FAILURES]:
        lines.append(f"  5xx at {failure['endpoint']}: {failure.get('status') or failure.get('error')}")
        lines.append(f"    sent: {failure['sent']}")
        if "answer" in failure:
            lines.append(f"    answer: {failure['answer']!r}")
    if len(tally.failures) > SHOWN_FAILURES:
        by_endpoint = Counter(failure["endpoint"] for failure in tally.failures)
        lines.append("  5xx by route: " + ", ".join(f"{name}: {n}" for name, n in by_endpoint.most_common()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, fuzz, print the counts; exit 1 on any 5xx."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=None, help=f"how many (default {FULL_REQUESTS})")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_REQUESTS} requests and no PDF route, for the test suite"
    )
    parser.add_argument("--seed", type=int, default=0, help="the random seed (the same seed sends the same requests)")
    parser.add_argument("--database-url", default=None, help="another database than a fresh SQLite file")
    args = parser.parse_args(argv)
    count = args.requests or (QUICK_REQUESTS if args.quick else FULL_REQUESTS)
    tally = run(count, args.seed, args.database_url, slow=not args.quick)
    print(report(tally))
    return 1 if tally.server_errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
