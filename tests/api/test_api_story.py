"""The score race in the API's play view (issue 33): "story" of a finished tracked play, each action still standing
with its words and every player's score right after it, in seat order; null otherwise; told once per play version,
so a second read replays nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.play import story
from companion.store.history_version import Kept
from tests.helpers import api_act, post_json

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
# SPQF actions ("undo" takes back the one before), with each player's total right after each action still standing.
ACTIONS: list[tuple[dict[str, Any] | str, tuple[int, int, int] | None]] = [
    ({"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 3}, (3, 0, 0)),
    ({"action": "next_turn"}, (3, 0, 0)),
    ({"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 9}, None),
    ("undo", None),
    ({"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 5}, (3, 5, 0)),
    ({"action": "add", "player": "Cy", "field": "vp_tokens", "delta": 1}, (3, 5, 1)),
]


def tracked(client, finish: bool = True) -> int:
    """An SPQF play tracked through ACTIONS (and finished); its id."""
    started = post_json(client, "/api/v1/plays", {"game": "spqf", "track": True, "players": PLAYERS})
    play_id = started.get_json()["id"]
    for action, _ in ACTIONS:
        if action == "undo":
            assert post_json(client, f"/api/v1/plays/{play_id}/undo", {}).status_code == 200
        else:
            assert isinstance(action, dict)
            api_act(client, play_id, action)
    if finish:
        assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 200
    return play_id


def view(client, play_id: int) -> dict[str, Any]:
    """GET the play view."""
    response = client.get(f"/api/v1/plays/{play_id}")
    assert response.status_code == 200
    return response.get_json()


def test_a_finished_tracked_play_has_the_score_after_each_action_still_standing(client) -> None:
    play_id = tracked(client)
    race = view(client, play_id)["story"]
    standing = [totals for action, totals in ACTIONS if totals is not None]
    assert [[(t["name"], t["total"]) for t in entry["totals"]] for entry in race] == [
        list(zip(["Ann", "Bob", "Cy"], totals, strict=True)) for totals in standing
    ]
    # Each entry is the log's: the same seq and words; the +9 taken back and the undo itself are no entry.
    log = {entry["seq"]: entry for entry in client.get(f"/api/v1/plays/{play_id}/log").get_json()["log"]}
    assert [entry["seq"] for entry in race] == [1, 2, 5, 6]
    assert all(entry["said"] == log[entry["seq"]]["said"] for entry in race)
    assert not log[1]["undone"] and log[3]["undone"] and log[4]["action"] == "undo"
    assert all(set(entry) == {"seq", "said", "totals"} for entry in race)
    assert "Ann" in race[0]["said"] and "+3" in race[0]["said"]


def test_the_story_is_null_until_finished_and_for_a_play_scored_at_the_end(client) -> None:
    play_id = tracked(client, finish=False)
    assert view(client, play_id)["story"] is None
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {}).get_json()
    assert len(finished["story"]) == 4
    body = {"game": "spires", "players": [{"name": "Ann", "crowns": 2}, {"name": "Bob"}]}
    scored = post_json(client, "/api/v1/plays", body).get_json()["id"]
    assert view(client, scored)["story"] is None
    # The fields that were there are there as before.
    assert view(client, scored)["time"] == {"minutes": None, "players": []}


def test_a_second_read_replays_nothing(client, monkeypatch) -> None:
    play_id = tracked(client)
    # A fresh keep, so that the first read below tells the story; the replays it makes are counted.
    monkeypatch.setattr(story, "_kept", Kept(story.STORIES_KEPT))
    replays: list[int] = []
    replay = story._replay

    def counted(*args: Any, **kwargs: Any) -> Any:
        """The replay, counted."""
        replays.append(1)
        return replay(*args, **kwargs)

    monkeypatch.setattr(story, "_replay", counted)
    first = view(client, play_id)
    assert len(replays) == 1
    second = view(client, play_id)
    assert len(replays) == 1 and second["story"] == first["story"] and second["time"] == first["time"]
    # A change to the play (a correction, a deletion) tells it again.
    assert client.post(f"/history/{play_id}/delete").status_code == 303
    view(client, play_id)
    assert len(replays) == 2


@pytest.mark.parametrize("game", ["spires", "spyrium"])
def test_a_game_without_turns_passed_has_its_story_too(client, game) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}]
    play_id = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players}).get_json()["id"]
    field = "crowns" if game == "spires" else "vp_track"
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": field, "delta": 2})
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {}).get_json()
    (entry,) = finished["story"]
    assert [t["name"] for t in entry["totals"]] == ["Ann", "Bob"]
    assert entry["totals"][0]["total"] < entry["totals"][1]["total"]
