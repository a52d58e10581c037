"""History rows (issue 10): the players by rank with their totals, the winners marked in text, not by turn order."""

from __future__ import annotations

import re

from tests.web.test_api import post_json


def save(client, players: list[dict]) -> None:
    """Save a finished Spyrium play through the API (turn order as given)."""
    response = post_json(client, "/api/v1/plays", {"game": "spyrium", "players": players})
    assert response.status_code == 201, response.get_json()


def ranked(html: str) -> list[str]:
    """Each history row's players as shown: 'Ann 30 ★ (winner)', in order, row by row."""
    rows = re.findall(r'<span class="ranked">(.*?)</span>\n', html)
    return [re.sub(r"<[^>]+>", "", row) for row in rows]


def test_rows_list_players_by_rank_with_the_winner_marked(client) -> None:
    save(client, [{"name": "Cleo", "vp_track": 64}, {"name": "Ana", "vp_track": 13}, {"name": "Ben", "vp_track": 67}])
    for page in ("/history", "/"):
        rows = ranked(client.get(page).get_data(as_text=True))
        assert rows[0] == "Ben 67 ★(winner) · Cleo 64 · Ana 13", page


def test_shared_wins_mark_every_winner(client) -> None:
    save(client, [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 30}, {"name": "Cy", "vp_track": 10}])
    html = client.get("/history").get_data(as_text=True)
    assert ranked(html)[0] == "Ann 30 ★(winner) · Bob 30 ★(winner) · Cy 10"
    assert html.count('<strong class="won">') == 2
