"""Helpers the table-driven rules tests share, and Conquest of Speros live play step by step (speros.LIVE)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from companion.games import live, speros
from companion.games.base import Game, InputErrors
from companion.games.speros import GAME, RESOURCES, SperosOptions

# One step of a play: who acts (None: the table) and the action as the JSON API takes it.
Step = tuple[str | None, dict[str, Any]]


def player(name: str, **state: Any) -> dict[str, Any]:
    """A raw player as the JSON API receives it."""
    return {"name": name, **state}


def bad_count(field: str, value: Any, message: str, citation: str, seat: int = 0, where: str = "") -> Any:
    """A bad-input row: of Ann and Bob, the player at `seat` gives `value` for `field`, refused with `message` at
    players[seat].<field><where>; the rules citation is the row's id."""
    players = [player("Ann"), player("Bob")]
    players[seat][field] = value
    return pytest.param(players, {}, f"players[{seat}].{field}{where}", message, id=citation)


def bad_option(options: dict[str, Any], message: str, citation: str) -> Any:
    """A bad-input row: Ann and Bob with `options`, its one option refused with `message`; the citation is the id."""
    (key,) = options
    return pytest.param([player("Ann"), player("Bob")], options, f"options.{key}", message, id=citation)


def errors(call: Any) -> dict[str, str]:
    """The field errors a call raises, as {field: message}."""
    with pytest.raises(InputErrors) as caught:
        call()
    return {e.field: e.message for e in caught.value.errors}


def act_in(game: Game, state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> live.Applied:
    """Parse (strict, as JSON) and apply one action of `game` for a player by name, or for the table (None)."""
    seat = ctx.names.index(who) if who is not None else None
    return live.apply(game, state, live.parse_action(game, raw, seat, strict=True), ctx)


def run_steps(
    game: Game, state: live.State, ctx: live.Context, steps: Sequence[Step]
) -> tuple[live.State, live.Context, list[str]]:
    """Run the steps of `game` from `state`; the final state, the context and everything said, in order."""
    said: list[str] = []
    for who, raw in steps:
        applied = act_in(game, state, ctx, who, raw)
        state = applied.state
        said += applied.said
    return state, ctx, said


def points(result: Any, name: str) -> dict[str, int]:
    """One player's breakdown as {key: points}."""
    scored = next(p for p in result.players if p.name == name)
    return {line.key: line.points for line in scored.lines}


def field_errors(game: Game, players: Any, options: Any = None) -> dict[str, str]:
    """The field errors the game's score_raw raises, as {field: message}."""
    with pytest.raises(InputErrors) as caught:
        game.score_raw(players, options)
    return {e.field: e.message for e in caught.value.errors}


def counter_values(state: dict[str, Any], prefix: str = "") -> list[tuple[str, int]]:
    """Every whole-number field of a state with its dotted path, e.g. ('towers.red', 3): what a tracker counts."""
    found: list[tuple[str, int]] = []
    for key, value in state.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found += counter_values(value, path + ".")
        elif isinstance(value, int) and not isinstance(value, bool):
            found.append((path, value))
    return found


def matching_sets(cards: Sequence[Sequence[str]]) -> int:
    """Max bipartite matching (Kuhn): add a crystal, an iron and a gold slot per round until one can't be filled."""
    cards = [set(c) for c in cards]
    owner: list[int | None] = [None] * len(cards)  # slot matched to each card
    slots: list[str] = []

    def augment(slot: int, seen: set[int]) -> bool:
        """Fill this slot with a free card, moving earlier slots along an alternating path if needed."""
        for j, shown in enumerate(cards):
            if slots[slot] in shown and j not in seen:
                seen.add(j)
                if owner[j] is None or augment(owner[j], seen):
                    owner[j] = slot
                    return True
        return False

    rounds = 0
    while True:
        for resource in RESOURCES:
            slots.append(resource)
            if not augment(len(slots) - 1, set()):
                return rounds
        rounds += 1


NAMES = ("Ann", "Bob", "Cy", "Dee")


SPEROS_COLOURS = ("green", "red", "blue", "black")


# Raw actions as the JSON API takes them.
NEXT = {"action": "next_turn"}


LAST = {"action": "last_drawn", "drawn": True}


def explore(
    terrain: str = "forest", encampments: int | None = None, vp: int = 1, resources: Sequence[str] = ("gold",)
) -> dict[str, Any]:
    """A card put into the Skirmish Area (by a player's Explore, or with no player at setup or by an ability).

    Encampments not given: 3 for a Location, none sent for an Artifact (it has 5)."""
    raw = {"action": "explore", "terrain": terrain, "vp": vp, "resources": list(resources)}
    if encampments is not None or terrain != "artifact":
        raw["encampments"] = 3 if encampments is None else encampments
    return raw


def capture(card: int) -> dict[str, Any]:
    """The action's player captures a card."""
    return {"action": "capture", "card": card}


def context(count: int, names: Sequence[str] = NAMES, colours: Sequence[str] = SPEROS_COLOURS) -> live.Context:
    """Ann (green), Bob (red), Cy (blue), Dee (black) in turn order, Ann first; no Mastery Objectives."""
    return live.Context(tuple(names[:count]), SperosOptions(), GAME.live, tuple(colours[:count]))


def act(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> live.Applied:
    """Parse (strict, as JSON) and apply one action for a player by name, or for the table (None)."""
    return act_in(GAME, state, ctx, who, raw)


def play(
    count: int, steps: Sequence[Step], ctx: live.Context | None = None
) -> tuple[live.State, live.Context, list[str]]:
    """Run the steps from the start state; the final state, the context and everything said, in order."""
    return run_steps(GAME, GAME.live.start(count, SperosOptions()), ctx or context(count), steps)


def refusal(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> dict[str, str]:
    """The field errors an action is refused with, as {field: message}."""
    return errors(lambda: act(state, ctx, who, raw))


def card_of(state: live.State, card_id: int) -> dict[str, Any]:
    """A card on the table by its number."""
    return next(card for card in state["table"]["cards"] if card["id"] == card_id)


def units(state: live.State, ctx: live.Context, card_id: int) -> list[tuple[str, str]]:
    """The units on a card, in the order they were placed, as (name, kind)."""
    return [(ctx.names[who], kind) for who, kind in card_of(state, card_id)["units"]]


def camp(state: live.State, ctx: live.Context, who: str) -> dict[str, int]:
    """What a player still has in Base Camp."""
    return speros.base_camp(state["table"], ctx.names.index(who))


# A Spyrium seat at the start: "Each player begins the game with 3 workers, 2 Spyrium crystals, and £8 ... a token
# on the 2 space" (the Residence track's first space).
SPYRIUM_START_SEAT = {
    "vp_track": 0,
    "building_vp": [],
    "technique_vp": [],
    "money": 8,
    "workers": 3,
    "spyrium": 2,
    "residence": 1,
    "bonus_8": None,
    "bonus_20": False,
    "replaced": 0,
}
