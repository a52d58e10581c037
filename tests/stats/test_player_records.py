"""A player's records (issue 22): the longest winning streak, scores by game and number of players, and each year
at the table; pure over the statistics' rows, then on the player's page."""

from __future__ import annotations

import re

from companion.stats.figures import Best
from companion.stats.player_records import CountRecord, Streak, YearAtTable, player_records
from companion.store.statistics import CountedSeat, PlayRows
from tests.helpers import post_json

ANN, BOB = 1, 2


def play(play_id: int, game: str, year: int, minutes: int | None, *seats: tuple[int | None, int | None, int]):
    """A counted play: (player or None for a guest, total, rank) per seat in turn order."""
    rows = tuple(
        CountedSeat(play_id, game, who, i, total, rank, year=year) for i, (who, total, rank) in enumerate(seats)
    )
    return PlayRows(play_id, game, rows, True, minutes, year)


PLAYS = [
    play(1, "spires", 2025, 40, (ANN, 50, 1), (BOB, 40, 2)),
    play(2, "spires", 2025, None, (ANN, 55, 1), (BOB, 40, 2), (None, 30, 3)),
    play(3, "spqf", 2026, 60, (ANN, 20, 2), (BOB, 25, 1)),
    # A solo play breaks no streak and counts no win.
    play(4, "spires", 2026, 20, (ANN, 70, 1)),
    play(5, "spires", 2026, 45, (ANN, 61, 1), (BOB, 61, 1)),
    play(6, "spires", 2026, 30, (ANN, 44, 1), (BOB, 30, 2)),
    play(7, "spires", 2026, None, (ANN, 45, 1), (BOB, 31, 2)),
]


def test_the_longest_streak_counts_shared_victories_and_skips_solo_plays() -> None:
    # Ann: wins 1, 2, loses 3, (solo 4), wins 5 (shared), 6 and 7: three in a row from play 5.
    assert player_records(ANN, PLAYS).streak == Streak(3, 5, 7)
    # Bob: wins 3 and, shared, 5 (Ann's solo play 4 is not his).
    assert player_records(BOB, PLAYS).streak == Streak(2, 3, 5)
    assert player_records(BOB, PLAYS[:2]).streak is None


def test_scores_by_game_and_number_of_players() -> None:
    assert player_records(ANN, PLAYS).by_count == (
        CountRecord("spires", 1, 1, 0, 70, Best(70, 4)),
        CountRecord("spires", 2, 4, 4, (50 + 61 + 44 + 45) / 4, Best(61, 5)),
        CountRecord("spires", 3, 1, 1, 55, Best(55, 2)),
        CountRecord("spqf", 2, 1, 0, 20, Best(20, 3)),
    )


def test_each_year_at_the_table_newest_first() -> None:
    assert player_records(ANN, PLAYS).years == (
        YearAtTable(2026, 5, 4, 60 + 20 + 45 + 30, 3, "spires", 4),
        YearAtTable(2025, 2, 1, 40, 2, "spires", 2),
    )
    assert player_records(3, PLAYS) == player_records(3, [])


def test_the_players_page_says_the_records(client) -> None:
    nights = [("2025-12-30", 50, 40), ("2026-01-05", 55, 41), ("2026-01-12", 60, 42), ("2026-01-19", 30, 43)]
    for day, ann, bob in nights:
        body = {
            "game": "spyrium",
            "players": [{"name": "Ann", "vp_track": ann}, {"name": "Bob", "vp_track": bob}],
            "played_at": f"{day}T20:00:00Z",
            "duration_min": 90,
        }
        assert post_json(client, "/api/v1/plays", body).status_code == 201
    roster = client.get("/players").get_data(as_text=True)
    ann = re.search(r'href="/players/(\d+)">Ann<', roster).group(1)
    page = client.get(f"/players/{ann}").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Longest winning streak: 3 wins in a row , from 30 Dec 2025 to 12 Jan 2026 ." in text
    assert "2026 at the table: 3 plays, 4 h 30 min, 2 wins; most played: Spyrium (3)." in text
    assert "By number of players" in text and "Year by year" in text
