"""The house style of what the app writes: numbers with the true minus, signed points, ordinals, days and times
in UTC, lists of names. Every sentence, page, sheet and export spells these through here, one way."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

MINUS = "−"
# What a player may type for a minus: the hyphen, the true minus, the en and em dashes.
MINUS_SIGNS = str.maketrans({MINUS: "-", "–": "-", "—": "-"})
# What the pages show where there is no figure.
NO_FIGURE = "–"


def figure(number: int) -> str:
    """A whole number as the sentences write it: '7', and '−3' with the true minus."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def signed(points: int | None) -> str:
    """Points with their sign: '+5', '−4', '0'; nothing for none."""
    if points is None:
        return ""
    return f"+{points}" if points > 0 else figure(points)


def decimal(value: float | None) -> str:
    """An average with one decimal and the true minus ('42.5', '−1.3'); '–' for none."""
    if value is None:
        return NO_FIGURE
    return f"{value:.1f}".replace("-", MINUS)


def percent(value: float | None) -> str:
    """A rate as a whole percentage ('42%'); '–' for none."""
    return NO_FIGURE if value is None else f"{round(value * 100)}%"


def plain_minus(text: str) -> str:
    """Typed text with every kind of minus made the hyphen Python reads ('−3' -> '-3')."""
    return text.translate(MINUS_SIGNS)


def ordinal(number: int) -> str:
    """'1st', '2nd', '3rd', '4th', '11th', '21st'."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 card', '3 cards'."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def join_names(names: Sequence[str], last: str = "and") -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'; with last="or", 'crystal, iron or gold'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def sum_text(values: Sequence[int]) -> str:
    """'3 + 2 − 1' for [3, 2, -1]: the terms of a sum, with the true minus."""
    text = figure(values[0])
    for value in values[1:]:
        text += f" − {-value}" if value < 0 else f" + {value}"
    return text


def capital(text: str) -> str:
    """The text with its first letter in upper case and the rest as written ('red 3' -> 'Red 3'): str.capitalize()
    would lowercase a rule's own words ('Civilization Level')."""
    return text[:1].upper() + text[1:]


def duration(minutes: int) -> str:
    """Time at the table as every page and sheet writes it: '45 min', '1 h 5 min', '2 h', 'under a minute'."""
    if minutes < 1:
        return "under a minute"
    hours, rest = divmod(minutes, 60)
    return " ".join(part for part in (f"{hours:,} h" if hours else "", f"{rest} min" if rest else "") if part)


def utc(moment: datetime) -> datetime:
    """A stored moment in UTC: the database may give it back without its zone (we store UTC), an aware one is
    converted."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def day(moment: date | datetime) -> str:
    """A day as every page and sheet writes it: '2 Nov 2026' (a moment's day in UTC)."""
    if isinstance(moment, datetime):
        moment = utc(moment).date()
    return f"{moment.day} {moment:%b %Y}"


def clock(moment: datetime) -> str:
    """A moment's time of day in UTC, as the log writes it: '14:05'."""
    return f"{utc(moment):%H:%M}"


def day_and_clock(moment: datetime) -> str:
    """A moment as the in-progress lists write it: '2 Nov 2026, 14:05'."""
    return f"{day(moment)}, {clock(moment)}"
