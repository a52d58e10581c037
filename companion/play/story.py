"""The story of a tracked play, told from its log: each player's score after every action, who led when, where the
end began, and how long each player's turns took (issue 22).

The log is replayed through the game's own actions and scoring (games/live.py), from the state the play started
in, so every point is a score the tracker showed at that moment. The actions taken back with Undo, and the undo
entries themselves, are left out: the replay is the game as it stands. The last point is the stored result, so
the chart always ends on the final table, a correction's included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from companion.games import live
from companion.games.base import Game, InputErrors
from companion.games.live import Action, Context, State
from companion.games.wording import utc
from companion.language import _, pgettext
from companion.store import records
from companion.store.history_version import Kept
from companion.store.models import FINISHED, Change, Play, saved_id
from companion.store.play_log import UNDO
from companion.web.i18n import current_language

# Stories are told again only when their play changes (its version): a finished play's, never. Each is kept per
# reader's language, as its sentences are told in it.
STORIES_KEPT = 64
_kept = Kept(STORIES_KEPT)


@dataclass(frozen=True)
class Step:
    """The table after one action: each seat's total (None while the counts could not be scored)."""

    # The action's number in the log as the tracker numbers it (1, 2, ...); 0 for the start, -1 for the result.
    seq: int
    at: datetime
    said: str
    totals: tuple[int | None, ...]
    # The round (or the game's turn of everyone) the table stood in after the action; None: the game has none.
    round: int | None = None
    # The seats with the highest total, where one seat or more leads alone or together.
    leaders: tuple[int, ...] = ()
    lead_change: bool = False
    end_begins: str | None = None


@dataclass(frozen=True)
class TurnTimes:
    """One player's turns: how many were timed, their average and the longest, in seconds."""

    name: str
    turns: int
    average_seconds: int
    longest_seconds: int

    def to_dict(self) -> dict[str, Any]:
        """As the API's play view shows it."""
        return {
            "name": self.name,
            "turns": self.turns,
            "average_seconds": self.average_seconds,
            "longest_seconds": self.longest_seconds,
        }


@dataclass(frozen=True)
class Story:
    """A tracked play told from its log."""

    names: tuple[str, ...]
    steps: tuple[Step, ...]
    round_name: str = "Round"
    turn_times: tuple[TurnTimes, ...] = ()
    # False when an action could not be replayed under today's rules: the story stops before it.
    complete: bool = True
    corrected: bool = False
    minutes: int | None = None

    @property
    def actions(self) -> tuple[Step, ...]:
        """The steps of the actions themselves (without the start and the final result)."""
        return tuple(step for step in self.steps if step.seq > 0)

    def to_time(self) -> dict[str, Any]:
        """How long the play took and its players' turns, as the API's play view shows it."""
        return {"minutes": self.minutes, "players": [times.to_dict() for times in self.turn_times]}

    def to_race(self) -> list[dict[str, Any]]:
        """The score after each action still standing, as the API's play view shows it ("story")."""
        return [
            {
                "seq": step.seq,
                "said": step.said,
                "totals": [{"name": name, "total": total} for name, total in zip(self.names, step.totals, strict=True)],
            }
            for step in self.actions
        ]


def read_story(session: Session, play: Play) -> Story | None:
    """The story of a tracked play in the reader's language (kept until the play changes); None for a play with no
    actions in its log."""
    key = (saved_id(play), play.created_at, current_language())
    return _kept.get(key, play.version, lambda: _read(session, play))


def _read(session: Session, play: Play) -> Story | None:
    """Read the play's log and tell its story."""
    query = select(Change).where(Change.play_id == saved_id(play)).order_by(col(Change.id))
    changes = list(session.exec(query))
    try:
        ctx = records.live_context(play)
    except InputErrors:
        return None
    return tell(play, ctx, changes)


def tell(play: Play, ctx: Context, changes: Sequence[Change]) -> Story | None:
    """Replay the log's actions still standing from the play's start state, scoring the table after each."""
    game = records.game_of(play)
    standing_actions = [change for change in changes if change.field != UNDO and not change.undone]
    if not standing_actions:
        return None
    states, complete = _replay(play, ctx, start_state(play, ctx, changes), standing_actions)
    seq_of = {saved_id(change): seq for seq, change in enumerate(changes, start=1)}
    steps = [_step(game, states[0], ctx, Step(0, utc(play.created_at), pgettext("story", "Start"), ()), None, False)]
    for change, state in zip(standing_actions, states[1:], strict=False):
        said = records.action_text(play, change, ctx)
        bare = Step(seq_of[saved_id(change)], utc(change.at), said, ())
        steps.append(_step(game, state, ctx, bare, steps[-1], any(step.end_begins for step in steps)))
    if play.status == FINISHED:
        totals = tuple(seat.total for seat in play.seats)
        steps.append(_marked(Step(-1, utc(play.finished_at or steps[-1].at), _("Final scores"), totals), steps[-1]))
    return Story(
        names=ctx.names,
        steps=tuple(steps),
        round_name=game.live.round_name,
        turn_times=_turn_times(play, ctx, standing_actions, states) if complete else (),
        complete=complete,
        corrected=play.status == FINISHED and records.TABLE not in play.extra,
        minutes=play.duration_min,
    )


def start_state(play: Play, ctx: Context, changes: Sequence[Change]) -> State:
    """The state the play started in: its saved live state with every change taken back, newest first (what Undo
    does one at a time); a play whose live state is gone (corrected after the game) from the game's start."""
    if records.TABLE not in play.extra and play.status == FINISHED:
        return ctx.live.start(len(play.seats), ctx.options)
    state = records.live_state(play, ctx)
    for change in reversed(changes):
        state = live.restore(state, records.parts_before(play, change, state))
    return state


def _replay(play: Play, ctx: Context, start: State, actions: Sequence[Change]) -> tuple[list[State], bool]:
    """The start state and the state after each action, through the game's own actions; False with the states so
    far when an action can't be replayed (a rule that changed since it was saved)."""
    game = records.game_of(play)
    states = [start]
    for change in actions:
        try:
            states.append(live.apply(game, states[-1], _action_of(play, change), ctx).state)
        except (InputErrors, KeyError, TypeError, ValueError):
            return states, False
    return states, True


def _action_of(play: Play, change: Change) -> Action:
    """The game action a Change saved (a tap saved before actions existed: the counter it set)."""
    game = records.game_of(play)
    seat = records.seat_index(play, change.seat_id) if change.seat_id is not None else None
    if records.is_action(change):
        raw = {key: value for key, value in change.new["action"].items() if key != "player"}
    else:
        raw = {"action": "set", "field": change.field, "value": change.new}
    return live.parse_action(game, raw, seat, strict=False)


def _step(game: Game, state: State, ctx: Context, bare: Step, before: Step | None, ended: bool) -> Step:
    """The table after an action, scored as the tracker scored it then; `ended`: the end had begun before it."""
    round_of = game.live.round_of
    number = round_of(state["table"], len(ctx.names)) if round_of is not None else None
    try:
        scored = live.standing(game, state, ctx)
    except InputErrors:
        return Step(bare.seq, bare.at, bare.said, tuple(None for _ in ctx.names), number)
    end = game.live.end(scored)
    step = Step(bare.seq, bare.at, bare.said, tuple(p.total for p in scored.result.players), number)
    return _marked(step, before, (end.why or _("The end has begun.")) if end.triggered and not ended else None)


def _marked(step: Step, before: Step | None, end_begins: str | None = None) -> Step:
    """The step with its leaders, whether the lead changed hands at it, and where the end began."""
    known = [total for total in step.totals if total is not None]
    if not known:
        return replace(step, leaders=(), lead_change=False, end_begins=end_begins)
    best = max(known)
    leaders = tuple(i for i, total in enumerate(step.totals) if total == best)
    changed = before is not None and bool(before.leaders) and leaders != before.leaders
    return replace(step, leaders=leaders, lead_change=changed, end_begins=end_begins)


def _turn_times(play: Play, ctx: Context, actions: Sequence[Change], states: Sequence[State]) -> tuple[TurnTimes, ...]:
    """Each player's turns, from the moments the turn passed (the table's turn after each action still standing):
    a turn runs from when it passed to the player until it passed on; the last one until the play was finished.
    The time the play was put aside is left out of the turn it fell in, as the play's duration leaves it out."""
    turn_seat = records.game_of(play).live.turn_seat
    count = len(ctx.names)
    if turn_seat is None:
        return ()
    aside = records.aside_spans(play)
    seat, began = turn_seat(states[0]["table"], count), utc(play.created_at)
    turns: list[list[float]] = [[] for _ in range(count)]
    for change, state in zip(actions, states[1:], strict=True):
        now = turn_seat(state["table"], count)
        if now != seat:
            turns[seat].append(at_table(began, utc(change.at), aside))
            seat, began = now, utc(change.at)
    if not any(turns):
        # Nobody passed the turn on the tracker: the group did not follow turns there, so none can be timed.
        return ()
    if play.status == FINISHED and play.finished_at is not None:
        turns[seat].append(at_table(began, utc(play.finished_at), aside))
    return tuple(
        TurnTimes(name, len(times), round(sum(times) / len(times)), round(max(times)))
        for name, times in zip(ctx.names, turns, strict=True)
        if times
    )


def at_table(began: datetime, ended: datetime, aside: Sequence[tuple[datetime, datetime]]) -> float:
    """The seconds from `began` to `ended` without the parts of them the play spent put aside."""
    away = sum(max(0.0, (min(ended, until) - max(began, since)).total_seconds()) for since, until in aside)
    return max(0.0, (ended - began).total_seconds() - away)


def play_time(session: Session, play: Play) -> dict[str, Any] | None:
    """A finished play's time as the API's play view gives it: its minutes at the table and each player's turns
    (none where the tracker did not follow turns); None while the play is not finished."""
    if play.status != FINISHED:
        return None
    told = read_story(session, play)
    return told.to_time() if told is not None else {"minutes": play.duration_min, "players": []}


def play_story(session: Session, play: Play) -> list[dict[str, Any]] | None:
    """A finished tracked play's score race as the API's play view gives it (kept with its story until the play
    changes); None while the play is not finished, or for a play with no action in its log."""
    if play.status != FINISHED:
        return None
    told = read_story(session, play)
    return told.to_race() if told is not None else None
