"""What the tracker browser tests share: a play started through the new-play form, and a seat's button by name."""

from __future__ import annotations

import re

import pytest

expect = pytest.importorskip("playwright.sync_api").expect


def start_by_form(page, live_server: str, game: str, names) -> list[str]:
    """Start a play of `game` through the new-play form; the seats' selectors in turn order."""
    page.goto(f"{live_server}/plays/new?game={game}")
    for i, name in enumerate(names):
        page.locator(f"input[name=name-{i}]").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    seats = page.locator("section.seat")
    expect(seats).to_have_count(len(names))
    return ["#" + seats.nth(i).get_attribute("id") for i in range(len(names))]


def seat_button(page, seat: str, name: str):
    """A seat's button by its accessible name ('VP tokens plus 5'), the seat's name in front."""
    who = page.locator(f"{seat} h2").first.inner_text().split()[0]
    return page.locator(seat).get_by_role("button", name=f"{who}: {name}", exact=True)
