"""Live play as game actions: a game's state at the table, the actions that change it, and what it scores now.

Plain Python and pydantic, like the rest of games/: nothing here knows about Flask or the database. A game module
declares a `Live`; the records path loads the state, calls `apply()` and stores what it answers, whoever asked
(the tracker page or the JSON API).

The state is plain JSON: {"table": {...}, "seats": [{...}, ...]}, seats in turn order. Each seat's state holds at
least the game's scoring input (without the name); the table holds what belongs to nobody (whose turn it is, a
discard pile). An action is pure: state + action -> Applied(new state, what it said), or InputErrors.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from companion.games.base import FieldError, InputErrors, Note, Result, read_path, validation_errors, with_value
from companion.games.wording import capital, figure, signed
from companion.language import N_, _

if TYPE_CHECKING:
    from companion.games.base import Game

State = dict[str, Any]

# Fields of an action's envelope (the API's body, the page's form), never an action's own parameters.
RESERVED_PARAMS = frozenset({"action", "player", "seat", "slot", "csrf_token"})


@dataclass(frozen=True)
class Context:
    """What an action knows besides the state: the players' names in turn order and the play's options."""

    names: tuple[str, ...]
    options: Any
    live: Live
    # Each player's colour, as chosen at the start ("" for none); a game may score by it (Conquest of Speros).
    colours: tuple[str, ...] = ()

    def who(self, seat: int | None) -> str:
        """A seat's name, or "Everyone" for an action of the whole table (said to people: never an internal name)."""
        return self.names[seat] if seat is not None else _("Everyone")


class Params(BaseModel):
    """Base of an action's parameters: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoParams(Params):
    """An action that takes nothing but its name (and maybe a player)."""


class AddParams(Params):
    """Step a counter: `field` is a path such as 'towers.red'."""

    field: str
    delta: int


class SetParams(Params):
    """Set a counter to a value."""

    field: str
    value: int


@dataclass(frozen=True)
class Action:
    """One action as the game sees it: its name, the seat it is for (None: the table) and its parameters."""

    name: str
    seat: int | None
    params: Any

    def to_dict(self, ctx: Context) -> dict[str, Any]:
        """The action as the API takes it: {"action", "player", ...parameters}."""
        return {
            "action": self.name,
            "player": ctx.names[self.seat] if self.seat is not None else None,
            **self.params.model_dump(mode="json"),
        }


@dataclass(frozen=True)
class Applied:
    """An action's outcome: the new state and the sentences the table should hear."""

    state: State
    said: tuple[str, ...] = ()
    # The parts of the state before it that the action changed (changed_parts), once it is saved: what a device
    # that was up to date must redraw.
    changed: dict[str, Any] = field(default_factory=dict)
    # The new state as the game validated it after the action (apply), so that the standing after it is scored,
    # or said to be unscorable (counts a later rules version refuses, let through), without validating it again.
    checked: Checked | None = None


@dataclass(frozen=True)
class Checked:
    """A state as the game's validate judged it in a context: its scoring input (players, options) as validated,
    or the InputErrors it raised."""

    state: State
    ctx: Context
    outcome: tuple[list[Any], Any] | InputErrors

    @property
    def errors(self) -> InputErrors | None:
        """What the game refuses in the state, or None when it holds."""
        return self.outcome if isinstance(self.outcome, InputErrors) else None


class Refused(InputErrors):
    """An action the rules or bounds refused, with the state before it as the game judged it while deciding (the
    answer that shows the play as it stands scores that state without validating it again)."""

    def __init__(self, refused: InputErrors, before: Checked):
        """The refusal's field errors, and the verdict on the state before the action."""
        super().__init__(refused.errors)
        self.before = before


@dataclass(frozen=True)
class End:
    """Whether the game's end has been triggered, and why."""

    triggered: bool = False
    why: str | None = None


@dataclass(frozen=True)
class Standing:
    """A state scored as it stands: the validated input, the result, and the state and context it came from."""

    state: State
    ctx: Context
    players: list[Any]
    options: Any
    result: Result


Run = Callable[[State, Action, Context], Applied]


@dataclass(frozen=True)
class ActionSpec:
    """One named action: what runs it, its parameters, whether it needs a player, and how undo names it."""

    run: Run
    params: type[Params] = NoParams
    seat: Literal["required", "optional", "none"] = "none"
    # describe(action, ctx) or describe(action, ctx, before): given the state before the action, where the caller
    # has it, a game may name what the action's numbers point at ('Forest card 3' rather than 'card 3').
    describe: Callable[..., str] | None = None

    def text(self, action: Action, ctx: Context, before: State | None = None) -> str:
        """The action said for the table: "Ann, VP tokens +2"."""
        if self.describe is not None:
            if before is not None and _takes_before(self.describe):
                return self.describe(action, ctx, before)
            return self.describe(action, ctx)
        # Named by its key: a game whose actions people read gives them a describe of its own.
        if action.seat is not None:
            return _("%(who)s, %(action)s", who=ctx.who(action.seat), action=action.name.replace("_", " "))
        return action.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Live:
    """What a game declares for live play; see the module docstring."""

    start_table: Callable[[Any], dict[str, Any]]
    start_seat: Callable[[Any], dict[str, Any]]
    actions: Mapping[str, ActionSpec]
    seat_counters: Callable[[Any], tuple[str, ...]]
    table_counters: Callable[[Any], tuple[str, ...]] = lambda options: ()
    to_input: Callable[[State, Context], tuple[list[dict[str, Any]], dict[str, Any]]] | None = None
    notes: Callable[[Standing], list[Note]] = lambda standing: []
    end: Callable[[Standing], End] = lambda standing: End()
    # Marks a seat's counters from that seat's own counts only: a tap's answer redraws just the seats it changed.
    flagged: Callable[[Standing, int], set[str]] = lambda standing, seat: set()
    # What the game's own templates draw beyond counters (whose turn it is, who took which token), worked out here.
    view: Callable[[Standing], dict[str, Any]] = lambda standing: {}
    # Fields the group enters on the finish form (e.g. SPQF's Monument counts), per seat.
    end_fields: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    # What the table plays that the tracker does not keep (a deck, a hand, the phases): said in the tracker's help,
    # so nobody waits for the app to enforce it.
    untracked: tuple[str, ...] = ()
    # Read-only facts a program reading the play view gets beside a seat's live state (Spyrium's residence_value):
    # worked out from the seat's state and the options, never stored, never renaming a stored field.
    seat_facts: Callable[[dict[str, Any], Any], dict[str, Any]] = lambda seat, options: {}
    # Where turns pass from seat to seat (table, seat count -> the seat whose turn it is): the story of a play
    # times each player's turns from it. None: the game has no such turns.
    turn_seat: Callable[[dict[str, Any], int], int] | None = None
    # The round a table stands in (table, seat count -> from 1), marked on the score chart; None: no rounds.
    round_of: Callable[[dict[str, Any], int], int] | None = None
    # What the game calls that round ("Round"; Spyrium's turns are every player's): marked for the catalogue,
    # translated where it is shown.
    round_name: str = N_("Round")

    def __post_init__(self) -> None:
        """A parameter named like the envelope's own fields would never reach its action: refuse to declare one."""
        for name, spec in self.actions.items():
            clash = RESERVED_PARAMS & set(spec.params.model_fields)
            if clash:
                raise ValueError(f"Action {name!r} has parameters the pages and the API keep for themselves: {clash}")

    def start(self, seats: int, options: Any) -> State:
        """The state a play starts from."""
        return {"table": self.start_table(options), "seats": [self.start_seat(options) for _ in range(seats)]}

    def label(self, path: str) -> str:
        """A counter's name for people, in the reader's language (a game marks its labels with N_): 'VP tokens',
        'towers red'."""
        label = self.labels.get(path)
        return _(label) if label else path.replace(".", " ").replace("_", " ")

    def scoring_input(self, state: State, ctx: Context) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The raw players and options that the game's score() takes, from the live state."""
        if self.to_input is not None:
            return self.to_input(state, ctx)
        options = ctx.options.model_dump(mode="json") if isinstance(ctx.options, BaseModel) else dict(ctx.options)
        return [{"name": name, **seat} for name, seat in zip(ctx.names, state["seats"], strict=True)], options


def parse_action(game: Game, raw: Mapping[str, Any], seat: int | None, *, strict: bool) -> Action:
    """An action from its raw name and parameters (JSON strict, form text lax), or InputErrors."""
    live = game.live
    name = raw.get("action")
    if not isinstance(name, str) or name not in live.actions:
        known = ", ".join(sorted(live.actions))
        raise InputErrors(
            [
                FieldError(
                    "action",
                    _(
                        "Unknown action %(action)s; %(game)s knows %(known)s.",
                        action=repr(name),
                        game=game.name,
                        known=known,
                    ),
                )
            ]
        )
    spec = live.actions[name]
    if spec.seat == "required" and seat is None:
        raise InputErrors([FieldError("player", _("Say which player this is for."))])
    if spec.seat == "none" and seat is not None:
        raise InputErrors(
            [
                FieldError(
                    "player",
                    _(
                        "%(action)s is for the whole table: give no player.",
                        action=name.replace("_", " ").capitalize(),
                    ),
                )
            ]
        )
    params = {key: value for key, value in raw.items() if key not in ("action", "player")}
    try:
        return Action(name, seat, spec.params.model_validate(params, strict=strict))
    except ValidationError as exc:
        raise InputErrors(validation_errors(exc)) from None


def validate_start(game: Game, names: Sequence[str], colours: Sequence[str], options: Any) -> tuple[list[Any], Any]:
    """Validate a play about to start as its start state would be scored: (players, options) or InputErrors."""
    live = game.live
    try:
        opts = game.options_model.model_validate(options if options is not None else {})
    except ValidationError:
        # The game's own validation says what is wrong with the options, and with the names too.
        return game.validate([{"name": name} for name in names], options)
    ctx = Context(tuple(names), opts, live, tuple(colours))
    state = live.start(len(names), opts)
    try:
        return game.validate(*live.scoring_input(state, ctx))
    except InputErrors as refused:
        # A game that scores by colour calls it 'color'; what was sent is the player's 'colour'.
        raise InputErrors(
            [
                FieldError(e.field.replace(".color", ".colour") if e.field.endswith(".color") else e.field, e.message)
                for e in refused.errors
            ]
        ) from None


def apply(game: Game, state: State, action: Action, ctx: Context) -> Applied:
    """Run an action and check that the whole play still holds by the rules and bounds; Refused if not."""
    applied = game.live.actions[action.name].run(copy.deepcopy(state), action, ctx)
    after = check(game, applied.state, ctx)
    if after.errors is not None:
        # Counts a later rules version refuses can be corrected one at a time: allowed, unless it adds an error.
        before = check(game, state, ctx)
        found = {(e.field, e.message) for e in after.errors.errors}
        if before.errors is None or not found <= {(e.field, e.message) for e in before.errors.errors}:
            raise Refused(after.errors, before)
    return replace(applied, checked=after)


def check(game: Game, state: State, ctx: Context) -> Checked:
    """The game's verdict on a state: its scoring input validated, or the InputErrors that say what it refuses."""
    try:
        return Checked(state, ctx, game.validate(*game.live.scoring_input(state, ctx)))
    except InputErrors as refused:
        return Checked(state, ctx, refused)


def standing(game: Game, state: State, ctx: Context, checked: Checked | None = None) -> Standing:
    """The state scored as it stands now (InputErrors while it can't be scored); `checked`: the game's verdict on
    this very state (Applied.checked, Refused.before), else it is validated here."""
    outcome = (checked or check(game, state, ctx)).outcome
    if isinstance(outcome, InputErrors):
        raise outcome
    players, options = outcome
    return Standing(state, ctx, players, options, game.score(players, options))


def describe(game: Game, action: Action, ctx: Context, before: State | None = None) -> str:
    """An action said for the table, e.g. for undo (in its fullest words when the state before it is given)."""
    return game.live.actions[action.name].text(action, ctx, before)


@functools.cache
def _takes_before(describe: Callable[..., str]) -> bool:
    """Whether a game's describe function takes the state before the action as a third argument."""
    return len(inspect.signature(describe).parameters) >= 3


# The generic counter actions every tracker has: add to a counter, or set it.


def read_counter(state: State, seat: int | None, path: str) -> Any:
    """A counter's value in a seat's state or the table's."""
    scope = state["seats"][seat] if seat is not None else state["table"]
    return read_path(scope, path)


def write_counter(state: State, seat: int | None, path: str, value: Any) -> State:
    """The state with a counter of a seat or the table replaced (the state given is not changed)."""
    new = dict(state)
    if seat is None:
        new["table"] = with_value(state["table"], path, value)
    else:
        seats = list(state["seats"])
        seats[seat] = with_value(seats[seat], path, value)
        new["seats"] = seats
    return new


def step_counter(state: State, action: Action, ctx: Context) -> tuple[State, int, int]:
    """The state with the action's counter added to or set; also the old and new value. InputErrors if no such."""
    live = ctx.live
    path = action.params.field
    allowed = live.seat_counters(ctx.options) if action.seat is not None else live.table_counters(ctx.options)
    if action.seat is None and path in live.seat_counters(ctx.options):
        raise InputErrors(
            [FieldError("player", _("Say which player's %(counter)s to change.", counter=live.label(path)))]
        )
    old = read_counter(state, action.seat, path)
    if path not in allowed or isinstance(old, bool) or not isinstance(old, int):
        raise InputErrors([FieldError("field", _("There is no such counter."))])
    new = old + action.params.delta if isinstance(action.params, AddParams) else action.params.value
    return write_counter(state, action.seat, path, new), old, new


AfterCounter = Callable[[State, State, Action, Context, int, int], Applied]


def counter_actions(after: AfterCounter | None = None) -> dict[str, ActionSpec]:
    """The generic 'add' and 'set' actions, for a seat or (without a player) the table.

    `after(old_state, new_state, action, ctx, old, new)` lets a game apply the rules a counter triggers.
    """

    def run(state: State, action: Action, ctx: Context) -> Applied:
        """Step or set the counter, then let the game react."""
        new_state, old, new = step_counter(state, action, ctx)
        if after is not None:
            return after(state, new_state, action, ctx, old, new)
        return Applied(new_state)

    def text(action: Action, ctx: Context) -> str:
        """'Ann, VP tokens +2' or 'Ann, Civilization Level set to 3'; a table-wide counter by its own name,
        'Discard pile crowns +1'."""
        label = ctx.live.label(action.params.field)
        if isinstance(action.params, AddParams):
            delta = action.params.delta
            # A step of 0 still reads as a step: '+0', where signed() writes '0'.
            said = f"{label} {signed(delta) if delta else '+0'}"
        else:
            said = _("%(counter)s set to %(value)s", counter=label, value=figure(action.params.value))
        if action.seat is None:
            return capital(said)
        return _("%(who)s, %(action)s", who=ctx.who(action.seat), action=said)

    return {
        "add": ActionSpec(run, AddParams, "optional", text),
        "set": ActionSpec(run, SetParams, "optional", text),
    }


def changed_parts(before: State, after: State) -> dict[str, Any]:
    """The parts of `before` that `after` changed: {"table": ...} and/or {"seats": {index: ...}}; what undo restores."""
    parts: dict[str, Any] = {}
    if before["table"] != after["table"]:
        parts["table"] = before["table"]
    pairs = enumerate(zip(before["seats"], after["seats"], strict=True))
    seats = {str(i): old for i, (old, new) in pairs if old != new}
    if seats:
        parts["seats"] = seats
    return parts


def restore(state: State, parts: Mapping[str, Any]) -> State:
    """The state with the parts an action changed put back as they were."""
    new = {"table": parts.get("table", state["table"]), "seats": list(state["seats"])}
    for index, seat_state in parts.get("seats", {}).items():
        new["seats"][int(index)] = seat_state
    return new
