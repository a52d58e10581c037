"""SPQF live play (spqf.LIVE through games/live.py), each case tied to the rule sentence or project decision it
checks.

Rule text: the SPQF game rules ("Setup", "Civilization Level", "End of the Game").
Decisions: docs/rules.md, "SPQF". Pure: no Flask, no database.

The rule text, sentence by sentence, against the live rules (what the tracker keeps; the rest is in
spqf.UNTRACKED, checked by test_untracked_says_what_stays_on_the_table):
- Setup 3, "places their Civilization Level marker on the zero": test_start_state; LEVEL_REFUSED (nothing below 0).
- "The game is played in turns, beginning with the first player and proceeding clockwise around the table until
  the end of the game.": test_turn_one_is_the_first_players, test_next_turn_never_refused_before_the_end.
- "Non-active players may follow in turn order.": FIRST_TO_LEVEL (a following player earns a level too).
- "There are 5 Civilization Levels earned by using the Expand action": LEVEL_REFUSED (no level 6), FIRST_TOKEN_REFUSED.
- "Levels must be earned in ascending order from 1 to 5.": LEVEL_REFUSED, ALLOWED.
- "The first player to earn each level scores 1VP.": FIRST_TO_LEVEL, test_the_first_token_is_scored_as_a_vp_token.
- "If multiple players are expanding, break ties in turn order beginning with the active player.": once the turns
  are followed (Next turn tapped at least once), whoever of the same turn comes first in turn order from the active
  player takes the token, whichever tapped first: FIRST_TO_LEVEL, test_first_to_level_is_said, HANDOVER, CLEARED,
  test_undo_takes_the_automatic_token_back.
- The same with "The active player resolves the action card. Following players resolve in turn order." before the
  first Next turn (the first player's first turn, or a group that never taps it): the taps come in the order the
  expansions resolve, so the first tap takes the token: FIRST_TO_LEVEL, test_first_tap_is_said_without_turns,
  test_undo_takes_the_first_taps_token_back.
- "A Score: Take the indicated VP tokens from the supply.": LEVEL_REFUSED and ALLOWED (the VP token counter).
- "The end of the game begins when at least 1 of 3 occurs": END_TRIGGERS, END_WHY, test_end_said_once, CLEARED,
  test_end_stays_while_another_condition_holds, test_last_card_said.
- "When the end of the game initiates, finish the current round so that each player has an equal number of
  turns.": FINISH_ROUND, TURNS_LEFT, COUNTDOWN, test_notes_end_warning.
- "Then, add up VP, with the highest score determining the winner.": test_notes_leader_and_first_to_each_level.
- "If there is a tie, the player with the highest Civilization Level wins. If still tied, share the victory.":
  test_notes_tie_break_as_it_stands, test_notes_shared_as_it_stands.
- Decision (docs/rules.md, "SPQF"), "the tracker refuses a skipped level but lets the group correct a level downwards":
  ALLOWED, CORRECTIONS, test_token_given_back_can_be_earned_again.
- Decision (docs/rules.md, "SPQF"), "A first-to-level token handed over by the group ... keeps the turn on which its
  level was reached": FIRST_TOKEN, HANDOVER, test_reached_turns_are_kept,
  test_handover_in_a_play_begun_before_reached_turns_were_kept.
- Decision (docs/rules.md, "SPQF"), "a player's VP tokens are refused only above 150, as a typo guard": LEVEL_REFUSED,
  ALLOWED.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import live, spqf, turns
from companion.games.base import InputErrors
from companion.games.spqf import GAME, SpqfOptions
from tests.rules.tools import Step, act_in, errors, run_steps

NAMES = ("Ann", "Bob", "Cy", "Dee")

# Raw actions as the JSON API takes them.
UP = {"action": "add", "field": "civ_level", "delta": 1}
DOWN = {"action": "add", "field": "civ_level", "delta": -1}
NEXT = {"action": "next_turn"}
LAST = {"action": "last_card", "placed": True}
UNLAST = {"action": "last_card", "placed": False}


def level(value: int) -> dict[str, Any]:
    """Set a seat's Civilization Level."""
    return {"action": "set", "field": "civ_level", "value": value}


def tokens(delta: int) -> dict[str, Any]:
    """Add to (or take from) a seat's VP tokens."""
    return {"action": "add", "field": "vp_tokens", "delta": delta}


def set_tokens(value: int) -> dict[str, Any]:
    """Set a seat's VP tokens."""
    return {"action": "set", "field": "vp_tokens", "value": value}


def token(of_level: int) -> dict[str, Any]:
    """Hand a level's first-player token to the action's player."""
    return {"action": "first_token", "level": of_level}


# A whole round of Next turn for three: the turns are followed, and Ann (the first player) is active again.
ROUND: list[Step] = [(None, NEXT)] * 3


def context(count: int) -> live.Context:
    """Ann, Bob, ... in turn order (Ann is the first player), default options."""
    return live.Context(NAMES[:count], SpqfOptions(), GAME.live)


def start(count: int) -> live.State:
    """The state a play of `count` players starts from."""
    return GAME.live.start(count, SpqfOptions())


def act(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> live.Applied:
    """Parse (strict, as JSON) and apply one action for a player by name, or for the table (None)."""
    return act_in(GAME, state, ctx, who, raw)


def play(count: int, steps: Sequence[Step]) -> tuple[live.State, live.Context, list[str]]:
    """Run the steps from the start state; the final state, the context and everything said, in order."""
    return run_steps(GAME, start(count), context(count), steps)


def refusal(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> dict[str, str]:
    """The field errors an action is refused with, as {field: message}."""
    return errors(lambda: act(state, ctx, who, raw))


def seat_tokens(state: live.State) -> list[int]:
    """Every seat's VP tokens, in turn order."""
    return [seat["vp_tokens"] for seat in state["seats"]]


def holders(state: live.State, ctx: live.Context) -> dict[int, str]:
    """Who holds each level's first-player token: {level: name}."""
    return {int(lvl): ctx.names[taken["seat"]] for lvl, taken in state["table"]["first"].items()}


def seated(state: live.State, **changes: dict[str, int]) -> live.State:
    """A copy of a state with some seats' counters replaced, by player name (for standing tests)."""
    seats = [dict(seat) for seat in state["seats"]]
    for name, values in changes.items():
        seats[NAMES.index(name)].update(values)
    return {"table": dict(state["table"]), "seats": seats}


def walk_round(active: int, first: int, count: int) -> list[int]:
    """Independently of spqf: step clockwise from the active seat until the first player would start a new round."""
    left = []
    seat = (active + 1) % count
    while seat != first:
        left.append(seat)
        seat = (seat + 1) % count
    return left


# --- Setup: "places their Civilization Level marker on the zero" ------------------------------------------------


@pytest.mark.parametrize(
    "count", [2, 3, 4], ids=lambda n: f"Setup 3. places their Civilization Level marker on the zero ({n}p)"
)
def test_start_state(count: int) -> None:
    """Every marker on zero, no tokens, nobody first to a level, turn 1, the deck not empty, no end."""
    state = start(count)
    assert state["table"] == {"turn": 1, "first": {}, "last_card": False, "end_round": None}
    assert state["seats"] == [{"vp_tokens": 0, "civ_level": 0, "monument_modifiers": 0, "vp_cards": 0}] * count
    # Each seat is its own dict: a change to one never shows in another.
    assert len({id(seat) for seat in state["seats"]}) == count


@pytest.mark.parametrize("count", [2, 3, 4])
def test_turn_one_is_the_first_players(count: int) -> None:
    """'The game is played in turns, beginning with the first player and proceeding clockwise around the table.'"""
    ctx = context(count)
    state = start(count)
    view = spqf.view(live.standing(GAME, state, ctx))
    assert (view["round"], view["active"]) == (1, 0)
    assert turns.active_seat(state["table"], count) == 0
    seen = []
    for _ in range(2 * count):
        applied = act(state, ctx, None, NEXT)
        state = applied.state
        seen.append(applied.said[0])
    expected = [f"Round {turn // count + 1}: {NAMES[turn % count]}'s turn." for turn in range(1, 2 * count + 1)]
    assert seen == expected
    assert state["table"]["turn"] == 2 * count + 1


# --- "The first player to earn each level scores 1VP" -----------------------------------------------------------

FIRST_TO_LEVEL = [
    # (players, steps, VP tokens per seat, {level: holder})
    pytest.param(
        2,
        [("Ann", UP)],
        [1, 0],
        {1: "Ann"},
        id="The first player to earn each level scores 1VP",
    ),
    pytest.param(
        2,
        [("Bob", UP)],
        [0, 1],
        {1: "Bob"},
        id="The first player to earn each level scores 1VP: a non-active (following) player too",
    ),
    pytest.param(
        3,
        [("Ann", UP), ("Ann", UP), ("Ann", UP), (None, NEXT), ("Bob", UP)],
        [3, 0, 0],
        {1: "Ann", 2: "Ann", 3: "Ann"},
        id="The first player to earn EACH level scores 1VP: several levels in a row",
    ),
    pytest.param(
        3,
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4)), ("Ann", level(5))],
        [5, 0, 0],
        {1: "Ann", 2: "Ann", 3: "Ann", 4: "Ann", 5: "Ann"},
        id="The first player to earn each level scores 1VP: set one level at a time, all five",
    ),
    pytest.param(
        2,
        [("Ann", UP), (None, NEXT), ("Bob", UP)],
        [1, 0],
        {1: "Ann"},
        id="The FIRST player to earn each level scores 1VP: the second on a level gets no token",
    ),
    pytest.param(
        3,
        [("Ann", UP), (None, NEXT), ("Bob", UP), (None, NEXT), ("Cy", UP)],
        [1, 0, 0],
        {1: "Ann"},
        id="The FIRST player to earn each level scores 1VP: nor does the third",
    ),
    pytest.param(
        2,
        [("Ann", UP), (None, NEXT), ("Bob", UP), ("Bob", UP)],
        [1, 1],
        {1: "Ann", 2: "Bob"},
        id="The first player to earn each level: first to level 2 after being second to level 1",
    ),
    pytest.param(
        2,
        [("Ann", UP), (None, NEXT), ("Bob", UP), ("Bob", UP), (None, NEXT), ("Ann", UP)],
        [1, 1],
        {1: "Ann", 2: "Bob"},
        id="The first player to earn each level: Ann second to level 2 in a later turn gets nothing",
    ),
    # Turns followed (Next turn tapped at least once): "break ties in turn order beginning with the active player"
    # whatever order the taps came in, within the turn. ROUND brings Ann back as the active player in round 2.
    pytest.param(
        3,
        [*ROUND, ("Bob", UP), ("Ann", UP)],
        [1, 0, 0],
        {1: "Ann"},
        id="break ties in turn order beginning with the active player: active Ann taps after Bob, takes it",
    ),
    pytest.param(
        3,
        [*ROUND, ("Cy", UP), ("Bob", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="break ties in turn order beginning with the active player: Bob before Cy, tapped later, takes it",
    ),
    pytest.param(
        3,
        [*ROUND, ("Bob", UP), ("Cy", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="break ties in turn order beginning with the active player: Cy after Bob in order does not take it",
    ),
    pytest.param(
        3,
        [(None, NEXT), ("Ann", UP), ("Cy", UP)],
        [0, 0, 1],
        {1: "Cy"},
        id="break ties in turn order BEGINNING WITH THE ACTIVE PLAYER: Bob active, Cy comes before Ann",
    ),
    pytest.param(
        3,
        [(None, NEXT), ("Cy", UP), ("Ann", UP)],
        [0, 0, 1],
        {1: "Cy"},
        id="break ties in turn order BEGINNING WITH THE ACTIVE PLAYER: Bob active, Ann after Cy keeps nothing",
    ),
    pytest.param(
        3,
        [(None, NEXT), ("Ann", UP), ("Cy", UP), ("Bob", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="break ties in turn order beginning with the active player: the active Bob beats both",
    ),
    pytest.param(
        4,
        [(None, NEXT), (None, NEXT), (None, NEXT), ("Cy", UP), ("Bob", UP), ("Ann", UP), ("Dee", UP)],
        [0, 0, 0, 1],
        {1: "Dee"},
        id="break ties in turn order beginning with the active player: Dee active, taps last, 4 players",
    ),
    pytest.param(
        4,
        [(None, NEXT), (None, NEXT), (None, NEXT), ("Cy", UP), ("Bob", UP), ("Ann", UP)],
        [1, 0, 0, 0],
        {1: "Ann"},
        id="break ties in turn order beginning with the active player: Dee active, Ann next, Bob, then Cy",
    ),
    pytest.param(
        3,
        [*ROUND, ("Cy", UP), ("Bob", UP), ("Bob", UP), ("Ann", UP), ("Ann", UP)],
        [2, 0, 0],
        {1: "Ann", 2: "Ann"},
        id="break ties in turn order beginning with the active player: for each level in the same turn",
    ),
    pytest.param(
        3,
        [("Cy", UP), (None, NEXT), ("Bob", UP)],
        [0, 0, 1],
        {1: "Cy"},
        id="If multiple players are expanding: Cy's token of turn 1 stays when the active Bob expands in turn 2",
    ),
    # Before the first Next turn (the first player's first turn, or a group that never taps it): "The active player
    # resolves the action card. Following players resolve in turn order." The taps come in the order the expansions
    # resolve, which is the rule's tie-break order: the first tap takes the token.
    pytest.param(
        3,
        [("Ann", UP), ("Bob", UP)],
        [1, 0, 0],
        {1: "Ann"},
        id="break ties in turn order beginning with the active player: the active Ann resolves, and taps, first",
    ),
    pytest.param(
        3,
        [(None, NEXT), ("Bob", UP), ("Cy", UP), ("Ann", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="break ties in turn order BEGINNING WITH THE ACTIVE PLAYER: Bob active, then Cy and Ann follow",
    ),
    pytest.param(
        3,
        [(None, NEXT), (None, NEXT), ("Cy", UP), ("Ann", UP)],
        [0, 0, 1],
        {1: "Cy"},
        id="break ties in turn order beginning with the active player: Cy active, Ann following comes after",
    ),
    pytest.param(
        4,
        [(None, NEXT), (None, NEXT), (None, NEXT), ("Dee", UP), ("Ann", UP), ("Bob", UP)],
        [0, 0, 0, 1],
        {1: "Dee"},
        id="break ties in turn order beginning with the active player: Dee active, then Ann and Bob, 4 players",
    ),
    pytest.param(
        3,
        [("Bob", UP), ("Ann", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="break ties in turn order: turns not followed, taps in another order than they resolved leave the token "
        "with the first tap; the group hands it over under First to each level (FIRST_TOKEN)",
    ),
    pytest.param(
        3,
        [("Bob", UP), ("Ann", UP), ("Cy", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="The FIRST player to earn each level scores 1VP: turns not followed, no later tap takes the token",
    ),
    pytest.param(
        3,
        [("Bob", UP), ("Ann", UP), (None, NEXT), ("Cy", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="The first player to earn each level scores 1VP: the first turn of a group that then taps Next turn is "
        "first-tap too, and the token of turn 1 stays put",
    ),
    pytest.param(
        3,
        [("Cy", UP), ("Bob", UP), ("Bob", UP), ("Ann", UP), ("Ann", UP)],
        [0, 1, 1],
        {1: "Cy", 2: "Bob"},
        id="The first player to earn each level scores 1VP: turns not followed, each level by the order of the taps",
    ),
    pytest.param(
        3,
        [("Bob", UP), (None, NEXT), ("Ann", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="If multiple players are expanding: Ann earlier in order but in a LATER turn takes nothing",
    ),
    pytest.param(
        3,
        [("Bob", UP), (None, NEXT), (None, NEXT), (None, NEXT), ("Ann", UP)],
        [0, 1, 0],
        {1: "Bob"},
        id="If multiple players are expanding: not in the active player's next turn either",
    ),
]


@pytest.mark.parametrize(("count", "steps", "vp_tokens", "first"), FIRST_TO_LEVEL)
def test_first_to_level_token(count: int, steps: list[Step], vp_tokens: list[int], first: dict[int, str]) -> None:
    """Who holds each level's token, and every seat's VP tokens (the token is 1 VP token, counted with them)."""
    state, ctx, _ = play(count, steps)
    assert seat_tokens(state) == vp_tokens
    assert holders(state, ctx) == first


def test_first_to_level_is_said() -> None:
    """The table hears who is first, who reaches a level already taken, and a takeover in the same turn."""
    state, ctx, _ = play(3, ROUND)
    said = []
    for step in [("Bob", UP), ("Ann", UP), ("Cy", UP)]:
        applied = act(state, ctx, *step)
        state = applied.state
        said += applied.said
    assert said == [
        "Bob is first to level 1: +1 VP token.",
        (
            "Ann and Bob both reached level 1 this turn; in turn order from the active player (Ann) Ann comes first: "
            "the level 1 token moves to Ann (+1 VP token), Bob gives it back (−1 VP token). If they expanded in "
            "different actions, give it back under First to each level."
        ),
        "Cy reaches level 1; Ann was first to it.",
    ]


def test_first_tap_is_said_without_turns() -> None:
    """Turns not followed: the table hears who is first and who reaches a level already taken (and by whom)."""
    _, _, said = play(3, [("Bob", UP), ("Ann", UP), ("Cy", UP)])
    assert said == [
        "Bob is first to level 1: +1 VP token.",
        "Ann reaches level 1; Bob was first to it.",
        "Cy reaches level 1; Bob was first to it.",
    ]


def test_the_first_token_is_scored_as_a_vp_token() -> None:
    """'VP tokens collected' + 'Civilization Level': level 1 (3 VP by default) and its first token, 4 VP."""
    state, ctx, _ = play(2, [("Ann", UP), (None, NEXT), ("Bob", UP)])
    result = live.standing(GAME, state, ctx).result
    assert [p.total for p in result.players] == [4, 3]


# --- The first_token action: hand the token to the right player --------------------------------------------------

FIRST_TOKEN = [
    # (players, steps before, who, level, VP tokens after, {level: holder} after, said)
    pytest.param(
        3,
        [("Bob", UP), (None, NEXT), ("Ann", UP)],
        "Ann",
        1,
        [1, 0, 0],
        {1: "Ann"},
        ["The level 1 token goes to Ann (+1 VP token), Bob gives it back (−1 VP token)."],
        id="The first player who earns each level earns 1VP: the group hands it to the real first",
    ),
    pytest.param(
        3,
        [("Ann", UP), (None, NEXT), ("Bob", UP), ("Ann", DOWN)],
        "Bob",
        1,
        [0, 1, 0],
        {1: "Bob"},
        ["The level 1 token goes to Bob (+1 VP token)."],
        id="The first player who earns each level earns 1VP: a token nobody holds, after a correction",
    ),
    pytest.param(
        2,
        [("Ann", UP), ("Ann", level(0)), ("Bob", UP), ("Bob", UP)],
        "Bob",
        1,
        [0, 2],
        {1: "Bob", 2: "Bob"},
        [],
        id="first_token to the holder already: nothing changes",
    ),
    pytest.param(
        3,
        [("Ann", UP), ("Ann", UP), (None, NEXT), ("Bob", UP), ("Bob", UP), ("Bob", UP)],
        "Bob",
        2,
        [1, 2, 0],
        {1: "Ann", 2: "Bob", 3: "Bob"},
        ["The level 2 token goes to Bob (+1 VP token), Ann gives it back (−1 VP token)."],
        id="first_token: a player above the level may be first to it",
    ),
]


@pytest.mark.parametrize(("count", "steps", "who", "of_level", "vp_tokens", "first", "said"), FIRST_TOKEN)
def test_first_token_action(
    count: int, steps: list[Step], who: str, of_level: int, vp_tokens: list[int], first: dict[int, str], said: list[str]
) -> None:
    """The token moves to the player named, the one who held it gives it back, and the table hears it."""
    before, ctx, _ = play(count, steps)
    applied = act(before, ctx, who, token(of_level))
    assert seat_tokens(applied.state) == vp_tokens
    assert holders(applied.state, ctx) == first
    assert list(applied.said) == said
    if not said:
        assert live.changed_parts(before, applied.state) == {}


def test_first_token_keeps_the_turn_it_was_earned_in() -> None:
    """Handed over later, the token still counts as earned in the turn it was first taken: the one who really was
    first got there no later than the one who held it."""
    state, ctx, _ = play(3, [("Bob", UP), (None, NEXT), ("Ann", UP), (None, NEXT)])
    state = act(state, ctx, "Ann", token(1)).state
    assert state["table"]["first"]["1"] == {"seat": 0, "turn": 1}


# Decision (docs/rules.md, "SPQF"): "A first-to-level token handed over by the group (after a correction, or because the
# taps came in another order) keeps the turn on which its level was reached: a player who expands later in the same turn
# does not take it."
HANDOVER = [
    # (steps before, who is handed the level 1 token, the turn it is dated to, steps after, {level: holder} and VP
    #  tokens at the end)
    pytest.param(
        [("Ann", UP), ("Bob", UP), (None, NEXT), (None, NEXT), ("Ann", DOWN)],
        "Bob",
        1,
        [("Cy", UP)],
        {1: "Bob"},
        [0, 1, 0],
        id="notes: handed over after a correction, the token keeps the turn Bob reached level 1 on (turn 1): Cy, "
        "active and expanding in turn 3, does not take it",
    ),
    pytest.param(
        [("Ann", UP), ("Bob", UP), (None, NEXT), (None, NEXT), ("Ann", DOWN)],
        "Bob",
        1,
        [("Cy", UP), (None, NEXT), ("Ann", UP)],
        {1: "Bob"},
        [0, 1, 0],
        id="The first player to earn each level scores 1VP: nor does anyone in a later turn",
    ),
    pytest.param(
        [(None, NEXT), (None, NEXT), ("Ann", UP), ("Bob", UP), ("Ann", DOWN)],
        "Bob",
        3,
        [("Cy", UP)],
        {1: "Cy"},
        [0, 0, 1],
        id="break ties in turn order beginning with the active player: Bob reached it in this very turn, so Cy "
        "(active) expanding in the same turn comes first",
    ),
    pytest.param(
        [("Ann", UP), ("Bob", UP), ("Bob", DOWN), (None, NEXT), (None, NEXT), ("Bob", UP), ("Ann", DOWN)],
        "Bob",
        3,
        [("Cy", UP)],
        {1: "Cy"},
        [0, 0, 1],
        id="notes: a level corrected away and reached again counts from the turn it was reached again",
    ),
    pytest.param(
        [("Bob", UP), (None, NEXT), ("Ann", UP), (None, NEXT)],
        "Ann",
        1,
        [("Cy", UP)],
        {1: "Ann"},
        [1, 0, 0],
        id="notes: the taps came in another order: Ann, who really was first, got there by turn 1, when Bob tapped",
    ),
    pytest.param(
        [(None, NEXT), ("Ann", UP), (None, NEXT), ("Bob", UP), ("Ann", DOWN)],
        "Bob",
        3,
        [],
        {1: "Bob"},
        [0, 1, 0],
        id="notes: handed over in the turn it was reached, the token is dated to that turn",
    ),
]


@pytest.mark.parametrize(("steps", "who", "dated", "after", "first", "vp_tokens"), HANDOVER)
def test_handover_keeps_the_turn_the_level_was_reached(
    steps: list[Step], who: str, dated: int, after: list[Step], first: dict[int, str], vp_tokens: list[int]
) -> None:
    """The token handed over is dated to the turn its level was reached; later expansions go by that turn."""
    state, ctx, _ = play(3, steps)
    state = act(state, ctx, who, token(1)).state
    assert state["table"]["first"]["1"] == {"seat": NAMES.index(who), "turn": dated}
    for step in after:
        state = act(state, ctx, *step).state
    assert holders(state, ctx) == first
    assert seat_tokens(state) == vp_tokens


def test_reached_turns_are_kept() -> None:
    """The table keeps the turn each seat reached each level on; a correction down forgets the levels given up."""
    state, ctx, _ = play(3, [("Ann", UP), (None, NEXT), ("Bob", UP), ("Bob", UP)])
    assert state["table"]["reached"] == {"1": {"0": 1, "1": 2}, "2": {"1": 2}}
    state = act(state, ctx, "Bob", level(0)).state
    assert state["table"]["reached"] == {"1": {"0": 1}}
    assert spqf.reached_turn(state["table"], 1, 1) is None
    assert spqf.reached_turn(state["table"], 0, 1) == 1


def test_handover_in_a_play_begun_before_reached_turns_were_kept() -> None:
    """A play saved before the table kept reached turns: a token nobody holds is dated to the current turn, as
    nothing earlier is known."""
    state, ctx, _ = play(3, [("Ann", UP), ("Bob", UP), (None, NEXT), ("Ann", DOWN)])
    del state["table"]["reached"]
    state = act(state, ctx, "Bob", token(1)).state
    assert state["table"]["first"]["1"] == {"seat": 1, "turn": 2}


FIRST_TOKEN_REFUSED = [
    # (steps before, who, action, {field: message})
    pytest.param(
        [("Bob", UP)],
        "Cy",
        token(1),
        {"level": "Cy has not reached level 1: only a player who has earned a level can be first to it."},
        id="The first player to EARN each level: not a player who has not reached it",
    ),
    pytest.param(
        [("Bob", UP), ("Bob", UP), ("Ann", UP)],
        "Ann",
        token(2),
        {"level": "Ann has not reached level 2: only a player who has earned a level can be first to it."},
        id="The first player to EARN each level: not a player one level below",
    ),
    pytest.param(
        [],
        "Ann",
        token(0),
        {"level": "The levels are 1 to 5."},
        id="There are 5 Civilization Levels: no token for level 0",
    ),
    pytest.param(
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4)), ("Ann", level(5))],
        "Ann",
        token(6),
        {"level": "The levels are 1 to 5."},
        id="There are 5 Civilization Levels: no token for level 6",
    ),
    pytest.param(
        [("Ann", UP)],
        "Ann",
        {"action": "first_token", "level": "1"},
        {"level": "Enter a whole number."},
        id="first_token, strict JSON: the level is a number",
    ),
    pytest.param(
        [("Ann", UP)],
        "Ann",
        {"action": "first_token"},
        {"level": "This field is required."},
        id="first_token: says which level",
    ),
    pytest.param(
        [("Ann", UP)],
        None,
        token(1),
        {"player": "Say which player this is for."},
        id="first_token needs a player",
    ),
]


@pytest.mark.parametrize(("steps", "who", "raw", "errors"), FIRST_TOKEN_REFUSED)
def test_first_token_refused(steps: list[Step], who: str | None, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A token only goes to a player who has earned that level, for a level that exists."""
    state, ctx, _ = play(3, steps)
    assert refusal(state, ctx, who, raw) == errors


# --- Undo: changed_parts / restore takes back everything an action caused ---------------------------------------

UNDO = [
    # (players, steps before, the action undone as (who, raw))
    pytest.param(3, [], ("Ann", UP), id="undo: the first to a level gives the token back"),
    pytest.param(
        3, [("Bob", UP)], ("Ann", UP), id="undo: a takeover in turn order gives the token back to the one who had it"
    ),
    pytest.param(3, [("Bob", UP), (None, NEXT), ("Ann", UP)], ("Ann", token(1)), id="undo: first_token"),
    pytest.param(
        3,
        [("Ann", UP), ("Ann", UP)],
        ("Ann", level(0)),
        id="undo: a correction down gives the tokens that went back again",
    ),
    pytest.param(
        2,
        [("Ann", set_tokens(24))],
        ("Ann", UP),
        id="undo: the token that took a player to 25 VP tokens, and the end it began",
    ),
    pytest.param(
        2,
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4))],
        ("Ann", UP),
        id="undo: level 5, its token and the end",
    ),
    pytest.param(2, [], (None, LAST), id="undo: the last card mark"),
    pytest.param(2, [], (None, NEXT), id="undo: next turn"),
]


@pytest.mark.parametrize(("count", "steps", "undone"), UNDO)
def test_undo_restores_the_state_before(count: int, steps: list[Step], undone: Step) -> None:
    """restore(after, changed_parts(before, after)) == before, for every action and all it caused."""
    before, ctx, _ = play(count, steps)
    after = act(before, ctx, *undone).state
    assert after != before
    parts = live.changed_parts(before, after)
    assert live.restore(after, parts) == before


def test_undo_takes_the_automatic_token_back() -> None:
    """The tap that gave Ann the level 1 token: undo puts her tokens and the table's 'first' back as they were."""
    before, ctx, _ = play(3, [*ROUND, ("Bob", UP)])
    after = act(before, ctx, "Ann", UP).state
    assert seat_tokens(after) == [1, 0, 0]
    parts = live.changed_parts(before, after)
    # The table (who is first) and both seats changed: Ann took the token, Bob gave it back.
    assert set(parts) == {"table", "seats"} and set(parts["seats"]) == {"0", "1"}
    undone = live.restore(after, parts)
    assert seat_tokens(undone) == [0, 1, 0]
    assert holders(undone, ctx) == {1: "Bob"}
    assert [seat["civ_level"] for seat in undone["seats"]] == [0, 1, 0]


def test_undo_takes_the_first_taps_token_back() -> None:
    """Turns not followed, the tap that gave Ann the level 1 token: undo puts back exactly the state before."""
    before, ctx, _ = play(3, [("Bob", tokens(2))])
    after = act(before, ctx, "Ann", UP).state
    assert seat_tokens(after) == [1, 2, 0]
    parts = live.changed_parts(before, after)
    # The table (who is first) and Ann's seat changed (her level and the token), nobody else's.
    assert set(parts) == {"table", "seats"} and set(parts["seats"]) == {"0"}
    undone = live.restore(after, parts)
    assert undone == before
    assert holders(undone, ctx) == {}


def test_apply_does_not_change_the_state_given() -> None:
    """An action is pure: the state before is left as it was (undo keeps it)."""
    before, ctx, _ = play(3, [("Bob", UP)])
    snapshot = repr(before)
    act(before, ctx, "Ann", UP)
    assert repr(before) == snapshot


# --- "Levels must be earned in ascending order from 1 to 5" -------------------------------------------------------

LEVEL_REFUSED = [
    # (steps before, who, action, {field: message})
    pytest.param(
        [],
        "Ann",
        level(2),
        {
            "civ_level": "Levels are earned one at a time, in ascending order: Ann is on level 0, so the next is "
            "level 1."
        },
        id="Levels must be earned in ascending order from 1 to 5: set 0 to 2 is refused",
    ),
    pytest.param(
        [("Bob", UP)],
        "Bob",
        {"action": "add", "field": "civ_level", "delta": 2},
        {
            "civ_level": "Levels are earned one at a time, in ascending order: Bob is on level 1, so the next is "
            "level 2."
        },
        id="Levels must be earned in ascending order from 1 to 5: add +2 is refused",
    ),
    pytest.param(
        [("Cy", UP), ("Cy", UP)],
        "Cy",
        level(4),
        {"civ_level": "Levels are earned one at a time, in ascending order: Cy is on level 2, so the next is level 3."},
        id="Levels must be earned in ascending order from 1 to 5: set 2 to 4 is refused",
    ),
    pytest.param(
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4)), ("Ann", level(5))],
        "Ann",
        UP,
        {"civ_level": "There are 5 Civilization Levels: Ann can't go past level 5."},
        id="There are 5 Civilization Levels: +1 from level 5 is refused",
    ),
    pytest.param(
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4)), ("Ann", level(5))],
        "Ann",
        level(6),
        {"civ_level": "There are 5 Civilization Levels: Ann can't go past level 5."},
        id="There are 5 Civilization Levels: set level 6 is refused",
    ),
    pytest.param(
        [],
        "Bob",
        level(6),
        {"civ_level": "There are 5 Civilization Levels: Bob can't go past level 5."},
        id="There are 5 Civilization Levels: set 0 to 6 is refused",
    ),
    pytest.param(
        [],
        "Ann",
        DOWN,
        {"players[0].civ_level": "Must be at least 0."},
        id="places their Civilization Level marker on the zero: nothing below it",
    ),
    pytest.param(
        [],
        "Bob",
        tokens(-1),
        {"players[1].vp_tokens": "Must be at least 0."},
        id="VP tokens collected: a count is never negative (add)",
    ),
    pytest.param(
        [("Bob", tokens(2))],
        "Bob",
        set_tokens(-3),
        {"players[1].vp_tokens": "Must be at least 0."},
        id="VP tokens collected: a count is never negative (set)",
    ),
    pytest.param(
        [("Ann", set_tokens(150))],
        "Ann",
        tokens(1),
        {"players[0].vp_tokens": "Must be at most 150."},
        id="notes: VP tokens are refused only above 150, as a typo guard",
    ),
    pytest.param(
        [("Ann", set_tokens(150))],
        "Ann",
        UP,
        {"players[0].vp_tokens": "Must be at most 150."},
        id="notes: refused above 150, also when the +1 is a first-to-level token",
    ),
    pytest.param(
        [],
        "Ann",
        {"action": "add", "field": "vp_tokens", "delta": "3"},
        {"delta": "Enter a whole number."},
        id="strict JSON: '3' as text is not a delta",
    ),
]


@pytest.mark.parametrize(("steps", "who", "raw", "errors"), LEVEL_REFUSED)
def test_refused(steps: list[Step], who: str, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A skipped level, a level past 5, a negative count, a typo-sized count: refused beside the right field."""
    state, ctx, _ = play(3, steps)
    assert refusal(state, ctx, who, raw) == errors


ALLOWED = [
    # (steps, who, VP tokens and level after)
    pytest.param(
        [("Ann", set_tokens(40)), ("Ann", tokens(1))],
        "Ann",
        (41, 0),
        id="notes: the 40 acorns in the box are no limit: 41 VP tokens",
    ),
    pytest.param(
        [("Ann", tokens(40)), ("Ann", UP)],
        "Ann",
        (41, 1),
        id="notes: the 40 acorns are no limit: a first token as the 41st",
    ),
    pytest.param([("Bob", set_tokens(150))], "Bob", (150, 0), id="notes: VP tokens are refused only ABOVE 150"),
    pytest.param(
        [("Ann", UP), ("Ann", UP), ("Ann", UP), ("Ann", UP), ("Ann", UP)],
        "Ann",
        (5, 5),
        id="Levels must be earned in ascending order from 1 to 5: all five by +1",
    ),
    pytest.param(
        [("Ann", UP), ("Ann", UP), ("Ann", level(1))],
        "Ann",
        (1, 1),
        id="notes: the tracker lets the group correct a level downwards (set)",
    ),
    pytest.param(
        [("Ann", UP), ("Ann", UP), ("Ann", UP), ("Ann", {**DOWN, "delta": -2})],
        "Ann",
        (1, 1),
        id="notes: the tracker lets the group correct a level downwards (add −2)",
    ),
    pytest.param(
        [("Ann", UP), ("Ann", level(1))], "Ann", (1, 1), id="setting the level it already has changes nothing"
    ),
]


@pytest.mark.parametrize(("steps", "who", "expected"), ALLOWED)
def test_allowed(steps: list[Step], who: str, expected: tuple[int, int]) -> None:
    """What the rules and the project's decisions (docs/rules.md, "SPQF") allow goes through."""
    state, _, _ = play(3, steps)
    seat = state["seats"][NAMES.index(who)]
    assert (seat["vp_tokens"], seat["civ_level"]) == expected


CORRECTIONS = [
    # (steps before, correction, VP tokens after, {level: holder} after, said)
    pytest.param(
        [("Ann", UP), ("Ann", UP), (None, NEXT), ("Bob", UP)],
        ("Ann", level(1)),
        [1, 0, 0],
        {1: "Ann"},
        [
            "Ann's Civilization Level corrected from 2 down to 1.",
            (
                "The level 2 token goes back (−1 VP token): nobody holds it now; if someone else reached it first, "
                "hand it to them."
            ),
        ],
        id="notes: a correction down is allowed and said; the token of a level no longer held goes back",
    ),
    pytest.param(
        [("Ann", UP), ("Ann", UP)],
        ("Ann", level(0)),
        [0, 0, 0],
        {},
        [
            "Ann's Civilization Level corrected from 2 down to 0.",
            (
                "The level 1 token goes back (−1 VP token): nobody holds it now; if someone else reached it first, "
                "hand it to them."
            ),
            (
                "The level 2 token goes back (−1 VP token): nobody holds it now; if someone else reached it first, "
                "hand it to them."
            ),
        ],
        id="notes: corrected two levels down, both tokens go back",
    ),
    pytest.param(
        [("Ann", UP), (None, NEXT), ("Bob", UP)],
        ("Bob", DOWN),
        [1, 0, 0],
        {1: "Ann"},
        ["Bob's Civilization Level corrected from 1 down to 0."],
        id="notes: a correction down by a player who was not first: Ann keeps her token",
    ),
    pytest.param(
        [("Ann", UP), (None, NEXT), ("Bob", UP), ("Bob", UP)],
        ("Bob", DOWN),
        [1, 0, 0],
        {1: "Ann"},
        [
            "Bob's Civilization Level corrected from 2 down to 1.",
            (
                "The level 2 token goes back (−1 VP token): nobody holds it now; if someone else reached it first, "
                "hand it to them."
            ),
        ],
        id="notes: a correction down gives back only the tokens of the levels no longer held",
    ),
    pytest.param(
        [("Ann", UP), ("Bob", UP)],
        ("Ann", DOWN),
        [0, 0, 0],
        {},
        [
            "Ann's Civilization Level corrected from 1 down to 0.",
            (
                "The level 1 token goes back (−1 VP token): nobody holds it now; Bob has reached it too: hand it to "
                "whoever was first under First to each level."
            ),
        ],
        id="notes: the token goes back, and the table hears who else reached the level",
    ),
    pytest.param(
        [("Ann", UP), ("Bob", UP), ("Cy", UP)],
        ("Ann", DOWN),
        [0, 0, 0],
        {},
        [
            "Ann's Civilization Level corrected from 1 down to 0.",
            (
                "The level 1 token goes back (−1 VP token): nobody holds it now; Bob and Cy have reached it too: hand "
                "it to whoever was first under First to each level."
            ),
        ],
        id="notes: the token goes back; two others reached the level",
    ),
]


@pytest.mark.parametrize(("steps", "correction", "vp_tokens", "first", "said"), CORRECTIONS)
def test_correction_down(
    steps: list[Step], correction: Step, vp_tokens: list[int], first: dict[int, str], said: list[str]
) -> None:
    """The level goes down, the table hears it, and a first-to-level token of a level given up goes back."""
    state, ctx, _ = play(3, steps)
    applied = act(state, ctx, *correction)
    assert seat_tokens(applied.state) == vp_tokens
    assert holders(applied.state, ctx) == first
    assert list(applied.said) == said


def test_token_given_back_can_be_earned_again() -> None:
    """After a correction the level's token is free: the next player to earn it is first."""
    state, ctx, said = play(3, [("Ann", UP), ("Ann", DOWN), (None, NEXT), ("Bob", UP)])
    assert holders(state, ctx) == {1: "Bob"} and seat_tokens(state) == [0, 1, 0]
    assert said[-1] == "Bob is first to level 1: +1 VP token."


# --- End of the Game ------------------------------------------------------------------------------------------

END_TRIGGERS = [
    # (players, steps before, trigger, why the end began, round in which it began)
    pytest.param(
        3,
        [],
        ("Bob", tokens(25)),
        "Bob has 25 VP tokens (25 or more)",
        1,
        id="One player has 25 or more VP tokens: 25",
    ),
    pytest.param(
        3,
        [("Cy", set_tokens(20))],
        ("Cy", set_tokens(31)),
        "Cy has 31 VP tokens (25 or more)",
        1,
        id="One player has 25 or MORE VP tokens: 31",
    ),
    pytest.param(
        3,
        [("Ann", set_tokens(24))],
        ("Ann", UP),
        "Ann has 25 VP tokens (25 or more)",
        1,
        id="One player has 25 or more VP tokens: the 25th is a first-to-level token",
    ),
    pytest.param(
        2,
        [("Bob", UP), (None, NEXT), ("Ann", UP), ("Ann", set_tokens(24)), (None, NEXT)],
        ("Ann", token(1)),
        "Ann has 25 VP tokens (25 or more)",
        2,
        id="One player has 25 or more VP tokens: the 25th handed over with first_token, in round 2",
    ),
    pytest.param(
        3,
        [("Ann", level(1)), ("Ann", level(2)), ("Ann", level(3)), ("Ann", level(4))],
        ("Ann", UP),
        "Ann reached Civilization Level 5",
        1,
        id="One player reaches the fifth Civilization Level",
    ),
    pytest.param(
        4,
        [(None, NEXT)] * 5 + [("Dee", UP)] * 4,
        ("Dee", level(5)),
        "Dee reached Civilization Level 5",
        2,
        id="One player reaches the fifth Civilization Level: in round 2",
    ),
    pytest.param(
        2,
        [("Ann", UP)] * 4 + [("Ann", set_tokens(24))],
        ("Ann", UP),
        "Ann has 25 VP tokens (25 or more) and Ann reached Civilization Level 5",
        1,
        id="at least 1 of 3 occurs: two at once, both said",
    ),
    pytest.param(
        3,
        [],
        (None, LAST),
        "the last Civilization card is in the central trade row",
        1,
        id="The last card in the Civilization deck is placed in the central trade row",
    ),
    pytest.param(
        3,
        [(None, NEXT)] * 7,
        (None, LAST),
        "the last Civilization card is in the central trade row",
        3,
        id="The last card in the Civilization deck is placed in the central trade row: round 3",
    ),
]


@pytest.mark.parametrize(("count", "steps", "trigger", "why", "end_round"), END_TRIGGERS)
def test_end_trigger(count: int, steps: list[Step], trigger: Step, why: str, end_round: int) -> None:
    """'The end of the game begins when at least 1 of 3 occurs': recorded with its round, and said."""
    state, ctx, said = play(count, steps)
    assert state["table"]["end_round"] is None
    assert not any("end of the game" in line for line in said)
    applied = act(state, ctx, *trigger)
    assert applied.state["table"]["end_round"] == end_round
    ending = [line for line in applied.said if "end of the game" in line]
    assert ending == [f"The end of the game begins: {why}. {spqf.countdown(applied.state, ctx)}"]
    standing = live.standing(GAME, applied.state, ctx)
    assert spqf.end(standing) == live.End(True, why[:1].upper() + why[1:] + ".")


def test_end_said_once() -> None:
    """Once begun, the end is not said again (nor its round moved) when another condition occurs or a turn passes."""
    state, ctx, _ = play(3, [("Ann", tokens(25))])
    assert state["table"]["end_round"] == 1
    for who, raw in [("Bob", tokens(26)), (None, LAST), (None, NEXT), ("Cy", level(1)), ("Ann", tokens(1))]:
        applied = act(state, ctx, who, raw)
        state = applied.state
        assert not any("end of the game" in line for line in applied.said), (who, raw, applied.said)
        assert state["table"]["end_round"] == 1


CLEARED = [
    # (players, steps that began the end, correction)
    pytest.param(
        3, [("Ann", tokens(25))], ("Ann", tokens(-1)), id="One player has 25 or more VP tokens: corrected to 24"
    ),
    pytest.param(
        3, [("Ann", tokens(30))], ("Ann", set_tokens(0)), id="One player has 25 or more VP tokens: set back to 0"
    ),
    pytest.param(
        3,
        [("Ann", set_tokens(24)), ("Ann", UP)],
        ("Ann", DOWN),
        id="One player has 25 or more VP tokens: the level corrected, the 25th token goes back",
    ),
    pytest.param(
        2,
        [("Ann", set_tokens(24)), ("Ann", UP), ("Bob", UP)],
        ("Bob", token(1)),
        id="One player has 25 or more VP tokens: first_token moves the 25th away",
    ),
    pytest.param(
        2,
        [(None, NEXT), ("Ann", UP), ("Bob", set_tokens(24)), ("Bob", UP)],
        ("Ann", token(1)),
        id="One player has 25 or more VP tokens: the 25th taken over in turn order from the active Bob, "
        "first_token moves it away",
    ),
    pytest.param(
        3, [("Ann", UP)] * 5, ("Ann", level(4)), id="One player reaches the fifth Civilization Level: corrected to 4"
    ),
    pytest.param(
        3, [(None, LAST)], (None, UNLAST), id="The last card in the Civilization deck is placed: the mark taken off"
    ),
]


@pytest.mark.parametrize(("count", "steps", "correction"), CLEARED)
def test_end_cleared_by_a_correction(count: int, steps: list[Step], correction: Step) -> None:
    """A correction that undoes the only trigger clears the recorded round, and says so once."""
    state, ctx, _ = play(count, steps)
    assert state["table"]["end_round"] == 1
    applied = act(state, ctx, *correction)
    assert applied.state["table"]["end_round"] is None
    assert [line for line in applied.said if "end of the game" in line] == [
        "The end of the game is no longer triggered."
    ]
    standing = live.standing(GAME, applied.state, ctx)
    assert spqf.end(standing) == live.End(False, None)
    assert not any(note.warning for note in spqf.live_notes(standing))


def test_end_stays_while_another_condition_holds() -> None:
    """'at least 1 of 3': taking one trigger off while another holds keeps the end (and says nothing about it)."""
    state, ctx, _ = play(3, [("Ann", tokens(25)), (None, LAST)])
    applied = act(state, ctx, None, UNLAST)
    assert applied.state["table"]["end_round"] == 1
    assert applied.said == ("The last-card mark is taken off: the Civilization deck is not empty.",)


def test_last_card_said() -> None:
    """The last_card action says what it marked."""
    state, ctx, _ = play(2, [])
    placed = act(state, ctx, None, LAST)
    assert placed.said[0] == "The last Civilization card is in the central trade row."
    assert placed.state["table"]["last_card"] is True
    assert act(placed.state, ctx, None, UNLAST).state["table"]["last_card"] is False


FINISH_ROUND = [
    pytest.param(
        count,
        seat,
        rounds,
        id=f"finish the current round: {count}p, end begins in {NAMES[seat]}'s turn, round {rounds + 1}",
    )
    for count in (2, 3, 4)
    for seat in range(count)
    for rounds in (0, 1)
]


@pytest.mark.parametrize(("count", "seat", "rounds"), FINISH_ROUND)
def test_next_turn_until_the_round_is_finished(count: int, seat: int, rounds: int) -> None:
    """'When the end of the game initiates, finish the current round so that each player has an equal number of
    turns': next_turn goes on to the last seat of the round, then is refused."""
    steps = [(None, NEXT)] * (rounds * count + seat) + [(NAMES[seat], tokens(25))]
    state, ctx, _ = play(count, steps)
    for expected in range(seat + 1, count):
        applied = act(state, ctx, None, NEXT)
        state = applied.state
        assert applied.said == (f"Round {rounds + 1}: {NAMES[expected]}'s turn.",)
    assert refusal(state, ctx, None, NEXT) == {
        "action": "The round is finished and the end of the game has begun: enter the Monuments and finish."
    }
    # Every player has had the same number of turns: rounds + 1 each.
    assert state["table"]["turn"] == (rounds + 1) * count


@pytest.mark.parametrize("count", [2, 3, 4])
def test_next_turn_never_refused_before_the_end(count: int) -> None:
    """'The game is played in turns ... until the end of the game': no end, no limit on turns."""
    state, ctx, _ = play(count, [(None, NEXT)] * (5 * count))
    assert state["table"]["turn"] == 5 * count + 1
    assert act(state, ctx, None, NEXT).state["table"]["turn"] == 5 * count + 2


def test_next_turn_allowed_again_after_a_correction() -> None:
    """The round was finished, then the trigger is corrected away: play goes on."""
    state, ctx, _ = play(2, [("Ann", tokens(25)), (None, NEXT)])
    assert refusal(state, ctx, None, NEXT)
    state = act(state, ctx, "Ann", tokens(-1)).state
    assert act(state, ctx, None, NEXT).said == ("Round 2: Ann's turn.",)


# --- Turns left: "finish the current round so that each player has an equal number of turns" -----------------

TURNS_LEFT = [
    pytest.param(active, first, count, id=f"{count}p active {active} first {first}")
    for count in (2, 3, 4)
    for first in range(count)
    for active in range(count)
]


@pytest.mark.parametrize(("active", "first", "count"), TURNS_LEFT)
def test_turns_left(active: int, first: int, count: int) -> None:
    """The seats still to play after the active one, walking clockwise until the first player would begin again."""
    expected = walk_round(active, first, count)
    assert turns.turns_left(active, first, count) == expected
    # Cross-check: the round started with the first player, so after the round every seat played once.
    played = [(first + step) % count for step in range((active - first) % count + 1)]
    assert sorted(played + expected) == list(range(count))


COUNTDOWN = [
    pytest.param(
        3,
        0,
        "Finish the round up to Cy's turn, the last in turn order; then enter the Monuments and finish.",
        id="3p, turns not followed (still turn 1): the round ends with the last in turn order",
    ),
    pytest.param(3, 1, "Finish the round: after Bob's turn, Cy still plays.", id="3p, second player's turn"),
    pytest.param(3, 2, "Cy's turn is the last one: then enter the Monuments and finish.", id="3p, last player's turn"),
    pytest.param(
        4,
        0,
        "Finish the round up to Dee's turn, the last in turn order; then enter the Monuments and finish.",
        id="4p, turns not followed",
    ),
    pytest.param(
        4,
        4,
        "Finish the round: after Ann's turn, Bob, Cy and Dee still play.",
        id="4p, round 2, the first player's turn",
    ),
    pytest.param(4, 6, "Finish the round: after Cy's turn, Dee still plays.", id="4p, round 2, Cy's turn"),
    pytest.param(2, 1, "Bob's turn is the last one: then enter the Monuments and finish.", id="2p, second player"),
    pytest.param(2, 2, "Finish the round: after Ann's turn, Bob still plays.", id="2p, round 2, Ann's turn"),
]


@pytest.mark.parametrize(("count", "turns_done", "text"), COUNTDOWN)
def test_countdown(count: int, turns_done: int, text: str) -> None:
    """'finish the current round so that each player has an equal number of turns', said for the table."""
    state, ctx, _ = play(count, [(None, NEXT)] * turns_done)
    assert spqf.countdown(state, ctx) == text


# --- Standing: notes, end and view as it stands -----------------------------------------------------------------


def test_notes_at_the_start() -> None:
    """Nobody has expanded, nobody has scored (so no tie-break sentence about a tie on 0), no end."""
    ctx = context(2)
    notes = spqf.live_notes(live.standing(GAME, start(2), ctx))
    assert [note.text for note in notes] == ["First to each level: nobody has expanded yet."]
    assert not any(note.warning for note in notes)
    assert not any("leads" in note.text for note in notes)


def test_notes_leader_and_first_to_each_level() -> None:
    """'add up VP, with the highest score determining the winner': the leader as it stands; who was first."""
    state, ctx, _ = play(3, [("Bob", UP), (None, NEXT), ("Bob", UP), ("Ann", UP), (None, NEXT)])
    notes = [note.text for note in spqf.live_notes(live.standing(GAME, state, ctx))]
    # Bob: 2 tokens + level 2 (6) = 8; Ann: level 1 (3); Cy 0.
    assert "Bob leads with 8 VP." in notes
    assert "First to each level: level 1 Bob, level 2 Bob." in notes
    assert not any(text.startswith("As it stands") for text in notes)


def test_notes_tie_break_as_it_stands() -> None:
    """'If there is a tie, the player with the highest Civilization Level wins': said as it stands."""
    state = seated(start(2), Ann={"vp_tokens": 3, "civ_level": 3}, Bob={"vp_tokens": 6, "civ_level": 2})
    notes = [note.text for note in spqf.live_notes(live.standing(GAME, state, context(2)))]
    assert "Ann leads with 12 VP." in notes
    assert (
        "As it stands: Ann and Bob tied on 12 VP. Tie-break, highest Civilization Level: Ann level 3, Bob level 2."
    ) in notes


def test_notes_shared_as_it_stands() -> None:
    """'If still tied, share the victory': no leader, the shared tie said."""
    state = seated(start(3), Ann={"vp_tokens": 6, "civ_level": 2}, Bob={"vp_tokens": 6, "civ_level": 2})
    notes = [note.text for note in spqf.live_notes(live.standing(GAME, state, context(3)))]
    assert not any("leads" in text for text in notes)
    tie = next(text for text in notes if text.startswith("As it stands: "))
    assert tie.startswith("As it stands: Ann and Bob tied on 12 VP.")
    assert tie.endswith("equal too: level 2 each. Still tied, Ann and Bob share the victory.")


def test_notes_shared_tie_keeps_the_rule_words() -> None:
    """The tie-break sentence keeps the rule's own term, 'Civilization Level', when it starts a sentence."""
    state = seated(start(2), Ann={"vp_tokens": 6, "civ_level": 2}, Bob={"vp_tokens": 6, "civ_level": 2})
    notes = [note.text for note in spqf.live_notes(live.standing(GAME, state, context(2)))]
    assert (
        "As it stands: Ann and Bob tied on 12 VP. Highest Civilization Level is equal too: level 2 each. "
        "Still tied, Ann and Bob share the victory."
    ) in notes


def test_notes_end_warning() -> None:
    """The end has begun: a warning with why and how many turns are left."""
    state, ctx, _ = play(3, [("Bob", tokens(25)), (None, NEXT)])
    notes = spqf.live_notes(live.standing(GAME, state, ctx))
    assert notes[-1] == spqf.Note(
        "The end of the game has begun: Bob has 25 VP tokens (25 or more). "
        "Finish the round: after Bob's turn, Cy still plays.",
        warning=True,
    )
    assert [note.warning for note in notes].count(True) == 1


def test_end_reasons() -> None:
    """Each of the three conditions, for each player, in turn order."""
    state = seated(start(3), Ann={"civ_level": 5}, Cy={"vp_tokens": 25})
    state["table"]["last_card"] = True
    assert spqf.end_reasons(state, context(3)) == [
        "Ann reached Civilization Level 5",
        "Cy has 25 VP tokens (25 or more)",
        "the last Civilization card is in the central trade row",
    ]
    assert spqf.end_reasons(seated(start(3), Ann={"vp_tokens": 24, "civ_level": 4}), context(3)) == []


def test_end_not_triggered() -> None:
    """24 VP tokens and level 4 begin nothing."""
    state = seated(start(2), Ann={"vp_tokens": 24, "civ_level": 4})
    assert spqf.end(live.standing(GAME, state, context(2))) == live.End(False, None)


END_WHY = [
    pytest.param(
        {"Cy": {"vp_tokens": 30}}, False, "Cy has 30 VP tokens (25 or more).", id="One player has 25 or more VP tokens"
    ),
    pytest.param(
        {"Ann": {"civ_level": 5}},
        False,
        "Ann reached Civilization Level 5.",
        id="One player reaches the fifth Civilization Level",
    ),
    pytest.param(
        {},
        True,
        "The last Civilization card is in the central trade row.",
        id="The last card in the Civilization deck is placed in the central trade row",
    ),
]


@pytest.mark.parametrize(("seats", "last_card", "why"), END_WHY)
def test_end_why_keeps_the_rule_words(seats: dict[str, dict[str, int]], last_card: bool, why: str) -> None:
    """End.why (shown by the JSON API) says the reasons as end_reasons words them, with only the first letter raised."""
    state = seated(start(3), **seats)
    state["table"]["last_card"] = last_card
    ended = spqf.end(live.standing(GAME, state, context(3)))
    assert ended.triggered is True
    assert ended.why == why


def test_view_as_it_stands() -> None:
    """Round, active seat, each seat's level VP, each level's holder and who else reached it, the end and turns left."""
    state, ctx, _ = play(3, [("Bob", UP), ("Ann", UP), ("Cy", UP), ("Cy", UP), (None, NEXT), ("Cy", tokens(24))])
    view = spqf.view(live.standing(GAME, state, ctx))
    expected = {
        "round": 1,
        "active": 1,
        "level_vp": [3, 3, 6],
        "levels": [
            {"level": 1, "holder": 1},
            {"level": 2, "holder": 2},
            {"level": 3, "holder": None},
            {"level": 4, "holder": None},
            {"level": 5, "holder": None},
        ],
        "last_card": False,
    }
    assert {key: view[key] for key in expected} == expected
    assert spqf.countdown(state, ctx) == "Finish the round: after Bob's turn, Cy still plays."


def test_view_follows_the_level_table() -> None:
    """The level VP follow the options' table; the last card not yet placed."""
    ctx = live.Context(NAMES[:2], SpqfOptions(level_vp=(1, 2, 4, 8, 16, 32)), GAME.live)
    state = act(start(2), ctx, "Bob", UP).state
    view = spqf.view(live.standing(GAME, state, ctx))
    assert view["level_vp"] == [1, 2]
    assert view["last_card"] is False
    assert view["levels"][0] == {"level": 1, "holder": 1}


# --- How actions are said for undo ------------------------------------------------------------------------------

DESCRIBE = [
    pytest.param("Ann", tokens(2), "Ann, VP tokens +2", id="add"),
    pytest.param("Bob", tokens(-1), "Bob, VP tokens −1", id="add, negative"),
    pytest.param("Ann", level(3), "Ann, Civilization Level set to 3", id="set"),
    pytest.param(None, NEXT, "next turn", id="next_turn"),
    pytest.param(None, LAST, "last Civilization card placed", id="last_card placed"),
    pytest.param(None, UNLAST, "last Civilization card mark taken off", id="last_card taken off"),
    pytest.param("Bob", token(3), "the level 3 token handed to Bob", id="first_token"),
]


@pytest.mark.parametrize(("who", "raw", "text"), DESCRIBE)
def test_describe(who: str | None, raw: dict[str, Any], text: str) -> None:
    """The text undo shows for an action."""
    ctx = context(2)
    seat = ctx.names.index(who) if who is not None else None
    assert live.describe(GAME, live.parse_action(GAME, raw, seat, strict=True), ctx) == text


def test_untracked_says_what_stays_on_the_table() -> None:
    """What players do that the tracker neither keeps nor checks, in plain sentences for the tracker's help: the
    Civilization deck and hands, the phases, cubes and storage, expansion costs, Score actions, the Monuments."""
    untracked = GAME.live.untracked
    text = " ".join(untracked)
    for words in (
        "Civilization deck",
        "hand",
        "trade row",
        "Action, Recruit, Discard, Draw",
        "follows",
        "Resource cubes",
        "stored cards",
        "expansion costs",
        "Score actions",
        "Monuments",
    ):
        assert words in text, words
    assert all(line[:1].isupper() and line.endswith(".") for line in untracked)
    assert not any(mark in text for mark in ("_", "[", "{", "table"))


def test_table_actions_refuse_a_player() -> None:
    """next_turn and last_card are for the whole table; a seat's counter without a player asks whose it is, and the
    table has no counters of its own (not even 'turn')."""
    state, ctx = start(2), context(2)
    assert refusal(state, ctx, "Ann", NEXT) == {"player": "Next turn is for the whole table: give no player."}
    assert refusal(state, ctx, "Ann", LAST) == {"player": "Last card is for the whole table: give no player."}
    assert refusal(state, ctx, None, {"action": "add", "field": "turn", "delta": 1}) == {
        "field": "There is no such counter."
    }
    assert refusal(state, ctx, None, UP) == {"player": "Say which player's Civilization Level to change."}
    assert refusal(state, ctx, None, tokens(1)) == {"player": "Say which player's VP tokens to change."}


# --- Properties over random play ----------------------------------------------------------------------------------

moves = st.one_of(
    st.tuples(st.integers(0, 3), st.just(UP)),
    st.tuples(st.integers(0, 3), st.sampled_from([DOWN, {**DOWN, "delta": -2}])),
    st.tuples(st.integers(0, 3), st.integers(0, 5).map(level)),
    st.tuples(st.integers(0, 3), st.integers(1, 5).map(token)),
    st.tuples(st.none(), st.sampled_from([NEXT, NEXT, LAST, UNLAST])),
)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 4), steps=st.lists(moves, max_size=30))
def test_random_play_keeps_the_tokens_straight(count: int, steps: list[tuple[int | None, dict[str, Any]]]) -> None:
    """Through any taps of levels, first_token, turns and the last card (no VP tokens typed by hand):
    - every VP token is a first-to-level token: the seats' tokens add up to the levels held;
    - only a player who has earned a level holds its token ('The first player to EARN each level');
    - the end is recorded exactly while one of the three conditions holds;
    - undo (changed_parts/restore) gives back the state before every action."""
    ctx = context(count)
    state = start(count)
    for seat, raw in steps:
        who = NAMES[seat % count] if seat is not None else None
        try:
            applied = act(state, ctx, who, raw)
        except InputErrors:
            continue
        before, state = state, applied.state
        assert live.restore(state, live.changed_parts(before, state)) == before
        first = state["table"]["first"]
        assert sum(seat_tokens(state)) == len(first)
        assert all(state["seats"][taken["seat"]]["civ_level"] >= int(lvl) for lvl, taken in first.items())
        # A token is never dated after the turn it is in, and only levels a seat holds are kept as reached.
        assert all(taken["turn"] <= state["table"]["turn"] for taken in first.values())
        reached = state["table"].get("reached", {})
        assert all(state["seats"][int(s)]["civ_level"] >= int(lvl) for lvl, seats in reached.items() for s in seats)
        assert (state["table"]["end_round"] is not None) == bool(spqf.end_reasons(state, ctx))
