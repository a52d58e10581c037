"""The house style of what the app writes: numbers with the true minus, signed points, ordinals, days and times
in UTC, lists of names. Every sentence, page, sheet and export spells these through here, one way.

In the reader's language: numbers, percentages and days are Babel's (CLDR's) for the reader's locale ("42,5",
"1 024", "2. Nov. 2026"); ordinals, lists of names and durations are messages of the catalogue
(companion/language.py; the rules core knows nothing of Flask), the English exactly as written before any
translation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from companion.language import _, code, pgettext

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
    """An average with one decimal and the true minus ('42.5', '−1.3'; French and German '42,5'); '–' for none."""
    if value is None:
        return NO_FIGURE
    return format_decimal(value, format="0.0", locale=code()).replace("-", MINUS)


def percent(value: float | None) -> str:
    """A rate as a whole percentage ('42%', French and German '42 %'); '–' for none."""
    return NO_FIGURE if value is None else format_percent(value, locale=code())


def grouped(number: int) -> str:
    """A whole number with its thousands grouped as the language writes them ('1,024', French '1 024', German
    '1.024'), a negative one with the true minus."""
    return format_decimal(number, format="#,##0", locale=code()).replace("-", MINUS)


def plain_minus(text: str) -> str:
    """Typed text with every kind of minus made the hyphen Python reads ('−3' -> '-3')."""
    return text.translate(MINUS_SIGNS)


def ordinal(number: int) -> str:
    """'1st', '2nd', '3rd', '4th', '11th', '21st' (French '1er', '2e'; German '1.', '2.')."""
    # One message per English ending, so that each language writes its own: French 1 alone is '1er'.
    if number == 1:
        return pgettext("ordinal", "1st")
    if 10 <= number % 100 <= 20:
        return pgettext("ordinal", "%(number)sth", number=number)
    last = number % 10
    if last == 1:
        return pgettext("ordinal", "%(number)sst", number=number)
    if last == 2:
        return pgettext("ordinal", "%(number)snd", number=number)
    if last == 3:
        return pgettext("ordinal", "%(number)srd", number=number)
    return pgettext("ordinal", "%(number)sth", number=number)


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 card', '3 cards': English only (a word glued to a count can't be translated); a sentence in the reader's
    language says its count with ngettext (companion/language.py) instead."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def join_names(names: Sequence[str], last: str = "and") -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy' (no comma before the last); with last="or", 'crystal, iron or gold'.
    In the reader's language ('Ann, Bob et Cy', 'Ann, Bob und Cy'); another last word is put in as given."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    others = ", ".join(names[:-1])
    if last == "and":
        return pgettext("list of names", "%(others)s and %(last)s", others=others, last=names[-1])
    if last == "or":
        return pgettext("list of names", "%(others)s or %(last)s", others=others, last=names[-1])
    return f"{others} {last} {names[-1]}"


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
        return _("under a minute")
    hours, rest = divmod(minutes, 60)
    parts = (
        pgettext("duration", "%(hours)s h", hours=grouped(hours)) if hours else "",
        pgettext("duration", "%(minutes)s min", minutes=rest) if rest else "",
    )
    return " ".join(part for part in parts if part)


def utc(moment: datetime) -> datetime:
    """A stored moment in UTC: the database may give it back without its zone (we store UTC), an aware one is
    converted."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def day(moment: date | datetime) -> str:
    """A day as every page and sheet writes it: '2 Nov 2026' (a moment's day in UTC); French '2 nov. 2026', German
    '2. Nov. 2026'."""
    if isinstance(moment, datetime):
        moment = utc(moment).date()
    # The order and the marks around the parts are the language's (a CLDR pattern); the month's name is Babel's.
    return format_date(moment, pgettext("CLDR date pattern", "d MMM y"), locale=code())


def month_short(month: int) -> str:
    """A month's short name, 1 to 12: 'Jan', 'Nov' (French 'janv.', 'nov.'; German 'Jan.', 'Nov.')."""
    return format_date(date(2000, month, 1), "MMM", locale=code())


def clock(moment: datetime) -> str:
    """A moment's time of day in UTC, as the log writes it: '14:05'."""
    return f"{utc(moment):%H:%M}"


def day_and_clock(moment: datetime) -> str:
    """A moment as the in-progress lists write it: '2 Nov 2026, 14:05'."""
    return pgettext("day and time", "%(day)s, %(time)s", day=day(moment), time=clock(moment))
