"""How long a tracker tap and a sync check take, against baselines served by the same app in the same run.

Run: python3 bench/taps.py [taps] [--quick]. On SQLite in a temporary folder, prints the median time of (each measured in
turns with its baseline, so that a moment of a noisy machine weighs on both):
- the baselines: a GET of a static file, and a minimal endpoint that commits one row and renders one small
  fragment (registered here, behind the same request hooks as every page);
- a Spires tap and SPQF actions as htmx sends them from an up-to-date tracker with its log open (the game action,
  the write under the play's claim, its Change row, the counters it changed, the scoreboard, undo and the log's one
  new entry) and, for comparison, from a device that sent no version (every counter redrawn); ratios to the minimal
  endpoint (issue 10 asks for at most 3x);
- the tracker's sync check when nothing changed (an empty 200 from one small query), as a ratio to the static GET;
- a Spires tap sent with an Idempotency-Key (a new one each tap, as the tracker sends them; the server looks it up
  under the play's claim) and one sent from the device's queue (its Companion-Action-Age too), each measured in turns
  with the same tap sent without (issue 34 asks for at most 1.1x).
Ratios, not seconds, are what to compare between machines. --quick takes a few of each (QUICK_TAPS) and asserts
no time: tests/bench/test_bench_quick.py runs it so that this script never rots.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import render_template_string
from sqlalchemy import text

from companion import create_app
from companion.store.db import get_session
from companion.web.sent import ACTION_AGE as AGE
from companion.web.sent import IDEMPOTENCY_KEY as KEY

TOKEN = "bench"
FULL_TAPS = 300
QUICK_TAPS = 3


def timed(call, repeat: int) -> float:
    """The median seconds of `repeat` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def timed_against(call, baseline, repeat: int) -> tuple[float, float]:
    """The median seconds of `call` and of `baseline`, run in turns: both see the same moments of a noisy machine
    (a disk slow to sync for a second weighs on both), so their ratio holds where separate runs would not."""
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for measured, run in zip(samples, (call, baseline), strict=True):
            start = time.perf_counter()
            run()
            measured.append(time.perf_counter() - start)
    return statistics.median(samples[0]), statistics.median(samples[1])


def add_minimal_endpoint(app) -> None:
    """POST /bench/minimal: commit one row and render one small fragment, the least a saved tap can cost."""

    @app.post("/bench/minimal")
    def minimal() -> str:
        """One INSERT, one commit, one out-of-band <output>."""
        session = get_session()
        session.exec(text("INSERT INTO bench_row (n) VALUES (1)"))
        session.commit()
        return render_template_string('<output id="c-1-x-value" hx-swap-oob="true">{{ n }}</output>', n=1)

    with app.app_context(), app.extensions["db_engine"].begin() as connection:
        connection.execute(text("CREATE TABLE bench_row (id INTEGER PRIMARY KEY, n INTEGER)"))


def start_play(client, game: str, players: int) -> tuple[str, str]:
    """Start a play of the game through the new-play form: its page and the first seat's tap URL."""
    form = {"game": game, **{f"name-{i}": f"{game}{players}{i}" for i in range(players)}}
    location = client.post("/plays", data=form, headers={"X-CSRF-Token": TOKEN}).headers["Location"]
    seat = re.findall(r'id="seat-(\d+)"', client.get(location).get_data(as_text=True))[0]
    return location, f"{location}/seats/{seat}"


def measure(taps: int = FULL_TAPS) -> None:
    """Measure the baselines, the taps for 2 and 4 players and the sync check, and print the ratios."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite'}"})
        add_minimal_endpoint(app)
        client = app.test_client()
        with client.session_transaction() as session:
            session["csrf_token"] = TOKEN
        headers = {"X-CSRF-Token": TOKEN, "HX-Request": "true"}
        steps: dict[str, int] = {}
        versions: dict[str, int] = {}
        log_shown: dict[str, int] = {}

        def tap_back_and_forth(
            url: str, field: str, up_to_date: bool = True, sent: dict[str, str] | None = None
        ) -> None:
            """One tap on a counter of the first seat: +1, then -1 the next time, so it never runs out of room.

            Up to date, it sends the version its last answer showed, as the tracker does; `sent`: more headers.
            """
            delta = steps[url + field] = -steps.get(url + field, -1)
            data = {"field": field, "delta": str(delta)}
            if up_to_date and url in versions:
                data["since"] = str(versions[url])
                # The newest entry of its open "What happened" panel: the answer adds only the tap's own entry.
                data["log_after"] = str(log_shown[url])
            response = client.post(url, data=data, headers={**headers, **(sent or {})})
            html = response.get_data(as_text=True)
            versions[url] = int(re.search(r'id="play-version" name="since" value="(\d+)"', html).group(1))
            log_shown[url] = int(re.search(r'id="log-after" name="\w+" value="(\d+)"', html).group(1))
            response.close()

        def get_static() -> None:
            """The baseline of a read: a static file."""
            client.get("/static/css/app.css").close()

        def post_minimal() -> None:
            """The baseline of a write: one row committed, one small fragment rendered."""
            client.post("/bench/minimal", headers=headers).close()

        static = timed(get_static, taps)
        minimal = timed(post_minimal, taps)
        print(f"baseline GET static/css/app.css: {static * 1e3:.2f} ms")
        print(f"baseline minimal commit + fragment: {minimal * 1e3:.2f} ms ({minimal / static:.1f}x static)")
        print("each figure below is measured in turns with its baseline; the ratio is to that baseline")

        def against_minimal(call) -> str:
            """'3.20 ms (1.2x minimal)' for a write measured in turns with the minimal endpoint."""
            spent, baseline = timed_against(call, post_minimal, taps)
            return f"{spent * 1e3:.2f} ms ({spent / baseline:.1f}x minimal)"

        def against_static(call, repeat: int = taps) -> str:
            """'0.57 ms (1.5x static)' for a read measured in turns with the static GET."""
            spent, baseline = timed_against(call, get_static, repeat)
            return f"{spent * 1e3:.2f} ms ({spent / baseline:.1f}x static)"

        for players in (2, 4):
            location, url = start_play(client, "spires", players)
            tap = against_minimal(lambda url=url: tap_back_and_forth(url, "scroll_vp"))
            every = against_minimal(lambda url=url: tap_back_and_forth(url, "scroll_vp", up_to_date=False))
            full = against_static(lambda location=location: client.get(location).close(), max(taps // 5, min(taps, 20)))
            print(f"Spires, {players} players: tap {tap}, every counter redrawn {every}, full tracker page {full}")
            check = f"{location}/live?since={versions[url]}"
            unchanged = against_static(lambda check=check: client.get(check, headers=headers).close())
            print(f"  sync check, nothing new (empty 200): {unchanged}")
        for players in (2, 4):
            _location, url = start_play(client, "spqf", players)
            tokens = against_minimal(lambda url=url: tap_back_and_forth(url, "vp_tokens"))
            # A level up and back down: the first-to-level token given and taken back each time.
            level = against_minimal(lambda url=url: tap_back_and_forth(url, "civ_level"))
            print(f"SPQF, {players} players: VP tokens tap {tokens}, level tap with its token {level}")
        _location, url = start_play(client, "spires", 4)
        for what, more in (("Idempotency-Key", {}), ("Idempotency-Key and Companion-Action-Age", {AGE: "1500"})):

            def keyed(url: str = url, more: dict[str, str] = more) -> None:
                """The same tap, with a new key as every tap of the tracker has."""
                tap_back_and_forth(url, "scroll_vp", sent={KEY: uuid.uuid4().hex, **more})

            spent, plain = timed_against(keyed, lambda url=url: tap_back_and_forth(url, "scroll_vp"), taps)
            print(
                f"Spires, 4 players, tap with its {what}: {spent * 1e3:.2f} ms ({spent / plain:.2f}x the same tap without)"
            )
        app.extensions["db_engine"].dispose()


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and measure: `taps` of each figure, or --quick's few."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("taps", nargs="?", type=int, default=FULL_TAPS, help=f"taps per figure (default {FULL_TAPS})")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TAPS} of each, for the test suite")
    args = parser.parse_args(argv)
    measure(QUICK_TAPS if args.quick else args.taps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
