"""One rule for every tracker form (static/js/app.js): once its action is saved the form is back to what the page
drew, so nothing is ever written from a value left over from an earlier entry; a refused one keeps what was typed,
beside its message."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def start_spires(page, live_server: str) -> str:
    """A two-player Spires play through the pages; the first seat's selector."""
    page.goto(live_server + "/plays/new?game=spires")
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_label("Player 2 name").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    return "#" + page.locator("section.seat").first.get_attribute("id")


def test_a_saved_entry_leaves_its_form_fresh_and_a_refused_one_keeps_what_was_typed(page, live_server: str) -> None:
    ann = start_spires(page, live_server)
    seat_id = ann.removeprefix("#seat-")
    # The Scroll VP box (every counter's number also has a box of its own, name=value, opened by tapping it).
    box = page.locator(f"#c-{seat_id}-scroll_vp-input")
    shown = page.locator(f"#c-{seat_id}-scroll_vp-value")

    box.fill("6")
    box.press("Enter")
    expect(shown).to_have_text("6")
    expect(box).to_have_value("")

    # Bounds refuse it: the number stays in the box, with the reason beside it, and nothing is saved.
    box.fill("100000")
    box.press("Enter")
    expect(page.locator(f"#c-{seat_id}-scroll_vp-error")).not_to_be_empty()
    expect(box).to_have_value("100000")
    expect(shown).to_have_text("6")

    box.fill("9")
    box.press("Enter")
    expect(shown).to_have_text("9")
    expect(box).to_have_value("")
    expect(page.locator(f"#c-{seat_id}-scroll_vp-error")).to_be_empty()
    # The browser logs the refusal's 422 itself; nothing else may have gone wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == []
