"""Reading and writing plays: create, tap a counter, undo, finish, and the stored result.

Views call these; each function that writes commits one transaction, the Change row with the state it changes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import func, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from .games import get_game
from .games.base import FieldError, Game, InputErrors, Result, read_path, set_counter
from .models import ABANDONED, FINISHED, IN_PROGRESS, Change, Play, Player, Seat, utcnow

T = TypeVar("T")

# A tap lost to another device's simultaneous tap is tried again this many times, after a short random pause
# (growing with each attempt) so that two devices that collided once don't collide again in lockstep.
TAP_ATTEMPTS = 10
TAP_BACKOFF_SECONDS = 0.004


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
            name=model.name,
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
    raw_players = [{"name": seat.name, **states.get(seat.id, seat.state)} for seat in play.seats]
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
    """Apply one tap to a seat's counter, with its Change, in one transaction."""
    _in_play_transaction(session, play, lambda: _stage_tap(session, play, seat, tap, device))


def tap_option(session: Session, play: Play, tap: Tap, device: str) -> None:
    """Apply one tap to a play-wide counter (e.g. the solo discard pile), with its Change, in one transaction."""
    _in_play_transaction(session, play, lambda: _stage_tap(session, play, None, tap, device))


def undo_last(session: Session, play: Play, device: str) -> Change | None:
    """Put back the value the newest tap replaced; returns that tap, or None when nothing is left."""

    def stage() -> Change | None:
        """Stage the undo of the newest tap as read in this attempt."""
        change = last_change(session, play)
        if change is None:
            return None
        seat = next((s for s in play.seats if s.id == change.seat_id), None)
        path = change.field if seat is not None else change.field.removeprefix("options.")
        undo = _stage_tap(session, play, seat, Tap(path, value=change.old), device)
        # Both stay out of the next undo, which then goes one tap further back.
        change.undone = True
        if undo is not None:
            undo.undone = True
        session.add(change)
        return change

    return _in_play_transaction(session, play, stage)


def last_change(session: Session, play: Play) -> Change | None:
    """The newest tap of a play that has not been undone."""
    query = (
        select(Change)
        .where(Change.play_id == play.id, col(Change.undone).is_(False))
        .order_by(col(Change.id).desc())
    )
    return session.exec(query).first()


def _stage_tap(session: Session, play: Play, seat: Seat | None, tap: Tap, device: str) -> Change | None:
    """Validate a tap against the whole play and stage the new state and its Change (not yet committed).

    A tap that changes nothing (the same number typed again) stages nothing, so it is no step for undo.
    """
    if play.status != IN_PROGRESS:
        # Another device finished the play, or put it aside, while this tap was on its way.
        raise InputErrors([FieldError(tap.path, "This play is no longer in progress.")])
    game = game_of(play)
    if seat is not None:
        state, model, fixed, prefix = seat.state, game.player_model, {"name": seat.name}, f"players[{seat.position}]."
        field = tap.path
    else:
        state, model, fixed, prefix = play.options, game.options_model, {}, "options."
        field = f"options.{tap.path}"
    old_value = read_path(state, tap.path)
    value = tap.new_value(state)
    new_state = set_counter(model, state, tap.path, value, **fixed)
    if value == old_value:
        return None
    try:
        if seat is not None:
            validate_play(play, {seat.id: new_state})
        else:
            validate_play(play, options=new_state)
    except InputErrors as errors:
        raise _local_errors(errors, prefix) from None
    if seat is not None:
        seat.state = new_state
        session.add(seat)
    else:
        play.options = new_state
    change = Change(
        play_id=play.id, seat_id=seat.id if seat else None, field=field, old=old_value, new=value, device=device
    )
    session.add(change)
    return change


def _in_play_transaction(session: Session, play: Play, stage: Callable[[], T | None]) -> T | None:
    """Stage a write and commit it only if no other device wrote to this play since it was read; else redo it.

    Checks such as "the deck has only 8 crowns" span every seat, so the whole play is the unit of concurrency:
    its version moves on with every write, on one app server or several sharing a database. The play's row is
    the first one each write locks, so two writes never hold rows the other waits for (no deadlock).
    """
    for attempt in range(TAP_ATTEMPTS):
        claimed = session.exec(
            update(Play)
            .where(col(Play.id) == play.id, col(Play.version) == play.version)
            .values(version=play.version + 1)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount == 1:
            try:
                staged = stage()
            except Exception:
                session.rollback()
                raise
            if staged is None:
                session.rollback()
                return None
            set_committed_value(play, "version", play.version + 1)
            session.commit()
            return staged
        session.rollback()
        time.sleep(random.uniform(0, TAP_BACKOFF_SECONDS * (attempt + 1)))
        session.refresh(play)
    raise InputErrors([FieldError("", "Another device keeps changing this play. Try again.")])


def finish_play(session: Session, play: Play) -> Result | None:
    """Score the tracked state with the official rules and store the result; InputErrors if it can't.

    Under the play's version, like a tap: a tap that lands meanwhile makes the scoring run again on fresh state.
    """

    def stage() -> Result | None:
        """Score and store, unless another device finished the play (or put it aside) first."""
        if play.status != IN_PROGRESS:
            return None
        result = live_result(play)
        _store_result(play, result)
        session.add(play)
        return result

    return _in_play_transaction(session, play, stage)


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
            "name": seat.name,
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
    return _plays_with_status(session, IN_PROGRESS)


def abandoned_plays(session: Session) -> list[Play]:
    """Plays put aside before their end, newest first."""
    return _plays_with_status(session, ABANDONED)


def _plays_with_status(session: Session, status: str) -> list[Play]:
    """Plays with this status, newest first."""
    query = select(Play).where(Play.status == status).order_by(col(Play.created_at).desc())
    return list(session.exec(query))


def put_aside(session: Session, play: Play, aside: bool) -> None:
    """Take a play in progress off the list (aside=True), or bring it back to go on with it."""
    before, after = (IN_PROGRESS, ABANDONED) if aside else (ABANDONED, IN_PROGRESS)

    def stage() -> Play | None:
        """Change the status, unless another device already did (or finished the play)."""
        if play.status != before:
            return None
        play.status = after
        session.add(play)
        return play

    _in_play_transaction(session, play, stage)
