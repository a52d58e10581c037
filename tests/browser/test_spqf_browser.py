"""SPQF in a real browser: a short three-player game through the UI to the score sheet, axe-core on the tracker and
the result, the tracker's tap targets at phone and tablet widths, and screenshots for a look by eye.

Uses the live_server, browser and page fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest

from tests.browser.axe import axe_violations, describe
from tests.browser.targets import count_controls, target_problems
from tests.browser.tracker import (
    VIEWPORTS,
    finish,
    result_text,
    seat_button,
    sheet_pdf_text,
    shots_folder,
    start_by_form,
    tracker_screenshots,
)

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
PlaywrightError = pytest.importorskip("playwright.sync_api").Error

NAMES = ("Ann", "Bob", "Cy")
# A phone, a tablet held upright, the same tablet on its side.


def value_of(page, seat: str, field: str):
    """The locator of a counter's shown value."""
    return page.locator(f"#c-{seat.removeprefix('#seat-')}-{field}-value")


def error_of(page, seat: str, field: str):
    """The locator of a counter's own message slot."""
    return page.locator(f"#c-{seat.removeprefix('#seat-')}-{field}-error")


def button(page, seat: str, name: str):
    """A seat's button by its accessible name, the seat's name in front."""
    return seat_button(page, seat, name)


def start_spqf(page, live_server: str, names=NAMES) -> list[str]:
    """Start a play through the new-play form; the seats' selectors in turn order."""
    return start_by_form(page, live_server, "spqf", names)


def test_three_player_spqf_to_score_sheet(page, live_server: str) -> None:
    pytest.importorskip("pypdf")
    ann, bob, cy = start_spqf(page, live_server)
    notice = page.locator("#notice")
    expect(page.locator("#turn-title")).to_have_text("Round 1: Ann's turn")

    # Bob expands: first to level 1, and the token comes with it.
    button(page, bob, "Civilization Level plus one").click()
    expect(notice).to_have_text("Bob is first to level 1: +1 VP token.")
    expect(value_of(page, bob, "civ_level")).to_have_text("1")
    expect(value_of(page, bob, "vp_tokens")).to_have_text("1")

    # Ann takes 5 VP tokens twice.
    for _ in range(2):
        button(page, ann, "VP tokens plus 5").click()
    expect(value_of(page, ann, "vp_tokens")).to_have_text("10")

    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#turn-title")).to_have_text("Round 1: Bob's turn")
    expect(page.locator(f"{bob} .badge.active")).to_have_text("their turn")

    # A refused tap: Cy has no VP token to take back. The message shows in that counter's own slot, nowhere else.
    button(page, cy, "VP tokens minus one").click()
    expect(error_of(page, cy, "vp_tokens")).to_have_text("Must be at least 0.")
    expect(value_of(page, cy, "vp_tokens")).to_have_text("0")
    assert error_of(page, cy, "civ_level").inner_text() == ""
    assert error_of(page, ann, "vp_tokens").inner_text() == ""

    # Two quick taps on Cy's level: one level each, 1 then 2 (level 1 is Bob's, level 2 is Cy's).
    plus_level = button(page, cy, "Civilization Level plus one")
    plus_level.click()
    plus_level.click()
    expect(value_of(page, cy, "civ_level")).to_have_text("2")
    expect(notice).to_have_text("Cy is first to level 2: +1 VP token.")
    expect(value_of(page, cy, "vp_tokens")).to_have_text("1")
    expect(error_of(page, cy, "vp_tokens")).to_have_text("")  # the next tap cleared the refusal
    page.locator("#table-state details.levels summary").click()
    expect(page.locator("#levels")).to_contain_text("Level 1: Bob")
    expect(page.locator("#levels")).to_contain_text("Level 2: Cy")
    # Cy reached level 1 too, after Bob: the token can be handed to Cy if the taps came in the wrong order.
    expect(page.locator("#give-token").get_by_role("button", name="Give")).to_be_visible()

    # Undo takes back Cy's level 2 whole, token included.
    page.get_by_role("button", name="Undo last tap").click()
    expect(notice).to_have_text("Took back: Cy, Civilization Level +1 (Cy is first to level 2: +1 VP token).")
    expect(value_of(page, cy, "civ_level")).to_have_text("1")
    expect(value_of(page, cy, "vp_tokens")).to_have_text("0")
    expect(page.locator("#levels")).to_contain_text("Level 2: nobody yet")

    page.get_by_role("button", name="Last Civilization card placed").click()
    scoreboard = page.locator("#scoreboard")
    expect(scoreboard).to_contain_text("The end of the game has begun")
    expect(scoreboard.locator(".warn")).to_contain_text("the last Civilization card is in the central trade row")
    expect(page.locator("#deck-state")).to_have_text("The last Civilization card is in the central trade row.")

    # 1 VP cards are counted as they come (Ann 1, Cy 3); Monument modifiers at the end (Ann 4, Bob 2, Cy 1).
    button(page, ann, "1 VP cards plus one").click()
    for _ in range(3):
        button(page, cy, "1 VP cards plus one").click()
    expect(value_of(page, ann, "vp_cards")).to_have_text("1")
    expect(value_of(page, cy, "vp_cards")).to_have_text("3")
    seat_id = {name: seat.removeprefix("#seat-") for name, seat in zip(NAMES, (ann, bob, cy), strict=True)}
    for name, modifiers in (("Ann", 4), ("Bob", 2), ("Cy", 1)):
        page.locator(f"#end-{seat_id[name]}-monument_modifiers").fill(str(modifiers))
    finish(page)
    text = result_text(page, NAMES)
    # Ann: 10 tokens + 0 (level 0) + 4 Monument + 3 bonus + 1 card = 18; Bob: 1 + 3 + 2 + 0 + 0 = 6;
    # Cy: 0 + 3 + 1 + 0 + 3 = 7.
    assert "Ann wins" in text
    assert "with 18 VP." in text
    assert "Monument bonus" in text
    assert "The most Monument VP (4; next best 2): 3 VP." in text

    pdf_text = sheet_pdf_text(page, live_server, NAMES)
    assert "Monument" in pdf_text

    # The refused tap is a 422 the browser logs as a failed resource; nothing else may go wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == [], "\n".join(page.console_errors)


def _axe_clean(page) -> None:
    violations = axe_violations(page)
    assert violations == [], "axe-core found serious or critical violations:\n" + describe(violations)


def test_axe_tracker_and_result_have_no_serious_violations(browser, live_server: str) -> None:
    # bypass_csp lets add_script_tag put axe in; the app has no inline script or style, so the page is the same.
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    try:
        ann, bob, _cy = start_spqf(page, live_server)
        # Something on every part of the tracker: a level token, a refused tap's message, the end warning.
        button(page, bob, "Civilization Level plus one").click()
        expect(value_of(page, bob, "civ_level")).to_have_text("1")
        button(page, ann, "Civilization Level plus one").click()
        expect(value_of(page, ann, "civ_level")).to_have_text("1")
        button(page, ann, "1 VP cards minus one").click()
        expect(error_of(page, ann, "vp_cards")).to_have_text("Must be at least 0.")
        page.get_by_role("button", name="Last Civilization card placed").click()
        expect(page.locator("#scoreboard")).to_contain_text("The end of the game has begun")
        for details in page.locator(".tracker details").all():
            details.locator("summary").click()
        _axe_clean(page)

        finish(page)
        _axe_clean(page)
    finally:
        context.close()


def test_axe_runs_under_the_apps_csp(page, live_server: str) -> None:
    """Without bypass_csp the CSP refuses the script tag; the helper still gets axe in and runs it."""
    start_spqf(page, live_server)
    _axe_clean(page)
    # The one console error is the browser refusing the helper's inline script tag, as the CSP should.
    assert page.console_errors, "the CSP let an inline script tag run"
    assert all("Executing inline script violates" in e for e in page.console_errors), page.console_errors


# The controls measured: those a finger taps (tests/browser/targets.py checks each).
TRACKER_CONTROLS = "button, input:not([type=hidden]), select, textarea"


def _open_everything(page) -> None:
    """Open the setup card and the first-to-level list, so that the controls inside them are measured too."""
    page.evaluate("() => document.querySelectorAll('.tracker details').forEach(d => { d.open = true; })")


def _tracker_with_a_bit_of_everything(page, live_server: str) -> list[str]:
    """Three players; Ann then Bob reach level 1; Ann's VP tokens refused a tap, so its message stands in its counter;
    both details are open, with the form that hands a level's token over."""
    seats = start_spqf(page, live_server)
    ann, bob, _cy = seats
    button(page, ann, "Civilization Level plus one").click()
    expect(value_of(page, ann, "civ_level")).to_have_text("1")
    button(page, bob, "Civilization Level plus one").click()
    expect(page.locator("#notice")).to_have_text("Bob reaches level 1; Ann was first to it.")
    button(page, ann, "VP tokens minus one").click()
    button(page, ann, "VP tokens minus one").click()
    expect(error_of(page, ann, "vp_tokens")).to_have_text("Must be at least 0.")
    _open_everything(page)
    expect(page.locator("#give-token").get_by_role("button", name="Give")).to_be_visible()
    return seats


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_tracker_controls_fit_are_big_enough_and_not_covered(browser, live_server: str, width: int) -> None:
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        count = count_controls(page, ".tracker", TRACKER_CONTROLS)
        assert count > 20, f"only {count} controls found in .tracker"
        problems = target_problems(page, ".tracker", TRACKER_CONTROLS)
        assert problems == [], f"{len(problems)} problems at {w}x{h}:\n" + "\n".join(problems)
    finally:
        context.close()


HIDDEN_JS = """(message) => {
  // The labels, names and facts that a refused tap's floating message is drawn over.
  const m = document.querySelector(message).getBoundingClientRect();
  const own = document.querySelector(message).closest('.counter');
  const hidden = [];
  for (const el of document.querySelectorAll('.tracker .counter .label, .tracker .seat h2, .tracker .seat-facts')) {
    if (own.contains(el) || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const overlap = Math.min(r.right, m.right) - Math.max(r.left, m.left) > 1 &&
                    Math.min(r.bottom, m.bottom) - Math.max(r.top, m.top) > 1;
    if (overlap) hidden.push((el.closest('.seat').querySelector('h2').textContent.trim().split(/\\s/)[0]) + ': ' +
                             el.textContent.trim().slice(0, 40));
  }
  return hidden;
}"""


@pytest.mark.parametrize(("field", "taps"), [("vp_tokens", 1), ("civ_level", 6)])
def test_a_refused_taps_message_hides_no_other_label(page, live_server: str, field: str, taps: int) -> None:
    ann, _bob, _cy = start_spqf(page, live_server)
    label = {"vp_tokens": "VP tokens minus one", "civ_level": "Civilization Level plus one"}[field]
    for _ in range(taps):
        button(page, ann, label).click()
    expect(error_of(page, ann, field)).not_to_be_empty()
    message = f"#c-{ann.removeprefix('#seat-')}-{field}-error"
    assert page.evaluate(HIDDEN_JS, message) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_tracker_screenshots(browser, live_server: str, tmp_path: Path, width: int, scheme: str) -> None:
    """Full-page screenshots of a tracker in play, for a look by eye; they never fail the test."""
    fill = partial(_tracker_with_a_bit_of_everything, live_server=live_server)
    tracker_screenshots(browser, shots_folder(tmp_path), "spqf", width, scheme, fill)


def _play_view(page, live_server: str) -> dict:
    """The play the page shows, read through the JSON API."""
    play = re.search(r"/plays/(\d+)$", page.url).group(1)
    return page.request.get(f"{live_server}/api/v1/plays/{play}").json()


def _give(page, level: int, name: str) -> None:
    """Hand a level's first-player token over with the form under 'First to each level'."""
    form = page.locator("#give-token")
    form.locator("select[name=level]").select_option(str(level))
    form.locator("select[name=seat]").select_option(label=name)
    form.get_by_role("button", name="Give").click()


@pytest.mark.browser
def test_a_token_handed_over_while_a_tap_is_on_its_way_is_not_dropped(page, live_server: str) -> None:
    """Answers redraw the level list out of band; a hand-over queued behind a slow tap must still be sent."""
    ann, bob, _cy = start_spqf(page, live_server)
    button(page, ann, "Civilization Level plus one").click()
    expect(page.locator("#levels")).to_contain_text("Level 1: Ann")
    button(page, bob, "Civilization Level plus one").click()
    expect(page.locator("#notice")).to_have_text("Bob reaches level 1; Ann was first to it.")
    page.locator("details.levels summary").click()
    # Hold the next tap's answer back so that the hand-over waits in the queue behind it.
    page.route("**/seats/**", lambda route: (page.wait_for_timeout(800), route.continue_()))
    button(page, ann, "VP tokens plus one").click()
    _give(page, 1, "Bob")
    expect(page.locator("#levels")).to_contain_text("Level 1: Bob", timeout=10_000)
    view = _play_view(page, live_server)
    assert view["table"]["first"]["1"]["seat"] == 1
    assert [p["vp_tokens"] for p in view["players"]] == [1, 1, 0]


@pytest.mark.browser
def test_a_refused_token_hand_over_says_why(page, live_server: str) -> None:
    ann, bob, _cy = start_spqf(page, live_server)
    button(page, ann, "Civilization Level plus one").click()
    expect(page.locator("#levels")).to_contain_text("Level 1: Ann")
    page.locator("details.levels summary").click()
    _give(page, 1, "Bob")
    expect(page.locator("#a-first_token")).to_have_text(
        "Bob has not reached level 1: only a player who has earned a level can be first to it."
    )
    # The next action clears the message.
    button(page, bob, "Civilization Level plus one").click()
    expect(page.locator("#a-first_token")).to_have_text("")


def test_a_token_handed_over_after_a_correction_keeps_its_turn(page, live_server: str) -> None:
    """Decision (docs/rules.md, "SPQF"): a token handed over 'keeps the turn on which its level was reached: a player
    who expands later in the same turn does not take it'. Through the page: a tap on the wrong seat, the correction, the
    handover, then a player before Bob in turn order expands; what the table hears and what was stored."""
    ann, bob, cy = start_spqf(page, live_server)
    notice = page.locator("#notice")
    button(page, ann, "Civilization Level plus one").click()  # turn 1: meant for Bob
    expect(notice).to_have_text("Ann is first to level 1: +1 VP token.")
    button(page, bob, "Civilization Level plus one").click()
    expect(notice).to_have_text("Bob reaches level 1; Ann was first to it.")
    for title in ("Round 1: Bob's turn", "Round 1: Cy's turn"):
        page.get_by_role("button", name="Next turn").click()
        expect(page.locator("#turn-title")).to_have_text(title)
    button(page, ann, "Civilization Level minus one").click()
    expect(notice).to_have_text(
        "Ann's Civilization Level corrected from 1 down to 0. The level 1 token goes back (−1 VP token): nobody "
        "holds it now; Bob has reached it too: hand it to whoever was first under First to each level."
    )
    expect(page.locator("#levels")).to_contain_text("Level 1: nobody yet")
    page.locator("details.levels summary").click()
    _give(page, 1, "Bob")
    expect(notice).to_have_text("The level 1 token goes to Bob (+1 VP token).")
    expect(page.locator("#levels")).to_contain_text("Level 1: Bob")
    # Cy, active in turn 3 and so before Bob in turn order, expands: Bob got there in turn 1 and keeps the token.
    button(page, cy, "Civilization Level plus one").click()
    expect(notice).to_have_text("Cy reaches level 1; Bob was first to it.")
    expect(page.locator("#levels")).to_contain_text("Level 1: Bob")
    for seat, tokens in ((ann, "0"), (bob, "1"), (cy, "0")):
        expect(value_of(page, seat, "vp_tokens")).to_have_text(tokens)
    view = _play_view(page, live_server)
    assert view["table"]["first"] == {"1": {"seat": 1, "turn": 1}}
    assert view["table"]["reached"] == {"1": {"1": 1, "2": 3}}
    assert [(p["civ_level"], p["vp_tokens"]) for p in view["players"]] == [(0, 0), (1, 1), (1, 0)]
    assert page.console_errors == []


def test_a_score_of_several_tokens_is_one_tap_and_one_undo(page, live_server: str) -> None:
    """'A Score: Take the indicated VP tokens from the supply.': Bob's +4 chip takes four at once, Undo takes all
    four back, and a chip past the typo guard (150, docs/rules.md) is refused beside the VP token counter."""
    _ann, bob, _cy = start_spqf(page, live_server)
    button(page, bob, "VP tokens plus 4").click()
    expect(value_of(page, bob, "vp_tokens")).to_have_text("4")
    expect(page.locator("#scoreboard")).to_contain_text("Bob leads with 4 VP.")
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_have_text("Took back: Bob, VP tokens +4.")
    expect(value_of(page, bob, "vp_tokens")).to_have_text("0")
    play_id = page.url.rsplit("/", 1)[1]
    answer = page.request.post(
        f"{live_server}/api/v1/plays/{play_id}/actions",
        data={"action": "set", "player": "Bob", "field": "vp_tokens", "value": 148},
    )
    assert answer.ok
    expect(value_of(page, bob, "vp_tokens")).to_have_text("148")
    button(page, bob, "VP tokens plus 3").click()
    expect(error_of(page, bob, "vp_tokens")).to_contain_text("150")
    expect(value_of(page, bob, "vp_tokens")).to_have_text("148")
