"""The statistics pages in Chromium on a phone (390 px), light and dark: no serious or critical axe-core violation,
no sideways page, the charts drawn in the theme's colours with their text readable, every player and game linked.

Uses the live_server and browser fixtures of tests/browser/conftest.py, on the hand-made history of
tests/web/test_statistics.py and a few dozen seeded plays.
"""

from __future__ import annotations

import pytest

from bench.seed import seed_plays
from companion.db import make_engine
from tests.browser.axe import axe_violations, describe
from tests.web.test_statistics import ANN, store

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

PAGES = ["/players", f"/players/{ANN}", "/games/spqf", "/games/spires"]

# Each chart's text and bar colours beside the page's ink (and muted ink) and the card behind the chart.
CHART_COLOURS = """() => {
  const css = (el, prop) => getComputedStyle(el).getPropertyValue(prop).trim();
  const card = document.querySelector('.stats-section');
  const probe = document.body.appendChild(Object.assign(document.createElement('span'), {className: 'muted'}));
  const muted = css(probe, 'color');
  probe.remove();
  return [...document.querySelectorAll('svg.chart')].map(svg => ({
    text: css(svg.querySelector('text'), 'fill'),
    bar: svg.querySelector('.bar') ? css(svg.querySelector('.bar'), 'fill') : css(svg.querySelector('.dot'), 'stroke'),
    ink: [css(document.body, 'color'), muted],
    card: css(card, 'background-color'),
    width: svg.getBoundingClientRect().width,
  }));
}"""


@pytest.fixture
def history(live_server, tmp_path) -> str:
    """The live server's database holding the hand-made history and 40 seeded plays; its base URL."""
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite'}")
    store(engine)
    seed_plays(engine, 40, seed=3)
    engine.dispose()
    return live_server


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_stats_pages_on_a_phone(browser, history, scheme) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        for path in PAGES:
            response = page.goto(history + path)
            assert response.status == 200, path
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{path} scrolls sideways"
            violations = axe_violations(page)
            assert not violations, f"{path} ({scheme}):\n{describe(violations)}"
            charts = page.evaluate(CHART_COLOURS)
            if path != "/players":
                assert charts, f"{path} has no chart"
            for chart in charts:
                assert chart["text"] in chart["ink"], (path, chart)  # the page's ink, or its muted ink
                assert chart["bar"] not in ("", chart["card"]), (path, chart)
                assert 300 <= chart["width"] <= 390, (path, chart)
        csp = [e for e in errors if "content security policy" in e.lower() and "inline script" not in e.lower()]
        assert not csp, csp
    finally:
        context.close()


def test_every_player_and_game_is_a_link(browser, history) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(history + "/players")
        page.get_by_role("link", name="Ann", exact=True).click()
        assert page.url.endswith(f"/players/{ANN}")
        assert page.get_by_role("heading", level=1).inner_text() == "Ann"
        page.get_by_role("link", name="SPQF", exact=True).first.click()
        assert page.url.endswith("/games/spqf")
        assert page.get_by_role("img", name="How many scores fell in each range").is_visible()
        page.get_by_role("link", name="Bob", exact=True).first.click()
        assert page.get_by_role("heading", level=1).inner_text() == "Bob"
    finally:
        context.close()
