"""Turning HTML form fields into the raw input a game validates, and a game's options into form fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from companion.games.base import NAME_MAX, FieldError, Game, InputErrors
from companion.language import _

# Labels come from field names; these words are read as capitals at the table.
ACRONYMS = {"vp": "VP"}
# An option is a switch, or a table of a fixed count of numbers drawn as one input each ('level_vp-0' ...).
CHECKBOX, TABLE = "checkbox", "table"


@dataclass(frozen=True)
class OptionField:
    """One option as the new-play and calculator forms show it."""

    name: str
    label: str
    kind: str  # CHECKBOX or TABLE
    value: Any
    help: str


@dataclass
class SeatRow:
    """One row of the new-play form: a name and a colour."""

    name: str
    colour: str


def whole_number(text: str) -> int | None:
    """The text as a whole number, or None."""
    try:
        return int(text)
    except ValueError:
        return None


def parse_int(text: str | None, field: str) -> int:
    """A whole number typed into a form, or InputErrors naming the field."""
    number = whole_number((text or "").strip())
    if number is None:
        raise InputErrors([FieldError(field, _("Enter a whole number."))])
    return number


def field_label(name: str) -> str:
    """A schema field's label when it has no title of its own: 'scroll_vp' -> 'Scroll VP'."""
    text = " ".join(ACRONYMS.get(word, word) for word in name.split("_"))
    return text[:1].upper() + text[1:]


def option_fields(game: Game, options: dict[str, Any]) -> list[OptionField]:
    """The options a person sets before play: switches and tables of numbers, from the game's schema."""
    fields = []
    for name, info in game.options_model.model_fields.items():
        value = options.get(name, info.default)
        # A game marks its options' titles and descriptions for the catalogue (N_): said here in the reader's language.
        label = _(info.title) if info.title else field_label(name)
        help_text = _(info.description) if info.description else ""
        if info.annotation is bool:
            fields.append(OptionField(name, label, CHECKBOX, bool(value), help_text))
        elif isinstance(info.default, (tuple, list)) and all(isinstance(v, int) for v in info.default):
            fields.append(OptionField(name, label, TABLE, list(value), help_text))
    return fields


def options_from_form(game: Game, form: MultiDict[str, str]) -> dict[str, Any]:
    """Raw options from the form fields option_fields() drew; a table sent with none of its fields keeps its default."""
    options: dict[str, Any] = {}
    errors = []
    for field in option_fields(game, {}):
        if field.kind == CHECKBOX:
            options[field.name] = field.name in form
        elif any(f"{field.name}-{i}" in form for i in range(len(field.value))):
            numbers = []
            for i in range(len(field.value)):
                try:
                    numbers.append(parse_int(form.get(f"{field.name}-{i}"), f"options.{field.name}[{i}]"))
                except InputErrors as exc:
                    errors += exc.errors
            options[field.name] = numbers
    if errors:
        raise InputErrors(errors)
    return options


def passed_left(rows: list[SeatRow]) -> list[SeatRow]:
    """The same players with their colours for the next game: the first player passed to the left (the second
    player starts, the first plays last)."""
    return rows[1:] + rows[:1]


def new_play_fields(game: Game, rows: list[SeatRow], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The new-play form's fields, filled: the game, each row's name and colour, the options as option_fields()
    draws them. Posted as they are, they start that play in one tap (Play again)."""
    fields = [("game", game.id)]
    for i, row in enumerate(rows):
        fields += [(f"name-{i}", row.name), (f"colour-{i}", row.colour)]
    return fields + option_values(game, options)


def option_values(game: Game, options: dict[str, Any]) -> list[tuple[str, str]]:
    """The option fields as option_fields() draws them, filled as a person would have set them (the new-play form
    and the calculator's, to play again or correct a play)."""
    values: list[tuple[str, str]] = []
    for option in option_fields(game, options):
        if option.kind == CHECKBOX:
            values += [(option.name, "on")] if option.value else []
        else:
            values += [(f"{option.name}-{i}", str(v)) for i, v in enumerate(option.value)]
    return values


def seat_rows(form: MultiDict[str, str], count: int) -> list[SeatRow]:
    """The name and colour rows of the new-play form, names trimmed."""
    return [
        SeatRow(" ".join(form.get(f"name-{i}", "").split())[: NAME_MAX * 2], form.get(f"colour-{i}", ""))
        for i in range(count)
    ]


def colour_errors(game: Game, rows: list[SeatRow], row_of_player: list[int]) -> dict[str, str]:
    """The game's colour messages for the filled rows, beside each row's colour field ('colour-<row>')."""
    errors = game.colour_errors([rows[row].colour for row in row_of_player])
    return {f"colour-{row_of_player[int(e.field.split('[')[1].split(']')[0])]}": e.message for e in errors}


def players_from_rows(rows: list[SeatRow]) -> tuple[list[dict[str, Any]], list[int]]:
    """Raw players from the filled rows, and for each the row it came from (for messages beside it)."""
    filled = [(i, row) for i, row in enumerate(rows) if row.name]
    return [{"name": row.name} for _index, row in filled], [index for index, _row in filled]


def row_errors(errors: InputErrors, row_of_player: list[int]) -> dict[str, str]:
    """Map 'players[1].name' and 'players[1].colour' messages onto the form's row fields; others to 'players'."""
    messages: dict[str, str] = {}
    for error in errors.errors:
        field = error.field
        for index, row in enumerate(row_of_player):
            prefix = f"players[{index}]"
            if field.startswith(prefix):
                beside = {f"{prefix}.name": f"name-{row}", f"{prefix}.colour": f"colour-{row}"}
                field = beside.get(field, "players")
                break
        messages.setdefault(field, error.message)
    return messages
