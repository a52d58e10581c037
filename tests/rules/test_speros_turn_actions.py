"""Conquest of Speros: the turn's action in one tap (Explore, Attack, Lead), the turn passing after it or after the
capture it allows, and the setup's cards put in by nobody.

Rule sentences checked (rulebook, "Turn Structure", "3. Action Step" and "Setup"):
- "Starting with the first player and rotating clockwise, a player must complete the following 3 steps, in order":
  the Action step is the last, so the turn passes once its action is taken (test_*_passes_the_turn).
- "Take one of the following four actions": a second action in the same turn is refused
  (test_one_action_a_turn).
- "A. Explore: ... If the Location's color does not match your Units' color, deploy one of your Minions to that
  Location." (test_explore_of_the_active_player_passes_the_turn); as the turn's action it is the active player's
  alone (test_explore_as_the_turn_s_action_out_of_turn_is_refused, test_explore_after_the_turn_s_action_is_refused).
- "B. Attack: Deploy one of your Minions to any Location in the Skirmish Area." (test_attack_*)
- "C. Lead: Deploy your General to any Location in the Skirmish Area. If that Location has a remaining unoccupied
  encampment, you may also deploy one of your Minions to that Location." (test_lead_*)
- "When a player draws the last card from the shared Location deck, that player finishes his or her turn and then
  each other player takes one final turn": a capture in the final turn is taken before the game ends
  (test_the_final_turns_capture_is_taken_before_the_end).
- Setup 3 and 4: "Each player simultaneously puts one Location from his or her hand into the Skirmish Area" and
  "place a number of cards equal to the number of players to the Skirmish area" (test_setup_cards_*).
"""

from __future__ import annotations

import pytest

from companion.games import live, speros
from tests.rules.tools import LAST, NEXT, act, camp, capture, explore, play, refusal, units


def attack(card: int) -> dict:
    """The turn's Attack on a card."""
    return {"action": "attack", "card": card}


def lead(card: int, minion: bool | None = None) -> dict:
    """The turn's Lead to a card (with a Minion unless told not to)."""
    return {"action": "lead", "card": card} | ({} if minion is None else {"minion": minion})


def turn(state) -> int:
    return state["table"]["turn"]


def test_attack_deploys_a_minion_and_passes_the_turn() -> None:
    state, ctx, said = play(3, [(None, explore("ocean", 3)), ("Ann", attack(1))])
    assert units(state, ctx, 1) == [("Ann", "minion")]
    assert turn(state) == 2
    assert said[-2:] == ["Ann attacks Ocean card 1 with a Minion.", "Bob's turn."]


def test_lead_deploys_the_general_and_a_minion_and_passes_the_turn() -> None:
    state, ctx, said = play(3, [(None, explore("ocean", 4)), ("Ann", lead(1))])
    assert units(state, ctx, 1) == [("Ann", "general"), ("Ann", "minion")]
    assert camp(state, ctx, "Ann") == {"minion": 9, "general": 0}
    assert said[-2:] == ["Ann leads the General to Ocean card 1, with a Minion.", "Bob's turn."]


def test_lead_without_the_minion_it_may_add() -> None:
    """'you may also deploy one of your Minions': the player may leave it."""
    state, ctx, said = play(3, [(None, explore("ocean", 4)), ("Ann", lead(1, minion=False))])
    assert units(state, ctx, 1) == [("Ann", "general")]
    assert said[-2:] == ["Ann leads the General to Ocean card 1.", "Bob's turn."]


def test_lead_to_the_last_encampment_deploys_the_general_alone() -> None:
    """'If that Location has a remaining unoccupied encampment': none left, no Minion."""
    state, ctx, said = play(
        3, [(None, explore("ocean", 2)), ("Bob", {"action": "deploy", "card": 1}), ("Ann", lead(1))]
    )
    assert units(state, ctx, 1) == [("Bob", "minion"), ("Ann", "general")]
    # Full and tied, Ann placed last: she may capture it (rule of ties), and her capture passes the turn.
    assert said[-3:] == [
        "Ann leads the General to Ocean card 1: no encampment is left for a Minion.",
        (
            "Ann may capture Ocean card 1: All 2 encampments are occupied and Bob and Ann tie with 1 "
            "unit each: Ann placed a unit there most recently and captures it (rule of ties)."
        ),
        "The turn passes with its capture (or Next turn).",
    ]


def test_attack_that_allows_a_capture_waits_for_it_and_the_capture_passes_the_turn() -> None:
    """A capture is taken in the turn: the turn passes with it (or with Next turn), not before."""
    state, ctx, said = play(3, [(None, explore("ocean", 1)), ("Ann", attack(1))])
    assert turn(state) == 1
    assert said[-1] == "The turn passes with its capture (or Next turn)."
    assert speros.view(speros_standing(state, ctx))["pending"] == "Ocean card 1"
    # Another action in the same turn is refused: one action a turn.
    state2, _ctx, _said = play(3, [(None, explore("ocean", 1)), (None, explore("ocean", 2)), ("Ann", attack(1))])
    assert refusal(state2, ctx, "Ann", attack(2)) == {
        "card": "Ann has taken this turn's action: capture Ocean card 1 or tap Next turn."
    }
    applied = act(state, ctx, "Ann", capture(1))
    assert applied.said == ("Ann captures Ocean card 1 (achieve majority).", "Bob's turn.")
    assert turn(applied.state) == 2 and "acted" not in applied.state["table"]


def test_next_turn_also_passes_a_turn_whose_capture_is_left() -> None:
    state, ctx, _said = play(3, [(None, explore("ocean", 1)), ("Ann", attack(1)), (None, NEXT)])
    assert turn(state) == 2 and "acted" not in state["table"]
    # Captured later, it no longer passes a turn.
    applied = act(state, ctx, "Ann", capture(1))
    assert applied.said == ("Ann captures Ocean card 1 (achieve majority).",)
    assert turn(applied.state) == 2


def test_one_action_a_turn_and_only_by_the_player_whose_turn_it_is() -> None:
    state, ctx, _said = play(3, [(None, explore("ocean", 3))])
    message = (
        "It is Ann's turn: Attack is the action of the player whose turn it is. A unit an ability deploys is "
        "added with + Minion or + General."
    )
    assert refusal(state, ctx, "Bob", attack(1)) == {"player": message}
    assert refusal(state, ctx, "Cy", lead(1)) == {"player": message.replace("Attack", "Lead")}


def test_attack_and_lead_are_refused_on_a_captured_card_and_without_units() -> None:
    steps = [
        (None, explore("ocean", 1)),
        ("Ann", {"action": "deploy", "card": 1}),
        ("Ann", capture(1)),
        (None, explore("forest", 5)),
    ]
    state, ctx, _said = play(3, steps)
    assert refusal(state, ctx, "Ann", attack(1)) == {
        "card": "Ocean card 1 is in Ann's Captured Area: no unit can be deployed there."
    }
    state, ctx, _said = play(3, [*steps, ("Ann", {"action": "deploy", "card": 2, "kind": "general"})])
    assert refusal(state, ctx, "Ann", lead(2)) == {"kind": "Ann has no General left in Base Camp."}


def test_explore_of_the_active_player_passes_the_turn() -> None:
    """The form's Explore says end_turn: the turn passes once the explorer is the player whose turn it is."""
    state, ctx, said = play(3, [(None, explore("ocean", 3)), ("Ann", explore("mountain", 2) | {"end_turn": True})])
    assert units(state, ctx, 2) == [("Ann", "minion")]
    assert said[-1] == "Bob's turn."
    # By nobody (the setup, an ability), the turn stays, end_turn or not: the page's form always says it.
    state, ctx, said = play(3, [(None, explore("ocean", 3) | {"end_turn": True})])
    assert turn(state) == 1 and "turn" not in said[-1]
    # Without end_turn (the API as before), the turn stays too, whoever explores.
    state, _ctx, _said = play(3, [("Ann", explore("mountain", 2))])
    assert turn(state) == 1
    state, ctx, _said = play(3, [("Cy", explore("mountain", 2))])
    assert turn(state) == 1 and units(state, ctx, 1) == [("Cy", "minion")]


EXPLORE_OUT_OF_TURN = (
    "It is {active}'s turn: Explore is the action of the player whose turn it is. A card the setup or an ability "
    "puts into play is explored by nobody."
)


@pytest.mark.parametrize(
    ("steps", "who", "active"),
    [
        pytest.param([(None, explore("ocean", 3))], "Bob", "Ann", id="Bob explores on Ann's turn"),
        pytest.param([(None, explore("ocean", 3))], "Cy", "Ann", id="Cy explores on Ann's turn"),
        pytest.param([(None, explore("ocean", 3)), (None, NEXT)], "Ann", "Bob", id="Ann explores on Bob's turn"),
        pytest.param([], "Bob", "Ann", id="during the setup, whose cards go in by nobody"),
    ],
)
def test_explore_as_the_turn_s_action_out_of_turn_is_refused(steps: list, who: str, active: str) -> None:
    """'Starting with the first player and rotating clockwise, a player must complete the following 3 steps, in
    order, on their turn' and '3. Action Step ... Take one of the following four actions: Explore, Attack, Lead, or
    Plan': an Explore said to be the turn's action (end_turn) is the active player's alone, refused out of turn as
    Attack and Lead are, nothing changed."""
    state, ctx, _said = play(3, steps)
    message = EXPLORE_OUT_OF_TURN.format(active=active)
    assert refusal(state, ctx, who, explore("mountain", 2) | {"end_turn": True}) == {"player": message}
    # The same message shape as Attack's and Lead's out of turn.
    assert refusal(state, ctx, who, attack(1) if steps else lead(1))["player"].startswith(f"It is {active}'s turn: ")


def test_explore_after_the_turn_s_action_is_refused() -> None:
    """'Take one of the following four actions': the active player's Explore after an Attack that waits for its
    capture is a second action."""
    state, ctx, _said = play(3, [(None, explore("ocean", 1)), ("Ann", attack(1))])
    assert refusal(state, ctx, "Ann", explore("mountain", 2) | {"end_turn": True}) == {
        "card": "Ann has taken this turn's action: capture Ocean card 1 or tap Next turn."
    }


def test_the_final_turns_capture_is_taken_before_the_end() -> None:
    """'that player finishes his or her turn and then each other player takes one final turn': Cy's final Attack
    allows a capture, taken in that turn; then the game ends."""
    steps = [(None, explore("ocean", 1)), (None, LAST), (None, NEXT), (None, NEXT), ("Cy", attack(1))]
    state, ctx, _said = play(3, steps)
    assert state["table"]["ended"] is None
    applied = act(state, ctx, "Cy", capture(1))
    assert applied.said[0] == "Cy captures Ocean card 1 (achieve majority)."
    assert applied.state["table"]["ended"].startswith("Cy's final turn is over")


@pytest.mark.parametrize("count", [2, 3, 4])
def test_setup_cards_are_put_in_by_nobody_until_the_setup_is_in(count: int) -> None:
    state, ctx, _said = play(count, [])
    view = speros.view(speros_standing(state, ctx))
    assert (view["setup_left"], view["explorer"]) == (2 * count, None)
    state, ctx, _said = play(count, [(None, explore("ocean", 3))] * (2 * count - 1))
    assert speros.view(speros_standing(state, ctx))["setup_left"] == 1
    state, ctx, _said = play(count, [(None, explore("ocean", 3))] * (2 * count))
    view = speros.view(speros_standing(state, ctx))
    assert (view["setup_left"], view["explorer"]) == (0, 0)


def test_setup_is_over_once_a_unit_is_deployed_or_the_turn_moves_on() -> None:
    state, ctx, _said = play(3, [(None, explore("ocean", 3)), ("Ann", {"action": "deploy", "card": 1})])
    assert speros.view(speros_standing(state, ctx))["explorer"] == 0
    state, ctx, _said = play(3, [(None, NEXT)])
    assert speros.view(speros_standing(state, ctx))["explorer"] == 1


def test_a_typed_vp_is_taken_when_no_vp_button_says_one() -> None:
    state, _ctx, _said = play(
        3, [(None, {"action": "explore", "terrain": "artifact", "vp_typed": -2, "resources": ["gold"]})]
    )
    assert state["table"]["cards"][0]["vp"] == -2
    state, _ctx, _said = play(
        3, [(None, {"action": "explore", "terrain": "artifact", "vp": 3, "vp_typed": -2, "resources": ["gold"]})]
    )
    assert state["table"]["cards"][0]["vp"] == 3
    state, _ctx, _said = play(3, [(None, {"action": "mastery", "number": 1, "vp_saved": 4, "leaders": ["Ann"]})])
    assert state["table"]["mastery"][0]["vp"] == 4


def test_each_turn_action_is_one_undo_step_named_in_plain_words() -> None:
    state, ctx, _said = play(3, [(None, explore("ocean", 3))])
    for raw, text in ((attack(1), "Ann attacks Ocean card 1"), (lead(1), "Ann leads to Ocean card 1")):
        spec = speros.LIVE.actions[raw["action"]]
        action = live.parse_action(speros.GAME, raw, 0, strict=True)
        assert spec.text(action, ctx, state) == text


def speros_standing(state, ctx):
    """The standing the tracker draws from."""
    return live.standing(speros.GAME, state, ctx)
