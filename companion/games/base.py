"""Shapes every game module shares: inputs, breakdown lines, results, ranking with tie-breaks.

Plain Python and pydantic only: nothing here knows about Flask or the database.
"""

# House style of every sentence the games say (a line's "why", tracker notes, tie-breaks, the winners' sentence),
# so that the four games read alike wherever a result is shown (page, score sheet, API):
# - A "why" is whole sentences in sentence case, ending with a full stop, and ends with its result: what was
#   counted, the arithmetic, then the points: "Red 3, blue 3: 6 cards × 5 = 30 VP." A line that scores nothing
#   says why, then "0 VP.": "No building: 0 VP."
# - Points are "VP", never "points", on every line that gives some; a bonus is said by its VP ("15 VP").
# - Numbers are digits; a negative one has the true minus (−1, as the `signed` filter writes it, via figure()),
#   never the ASCII hyphen-minus; ranges are words ("1 to 3 cards"); × for times, ≥ and < for comparisons.
# - Players are named as their seat: the spelling typed when the play started. A name typed again in a later
#   field (a Mastery Objective's leaders) is matched with name_key() and said as the seat spells it.
# - Verbs agree with the names: "Cleo leads with 4.", "Ann and Bob lead with 4."
# - The winners' sentence comes from winners_sentence() only: "Ann wins with 42 VP.", "Ann and Bob share the
#   victory with 40 VP.", one player alone "Ann scores 42 VP."
# - A tie-break names each tied player with their own value ("Ann 2 green (Forest), Bob 2 blue (Ocean)"); a game
#   without a tie-break says so once and never "Still tied".

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from companion.games.wording import capital, figure, join_names
from companion.language import N_, _

if TYPE_CHECKING:
    from companion.games.live import Live

NAME_MAX = 40

# Characters that print as nothing: "Ann" typed with one of them is still Ann.
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def name_key(name: str) -> str:
    """What makes two typed names the same player: Unicode NFKC and case folded, invisible characters removed,
    trimmed and inner spaces collapsed ("  ÓSCAR " and "óscar" are one player; so are "İpek" and "i̇pek")."""
    text = unicodedata.normalize("NFKC", name).translate(INVISIBLE)
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def as_seated(typed: str, names: Sequence[str]) -> str:
    """A name typed in a later field, spelled as the seat it names ("ann" -> "Ann"); as typed if it names none."""
    key = name_key(typed)
    return next((name for name in names if name_key(name) == key), typed)


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]


class Schema(BaseModel):
    """Base of every game input model: unknown fields and loose types are errors, not guesses."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlayerInput(Schema):
    """Base of a game's per-player input: every game knows its players by name."""

    name: PlayerName


def number_table(value: Any, size: int, what: str, upper: int) -> tuple[int, ...]:
    """Check a raw table of `size` whole numbers 0..upper (a JSON list or a tuple); one clear message if not."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(_("Give a list of %(size)s whole numbers, %(what)s.", size=size, what=what))
    if len(value) != size:
        raise ValueError(
            _("Give exactly %(size)s whole numbers, %(what)s; %(given)s given.", size=size, what=what, given=len(value))
        )
    for position, number in enumerate(value):
        # bool is an int subclass in Python; true/false in a table of numbers is a mistake, not 1/0.
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(
                _(
                    "Entry %(entry)s is not a whole number: give %(size)s whole numbers, %(what)s.",
                    entry=position + 1,
                    size=size,
                    what=what,
                )
            )
        if not 0 <= number <= upper:
            raise ValueError(
                _(
                    "Entry %(entry)s is %(number)s: each number must be between 0 and %(upper)s.",
                    entry=position + 1,
                    number=number,
                    upper=upper,
                )
            )
    return tuple(value)


@dataclass(frozen=True)
class Line:
    """One explained line of a player's score."""

    key: str
    label: str
    points: int
    why: str


@dataclass(frozen=True)
class Note:
    """A line the tracker shows beside the live score; a warning stands out."""

    text: str
    warning: bool = False


@dataclass(frozen=True)
class PlayerScore:
    """A player's explained score; the total is always the sum of the lines."""

    name: str
    lines: tuple[Line, ...]
    rank: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """The sum of the breakdown lines."""
        return sum(line.points for line in self.lines)

    def points(self, key: str) -> int:
        """The points of the line with this key."""
        return sum(line.points for line in self.lines if line.key == key)


@dataclass(frozen=True)
class Result:
    """The explained result of one play, players in input (turn) order."""

    game: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: str | None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The result in the JSON API's shape."""
        answer: dict[str, Any] = {
            "game": self.game,
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "rank": p.rank,
                    "breakdown": [
                        {"key": ln.key, "label": ln.label, "points": ln.points, "why": ln.why} for ln in p.lines
                    ],
                    **p.extra,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
        }
        answer["winners_text"] = winners_sentence(answer)
        answer.update(self.extra)
        return answer


@dataclass(frozen=True)
class TieBreak:
    """One level of a game's official tie-break: higher key wins; `show` prints a player's value."""

    label: str
    key: Callable[[PlayerScore], float]
    show: Callable[[PlayerScore], str]


def winners_sentence(result: Mapping[str, Any]) -> str:
    """The winners' sentence of a result dict, new or stored: 'Ann wins with 42 VP.', 'Ann and Bob share the ...'; where
    the winners have no score (a play imported with its winner only), 'Ann wins.'."""
    # The page, the score sheet and the API all say this one sentence; a player alone "scores" rather than wins.
    players = list(result.get("players") or [])
    first = [p for p in players if p.get("rank") == 1]
    if not first:
        return ""
    names = join_names([str(p["name"]) for p in first])
    total = first[0].get("total")
    if total is None:
        if len(players) == 1:
            return _("%(names)s played alone; no score recorded.", names=names)
        return _("%(names)s wins.", names=names) if len(first) == 1 else _("%(names)s share the victory.", names=names)
    points = figure(int(total))
    if len(players) == 1:
        return _("%(names)s scores %(points)s VP.", names=names, points=points)
    if len(first) == 1:
        return _("%(names)s wins with %(points)s VP.", names=names, points=points)
    return _("%(names)s share the victory with %(points)s VP.", names=names, points=points)


def leads_sentence(result: Result) -> str:
    """Who leads as it stands, for a tracker's notes: 'Cleo leads with 4 VP.', 'Ann and Bob lead with 4 VP.'."""
    leaders = [p for p in result.players if p.rank == 1]
    names, points = join_names([p.name for p in leaders]), figure(leaders[0].total)
    if len(leaders) == 1:
        return _("%(names)s leads with %(points)s VP.", names=names, points=points)
    return _("%(names)s lead with %(points)s VP.", names=names, points=points)


# One player as rank_scores() takes them: the name, the explained lines, and facts the result carries beside them.
ScoreRow = tuple[str, Sequence[Line], dict[str, Any]]


def rank_scores(
    game: str,
    players: Sequence[ScoreRow],
    tiebreaks: Sequence[TieBreak],
    extra: dict[str, Any] | None = None,
) -> Result:
    """Rank players by total, then by each tie-break level; players still tied share a rank (1, 1, 3)."""
    scores = [PlayerScore(name, tuple(lines), 0, dict(more)) for name, lines, more in players]

    def full_key(p: PlayerScore) -> tuple[float, ...]:
        """Total first, then each tie-break level: tuples compare level by level."""
        return (p.total, *(tb.key(p) for tb in tiebreaks))

    keys = [full_key(p) for p in scores]
    ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    ranked = tuple(PlayerScore(p.name, p.lines, r, p.extra) for p, r in zip(scores, ranks, strict=True))
    winners = tuple(p.name for p in ranked if p.rank == 1)

    sentences = []
    for total in sorted({p.total for p in ranked}, reverse=True):
        group = [p for p in ranked if p.total == total]
        if len(group) > 1:
            names, points, rank = join_names([p.name for p in group]), figure(total), group[0].rank
            if not tiebreaks:
                # A game without a tie-break: the tie is shared, with no "still tied" as if one had been tried.
                sentences.append(
                    _(
                        "%(names)s tied on %(points)s VP; the game has no tie-break, so they share the victory.",
                        names=names,
                        points=points,
                    )
                    if rank == 1
                    else _(
                        "%(names)s tied on %(points)s VP; the game has no tie-break, so they share rank %(rank)s.",
                        names=names,
                        points=points,
                        rank=rank,
                    )
                )
            else:
                sentences.append(
                    _("%(names)s tied on %(points)s VP.", names=names, points=points)
                    + " "
                    + _explain_tie(group, tiebreaks, 0)
                )
    return Result(game, ranked, winners, " ".join(sentences) or None, dict(extra or {}))


def _explain_tie(group: list[PlayerScore], tiebreaks: Sequence[TieBreak], level: int) -> str:
    """Say how the tie-break levels split a group tied so far."""
    names = join_names([p.name for p in group])
    if level == len(tiebreaks):
        if group[0].rank == 1:
            return _("Still tied, %(names)s share the victory.", names=names)
        return _("Still tied, %(names)s share rank %(rank)s.", names=names, rank=group[0].rank)
    tb = tiebreaks[level]
    # A game's table of tie-breaks is made at import (N_), before any reader: its label is translated here.
    label = _(tb.label)
    values = sorted({tb.key(p) for p in group}, reverse=True)
    each = ", ".join(f"{p.name} {tb.show(p)}" for p in sorted(group, key=lambda p: -tb.key(p)))
    if len(values) == 1:
        # Equal keys can still read differently (Speros counts each player's own colour): then name everyone's.
        shown = {tb.show(p) for p in group}
        equal = _("%(value)s each", value=shown.pop()) if len(shown) == 1 else each
        return (
            _("%(tie_break)s is equal too: %(values)s.", tie_break=capital(label), values=equal)
            + " "
            + _explain_tie(group, tiebreaks, level + 1)
        )
    text = _("Tie-break, %(tie_break)s: %(values)s.", tie_break=label, values=each)
    for value in values:
        subgroup = [p for p in group if tb.key(p) == value]
        if len(subgroup) > 1:
            text += " " + _explain_tie(subgroup, tiebreaks, level + 1)
    return text


@dataclass(frozen=True)
class FieldError:
    """A message meant to stand beside one input field, e.g. players[1].towers.red."""

    field: str
    message: str


class InputErrors(Exception):
    """Input that can't be scored or saved, with a message per field."""

    def __init__(self, errors: Sequence[FieldError]):
        """Keep the field errors; the message lists them for logs."""
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))
        self.errors = list(errors)

    def to_dict(self) -> dict[str, Any]:
        """The JSON API's error shape."""
        return {"errors": [{"field": e.field, "message": e.message} for e in self.errors]}

    def for_field(self, name: str) -> str | None:
        """The first message for a field, or None."""
        return next((e.message for e in self.errors if e.field == name), None)


def field_path(prefix: str, loc: Sequence[int | str]) -> str:
    """Turn a pydantic location into 'players[1].towers.red'."""
    path = prefix
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


# Pydantic's error types as said at the table (translated where said); {name} is filled from the error's ctx.
_SAID = {
    "extra_forbidden": N_("Unknown field."),
    "missing": N_("This field is required."),
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float"), N_("Enter a whole number.")),
    "greater_than_equal": N_("Must be at least {ge}."),
    "less_than_equal": N_("Must be at most {le}."),
    "bool_type": N_("Enter true or false."),
    "list_type": N_("Give a list."),
    "string_type": N_("Give text."),
    **dict.fromkeys(("dict_type", "model_type"), N_("Give an object.")),
    "literal_error": N_("Must be one of {expected}."),
    "too_long": N_("Give at most {max_length} entries."),
    "too_short": N_("Give at least {min_length} entries."),
    "string_too_short": N_("Must not be empty."),
    "string_too_long": N_("Must be at most {max_length} characters."),
}


def said_error(error: Mapping[str, Any]) -> str:
    """A pydantic message, said for a person at the table (in the reader's language)."""
    said = _SAID.get(error["type"])
    if said is not None:
        return _(said).format_map(defaultdict(lambda: None, error.get("ctx", {})))
    return str(error["msg"]).removeprefix("Value error, ")


def nul_errors(value: Any, path: str = "") -> list[FieldError]:
    """Text holding a NUL character, by field path: PostgreSQL can't store it, so it is refused up front."""
    if isinstance(value, str):
        if "\x00" not in value:
            return []
        return [FieldError(path, _("Remove the NUL character (\\u0000): it can't be stored."))]
    if isinstance(value, dict):
        return [error for key, item in value.items() for error in nul_errors(item, field_path(path, [str(key)]))]
    if isinstance(value, list):
        return [error for i, item in enumerate(value) for error in nul_errors(item, field_path(path, [i]))]
    return []


def validation_errors(exc: ValidationError, prefix: str = "") -> list[FieldError]:
    """Field errors from a pydantic ValidationError, paths prefixed."""
    return [FieldError(field_path(prefix, e["loc"]), said_error(e)) for e in exc.errors()]


@dataclass(frozen=True)
class PadLine:
    """A row of a blank score pad: the key and label of a breakdown line score() gives, and how to count it."""

    key: str
    label: str
    rule: str


@dataclass(frozen=True)
class Pad:
    """A blank score pad for some options: its rows, a row per breakdown line, and the rules printed below it."""

    lines: tuple[PadLine, ...]
    notes: tuple[str, ...] = ()
    # The last rows of a solo pad, where a rank row would stand (Spires: the King's Appraisal).
    solo_rows: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    """What a game module declares: identity, player counts, input schemas, scoring and setup."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: str
    player_model: type[PlayerInput]
    options_model: type[Schema]
    breakdown: tuple[tuple[str, str], ...]
    score: Callable[[Sequence[Any], Any], Result]
    # Live play at the table (games/live.py): every game has a tracker.
    live: Live
    colours: tuple[str, ...] = ()
    blurb: str = ""
    player_count: Callable[[int, Any], str | None] | None = None
    check: Callable[[Sequence[Any], Any], list[FieldError]] | None = None
    setup: Callable[[int, Any], list[str]] | None = None
    reference_notes: Callable[[Any], list[str]] | None = None
    # A blank score pad to fill in by hand, for the options (the score sheet's rows, with empty boxes).
    pad: Callable[[Any], Pad] | None = None

    def winners_sentence(self, result: Mapping[str, Any]) -> str:
        """The winners' sentence of a result dict, for the templates (see winners_sentence())."""
        return winners_sentence(result)

    def player_count_error(self, count: int, options: Any) -> str | None:
        """Why this many players can't play with these options, or None."""
        if self.player_count is not None:
            return self.player_count(count, options)
        if not self.min_players <= count <= self.max_players:
            return _(
                "%(game)s is for %(low)s to %(high)s players; %(count)s given.",
                game=self.name,
                low=self.min_players,
                high=self.max_players,
                count=count,
            )
        return None

    def validate(self, players: Any, options: Any = None) -> tuple[list[Any], Any]:
        """Validate raw players and options into the game's models, or raise InputErrors."""
        errors = nul_errors(players, "players") + nul_errors(options, "options")
        if errors:
            raise InputErrors(errors)
        try:
            opts = self.options_model.model_validate(options if options is not None else {})
        except ValidationError as exc:
            errors += validation_errors(exc, "options")
            opts = None
        if not isinstance(players, list):
            raise InputErrors([*errors, FieldError("players", _("Give the players as a list."))])
        models = []
        seen: set[str] = set()
        for i, raw in enumerate(players):
            try:
                model = self.player_model.model_validate(raw)
            except ValidationError as exc:
                errors += validation_errors(exc, f"players[{i}]")
                continue
            models.append(model)
            folded = name_key(model.name)
            if folded in seen:
                errors.append(FieldError(f"players[{i}].name", _("%(name)s is already playing.", name=model.name)))
            seen.add(folded)
        if opts is not None:
            count_error = self.player_count_error(len(players), opts)
            if count_error:
                errors.append(FieldError("players", count_error))
        if not errors and self.check is not None:
            errors += self.check(models, opts)
        if errors:
            raise InputErrors(errors)
        return models, opts

    def score_raw(self, players: Any, options: Any = None) -> Result:
        """Validate raw input and score it, or raise InputErrors."""
        models, opts = self.validate(players, options)
        return self.score(models, opts)

    def colour_errors(self, colours: Sequence[str]) -> list[FieldError]:
        """Messages for colours (one per player, '' for none) that are not the game's or are taken by an earlier one."""
        errors = []
        taken: set[str] = set()
        for index, colour in enumerate(colours):
            field = f"players[{index}].colour"
            if colour and colour not in self.colours:
                words = (
                    _("Pick one of the game's colours. They are %(colours)s.", colours=", ".join(self.colours))
                    if self.colours
                    else _("Pick one of the game's colours. They are none.")
                )
                errors.append(FieldError(field, words))
            elif colour and colour in taken:
                errors.append(
                    FieldError(field, _("%(colour)s is taken by an earlier player.", colour=colour.capitalize()))
                )
            taken.add(colour)
        return errors


def read_path(state: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path such as 'towers.red', or None when there is none."""
    value: Any = state
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def with_value(state: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the state with the value at a dotted path replaced."""
    head, _dot, rest = path.partition(".")
    copy = dict(state)
    copy[head] = with_value(state.get(head, {}), rest, value) if rest else value
    return copy
