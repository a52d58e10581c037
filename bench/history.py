"""How the history's pages hold up at 10,000 finished plays, against the same pages at 10 plays, in one run.

Run: python3 bench/history.py [plays] [repeat] [--postgres] [--quick]. Two apps on SQLite in a temporary folder
(or on PostgreSQL databases made for the run and dropped after it), one seeded with `plays`
finished plays (bench.seed), the other with 10; each page is fetched from both in turns (bench.taps.timed_against,
so a moment of a noisy machine weighs on both) and the ratio printed: 1.0x would mean the history does not grow with
the group's past at all. A second baseline has 60 plays (a whole first page of 50 rows), to tell the cost of
the past from the cost of drawing more rows. Pages measured: the first page, a filtered page (a game and a
player), the fragment htmx asks for when the filter changes, a page deep in the past, and a date range, each read
again as every reader after the first reads it (a page's play ids and count, and each row, are kept per history
version: companion/store/history_version.py, companion/history/rows.py). Ratios,
not seconds, are what to compare between machines. --quick (QUICK_PLAYS plays, two requests each, no time
asserted) is what tests/bench/test_bench_quick.py runs, so that this script never rots.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.seed import seed_plays
from bench.servers import fresh_database
from bench.taps import timed_against
from companion import create_app

# A second baseline: enough plays for a whole first page (50 rows), so that the ratio shows what the past costs
# beyond drawing more rows (at 10 plays a page has at most 10).
FULL_PAGE = 60
QUICK_PLAYS = 200
QUICK_REPEAT = 2
PAGES = {
    "first page": ("/history", {}),
    "filtered: Spires with Ann": ("/history?game=spires&player=ann", {}),
    "filter changed (htmx fragment)": ("/history?game=spyrium&player=%C3%96mer", {"HX-Request": "true"}),
    "a page deep in the past": ("/history?page=150", {}),
    "a month": ("/history?date_from=2025-06-01&date_to=2025-06-30", {}),
}


def app_with(stack: contextlib.ExitStack, folder: Path, name: str, plays: int, postgres: bool):
    """A test client of an app whose database (a SQLite file in `folder`, or PostgreSQL) holds `plays` seeded
    finished plays; the database and its engine go when `stack` closes."""
    (folder / name).mkdir()
    url = stack.enter_context(fresh_database(folder / name, postgres))
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    stack.callback(app.extensions["db_engine"].dispose)
    seed_plays(app.extensions["db_engine"], plays)
    return app.test_client()


def measure(plays: int = 10_000, repeat: int = 40, postgres: bool = False) -> None:
    """Seed both apps, check each page answers alike, then measure each page's ratio."""
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        big = app_with(stack, Path(folder), "big", plays, postgres)
        where = "PostgreSQL" if postgres else "SQLite"
        for small_plays in (10, FULL_PAGE):
            small = app_with(stack, Path(folder), f"small{small_plays}", small_plays, postgres)
            print(
                f"history pages at {plays:,} finished plays against the same at {small_plays} on {where} "
                f"(median of {repeat}):"
            )
            for label, (url, headers) in PAGES.items():
                for client in (big, small):
                    response = client.get(url, headers=headers)
                    assert response.status_code == 200, (url, response.status_code)

                def fetch(client=big, url=url, headers=headers) -> None:
                    client.get(url, headers=headers).close()

                def baseline(client=small, url=url, headers=headers) -> None:
                    client.get(url, headers=headers).close()

                measured, base = timed_against(fetch, baseline, repeat)
                print(f"  {label:32} {measured * 1e3:7.2f} ms vs {base * 1e3:6.2f} ms: {measured / base:5.2f}x")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and measure (--quick: a small history, two requests a figure)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plays", nargs="?", type=int, default=10_000, help="finished plays (default 10,000)")
    parser.add_argument("repeat", nargs="?", type=int, default=40, help="requests per figure (default 40)")
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL at 127.0.0.1:5432, not SQLite")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PLAYS} plays, {QUICK_REPEAT} requests each")
    args = parser.parse_args(argv)
    measure(*((QUICK_PLAYS, QUICK_REPEAT) if args.quick else (args.plays, args.repeat)), postgres=args.postgres)
    return 0


if __name__ == "__main__":
    sys.exit(main())
