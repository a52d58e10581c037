"""What the statistics leave out, and what they count for less: an ignored play (in no figure), a guest's seat (no
line of their own, nobody's opponent, but their score counts for the game), a seat imported with its winner only
(a play and a win, no score), a play without seat order (out of "Wins by seat", and said so). The pure figures, the
queries on SQLite and PostgreSQL, and the pages, on a hand-made history with known answers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from companion import create_app
from companion.games import GAMES
from companion.games.base import name_key
from companion.stats import figures
from companion.store import statistics as store_stats
from companion.store.models import FINISHED, Play, Player, Seat
from companion.store.statistics import CountedSeat, PlayRows
from tests.helpers import csrf_client, day, page, postgres_url, spqf_lines

ANN, BOB, CLEO, LI, DAN = 1, 2, 3, 4, 5
ROSTER = {ANN: "Ann", BOB: "Bob", CLEO: "Cleo", LI: "李娜", DAN: "Dan"}
GUEST = None  # an imported anonymous player: a seat of that play only


# (play id, game, day, ignored, seats_known, minutes, seats in turn order as (player, total, rank, breakdown)).
HISTORY: list[tuple[int, str, int, bool, bool, int | None, list[tuple[int | None, int | None, int | None, Any]]]] = [
    (1, "spqf", 1, False, True, 50, [(ANN, 40, 1, spqf_lines(10, 30)), (BOB, 30, 2, spqf_lines(20, 10)),
                                     (CLEO, 20, 3, spqf_lines(15, 5))]),
    # A guest wins with the game's record; imported, so no breakdown.
    (2, "spqf", 2, False, True, 75, [(ANN, 30, 2, []), (GUEST, 45, 1, []), (BOB, 25, 3, [])]),
    # Imported with its winner and no scores.
    (3, "spqf", 3, False, True, None, [(ANN, None, 1, None), (CLEO, None, 2, None)]),
    # Imported without seat order.
    (4, "spqf", 4, False, False, 90, [(CLEO, 38, 1, []), (ANN, 22, 2, [])]),
    # Ignored: its 99, its 200 minutes, its lines and Dan's only play must show nowhere.
    (5, "spqf", 5, True, True, 200, [(BOB, 99, 1, spqf_lines(0, 99)), (DAN, 10, 2, spqf_lines(10, 0))]),
    (7, "spires", 6, False, True, 25, [(ANN, 61, 1, [])]),
    # A solo play with its result only.
    (8, "spires", 7, False, True, None, [(ANN, None, 1, None)]),
    (9, "spires", 9, False, False, 40, [(ANN, 30, 1, []), (LI, 28, 2, [])]),
    # A game whose only play has its winner and no scores.
    (10, "speros", 10, False, True, None, [(BOB, None, 1, None), (CLEO, None, 2, None)]),
]  # fmt: skip


def write(engine) -> None:
    """HISTORY written into a database through the models."""
    with Session(engine) as session:
        for player_id, name in ROSTER.items():
            session.add(Player(id=player_id, name=name, key=name_key(name)))
        session.flush()
        for play_id, game, d, ignored, ordered, minutes, table in HISTORY:
            session.add(
                Play(
                    id=play_id,
                    game=game,
                    status=FINISHED,
                    rules_version="test",
                    source="import",
                    played_at=day(d),
                    finished_at=day(d),
                    ignored=ignored,
                    seats_known=ordered,
                    duration_min=minutes,
                )
            )
            session.flush()
            for position, (player, total, rank, lines) in enumerate(table):
                name = "Guest" if player is None else ROSTER[player]
                seat = Seat(play_id=play_id, player_id=player, name=name, position=position, total=total, rank=rank)
                seat.breakdown = lines
                session.add(seat)
        session.commit()


def rows() -> list[PlayRows]:
    """The counted plays of HISTORY as the queries return them (the ignored one left out), with their lines."""
    return store_stats.group_plays(
        CountedSeat(
            play,
            game,
            player,
            position,
            total,
            rank,
            lines=tuple((line["key"], line["points"]) for line in lines or ()),
            seats_known=ordered,
            duration_min=minutes,
        )
        for play, game, _, ignored, ordered, minutes, table in HISTORY
        if not ignored
        for position, (player, total, rank, lines) in enumerate(table)
    )


# The pure figures.


def test_a_game_counts_a_guests_score_but_gives_them_no_line() -> None:
    stats = figures.game_stats("spqf", rows(), GAMES["spqf"].breakdown)
    assert stats.record == figures.Record(45, (figures.Holder(GUEST, 2),))
    assert {p.player_id: (p.plays, p.wins, p.best) for p in stats.players} == {
        ANN: (4, 2, 40),
        BOB: (2, 0, 30),
        CLEO: (3, 1, 38),
    }
    assert [p.player_id for p in stats.players] == [ANN, CLEO, BOB]  # most wins first


@pytest.mark.parametrize(
    ("figure", "expected"),
    [
        # Plays 1 to 4: the winner-only play counts, the ignored one doesn't.
        ("plays", 4),
        ("shared_plays", 0),
        # The scores: 3 + 3 (the guest's too) + 2; the winner-only seats are none.
        ("seats", 8),
        ("scored_seats", 3),
        # Winning scores 40, 45 and 38: play 3's winner has no score.
        ("average_winning", 41.0),
        ("distribution", ((20, 24, 2), (25, 29, 1), (30, 34, 2), (35, 39, 1), (40, 44, 1), (45, 49, 1))),
        # Plays 1, 2 and 3 (play 4 has no seat order); play 3's winner-only seats count for wins.
        ("positions", ((0, 3, 2), (1, 3, 1), (2, 2, 0))),
        ("unordered", 1),
        # Play 1's lines only: the ignored play's 99 would lift the winners' 1 VP cards.
        ("lines", (("vp_tokens", 10.0, 17.5), ("vp_cards", 30.0, 7.5))),
        ("solo_plays", 0),
    ],
)
def test_spqf_figures(figure: str, expected: object) -> None:
    stats = figures.game_stats("spqf", rows(), GAMES["spqf"].breakdown)
    found: object = getattr(stats, figure)
    if figure == "distribution":
        found = tuple((b.low, b.high, b.count) for b in stats.distribution)
    elif figure == "positions":
        found = tuple((p.position, p.plays, p.wins) for p in stats.positions)
    elif figure == "lines":
        found = tuple((line.key, line.winners, line.others) for line in stats.lines)
    assert found == expected


def test_a_game_whose_only_play_has_no_seat_order_has_no_wins_by_seat() -> None:
    stats = figures.game_stats("spires", rows(), GAMES["spires"].breakdown)
    assert (stats.plays, stats.positions, stats.unordered) == (1, (), 1)
    assert stats.record == figures.Record(30, (figures.Holder(ANN, 9),))
    # Two solo plays, one without a score: the best and the average are over the other.
    assert (stats.solo_plays, stats.solo_average) == (2, 61.0)
    assert stats.solo_record == figures.Record(61, (figures.Holder(ANN, 7),))


def test_a_player_counts_a_winner_only_play_but_not_its_score() -> None:
    ann = figures.player_stats(ANN, rows())
    assert (ann.plays, ann.wins, ann.shared_wins) == (5, 3, 0)
    games = {record.game: record for record in ann.games}
    assert (games["spqf"].plays, games["spqf"].wins) == (4, 2)
    assert games["spqf"].average == pytest.approx(92 / 3)  # 40, 30 and 22: play 3 has no score
    assert games["spqf"].best == figures.Best(40, 1)
    (solo,) = ann.solo
    assert (solo.plays, solo.average, solo.best) == (2, 61.0, figures.Best(61, 7))
    assert [(p.play_id, p.total, p.won) for p in ann.form] == [
        (1, 40, True),
        (2, 30, False),
        (3, None, True),
        (4, 22, False),
        (9, 30, True),
    ]


def test_a_guest_is_nobodys_opponent() -> None:
    versus = {v.player_id: (v.plays, v.wins, v.their_wins, v.ahead, v.behind, v.level) for v in
              figures.player_stats(ANN, rows()).versus}  # fmt: skip
    assert versus == {BOB: (2, 1, 0, 2, 0, 0), CLEO: (3, 2, 1, 2, 1, 0), LI: (1, 1, 0, 1, 0, 0)}
    bob = {v.player_id for v in figures.player_stats(BOB, rows()).versus}
    assert bob == {ANN, CLEO}


def test_nothing_of_a_player_whose_only_play_was_ignored() -> None:
    dan = figures.player_stats(DAN, rows())
    assert (dan.plays, dan.wins, dan.games, dan.solo, dan.versus, dan.form, dan.time.total) == (
        0,
        0,
        (),
        (),
        (),
        (),
        None,
    )


def test_a_player_with_only_scoreless_plays_has_no_average_or_best() -> None:
    plays = store_stats.group_plays([CountedSeat(1, "spqf", ANN, 0, None, 1), CountedSeat(1, "spqf", BOB, 1, None, 2)])
    (record,) = figures.player_stats(ANN, plays).games
    assert (record.plays, record.wins, record.average, record.best) == (1, 1, None, None)
    stats = figures.game_stats("spqf", plays)
    assert (stats.plays, stats.record, stats.average_winning, stats.distribution, stats.seats) == (1, None, None, (), 0)
    assert [(p.player_id, p.best) for p in stats.players] == [(ANN, None), (BOB, None)]


def test_roster_lines_leave_guests_out() -> None:
    lines = {line.player_id: (line.plays, line.wins, line.solo) for line in figures.roster_lines(rows(), ROSTER)}
    assert lines == {ANN: (5, 3, 2), BOB: (3, 1, 0), CLEO: (4, 1, 0), LI: (1, 0, 0), DAN: (0, 0, 0)}


# The queries, on both databases.


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def site(request, tmp_path_factory) -> Iterator[tuple[FlaskClient, Any]]:
    """A client and the engine of an app on SQLite or PostgreSQL holding HISTORY (read only by the tests)."""
    path = tmp_path_factory.mktemp("left_out") / "db.sqlite"
    urls = iter([f"sqlite:///{path}"]) if request.param == "sqlite" else postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "db", "DATABASE_URL": next(urls)})
    engine = app.extensions["db_engine"]
    write(engine)
    yield csrf_client(app), engine
    engine.dispose()
    next(urls, None)


def test_queries_read_what_the_pure_figures_expect(site) -> None:
    _, engine = site
    # A player's rows come without the lines (their page sums none), with each play's year (year by year).
    year = {play_id: day(d).year for play_id, _, d, *_ in HISTORY}
    expected = [
        replace(p, year=year[p.id], seats=tuple(replace(s, lines=(), year=year[p.id]) for s in p.seats)) for p in rows()
    ]
    with Session(engine) as session:
        for player_id in ROSTER:
            read = store_stats.read_player(session, player_id, UTC)
            assert read == [p for p in expected if any(s.player_id == player_id for s in p.seats)]
            assert figures.player_stats(player_id, read) == figures.player_stats(player_id, rows())
        for game in ("spqf", "spires", "speros"):
            plays = store_stats.read_game(session, game)
            assert [p.id for p in plays] == [p.id for p in rows() if p.game == game]
            sums = store_stats.read_line_sums(session, game, plays)
            assert sums == figures.line_sums([p for p in rows() if p.game == game and not p.solo])
            read = figures.game_stats(game, plays, GAMES[game].breakdown, sums)
            assert read == figures.game_stats(game, rows(), GAMES[game].breakdown)
        roster = sorted(store_stats.read_roster(session), key=lambda line: line.player_id)
        assert roster == figures.roster_lines(rows(), ROSTER)


def test_game_rows_know_seat_order_and_leave_out_the_ignored_play(site) -> None:
    _, engine = site
    with Session(engine) as session:
        plays = store_stats.read_game(session, "spqf")
    assert [(p.id, p.seats_known) for p in plays] == [(1, True), (2, True), (3, True), (4, False)]
    assert [s.player_id for s in plays[1].seats] == [ANN, GUEST, BOB]
    assert [s.total for s in plays[2].seats] == [None, None]


# The pages.


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("/players", "Ann 5 3 60% 2"),
        ("/players", "Bob 3 1 33% –"),
        ("/players", "Dan 0 0 – – –"),  # only an ignored play
        ("/games/spqf", "Plays 4 Record 45 VP Average winning score 41.0 VP"),
        ("/games/spqf", "Record 45 VP, held by a guest ( 2 Jan 2026 )."),
        ("/games/spqf", "Every player's total in 8 scores"),
        ("/games/spqf", "From the 3 scores with their lines; 5 imported without a breakdown are left out here."),
        ("/games/spqf", "1 play without seat order left out."),
        ("/games/spqf", "Winners gain most over the others on 1 VP cards : 22.5 VP more on average."),
        ("/games/spqf", "Ann 4 2 (50%) 40 Cleo 3 1 (33%) 38 Bob 2 0 (0%) 30 "),
        ("/games/spires", "1 play without seat order left out."),
        ("/games/spires", "Best solo score 61 VP by Ann ( 6 Jan 2026 ); average 61.0 VP."),
        ("/players/1", "Plays 5 Wins 3 Win rate 60%"),
        ("/players/1", "SPQF 4 2 (50%) 30.7 40"),
        ("/players/1", "Spires : 2 solo plays, best 61 VP , average 61.0 VP"),
        ("/players/1", "Cleo 3 2 1 2–1 Bob 2 2 0 1–0 李娜 1 1 0 1–0"),  # most games together first
        ("/players/1", "3 Jan 2026, SPQF : Won , no score"),
        ("/players/2", "Plays 3 Wins 1 Win rate 33%"),
        ("/players/2", "Conquest of Speros 1 1 (100%) – –"),  # a win, no score
        ("/games/speros", "Plays 1 Record – Average winning score – "),
        ("/games/speros", "No scores yet: these plays were imported with their winners only."),
        ("/games/speros", "Bob 1 1 (100%) – Cleo 1 0 (0%) –"),
        (
            "/games/spires",
            "Time played 1 h 5 min (average 33 min over 2 plays; 1 without a time left out, solo included)",
        ),
        ("/players/5", "No finished games yet."),
    ],
)
def test_pages_show(site, url: str, shown: str) -> None:
    assert shown in page(site[0], url)


@pytest.mark.parametrize(
    ("url", "hidden"),
    [
        ("/players", "Guest"),
        ("/games/spqf", "99"),  # the ignored play's score
        ("/games/spqf", "Guest"),  # a guest has no line in the players' table
        ("/games/spqf", "4 of 4"),  # wins by seat: play 4 left out
        ("/games/spires", "Win rate by seat"),  # no chart with no play to draw
        ("/players/1", "Guest"),  # nobody's opponent
        ("/players/1", "Dan"),
        ("/games/speros", "held by"),  # no record without a score
        ("/games/speros", "Time played"),  # no play with a time
        ("/players/2", "99"),
        ("/players/2", "Dan"),
    ],
)
def test_pages_leave_out(site, url: str, hidden: str) -> None:
    assert hidden not in page(site[0], url)


def test_the_form_charts_say_a_play_without_a_score(site) -> None:
    html = site[0].get("/players/1").get_data(as_text=True)
    assert "3 Jan 2026, SPQF: Won, no score." in html
    assert "3 of 3 (100%)" not in site[0].get("/games/spqf").get_data(as_text=True)
    assert "2 of 3 (67%)" in site[0].get("/games/spqf").get_data(as_text=True)  # the 1st player's seat
