"""How the statistics pages grow with the history: a player's page, a game's page (with its ladder), the roster, the
API's ladder and a tracked play's result with its score race at 10,000 plays against the same pages at 10 plays,
served by two apps in the same run.

Run: python3 bench/stats.py [repeat] [plays] [--postgres] [--quick]. Two databases (SQLite files in a temporary
folder, or two PostgreSQL databases dropped afterwards), seeded by bench/seed.py (the same roster of twelve, so the
same player ids); each figure is the median of `repeat` requests measured in turns with its baseline
(bench/taps.py timed_against), so a moment of a noisy machine weighs on both. Ratios, not seconds, are what to
compare between machines. A page's figures are counted once per history version and kept
(companion/store/history_version.py): "read again" is what every reader after the first pays; "after a write" moves the
history's version on before each request, so each one counts every seat again, as the first reader after a play is
finished does. --quick (QUICK_PLAYS plays, two requests a figure, no time asserted) is what
tests/bench/test_bench_quick.py runs, so that this script never rots.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.seed import seed_plays
from bench.servers import fresh_database
from bench.taps import timed_against
from companion import create_app
from companion.store import history_version

SMALL = 10
QUICK_PLAYS = 200
QUICK_REPEAT = 2


# The tracked play whose result page draws its score race: SPQF for three, this many rounds of taps.
RACE_ROUNDS = 8


def app_with(url: str, plays: int):
    """An app on its own database holding `plays` seeded plays, and its test client."""
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    seed_plays(app.extensions["db_engine"], plays, seed=0)
    return app, app.test_client()


def tracked_play(client) -> str:
    """A tracked SPQF play of RACE_ROUNDS rounds, finished through the API; its result page's path."""
    names = ["Ann", "Bob", "Cy"]
    started = client.post(
        "/api/v1/plays", json={"game": "spqf", "track": True, "players": [{"name": n} for n in names]}
    )
    play = started.get_json()
    for turn in range(RACE_ROUNDS * len(names)):
        body = {"action": "add", "player": names[turn % 3], "field": "vp_tokens", "delta": 1 + turn % 3}
        assert client.post(f"/api/v1/plays/{play['id']}/actions", json=body).status_code == 200
        assert client.post(f"/api/v1/plays/{play['id']}/actions", json={"action": "next_turn"}).status_code == 200
    assert client.post(f"/api/v1/plays/{play['id']}/finish", json={}).status_code == 200
    return str(play["url"])


def measure(repeat: int = 30, plays: int = 10_000, postgres: bool = False) -> None:
    """Measure each page on the big history in turns with the same page on the small one, and print the ratios."""
    with (
        tempfile.TemporaryDirectory() as folder,
        fresh_database(Path(folder) / "small", postgres) as small_url,
        fresh_database(Path(folder) / "big", postgres) as big_url,
    ):
        (Path(folder) / "small").mkdir()
        (Path(folder) / "big").mkdir()
        small_app, small = app_with(small_url, SMALL)
        big_app, big = app_with(big_url, plays)

        def getter(client, url: str, moved: bool = False):
            """One GET of the page, checked, its body read; with `moved`, the history's version moved on first."""

            def get() -> None:
                if moved:
                    with client.application.app_context():
                        from companion.store.db import get_session

                        history_version.move_on(get_session())
                        get_session().commit()
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)
                response.get_data()
                response.close()

            return get

        static = getter(small, "/static/css/stats.css")
        big_race, small_race = tracked_play(big), tracked_play(small)
        where = "PostgreSQL" if postgres else "SQLite"
        print(f"{plays:,} plays against {SMALL} plays on {where}, each the median of {repeat} requests taken in turns")
        for label, big_url, small_url in (
            ("player page (Ann)", "/players/1", "/players/1"),
            ("game page (Spires)", "/games/spires", "/games/spires"),
            ("game page (Conquest of Speros)", "/games/speros", "/games/speros"),
            ("roster /players", "/players", "/players"),
            ("ladder API (Spires)", "/api/v1/games/spires/ladder", "/api/v1/games/spires/ladder"),
            (f"result with its score race ({RACE_ROUNDS * 6} actions)", big_race, small_race),
        ):
            getter(big, big_url)()
            getter(small, small_url)()
            spent, baseline = timed_against(getter(big, big_url), getter(small, small_url), repeat)
            versus_static, static_time = timed_against(getter(small, small_url), static, repeat)
            moved, moved_baseline = timed_against(
                getter(big, big_url, moved=True), getter(small, small_url, moved=True), repeat
            )
            print(
                f"{label}: read again {spent * 1e3:.1f} ms at {plays:,} plays, {baseline * 1e3:.1f} ms at {SMALL} "
                f"({spent / baseline:.2f}x); after a write {moved * 1e3:.1f} ms against {moved_baseline * 1e3:.1f} ms "
                f"({moved / moved_baseline:.1f}x); at {SMALL} plays {versus_static / static_time:.1f}x a static file"
            )
        for app in (small_app, big_app):
            app.extensions["db_engine"].dispose()


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and measure (--quick: a small history, two requests a figure)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeat", nargs="?", type=int, default=30, help="requests per figure (default 30)")
    parser.add_argument("plays", nargs="?", type=int, default=10_000, help="finished plays (default 10,000)")
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL at 127.0.0.1:5432, not SQLite")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PLAYS} plays, {QUICK_REPEAT} requests each")
    args = parser.parse_args(argv)
    measure(*((QUICK_REPEAT, QUICK_PLAYS) if args.quick else (args.repeat, args.plays)), postgres=args.postgres)
    return 0


if __name__ == "__main__":
    sys.exit(main())
