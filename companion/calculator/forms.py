"""The end-game calculator's form: a game's whole input schema as form fields, and the fields back again."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined
from werkzeug.datastructures import MultiDict

from companion.games.base import NAME_MAX, FieldError, Game, InputErrors, nul_errors, read_path, with_value
from companion.games.wording import grouped, plain_minus
from companion.language import _
from companion.store import records
from companion.store.db import get_session
from companion.store.models import DURATION_MAX, LOCATION_MAX, NOTES_MAX
from companion.web.forms import (
    TABLE,
    field_label,
    option_fields,
    option_values,
    options_from_form,
    parse_int,
    seat_rows,
    whole_number,
)

NUMBER, NUMBERS, CHOICE, LINES, TEXT, CHECK = "number", "numbers", "choice", "lines", "text", "check"
# A row counts as filled once any of these has something typed; a preset select or a checkbox doesn't count.
TYPED_KINDS = (NUMBER, NUMBERS, LINES, TEXT)
# Phone keyboards offer a true minus and dashes; a score means a plain '-'.
# A phone's number pad may offer only a dot or a comma between digits: both separate, as spaces do (scores are
# whole numbers, so "3.5" can only mean 3 and 5).
NUMBER_SEPARATORS = re.compile(r"[\s,.;+]+")
PLAYER_ERROR = re.compile(r"players\[(\d+)\]\.?(.*)")
INDEXED = re.compile(r"\[(\d+)\]\.?([A-Za-z_]*)")
# The play's own fields beside the game's counts: an error about one stands beside its input.
PLAY_FIELDS = ("players", "options", "notes", "location", "duration_min")


@dataclass(frozen=True)
class LineSpec:
    """How one line of a list-of-objects textarea reads: which words fill which field of the item model."""

    ints: tuple[str, ...]
    words: dict[str, tuple[str, ...]]  # a Literal field: its choices
    word_lists: dict[str, tuple[str, ...]]  # a list of Literal: its choices, joined with '+' or spaces
    text: str | None  # a free-text field (e.g. an objective's name): the words no other field takes
    names: str | None  # a list of free text (e.g. leaders): after a ':', separated by commas
    model: type[BaseModel] | None = None  # the item model, which checks a line built by taps
    bounds: dict[str, tuple[int | None, int | None]] = dataclass_field(default_factory=dict)  # each int's range

    def part_title(self, part: str) -> str:
        """The English label of one field of the item: its title, or its name read aloud ('vp' -> 'VP')."""
        info = self.model.model_fields.get(part) if self.model else None
        return (info.title if info else None) or field_label(part)

    def part_label(self, part: str) -> str:
        """The label of one field of the item in the reader's language."""
        return _(self.part_title(part))

    @property
    def example(self) -> str:
        """A line as it is typed, drawn from the fields: '5 crystal+iron forest', 'Name 5: Ann, Bob'."""
        parts = [_(field_label(self.text))] if self.text else []
        parts += ["5"] * len(self.ints)
        parts += ["+".join(choices[:2]) for choices in self.word_lists.values()]
        parts += [choices[0] for choices in self.words.values()]
        return " ".join(parts) + (": Ann, Bob" if self.names else "")

    @property
    def help(self) -> str:
        """How to type the list, in the reader's language: an example line and the words each field takes."""
        hints = [
            _("%(part)s: %(choices)s.", part=_(field_label(n)), choices=", ".join(c)) for n, c in self.words.items()
        ]
        hints += [
            _("%(part)s: %(choices)s (join several with +).", part=_(field_label(n)), choices=", ".join(c))
            for n, c in self.word_lists.items()
        ]
        if self.names:
            names = in_sentence(field_label(self.names))
            hints.append(_("After a colon, the %(names)s separated by commas.", names=names))
        return " ".join([_("One per line, e.g. “%(example)s”.", example=self.example), *hints])

    @property
    def tappable(self) -> bool:
        """True when every field is a number or a choice, so a line can be built by taps alone (no free text)."""
        return self.text is None and self.names is None


def in_sentence(label: str) -> str:
    """A label inside a sentence ('Tap the terrain.'): lower case in English; a translated label as its language
    writes it (a German noun keeps its capital)."""
    said = _(label)
    return label.lower() if said == label else said


@dataclass(frozen=True)
class InputField:
    """One input of the calculator form, drawn from a pydantic field of the game's schema.

    The schema's words are kept in English (the inputs are drawn once for every reader) and said in the reader's
    language by label, help and placeholder.
    """

    path: str  # dotted, inside a player or the options: 'towers.red', 'captured', 'discard.crowns'
    title: str  # the English label: the schema's title (marked N_ by the game) or the field's name read aloud
    kind: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    default: Any = None
    line: LineSpec | None = None
    description: str = ""  # the schema's description (marked N_ by the game), '' for none

    @property
    def label(self) -> str:
        """The label in the reader's language."""
        return _(self.title) if self.title else ""

    @property
    def help(self) -> str:
        """The hint under the input in the reader's language: the schema's description, else how to type it."""
        if self.description:
            return _(self.description)
        if self.kind == NUMBERS:
            if self.minimum is not None and self.maximum is not None:
                return _(
                    "Numbers separated by spaces, commas or dots. Each %(low)s to %(high)s.",
                    low=self.minimum,
                    high=self.maximum,
                )
            return _("Numbers separated by spaces, commas or dots.")
        return self.line.help if self.kind == LINES and self.line else ""

    @property
    def key(self) -> str:
        """The last part of the path, used as a styling hook (e.g. a tower's suit)."""
        return self.path.rsplit(".", 1)[-1]

    def form_name(self, row: int | None = None) -> str:
        """The form field's name: 'towers.red-1' in player row 1, 'discard.crowns' for an option."""
        return self.path if row is None else f"{self.path}-{row}"

    def initial(self, row: int) -> str:
        """What a fresh form shows: a select's default (or one choice per row), blank otherwise."""
        if self.kind != CHOICE:
            return ""
        if self.default in self.choices:
            return str(self.default)
        return self.choices[row % len(self.choices)]

    @property
    def placeholder(self) -> str:
        """A hint inside an empty input: the default number, or an example line."""
        if self.kind == NUMBER:
            return str(self.default if isinstance(self.default, int) else "")
        if self.kind == NUMBERS:
            return _("e.g. 3 5 2")
        return self.line.example if self.line else ""


@dataclass(frozen=True)
class InputGroup:
    """Inputs shown together: a nested model (Spires towers) under its label, or loose fields (label '')."""

    title: str  # in English, said in the reader's language by label
    fields: tuple[InputField, ...]
    description: str = ""

    @property
    def label(self) -> str:
        """The group's legend in the reader's language ('' for loose fields)."""
        return _(self.title) if self.title else ""

    @property
    def help(self) -> str:
        """The group's hint in the reader's language ('' for none)."""
        return _(self.description) if self.description else ""


@dataclass
class CalculatorEntry:
    """What the calculator form said, as the game's raw input, with what could not be read."""

    players: list[dict[str, Any]] = dataclass_field(default_factory=list)
    options: dict[str, Any] = dataclass_field(default_factory=dict)
    rows: list[int] = dataclass_field(default_factory=list)  # the form row of each player
    lines: dict[str, list[int]] = dataclass_field(default_factory=dict)  # a textarea's game path: line of each item
    errors: list[FieldError] = dataclass_field(default_factory=list)  # by game path, like the game's own errors


def _unwrap(annotation: Any) -> tuple[Any, list[Any]]:
    """The bare type inside Annotated[...] and the constraints it carried (an item's ge/le)."""
    constraints: list[Any] = []
    while get_origin(annotation) is Annotated:
        bare, *extra = get_args(annotation)
        for item in extra:
            constraints += getattr(item, "metadata", [item])
        annotation = bare
    return annotation, constraints


def _bounds(constraints: list[Any]) -> tuple[int | None, int | None]:
    """The whole-number range that pydantic's ge/gt/le/lt constraints allow."""
    low = high = None
    for c in constraints:
        # getattr: annotated_types.Interval carries all four bounds, the unused ones as None.
        if getattr(c, "ge", None) is not None:
            low = c.ge
        elif getattr(c, "gt", None) is not None:
            low = c.gt + 1
        if getattr(c, "le", None) is not None:
            high = c.le
        elif getattr(c, "lt", None) is not None:
            high = c.lt - 1
    return low, high


def _is_model(annotation: Any) -> bool:
    """True for a pydantic model class."""
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _choices(annotation: Any) -> tuple[str, ...]:
    """The values of a Literal."""
    return tuple(str(value) for value in get_args(annotation))


def _item(annotation: Any) -> tuple[Any, list[Any]]:
    """The bare item type of list[X] / tuple[X, ...] and its constraints."""
    return _unwrap(get_args(annotation)[0])


def line_spec(model: type[BaseModel]) -> LineSpec:
    """How a line of text maps onto the fields of a small model such as a captured card."""
    ints: list[str] = []
    bounds: dict[str, tuple[int | None, int | None]] = {}
    words: dict[str, tuple[str, ...]] = {}
    word_lists: dict[str, tuple[str, ...]] = {}
    text = names = None
    for name, info in model.model_fields.items():
        bare, inner = _unwrap(info.annotation)
        if bare is int:
            ints.append(name)
            bounds[name] = _bounds([*info.metadata, *inner])
        elif get_origin(bare) is Literal:
            words[name] = _choices(bare)
        elif get_origin(bare) is list and get_origin(_item(bare)[0]) is Literal:
            word_lists[name] = _choices(_item(bare)[0])
        elif get_origin(bare) is list and _item(bare)[0] is str:
            names = name
        elif bare is str:
            text = name
        else:
            raise TypeError(f"The calculator can't read {model.__name__}.{name} from a line of text.")
    return LineSpec(tuple(ints), words, word_lists, text, names, model=model, bounds=bounds)


def input_field(path: str, info: Any) -> InputField:
    """The form input for one pydantic field."""
    bare, inner = _unwrap(info.annotation)
    low, high = _bounds([*info.metadata, *inner])
    name = path.rsplit(".", 1)[-1]
    label = info.title or field_label(name)
    default = None if info.default is PydanticUndefined else info.default
    # Kept in English: InputField says it in the reader's language (help drawn from the type where none is given).
    about = info.description or ""
    if bare is bool:
        return InputField(path, label, CHECK, default=default, description=about)
    if bare is int:
        return InputField(path, label, NUMBER, low, high, default=default, description=about)
    if get_origin(bare) is Literal:
        return InputField(path, label, CHOICE, choices=_choices(bare), default=default, description=about)
    if bare is str:
        return InputField(path, label, TEXT, default=default, description=about)
    if get_origin(bare) in (list, tuple):
        item, item_constraints = _item(bare)
        if item is int:
            low, high = _bounds(item_constraints)
            return InputField(path, label, NUMBERS, low, high, default=default, description=about)
        if _is_model(item):
            return InputField(path, label, LINES, line=line_spec(item), description=about)
    raise TypeError(f"The calculator can't draw the field {path!r} ({info.annotation!r}).")


@cache
def model_inputs(model: type[BaseModel], skip: frozenset[str] = frozenset()) -> tuple[InputGroup, ...]:
    """A model's inputs in schema order: a nested model of numbers as its own group, other fields together."""
    groups: list[InputGroup] = []
    loose: list[InputField] = []
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        bare, _constraints = _unwrap(info.annotation)
        if not _is_model(bare):
            loose.append(input_field(name, info))
            continue
        if loose:
            groups.append(InputGroup("", tuple(loose)))
            loose = []
        nested = tuple(input_field(f"{name}.{sub}", sub_info) for sub, sub_info in bare.model_fields.items())
        doc = (bare.__doc__ or "").strip().split("\n")[0]
        groups.append(InputGroup(info.title or field_label(name), nested, info.description or doc))
    if loose:
        groups.append(InputGroup("", tuple(loose)))
    return tuple(groups)


def player_inputs(game: Game) -> tuple[InputGroup, ...]:
    """Every input of a player's row except the name, from the game's player model."""
    return model_inputs(game.player_model, frozenset({"name"}))


def option_inputs(game: Game) -> tuple[InputGroup, ...]:
    """The options option_fields() does not draw (nested counts, lists of objects), from the schema."""
    drawn = frozenset(f.name for f in option_fields(game, {}))
    return model_inputs(game.options_model, drawn)


def form_context(game: Game, values: MultiDict[str, str], errors: dict[str, str], options: Any) -> dict[str, Any]:
    """What a page drawing the calculator's form needs (the calculator, a play's correction): the inputs, filled,
    the messages, the roster to pick names from, and the reference notes of these options (none for None)."""
    return {
        "game": game,
        "player_groups": player_inputs(game),
        "option_fields": option_fields(game, {}),
        "option_groups": option_inputs(game),
        "reference_notes": game.reference_notes(options) if game.reference_notes and options is not None else [],
        "roster": records.roster(get_session()),
        "values": values,
        "errors": errors,
        "locations": records.locations(get_session()),
        "name_max": NAME_MAX,
        "notes_max": NOTES_MAX,
        "location_max": LOCATION_MAX,
        "duration_max": DURATION_MAX,
    }


def _fields(groups: tuple[InputGroup, ...]) -> list[InputField]:
    """The fields of all groups, in order."""
    return [f for group in groups for f in group.fields]


def tappable_list(game: Game, name: str) -> tuple[InputField, int | None] | None:
    """The list a builder's form name belongs to ('captured-1': a player row's captured cards) and its row."""
    candidates: list[tuple[InputField, int | None]] = [
        (f, row) for f in _fields(player_inputs(game)) for row in range(game.max_players)
    ]
    candidates += [(f, None) for f in _fields(option_inputs(game))]
    for field, row in candidates:
        if field.kind == LINES and field.line and field.line.tappable and field.form_name(row) == name:
            return field, row
    return None


def parse_numbers(text: str, path: str) -> list[int]:
    """'3 5, 2' -> [3, 5, 2], or InputErrors naming the word that is not a whole number."""
    numbers = []
    for word in NUMBER_SEPARATORS.split(plain_minus(text).strip()):
        if (number := whole_number(word)) is None:
            message = _(
                "“%(word)s” is not a whole number: write numbers separated by spaces, commas or dots.", word=word
            )
            raise InputErrors([FieldError(path, message)])
        numbers.append(number)
    return numbers


def _word_field(spec: LineSpec, word: str, raw: dict[str, Any]) -> tuple[str, str] | None:
    """Which field a word fills (a Literal not yet filled, or a list of Literal), with its canonical value."""
    folded = word.casefold()
    for name, choices in spec.words.items():
        if name not in raw and folded in choices:
            return name, folded
    for name, choices in spec.word_lists.items():
        if all(part in choices for part in folded.split("+")):
            return name, folded
    return None


def parse_line(spec: LineSpec, text: str) -> dict[str, Any]:
    """One line such as '5 crystal+iron forest' or 'Explorer 6: Ann, Bob' as raw item input, or ValueError."""
    text = plain_minus(text)
    head, colon, tail = text.partition(":") if spec.names else (text, "", "")
    raw: dict[str, Any] = {}
    if spec.names and colon:
        raw[spec.names] = [name.strip() for name in tail.split(",") if name.strip()]
    ints = list(spec.ints)
    words: list[str] = []
    # Right to left: numbers belong at the end of a line that starts with free text ('Top 3 armies 6').
    for word in reversed(head.split()):
        number = whole_number(word)
        found = None if words else _word_field(spec, word, raw)
        if number is not None and ints and not words:
            raw[ints.pop()] = number
        elif found:
            name, value = found
            # Read right to left, so an earlier word goes in front to keep the order typed.
            raw[name] = value if name in spec.words else value.split("+") + raw.get(name, [])
        elif spec.text:
            words.append(word)
        else:
            raise ValueError(
                _("I can't read “%(word)s”: write a line like “%(example)s”.", word=word, example=spec.example)
            )
    if spec.text and words:
        raw[spec.text] = " ".join(reversed(words))
    return raw


def _read_lines(text: str, field: InputField, path: str, entry: CalculatorEntry) -> list[dict[str, Any]]:
    """The items of a textarea, one per non-blank line; unreadable lines become errors naming the line."""
    assert field.line is not None
    items, line_numbers = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(parse_line(field.line, line))
            line_numbers.append(number)
        except ValueError as exc:
            entry.errors.append(FieldError(path, _("Line %(line)s: %(problem)s", line=number, problem=str(exc))))
    entry.lines[path] = line_numbers
    return items


def _read_field(form: MultiDict[str, str], field: InputField, name: str, path: str, entry: CalculatorEntry) -> Any:
    """One field's raw value, or None when left blank (the schema's default applies) or unreadable."""
    if field.kind == CHECK:
        return name in form
    raw_text = form.get(name, "")
    text = raw_text.strip()
    if not text:
        return None
    try:
        if field.kind == NUMBER:
            return parse_int(plain_minus(text), path)
        if field.kind == NUMBERS:
            return parse_numbers(text, path)
    except InputErrors as exc:
        entry.errors += exc.errors
        return None
    if field.kind == LINES:
        # The text as typed, so that "Line 4" is the fourth line the person sees, blank lines included.
        return _read_lines(raw_text, field, path, entry)
    return text


def _read_model(
    form: MultiDict[str, str], fields: list[InputField], row: int | None, prefix: str, entry: CalculatorEntry
) -> dict[str, Any]:
    """The raw input of one player row (or of the options) from its form fields."""
    raw: dict[str, Any] = {}
    for f in fields:
        value = _read_field(form, f, f.form_name(row), f"{prefix}.{f.path}", entry)
        if value is not None:
            raw = with_value(raw, f.path, value)
    return raw


def _row_is_blank(form: MultiDict[str, str], row: int, name: str, fields: list[InputField]) -> bool:
    """A row with no name and nothing typed is an empty seat."""
    typed = [f for f in fields if f.kind in TYPED_KINDS]
    return not name and not any(form.get(f.form_name(row), "").strip() for f in typed)


def _with_table_defaults(game: Game, form: MultiDict[str, str]) -> MultiDict[str, str]:
    """The form with each number of an option table that was not sent at all set to its default.

    A table number typed blank is still an error; one missing from the request (a script, a form of an older
    page) means "as printed", like every other field left out.
    """
    filled = MultiDict(form)
    for option in option_fields(game, {}):
        if option.kind == TABLE:
            for i, default in enumerate(option.value):
                filled.setdefault(f"{option.name}-{i}", str(default))
    return filled


def read_calculator(game: Game, form: MultiDict[str, str]) -> CalculatorEntry:
    """Raw players and options from the calculator form; blank rows are skipped."""
    entry = CalculatorEntry()
    fields = _fields(player_inputs(game))
    for row, seat in enumerate(seat_rows(form, game.max_players)):
        if _row_is_blank(form, row, seat.name, fields):
            continue
        prefix = f"players[{len(entry.players)}]"
        entry.players.append({"name": seat.name, **_read_model(form, fields, row, prefix, entry)})
        entry.rows.append(row)
    try:
        entry.options = options_from_form(game, _with_table_defaults(game, form))
    except InputErrors as exc:
        entry.errors += exc.errors
    entry.options.update(_read_model(form, _fields(option_inputs(game)), None, "options", entry))
    return entry


def valid_options(game: Game, options: dict[str, Any]) -> Any:
    """The options as the game reads them, or None when they are not valid (a form's, or a play's stored long ago)."""
    try:
        return game.options_model.model_validate(options)
    except ValidationError:
        return None


def validate_entry(game: Game, entry: CalculatorEntry) -> tuple[list[Any], Any]:
    """The game's models from the form, or InputErrors with what could not be read and what the game refused."""
    try:
        models = game.validate(entry.players, entry.options)
    except InputErrors as refused:
        raise InputErrors(entry.errors + refused.errors) from None
    if entry.errors:
        raise InputErrors(entry.errors)
    return models


def read_notes(form: MultiDict[str, str]) -> str:
    """The notes typed with a play, or InputErrors when they are longer than a play keeps."""
    notes = form.get("notes", "").strip()
    if nul := nul_errors(notes, "notes"):
        raise InputErrors(nul)
    if len(notes) > NOTES_MAX:
        message = _("Must be at most %(max)s characters; %(typed)s typed.", max=NOTES_MAX, typed=len(notes))
        raise InputErrors([FieldError("notes", message)])
    return notes


def read_location(form: MultiDict[str, str]) -> str:
    """The place typed or picked for a play ('' for none), or InputErrors when longer than a place's name."""
    # Spaces collapsed as the store keeps the name, so the length counted is the one stored.
    place = " ".join(form.get("location", "").split())
    if nul := nul_errors(place, "location"):
        raise InputErrors(nul)
    if len(place) > LOCATION_MAX:
        message = _("Must be at most %(max)s characters; %(typed)s typed.", max=LOCATION_MAX, typed=len(place))
        raise InputErrors([FieldError("location", message)])
    return place


def read_duration(form: MultiDict[str, str]) -> int | None:
    """The minutes typed as the play's time at the table (None when left blank), or InputErrors unless 1..a day."""
    text = plain_minus(form.get("duration_min", "")).strip()
    if not text:
        return None
    minutes = whole_number(text)
    if minutes is None or not 1 <= minutes <= DURATION_MAX:
        message = _("Enter the minutes played as a whole number from 1 to %(max)s (a day).", max=grouped(DURATION_MAX))
        raise InputErrors([FieldError("duration_min", message)])
    return minutes


@dataclass(frozen=True)
class PlayDetails:
    """What the calculator's form says of the play itself: its notes, where it was played and for how long."""

    notes: str = ""
    location: str = ""
    duration_min: int | None = None


def read_details(form: MultiDict[str, str], entry: CalculatorEntry) -> PlayDetails:
    """The play's notes, place and minutes from the form; what can't be kept goes into the entry's errors."""
    read: dict[str, Any] = {}
    # Each read on its own, so one round trip shows every message, with whatever else is wrong.
    for name, reader in (("notes", read_notes), ("location", read_location), ("duration_min", read_duration)):
        try:
            read[name] = reader(form)
        except InputErrors as refused:
            entry.errors += refused.errors
    return PlayDetails(**read)


def _beside_in(
    fields: list[InputField], rest: str, row: int | None, list_path: str, entry: CalculatorEntry, message: str
) -> tuple[str, str] | None:
    """The form field a path inside a player or the options belongs to, and the message as said there (introduced
    by the line or the number of a list it is about)."""
    matches = [f for f in fields if rest == f.path or rest.startswith((f.path + ".", f.path + "["))]
    if not matches:
        # A message about a whole group (e.g. options.discard) stands beside the group's first input.
        inside = [f for f in fields if f.path.startswith(rest + ".")]
        return (inside[0].form_name(row), message) if inside else None
    f = max(matches, key=lambda m: len(m.path))
    index = INDEXED.match(rest[len(f.path) :])
    if index is None:
        return f.form_name(row), message
    position, inner = int(index.group(1)), index.group(2)
    if f.kind == LINES:
        numbers = entry.lines.get(f"{list_path}.{f.path}", [])
        line = numbers[position] if position < len(numbers) else position + 1
        if inner:
            return f.form_name(row), _("Line %(line)s (%(part)s): %(problem)s", line=line, part=inner, problem=message)
        return f.form_name(row), _("Line %(line)s: %(problem)s", line=line, problem=message)
    return f.form_name(row), _("Number %(number)s: %(problem)s", number=position + 1, problem=message)


def _beside(game: Game, entry: CalculatorEntry, error: FieldError) -> tuple[str, str]:
    """The form key an error is shown beside ('' for the whole form) and its message."""
    match = PLAYER_ERROR.fullmatch(error.field)
    if match and int(match.group(1)) < len(entry.rows):
        row = entry.rows[int(match.group(1))]
        fields = [InputField("name", "Name", TEXT), *_fields(player_inputs(game))]
        placed = _beside_in(fields, match.group(2), row, f"players[{match.group(1)}]", entry, error.message)
        return placed or (f"player-{row}", error.message)
    if error.field.startswith("options."):
        tables = [InputField(f.name, f.label, NUMBERS) for f in option_fields(game, {})]
        fields = tables + _fields(option_inputs(game))
        placed = _beside_in(fields, error.field.removeprefix("options."), None, "options", entry, error.message)
        return placed or ("options", error.message)
    return (error.field if error.field in PLAY_FIELDS else ""), error.message


def calculator_messages(game: Game, entry: CalculatorEntry, errors: InputErrors) -> dict[str, str]:
    """Each error's message keyed by the form field it stands beside (several joined)."""
    messages: dict[str, str] = {}
    for error in errors.errors:
        key, message = _beside(game, entry, error)
        if message not in messages.get(key, ""):
            messages[key] = f"{messages[key]} {message}" if key in messages else message
    return messages


def format_line(spec: LineSpec, item: dict[str, Any]) -> str:
    """One item of a list as a line parse_line reads back: free text, numbers, word lists, words, ': names'."""
    words = [str(item[spec.text])] if spec.text and item.get(spec.text) else []
    words += [str(item[name]) for name in spec.ints if item.get(name) is not None]
    words += ["+".join(item[name]) for name in spec.word_lists if item.get(name)]
    words += [str(item[name]) for name in spec.words if item.get(name) is not None]
    names = ", ".join(item.get(spec.names) or []) if spec.names else ""
    return " ".join(words) + (f": {names}" if names else "")


def _write_field(values: MultiDict[str, str], field: InputField, name: str, value: Any) -> None:
    """Put one raw value into the form the way a person would have typed it (None: left blank)."""
    if value is None:
        return
    if field.kind == CHECK:
        if value:
            values[name] = "on"
    elif field.kind == NUMBERS:
        values[name] = " ".join(str(number) for number in value)
    elif field.kind == LINES and field.line is not None:
        values[name] = "\n".join(format_line(field.line, item) for item in value)
    else:
        values[name] = str(value)


def form_values(game: Game, players: list[dict[str, Any]], options: dict[str, Any]) -> MultiDict[str, str]:
    """The calculator form filled with raw inputs, the reverse of read_calculator: a saved play to correct."""
    values: MultiDict[str, str] = MultiDict(option_values(game, options))
    fields = _fields(player_inputs(game))
    for row, raw in enumerate(players):
        values[f"name-{row}"] = str(raw.get("name", ""))
        for f in fields:
            _write_field(values, f, f.form_name(row), read_path(raw, f.path))
    for f in _fields(option_inputs(game)):
        _write_field(values, f, f.form_name(None), read_path(options, f.path))
    return values
