"""Layouts that hold at every width (issue 10): on every tracker (4 players; 5 for Spyrium) and every calculator,
at phone, tablet upright and tablet landscape widths and the edges around them, no control is smaller than
44 × 44 px, leaves the viewport, or is partly covered by another element (several points of each hit-tested).

Uses the live_server and browser fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from tests.browser.targets import CONTROLS, target_problems

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

# 360: a small phone; 390: a phone; 820 and 960: a tablet upright (where Spires' counters once overflowed);
# 1180: a tablet on its side; 1400: a laptop.
WIDTHS = {360: 740, 390: 844, 820: 1180, 960: 1280, 1180: 820, 1400: 900}
PLAYERS = {"spires": 4, "spqf": 4, "spyrium": 5, "speros": 4}
NAMES = ("Ann", "Bob", "Cleo", "Dev", "Eli")
# The score strip's names are tap targets too (each jumps to a seat).
TRACKER_CONTROLS = CONTROLS + ", .score-strip a"


def start(page, live_server: str, game: str) -> None:
    """Start a play of the game with its most common full table, through the new-play form."""
    page.goto(f"{live_server}/plays/new?game={game}")
    for i in range(PLAYERS[game]):
        page.locator(f"input[name=name-{i}]").fill(NAMES[i])
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))


def _check(page, scope: str, controls: str = CONTROLS) -> None:
    problems = target_problems(page, scope, controls)
    width = page.viewport_size["width"]
    assert problems == [], f"{len(problems)} problems at {width} px:\n" + "\n".join(problems)


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_tracker_controls_hold_at_every_width(browser, live_server: str, game: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    try:
        page = context.new_page()
        start(page, live_server, game)
        _check(page, "#tracker", TRACKER_CONTROLS)
    finally:
        context.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_calculator_controls_hold_at_every_width(browser, live_server: str, game: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/calculator/{game}")
        _check(page, "#calculator")
    finally:
        context.close()
