"""Blueprint for the JSON API under /api/v1: score a finished game, save it as a play, read a play back.

The contract (stable: other tools and our own tests depend on it):

- POST /api/v1/score/<game> with {"players": [...], "options": {...}} (players in turn order, first player
  first; options optional) answers 200 with Result.to_dict(): {"game", "players": [{"name", "total", "rank",
  "breakdown": [{"key", "label", "points", "why"}]}], "winners", "tiebreak"} plus any game extras (Spires solo:
  "appraisal", "appraisal_text"), players in request order.
- POST /api/v1/plays with {"game", "players", "options"?, "played_at"?, "notes"?} scores and saves a finished
  play and answers 201 with {"id", "url", "result"} and a Location header. `url` and Location are
  site-relative ("/plays/7"), so they stay right behind any proxy or LAN address; join them to the address you
  called. played_at is ISO-8601 (a date, or a date and time); it is stored in UTC, and a time without an
  offset is taken as UTC.
- GET /api/v1/plays/<id> answers {"id", "url", "game", "status", "source", "rules_version", "played_at" (ISO,
  UTC), "notes", "players" (each player's name and input as validated, defaults filled in), "options",
  "result" (the score answer, null while the play is still being tracked)}.
- Errors answer {"errors": [{"field": "players[1].towers.red", "message": "..."}]}: 422 for bad input (field ""
  for the body as a whole, e.g. malformed JSON), 404 for an unknown game or play, 415 unless the body is sent
  as application/json. The API is exempt from CSRF (security.py) because of that last rule.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar

from flask import Blueprint, Response, jsonify, make_response, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from . import records
from .db import get_session
from .games import GAMES, get_game
from .games.base import FieldError, Game, InputErrors, Result, nul_errors, validation_errors
from .models import FINISHED, ID_IN_URL, NOTES_MAX, Play

bp = Blueprint("api", __name__, url_prefix="/api/v1")

JSON = "application/json"
Envelope = TypeVar("Envelope", bound=BaseModel)


class Refused(Exception):
    """A request the API answers with an HTTP error status and field messages."""

    def __init__(self, status: int, errors: list[FieldError]):
        """Keep the status to answer with and the field errors."""
        super().__init__(status, errors)
        self.status = status
        self.errors = errors


class ScoreRequest(BaseModel):
    """The body of POST /score/<game>: the game's raw input; the game itself validates what is inside."""

    model_config = ConfigDict(extra="forbid", strict=True)

    players: list[Any]
    options: dict[str, Any] | None = None


class PlayRequest(ScoreRequest):
    """The body of POST /plays: a game's raw input plus the play's date and notes."""

    game: str
    played_at: datetime | None = None
    notes: str | None = Field(None, max_length=NOTES_MAX)

    @field_validator("played_at", mode="before")
    @classmethod
    def _iso_8601(cls, value: Any) -> datetime | None:
        """ISO-8601 text only: pydantic alone would also take a number of seconds, which nobody means."""
        if value is None:
            return None
        if isinstance(value, str):
            try:
                when = datetime.fromisoformat(value)
                return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
            except (ValueError, OverflowError):  # OverflowError: year 1 with an offset east of UTC
                pass
        raise ValueError("Give an ISO-8601 date or date and time, e.g. 2024-05-01T20:30:00+02:00.")


@bp.errorhandler(Refused)
def _refused(error: Refused) -> Response:
    """The errors shape with the refusal's status."""
    return make_response(jsonify(InputErrors(error.errors).to_dict()), error.status)


@bp.errorhandler(InputErrors)
def _invalid(error: InputErrors) -> Response:
    """Input the game can't score: 422 with a message per field."""
    return make_response(jsonify(error.to_dict()), 422)


def _body(model: type[Envelope]) -> Envelope:
    """The JSON body validated into the envelope model, or Refused (415 not JSON, 422 malformed or invalid)."""
    if request.mimetype != JSON:
        raise Refused(415, [FieldError("", f"Send the body as {JSON}.")])
    try:
        body = model.model_validate_json(request.get_data())
    except ValidationError as exc:
        raise Refused(422, validation_errors(exc)) from None
    if errors := nul_errors(body.model_dump()):
        raise Refused(422, errors)
    return body


def _game(game_id: str) -> Game:
    """The registered game, or Refused 404 naming the games there are."""
    game = get_game(game_id)
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise Refused(404, [FieldError("game", f"Unknown game {game_id!r}; the games are {known}.")])
    return game


def _score(game: Game, body: ScoreRequest) -> tuple[list[Any], Any, Result]:
    """Validate the players and options through the game and score them (InputErrors when refused)."""
    players, options = game.validate(body.players, body.options)
    return players, options, game.score(players, options)


def _iso(when: datetime) -> str:
    """A stored time in ISO-8601; the database may drop the zone, and we store UTC."""
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).isoformat()


def _play_url(play: Play) -> str:
    """The play's page, site-relative."""
    return url_for("plays.show_play", play_id=play.id)


@bp.post("/score/<game_id>")
def score(game_id: str) -> Response:
    """Score a finished game by the official rules without saving it."""
    game = _game(game_id)
    _players, _options, result = _score(game, _body(ScoreRequest))
    return jsonify(result.to_dict())


@bp.post("/plays")
def create_play() -> Response:
    """Score a finished game and save it to the history as a finished play."""
    body = _body(PlayRequest)
    game = _game(body.game)
    players, options, result = _score(game, body)
    play = records.create_play(
        get_session(),
        game,
        players,
        options,
        finished=result,
        source="api",
        played_at=body.played_at,
        notes=body.notes or "",
    )
    response = make_response(jsonify(id=play.id, url=_play_url(play), result=result.to_dict()), 201)
    response.headers["Location"] = _play_url(play)
    return response


@bp.get(f"/plays/<{ID_IN_URL}:play_id>")
def show_play(play_id: int) -> Response:
    """A saved play: its inputs, its result, when it was played and its notes."""
    play = records.get_play(get_session(), play_id)
    if play is None:
        raise Refused(404, [FieldError("id", f"There is no play {play_id}.")])
    return jsonify(
        id=play.id,
        url=_play_url(play),
        game=play.game,
        status=play.status,
        source=play.source,
        rules_version=play.rules_version,
        played_at=_iso(play.played_at),
        notes=play.notes,
        players=[{"name": seat.name, **seat.state} for seat in play.seats],
        options=play.options,
        result=records.stored_result(play) if play.status == FINISHED else None,
    )
