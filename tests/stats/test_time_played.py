"""Time played: a game's total and average over its counted plays whose minutes are known (solo ones too), a
player's in all and per game, the roster's column; never '0 min' for none known, the average said over how many
plays. The pure figures, the queries on SQLite and PostgreSQL, and the pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from companion import create_app
from companion.games.base import name_key
from companion.stats import figures
from companion.stats.views import spent, time_note
from companion.store import statistics as store_stats
from companion.store.models import FINISHED, IN_PROGRESS, Play, Player, Seat
from companion.store.statistics import CountedSeat, PlayRows
from tests.helpers import csrf_client, day, page, postgres_url

ANN, BOB, CLEO, ZOE, HANA = 1, 2, 3, 4, 5
ROSTER = {ANN: "Ann", BOB: "Bob", CLEO: "Cleo", ZOE: "Zoë", HANA: "Хана"}

# (play id, game, day, status, deleted, ignored, minutes, seats in turn order as (player or None for a guest,
# total, rank)).
HISTORY: list[tuple[int, str, int, str, bool, bool, int | None, list[tuple[int | None, int | None, int | None]]]] = [
    (1, "spqf", 1, FINISHED, False, False, 50, [(ANN, 40, 1), (BOB, 30, 2)]),
    (2, "spqf", 2, FINISHED, False, False, 75, [(BOB, 35, 1), (ANN, 20, 2), (None, 10, 3)]),
    # Scored at the end: no time.
    (3, "spqf", 3, FINISHED, False, False, None, [(ANN, 30, 1), (BOB, 25, 2), (CLEO, 20, 3)]),
    # Neither an ignored, a deleted nor an unfinished play's minutes count.
    (4, "spqf", 4, FINISHED, False, True, 300, [(ANN, 30, 1), (BOB, 25, 2)]),
    (5, "spqf", 5, FINISHED, True, False, 500, [(ANN, 30, 1), (BOB, 25, 2)]),
    (6, "spqf", 6, IN_PROGRESS, False, False, 20, [(ANN, None, None), (BOB, None, None)]),
    (7, "spires", 7, FINISHED, False, False, 25, [(ANN, 55, 1)]),
    (8, "speros", 8, FINISHED, False, False, 61, [(ZOE, 40, 1), (HANA, 30, 2), (BOB, 20, 3)]),
]


def write(engine) -> None:
    """HISTORY written into a database through the models."""
    with Session(engine) as session:
        for player_id, name in ROSTER.items():
            session.add(Player(id=player_id, name=name, key=name_key(name)))
        session.flush()
        for play_id, game, d, status, deleted, ignored, minutes, table in HISTORY:
            session.add(
                Play(
                    id=play_id,
                    game=game,
                    status=status,
                    rules_version="test",
                    played_at=day(d),
                    finished_at=day(d) if status == FINISHED else None,
                    deleted_at=day(20) if deleted else None,
                    ignored=ignored,
                    duration_min=minutes,
                )
            )
            session.flush()
            for position, (player, total, rank) in enumerate(table):
                name = "Guest" if player is None else ROSTER[player]
                session.add(
                    Seat(play_id=play_id, player_id=player, name=name, position=position, total=total, rank=rank)
                )
        session.commit()


def rows() -> list[PlayRows]:
    """The counted plays of HISTORY (finished, neither deleted nor ignored) as the queries return them."""
    return store_stats.group_plays(
        CountedSeat(play, game, player, position, total, rank, duration_min=minutes)
        for play, game, _, status, deleted, ignored, minutes, table in HISTORY
        if status == FINISHED and not deleted and not ignored
        for position, (player, total, rank) in enumerate(table)
    )


def timed(*minutes: int | None) -> list[PlayRows]:
    """Plays of SPQF lasting these minutes (None: unknown)."""
    return [PlayRows(n, "spqf", (CountedSeat(n, "spqf", ANN, 0, 1, 1),), duration_min=m) for n, m in enumerate(minutes)]


# The pure figures and their wording.


@pytest.mark.parametrize(
    ("minutes", "total", "average", "untimed", "note"),
    [
        ((50, 75, None), 125, 63, 1, "average 1 h 3 min over 2 plays; 1 without a time left out"),  # 62.5: a half up
        ((59, 60), 119, 60, 0, "average 1 h over 2 plays"),
        ((1, 2), 3, 2, 0, "average 2 min over 2 plays"),
        ((45,), 45, 45, 0, "average 45 min over 1 play"),
        ((None, None), None, None, 2, ""),
        ((), None, None, 0, ""),
        ((600, 601, 602), 1803, 601, 0, "average 10 h 1 min over 3 plays"),
    ],
)
def test_time_played(minutes, total, average, untimed, note) -> None:
    time = figures.time_played(timed(*minutes))
    assert (time.total, time.average, time.untimed, time.timed) == (total, average, untimed, len(minutes) - untimed)
    assert time_note(time) == note


@pytest.mark.parametrize(
    ("minutes", "said"),
    [(None, "–"), (125, "2 h 5 min"), (60, "1 h"), (45, "45 min"), (0, "under a minute"), (6000, "100 h")],
)
def test_times_are_spelt_one_way(minutes, said) -> None:
    assert spent(minutes) == said


def test_a_players_time_in_all_and_per_game_solo_included() -> None:
    ann = figures.player_stats(ANN, rows())
    assert (ann.time.game, ann.time.timed, ann.time.minutes, ann.time.untimed) == (None, 3, 150, 1)
    assert [(t.game, t.timed, t.minutes, t.untimed) for t in ann.times] == [("spqf", 2, 125, 1), ("spires", 1, 25, 0)]
    cleo = figures.player_stats(CLEO, rows())
    assert (cleo.time.total, cleo.time.average, cleo.time.untimed) == (None, None, 1)


@pytest.mark.parametrize(
    ("game", "timed", "minutes", "untimed"),
    [("spqf", 2, 125, 1), ("spires", 1, 25, 0), ("speros", 1, 61, 0), ("spyrium", 0, 0, 0)],
)
def test_a_games_time(game, timed, minutes, untimed) -> None:
    time = figures.game_stats(game, rows()).time
    assert (time.timed, time.minutes, time.untimed) == (timed, minutes, untimed)


def test_roster_lines_time() -> None:
    lines = {line.player_id: (line.timed, line.time_played) for line in figures.roster_lines(rows(), ROSTER)}
    assert lines == {ANN: (3, 150), BOB: (3, 186), CLEO: (0, None), ZOE: (1, 61), HANA: (1, 61)}


# The queries and the pages, on both databases.


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def site(request, tmp_path_factory) -> Iterator[tuple[FlaskClient, Any]]:
    """A client and the engine of an app on SQLite or PostgreSQL holding HISTORY (read only by the tests)."""
    path = tmp_path_factory.mktemp("time") / "db.sqlite"
    urls = iter([f"sqlite:///{path}"]) if request.param == "sqlite" else postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "db", "DATABASE_URL": next(urls)})
    engine = app.extensions["db_engine"]
    write(engine)
    yield csrf_client(app), engine
    engine.dispose()
    next(urls, None)


def test_queries_read_the_minutes(site) -> None:
    _, engine = site
    with Session(engine) as session:
        for player_id in ROSTER:
            read = figures.player_stats(player_id, store_stats.read_player(session, player_id))
            assert (read.time, read.times) == (figures.player_stats(player_id, rows()).time,
                                               figures.player_stats(player_id, rows()).times)  # fmt: skip
        for game in ("spqf", "spires", "speros", "spyrium"):
            read = figures.game_stats(game, store_stats.read_game(session, game))
            assert read.time == figures.game_stats(game, rows()).time
        roster = sorted(store_stats.read_roster(session), key=lambda line: line.player_id)
        assert roster == figures.roster_lines(rows(), ROSTER)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("/players", "Ann 3 2 67% 1 2 h 30 min"),
        ("/players", "Bob 4 1 25% – 3 h 6 min"),
        ("/players", "Cleo 1 0 0% – –"),  # no play with a time: not "0 min"
        ("/players", "Zoë 1 1 100% – 1 h 1 min"),
        ("/players", "Хана 1 0 0% – 1 h 1 min"),
        ("/games/spqf", "Time played 2 h 5 min (average 1 h 3 min over 2 plays; 1 without a time left out)"),
        (
            "/games/spires",
            "Time played 25 min (average 25 min over 1 play) Solo 1 solo play. ",
        ),  # only solo: nothing to keep apart
        ("/games/speros", "Time played 1 h 1 min (average 1 h 1 min over 1 play)"),
        ("/players/1", "Time played 2 h 30 min (average 50 min over 3 plays; 1 without a time left out)"),
        ("/players/1", "SPQF 2 of 3 2 h 5 min 1 h 3 min Spires 1 25 min 25 min"),
        ("/players/2", "Time played 3 h 6 min (average 1 h 2 min over 3 plays; 1 without a time left out)"),
        ("/players/2", "SPQF 2 of 3 2 h 5 min 1 h 3 min Conquest of Speros 1 1 h 1 min 1 h 1 min"),
        ("/players/3", "Time played –"),
        ("/players/4", "Time played 1 h 1 min (average 1 h 1 min over 1 play)"),
    ],
)
def test_pages_show(site, url: str, shown: str) -> None:
    assert shown in page(site[0], url)


@pytest.mark.parametrize(
    ("url", "hidden"),
    [
        ("/players", " 0 min"),
        ("/players", "5 h"),  # the ignored play's 300 minutes
        ("/games/spqf", "10 h"),  # nor the deleted one's
        ("/games/spyrium", "Time played"),  # never played
        ("/players/3", " 0 min"),
        ("/players/3", "Timed plays"),  # no table of times without one
    ],
)
def test_pages_leave_out(site, url: str, hidden: str) -> None:
    assert hidden not in page(site[0], url)
