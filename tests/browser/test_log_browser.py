"""The log of a game in the browser (issue 15): *What happened* follows every device's taps without a reload, an
Undo on one device is announced on the other (visible and in a live region), the open panel moves no control as it
grows, and the result page keeps the log. Screenshots of both, phone, tablet and landscape, light and dark, go to
/tmp/shots/log/ for a person to look at.

Uses the live_server and browser fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.tracker import start_spires

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SHOTS = Path("/tmp/shots/log")
SIZES = {"phone": (390, 844), "tablet": (820, 1180), "landscape": (1180, 820)}


def test_an_undo_on_one_device_is_announced_on_the_other(browser, live_server: str) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    tablet = browser.new_context(viewport={"width": 820, "height": 1180})
    try:
        a, b = tablet.new_page(), phone.new_page()
        errors: list[str] = []
        for device in (a, b):
            device.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        url = start_spires(b, live_server)
        a.goto(url)
        # A opens its log; B's stays closed: B's answers only move its place in the log on.
        a.locator("#log > summary").click()
        expect(a.locator("#log-body")).to_contain_text("Nothing yet")
        b.get_by_role("button", name="Bob: Swords plus one").click()
        expect(b.locator("output[id$='-swords-value']").nth(1)).to_have_text("1")
        # A hears B's tap in its log, without a reload.
        expect(a.locator("#log-list .log-entry")).to_have_count(1, timeout=3000)
        expect(a.locator("#log-list .log-entry").first).to_contain_text("Bob, swords +1")

        b.locator("#undo-button").click()
        expect(b.locator("#notice")).to_have_text("Took back: Bob, swords +1.")
        # A says it too, where a player looks and in a live region, and marks the entry taken back.
        notice = a.locator("#notice")
        expect(notice).to_have_text("Took back: Bob, swords +1.", timeout=3000)
        assert notice.get_attribute("role") == "status"
        expect(a.get_by_role("status").filter(has_text="Took back: Bob, swords +1.")).to_be_visible()
        expect(a.locator("#log-list .log-entry")).to_have_count(2)
        expect(a.locator("#log-list .log-entry.undone")).to_contain_text("(taken back)")
        expect(a.locator("output[id$='-swords-value']").nth(1)).to_have_text("0")
        # The same log on both devices: B opens its own now.
        b.locator("#log > summary").click()
        said = "#log-list .log-entry"
        expect(b.locator(said)).to_have_count(2)
        assert a.locator(said).all_text_contents() == b.locator(said).all_text_contents()
        assert a.evaluate("performance.getEntriesByType('navigation').length") == 1
        # No out-of-band piece ever missed its place (htmx says so as an error), on the panel opened or not.
        assert not errors, errors
    finally:
        phone.close()
        tablet.close()


def test_the_open_log_grows_without_moving_a_control(page, live_server: str) -> None:
    start_spires(page, live_server)
    page.locator("#log > summary").click()
    expect(page.locator("#log-body")).to_contain_text("Nothing yet")
    plus = page.get_by_role("button", name="Ann: Crowns plus one")
    before = top_in_page(plus)
    finish = page.locator("#finish button")
    for expected in range(1, 25):
        # Up and down again: the deck's quills never run out, and every tap is an entry.
        page.get_by_role("button", name=f"Bob: Quills {'plus' if expected % 2 else 'minus'} one").click()
        expect(page.locator("#log-list .log-entry")).to_have_count(expected)
    # The seats above never move; once long the panel scrolls inside, keeping the newest entry in view.
    assert top_in_page(plus) == before
    height = page.locator(".log-scroll").bounding_box()["height"]
    assert height <= 844 * 0.5 + 1
    newest = page.locator("#log-list .log-entry").last
    newest.scroll_into_view_if_needed()
    box, scroller = newest.bounding_box(), page.locator(".log-scroll").bounding_box()
    assert scroller["y"] <= box["y"] and box["y"] + box["height"] <= scroller["y"] + scroller["height"] + 1
    # Two more entries, the score back where it was (a score line of its own would move what is below it).
    top = top_in_page(finish)
    page.get_by_role("button", name="Bob: Quills plus one").click()
    expect(page.locator("#log-list .log-entry")).to_have_count(25)
    page.get_by_role("button", name="Bob: Quills minus one").click()
    expect(page.locator("#log-list .log-entry")).to_have_count(26)
    assert abs(top_in_page(finish) - top) < 1
    assert not page.console_errors, page.console_errors


def top_in_page(locator) -> float:
    """Where an element's top is in the document (not the viewport, which scrolls as buttons are tapped)."""
    return locator.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


def play_a_little(page, live_server: str) -> str:
    """A Spires play with a few taps and an undo; its URL."""
    url = start_spires(page, live_server)
    for name in ("Ann: Crowns plus one", "Bob: Swords plus one", "Bob: Quills plus one", "Ann: Crowns plus one"):
        page.get_by_role("button", name=name).click()
        page.wait_for_timeout(150)
    page.locator("#undo-button").click()
    expect(page.locator("#notice")).to_contain_text("Took back")
    return url


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_of_the_log(browser, live_server: str, theme: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=theme)
    try:
        page = context.new_page()
        url = play_a_little(page, live_server)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            page.locator("#log > summary").click()
            expect(page.locator("#log-list .log-entry")).to_have_count(5)
            page.locator("#log").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"tracker-{size}-{theme}.png"))
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#finish button").click()
        page.wait_for_url(url)
        expect(page.locator("#result")).to_be_visible()
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            page.locator("#log > summary").click()
            page.locator("#log").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"result-{size}-{theme}.png"))
            expect(page.locator("#log .log-entry")).to_have_count(5)
    finally:
        context.close()
