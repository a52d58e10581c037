"""Tap entry for a calculator list such as Conquest of Speros's captured cards: a line built from chips and a
stepper, appended to the list's text, and a line taken out again. The text stays the one source of truth, so the
typed syntax ("5 crystal+iron forest") and the taps always agree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from werkzeug.datastructures import MultiDict

from companion.calculator.forms import InputField, LineSpec, in_sentence, parse_line
from companion.games.base import FieldError, InputErrors, said_error
from companion.games.wording import plain_minus
from companion.language import _
from companion.web.forms import whole_number

# The stepper starts at 1 VP, the value most printed cards show, kept inside the field's range.
STEPPER_START = 1


@dataclass(frozen=True)
class LineItem:
    """One readable line of a list, with the line number it has in the text (to take it out again)."""

    number: int
    label: str
    tags: tuple[str, ...] = ()  # styling hooks from its choices: 'terrain-forest'


def part_name(list_name: str, part: str) -> str:
    """The form name of one tap control of a list's builder: 'captured-0:terrain'."""
    return f"{list_name}:{part}"


def stepper_start(spec: LineSpec, part: str) -> int:
    """Where a number's stepper starts: 1, or the nearest value its range allows."""
    low, high = spec.bounds.get(part, (None, None))
    start = STEPPER_START if low is None else max(low, STEPPER_START)
    return start if high is None else min(high, start)


def compose_line(spec: LineSpec, raw: dict[str, Any]) -> str:
    """The line of text parse_line reads back as `raw`: numbers, then resources joined with '+', then the choices."""
    parts = [str(raw[name]) for name in spec.ints]
    parts += ["+".join(raw[name]) for name in spec.word_lists if raw.get(name)]
    parts += [str(raw[name]) for name in spec.words]
    return " ".join(parts)


def _label(spec: LineSpec, raw: dict[str, Any]) -> str:
    """A line as a player reads it: 'Forest · crystal, iron · 5 VP'."""
    assert spec.model is not None
    parts = []
    for name in spec.model.model_fields:
        if name not in raw:
            continue
        value = raw[name]
        if name in spec.ints:
            parts.append(f"{value} {spec.part_label(name)}")
        elif name in spec.word_lists:
            parts.append(", ".join(value))
        else:
            parts.append(str(value).capitalize())
    return " · ".join(parts)


def line_items(field: InputField, text: str) -> list[LineItem]:
    """The readable lines of a list's text; lines that can't be read are left to the form's error message."""
    assert field.line is not None
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = parse_line(field.line, line)
        except ValueError:
            continue
        tags = tuple(f"{part}-{raw[part]}" for part in field.line.words if part in raw)
        items.append(LineItem(number, _label(field.line, raw), tags))
    return items


def _tapped(spec: LineSpec, form: MultiDict[str, str], list_name: str) -> dict[str, Any]:
    """What the builder's chips and stepper say, as the item's raw input (unset choices left out)."""
    raw: dict[str, Any] = {}
    for name in spec.words:
        if value := form.get(part_name(list_name, name), "").strip():
            raw[name] = value
    for name in spec.word_lists:
        raw[name] = [v for v in form.getlist(part_name(list_name, name)) if v.strip()]
    for name in spec.ints:
        text = plain_minus(form.get(part_name(list_name, name), "").strip())
        # Left a text when it is not a number: the model says what is wrong with it.
        raw[name] = text if (number := whole_number(text)) is None else number
    return raw


def _tap_message(spec: LineSpec, exc: ValidationError) -> str:
    """What the builder's taps lack, in one message: 'Tap the terrain. VP: Must be at most 20.'"""
    messages = []
    for error in exc.errors():
        where = str(error["loc"][0]) if error["loc"] else ""
        label = spec.part_label(where) if where else ""
        message = said_error(dict(error))
        if error["type"] == "missing":
            messages.append(_("Tap the %(part)s.", part=in_sentence(spec.part_title(where))))
        elif label and not message.endswith("?"):
            messages.append(_("%(part)s: %(problem)s", part=label, problem=message))
        else:
            # A question ("Which resource does this card show?") already names what to tap.
            messages.append(message)
    return " ".join(dict.fromkeys(messages))


def built_line(field: InputField, form: MultiDict[str, str], list_name: str) -> str:
    """The line the builder's taps make, checked by the item's model, or InputErrors saying what to tap."""
    spec = field.line
    assert spec is not None and spec.model is not None
    raw = _tapped(spec, form, list_name)
    try:
        item = spec.model.model_validate(raw)
    except ValidationError as exc:
        raise InputErrors([FieldError(part_name(list_name, "add"), _tap_message(spec, exc))]) from None
    return compose_line(spec, item.model_dump())


def with_line(text: str, line: str) -> str:
    """The list's text with one more line at the end."""
    kept = text.rstrip("\r\n")
    return f"{kept}\n{line}" if kept.strip() else line


def without_line(text: str, number: int) -> str:
    """The list's text without its line `number` (1-based); an out-of-range number changes nothing."""
    lines = text.splitlines()
    if 1 <= number <= len(lines):
        del lines[number - 1]
    return "\n".join(lines)
