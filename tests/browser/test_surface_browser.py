"""The tracker's surface at the table (issue 17): what the app says is in view where the player taps, nothing moves
under the finger, a counter's number can be typed, the score strip shows every total, and Finish hands the focus to
the result. At a phone (390 px), a tablet upright (820) and on its side (1180).

Uses the live_server, browser and page fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.tracker import VIEWPORTS, seat_button, start_by_form

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

# Four long names, as the issue found them on a phone.
NAMES = ("Alexander", "Charlotte", "Benjamin", "Dominique")
SIZES = pytest.mark.parametrize("width", list(VIEWPORTS))

# A box inside the viewport, and what a finger (or an eye) meets at its centre is the box itself (nothing over it).
IN_VIEW_JS = """(el) => {
  const r = el.getBoundingClientRect();
  // Within a pixel: a box laid out at fractions of a pixel may end 0.4 px past the edge it is scrolled to.
  const inside = r.width > 0 && r.height > 0 && r.top >= -1 && r.left >= -1 &&
    r.bottom <= window.innerHeight + 1 && r.right <= document.documentElement.clientWidth + 1;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
  return {inside, top: r.top, bottom: r.bottom, atCentre: !!hit && (hit === el || el.contains(hit)),
          opacity: getComputedStyle(el).opacity};
}"""

# Every button of every seat, where it stands on the page (not on the screen, which scrolls with each tap: the page's
# own coordinates), and the game's table card's buttons where they stand in their column (which stays in view on a
# tablet, so its place on the page follows the scrolling).
BOXES_JS = """() => [...document.querySelectorAll('.tracker .seat button, .tracker #table-state button')]
  .filter(b => b.checkVisibility())
  .map(b => { const r = b.getBoundingClientRect();
    const column = b.closest('#table-state') ? b.closest('.tracker-grid').querySelector('#table-state') : null;
    const [x, y] = column && getComputedStyle(column.parentElement).position === 'sticky'
      ? [r.left - column.getBoundingClientRect().left, r.top - column.getBoundingClientRect().top]
      : [r.left + scrollX, r.top + scrollY];
    return [b.getAttribute('aria-label') || b.dataset.typeIn || b.id || b.textContent.trim(),
            Math.round(x), Math.round(y), Math.round(r.width), Math.round(r.height)]; })"""


def sized(page, width: int) -> None:
    """The page at one of the three sizes."""
    w, h = VIEWPORTS[width]
    page.set_viewport_size({"width": w, "height": h})


def start_spqf(page, live_server: str, names=NAMES) -> list[str]:
    """A play of SPQF through the new-play form; the seats' selectors in turn order."""
    return start_by_form(page, live_server, "spqf", names)


def start_spires(page, live_server: str, names=("Ann", "Bob")) -> list[str]:
    """A play of Spires through the new-play form; the seats' selectors in turn order."""
    return start_by_form(page, live_server, "spires", names)


def seat_id(seat: str) -> str:
    return seat.removeprefix("#seat-")


def value_of(page, seat: str, field: str):
    """A counter's shown number (the <output> the number's button holds)."""
    return page.locator(f"#c-{seat_id(seat)}-{field}-value")


def press(page, seat: str, name: str) -> None:
    """Tap one of a seat's buttons by its accessible name ('VP tokens plus 5'), the seat's name in front."""
    seat_button(page, seat, name).click()


def in_view(page, locator) -> dict:
    """Where a box stands on the screen (see IN_VIEW_JS)."""
    return locator.evaluate(IN_VIEW_JS)


def assert_in_view(page, locator) -> None:
    """The box is on the screen, shown (not a hidden layer) and not covered at its centre."""
    where = in_view(page, locator)
    assert where["inside"] and where["atCentre"] and where["opacity"] == "1", where


def reach_25_tokens(page, seat: str) -> None:
    """Five taps of +5 at a seat: 25 VP tokens, the end of the game begins."""
    for total in (5, 10, 15, 20, 25):
        press(page, seat, "VP tokens plus 5")
        expect(value_of(page, seat, "vp_tokens")).to_have_text(str(total))


@SIZES
def test_the_end_begun_and_first_to_a_level_are_said_in_view_at_the_last_seat(page, live_server: str, width: int):
    """Rule text (SPQF): the end is triggered by 'a player with 25+ VP tokens', and 'first to reach each Civilization
    Level takes a 1 VP token'. Said at the moment of the tap at the last seat, in the viewport, in the live region."""
    sized(page, width)
    seats = start_spqf(page, live_server)
    last = seats[-1]
    notice = page.locator("#notice")
    reach_25_tokens(page, last)
    expect(notice).to_contain_text("The end of the game begins: Dominique has 25 VP tokens")
    assert notice.get_attribute("role") == "status"
    assert_in_view(page, notice)
    assert_in_view(page, page.locator(last).get_by_role("button", name="Dominique: VP tokens plus 5"))

    press(page, last, "Civilization Level plus one")
    expect(notice).to_have_text("Dominique is first to level 1: +1 VP token.")
    assert_in_view(page, notice)

    # A tap that says nothing new: the bar keeps its line with what stands, the end begun and who still plays.
    press(page, last, "1 VP cards plus one")
    expect(value_of(page, last, "vp_cards")).to_have_text("1")
    expect(notice).to_have_text("")
    standing = page.locator("#standing")
    expect(standing).to_contain_text("The end of the game has begun")
    assert_in_view(page, standing)
    assert list(page.console_errors) == []


@SIZES
def test_a_tap_that_cannot_reach_the_app_waits_marked_on_the_tapped_counter(page, live_server: str, width: int):
    """The server unreachable: the tap is kept on the device, the tapped counter is marked waiting while its value
    stays as the rules last checked it, in view, and the bar counts it; once the app answers again it is saved once
    and the mark is gone (tests/browser/test_offline_browser.py has the rest of the queue)."""
    sized(page, width)
    seats = start_spqf(page, live_server)
    last = seats[-1]
    press(page, last, "VP tokens plus one")
    expect(value_of(page, last, "vp_tokens")).to_have_text("1")

    page.route(re.compile(r"/plays/\d+/(seats|live)"), lambda route: route.abort())
    press(page, last, "VP tokens plus one")
    counter = page.locator(f"#c-{seat_id(last)}-vp_tokens")
    expect(counter).to_have_class(re.compile(r"\bqueued\b"))
    mark = counter.evaluate("el => getComputedStyle(el, '::after').content")
    assert mark == '"waiting"'
    expect(value_of(page, last, "vp_tokens")).to_have_text("1")
    assert_in_view(page, value_of(page, last, "vp_tokens"))
    flash = page.locator("#flash")
    expect(flash).to_contain_text("1 tap waiting to be saved.")
    assert_in_view(page, flash)

    page.unroute(re.compile(r"/plays/\d+/(seats|live)"))
    expect(value_of(page, last, "vp_tokens")).to_have_text("2")
    expect(counter).not_to_have_class(re.compile(r"\bqueued\b"))
    expect(flash).to_contain_text("1 tap saved.")


@SIZES
def test_nothing_moves_under_the_finger_as_messages_come_and_go(page, live_server: str, width: int):
    """Every seat's buttons stay where they were while a refusal, the end begun, a first-to-level token and an undo
    are said and cleared."""
    sized(page, width)
    seats = start_spqf(page, live_server)
    first, last = seats[0], seats[-1]
    press(page, first, "VP tokens plus one")  # the first tap's answer has drawn everything once
    expect(value_of(page, first, "vp_tokens")).to_have_text("1")
    before = page.evaluate(BOXES_JS)
    assert len(before) >= 4 * 8

    def unmoved(step: str) -> None:
        now = page.evaluate(BOXES_JS)
        moved = [(a, b) for a, b in zip(before, now, strict=True) if a != b]
        assert not moved, f"after {step}: {moved[:3]}"

    # A refusal (a level can't go below 0), drawn over the counter's label and said in the bar.
    press(page, first, "Civilization Level minus one")
    refusal = page.locator(f"#c-{seat_id(first)}-civ_level-error")
    expect(refusal).not_to_be_empty()
    expect(page.locator("#refusal")).not_to_be_empty()
    unmoved("a refusal")
    press(page, first, "1 VP cards plus one")
    expect(refusal).to_be_empty()
    expect(page.locator("#refusal")).to_be_empty()
    unmoved("the refusal cleared")

    reach_25_tokens(page, last)
    expect(page.locator("#notice")).to_contain_text("The end of the game begins")
    unmoved("the end begun")
    press(page, last, "Civilization Level plus one")
    expect(page.locator("#notice")).to_have_text("Dominique is first to level 1: +1 VP token.")
    unmoved("first to a level")
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_contain_text("Took back:")
    unmoved("an undo")
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#standing")).not_to_contain_text("The end of the game has begun")
    unmoved("the end no longer triggered")
    assert [e for e in page.console_errors if "status of 422" not in e] == []


def test_the_strip_shows_every_total_for_four_long_names_on_a_phone(page, live_server: str) -> None:
    """Names give way to an ellipsis; totals never do: all four are inside the 390 px viewport."""
    seats = start_spqf(page, live_server)
    reach_25_tokens(page, seats[3])
    points = page.locator("#score-strip .points")
    expect(points).to_have_count(4)
    for i in range(4):
        box = points.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)
        assert points.nth(i).evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    expect(points.nth(3)).to_have_text("25")
    names = page.locator("#score-strip .name")
    assert any(names.nth(i).evaluate("el => el.scrollWidth > el.clientWidth") for i in range(4))
    # Every strip link is still a 44 px target.
    for link in page.locator("#score-strip a").all():
        box = link.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44


def test_after_finish_the_focus_is_on_the_results_heading(page, live_server: str) -> None:
    seats = start_spires(page, live_server)
    page.locator(seats[0]).get_by_role("button", name="Crowns plus one").click()
    expect(page.locator("#notice")).to_have_text("")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    heading = page.locator("h1#result-title")
    expect(heading).to_be_focused()
    assert heading.get_attribute("tabindex") == "-1"


@SIZES
def test_a_counters_number_is_typed_in(page, live_server: str, width: int) -> None:
    """Tap the number, type, Enter: saved, and the box is fresh. A refused number stays typed with its message, and
    nothing moves. Escape, or an empty box, leaves the count as it was."""
    sized(page, width)
    seats = start_spqf(page, live_server)
    last = seats[-1]
    shown = value_of(page, last, "vp_tokens")
    box = page.locator(f"#c-{seat_id(last)}-vp_tokens-input")
    assert box.get_attribute("inputmode") == "numeric"
    assert box.get_attribute("aria-label") == "Dominique: VP tokens, type a number"
    opener = page.locator(f"#c-{seat_id(last)}-vp_tokens .value-open")
    # The number it shows is in its name (WCAG 2.5.3, label in name).
    expect(opener).to_have_accessible_name(f"Dominique: VP tokens {shown.inner_text()}")
    expect(opener).to_have_accessible_description("Type a number")
    before = page.evaluate(BOXES_JS)

    shown.click()  # the bench's Table.tap on '#c-<scope>-<field>-value'
    expect(box).to_be_focused()
    page.keyboard.type("7")  # Table.keys_in("7"): the keys, then Enter
    page.keyboard.press("Enter")
    expect(shown).to_have_text("7")
    expect(box).to_have_value("")
    expect(box).to_be_hidden()
    page.reload()
    expect(shown).to_have_text("7")

    # Refused (a typo guard: at most 150 VP tokens): the number stays typed, the message beside it and in the bar.
    shown.click()
    page.keyboard.type("999")
    page.keyboard.press("Enter")
    message = page.locator(f"#c-{seat_id(last)}-vp_tokens-error")
    expect(message).not_to_be_empty()
    expect(page.locator("#refusal")).not_to_be_empty()
    assert_in_view(page, page.locator("#refusal"))
    expect(box).to_have_value("999")
    expect(box).to_be_visible()
    expect(shown).to_have_text("7")
    assert page.evaluate(BOXES_JS) == before

    # A step saves and leaves the form fresh: the refused number is gone.
    press(page, last, "VP tokens plus one")
    expect(shown).to_have_text("8")
    expect(box).to_have_value("")

    # Escape, and an empty box left, change nothing.
    shown.click()
    page.keyboard.type("3")
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    shown.click()
    page.locator(f"{last} h2").click()
    expect(box).to_be_hidden()
    expect(shown).to_have_text("8")
    # Leaving the box sets what was typed.
    shown.click()
    page.keyboard.type("12")
    page.locator(f"{last} h2").click()
    expect(shown).to_have_text("12")
    page.reload()
    expect(shown).to_have_text("12")
    assert [e for e in page.console_errors if "status of 422" not in e] == []


def test_without_a_script_the_typed_box_still_sets_the_counter(browser, live_server: str) -> None:
    """No script: the box stands under the counter (scripting: none), and Enter posts it with the Set button, the
    form's first submit button, to the same URL: the count is set, never stepped."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/plays/new?game=spires")
        page.locator("input[name=name-0]").fill("Ann")
        page.locator("input[name=name-1]").fill("Bob")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/plays/\d+$"))
        ann = seat_id("#" + page.locator("section.seat").first.get_attribute("id"))
        box = page.locator(f"#c-{ann}-swords-input")
        expect(box).to_be_visible()
        box.fill("5")
        box.press("Enter")
        page.wait_for_load_state()
        expect(page.locator(f"#c-{ann}-swords-value")).to_have_text("5")
        # An empty box, Enter: nothing changes.
        page.locator(f"#c-{ann}-swords-input").press("Enter")
        page.wait_for_load_state()
        expect(page.locator(f"#c-{ann}-swords-value")).to_have_text("5")
        page.locator(f"#c-{ann}-swords").get_by_role("button", name="Ann: Swords plus one").click()
        page.wait_for_load_state()
        expect(page.locator(f"#c-{ann}-swords-value")).to_have_text("6")
    finally:
        context.close()
