"""Helpers the table-driven rules tests share."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import Game, InputErrors


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
