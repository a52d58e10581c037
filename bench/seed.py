"""A big history, made fast: N finished plays of the four games, 2 to 4 players each, by bulk inserts.

    from bench.seed import seed_plays
    seed_plays(engine, 10_000, seed=0)   # the same plays, names, scores and dates for the same seed

Each play is a real one: its inputs were scored by the game's score() and stored the way records stores a result
(records._store_result), so totals, ranks, breakdowns and winners hold. Scoring every play would cost more than the
inserts, so a few dozen scored tables per game and player count are dealt out with fresh names and dates. Plays go
back in time from SEED_NEWEST, 2 to 40 hours apart; names come from a roster of twelve in several alphabets.

Run: python3 bench/seed.py [plays] [--quick]: seeds a fresh SQLite file and prints how long it took (--quick:
QUICK_PLAYS plays, what tests/bench/test_bench_quick.py runs so that this script never rots).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Engine, func, insert, select

from companion.games import GAMES
from companion.games.base import InputErrors, name_key
from companion.store import records
from companion.store.models import FINISHED, Play, Player, Seat

SEED_NEWEST = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
ROSTER = ("Ann", "Bob", "Cleo", "Dmitri", "Élodie", "Farid", "Γιώργος", "Хана", "Jun", "Kwame", "Lena", "Ömer")
# Scored tables per game and player count, dealt out again and again.
TABLES = 12
BATCH = 2_000
QUICK_PLAYS = 50


def _inputs(game_id: str, count: int, rng: random.Random) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Plausible end-of-game counts for this game and this many players (names filled in later)."""
    players: list[dict[str, Any]] = []
    for seat in range(count):
        if game_id == "spqf":
            player = {
                "vp_tokens": rng.randint(0, 40),
                "civ_level": rng.randint(0, 5),
                "monument_modifiers": rng.randint(0, 6),
                "vp_cards": rng.randint(0, 8),
            }
        elif game_id == "spyrium":
            player = {"vp_track": rng.randint(20, 90), "money": rng.randint(0, 12), "spyrium": rng.randint(0, 4)}
        elif game_id == "spires":
            colours = ("purple", "red", "yellow", "blue", "green", "black")
            player = {
                "towers": {colour: rng.randint(0, 4) for colour in colours},
                "crowns": rng.randint(0, 2),
                "swords": rng.randint(0, 3),
                "quills": rng.randint(0, 2),
                "scroll_vp": rng.randint(0, 12),
            }
        else:
            familiar = rng.randint(0, 6)
            player = {
                "color": GAMES["speros"].colours[seat],
                "minions_familiar": familiar,
                "minions_unfamiliar": rng.randint(0, 10 - familiar),
                "general": rng.choice(("base", "familiar", "unfamiliar")),
                "bonus_objectives": [rng.randint(0, 12) for _ in range(rng.randint(0, 3))],
            }
        players.append({"name": f"p{seat}", **player})
    return players, {}


def _tables(rng: random.Random) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """For each game and player count, TABLES plays scored by the rules: the play's and the seats' stored columns."""
    tables: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for game in GAMES.values():
        for count in range(2, 5):
            made: list[dict[str, Any]] = []
            while len(made) < TABLES:
                raw_players, raw_options = _inputs(game.id, count, rng)
                try:
                    players, options = game.validate(raw_players, raw_options)
                except InputErrors:
                    continue
                result = game.score(players, options)
                play = Play(game=game.id, rules_version=game.rules_version, options=options.model_dump(mode="json"))
                play.seats = [
                    Seat(
                        name=p.name,
                        position=i,
                        state=p.model_dump(mode="json", exclude={"name"}),
                        play_id=0,
                        player_id=0,
                    )
                    for i, p in enumerate(players)
                ]
                records._store_result(play, result)
                made.append(
                    {
                        "options": play.options,
                        "extra": play.extra,
                        "tiebreak": play.tiebreak,
                        "rules_version": play.rules_version,
                        "seats": [
                            {"state": s.state, "total": s.total, "rank": s.rank, "breakdown": s.breakdown}
                            for s in play.seats
                        ],
                    }
                )
            tables[(game.id, count)] = made
    return tables


def _roster_ids(engine: Engine) -> list[int]:
    """The roster's ids for ROSTER's names, added where missing."""
    with engine.begin() as connection:
        known = dict(connection.execute(select(Player.key, Player.id)).all())
        missing = [name for name in ROSTER if name_key(name) not in known]
        if missing:
            now = datetime.now(UTC)
            connection.execute(
                insert(Player), [{"name": name, "key": name_key(name), "created_at": now} for name in missing]
            )
            known = dict(connection.execute(select(Player.key, Player.id)).all())
    return [known[name_key(name)] for name in ROSTER]


def seed_plays(engine: Engine, n: int, seed: int = 0) -> list[int]:
    """Add n finished plays (the newest at SEED_NEWEST, older ones after), deterministic for a seed; their ids."""
    rng = random.Random(seed)
    tables = _tables(rng)
    ids = _roster_ids(engine)
    games = sorted(GAMES)
    with engine.begin() as connection:
        first = (connection.execute(select(func.max(Play.id))).scalar() or 0) + 1
        seat_id = (connection.execute(select(func.max(Seat.id))).scalar() or 0) + 1
        when = SEED_NEWEST
        play_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        for play_id in range(first, first + n):
            game = games[rng.randrange(len(games))]
            count = rng.randint(2, 4)
            table = tables[(game, count)][rng.randrange(TABLES)]
            who = rng.sample(range(len(ROSTER)), count)
            play_rows.append(
                {
                    "id": play_id,
                    "game": game,
                    "status": FINISHED,
                    "options": table["options"],
                    "rules_version": table["rules_version"],
                    "source": "calculator",
                    "created_at": when,
                    "played_at": when,
                    "finished_at": when,
                    "deleted_at": None,
                    "uid": f"{seed:08x}{play_id:024x}",
                    "notes": "",
                    "tiebreak": table["tiebreak"],
                    "extra": table["extra"],
                    "version": 0,
                }
            )
            for position, (index, seat) in enumerate(zip(who, table["seats"], strict=True)):
                seat_rows.append(
                    {
                        "id": seat_id,
                        "play_id": play_id,
                        "player_id": ids[index],
                        "name": ROSTER[index],
                        "position": position,
                        "colour": seat["state"].get("color", ""),
                        **seat,
                    }
                )
                seat_id += 1
            when -= timedelta(minutes=rng.randint(120, 2400))
            if len(play_rows) >= BATCH:
                _flush(connection, play_rows, seat_rows)
        _flush(connection, play_rows, seat_rows)
        if connection.dialect.name == "postgresql":
            # Explicit ids leave the sequences behind: the app's next insert would collide.
            for table_name in ("play", "seat"):
                connection.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table_name}', 'id'), (SELECT max(id) FROM {table_name}))"
                )
            # The planner's statistics, as autovacuum gathers them within a minute of a bulk insert: without
            # them a range on a column that is mostly NULL (deleted_at) is read by scanning the whole table.
            connection.exec_driver_sql("ANALYZE play, seat")
    return list(range(first, first + n))


def _flush(connection: Any, play_rows: list[dict[str, Any]], seat_rows: list[dict[str, Any]]) -> None:
    """Insert the rows gathered so far, plays before their seats, and empty the lists."""
    if play_rows:
        connection.execute(insert(Play), play_rows)
    if seat_rows:
        connection.execute(insert(Seat), seat_rows)
    play_rows.clear()
    seat_rows.clear()


def main(argv: list[str] | None = None) -> int:
    """Seed a fresh SQLite file with the plays and print how long it took and what it holds."""
    from companion.store.db import make_engine
    from companion.store.migrate import prepare

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plays", nargs="?", type=int, default=10_000, help="finished plays (default 10,000)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PLAYS} plays, for the test suite")
    args = parser.parse_args(argv)
    plays = QUICK_PLAYS if args.quick else args.plays
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'seed.sqlite'}")
        prepare(engine)
        start = time.perf_counter()
        seed_plays(engine, plays)
        seconds = time.perf_counter() - start
        with engine.connect() as connection:
            counts = [connection.execute(select(func.count()).select_from(t)).scalar_one() for t in (Play, Seat)]
        engine.dispose()
    print(f"seeded {counts[0]:,} plays ({counts[1]:,} seats) in {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
