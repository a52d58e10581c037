"""Spyrium in a real browser: a short three-player game through the UI to the final table and its PDF, axe-core on
the tracker and the result, the tracker's tap targets at phone and tablet widths, and screenshots for a look by eye.

Uses the live_server, browser and page fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import io
import os
import re
import warnings
from pathlib import Path

import pytest

from tests.browser.axe import axe_violations, describe
from tests.browser.targets import count_controls, target_problems

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ("Ann", "Bob", "Cy")
# A phone, a tablet held upright, the same tablet on its side.
VIEWPORTS = {390: (390, 844), 820: (820, 1180), 1180: (1180, 820)}


def value_of(page, seat: str, field: str):
    """The locator of a counter's shown value."""
    return page.locator(f"#c-{seat.removeprefix('#seat-')}-{field}-value")


def error_of(page, seat: str, field: str):
    """The locator of a counter's own message slot."""
    return page.locator(f"#c-{seat.removeprefix('#seat-')}-{field}-error")


def slot_of(page, slot: str, seat: str | None = None):
    """The locator of a game action's message slot ('start_turn', or 'build' / 'technique' / 'bonus' of a seat)."""
    return page.locator(f"#a-{slot}" + (f"-{seat.removeprefix('#seat-')}" if seat else ""))


def button(page, seat: str, name: str):
    """A seat's button by its accessible name ('Score track VP plus 5'), the seat's name in front."""
    who = page.locator(f"{seat} h2").first.inner_text().split()[0]
    return page.locator(seat).get_by_role("button", name=f"{who}: {name}", exact=True)


def start_spyrium(page, live_server: str, names=NAMES) -> list[str]:
    """Start a Spyrium play through the new-play form; the seats' selectors in turn order."""
    page.goto(live_server + "/plays/new?game=spyrium")
    for i, name in enumerate(names):
        page.locator(f"input[name=name-{i}]").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    seats = page.locator("section.seat")
    expect(seats).to_have_count(len(names))
    return ["#" + seats.nth(i).get_attribute("id") for i in range(len(names))]


def start_turn(page) -> None:
    page.get_by_role("button", name="Start the next turn").click()


def open_buy(page, seat: str):
    """Open a seat's 'Buildings and techniques'; the details' locator."""
    details = page.locator(f"{seat} details.buy")
    if details.get_attribute("open") is None:
        details.locator("summary", has_text="Buildings and techniques").click()
    expect(details.get_by_role("button", name="Build")).to_be_visible()
    return details


def build(page, seat: str, vp: int, cost: int) -> None:
    details = open_buy(page, seat)
    details.get_by_label("Building VP").fill(str(vp))
    details.get_by_label("Card cost £").fill(str(cost))
    details.get_by_role("button", name="Build").click()


def patent(page, seat: str, vp: int) -> None:
    details = open_buy(page, seat)
    details.get_by_label("Technique end VP (0-7)").fill(str(vp))
    details.get_by_role("button", name="Patent / set").click()


def finish(page) -> None:
    """Finish and score, accepting the confirm dialog; wait for the result page."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.locator("#result").wait_for()


INSIDE_JS = """(id) => {
  // Whether a counter's message box lies inside its own counter's box (1 px of rounding allowed).
  const m = document.getElementById(id).getBoundingClientRect();
  const c = document.getElementById(id).closest('.counter').getBoundingClientRect();
  return m.width > 0 && m.height > 0 && m.left >= c.left - 1 && m.right <= c.right + 1 &&
         m.top >= c.top - 1 && m.bottom <= c.bottom + 1;
}"""


def test_three_player_spyrium_to_final_table(page, live_server: str) -> None:
    pypdf = pytest.importorskip("pypdf")
    ann, bob, cy = start_spyrium(page, live_server)
    notice = page.locator("#notice")
    expect(page.locator("#turn-title")).to_have_text("Before turn 1")
    for seat in (ann, bob, cy):
        expect(value_of(page, seat, "money")).to_have_text("8")
        expect(value_of(page, seat, "workers")).to_have_text("3")
        expect(value_of(page, seat, "residence")).to_have_text("1")

    # Turn 1: every Residence token on its first space, £2 each.
    start_turn(page)
    expect(notice).to_have_text("Turn 1 (period A): income paid: Ann £2, Bob £2, Cy £2.")
    expect(page.locator("#turn-title")).to_have_text("Turn 1 of 6 · period A")
    for seat in (ann, bob, cy):
        expect(value_of(page, seat, "money")).to_have_text("10")

    # Ann scores 5 VP twice: past 8, the bonus is asked, in the notice and on her bonus line.
    for _ in range(2):
        button(page, ann, "Score track VP plus 5").click()
    expect(value_of(page, ann, "vp_track")).to_have_text("10")
    expect(notice).to_have_text("Ann reached 8 VP: choose +1 worker or £5.")
    ann_bonus = page.locator(f"{ann} .bonus-state")
    expect(ann_bonus).to_have_text("8 VP reached: choose +1 worker or £5.")
    expect(ann_bonus).to_have_class(re.compile(r"\bwarn\b"))
    expect(page.locator("#scoreboard .notes .warn")).to_contain_text("Ann reached 8 VP: choose +1 worker or £5.")

    plus_worker = page.get_by_role("button", name="Ann: 8 VP bonus, one more worker", exact=True)
    expect(plus_worker).to_have_text("+1 worker")
    plus_worker.click()
    expect(notice).to_have_text("Ann takes an extra worker (4).")
    expect(value_of(page, ann, "workers")).to_have_text("4")
    expect(ann_bonus).to_have_text("8 VP bonus: the worker; at 20 VP the other.")
    expect(ann_bonus).not_to_have_class(re.compile(r"\bwarn\b"))
    expect(page.locator("#scoreboard .notes .warn")).to_have_count(0)

    # Bob builds a 4 VP building whose card costs £3: his first, the space is free.
    build(page, bob, vp=4, cost=3)
    expect(notice).to_have_text("Bob builds a 4 VP building: card £3, space free (the first); −£3.")
    expect(value_of(page, bob, "money")).to_have_text("7")
    expect(page.locator(f"{bob} .seat-facts")).to_contain_text("next building space £1 · buildings 4 VP")
    expect(slot_of(page, "build", bob)).to_have_text("")

    # Cy reaches for a building he can't pay for: refused, said in the slot under his Build button.
    build(page, cy, vp=6, cost=12)
    refused_build = slot_of(page, "build", cy)
    expect(refused_build).to_have_text("Cy has £10: this building costs £12 and its space £0.")
    expect(refused_build).to_be_visible()
    expect(value_of(page, cy, "money")).to_have_text("10")
    expect(notice).to_have_text("")

    # Cy patents a technique worth 5 VP at the end instead: £6. The answer clears the refusal.
    patent(page, cy, vp=5)
    expect(notice).to_have_text("Cy patents a technique (−£6), 5 VP at the end.")
    expect(value_of(page, cy, "money")).to_have_text("4")
    expect(page.locator(f"{cy} .seat-facts")).to_contain_text("techniques 5 VP")
    expect(refused_build).to_have_text("")

    # A refused tap: Ann has 4 workers, 3 more reach the cap of 7 and the next one is refused, in her Workers counter.
    plus = button(page, ann, "Workers plus one")
    for _ in range(4):
        plus.click()
    expect(error_of(page, ann, "workers")).to_have_text("Maximum number of workers: 7. Ann has 7.")
    expect(value_of(page, ann, "workers")).to_have_text("7")
    assert page.evaluate(INSIDE_JS, f"c-{ann.removeprefix('#seat-')}-workers-error"), (
        "the message is not inside its counter"
    )
    for seat in (ann, bob, cy):
        for field in ("vp_track", "money", "spyrium", "residence"):
            assert error_of(page, seat, field).inner_text() == "", f"{seat} {field} shows a message"
    assert error_of(page, bob, "workers").inner_text() == ""

    # And the Residence track's top: Bob moves up 5 spaces to 6, the sixth step is refused.
    plus = button(page, bob, "Residence space plus one")
    for _ in range(6):
        plus.click()
    expect(error_of(page, bob, "residence")).to_have_text("The Residence track has 6 spaces: 1 (£2) to 6 (£7).")
    expect(value_of(page, bob, "residence")).to_have_text("6")
    expect(error_of(page, ann, "workers")).to_have_text("")  # the next tap cleared the earlier refusal
    assert page.evaluate(INSIDE_JS, f"c-{bob.removeprefix('#seat-')}-residence-error")
    expect(page.locator(f"{bob} .seat-facts")).to_contain_text("Residence space 6: income £7")

    # Undo takes back Bob's last step up the track, not the refused one.
    page.get_by_role("button", name="Undo last tap").click()
    expect(notice).to_have_text("Took back: Bob, Residence space +1.")
    expect(value_of(page, bob, "residence")).to_have_text("5")
    expect(error_of(page, bob, "residence")).to_have_text("")

    # Turns 2 to 6: Ann £2, Bob £6 (space 5), Cy £2 each time; period B from turn 4, C on turn 6.
    for turn, period in ((2, "A"), (3, "A"), (4, "B"), (5, "B"), (6, "C")):
        start_turn(page)
        expect(notice).to_have_text(f"Turn {turn} (period {period}): income paid: Ann £2, Bob £6, Cy £2.")
        expect(page.locator("#turn-title")).to_have_text(f"Turn {turn} of 6 · period {period}")
    expect(value_of(page, ann, "money")).to_have_text(str(10 + 5 * 2))
    expect(value_of(page, bob, "money")).to_have_text(str(7 + 5 * 6))
    expect(value_of(page, cy, "money")).to_have_text(str(4 + 5 * 2))
    expect(page.locator("#scoreboard .notes .warn")).to_contain_text("Turn 6 is the last")

    # A 7th turn is refused, with its message beside the button.
    start_turn(page)
    expect(slot_of(page, "start_turn")).to_have_text("Turn 6 was the last one: finish and score.")
    expect(page.locator("#turn-title")).to_have_text("Turn 6 of 6 · period C")
    expect(value_of(page, ann, "money")).to_have_text("20")

    finish(page)
    assert re.search(r"/plays/\d+$", page.url)
    result = page.locator("#result")
    # text_content: the reasons too, which the result grid keeps one tap away in closed <details>.
    text = result.text_content()
    # Ann: 10 track; Bob: one 4 VP building; Cy: one 5 VP technique.
    assert "Ann wins" in text
    assert "with 10 VP." in text
    for name in NAMES:
        expect(result.locator("thead th", has_text=name)).to_have_count(1)
    for label in ("Score track", "Buildings", "Techniques"):
        assert label in text
    assert "left over score nothing; the score track shows 10 VP." in text
    assert "1 building, the VP printed on it: 4 VP." in text
    assert "1 technique, end-game VP (at most 7 each): 5 VP." in text

    link = page.get_by_role("link", name="Score sheet (PDF)")
    href = link.get_attribute("href")
    assert re.fullmatch(r"/plays/\d+/sheet\.pdf", href)
    response = page.request.get(live_server + href)
    assert response.ok
    assert response.headers["content-type"] == "application/pdf"
    pdf_text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    for name in NAMES:
        assert name in pdf_text
    assert "Spyrium" in pdf_text

    # The refused taps are 422s the browser logs as failed resources; nothing else may go wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == [], "\n".join(page.console_errors)


def _tracker_with_a_bit_of_everything(page, live_server: str) -> list[str]:
    """Three players in turn 1; Ann past 8 VP with her bonus to choose; Cy with a building and a technique on his
    facts line; Bob's Workers refused a tap last, so its message stands in its counter (an answer clears every
    other message); every details open."""
    seats = start_spyrium(page, live_server)
    ann, bob, cy = seats
    start_turn(page)
    expect(page.locator("#notice")).to_contain_text("Turn 1 (period A)")
    for _ in range(2):
        button(page, ann, "Score track VP plus 5").click()
    expect(page.locator(f"{ann} .bonus-state")).to_have_text("8 VP reached: choose +1 worker or £5.")
    build(page, cy, vp=3, cost=2)
    expect(page.locator("#notice")).to_contain_text("Cy builds a 3 VP building")
    patent(page, cy, vp=4)
    expect(page.locator(f"{cy} .seat-facts")).to_contain_text("buildings 3 VP · techniques 4 VP")
    plus = button(page, bob, "Workers plus one")
    for _ in range(5):
        plus.click()
    expect(error_of(page, bob, "workers")).to_have_text("Maximum number of workers: 7. Bob has 7.")
    page.evaluate("() => document.querySelectorAll('.tracker details').forEach(d => { d.open = true; })")
    return seats


def _axe_clean(page) -> None:
    violations = axe_violations(page)
    assert violations == [], "axe-core found serious or critical violations:\n" + describe(violations)


def test_axe_tracker_and_result_have_no_serious_violations(browser, live_server: str) -> None:
    # bypass_csp lets add_script_tag put axe in; the app has no inline script or style, so the page is the same.
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        expect(page.locator(".tracker details.buy[open]")).to_have_count(3)
        _axe_clean(page)

        finish(page)
        _axe_clean(page)
    finally:
        context.close()


# The controls measured: those a finger taps (tests/browser/targets.py checks each).
TRACKER_CONTROLS = "button, input:not([type=hidden]), select, textarea"


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_tracker_controls_fit_are_big_enough_and_not_covered(browser, live_server: str, width: int) -> None:
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        expect(page.locator(".tracker details.buy[open]")).to_have_count(3)
        count = count_controls(page, ".tracker", TRACKER_CONTROLS)
        # 3 seats x (11 counter buttons + 2 bonus buttons + 5 inputs + 2 buttons), start turn, undo, finish, aside.
        assert count >= 3 * 20 + 4, f"only {count} controls found in .tracker"
        problems = target_problems(page, ".tracker", TRACKER_CONTROLS)
        assert problems == [], f"{len(problems)} problems at {w}x{h}:\n" + "\n".join(problems)
    finally:
        context.close()


# Each box with a hint in it: the hint's width in the box's font, and the room for text inside the box (its width
# less what the browser puts around the text: padding and, on a number box, the spin buttons). That room is
# measured, not guessed: a long value is typed in and its scroll width less the text's own width is the rest.
HINTS_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.tracker input[placeholder]')]
    .filter(el => el.getClientRects().length > 0)
    .map(el => {
      ctx.font = getComputedStyle(el).font;
      const saved = el.value, probe = '8'.repeat(40);
      el.value = probe;
      const around = el.scrollWidth - ctx.measureText(probe).width;
      el.value = saved;
      const seat = el.closest('.seat').querySelector('h2').textContent.trim().split(/\\s/)[0];
      return {name: seat + ', ' + el.closest('label').textContent.trim(), hint: el.placeholder,
              need: ctx.measureText(el.placeholder).width, room: el.clientWidth - around};
    });
}"""


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_buy_form_hints_are_not_cut_off(browser, live_server: str, width: int) -> None:
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        start_spyrium(page, live_server)
        page.evaluate("() => document.querySelectorAll('.tracker details').forEach(d => { d.open = true; })")
        hints = page.evaluate(HINTS_JS)
        assert len(hints) == 2 * len(NAMES), hints
        cut = [
            f"{b['name']}: '{b['hint']}' needs {b['need']:.0f} px, the box has {b['room']:.0f} px"
            for b in hints
            if b["need"] > b["room"] + 0.5
        ]
        assert cut == [], f"hints cut off at {w}x{h}:\n" + "\n".join(cut)
    finally:
        context.close()


def _shots_folder(tmp_path: Path) -> Path:
    """COMPANION_SHOTS when set (the screenshots are kept there to be looked at), else the test's tmp_path."""
    folder = Path(os.environ["COMPANION_SHOTS"]) if os.environ.get("COMPANION_SHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _shoot(page, target: Path) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    try:
        page.screenshot(path=str(target), full_page=True)
    except (sync_api.Error, OSError) as failed:  # a screenshot is for the eye only
        warnings.warn(f"screenshot {target.name} not taken: {failed}", stacklevel=1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_tracker_screenshots(browser, live_server: str, tmp_path: Path, width: int, scheme: str) -> None:
    """Full-page screenshots of a tracker in play and of its result, for a look by eye; they never fail the test."""
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        folder = _shots_folder(tmp_path)
        _shoot(page, folder / f"spyrium-tracker-{width}-{scheme}.png")
        finish(page)
        _shoot(page, folder / f"spyrium-result-{width}-{scheme}.png")
    finally:
        context.close()
