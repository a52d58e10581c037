"""The history in Chromium: the filter swaps the list in place (htmx) with the address following and Back working,
the same form without JavaScript, delete and restore by taps, and the pages on a phone in light and dark: no
serious or critical axe-core violation, no sideways page. Each row links the play and, beside it, each player's page;
at 390, 820 and 1180 px every visible link and button is a 44 x 44 px target a finger at its centre reaches (issue 17).

Uses the live_server and browser fixtures of tests/browser/conftest.py and plays seeded by bench.seed.
"""

from __future__ import annotations

import re

import pytest

from bench.seed import seed_plays
from companion.history import views as history
from companion.store.db import make_engine
from tests.browser.axe import axe_violations, describe
from tests.browser.targets import count_controls, target_problems

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


@pytest.fixture
def site(live_server, tmp_path) -> str:
    """The live server's database holding 120 seeded finished plays; its base URL."""
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite'}")
    seed_plays(engine, 120, seed=1)
    engine.dispose()
    return live_server


# Every link and button a finger may meet, the top bar's included; the skip link is out of sight until focused.
TAPPABLE = "a[href]:not(.skip-link), button, select, input:not([type=hidden]), summary"


def count(page) -> str:
    """The count line as shown."""
    return page.locator("#history-count strong").inner_text()


def test_filter_swaps_the_list_and_the_address_follows(page, site) -> None:
    page.goto(site + "/history")
    page.evaluate("window.sameDocument = true")
    total = count(page)
    page.select_option("#filter-game", "spires")
    page.wait_for_url(re.compile(r"/history\?game=spires$"))
    spires = count(page)
    assert spires != total
    assert all(row.startswith("Spires") for row in page.locator(".plays .row-link > strong").all_inner_texts())
    page.fill("#filter-player", "ömer")
    page.press("#filter-player", "Enter")
    # The address is the filter's own, without the empty fields the form sent.
    page.wait_for_url(re.compile(r"/history\?game=spires&player=%C3%B6mer$"))
    assert "with ömer" in page.locator("#history-count").inner_text()
    # The page was never reloaded: the same document, the list swapped into it.
    assert page.evaluate("window.sameDocument") is True
    page.go_back()
    page.wait_for_url(re.compile(r"/history\?game=spires$"))
    page.locator("#history-count strong").filter(has_text=spires).wait_for()
    assert not page.console_errors


def test_pages_keep_the_filter(page, site, monkeypatch) -> None:
    monkeypatch.setattr(history, "HISTORY_PAGE", 10)
    page.goto(site + "/history?game=spyrium")
    page.click("text=Older")
    page.wait_for_url(re.compile(r"page=2.*game=spyrium|game=spyrium.*page=2"))
    assert "page 2 of" in page.locator("#history-count").inner_text()
    assert page.input_value("#filter-game") == "spyrium"


def test_the_filter_works_without_javascript(browser, site) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site + "/history")
        page.select_option("#filter-game", "spqf")
        page.fill("#filter-from", "2026-01-01")
        page.click("button:has-text('Show')")
        page.wait_for_url(re.compile(r"game=spqf.*date_from=2026-01-01"))
        assert "SPQF, from 1 Jan 2026" in page.locator("#history-count").inner_text()
        page.fill("#filter-to", "2025-01-01")
        page.click("button:has-text('Show')")
        assert page.locator("#filter-to-error").inner_text() == "The end date comes before the start date."
    finally:
        context.close()


def test_delete_then_restore_by_taps(page, site) -> None:
    page.goto(site + "/history")
    first = page.locator(".plays .row-link").first
    href = first.get_attribute("href")
    first.click()
    page.click("text=Delete…")
    page.wait_for_url(re.compile(r"/delete$"))
    page.click("button:has-text('Delete')")
    page.wait_for_url(re.compile(r"/history\?deleted=\d+"))
    assert page.locator(f'.plays a[href="{href}"]').count() == 0
    page.click("button:has-text('Restore')")
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    assert page.get_by_role("link", name="Correct", exact=True).count() == 1
    page.goto(site + "/history")
    assert page.locator(f'.plays a[href="{href}"]').count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_history_pages_on_a_phone(browser, site, scheme) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(site + "/history")
        page.locator(".plays .row-link").nth(2).click()
        play = page.url.rsplit("/", 1)[1]
        page.goto(site + f"/history/{play}/delete")
        page.click("button:has-text('Delete')")
        for path in (
            "/history",
            "/history?game=chess&date_from=2026-11-05&date_to=2026-11-01",
            "/history/deleted",
            f"/plays/{play}",
            "/history/1/correct",
            "/history/1/delete",
        ):
            page.goto(site + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{path} scrolls sideways"
            violations = axe_violations(page)
            assert not violations, f"{path} ({scheme}):\n{describe(violations)}"
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 820, 1180])
def test_every_link_and_button_is_a_44_px_target(browser, site, width, monkeypatch) -> None:
    monkeypatch.setattr(history, "HISTORY_PAGE", 12)  # a page of rows is enough: each row is measured link by link
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(site + "/history")
        # 12 rows: the play's link and two to five players' links each.
        assert count_controls(page, ".plays", "a[href]") >= 12 * 3
        problems = target_problems(page, "body", TAPPABLE)
        assert not problems, f"/history at {width} px:\n" + "\n".join(problems)
        # The list the filter swaps in (htmx) is measured as it arrives, with its Clear button.
        page.select_option("#filter-game", "spires")
        page.wait_for_url(re.compile(r"/history\?game=spires$"))
        page.get_by_role("link", name="Clear").wait_for()
        problems = target_problems(page, "body", TAPPABLE)
        assert not problems, f"/history?game=spires at {width} px:\n" + "\n".join(problems)
        # The lists of open plays, and a page past the end with its way back.
        for path in ("/history/in-progress", "/history/put-aside", "/history?page=99"):
            page.goto(site + path)
            problems = target_problems(page, "body", TAPPABLE)
            assert not problems, f"{path} at {width} px:\n" + "\n".join(problems)
    finally:
        context.close()


def test_a_row_links_the_play_and_each_player(page, site) -> None:
    page.goto(site + "/history")
    row = page.locator(".plays > li").first
    names = row.locator(".ranked a").all_inner_texts()
    assert len(names) >= 2
    # The player last by rank: a tap on the name opens their page, not the play.
    row.locator(".ranked a").last.click()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    assert page.get_by_role("heading", level=1).inner_text().casefold() == names[-1].casefold()
    page.go_back()
    page.wait_for_url(re.compile(r"/history$"))
    row = page.locator(".plays > li").first
    href = row.locator(".row-link").get_attribute("href")
    row.locator(".row-link").click()
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    # After the filter's swap (htmx) the rows' player links are there and lead to the pages as before.
    page.goto(site + "/history")
    page.fill("#filter-player", "ömer")
    page.press("#filter-player", "Enter")
    page.wait_for_url(re.compile(r"player=%C3%B6mer$"))
    first = page.locator(".plays > li").first.get_by_role("link", name=re.compile("^ömer$", re.IGNORECASE))
    first.click()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    assert page.get_by_role("heading", level=1).inner_text().casefold() == "ömer"
    assert not page.console_errors
