"""What the tracker browser tests share: a play started through the new-play form (Spires, Speros or any game),
a seat's button by name, a Speros card put into play by its form, the viewports, screenshots for a look by eye,
finishing a play, and reading its result and score sheet."""

from __future__ import annotations

import io
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

# The phone, the tablet upright and the tablet on its side: {width: (width, height)}.
VIEWPORTS = {390: (390, 844), 820: (820, 1180), 1180: (1180, 820)}


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


def start_spires(page, live_server: str) -> str:
    """Start a 2-player Spires play through the new-play form; the tracker's URL."""
    page.goto(f"{live_server}/plays/new?game=spires")
    page.locator("input[name=name-0]").fill("Ann")
    page.locator("input[name=name-1]").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    return page.url


# Ann plays green (Forest is her familiar terrain), Bob red (Mountain).
PLAYERS = (("Ann", "green"), ("Bob", "red"))


# A native <select> is two taps on a phone: one opens the list, one picks.
SELECT_TAPS = 2


def start_speros(page, live_server: str, players=PLAYERS) -> dict[str, str]:
    """Start a Conquest of Speros play through the new-play form; each player's seat id ('1') by name."""
    page.goto(live_server + "/plays/new?game=speros")
    for i, (name, colour) in enumerate(players):
        page.locator(f"input[name=name-{i}]").fill(name)
        page.locator(f"select[name=colour-{i}]").select_option(colour)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    seats = page.locator("section.seat")
    expect(seats).to_have_count(len(players))
    return {
        seats.nth(i).locator("h2").first.inner_text().split()[0]: seats.nth(i).get_attribute("id").removeprefix("seat-")
        for i in range(len(players))
    }


def put_card(
    page,
    seat_of: dict[str, str],
    terrain: str,
    resources=(),
    vp: int = 1,
    encampments: int = 3,
    explorer: str | None = "proposed",
    taps: list[str] | None = None,
) -> None:
    """Fill 'Put a card into play' with its chips and select, and put it in with the tap on its printed VP (a VP
    without a button is typed, then Put into play); each finger's tap goes in `taps`.

    explorer: a player's name, None for 'nobody', or 'proposed' to leave the select as the tracker proposes it
    (nobody while the setup's cards go in, else the player whose turn it is). A chip already as wanted is left
    alone, as a player would.
    """
    taps = [] if taps is None else taps
    form = page.locator("#put-card")
    if not form.is_visible():
        page.locator(".put-card > summary").click()
        taps.append("open the form")
    chip = form.get_by_role("radio", name=terrain.capitalize(), exact=True)
    if not chip.is_checked():
        chip.check()
        taps.append(f"terrain {terrain}")
    if terrain != "artifact":
        chip = form.get_by_role("radio", name=str(encampments), exact=True)
        if not chip.is_checked():
            chip.check()
            taps.append(f"{encampments} encampments")
    for resource in ("crystal", "iron", "gold"):
        box = form.get_by_role("checkbox", name=resource.capitalize(), exact=True)
        if box.is_checked() != (resource in resources):
            box.set_checked(resource in resources)
            taps.append(f"resource {resource}")
    if explorer != "proposed":
        select = form.locator("select[name=seat]")
        wanted = "" if explorer is None else seat_of[explorer]
        if select.input_value() != wanted:
            select.select_option(wanted)
            taps.extend([f"explored by {explorer}"] * SELECT_TAPS)
    button = form.locator(f"#put-card-vp-{vp}")
    if button.count():
        button.click()
        taps.append(f"VP {vp}")
    else:
        form.locator("#put-card-vp-typed").fill(str(vp))
        taps.append(f"VP {vp} typed")
        form.get_by_role("button", name="Put into play").click()
        taps.append("Put into play")


def deploy_button(page, who: str, card: str, kind: str = "Minion"):
    """The button that deploys a player's Minion or General to a card ('Mountain card 1')."""
    what = "a Minion" if kind == "Minion" else "the General"
    return page.get_by_role("button", name=f"{who}: deploy {what} to {card}", exact=True)


def shots_folder(tmp_path: Path) -> Path:
    """COMPANION_SHOTS when set (the screenshots are kept there to be looked at), else the test's tmp_path."""
    folder = Path(os.environ["COMPANION_SHOTS"]) if os.environ.get("COMPANION_SHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page, target: Path) -> None:
    """A full-page screenshot from the top; one not taken only warns, as a screenshot is for the eye only."""
    page.evaluate("() => window.scrollTo(0, 0)")
    try:
        page.screenshot(path=str(target), full_page=True)
    except (sync_api.Error, OSError) as failed:
        warnings.warn(f"screenshot {target.name} not taken: {failed}", stacklevel=1)


def tracker_screenshots(
    browser, folder: Path, game: str, width: int, scheme: str, fill: Callable, finish: Callable | None = None
) -> None:
    """Screenshots of a tracker `fill(page)` puts in play and, with `finish(page)`, of its result, into `folder`."""
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
    page = context.new_page()
    try:
        fill(page)
        shoot(page, folder / f"{game}-tracker-{width}-{scheme}.png")
        if finish is not None:
            finish(page)
            shoot(page, folder / f"{game}-result-{width}-{scheme}.png")
    finally:
        context.close()


def finish(page) -> None:
    """Finish and score, accepting the confirm dialog; wait for the result page."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.locator("#result").wait_for()


def result_text(page, names) -> str:
    """On the result page: checks a column per player; the result's text, with the reasons the grid keeps one tap
    away in closed <details>."""
    assert re.search(r"/plays/\d+$", page.url)
    result = page.locator("#result")
    for name in names:
        expect(result.locator("thead th", has_text=name)).to_have_count(1)
    return result.text_content()


def sheet_pdf_text(page, live_server: str, names) -> str:
    """The score sheet the result page links to, checked to be a PDF that names every player; its text."""
    import pypdf

    href = page.get_by_role("link", name="Score sheet (PDF)").get_attribute("href")
    assert re.fullmatch(r"/plays/\d+/sheet\.pdf", href)
    response = page.request.get(live_server + href)
    assert response.ok
    assert response.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    for name in names:
        assert name in text
    return text
