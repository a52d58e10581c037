"""Statistics on a hand-made history with known answers: ties, shared wins, solo Spires apart, a deleted play and a
play in progress left out, an imported play without a breakdown; the pure figures, the queries (SQLite and
PostgreSQL) and the pages."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sqlalchemy import event
from sqlmodel import Session

from companion import create_app
from companion.games import GAMES
from companion.stats import figures
from companion.store import statistics as store_stats
from companion.store.models import FINISHED
from companion.store.statistics import CountedSeat, PlayRows
from tests.helpers import ANN, BOB, CLEO, DMITRI, HANA, ROSTER, STATS_HISTORY, day, postgres_url, store


def rows() -> list[PlayRows]:
    """The counted plays of STATS_HISTORY as the queries return them (finished, not deleted)."""
    seats = [
        CountedSeat(
            play, game, player, position, total, rank, lines=tuple((ln["key"], ln["points"]) for ln in lines or ())
        )
        for play, game, d, status, deleted, table in STATS_HISTORY
        if status == FINISHED and not deleted
        for position, (player, total, rank, lines) in enumerate(table)
    ]
    return store_stats.group_plays(seats)


# The pure figures.


def test_player_counts_shared_wins_for_each_and_keeps_solo_apart() -> None:
    ann = figures.player_stats(ANN, rows())
    assert (ann.plays, ann.wins, ann.shared_wins) == (5, 3, 2)
    assert ann.win_rate == pytest.approx(0.6)
    games = {record.game: record for record in ann.games}
    assert (games["spqf"].plays, games["spqf"].wins, games["spqf"].average) == (4, 2, 30.0)
    assert games["spqf"].best == figures.Best(40, 1)
    assert games["spqf"].win_rate == 0.5
    assert (games["spires"].plays, games["spires"].wins, games["spires"].best.total) == (1, 1, 30)
    (solo,) = ann.solo
    assert (solo.game, solo.plays, solo.average, solo.best) == ("spires", 2, 58.0, figures.Best(61, 6))


def test_head_to_head_with_ties_and_shared_wins() -> None:
    versus = {v.player_id: v for v in figures.player_stats(ANN, rows()).versus}
    assert set(versus) == {BOB, CLEO}
    bob = versus[BOB]
    assert (bob.plays, bob.wins, bob.their_wins, bob.ahead, bob.behind, bob.level) == (4, 2, 2, 1, 1, 2)
    cleo = versus[CLEO]
    assert (cleo.plays, cleo.wins, cleo.their_wins, cleo.ahead, cleo.behind, cleo.level) == (4, 3, 2, 2, 1, 1)


def test_recent_form_oldest_first_without_solo() -> None:
    form = figures.player_stats(ANN, rows()).form
    assert [p.play_id for p in form] == [1, 2, 3, 8, 9]
    assert [(p.won, p.shared) for p in form] == [
        (True, False),
        (True, True),
        (False, False),
        (True, True),
        (False, False),
    ]
    assert [p.beaten for p in form] == [1.0, 1.0, 0.0, 1.0, 0.5]
    assert [p.play_id for p in figures.player_stats(ANN, rows(), form_plays=2).form] == [8, 9]


def test_a_player_with_only_a_deleted_play_has_nothing() -> None:
    dmitri = figures.player_stats(DMITRI, rows())
    assert (dmitri.plays, dmitri.wins, dmitri.win_rate, dmitri.games, dmitri.form) == (0, 0, None, (), ())


def test_game_figures() -> None:
    stats = figures.game_stats("spqf", rows(), GAMES["spqf"].breakdown)
    assert (stats.plays, stats.shared_plays, stats.seats, stats.scored_seats) == (4, 1, 11, 9)
    assert stats.record == figures.Record(50, (figures.Holder(BOB, 3),))
    assert stats.average_winning == 42.5
    assert [(b.low, b.high, b.count) for b in stats.distribution] == [
        (10, 19, 1),
        (20, 29, 4),
        (30, 39, 3),
        (40, 49, 2),
        (50, 59, 1),
    ]
    assert [(p.position, p.plays, p.wins) for p in stats.positions] == [(0, 4, 3), (1, 4, 2), (2, 3, 0)]
    players = {p.player_id: (p.plays, p.wins, p.best) for p in stats.players}
    assert players == {ANN: (4, 2, 40), BOB: (4, 2, 50), CLEO: (3, 1, 45)}
    assert stats.solo_plays == 0 and stats.solo_record is None


def test_breakdown_lines_leave_out_seats_without_one() -> None:
    stats = figures.game_stats("spqf", rows(), GAMES["spqf"].breakdown)
    lines = {line.key: line for line in stats.lines}
    assert [line.key for line in stats.lines] == ["vp_tokens", "vp_cards"]  # the game's order
    assert lines["vp_tokens"].label == "VP tokens"
    assert lines["vp_tokens"].average == pytest.approx(130 / 9)
    assert (lines["vp_tokens"].winners, lines["vp_tokens"].others) == (10.0, 18.0)
    assert lines["vp_cards"].average == 15.0
    assert (lines["vp_cards"].winners, lines["vp_cards"].others) == (28.75, 4.0)
    assert stats.deciding is lines["vp_cards"]
    assert lines["vp_cards"].gap == 24.75


def test_solo_spires_apart_and_a_shared_record() -> None:
    stats = figures.game_stats("spires", rows(), GAMES["spires"].breakdown)
    assert (stats.plays, stats.shared_plays, stats.average_winning) == (1, 1, 30.0)
    assert [h.player_id for h in stats.record.holders] == [ANN, CLEO]
    assert [(p.position, p.plays, p.wins) for p in stats.positions] == [(0, 1, 1), (1, 1, 1)]
    assert (stats.solo_plays, stats.solo_average) == (2, 58.0)
    assert stats.solo_record == figures.Record(61, (figures.Holder(ANN, 6),))
    assert stats.lines == () and stats.deciding is None


def test_a_game_never_played() -> None:
    stats = figures.game_stats("speros", rows())
    assert (stats.plays, stats.record, stats.average_winning, stats.distribution, stats.lines) == (
        0,
        None,
        None,
        (),
        (),
    )


def test_histogram_round_widths() -> None:
    assert figures.histogram([]) == ()
    assert [(b.low, b.high, b.count) for b in figures.histogram([5, 5, 7])] == [(5, 5, 2), (6, 6, 0), (7, 7, 1)]
    wide = figures.histogram([-12, 0, 99, 140])
    assert len(wide) <= figures.HISTOGRAM_BINS
    assert wide[0].low <= -12 and wide[-1].high >= 140
    assert sum(b.count for b in wide) == 4
    assert {b.high - b.low + 1 for b in wide} == {50}


def test_roster_lines() -> None:
    lines = {line.player_id: (line.plays, line.wins, line.solo) for line in figures.roster_lines(rows(), ROSTER)}
    assert lines == {ANN: (5, 3, 2), BOB: (4, 2, 0), CLEO: (4, 2, 0), DMITRI: (0, 0, 0), HANA: (0, 0, 0)}


# The queries, on both databases.


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request, tmp_path) -> Iterator[object]:
    """An app's engine on SQLite or PostgreSQL, holding STATS_HISTORY."""
    urls = iter([f"sqlite:///{tmp_path / 'db.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "db", "DATABASE_URL": next(urls)})
    engine = app.extensions["db_engine"]
    store(engine)
    yield engine
    engine.dispose()
    next(urls, None)


def count_queries(engine) -> list[str]:
    """The SQL statements run on this engine from now on."""
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    return seen


def test_queries_read_what_the_pure_figures_expect(engine) -> None:
    with Session(engine) as session:
        queries = count_queries(engine)
        ann = figures.player_stats(ANN, store_stats.read_player(session, ANN))
        assert ann == figures.player_stats(ANN, rows())
        for game in ("spqf", "spires"):
            plays = store_stats.read_game(session, game)
            sums = store_stats.read_line_sums(session, game, plays)
            assert sums == figures.line_sums([p for p in rows() if p.game == game and not p.solo])
            read = figures.game_stats(game, plays, GAMES[game].breakdown, sums)
            assert read == figures.game_stats(game, rows(), GAMES[game].breakdown)
        assert store_stats.read_dates(session, [3, 1, 3]) == {1: day(1), 3: day(3)}
        assert store_stats.read_dates(session, []) == {}
        roster = store_stats.read_roster(session)
        assert sorted(roster, key=lambda line: line.player_id) == figures.roster_lines(rows(), ROSTER)
        assert store_stats.read_names(session) == {
            ANN: "Ann",
            BOB: "Bob",
            CLEO: "Cleo",
            DMITRI: "Dmitri",
            HANA: "Хана <b>",
        }
        # A player's plays: one query; a game's: two (seats, line sums), twice; roster: two (names, counts); names
        # and dates: one each.
        assert len([q for q in queries if q.lstrip().upper().startswith("SELECT")]) == 1 + 2 * 2 + 1 + 2 + 1


def test_player_rows_hold_every_seat_of_the_players_plays(engine) -> None:
    with Session(engine) as session:
        plays = store_stats.read_player(session, BOB)
    assert [p.id for p in plays] == [1, 2, 3, 9]
    assert [len(p.seats) for p in plays] == [3, 3, 2, 3]
    assert all(seat.lines == () for p in plays for seat in p.seats)


def test_game_rows_know_breakdowns_and_leave_out_deleted_and_unfinished(engine) -> None:
    with Session(engine) as session:
        plays = store_stats.read_game(session, "spqf")
    assert [p.id for p in plays] == [1, 2, 3, 9]
    assert [[seat.has_breakdown for seat in p.seats] for p in plays] == [
        [True] * 3,
        [True] * 3,
        [False] * 2,
        [True] * 3,
    ]
    assert all(seat.lines == () for p in plays for seat in p.seats)  # summed in the database instead


# The pages.


@pytest.fixture
def history(app) -> None:
    """STATS_HISTORY in the test app's database."""
    store(app.extensions["db_engine"])


def text_of(html: str) -> str:
    """The page's text, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_roster_page(client, history) -> None:
    response = client.get("/players")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'href="/players/{ANN}"' in html and f'href="/players/{HANA}"' in html
    assert "Хана &lt;b&gt;" in html and "Хана <b>" not in html
    text = text_of(html)
    assert "Ann 5 3 60% 2" in text
    assert "Bob 4 2 50% –" in text
    assert "Dmitri 0 0 – –" in text
    for game in GAMES:
        assert f'href="/games/{game}"' in html


def test_player_page(client, history) -> None:
    response = client.get(f"/players/{ANN}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(html)
    assert "<h1>Ann</h1>" in html
    assert "Plays 5" in text and "Wins 3 (2 shared)" in text and "Win rate 60%" in text
    assert "SPQF 4 2 (50%) 30.0 40" in text
    assert "Spires 1 1 (100%) 30.0 30" in text
    assert "Spires : 2 solo plays, best 61 VP , average 58.0 VP" in text
    assert "Bob 4 1 1 2–2" in text and "Cleo 4 2 1 3–2" in text
    assert f'href="/players/{BOB}"' in html and 'href="/games/spqf"' in html and 'href="/plays/6"' in html
    assert 'href="/history?player=Ann"' in html
    # The charts: SVG with their names and every value written as text (the figures' two and the ratings'; the
    # legend's line samples are no charts of their own).
    assert html.count('<svg class="chart') == 3
    assert 'aria-labelledby="chart-form-title chart-form-desc"' in html
    assert "2 of 4 (50%)" in html
    assert "9 Jan 2026, SPQF: 2nd of 3, 25 VP." in html
    # Recent form, newest first in the list; solo and deleted plays not in it.
    form = html[html.index('id="form"') :]
    assert [int(n) for n in re.findall(r'href="/plays/(\d+)"', form)] == [9, 8, 3, 2, 1]
    assert "Won (shared)" in form


def test_player_page_of_a_player_without_plays(client, history) -> None:
    html = client.get(f"/players/{HANA}").get_data(as_text=True)
    assert "Хана &lt;b&gt;" in html and "No finished games yet." in html and "<svg" not in html


def test_game_page(client, history) -> None:
    response = client.get("/games/spqf")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(html)
    assert "Plays 4 (1 shared victory)" in text
    assert "Record 50 VP" in text and "Average winning score 42.5 VP" in text
    assert "Record 50 VP, held by Bob ( 3 Jan 2026 )" in text
    assert "Winners gain most over the others on 1 VP cards : 24.8 VP more on average." in text
    assert "From the 9 scores with their lines; 2 imported without a breakdown are left out here." in text
    assert "99" not in text  # the deleted play's record
    # The three charts of the figures and the ladder's (its legend's line samples are no charts of their own).
    assert html.count('<svg class="chart') == 4
    assert "20 to 29 VP: 4." in html  # the histogram's description
    assert "4 of 4 (100%)" not in html and "3 of 4 (75%)" in html  # wins by seat: the 1st player
    assert "Winners, 1 VP cards" not in html and "1 VP cards, Winners: 28.8 VP." in html
    assert f'href="/players/{BOB}"' in html and 'href="/plays/3"' in html
    assert 'href="/history?game=spqf"' in html


def test_game_page_with_solo_plays(client, history) -> None:
    text = text_of(client.get("/games/spires").get_data(as_text=True))
    assert "Plays 1 (1 shared victory)" in text
    assert "Record 30 VP, held by Ann ( 8 Jan 2026 ), Cleo ( 8 Jan 2026 )" in text
    assert (
        "2 solo plays, kept apart from the figures above. Best solo score 61 VP by Ann ( 6 Jan 2026 ); "
        "average 58.0 VP." in text
    )


def test_game_page_of_a_game_never_played(client, history) -> None:
    response = client.get("/games/speros")
    assert response.status_code == 200
    assert "No finished games of Conquest of Speros yet." in response.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/games/nope", "/players/99", "/players/99999999999", "/players/x"])
def test_unknown_pages_are_404(client, history, url) -> None:
    assert client.get(url).status_code == 404


def test_empty_database_pages(client) -> None:
    assert "No players yet" in client.get("/players").get_data(as_text=True)
    assert client.get("/games/spires").status_code == 200


def test_names_sorted_as_a_reader_files_them() -> None:
    from companion.stats.views import by_name

    names = ["Zoë", "Élodie", "ömer", "Ann", "Elena", "Ömer"]
    assert sorted(names, key=by_name) == ["Ann", "Elena", "Élodie", "ömer", "Ömer", "Zoë"]


def test_a_record_reached_in_many_plays_names_its_first_holders(client) -> None:
    """A record reached in seven plays names the first five holders (oldest first) and counts the other two."""
    players = [{"name": "Ann", "vp_tokens": 30}, {"name": "Bob", "vp_tokens": 10}]
    for date in range(1, 8):
        body = {"game": "spqf", "players": players, "played_at": f"2026-01-{date:02d}T20:00:00+00:00"}
        assert client.post("/api/v1/plays", json=body, csrf=False).status_code == 201
    text = text_of(client.get("/games/spqf").get_data(as_text=True))
    shown = ", ".join(f"Ann ( {date} Jan 2026 )" for date in range(1, 6))
    assert f"held by {shown}, and in 2 more plays." in text
