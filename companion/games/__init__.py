"""The game registry: every game module, looked up by id."""

from __future__ import annotations

from companion.games import speros, spires, spqf, spyrium
from companion.games.base import Game

GAMES: dict[str, Game] = {game.id: game for game in (spqf.GAME, spyrium.GAME, spires.GAME, speros.GAME)}


def get_game(game_id: str) -> Game | None:
    """The game with this id, or None."""
    return GAMES.get(game_id)
