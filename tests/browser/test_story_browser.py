"""The score race of a tracked play in a real browser (issue 22): on the result page at a phone's and two tablets'
widths, light and dark, the chart fits without the page scrolling sideways, its names stand clear of each other,
the table of every value opens, and axe-core finds nothing serious in the section. Screenshots go to
/tmp/shots-story (or $STORY_SHOTS), never into the repository.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import describe, violations_within
from tests.browser.tracker import VIEWPORTS

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SHOTS = Path(os.environ.get("STORY_SHOTS", "/tmp/shots-story"))
PLAYERS = [{"name": "Ann"}, {"name": "Bartholomew"}, {"name": "Zoë"}, {"name": "李明"}]


def api(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to the live server's API as a program would; the answer's JSON."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def long_game(base: str) -> str:
    """An SPQF game of six rounds for four, the lead changing hands, the last card placed in the last round; its
    result page's URL."""
    play = api(base, "/api/v1/plays", {"game": "spqf", "track": True, "players": PLAYERS})
    act = f"/api/v1/plays/{play['id']}/actions"
    gains = [[2, 1, 3, 0], [1, 4, 0, 2], [3, 0, 2, 5], [0, 3, 4, 1], [4, 2, 1, 3], [2, 5, 0, 2]]
    for round_number, gain in enumerate(gains, start=1):
        for seat, delta in enumerate(gain):
            if delta:
                api(base, act, {"action": "add", "player": PLAYERS[seat]["name"], "field": "vp_tokens", "delta": delta})
            if round_number == len(gains) and seat == 1:
                api(base, act, {"action": "last_card", "placed": True})
            if (round_number, seat) != (len(gains), len(gain) - 1):
                api(base, act, {"action": "next_turn"})
    api(base, f"/api/v1/plays/{play['id']}/finish", {})
    return base + play["url"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", VIEWPORTS, ids=[f"{w}px" for w in VIEWPORTS])
def test_the_score_race_fits_and_reads(browser, live_server: str, width: int, scheme: str) -> None:
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(long_game(live_server))
        chart = page.locator("#story svg.chart-race")
        expect(chart).to_be_visible()
        expect(page.locator("#story .story-said")).to_contain_text("took the lead")
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        # The legend names every line, highest score first, inside the section's width.
        legend = page.locator("#story .story-legend li")
        expect(legend).to_have_count(len(PLAYERS))
        frame = page.locator("#story").bounding_box()
        for box in (item.bounding_box() for item in legend.all()):
            assert box["x"] >= frame["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, box
        page.locator("#story").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#story").screenshot(path=str(SHOTS / f"story-{width}-{scheme}.png"), animations="disabled")
        page.locator("#story summary", has_text="Scores after each action").click()
        expect(page.locator("#story .story-steps tbody tr").first).to_be_visible()
        violations = violations_within(page, "#story")
        assert not violations, describe(violations)
        assert not errors, errors
    finally:
        context.close()
