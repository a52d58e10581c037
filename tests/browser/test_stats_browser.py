"""The statistics pages in Chromium on a phone (390 px), light and dark: no serious or critical axe-core violation,
no sideways page, the charts drawn in the theme's colours with their text readable, every player and game linked;
and at the table's three sizes (390, 820, 1180 px) every visible link and button a 44 x 44 px target a finger at its
centre (and near its corners) reaches, the tables fitting their box on a phone (issue 17).

Uses the live_server and browser fixtures of tests/browser/conftest.py, on the hand-made history of
tests/helpers.py (STATS_HISTORY) and a few dozen seeded plays.
"""

from __future__ import annotations

import itertools

import pytest

from bench.seed import seed_plays
from companion.store.db import make_engine
from tests.browser.axe import axe_violations, describe
from tests.browser.targets import count_controls, target_problems
from tests.helpers import ANN, store

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

PAGES = ["/players", f"/players/{ANN}", "/games/spqf", "/games/spires"]

# Every link and button a finger may meet, the top bar's included; the skip link is out of sight until focused.
TAPPABLE = "a[href]:not(.skip-link), button, select, input:not([type=hidden]), summary"
# The table's sizes: a phone, a tablet upright, a tablet or laptop on its side.
WIDTHS = [390, 820, 1180]

# Each table's box: how wide the table is beside the room it has (a table wider than its box scrolls on its own).
TABLE_FIT = """() => [...document.querySelectorAll('.stats-scroll')].map(box => [box.scrollWidth, box.clientWidth])"""

# Each chart's text and bar colours beside the page's ink (and muted ink) and the card behind the chart.
CHART_COLOURS = """() => {
  const css = (el, prop) => getComputedStyle(el).getPropertyValue(prop).trim();
  const card = document.querySelector('.stats-section');
  const probe = document.body.appendChild(Object.assign(document.createElement('span'), {className: 'muted'}));
  const muted = css(probe, 'color');
  probe.remove();
  return [...document.querySelectorAll('svg.chart')].map(svg => ({
    text: css(svg.querySelector('text'), 'fill'),
    bar: svg.querySelector('.bar') ? css(svg.querySelector('.bar'), 'fill')
      : css(svg.querySelector('.dot, .race'), 'stroke'),
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


@pytest.mark.parametrize("width", WIDTHS)
def test_every_link_and_button_is_a_44_px_target(browser, history, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for path in PAGES:
            page.goto(history + path)
            # The pages hold what is measured: the top bar, the roster's names, a table's figures, the footer links.
            assert count_controls(page, "main", TAPPABLE) >= 6, path
            problems = target_problems(page, "body", TAPPABLE)
            assert not problems, f"{path} at {width} px:\n" + "\n".join(problems)
            for wide, room in page.evaluate(TABLE_FIT):
                assert wide <= room, f"{path} at {width} px: a table {wide} px wide in its {room} px box"
    finally:
        context.close()


def test_the_empty_pages_links_are_targets_too(browser, live_server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        for path in ("/players", "/games/spires"):
            page.goto(live_server + path)
            assert page.get_by_role("link", name="Start one.").is_visible()
            problems = target_problems(page, "body", TAPPABLE)
            assert not problems, f"{path} (no plays):\n" + "\n".join(problems)
    finally:
        context.close()


def test_the_record_holders_links_are_targets_in_their_sentence(browser, history) -> None:
    """Spires' record is shared (Ann and Cleo on 8 Jan): four links in one sentence, none over another."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(history + "/games/spires")
        holders = page.locator("main p.stats-holders").first
        links = holders.get_by_role("link")
        assert links.count() >= 2
        assert not target_problems(page, "main p.stats-holders", "a[href]")
        boxes = [links.nth(i).bounding_box() for i in range(links.count())]
        for a, b in itertools.pairwise(boxes):
            side_by_side = a["x"] + a["width"] <= b["x"] + 8  # the links' own 4 px each side may touch
            below = a["y"] + a["height"] <= b["y"] + 1
            assert side_by_side or below, (a, b)
    finally:
        context.close()
