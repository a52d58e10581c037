"""Two rule corners of the tracker API (issue 33): Spyrium's "replace": "<n> matching" and the Explore of Conquest of
Speros said to be the turn's action (end_turn) out of turn. The rules themselves: tests/rules/test_spyrium_live.py
and tests/rules/test_speros_turn_actions.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import api_act, player, post_json


def start(client, game: str, players: list[dict[str, Any]]) -> int:
    """POST /api/v1/plays with track: true; the new play's id."""
    response = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players})
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["id"])


def view(client, play: int) -> dict[str, Any]:
    """The play view as it stands."""
    return dict(client.get(f"/api/v1/plays/{play}").get_json())


def refused_unchanged(client, play: int, body: dict[str, Any]) -> dict[str, str]:
    """POST an action the rules refuse: its 422 errors as {field: message}, the play checked unchanged."""
    before = view(client, play)
    answer = api_act(client, play, body, 422)
    assert view(client, play) == before
    return {error["field"]: error["message"] for error in answer["errors"]}


# --- Spyrium: "Furthermore, if the building being discarded has an icon at the top that matches an icon on the
# newly-acquired building, the cost of the newly-acquired building is discounted by £3."


def spyrium_with_two_buildings(client) -> int:
    """A Spyrium play where Ann has built two buildings (2 and 3 VP, cards £0: she paid £1 for the second space)."""
    play = start(client, "spyrium", [{"name": "Ann"}, {"name": "Bob"}])
    for vp in (2, 3):
        api_act(client, play, {"action": "build", "player": "Ann", "vp": vp, "cost": 0})
    ann = player(view(client, play), "Ann")
    assert (ann["building_vp"], ann["money"]) == ([2, 3], 7)
    return play


REPLACEMENTS = [
    # (the build's replace and matching, Ann's buildings and money after it, what undo calls it)
    pytest.param(
        {"replace": "1"},
        ([6, 3], 2),
        "Ann replaces building 1 with a 6 VP building, card £5",
        id="'1': building 1, the full £5",
    ),
    pytest.param(
        {"replace": "2 matching"},
        ([2, 6], 5),
        "Ann replaces building 2 with a 6 VP building, card £5 − £3 for the matching icon",
        id="'2 matching': building 2, £5 − £3",
    ),
    pytest.param(
        {"replace": 2, "matching": True},
        ([2, 6], 5),
        "Ann replaces building 2 with a 6 VP building, card £5 − £3 for the matching icon",
        id="2 with matching true: the same as '2 matching'",
    ),
]


@pytest.mark.parametrize(("replace", "after", "undone"), REPLACEMENTS)
def test_build_replace_as_the_contract_writes_it(
    client, replace: dict[str, Any], after: tuple[list[int], int], undone: str
) -> None:
    """The contract's "replace": "<n> matching" (and a number as text) is taken from JSON as the page's chip is, and
    saved as the number and "matching": one undo step named as it acted."""
    play = spyrium_with_two_buildings(client)
    answer = api_act(client, play, {"action": "build", "player": "Ann", "vp": 6, "cost": 5, **replace})
    ann = player(answer, "Ann")
    assert (ann["building_vp"], ann["money"]) == after
    log = client.get(f"/api/v1/plays/{play}/log").get_json()["log"]
    assert log[-1]["action"] == "build" and log[-1]["said"].startswith(undone)
    undo = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert undo.status_code == 200
    assert undo.get_json()["undone"]["text"] == log[-1]["said"]


@pytest.mark.parametrize(
    ("replace", "extra", "message"),
    [
        pytest.param(
            "two",
            {},
            "Give the number of the building it replaces (from 1), with 'matching' after it when the icons match: "
            "'2' or '2 matching'.",
            id="a word is no building's number",
        ),
        pytest.param(
            "2 matching",
            {"matching": False},
            "'2 matching' says the icons match, but 'matching' does not: leave 'matching' out, or give the "
            "building's number alone.",
            id="'2 matching' with matching false",
        ),
        pytest.param("0 matching", {}, "Must be at least 1.", id="building numbers start at 1"),
    ],
)
def test_build_replace_text_refused_with_what_to_send(
    client, replace: str, extra: dict[str, Any], message: str
) -> None:
    """A "replace" text that names no building answers 422 on "replace" saying what to send, nothing changed."""
    play = spyrium_with_two_buildings(client)
    body = {"action": "build", "player": "Ann", "vp": 6, "cost": 5, "replace": replace, **extra}
    assert refused_unchanged(client, play, body) == {"replace": message}


# --- Conquest of Speros: "Starting with the first player and rotating clockwise, a player must complete the
# following 3 steps, in order, on their turn." and "3. Action Step ... Take one of the following four actions:
# Explore, Attack, Lead, or Plan."


def card(terrain: str, **more: Any) -> dict[str, Any]:
    """An explore of a Location (2 encampments, 1 VP, gold), or an Artifact."""
    raw: dict[str, Any] = {"action": "explore", "terrain": terrain, "vp": 1, "resources": ["gold"], **more}
    if terrain != "artifact":
        raw["encampments"] = 2
    return raw


def speros_after_setup(client) -> int:
    """A two-player Speros play with the setup's four cards in, put in by nobody (end_turn or not): Ann's turn."""
    play = start(client, "speros", [{"name": "Ann", "colour": "green"}, {"name": "Bob", "colour": "red"}])
    for raw in (card("ocean", end_turn=True), card("swamp"), card("artifact", end_turn=True), card("artifact")):
        answer = api_act(client, play, raw)
        assert answer["table"]["turn"] == 1, "a card put in by nobody is no turn's action"
    return play


def test_explore_as_the_turn_s_action_out_of_turn_answers_422(client) -> None:
    """Bob's Explore said to be the turn's action on Ann's turn is refused on "player", as his Attack and Lead are."""
    play = speros_after_setup(client)
    refused = refused_unchanged(client, play, card("mountain", player="Bob", end_turn=True))
    assert refused == {
        "player": "It is Ann's turn: Explore is the action of the player whose turn it is. A card the setup or an "
        "ability puts into play is explored by nobody."
    }
    attack = refused_unchanged(client, play, {"action": "attack", "player": "Bob", "card": 1})
    assert attack["player"].startswith("It is Ann's turn: Attack is the action of the player whose turn it is.")


def test_explore_without_end_turn_and_the_active_player_s_explore_still_work(client) -> None:
    """An Explore out of turn without end_turn (an ability's) is a card in play and the turn stays; Ann's own, with
    end_turn, is her turn's action and passes the turn."""
    play = speros_after_setup(client)
    answer = api_act(client, play, card("forest", player="Bob"))
    assert answer["table"]["turn"] == 1
    assert answer["said"][-1] == "Bob deploys a Minion there."
    answer = api_act(client, play, card("mountain", player="Ann", end_turn=True))
    assert answer["said"][-2:] == ["Ann deploys a Minion there.", "Bob's turn."]
    assert answer["table"]["turn"] == 2
