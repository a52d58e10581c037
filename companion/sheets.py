"""Blueprint for printed sheets that are not one play's: blank score pads (/games/<id>/pad.pdf) and the history report (/history/report.pdf)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, make_response, request
from pydantic import BaseModel, ConfigDict, ValidationError

from .games import get_game
from .games.base import Game, Pad
from .pdf import render_pdf
from .result_grid import Grid, result_grid

bp = Blueprint("sheets", __name__)


class PadQuery(BaseModel):
    """A blank pad's query: how many players (a whole number; the game says which counts it allows)."""

    model_config = ConfigDict(extra="ignore")

    players: int


def pad_options(game: Game, count: int) -> tuple[Any, str | None]:
    """The game's options for a blank pad of `count` players, or the reason that count can't play.

    A game whose options have a solo mode (Spires) plays one player solo: its pad is the solo pad.
    """
    options = game.options_model()
    error = game.player_count_error(count, options)
    if error and count == 1 and "solo" in type(options).model_fields:
        options = game.options_model.model_validate({"solo": True})
        error = game.player_count_error(count, options)
    return options, error


def blank_grid(pad: Pad, count: int) -> Grid:
    """The score pad grid of `count` unnamed players with every box empty: the same grid as a finished play's."""
    lines = [{"key": line.key, "label": line.label, "points": None, "why": ""} for line in pad.lines]
    players = [{"name": "", "total": None, "rank": 0, "breakdown": lines} for _ in range(count)]
    return result_grid({"players": players, "winners": []})


def _pdf_response(pdf: bytes, filename: str) -> Response:
    """A PDF shown in the browser, with an ETag so that a device that has it gets 304."""
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/games/<game_id>/pad.pdf")
def pad(game_id: str) -> Response:
    """A blank score pad to fill in by hand: the game's lines for ?players=N, empty boxes, its rules in small print."""
    game = get_game(game_id)
    if game is None or game.pad is None:
        abort(404, description="There is no score pad for that game.")
    try:
        query = PadQuery.model_validate(dict(request.args))
    except ValidationError:
        abort(
            422, description=f"Say how many players the pad is for: players={game.min_players} to {game.max_players}."
        )
    options, error = pad_options(game, query.players)
    if error:
        abort(422, description=error)
    sheet = game.pad(options)
    pdf = render_pdf(
        "print/pad.html",
        cache=True,
        game=game,
        pad=sheet,
        grid=blank_grid(sheet, query.players),
        rules={line.key: line.rule for line in sheet.lines},
        count=query.players,
    )
    return _pdf_response(pdf, f"{game.id}-pad-{query.players}-players.pdf")
