"""A game's ladder (issue 22): openskill's Plackett-Luce ratings from the finished plays in date order, ties and
shared victories as one rank, solo plays and guests left out; recomputed identically after a play is corrected and
corrected back, deleted and restored; on the game's page and at GET /api/v1/games/<game>/ladder."""

from __future__ import annotations

import random
import re

import pytest
from openskill.models import PlackettLuce

from companion.games.wording import ordinal
from companion.stats.ladder import Ladder, Rater, checkpoints, ladder, own_checkpoints
from companion.store.statistics import CountedSeat, PlayRows
from tests.helpers import post_json


def play(play_id: int, *seats: tuple[int | None, int | None], game: str = "spires") -> PlayRows:
    """A counted play: (player id or None for a guest, rank) per seat, in turn order."""
    rows = tuple(CountedSeat(play_id, game, who, i, None, rank) for i, (who, rank) in enumerate(seats))
    return PlayRows(play_id, game, rows)


def by_hand(plays: list[list[tuple[int | None, int]]]) -> dict[int, float]:
    """The same plays rated straight through openskill, one rate() per play: the ordinals to one decimal."""
    model = PlackettLuce()
    ratings: dict[int, object] = {}
    for seats in plays:
        teams = [[ratings.get(who) or model.rating()] if who is not None else [model.rating()] for who, _ in seats]
        for (who, _), (rating,) in zip(seats, model.rate(teams, ranks=[rank for _, rank in seats]), strict=True):
            if who is not None:
                ratings[who] = rating
    return {who: round(rating.ordinal(), 1) for who, rating in ratings.items()}


# (what is checked, the plays as (player, rank) seats oldest first, the ladder's order and ranks)
CASES = [
    ("a win lifts the winner over the loser", [[(1, 1), (2, 2)]], [(1, 1), (2, 2)]),
    ("a shared victory rates both winners alike", [[(1, 1), (2, 1), (3, 3)]], [(1, 1), (2, 1), (3, 3)]),
    ("date order: the newest result weighs", [[(1, 1), (2, 2)], [(2, 1), (1, 2)], [(2, 1), (1, 2)]], [(2, 1), (1, 2)]),
    ("a guest plays but has no place", [[(None, 1), (1, 2), (2, 3)]], [(1, 1), (2, 2)]),
]


@pytest.mark.parametrize(("what", "plays", "order"), CASES, ids=[case[0] for case in CASES])
def test_the_ladder_is_openskill_over_the_plays_in_order(what: str, plays, order) -> None:
    rated = ladder("spires", [play(i, *seats) for i, seats in enumerate(plays, start=1)])
    assert [(rung.player_id, rung.rank) for rung in rated.rungs] == order
    assert {rung.player_id: rung.rating for rung in rated.rungs} == by_hand(plays)
    assert rated.rated_plays == len(plays)


def test_solo_plays_unranked_plays_and_other_games_are_left_out() -> None:
    plays = [
        play(1, (1, 1)),
        play(2, (1, 1), (2, None)),
        play(3, (1, 1), (2, 2), game="spqf"),
        play(4, (2, 1), (1, 2)),
    ]
    rated = ladder("spires", plays)
    assert rated.rated_plays == 1
    assert [(rung.player_id, rung.plays) for rung in rated.rungs] == [(2, 1), (1, 1)]
    assert rated.history == {2: ((0, rated.rungs[0].rating),), 1: ((0, rated.rungs[1].rating),)}


def test_the_chart_follows_each_player_from_their_first_play() -> None:
    rated = ladder("spires", [play(1, (1, 1), (2, 2)), play(2, (1, 1), (3, 2)), play(3, (3, 1), (2, 2))])
    lines = checkpoints(rated, [3, 1], most=3)
    assert lines[0][0] is None and lines[0][1] is not None
    assert lines[1] == (rated.history[1][0][1], rated.history[1][1][1], rated.history[1][1][1])
    assert checkpoints(rated, [1], most=2) == [(rated.history[1][0][1], rated.history[1][1][1])]


def save(client, players: list[dict], day: str) -> int:
    """A finished Spires play through the API; its id."""
    body = {"game": "spires", "players": players, "played_at": f"{day}T20:00:00Z"}
    response = post_json(client, "/api/v1/plays", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def group_history(client) -> list[int]:
    """Four nights of Spires for Ann, Bob and Cy; the plays' ids."""
    return [
        save(client, [{"name": "Ann", "crowns": 2}, {"name": "Bob"}, {"name": "Cy", "swords": 1}], "2026-01-05"),
        save(client, [{"name": "Bob", "crowns": 2}, {"name": "Cy"}], "2026-01-12"),
        save(client, [{"name": "Cy", "crowns": 2}, {"name": "Ann", "swords": 1}], "2026-01-19"),
        save(client, [{"name": "Ann", "crowns": 1}, {"name": "Bob", "crowns": 1}, {"name": "Cy"}], "2026-01-26"),
    ]


def ladder_api(client, game: str = "spires") -> dict:
    """The game's ladder as the API answers it."""
    response = client.get(f"/api/v1/games/{game}/ladder")
    assert response.status_code == 200
    return response.get_json()


def correct(client, play_id: int, form: dict[str, str]) -> None:
    """Correct a finished play through the history's form."""
    response = client.post(f"/history/{play_id}/correct", data={"played_on": "2026-01-12", "notes": "", **form})
    assert response.status_code == 303, response.get_data(as_text=True)


def test_the_ladder_api_and_its_recount_after_a_correction_and_a_delete(client) -> None:
    plays = group_history(client)
    before = ladder_api(client)
    assert before["game"] == "spires"
    assert [set(p) for p in before["players"]] == [{"name", "rating", "plays", "rank"}] * 3
    assert {p["name"]: p["plays"] for p in before["players"]} == {"Ann": 3, "Bob": 3, "Cy": 4}
    assert [p["rank"] for p in before["players"]] == [1, 2, 3]

    # Cy, not Bob, won the second night: the ladder is rated again from there.
    correct(client, plays[1], {"name-0": "Bob", "crowns-0": "0", "name-1": "Cy", "crowns-1": "2"})
    corrected = ladder_api(client)
    assert corrected != before
    # Corrected back, every rating is what it was.
    correct(client, plays[1], {"name-0": "Bob", "crowns-0": "2", "name-1": "Cy", "crowns-1": "0"})
    assert ladder_api(client) == before

    assert client.post(f"/history/{plays[0]}/delete").status_code in (200, 303)
    without = ladder_api(client)
    assert {p["name"]: p["plays"] for p in without["players"]} == {"Ann": 2, "Bob": 2, "Cy": 3}
    assert client.post(f"/history/{plays[0]}/restore").status_code in (200, 303)
    assert ladder_api(client) == before


def test_the_ladder_api_before_any_play_and_for_an_unknown_game(client) -> None:
    assert ladder_api(client, "spqf") == {"game": "spqf", "players": []}
    missing = client.get("/api/v1/games/chess/ladder")
    assert missing.status_code == 404 and missing.get_json()["errors"][0]["field"] == "game"


@pytest.mark.parametrize(
    ("plays", "most", "expected"),
    [
        (0, 120, ()),
        (1, 120, (0,)),
        (5, 120, (0, 1, 2, 3, 4)),
        (5, 3, (0, 2, 4)),
        (1000, 4, (0, 333, 666, 999)),
    ],
)
def test_a_players_line_is_after_at_most_so_many_of_their_plays_first_and_latest_included(
    plays: int, most: int, expected: tuple[int, ...]
) -> None:
    # A player's page draws a line per game that stays small however many plays they have: their rating after
    # each play, or after `most` of them evenly spaced, so the page at 10,000 plays is the size it is at 10.
    history = {7: tuple((index * 3, float(index)) for index in range(plays))}
    ladder = Ladder("spires", (), plays * 3, history)
    assert own_checkpoints(ladder, 7, most) == tuple(float(index) for index in expected)
    assert own_checkpoints(ladder, 8, most) == ()


def test_the_games_page_shows_the_ladder_and_its_chart(client) -> None:
    group_history(client)
    page = client.get("/games/spires").get_data(as_text=True)
    assert '<h2 id="ladder">Ladder</h2>' in page
    assert '<title id="chart-ladder-title">Ratings over time</title>' in page
    order = [name for name in ("Ann", "Bob", "Cy") if f">{name}</a></th>" in page]
    assert order and "The best players, by rating" in page
    assert "Ladder" not in client.get("/games/spqf").get_data(as_text=True)


def test_a_rater_rates_a_changed_history_exactly_as_from_the_first_play() -> None:
    # Plays appended, changed, taken out and put back, in random order: a rater that resumes from its snapshots
    # gives the very ladder of rating every play again from the first.
    rng = random.Random(22)
    rater = Rater("spires", every=4)
    plays: list[PlayRows] = []
    for step in range(120):
        move = rng.random()
        if move < 0.5 or len(plays) < 3:
            who = rng.sample(range(1, 7), rng.randint(2, 4))
            plays.append(play(1000 + step, *((w, rng.randint(1, len(who))) for w in who)))
        elif move < 0.7:
            index = rng.randrange(len(plays))
            seats = plays[index].seats
            plays[index] = play(plays[index].id, *((s.player_id, rng.randint(1, len(seats))) for s in seats))
        elif move < 0.85:
            plays.pop(rng.randrange(len(plays)))
        else:
            plays.insert(rng.randrange(len(plays)), play(1000 + step, (1, 1), (2, 2)))
        assert rater.rate(plays) == ladder("spires", plays), step
    # A play finished after all the others is the only one rated again.
    plays.append(play(5000, (1, 1), (3, 2)))
    rater.rate(plays)
    assert rater.rated_again <= 4


def test_a_players_page_shows_their_place_and_ratings_on_each_ladder(client) -> None:
    group_history(client)
    api = {p["name"]: p for p in ladder_api(client)["players"]}
    roster = client.get("/players").get_data(as_text=True)
    cy = re.search(r'href="/players/(\d+)">Cy<', roster).group(1)
    page = client.get(f"/players/{cy}").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    place = f"Spires : {api['Cy']['rating']:.1f}, {ordinal(api['Cy']['rank'])} of 3 on the ladder, from 4 plays."
    assert place in text
    assert '<title id="chart-ratings-title">Ratings over their plays of each game</title>' in page
