"""The result grid in a real browser: it fits a phone and two tablet sizes without the page scrolling sideways, a
line's reasons open by tap and by keyboard, axe-core finds nothing serious, and screenshots are kept for a look.

Uses the live_server and browser fixtures of tests/browser/conftest.py. Screenshots go to /tmp/shots-result (or
$RESULT_SHOTS), never into the repository.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.axe import axe_violations, describe, violations_within
from tests.browser.tracker import VIEWPORTS

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

# A phone, a tablet held upright, the same tablet on its side.
MIN_TARGET = 44
SHOTS = Path(os.environ.get("RESULT_SHOTS", "/tmp/shots-result"))

# Four players, every Spires line used by someone: Bob wins with 62.
SPIRES_FOUR = [
    {"name": "Ann", "towers": {"red": 3, "blue": 2, "green": 5}, "crowns": 3, "scroll_vp": 8},
    {"name": "Bob", "towers": {"purple": 3, "black": 1}, "swords": 4, "quills": 2, "scroll_vp": 12},
    {"name": "Cleopatra", "towers": {"green": 2}, "crowns": 1, "scroll_vp": 4},
    {"name": "Dee", "towers": {"yellow": 3}, "swords": 2, "scroll_vp": 6},
]
# Five players, Spyrium's most; Ann and Eve tie on 40 and share the victory (Spyrium has no tie-break).
SPYRIUM_FIVE = [
    {"name": "Ann", "vp_track": 30, "building_vp": [3, 5, 2]},
    {"name": "Bob", "vp_track": 35, "building_vp": [4]},
    {"name": "Cy", "vp_track": 20, "technique_vp": [7, 6]},
    {"name": "Dee", "vp_track": 12},
    {"name": "Eve", "vp_track": 28, "building_vp": [6], "technique_vp": [6]},
]


def save_play(request, live_server: str, game: str, players: list[dict]) -> str:
    """Save a finished play through the JSON API; its result page's URL."""
    response = request.post(f"{live_server}/api/v1/plays", data={"game": game, "players": players})
    assert response.status == 201, response.text()
    return live_server + response.json()["url"]


def new_page(browser, width: int, height: int):
    """A touch-capable page at this size; axe goes in past the CSP."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    return page


def page_scrolls_sideways(page) -> bool:
    """True when the page is wider than the viewport, or the result reaches past it.

    The grid may scroll inside its own box; that box clips it, so it never widens the page.
    """
    return page.evaluate("""() => {
      const root = document.documentElement, result = document.querySelector('#result');
      return root.scrollWidth > root.clientWidth || result.getBoundingClientRect().right > root.clientWidth;
    }""")


def shoot(page, name: str) -> None:
    """A full-page screenshot under SHOTS."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # the tap highlight fades
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def result_violations(page) -> list[dict]:
    """axe-core's serious and critical violations inside #result only (the rest of the page has its own tests)."""
    return violations_within(page, "#result")


def check_opened(page, row_label: str) -> None:
    """The opened line's reasons stand below its name, inside the viewport, without widening the page."""
    summary = page.locator("#result summary", has_text=row_label)
    reasons = summary.locator("xpath=following-sibling::ul[@class='reasons']")
    expect(reasons).to_be_visible()
    named = summary.bounding_box()
    shown = reasons.bounding_box()
    width = page.viewport_size["width"]
    assert shown["y"] >= named["y"] + named["height"] - 1
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= width + 1, shown
    assert not page_scrolls_sideways(page)


@pytest.mark.parametrize("width", VIEWPORTS, ids=[f"{w}px" for w in VIEWPORTS])
def test_four_players_fit_and_reasons_open_by_tap_and_keyboard(browser, live_server: str, width: int) -> None:
    page = new_page(browser, *VIEWPORTS[width])
    try:
        page.goto(save_play(page.request, live_server, "spires", SPIRES_FOUR))
        grid = page.locator("#result table.result-grid")
        expect(grid).to_be_visible()
        expect(grid.locator("thead th[scope=col]")).to_have_text(
            ["Line", re.compile("Ann"), re.compile("Bob"), re.compile("Cleopatra"), re.compile("Dee")]
        )
        expect(grid.locator("th.winner")).to_have_text(re.compile(r"Bob\s+Winner"))
        assert not page_scrolls_sideways(page)
        # Four players fit a phone: the grid needs no sideways scroll of its own either.
        assert page.evaluate(
            "(() => { const s = document.querySelector('.result-scroll'); return s.scrollWidth <= s.clientWidth; })()"
        )
        shoot(page, f"spires-4-{width}")

        # Every line name is a control a finger can hit, closed at first.
        for box in (s.bounding_box() for s in grid.locator("summary").all()):
            assert box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, box
        expect(grid.locator("details[open]")).to_have_count(0)

        # A tap opens a line's reasons for every player; another tap closes them.
        crowns = grid.locator("summary", has_text="Crowns bonus")
        crowns.tap()
        expect(grid.locator("tr.line-crowns details")).to_have_attribute("open", "")
        expect(grid.locator("tr.line-crowns .reasons li")).to_have_count(4)
        expect(grid.locator("tr.line-crowns .reasons")).to_contain_text("Most crowns (3): 15 VP.")
        check_opened(page, "Crowns bonus")
        shoot(page, f"spires-4-{width}-crowns-open")
        crowns.tap()
        expect(grid.locator("tr.line-crowns .reasons")).to_be_hidden()

        # By keyboard: Tab reaches the first line's name, Enter opens it, Space closes it.
        page.locator("h1").click()
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('tr.line-towers') !== null"):
                break
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        expect(grid.locator("tr.line-towers .reasons")).to_be_visible()
        expect(grid.locator("tr.line-towers .reasons")).to_contain_text("Red 3, blue 2: 5 cards × 5 = 25 VP.")
        check_opened(page, "Towers of 1-3 cards")
        page.keyboard.press("Space")
        expect(grid.locator("tr.line-towers .reasons")).to_be_hidden()

        violations = axe_violations(page)
        assert not violations, describe(violations)
        crowns.tap()
        violations = axe_violations(page)
        assert not violations, describe(violations)

        # The same grid in the dark theme (it uses only app.css's colour variables).
        page.emulate_media(color_scheme="dark")
        shoot(page, f"spires-4-{width}-crowns-open-dark")
        violations = result_violations(page)
        assert not violations, describe(violations)
        assert not page.console_errors, page.console_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("width", VIEWPORTS, ids=[f"{w}px" for w in VIEWPORTS])
def test_five_spyrium_players_stay_inside_their_box(browser, live_server: str, width: int) -> None:
    page = new_page(browser, *VIEWPORTS[width])
    try:
        page.goto(save_play(page.request, live_server, "spyrium", SPYRIUM_FIVE))
        grid = page.locator("#result table.result-grid")
        expect(grid.locator("thead th.player")).to_have_count(5)
        expect(grid.locator("th.winner")).to_have_count(2)
        expect(page.locator("#result .winners")).to_contain_text("Ann and Eve share the victory")
        assert not page_scrolls_sideways(page)
        # The first column stays in view when the grid is scrolled sideways (if it scrolls at all).
        page.evaluate("document.querySelector('.result-scroll').scrollLeft = 1000")
        first = grid.locator("tr.line-buildings th").bounding_box()
        assert first["x"] >= 0
        page.evaluate("document.querySelector('.result-scroll').scrollLeft = 0")
        grid.locator("summary", has_text="Buildings").tap()
        check_opened(page, "Buildings")
        shoot(page, f"spyrium-5-{width}-buildings-open")
        violations = axe_violations(page)
        assert not violations, describe(violations)
    finally:
        page.context.close()


def test_calculator_result_grid_swapped_in_by_htmx(browser, live_server: str) -> None:
    """The calculator's result arrives by htmx below the form as the same grid, and its reasons open by keyboard."""
    page = new_page(browser, *VIEWPORTS[390])
    try:
        page.goto(f"{live_server}/calculator/spqf")
        for row, (name, tokens, level) in enumerate((("Ann", "10", "3"), ("Bob", "12", "2"), ("Cy", "4", "1"))):
            page.fill(f"[name='name-{row}']", name)
            page.fill(f"[name='vp_tokens-{row}']", tokens)
            page.fill(f"[name='civ_level-{row}']", level)
        page.get_by_role("button", name="Calculate").click()
        grid = page.locator("#calc-result table.result-grid")
        expect(grid).to_be_visible()
        expect(grid.locator("thead th.player")).to_have_count(3)
        expect(grid.locator("tfoot tr.total td")).to_have_text(["19", "18", "7"])
        grid.locator("summary", has_text="Civilization Level").focus()
        page.keyboard.press("Enter")
        expect(grid.locator("tr.line-civ_level .reasons")).to_contain_text("Level 3 of 5")
        assert not page_scrolls_sideways(page)
        shoot(page, "calculator-spqf-390")
        page.locator("#calc-result").screenshot(path=str(SHOTS / "calculator-spqf-390-result.png"))
        violations = axe_violations(page)
        assert not violations, describe(violations)
        # Opening a line submits nothing: the form is still unsaved, the button still there.
        expect(page.get_by_role("button", name="Save to history")).to_be_visible()
    finally:
        page.context.close()
