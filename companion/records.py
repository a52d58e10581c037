"""Reading and writing plays: create, tap a counter, undo, finish, and the stored result.

Views call these; each function that writes commits one transaction, the Change row with the state it changes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from .games import get_game
from .games.base import FieldError, Game, InputErrors, Result, read_path, set_counter
from .models import FINISHED, Change, Play, Player, Seat, utcnow

# A tap lost to another device's simultaneous tap is tried again this many times, after a short random pause
# (growing with each attempt) so that two devices that collided once don't collide again in lockstep.
TAP_ATTEMPTS = 10
TAP_BACKOFF_SECONDS = 0.004


class StaleWrite(Exception):
    """Another device changed the same row first."""


@dataclass(frozen=True)
class Tap:
    """One tap on a counter: step it by `delta`, or set it to `value`."""

    path: str
    delta: int | None = None
    value: Any = None

    def new_value(self, state: dict[str, Any]) -> Any:
        """The counter's value after this tap, worked out from the state as it is now."""
        if self.delta is None:
            return self.value
        current = read_path(state, self.path)
        if isinstance(current, bool) or not isinstance(current, int):
            raise InputErrors([FieldError(self.path, "There is no such counter.")])
        return current + self.delta


def game_of(play: Play) -> Game:
    """The rules module of a stored play."""
    game = get_game(play.game)
    if game is None:
        raise LookupError(f"Unknown game {play.game!r}")
    return game


def find_or_add_player(session: Session, name: str) -> Player:
    """The roster entry with this name (case-insensitive), added when new."""
    player = session.exec(select(Player).where(func.lower(Player.name) == name.lower())).first()
    if player is None:
        player = Player(name=name)
        session.add(player)
        session.flush()
    return player


def roster(session: Session) -> list[Player]:
    """Every player of the group, by name."""
    return list(session.exec(select(Player).order_by(func.lower(Player.name))))


def create_play(
    session: Session,
    game: Game,
    players: Sequence[Any],
    options: Any,
    colours: Sequence[str] = (),
    *,
    finished: Result | None = None,
    source: str = "tracker",
    played_at: datetime | None = None,
    notes: str = "",
) -> Play:
    """Save a new play; with `finished`, save it as a finished play with that result."""
    play = Play(
        game=game.id,
        options=options.model_dump(mode="json"),
        rules_version=game.rules_version,
        source=source,
        notes=notes,
    )
    if played_at is not None:
        play.played_at = played_at
    session.add(play)
    session.flush()
    for position, model in enumerate(players):
        player = find_or_add_player(session, model.name)
        seat = Seat(
            play_id=play.id,
            player_id=player.id,
            position=position,
            colour=colours[position] if position < len(colours) else "",
            state=model.model_dump(mode="json", exclude={"name"}),
        )
        session.add(seat)
    session.flush()
    session.refresh(play)
    if finished is not None:
        _store_result(play, finished)
    session.commit()
    return play


def get_play(session: Session, play_id: int) -> Play | None:
    """A play with its seats, or None."""
    return session.get(Play, play_id)


def validate_play(play: Play, states: dict[int, dict[str, Any]] | None = None, options: Any = None) -> tuple:
    """Validate every seat and the options through the game: (players, options) or InputErrors."""
    game = game_of(play)
    states = states or {}
    raw_players = [{"name": seat.player.name, **states.get(seat.id, seat.state)} for seat in play.seats]
    return game.validate(raw_players, play.options if options is None else options)


def live_result(play: Play) -> Result:
    """The score as it stands now, from the tracked state."""
    players, options = validate_play(play)
    return game_of(play).score(players, options)


def _local_errors(errors: InputErrors, prefix: str) -> InputErrors:
    """Keep the errors under `prefix` (e.g. 'players[1].'), with the prefix taken off."""
    local = [FieldError(e.field.removeprefix(prefix), e.message) for e in errors.errors if e.field.startswith(prefix)]
    return InputErrors(local or errors.errors)


def tap_seat(session: Session, play: Play, seat: Seat, tap: Tap, device: str) -> None:
    """Apply one tap to a seat's counter, saving a Change with it; a tap lost to another device is redone."""
    _apply_tap(
        session,
        play,
        seat,
        "state",
        tap,
        model=game_of(play).player_model,
        fixed={"name": seat.player.name},
        validate=lambda new_state: validate_play(play, {seat.id: new_state}),
        error_prefix=f"players[{seat.position}].",
        change=Change(play_id=play.id, seat_id=seat.id, field=tap.path, device=device),
    )


def tap_option(session: Session, play: Play, tap: Tap, device: str) -> None:
    """Apply one tap to a play-wide counter (e.g. the solo discard pile), saving a Change with it."""
    _apply_tap(
        session,
        play,
        play,
        "options",
        tap,
        model=game_of(play).options_model,
        fixed={},
        validate=lambda new_options: validate_play(play, options=new_options),
        error_prefix="options.",
        change=Change(play_id=play.id, field=f"options.{tap.path}", device=device),
    )


def _apply_tap(
    session: Session,
    play: Play,
    row: Seat | Play,
    column: str,
    tap: Tap,
    *,
    model: type,
    fixed: dict[str, Any],
    validate: Callable[[dict[str, Any]], Any],
    error_prefix: str,
    change: Change,
) -> None:
    """Set a counter in a JSON column, validated, versioned and logged in one transaction."""
    for attempt in range(TAP_ATTEMPTS):
        state = getattr(row, column)
        old_value = read_path(state, tap.path)
        value = tap.new_value(state)
        new_state = set_counter(model, state, tap.path, value, **fixed)
        try:
            validate(new_state)
        except InputErrors as errors:
            raise _local_errors(errors, error_prefix) from None
        try:
            _write_versioned(session, row, column, new_state)
        except StaleWrite:
            session.rollback()
            time.sleep(random.uniform(0, TAP_BACKOFF_SECONDS * (attempt + 1)))
            session.refresh(row)
            continue
        change.old, change.new = old_value, value
        session.add(change)
        session.commit()
        return
    raise InputErrors([FieldError(tap.path, "Another device keeps changing this. Try again.")])


def last_change(session: Session, play: Play) -> Change | None:
    """The newest tap of a play that has not been undone."""
    query = (
        select(Change)
        .where(Change.play_id == play.id, col(Change.undone).is_(False))
        .order_by(col(Change.id).desc())
    )
    return session.exec(query).first()


def undo_last(session: Session, play: Play, device: str) -> Change | None:
    """Put back the value the newest tap replaced; returns that tap, or None when nothing is left."""
    change = last_change(session, play)
    if change is None:
        return None
    if change.seat_id is None:
        tap_option(session, play, Tap(change.field.removeprefix("options."), value=change.old), device)
    else:
        seat = session.get(Seat, change.seat_id)
        tap_seat(session, play, seat, Tap(change.field, value=change.old), device)
    # The undo wrote a Change of its own: mark both so that the next undo goes further back.
    session.exec(
        update(Change)
        .where(col(Change.id).in_([change.id, _newest_change_id(session, play)]))
        .values(undone=True)
    )
    session.commit()
    return change


def _newest_change_id(session: Session, play: Play) -> int:
    """The id of the play's newest Change."""
    return session.exec(select(func.max(Change.id)).where(Change.play_id == play.id)).one()


def finish_play(session: Session, play: Play) -> Result:
    """Score the tracked state with the official rules and store the result; InputErrors if it can't."""
    result = live_result(play)
    _store_result(play, result)
    session.add(play)
    session.commit()
    return result


def _store_result(play: Play, result: Result) -> None:
    """Copy totals, ranks and breakdowns onto the seats, and the play-wide outcome onto the play."""
    for seat, scored in zip(play.seats, result.players, strict=True):
        seat.total = scored.total
        seat.rank = scored.rank
        seat.breakdown = [dict(line.__dict__) for line in scored.lines]
    per_player = {key for p in result.players for key in p.extra}
    play.extra = {**result.extra, "players": [p.extra for p in result.players]} if per_player else dict(result.extra)
    play.tiebreak = result.tiebreak
    play.status = FINISHED
    play.finished_at = play.finished_at or utcnow()


def stored_result(play: Play) -> dict[str, Any]:
    """A finished play's result in the JSON API's shape, read back from the seats."""
    extra = dict(play.extra)
    per_player = extra.pop("players", [{} for _ in play.seats])
    players = [
        {
            "name": seat.player.name,
            "total": seat.total,
            "rank": seat.rank,
            "breakdown": seat.breakdown or [],
            **more,
        }
        for seat, more in zip(play.seats, per_player, strict=True)
    ]
    answer = {
        "game": play.game,
        "players": players,
        "winners": [p["name"] for p in players if p["rank"] == 1],
        "tiebreak": play.tiebreak,
    }
    answer.update(extra)
    return answer


def finished_plays(session: Session, limit: int = 50, offset: int = 0) -> list[Play]:
    """Finished plays, newest first."""
    query = (
        select(Play)
        .where(Play.status == FINISHED)
        .order_by(col(Play.played_at).desc(), col(Play.id).desc())
        .offset(offset)
        .limit(limit)
    )
    return list(session.exec(query))


def plays_in_progress(session: Session) -> list[Play]:
    """Plays still being tracked, newest first."""
    query = select(Play).where(Play.status != FINISHED).order_by(col(Play.created_at).desc())
    return list(session.exec(query))


def _write_versioned(session: Session, row: Seat | Play, column: str, value: dict[str, Any]) -> None:
    """Write one JSON column only if nobody else wrote the row since we read it."""
    table = type(row)
    written = session.exec(
        update(table)
        .where(col(table.id) == row.id, col(table.version) == row.version)
        .values({column: value, "version": row.version + 1})
    )
    if written.rowcount != 1:
        raise StaleWrite
    set_committed_value(row, column, value)
    set_committed_value(row, "version", row.version + 1)
