"""Helpers the table-driven rules tests share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from companion.games.base import Game, InputErrors
from companion.games.speros import RESOURCES


def player(name: str, **state: Any) -> dict[str, Any]:
    """A raw player as the JSON API receives it."""
    return {"name": name, **state}


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
