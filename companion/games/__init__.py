"""The game registry: every game module, looked up by id."""

from __future__ import annotations

from companion.games import speros, spires, spqf, spyrium
from companion.games.base import Game

GAMES: dict[str, Game] = {game.id: game for game in (spqf.GAME, spyrium.GAME, spires.GAME, speros.GAME)}


def get_game(game_id: str) -> Game | None:
    """The game with this id, or None."""
    return GAMES.get(game_id)


def game_name(game_id: str) -> str:
    """A game's name, or its id for a game no longer known (a play imported from a newer version)."""
    game = get_game(game_id)
    return game.name if game else game_id
