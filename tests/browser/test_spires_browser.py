"""A short two-player Spires game played through the UI in a real browser, to the final table."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def tap(page, seat: str, label: str, times: int = 1) -> None:
    """Tap a counter's + button and wait until htmx has swapped the seat back in."""
    for _ in range(times):
        before = page.locator(f"{seat} output[aria-label='{label}']").inner_text()
        page.locator(seat).get_by_role("button", name=f"{label} plus one").click()
        page.wait_for_function(
            "([sel, old]) => { const o = document.querySelector(sel); return o && o.textContent.trim() !== old; }",
            arg=[f"{seat} output[aria-label='{label}']", before],
        )


def test_two_player_spires_to_final_table(page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start Spires").click()
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_label("Player 2 name").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))

    seats = page.locator("section.seat")
    assert seats.count() == 2
    ann = "#" + seats.nth(0).get_attribute("id")
    bob = "#" + seats.nth(1).get_attribute("id")

    tap(page, ann, "Red", 3)
    tap(page, ann, "Blue", 4)
    tap(page, ann, "Crowns", 2)
    tap(page, bob, "Green", 2)
    tap(page, bob, "Swords", 1)
    # The fourth blue card turns that tower into a warning, live.
    assert "blue tower has 4 cards" in page.locator("#scoreboard").inner_text()
    assert page.locator(f"{ann} .tower.suit-blue.tall").count() == 1

    page.locator(f"{bob} input[name=value]").fill("6")
    page.locator(f"{bob} input[name=value]").press("Enter")
    page.wait_for_function("() => document.querySelector('#scoreboard').innerText.includes('36')")

    # Undo takes back the scroll VP, and it can be typed again.
    page.get_by_role("button", name="Undo last tap").click()
    page.wait_for_function("() => !document.querySelector('#scoreboard').innerText.includes('36')")

    page.get_by_role("button", name="Finish and score").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    text = page.locator("#result").inner_text()
    # Ann: red 3 (+15), blue 4 (-4), most crowns (+15) = 26; Bob: green 2 (+10), most swords (+20) = 30.
    assert "Bob wins" in text
    assert "26" in text and "30" in text
    assert "Towers of 4+ cards" in text
    assert "Total" in text
    assert "blue 4: 4 cards" in text
    assert not [e for e in page.console_errors if "Content Security Policy" in e or "Refused" in e]


def test_new_play_errors_and_random_first_player(page, live_server: str) -> None:
    page.goto(live_server + "/plays/new?game=spires")
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_role("button", name="Start the game").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "Spires is for 2 to 4 players (for one player, choose solo)" in alert.inner_text()
    assert page.get_by_label("Player 1 name").input_value() == "Ann"

    page.get_by_label("Player 2 name").fill("Bob")
    page.get_by_label("Player 3 name").fill("Cy")
    page.get_by_role("button", name="Random first player").click()
    page.get_by_role("status").wait_for()
    first = page.get_by_role("status").inner_text().removesuffix(" goes first.")
    assert page.get_by_label("Player 1 name").input_value() == first
    names = [page.get_by_label(f"Player {i} name").input_value() for i in (1, 2, 3)]
    order = ["Ann", "Bob", "Cy"]
    start = order.index(first)
    assert names == order[start:] + order[:start], "clockwise order is kept"
    # The browser logs the expected 422 as a failed resource; nothing else may go wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == []
