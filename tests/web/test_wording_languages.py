"""The house style's numbers, days and lists (companion/games/wording.py) in French and in German: each language
writes them its own way (Babel's numbers and days, the catalogue's ordinals, lists and durations), and English stays
exactly as before."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime

import pytest
from babel.dates import format_date
from flask import Flask

from companion.games import wording
from companion.games.base import winners_sentence

MOMENT = datetime(2026, 11, 2, 14, 5, tzinfo=UTC)


@contextmanager
def reading(app: Flask, language: str) -> Iterator[None]:
    """A request from a browser that asks for this language."""
    with app.test_request_context("/", headers={"Accept-Language": language}):
        yield


def test_english_reads_as_it_always_has(app: Flask) -> None:
    with reading(app, "en"):
        assert [wording.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
            "1st",
            "2nd",
            "3rd",
            "4th",
            "11th",
            "12th",
            "13th",
            "21st",
            "22nd",
            "101st",
            "111th",
        ]
        assert wording.join_names(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"
        assert wording.join_names(["crystal", "iron", "gold"], "or") == "crystal, iron or gold"
        assert wording.duration(0) == "under a minute"
        assert wording.duration(65) == "1 h 5 min"
        assert wording.duration(60_000) == "1,000 h"
        assert wording.day(MOMENT) == "2 Nov 2026"
        assert [wording.day(date(2026, month, 2)).split()[1] for month in range(1, 13)] == (
            ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        )
        assert wording.day_and_clock(MOMENT) == "2 Nov 2026, 14:05"
        assert wording.decimal(42.5) == "42.5"
        assert wording.decimal(-1.25) == "−1.2"
        assert wording.percent(0.42) == "42%"


def test_french(app: Flask) -> None:
    with reading(app, "fr"):
        assert [wording.ordinal(n) for n in (1, 2, 3, 4, 11, 21, 101)] == [
            "1er",
            "2e",
            "3e",
            "4e",
            "11e",
            "21e",
            "101e",
        ]
        assert wording.join_names(["Ann", "Bob"]) == "Ann et Bob"
        assert wording.join_names(["Ann", "Bob", "Cy"]) == "Ann, Bob et Cy"
        assert wording.join_names(["crystal", "iron", "gold"], "or") == "crystal, iron ou gold"
        assert wording.duration(0) == "moins d'une minute"
        assert wording.duration(45) == "45 min"
        assert wording.duration(65) == "1 h 5 min"
        assert wording.duration(60_000) == "1\u202f000 h"
        assert wording.day(MOMENT) == "2 nov. 2026"
        assert wording.day_and_clock(MOMENT) == "2 nov. 2026, 14:05"
        assert wording.decimal(42.5) == "42,5"
        assert wording.decimal(-1.25) == "−1,2"
        assert wording.percent(0.42) == "42\u00a0%"
        assert wording.grouped(1024) == "1\u202f024"
        # The sentences built from them.
        result = {"players": [{"name": "Ann", "rank": 1, "total": 42}, {"name": "Bob", "rank": 2, "total": 30}]}
        assert winners_sentence(result) == "Ann gagne avec 42 PV."


def test_german(app: Flask) -> None:
    with reading(app, "de"):
        assert [wording.ordinal(n) for n in (1, 2, 3, 11, 21)] == ["1.", "2.", "3.", "11.", "21."]
        assert wording.join_names(["Ann", "Bob", "Cy"]) == "Ann, Bob und Cy"
        assert wording.join_names(["crystal", "iron", "gold"], "or") == "crystal, iron oder gold"
        assert wording.duration(0) == "weniger als eine Minute"
        assert wording.duration(65) == "1 Std. 5 Min."
        assert wording.duration(60_000) == "1.000 Std."
        assert wording.day(MOMENT) == "2. Nov. 2026"
        assert wording.day_and_clock(MOMENT) == "2. Nov. 2026, 14:05"
        assert wording.decimal(42.5) == "42,5"
        assert wording.percent(0.42) == "42\u00a0%"
        result = {"players": [{"name": "Ann", "rank": 1, "total": 40}, {"name": "Bob", "rank": 1, "total": 40}]}
        assert winners_sentence(result) == "Ann und Bob teilen sich den Sieg mit 40 SP."


@pytest.mark.parametrize(("language", "pattern"), [("fr", "d MMM y"), ("de", "d. MMM y")])
def test_every_month_as_the_language_abbreviates_it(app: Flask, language: str, pattern: str) -> None:
    # Babel's (CLDR's) short months, as the language's own calendars print them.
    with reading(app, language):
        for month in range(1, 13):
            day = date(2026, month, 2)
            assert wording.day(day) == format_date(day, pattern, locale=language)


def test_outside_a_request_it_is_english() -> None:
    assert wording.ordinal(2) == "2nd"
    assert wording.day(MOMENT) == "2 Nov 2026"
    assert wording.decimal(42.5) == "42.5"
