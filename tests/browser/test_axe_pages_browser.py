"""axe-core on every kind of page in Chromium, at a phone's width (390 px), a tablet upright (820 px) and on its side
(1180 px), light and dark: no serious or critical violation (issues 17 and 33), axe's experimental rule
label-content-name-mismatch included (tests/browser/axe.py), and every control showing its text in its name.

The pages: each game's tracker mid-game for 2 and for 4 players with every panel open (What happened read, the
setup, the game's own folded parts: all the page shows as it loads, and what it folds away); the result of a finished tracked play with its story (Score
over time), the history, a player's page and the game's page; the calculators. Each case is one page of one size:
it is checked light, then switched to dark (the device's scheme, emulated) and checked again, without a reload.

The plays are started and tapped through the JSON API (README, "Track a game live"), as another device would. Uses
the live_server and browser fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.axe import OPEN_DETAILS, api, axe_violations, describe, label_not_in_name
from tests.browser.tracker import VIEWPORTS

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

NAMES = ("Ann", "Bob", "Cy", "Di")
# Conquest of Speros seats every player in a colour of the box; the other games need none.
COLOURS = {"speros": ("green", "red", "blue", "black")}

# A few taps per game, a game under way; a tap of a player not at the table (Cy, Di in a game for 2) is left out.
TAPS: dict[str, list[dict[str, Any]]] = {
    "spires": [
        {"action": "add", "player": "Ann", "field": "towers.red", "delta": 2},
        {"action": "add", "player": "Bob", "field": "crowns", "delta": 1},
        {"action": "add", "player": "Cy", "field": "swords", "delta": 2},
        # A tower of 4 cards: the warning colours are on the page too.
        {"action": "add", "player": "Di", "field": "towers.blue", "delta": 4},
    ],
    "spqf": [
        {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 2},
        {"action": "set", "player": "Bob", "field": "civ_level", "value": 1},
        {"action": "next_turn"},
        {"action": "add", "player": "Bob", "field": "vp_cards", "delta": 1},
        {"action": "add", "player": "Di", "field": "vp_tokens", "delta": 3},
    ],
    "spyrium": [
        {"action": "start_turn"},
        {"action": "add", "player": "Ann", "field": "vp_track", "delta": 3},
        {"action": "build", "player": "Bob", "vp": 2, "cost": 4},
        {"action": "add", "player": "Cy", "field": "money", "delta": 2},
    ],
    "speros": [
        {"action": "explore", "player": "Ann", "terrain": "forest", "encampments": 3, "vp": 2, "resources": ["iron"]},
        {"action": "deploy", "player": "Bob", "card": 1},
        {"action": "deploy", "player": "Ann", "card": 1, "kind": "general"},
    ],
}
COUNTS = (2, 4)
# The finished play: its result (with its story), the history, its first player's page and its game's page.
FINISHED = "spqf"
CALCULATORS = ["/calculator/", *(f"/calculator/{game}" for game in TAPS)]


def mid_game(base: str, game: str, count: int) -> tuple[int, int]:
    """Start a tracked play of the game for `count` players and make their taps; the play's id and the taps made."""
    colours = COLOURS.get(game)
    players = [{"name": name} | ({"colour": colours[i]} if colours else {}) for i, name in enumerate(NAMES[:count])]
    play = api(base, "/api/v1/plays", {"game": game, "track": True, "players": players})
    taps = [tap for tap in TAPS[game] if tap.get("player", NAMES[0]) in NAMES[:count]]
    for tap in taps:
        api(base, f"/api/v1/plays/{play['id']}/actions", tap)
    return play["id"], len(taps)


def check(page, where: str, found: dict[str, str]) -> None:
    """The page as it stands, light and then dark: each axe finding, and each control whose name hides its text,
    into `found` under `where`; the page is left dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        violations = axe_violations(page)
        if violations:
            found[f"{where}, {scheme}"] = describe(violations)
    # The names are the same in either theme.
    hidden_text = label_not_in_name(page)
    if hidden_text:
        found[f"{where}, label in name"] = "\n".join(hidden_text)


def tracker_case(game: str, count: int) -> Callable[[Any, str, dict[str, str]], None]:
    """A tracker mid-game for `count` players, checked with every panel open."""

    def visit(page, base: str, found: dict[str, str]) -> None:
        play, taps = mid_game(base, game, count)
        page.goto(f"{base}/plays/{play}")
        assert page.locator(f"#tracker.game-{game} section.seat").count() == count
        if game == "speros":  # the card in play, with the units on it, is what the Skirmish Area shows
            assert page.get_by_text("Forest card 1").first.is_visible()
        # What happened, read from the server when first opened: every tap made above is in it.
        page.locator("#log > summary").click()
        page.locator("#log-list > li").nth(taps - 1).wait_for()
        assert re.search(r"\w", page.locator("#log-list").inner_text())
        page.evaluate(OPEN_DETAILS)
        check(page, "every panel open", found)

    return visit


def finished_case(page, base: str, found: dict[str, str]) -> None:
    """A finished tracked play's result with its story, then the history, its first player's and its game's page."""
    play, _ = mid_game(base, FINISHED, 4)
    api(base, f"/api/v1/plays/{play}/finish", {})
    # A fresh database: the play's first player is player 1.
    for url in (f"/plays/{play}", "/history", "/players/1", f"/games/{FINISHED}"):
        page.goto(base + url)
        if url == f"/plays/{play}":
            assert page.locator("#result").count() == 1 and page.locator("#story svg.chart-race").count() == 1
            page.evaluate(OPEN_DETAILS)
        check(page, url, found)


def calculators_case(page, base: str, found: dict[str, str]) -> None:
    """The calculators' index and each game's calculator."""
    for url in CALCULATORS:
        page.goto(base + url)
        check(page, url, found)


CASES: dict[str, Callable[[Any, str, dict[str, str]], None]] = {
    **{f"{game}-{count}p": tracker_case(game, count) for game in TAPS for count in COUNTS},
    "finished-play": finished_case,
    "calculators": calculators_case,
}


@pytest.mark.parametrize("width", VIEWPORTS, ids=[f"{w}px" for w in VIEWPORTS])
@pytest.mark.parametrize("case", CASES)
def test_no_serious_axe_violation_light_or_dark(browser, live_server: str, case: str, width: int) -> None:
    """One page (or a few of a kind) at one size, light and dark: nothing serious or critical, every name says what
    its control shows."""
    w, h = VIEWPORTS[width]
    # bypass_csp lets axe go in as a script tag; the app has no inline script or style, so the page is the same.
    context = browser.new_context(
        viewport={"width": w, "height": h}, color_scheme="light", bypass_csp=True, service_workers="block"
    )
    page = context.new_page()
    found: dict[str, str] = {}
    try:
        CASES[case](page, live_server, found)
    finally:
        context.close()
    assert not found, f"{case} at {width} px:\n" + "\n".join(f"{where}:\n{text}" for where, text in found.items())
