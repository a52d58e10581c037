"""Reading and writing plays: create, apply a game action, undo, finish, and the stored result.

Views and the API call these; each function that writes commits one transaction: the play's new live state with
its Change row. A play's live state is each seat's `state` plus the table's, kept in `play.extra["table"]`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from pydantic import ValidationError
from sqlalchemy import bindparam, delete, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import joinedload
from sqlmodel import Session, col, select

from companion.games import get_game, live
from companion.games.base import FieldError, Game, InputErrors, Result, name_key, validation_errors, with_value
from companion.games.live import Action, Applied, Context, State
from companion.games.wording import figure, utc
from companion.language import _, pgettext
from companion.store import history_version, live_writes, write_turns
from companion.store.models import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    LOCATION_MAX,
    Change,
    Location,
    Play,
    Player,
    Seat,
    saved_id,
    utcnow,
)

T = TypeVar("T")

# The key of play.extra that holds the table's live state (whose turn it is, a discard pile, ...).
TABLE = "table"
# In a play's extra: when it was put aside (while it is), and how long it was put aside before (seconds).
ASIDE_SINCE = "aside_since"
ASIDE_SECONDS = "aside_seconds"
# ... and each time it was put aside, [since, until] (ISO, UTC): the turn it fell in leaves it out. A play put
# aside before the spans were kept has only the total (or a part of it): that part can't be placed in a turn.
ASIDE_SPANS = "aside_spans"
# The time put aside stays with the play once finished or corrected, as its duration and turn times leave it out.
ASIDE_KEPT = (ASIDE_SECONDS, ASIDE_SPANS)

# session.info's note of the play claimed by claim_play, with the transaction that holds the claim: a write in that
# same transaction needs no claim of its own; after a commit or rollback the note no longer matches.
CLAIM = "claimed_play"

# session.info's note of the Change an action just saved: the tracker's answer adds it to the log without reading
# it back (saved_change).
SAVED = "saved_change"

# session.info's note of the play's state as the game judged it for an action that saved nothing (the same number
# typed again) or that the rules refused: the answer, which reads the play again, scores that state without
# validating it a second time while the play still holds it (judged_state).
JUDGED = "judged_state"


class NotInProgress(Exception):
    """An action on a play another device finished or put aside meanwhile: the tracker shows the play as it is, the
    API answers 409."""


class AlreadySaved(Exception):
    """An action whose client id (Idempotency-Key) a saved Change already holds: a retry, answered as the first was
    and applied no second time."""

    def __init__(self, change: Change) -> None:
        super().__init__(change.client_id)
        self.change = change


@dataclass(frozen=True)
class Sent:
    """What the device says of an action besides the action itself: the id it gave it (the same id is the same
    action) and when it was made, when that was earlier than now (a tap kept on the device while offline)."""

    client_id: str | None = None
    made_at: datetime | None = None


NOW = Sent()


@dataclass(frozen=True)
class Acted:
    """An action saved: the game's answer (the new state, what it said, the parts it changed) and the play's context
    it was applied in, so the answer scores the new state without reading or validating the play again."""

    applied: Applied
    ctx: Context


def game_of(play: Play) -> Game:
    """The rules module of a stored play."""
    game = get_game(play.game)
    if game is None:
        raise LookupError(f"Unknown game {play.game!r}")
    return game


def find_or_add_player(session: Session, name: str) -> Player:
    """The roster entry for this name (the same player however it is spelled: name_key), added when new."""
    return _find_or_add(session, Player, name)


def find_or_add_location(session: Session, name: str) -> Location | None:
    """The group's place of this name (the same place however it is spelled: name_key), added when new; None for
    a name of nothing but spaces (no place said)."""
    name = " ".join(name.split())[:LOCATION_MAX]
    return _find_or_add(session, Location, name) if name else None


def locations(session: Session) -> list[Location]:
    """Every place of the group, by name."""
    return list(session.exec(select(Location).order_by(col(Location.key))))


Named = TypeVar("Named", Player, Location)


def _find_or_add(session: Session, table: type[Named], name: str) -> Named:
    """The row of this name_key, inserted when new.

    Insert-or-select: when another request adds the same new name at the same moment, this one finds theirs.
    """
    key = name_key(name)
    row = session.exec(select(table).where(table.key == key)).first()
    if row is None:
        dialect = session.get_bind().dialect.name
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        session.exec(insert(table).values(name=name, key=key, created_at=utcnow()).on_conflict_do_nothing())
        row = session.exec(select(table).where(table.key == key)).one()
    return row


def roster(session: Session) -> list[Player]:
    """Every player of the group, by name."""
    return list(session.exec(select(Player).order_by(col(Player.key))))


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
    location: str = "",
    duration_min: int | None = None,
) -> Play:
    """Save a new play (where it is played, if said); with `finished`, save it as a finished play with that result
    (and the minutes it took, if said)."""
    place = find_or_add_location(session, location)
    play = Play(
        game=game.id,
        options=options.model_dump(mode="json"),
        rules_version=game.rules_version,
        source=source,
        notes=notes,
        location_id=None if place is None else place.id,
        duration_min=duration_min,
    )
    if played_at is not None:
        play.played_at = played_at
    start = game.live.start(len(players), options) if finished is None else None
    if start is not None:
        play.extra = {TABLE: start["table"]}
    session.add(play)
    session.flush()
    for position, model in enumerate(players):
        player = find_or_add_player(session, model.name)
        seat = Seat(
            play_id=saved_id(play),
            player_id=saved_id(player),
            name=model.name,
            position=position,
            colour=colours[position] if position < len(colours) else "",
            state=start["seats"][position] if start is not None else model.model_dump(mode="json", exclude={"name"}),
        )
        session.add(seat)
    session.flush()
    session.refresh(play)
    if finished is not None:
        _store_result(play, finished)
        history_version.move_on(session)
    session.commit()
    return play


def get_play(session: Session, play_id: int) -> Play | None:
    """A play with its seats, or None."""
    return session.exec(_PLAY_WITH_SEATS, params={"play_id": play_id}).unique().first()


_SEATS = joinedload(Play.seats)  # type: ignore[arg-type]
# A play with its seats in one round trip (where the relationship's own loading takes two), each seat's roster
# player left to be read if asked for: only the exports ask (the tracker, the API and the result name a seat as
# played). Built once, as a tap and a sync answer each run it: SQLAlchemy keeps its cache key and compiled form.
_PLAY_WITH_SEATS = (
    select(Play).where(col(Play.id) == bindparam("play_id")).options(_SEATS, _SEATS.lazyload(Seat.player))  # type: ignore[arg-type]
)
_CLAIMED_PLAY = _PLAY_WITH_SEATS.execution_options(populate_existing=True)


def claim_play(session: Session, play_id: int) -> Play | None:
    """Begin a write on a play: claim it and read it with its seats under that claim; None when there is no such play.

    The action, undo or finish that follows in this transaction then writes without claiming and reading the play
    a second time (the tap's main cost after the commit itself).
    """
    if not _claim(session, play_id):
        session.rollback()
        return None
    play = _read_claimed(session, play_id)
    session.info[CLAIM] = (play_id, session.get_transaction())
    return play


def live_context(play: Play) -> Context:
    """The players' names and the validated options of a tracked play (InputErrors if the options no longer hold)."""
    game = game_of(play)
    try:
        options = game.options_model.model_validate(play.options)
    except ValidationError as exc:
        raise InputErrors(validation_errors(exc, "options")) from None
    return Context(
        tuple(seat.name for seat in play.seats), options, game.live, tuple(seat.colour for seat in play.seats)
    )


def live_state(play: Play, ctx: Context) -> State:
    """The play's live state: the table's and every seat's, in turn order.

    What was saved lies over the start state, so a field a later version of a game adds has its start value in
    plays begun before it (and a Spires solo play begun before tables existed finds its discard pile).
    """
    table = {**ctx.live.start_table(ctx.options), **play.extra.get(TABLE, {})}
    return {"table": table, "seats": [{**ctx.live.start_seat(ctx.options), **seat.state} for seat in play.seats]}


def standing(play: Play) -> live.Standing:
    """The live state scored as it stands now (InputErrors while it can't be scored)."""
    ctx = live_context(play)
    return live.standing(game_of(play), live_state(play, ctx), ctx)


def judged_state(session: Session, play: Play, state: State, ctx: Context) -> live.Checked | None:
    """The game's verdict on the play's state that an action of this session left (and forget it), while `state`
    and `ctx`, read again since, are still the state and context it judged; else None."""
    note = session.info.pop(JUDGED, None)
    if note is None or note[0] != play.id or note[1] is None:
        return None
    checked: live.Checked = note[1]
    # Another device's write may have come between the action's rollback and this read: then it is judged anew.
    return checked if checked.state == state and checked.ctx == ctx else None


def seat_index(play: Play, seat_id: int) -> int | None:
    """The turn-order position of the seat with this id in this play, or None."""
    return next((i for i, seat in enumerate(play.seats) if seat.id == seat_id), None)


def seat_named(play: Play, name: Any) -> int:
    """The turn-order position of the player with this name (as played, case-insensitive), or InputErrors."""
    if isinstance(name, str):
        for index, seat in enumerate(play.seats):
            if name_key(seat.name) == name_key(name):
                return index
    names = ", ".join(seat.name for seat in play.seats)
    said = _("No player %(name)s in this play; the players are %(names)s.", name=repr(name), names=names)
    raise InputErrors([FieldError("player", said)])


def act(
    session: Session,
    play: Play,
    raw: dict[str, Any],
    seat: int | None,
    device: str,
    *,
    strict: bool,
    sent: Sent = NOW,
) -> Acted | None:
    """Apply one game action (raw name and parameters) for a seat or the table, with its Change, in one transaction.

    None when the action changed nothing (the same number typed again): that is no step for undo. AlreadySaved when
    `sent.client_id` names an action saved before: nothing is applied again.
    """

    def stage() -> Acted | None:
        """Parse and apply the action to the state as read in this attempt, and stage what it changed."""
        _refuse_if_saved_before(session, play, sent.client_id)
        _refuse_unless_in_progress(play)
        ctx = live_context(play)
        action = live.parse_action(game_of(play), raw, seat, strict=strict)
        applied = _stage_action(session, play, ctx, action, device, sent)
        return Acted(applied, ctx) if applied else None

    return _in_play_transaction(session, play, stage)


def _refuse_unless_in_progress(play: Play) -> None:
    """Another device finished the play, or put it aside, while this action was on its way."""
    if play.status != IN_PROGRESS:
        raise NotInProgress(_("This play is no longer in progress."))


_SAVED_WITH_ID = select(Change).where(
    col(Change.play_id) == bindparam("play_id"), col(Change.client_id) == bindparam("client_id")
)
# The newest row's time: rows are dated in the order they are saved (_when_made), so the last id holds the latest.
_NEWEST_AT = (
    select(col(Change.at)).where(col(Change.play_id) == bindparam("play_id")).order_by(col(Change.id).desc()).limit(1)
)


def _refuse_if_saved_before(session: Session, play: Play, client_id: str | None) -> None:
    """Read under the play's claim, so that the same id sent twice at once is still applied once."""
    if client_id is None:
        return
    saved = session.exec(_SAVED_WITH_ID, params={"play_id": play.id, "client_id": client_id}).first()
    if saved is not None:
        raise AlreadySaved(saved)


def _when_made(session: Session, play: Play, made_at: datetime | None) -> datetime:
    """When an action was made, by the server's clock: the device's time, never in the future and never before the
    play's newest action (its log stays in order, and a turn never lasts less than nothing)."""
    now = utcnow()
    if made_at is None or utc(made_at) >= now:
        return now
    newest = session.exec(_NEWEST_AT, params={"play_id": play.id}).first()
    return max(utc(made_at), utc(newest) if newest is not None else utc(play.created_at))


def _stage_action(
    session: Session, play: Play, ctx: Context, action: Action, device: str, sent: Sent = NOW
) -> Applied | None:
    """Apply the action through the game and stage the new state and its Change (not yet committed)."""
    game = game_of(play)
    before = live_state(play, ctx)
    try:
        applied = live.apply(game, before, action, ctx)
    except live.Refused as refused:
        session.info[JUDGED] = (play.id, refused.before)
        raise
    parts = live.changed_parts(before, applied.state)
    if not parts:
        session.info[JUDGED] = (play.id, applied.checked)
        return None
    _store_state(session, play, applied.state, parts)
    change = Change(
        play_id=saved_id(play),
        seat_id=play.seats[action.seat].id if action.seat is not None else None,
        field=action.name,
        old=parts,
        # "named": the text was said knowing the state before (the card's terrain); the log keeps it as it is.
        new={
            "action": action.to_dict(ctx),
            "text": live.describe(game, action, ctx, before),
            "named": True,
            "said": list(applied.said),
        },
        at=_when_made(session, play, sent.made_at),
        device=device,
        client_id=sent.client_id,
    )
    session.info[SAVED] = live_writes.add_change(session, change)
    return replace(applied, changed=parts)


def _store_state(session: Session, play: Play, state: State, parts: dict[str, Any]) -> None:
    """Write the parts of the live state that changed: the table onto the play, each changed seat's state."""
    if "table" in parts:
        live_writes.set_extra(session, play, {**play.extra, TABLE: state["table"]})
    for index in parts.get("seats", {}):
        live_writes.set_state(session, play.seats[int(index)], state["seats"][int(index)])


def undo_last(session: Session, play: Play, device: str, sent: Sent = NOW) -> Change | None:
    """Take back the newest action whole, with all it caused; returns its Change, or None when nothing is left.

    AlreadySaved (holding the undo's own Change) when `sent.client_id` names an undo saved before."""

    def stage() -> Change | None:
        """Stage the undo of the newest action as read in this attempt."""
        _refuse_if_saved_before(session, play, sent.client_id)
        _refuse_unless_in_progress(play)
        change = last_change(session, play)
        if change is None:
            return None
        ctx = live_context(play)
        state = live_state(play, ctx)
        restored = live.restore(state, parts_before(play, change, state))
        parts = live.changed_parts(state, restored)
        _store_state(session, play, restored, parts)
        # Both stay out of the next undo, which then goes one action further back.
        live_writes.mark_undone(session, change)
        undo = Change(
            play_id=saved_id(play),
            field="undo",
            old=parts,
            new={"action": {"action": "undo", "change": change.id}, "text": undo_text(play, change, ctx), "said": []},
            at=_when_made(session, play, sent.made_at),
            device=device,
            undone=True,
            client_id=sent.client_id,
        )
        live_writes.add_change(session, undo)
        return change

    return _in_play_transaction(session, play, stage)


def parts_before(play: Play, change: Change, state: State) -> dict[str, Any]:
    """What the action of a Change replaced; a tap saved before actions existed holds one counter's old value."""
    if is_action(change):
        return change.old
    index = seat_index(play, change.seat_id) if change.seat_id is not None else None
    if index is None:
        return {"table": with_value(state["table"], change.field.removeprefix("options."), change.old)}
    return {"seats": {str(index): with_value(state["seats"][index], change.field, change.old)}}


def is_action(change: Change) -> bool:
    """True for a Change written by a game action (not a tap saved before actions existed)."""
    return isinstance(change.new, dict) and "action" in change.new


def action_text(play: Play, change: Change, ctx: Context | None = None) -> str:
    """A Change said for the table: "Ann, VP tokens +2 (Ann is first to level 3: +1 VP token)".

    An action is said in the game's words as they are now (its stored parameters described again), so a play
    saved under older wording reads like a new one; its own text as saved when it can't be described again.
    `ctx` (live_context) may be given when known, sparing the options' validation for every Change of a log.
    """
    if is_action(change):
        text = _described(play, change, ctx)
        lines = list(change.new.get("said") or [])
        # A sentence that says what the action was, maybe with more ("Bob captures Artifact 1 (achieve
        # majority)."), stands for it: said once, not once more in brackets.
        if lines and lines[0].startswith(text):
            text = lines.pop(0).rstrip(".")
        said = " ".join(lines)
        return text + (f" ({said.rstrip('.')})" if said else "")
    index = seat_index(play, change.seat_id) if change.seat_id is not None else None
    path = change.field.removeprefix("options.")
    game = get_game(play.game)
    what = game.live.label(path) if game is not None else path.replace(".", " ")
    what = what.replace("_", " ")
    old, new = _plain_value(change.old), _plain_value(change.new)
    if index is not None:
        return _("%(name)s, %(counter)s %(old)s → %(new)s", name=play.seats[index].name, counter=what, old=old, new=new)
    return _("%(counter)s %(old)s → %(new)s", counter=what[:1].upper() + what[1:], old=old, new=new)


def undone_by(session: Session, undo: Change) -> Change | None:
    """The Change an undo took back (None for a row that is no undo)."""
    target = undo.new.get("action", {}).get("change") if isinstance(undo.new, dict) else None
    return session.get(Change, target) if isinstance(target, int) else None


def said_by(change: Change) -> str:
    """What a saved action said to the table when it was made (an undo: what it took back), for a retry's answer."""
    if change.field == "undo":
        return str(change.new.get("text") or "")
    return " ".join(change.new.get("said") or []) if is_action(change) else ""


def undo_text(play: Play, change: Change, ctx: Context | None = None) -> str:
    """What an undo of this Change says, in the reader's language: "Took back: Cy, swords +1."."""
    return _("Took back: %(action)s.", action=action_text(play, change, ctx).rstrip("."))


def _described(play: Play, change: Change, ctx: Context | None) -> str:
    """An action's text as saved when it was said knowing the state before it; else in the game's words of now, from
    its stored parameters, or the text it was saved with when those no longer parse (a later version renamed a
    parameter) or the play's options no longer hold."""
    stored = change.new.get("action")
    if change.new.get("named") and change.new.get("text"):
        return str(change.new["text"])
    try:
        ctx = ctx or live_context(play)
        seat = seat_index(play, change.seat_id) if change.seat_id is not None else None
        action = live.parse_action(game_of(play), stored, seat, strict=False)
        return live.describe(game_of(play), action, ctx)
    except (InputErrors, LookupError, TypeError, ValueError, AttributeError):
        return str(change.new.get("text") or change.field.replace("_", " "))


def _plain_value(value: Any) -> str:
    """A stored counter value as people write it: a number with the true minus, a yes or no, never Python's repr."""
    if isinstance(value, bool):
        return pgettext("counter value", "yes") if value else pgettext("counter value", "no")
    if isinstance(value, int):
        return figure(value)
    if value is None:
        return pgettext("counter value", "none")
    if isinstance(value, list | tuple):
        return ", ".join(_plain_value(item) for item in value) or pgettext("counter value", "none")
    if isinstance(value, dict):
        return ", ".join(
            f"{str(key).replace('_', ' ')} {_plain_value(item)}" for key, item in value.items()
        ) or pgettext("counter value", "none")
    return str(value).replace("_", " ")


def saved_change(session: Session) -> Change | None:
    """The Change the last action of this session saved (and forget it), or None."""
    return session.info.pop(SAVED, None)


_LAST_CHANGE = (
    select(Change)
    .where(col(Change.play_id) == bindparam("play_id"), col(Change.undone).is_(False))
    .order_by(col(Change.id).desc())
    .limit(1)
)


def last_change(session: Session, play: Play) -> Change | None:
    """The newest action of a play that has not been undone."""
    return session.exec(_LAST_CHANGE, params={"play_id": play.id}).first()


def _in_play_transaction(session: Session, play: Play, stage: Callable[[], T | None]) -> T | None:
    """Stage a write while holding the play, and commit it: writes to one play from any device or app server
    take turns, each on the state the one before it left, so none is lost and none is refused for being busy.

    Checks such as "the deck has only 8 crowns" span every seat, so the whole play is the unit: its row is claimed
    first (a row lock on PostgreSQL; SQLite's write lock, taken by the first statement of the transaction) and
    its version moves on. Everything is read again under that claim. The play's row is the first one each write
    locks, so two writes never hold rows the other waits for (no deadlock).
    """
    play_id = saved_id(play)
    if session.info.pop(CLAIM, None) != (play_id, session.get_transaction()):
        # Ends the request's reads so far: the claim starts the write transaction (SQLite takes its lock there).
        session.rollback()
        _claim(session, play_id)
        _read_claimed(session, play_id)
    session.info.pop(SAVED, None)
    session.info.pop(JUDGED, None)
    try:
        staged = stage()
    except Exception:
        session.info.pop(SAVED, None)
        session.rollback()
        raise
    if staged is None:
        session.info.pop(SAVED, None)
        session.rollback()
        return None
    if play.status == FINISHED:
        # Finished or corrected: the statistics count it from now on (a tap on a play in progress moves nothing).
        history_version.move_on(session)
    session.commit()
    return staged


_CLAIM = update(Play).where(col(Play.id) == bindparam("play_id")).values(version=col(Play.version) + 1)


def _claim(session: Session, play_id: int) -> bool:
    """Claim a play for this transaction by moving its version on; False when there is no such play."""
    write_turns.take_turn(session)
    # On the session's connection, past the ORM's bulk-update machinery: the play is read again under the claim
    # (_read_claimed), so no object in the session needs to learn the new version here.
    claimed = session.connection().execute(_CLAIM, {"play_id": play_id})
    return claimed.rowcount == 1


def _read_claimed(session: Session, play_id: int) -> Play:
    """The play and its seats as they are under the claim (over any copy loaded earlier)."""
    return session.exec(_CLAIMED_PLAY, params={"play_id": play_id}).unique().one()


def finish_play(
    session: Session, play: Play, counts: Sequence[tuple[int, dict[str, int]]] = (), device: str = ""
) -> Result | None:
    """Set the counts entered at the end (seat, {field: value}), score by the official rules and store the result.

    Under the play's version, like an action: one that lands meanwhile makes the scoring run again on fresh state.
    InputErrors (fields 'players[i].<field>') when a count or the whole play can't be scored; nothing is saved then.
    """

    def stage() -> Result | None:
        """Apply the end counts and score, unless another device finished the play (or put it aside) first."""
        if play.status != IN_PROGRESS:
            return None
        ctx = live_context(play)
        errors: list[FieldError] = []
        for seat, values in counts:
            for field, value in values.items():
                action = Action("set", seat, live.SetParams(field=field, value=value))
                try:
                    _stage_action(session, play, ctx, action, device)
                except InputErrors as refused:
                    # A rule about another field or player stays theirs; the action's own fields become this box's.
                    errors += [
                        FieldError(e.field if e.field.startswith("players[") else f"players[{seat}].{field}", e.message)
                        for e in refused.errors
                    ]
        if errors:
            raise InputErrors(errors)
        scored = standing(play)
        _store_result(play, scored.result)
        play.duration_min = minutes_played(play, play.finished_at or utcnow())
        # What was scored, e.g. a Spires solo discard pile as counted at the table, not as it was at the start.
        play.options = scored.options.model_dump(mode="json")
        session.add(play)
        return scored.result

    return _in_play_transaction(session, play, stage)


def _store_result(play: Play, result: Result) -> None:
    """Copy totals, ranks and breakdowns onto the seats, and the play-wide outcome onto the play."""
    for seat, scored in zip(play.seats, result.players, strict=True):
        seat.total = scored.total
        seat.rank = scored.rank
        seat.breakdown = [dict(line.__dict__) for line in scored.lines]
    per_player = {key for p in result.players for key in p.extra}
    extra = {**result.extra, "players": [p.extra for p in result.players]} if per_player else dict(result.extra)
    # The table's state stays beside the result (the API shows a finished play's table as it ended), and so does
    # the time it was put aside (what its duration leaves out).
    play.extra = {**extra, **{key: play.extra[key] for key in (TABLE, *ASIDE_KEPT) if key in play.extra}}
    play.tiebreak = result.tiebreak
    play.status = FINISHED
    play.finished_at = play.finished_at or utcnow()


def stored_result(play: Play) -> dict[str, Any]:
    """A finished play's result in the JSON API's shape, read back from the seats."""
    extra = {key: value for key, value in play.extra.items() if key not in (TABLE, ASIDE_SINCE, *ASIDE_KEPT)}
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


def worded_result(play: Play) -> dict[str, Any]:
    """A finished play's stored result with its labels, whys and tie-break in the reader's language.

    The words were stored in the language of the device that finished the play. They are made again by scoring
    the play's inputs once more, and taken only when that score is the stored one line by line: a rule changed
    since, a corrected or an imported play (no inputs) keeps its stored words, never other numbers.
    """
    answer = stored_result(play)
    try:
        again = game_of(play).score_raw(*play_inputs(play))
    except (InputErrors, KeyError, TypeError, ValueError):
        return answer
    stored = [
        (p["total"], p["rank"], [(line.get("key"), line.get("points")) for line in p["breakdown"]])
        for p in answer["players"]
    ]
    scored = [(p.total, p.rank, [(line.key, line.points) for line in p.lines]) for p in again.players]
    if stored != scored:
        return answer
    for player, fresh in zip(answer["players"], again.players, strict=True):
        player["breakdown"] = [dict(line.__dict__) for line in fresh.lines]
    answer["tiebreak"] = again.tiebreak
    return answer


def put_aside(session: Session, play: Play, aside: bool) -> None:
    """Take a play in progress off the list (aside=True), or bring it back to go on with it."""
    before, after = (IN_PROGRESS, ABANDONED) if aside else (ABANDONED, IN_PROGRESS)

    def stage() -> Play | None:
        """Change the status, unless another device already did (or finished the play)."""
        if play.status != before:
            return None
        play.status = after
        play.extra = _aside_kept(play.extra, aside, utcnow())
        session.add(play)
        return play

    _in_play_transaction(session, play, stage)


def _aside_kept(extra: dict[str, Any], aside: bool, now: datetime) -> dict[str, Any]:
    """The play's extra with the moment it was put aside, or (brought back) that time added to the time aside and
    its span to the spans."""
    if aside:
        return {**extra, ASIDE_SINCE: now.isoformat()}
    since = extra.get(ASIDE_SINCE)
    kept = {key: value for key, value in extra.items() if key != ASIDE_SINCE}
    if since is None:
        return kept
    began = utc(datetime.fromisoformat(since))
    until = max(began, utc(now))
    seconds = (until - began).total_seconds()
    spans = [*extra.get(ASIDE_SPANS, []), [began.isoformat(), until.isoformat()]]
    return {**kept, ASIDE_SECONDS: round(extra.get(ASIDE_SECONDS, 0) + seconds), ASIDE_SPANS: spans}


def aside_spans(play: Play) -> list[tuple[datetime, datetime]]:
    """Each time the play was put aside and brought back, oldest first (none kept for a play from before spans)."""
    return [
        (utc(datetime.fromisoformat(since)), utc(datetime.fromisoformat(until)))
        for since, until in play.extra.get(ASIDE_SPANS, [])
    ]


def minutes_played(play: Play, until: datetime) -> int:
    """A tracked play's minutes at the table: from its start to `until`, the time it was put aside left out."""
    seconds = (utc(until) - utc(play.created_at)).total_seconds() - play.extra.get(ASIDE_SECONDS, 0)
    return max(0, round(seconds / 60))


def play_inputs(play: Play) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The raw players and options a finished play was scored from: what the calculator form shows to correct it.

    A play scored at the end (calculator, API) keeps them as they were typed: each seat's state and the options. A
    tracked play keeps its live state (with the table beside the result), which the game's Live turns into them
    (to_input); a tracked play from before tables existed is recognised by its state not being valid input.
    """
    game = game_of(play)
    typed = [{"name": seat.name, **seat.state} for seat in play.seats], dict(play.options)
    if TABLE not in play.extra:
        try:
            game.validate(*typed)
            return typed
        except InputErrors:
            pass
    try:
        ctx = live_context(play)
        return game.live.scoring_input(live_state(play, ctx), ctx)
    except (InputErrors, KeyError, TypeError, ValueError):
        # Shown as stored: the correction form then says what no longer holds.
        return typed


def correct_play(
    session: Session,
    play: Play,
    players: Sequence[Any],
    options: Any,
    result: Result,
    *,
    played_at: datetime,
    notes: str,
    location: str | None = None,
) -> Play | None:
    """Store a finished play's corrected names, inputs, options, date, notes and place (None: as it was) with its
    result scored again.

    The seats keep their turn order; each takes the name as corrected (and its roster entry) and the inputs as
    typed, so the play reads afterwards like one scored at the end: the tracker's table goes, its Changes stay.
    Under the play's claim, like a tap; None when the play is no longer a finished play that can be corrected
    (another device deleted it meanwhile: the delete came first, or this waited for it), and nothing is saved then.
    """
    # Ends the request's reads, whose play the form was checked against: the claim starts the write (on SQLite a
    # read transaction could not take the write lock once another device wrote), and everything is read again.
    session.rollback()
    if claim_play(session, saved_id(play)) is None:
        return None

    def stage() -> Play | None:
        """Write the correction onto the play as read under the claim."""
        if play.status != FINISHED or play.deleted_at is not None or len(play.seats) != len(players):
            return None
        game = game_of(play)
        for seat, model, scored in zip(play.seats, players, result.players, strict=True):
            # A guest stays one while the name is as it was; a name typed over it is a roster player's.
            if seat.player_id is not None or seat.name != model.name:
                seat.player_id = find_or_add_player(session, model.name).id
            seat.name = model.name
            seat.state = model.model_dump(mode="json", exclude={"name"})
            # A game that scores by colour (Speros) says it with the player's result: the seat follows the fix.
            if scored.extra.get("color") in game.colours:
                seat.colour = scored.extra["color"]
            session.add(seat)
        play.options = options.model_dump(mode="json")
        play.extra = {key: play.extra[key] for key in ASIDE_KEPT if key in play.extra}
        play.rules_version = game.rules_version
        _store_result(play, result)
        play.played_at = played_at
        play.notes = notes
        if location is not None:
            place = find_or_add_location(session, location)
            play.location_id = None if place is None else place.id
        session.add(play)
        return play

    return _in_play_transaction(session, play, stage)


def delete_play(session: Session, play_id: int, now: datetime) -> bool:
    """Mark a finished play deleted (kept to be restored); False when there is no such play not yet deleted."""
    deleted = session.exec(
        update(Play)
        .where(col(Play.id) == play_id, col(Play.status) == FINISHED, col(Play.deleted_at).is_(None))
        .values(deleted_at=now, version=col(Play.version) + 1)
        .execution_options(synchronize_session=False)
    )
    history_version.move_on(session)
    session.commit()
    return deleted.rowcount == 1


def restore_play(session: Session, play_id: int, deleted_since: datetime) -> bool:
    """Bring a deleted play back into the history if it was deleted after `deleted_since`; False otherwise."""
    restored = session.exec(
        update(Play)
        .where(col(Play.id) == play_id, col(Play.deleted_at) >= deleted_since)
        .values(deleted_at=None, version=col(Play.version) + 1)
        .execution_options(synchronize_session=False)
    )
    history_version.move_on(session)
    session.commit()
    return restored.rowcount == 1


def purge_deleted(session: Session, deleted_before: datetime) -> int:
    """Remove for good the plays deleted before this moment, with their seats and changes; how many went.

    One indexed look first: most of the time there is nothing to purge and no write is begun at all. Then one
    DELETE per table, in the order the foreign keys ask (changes, seats, plays).
    """
    old = select(Play.id).where(col(Play.deleted_at) < deleted_before)
    if session.exec(old.limit(1)).first() is None:
        return 0
    # The look's read transaction ends first: SQLite refuses at once a write begun in a transaction that read
    # before another device's write, where a write begun afresh waits its turn.
    session.rollback()
    session.exec(delete(Change).where(col(Change.play_id).in_(old)))
    session.exec(delete(Seat).where(col(Seat.play_id).in_(old)))
    gone = session.exec(delete(Play).where(col(Play.deleted_at) < deleted_before))
    history_version.move_on(session)
    session.commit()
    return gone.rowcount
