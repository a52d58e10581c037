"""What the table hears (issue 15, "Trust at the table"): for every game, a realistic sequence of every kind of
action, run through the pure modules; each sentence it says (the action as the log and Undo name it, and what it
caused) is plain words for people: no Python syntax or internal names.

Pure: no Flask, no database.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games import get_game, live
from companion.games.base import InputErrors

# Who does what, in turn order; None is an action of the whole table.
Step = tuple[str | None, dict[str, Any]]

NAMES = ("Ann", "Bob", "Cy")
# What a sentence for people never holds: a list's or a dict's brackets, an internal snake_case name.
SYNTAX = set("[]{}_")
# Nor a quote: Python's repr quotes ("resources ['gold']", "'gold'") stand beside a space or a bracket. An apostrophe
# inside a word is English ("Bob's turn"), as everywhere else in the app's texts.
QUOTE = re.compile(r"(?<!\w)'|'(?!\w)")
# "table" where a player is meant ("table, discard pile +1"): the whole table is never a person.
TABLE = re.compile(r"\btable\b", re.IGNORECASE)


def add(field: str, delta: int = 1) -> dict[str, Any]:
    """The generic counter step."""
    return {"action": "add", "field": field, "delta": delta}


def set_to(field: str, value: int) -> dict[str, Any]:
    """The generic counter set."""
    return {"action": "set", "field": field, "value": value}


SEQUENCES: dict[str, tuple[dict[str, Any], tuple[str, ...], list[Step]]] = {
    # (options, colours, steps)
    "spires": (
        {"solo": False},
        (),
        [
            ("Ann", add("towers.red", 2)),
            ("Bob", add("swords")),
            ("Cy", add("crowns")),
            ("Ann", add("quills", 2)),
            ("Bob", set_to("scroll_vp", 6)),
            ("Cy", add("towers.blue", -0)),
            ("Ann", add("towers.red", -1)),
        ],
    ),
    "spires-solo": (
        {"solo": True},
        (),
        [
            ("Ann", add("towers.green", 3)),
            ("Ann", add("crowns")),
            (None, add("discard.crowns")),
            (None, set_to("discard.swords", 2)),
            ("Ann", set_to("scroll_vp", 9)),
        ],
    ),
    "spqf": (
        {},
        (),
        [
            ("Ann", add("vp_tokens", 5)),
            ("Ann", add("civ_level")),
            (None, {"action": "next_turn"}),
            ("Bob", add("civ_level")),
            ("Bob", {"action": "first_token", "level": 1}),
            ("Cy", set_to("vp_cards", 2)),
            ("Bob", add("vp_tokens", -1)),
            (None, {"action": "last_card", "placed": True}),
            (None, {"action": "last_card", "placed": False}),
            ("Cy", set_to("monument_modifiers", 3)),
            (None, {"action": "next_turn"}),
        ],
    ),
    "spyrium": (
        {},
        (),
        [
            (None, {"action": "start_turn"}),
            ("Ann", add("money", 6)),
            ("Ann", {"action": "build", "vp": 3, "cost": 2}),
            ("Bob", {"action": "technique"}),
            ("Bob", {"action": "technique_vp", "number": 1, "vp": 4}),
            ("Cy", add("vp_track", 8)),
            ("Cy", {"action": "bonus", "choice": "worker"}),
            ("Ann", add("workers", -1)),
            ("Ann", set_to("residence", 3)),
            ("Bob", add("spyrium", 2)),
            (None, {"action": "start_turn"}),
            ("Ann", {"action": "build", "vp": 5, "cost": 1, "replace": 1}),
            ("Ann", {"action": "pay", "amount": 3}),
            ("Cy", {"action": "residence_vp"}),
            ("Cy", {"action": "technique", "beside": 1}),
        ],
    ),
    "speros": (
        {},
        ("green", "red", "blue"),
        [
            ("Ann", {"action": "explore", "terrain": "mountain", "encampments": 3, "vp": 2, "resources": ["gold"]}),
            (
                None,
                {"action": "explore", "terrain": "ocean", "encampments": 1, "vp": 1, "resources": ["iron", "crystal"]},
            ),
            ("Bob", {"action": "deploy", "card": 1, "kind": "minion"}),
            ("Bob", {"action": "deploy", "card": 1, "kind": "general"}),
            ("Bob", {"action": "move", "card": 1, "to": 2, "kind": "minion"}),
            ("Bob", {"action": "capture", "card": 2}),
            ("Bob", {"action": "remove", "card": 1, "kind": "general"}),
            (None, {"action": "next_turn"}),
            ("Bob", {"action": "attack", "card": 1}),
            ("Cy", {"action": "lead", "card": 1}),
            (None, {"action": "last_drawn", "drawn": True}),
            (None, {"action": "last_drawn", "drawn": False}),
            (None, {"action": "mastery", "number": 1, "vp": 6, "leaders": ["Ann", "Cy"]}),
            ("Cy", set_to("bonus_1", 5)),
            ("Cy", add("bonus_2", 2)),
        ],
    ),
}


def said_by(game_key: str) -> list[str]:
    """Every sentence the sequence of a game makes the table hear, in order: each action's own, then what it caused."""
    options, colours, steps = SEQUENCES[game_key]
    game = get_game(game_key.removesuffix("-solo"))
    names = NAMES[:1] if options.get("solo") else NAMES
    ctx = live.Context(names, game.options_model.model_validate(options), game.live, colours[: len(names)])
    state = game.live.start(len(names), ctx.options)
    sentences: list[str] = []
    for who, raw in steps:
        seat = names.index(who) if who is not None else None
        action = live.parse_action(game, raw, seat, strict=False)
        try:
            applied = live.apply(game, state, action, ctx)
        except InputErrors as refused:  # pragma: no cover - the sequence is meant to be played as the rules allow
            pytest.fail(f"{game_key}: {who} {raw} refused: {refused}")
        state = applied.state
        sentences += [live.describe(game, action, ctx), *applied.said]
    return sentences


@pytest.mark.parametrize("game_key", list(SEQUENCES))
def test_the_sequence_plays_every_kind_of_action(game_key: str) -> None:
    """Every action a game declares is in its sequence, so a new one is checked too."""
    game = get_game(game_key.removesuffix("-solo"))
    if game_key.endswith("-solo"):
        return
    played = {raw["action"] for _who, raw in SEQUENCES[game_key][2]}
    assert set(game.live.actions) <= played, set(game.live.actions) - played


@pytest.mark.parametrize("game_key", list(SEQUENCES))
def test_every_sentence_is_plain_words(game_key: str) -> None:
    """No "[", "]", "{", "}", "_" or a quote "'" (Python's lists, dicts, reprs and internal names; an apostrophe
    within a word is English), and never "table" for a player."""
    sentences = said_by(game_key)
    assert sentences
    wrong = [text for text in sentences if SYNTAX & set(text) or QUOTE.search(text) or TABLE.search(text)]
    assert not wrong, wrong


def test_a_table_wide_counter_is_said_by_its_own_name() -> None:
    """The generic counter text: "Discard pile crowns +1", not "table, discard pile crowns +1"."""
    game = get_game("spires")
    ctx = live.Context(("Ann",), game.options_model.model_validate({"solo": True}), game.live)
    action = live.parse_action(game, add("discard.crowns"), None, strict=True)
    label = game.live.label("discard.crowns")
    assert live.describe(game, action, ctx) == f"{label[:1].upper()}{label[1:]} +1"
    assert ctx.who(None) == "Everyone"
