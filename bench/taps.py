"""How long a tracker tap takes, against a static file served by the same app in the same run.

Run: python3 bench/taps.py [taps]. Prints the median time of a Spires tap and of SPQF actions (htmx fragment:
the game action, the write under the play's claim, its Change row, every live value, the scoreboard and undo
re-rendered) and their ratio to the baseline GET of a static file, on SQLite in a temporary folder. Ratios, not
seconds, are what to compare between machines.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402

TOKEN = "bench"


def timed(call, repeat: int) -> float:
    """The median seconds of `repeat` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def start_play(client, game: str, players: int) -> tuple[str, str]:
    """Start a play of the game through the new-play form: its page and the first seat's tap URL."""
    form = {"game": game, **{f"name-{i}": f"{game}{players}{i}" for i in range(players)}}
    location = client.post("/plays", data=form, headers={"X-CSRF-Token": TOKEN}).headers["Location"]
    seat = re.findall(r'id="seat-(\d+)"', client.get(location).get_data(as_text=True))[0]
    return location, f"{location}/seats/{seat}"


def main(taps: int = 300) -> None:
    """Measure the baseline and the taps for 2 and 4 players and print the ratios."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite'}"})
        client = app.test_client()
        with client.session_transaction() as session:
            session["csrf_token"] = TOKEN
        headers = {"X-CSRF-Token": TOKEN, "HX-Request": "true"}
        steps: dict[str, int] = {}

        def tap_back_and_forth(url: str, field: str) -> None:
            """One tap on a counter of the first seat: +1, then -1 the next time, so it never runs out of room."""
            delta = steps[url + field] = -steps.get(url + field, -1)
            client.post(url, data={"field": field, "delta": str(delta)}, headers=headers).close()

        baseline = timed(lambda: client.get("/static/css/app.css").close(), taps)
        print(f"baseline GET static/css/app.css: {baseline * 1e3:.2f} ms")
        for players in (2, 4):
            location, url = start_play(client, "spires", players)
            tap = timed(lambda: tap_back_and_forth(url, "scroll_vp"), taps)
            full = timed(lambda: client.get(location).close(), max(taps // 5, 20))
            print(
                f"Spires, {players} players: tap {tap * 1e3:.2f} ms ({tap / baseline:.1f}x baseline), "
                f"full tracker page {full * 1e3:.2f} ms ({full / baseline:.1f}x baseline)"
            )
        for players in (2, 4):
            _location, url = start_play(client, "spqf", players)
            tokens = timed(lambda: tap_back_and_forth(url, "vp_tokens"), taps)
            # A level up and back down: the first-to-level token given and taken back each time.
            level = timed(lambda: tap_back_and_forth(url, "civ_level"), taps)
            print(
                f"SPQF, {players} players: VP tokens tap {tokens * 1e3:.2f} ms ({tokens / baseline:.1f}x baseline), "
                f"level tap with its token {level * 1e3:.2f} ms ({level / baseline:.1f}x baseline)"
            )
        app.extensions["db_engine"].dispose()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
