"""Jinja filters shared by the pages and the score sheet (formatting only, no rules)."""

from __future__ import annotations

from flask import Flask

from .games import get_game
from .games.base import NAME_MAX


def game_name(game_id: str) -> str:
    """The display name of a game id."""
    game = get_game(game_id)
    return game.name if game else game_id


def signed(points: int | None) -> str:
    """Points with their sign, using a true minus: +5, −4, 0."""
    if points is None:
        return ""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


def init_app(app: Flask) -> None:
    """Register the filters; keep the rendered HTML free of template-only blank lines."""
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["name_max"] = NAME_MAX
    app.add_template_filter(game_name)
    app.add_template_filter(signed)
