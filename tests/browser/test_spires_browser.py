"""A short two-player Spires game played through the UI in a real browser, to the final table."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def value_of(page, seat: str, field: str):
    """The locator of a counter's shown value."""
    return page.locator(f"#c-{seat.removeprefix('#seat-')}-{field.replace('.', '-')}-value")


def tap(page, seat: str, label: str, field: str, times: int = 1) -> None:
    """Tap a counter's + button `times` times as fast as a finger can, then wait for the last answer."""
    start = int(value_of(page, seat, field).inner_text())
    for _ in range(times):
        page.locator(seat).get_by_role("button", name=f"{label} plus one").click()
    expect(value_of(page, seat, field)).to_have_text(str(start + times))


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

    tap(page, ann, "Red", "towers.red", 3)
    tap(page, ann, "Blue", "towers.blue", 4)
    tap(page, ann, "Crowns", "crowns", 2)
    tap(page, bob, "Green", "towers.green", 2)
    tap(page, bob, "Swords", "swords", 1)
    # The fourth blue card turns that tower into a warning, live.
    assert "blue tower has 4 cards" in page.locator("#scoreboard").inner_text()
    assert "flagged" in value_of(page, ann, "towers.blue").get_attribute("class")

    # The Scroll VP box (every counter's number also has a box of its own, name=value, opened by tapping it).
    page.locator(f"#c-{bob.removeprefix('#seat-')}-scroll_vp-input").fill("6")
    page.locator(f"#c-{bob.removeprefix('#seat-')}-scroll_vp-input").press("Enter")
    page.wait_for_function("() => document.querySelector('#scoreboard').innerText.includes('36')")

    # Undo takes back the scroll VP and says so.
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_have_text("Took back: Bob, scroll VP set to 6.")
    assert "36" not in page.locator("#scoreboard").inner_text()

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    # text_content: the reasons too, which the result grid keeps one tap away in closed <details>.
    text = page.locator("#result").text_content()
    # Ann: red 3 (+15), blue 4 (-4), most crowns (+15) = 26; Bob: green 2 (+10), most swords (+20) = 30.
    assert "Bob wins" in text
    assert "26" in text and "30" in text
    assert "Towers of 4+ cards" in text
    assert "Total" in text
    assert "Blue 4: 4 cards × −1 = −4 VP." in text
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


def test_quick_taps_on_a_slow_network_are_all_saved(page, live_server: str) -> None:
    """Taps made while earlier ones are still on their way queue up; none is dropped."""
    page.goto(live_server + "/plays/new?game=spires")
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_label("Player 2 name").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    ann = "#" + page.locator("section.seat").nth(0).get_attribute("id")

    def slow(route) -> None:
        page.wait_for_timeout(250)
        route.continue_()

    page.route("**/seats/**", slow)
    for _ in range(5):
        page.locator(ann).get_by_role("button", name="Red plus one").click()
    page.locator(ann).get_by_role("button", name="Swords plus one").click()
    expect(value_of(page, ann, "towers.red")).to_have_text("5", timeout=10_000)
    expect(value_of(page, ann, "swords")).to_have_text("1", timeout=10_000)
    page.unroute("**/seats/**")
    page.reload()
    expect(value_of(page, ann, "towers.red")).to_have_text("5")
    assert "Ann" in page.locator("#scoreboard").inner_text()


def start_two_player_game(page, live_server: str) -> tuple[str, str]:
    """Start Ann and Bob's game through the form; the two seats' ids."""
    page.goto(live_server + "/plays/new?game=spires")
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_label("Player 2 name").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    seats = page.locator("section.seat")
    return "#" + seats.nth(0).get_attribute("id"), "#" + seats.nth(1).get_attribute("id")


def slow_posts(page, milliseconds: int = 250) -> None:
    """Delay every POST, as a busy Wi-Fi does."""

    def slow(route) -> None:
        if route.request.method == "POST":
            page.wait_for_timeout(milliseconds)
        route.continue_()

    page.route("**/plays/**", slow)


def test_undo_and_finish_wait_for_the_taps_before_them(page, live_server: str) -> None:
    ann, _bob = start_two_player_game(page, live_server)
    tap(page, ann, "Red", "towers.red")  # Undo is enabled once there is a tap to take back.
    slow_posts(page)
    for _ in range(4):
        page.locator(ann).get_by_role("button", name="Red plus one").click()
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_have_text("Took back: Ann, red tower +1.", timeout=10_000)
    expect(value_of(page, ann, "towers.red")).to_have_text("4")
    for _ in range(3):
        page.locator(ann).get_by_role("button", name="Crowns plus one").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    page.locator("#result").wait_for()
    # text_content: the reasons too, which the result grid keeps one tap away in closed <details>.
    text = page.locator("#result").text_content()
    assert "Most crowns (3)" in text and "Red 3" not in text and "Red 4: 4 cards × −1 = −4 VP." in text


def test_another_devices_taps_show_up_without_reloading(browser, live_server: str) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    first, second = phone.new_page(), tablet.new_page()
    _ann, bob = start_two_player_game(first, live_server)
    second.goto(first.url)
    second.locator(bob).get_by_role("button", name="Swords plus one").click()
    expect(value_of(second, bob, "swords")).to_have_text("1")
    # The phone's regular refresh (every 5 s) brings the tablet's tap and the new leader.
    expect(value_of(first, bob, "swords")).to_have_text("1", timeout=12_000)
    expect(first.locator("#scoreboard")).to_contain_text("Swords: Bob leads with 1.")
    phone.close()
    tablet.close()


def test_a_lost_connection_is_said_and_the_tap_waits(page, live_server: str) -> None:
    """A tap that can't reach the app is kept and said waiting; the next one waits behind it; both are saved, once
    each, when the app can be reached again."""
    ann, _bob = start_two_player_game(page, live_server)
    page.route("**/seats/**", lambda route: route.abort())
    page.locator(ann).get_by_role("button", name="Red plus one").click()
    expect(page.locator("#flash")).to_contain_text("1 tap waiting to be saved.")
    page.unroute("**/seats/**")
    page.locator(ann).get_by_role("button", name="Red plus one").click()
    expect(value_of(page, ann, "towers.red")).to_have_text("2")
    expect(page.locator("#flash")).not_to_contain_text("waiting")


def test_a_red_card_past_the_deck_is_refused_beside_its_counter(page, live_server: str) -> None:
    """Decision (docs/rules.md, "Spires"): 'at most 15 cards of one suit in all towers together' ("Each suit has 12
    values", an Architect, the 73 and 74 cards). Ann's 8 and Bob's 7 red cards are the deck's 15; Bob's next one, the
    16th, is refused with the rule's words in his red counter's own slot, and every count stays as it was."""
    ann, bob = start_two_player_game(page, live_server)
    tap(page, ann, "Red", "towers.red", 8)
    tap(page, bob, "Red", "towers.red", 7)
    page.locator(bob).get_by_role("button", name="Red plus one").click()
    message = page.locator(f"#c-{bob.removeprefix('#seat-')}-towers-red-error")
    expect(message).to_have_text(
        "The deck has only 15 red cards; 16 counted in all. Ann has 8 and Bob 8. The rules: “Each suit has 12 "
        "values”, plus an Architect and cards 73 and 74."
    )
    expect(message).to_be_visible()
    expect(value_of(page, bob, "towers.red")).to_have_text("7")
    expect(value_of(page, ann, "towers.red")).to_have_text("8")
    # Nowhere else: Ann's red counter keeps an empty slot, and a reload shows the counts as saved.
    assert page.locator(f"#c-{ann.removeprefix('#seat-')}-towers-red-error").inner_text() == ""
    page.reload()
    expect(value_of(page, bob, "towers.red")).to_have_text("7")
    # The undo still takes back Bob's 7th red card, not a refused one.
    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_have_text("Took back: Bob, red tower +1.")
    expect(value_of(page, bob, "towers.red")).to_have_text("6")
    assert [e for e in page.console_errors if "status of 422" not in e] == []


def test_cards_counted_in_one_tap_each_to_the_final_table(page, live_server: str) -> None:
    """'The winning player gains the card(s) below the Market AND all cards played': a tower's height and a symbol's
    count in one tap each, tapped faster than a slow network answers (none is dropped), shown on the counter and
    the row; a count past the deck refused beside the chips, where the finger is, moving nothing; undo; the result."""
    ann, bob = start_two_player_game(page, live_server)
    panel = page.locator(f"{ann} details.count-tableau")
    panel.locator("summary").click()
    slow_posts(page)
    for name in ("Ann: Red 3", "Ann: Blue 4", "Ann: Crowns 2", "Ann: Red 2"):
        page.get_by_role("button", name=name, exact=True).click()
    expect(value_of(page, ann, "towers.red")).to_have_text("2", timeout=10_000)
    expect(value_of(page, ann, "towers.blue")).to_have_text("4")
    expect(value_of(page, ann, "crowns")).to_have_text("2")
    expect(panel.locator(f"#n-{ann.removeprefix('#seat-')}-towers-red")).to_have_text("2")
    page.unroute("**/plays/**")
    assert "blue tower has 4 cards" in page.locator("#scoreboard").inner_text()

    # Bob's 10 red cards and Ann's red tower counted at 6 are more than the deck's 15: refused, said, nothing moved.
    page.locator(f"{bob} details.count-tableau summary").click()
    for _ in range(10):
        page.locator(bob).get_by_role("button", name="Bob: Red plus one").click()
    expect(value_of(page, bob, "towers.red")).to_have_text("10")
    chip = page.get_by_role("button", name="Bob: Red 6", exact=True)
    top = "e => e.getBoundingClientRect().top + window.scrollY"  # on the page, wherever it is scrolled to
    where = chip.evaluate(top)
    page.get_by_role("button", name="Ann: Red 6", exact=True).click()
    said = (
        "The deck has only 15 red cards; 16 counted in all. Ann has 6 and Bob 10. The rules: “Each suit has 12 "
        "values”, plus an Architect and cards 73 and 74."
    )
    # In the count slot at the end of Ann's rows (an alert: read out), and in the tracker's bar, in view.
    message = page.locator(f"#a-count-{ann.removeprefix('#seat-')}")
    expect(message).to_have_text(said)
    expect(page.locator("#refusal")).to_have_text(said)
    expect(page.locator("#refusal")).to_be_in_viewport()
    expect(value_of(page, ann, "towers.red")).to_have_text("2")
    assert chip.evaluate(top) == where, "the message moves no chip"
    # The next count that holds clears it.
    page.get_by_role("button", name="Ann: Red 3", exact=True).click()
    expect(value_of(page, ann, "towers.red")).to_have_text("3")
    expect(message).to_be_empty()

    page.get_by_role("button", name="Undo last tap").click()
    expect(page.locator("#notice")).to_have_text("Took back: Ann, red tower set to 3.")
    expect(value_of(page, ann, "towers.red")).to_have_text("2")
    page.get_by_role("button", name="Bob: Swords 1", exact=True).click()
    expect(value_of(page, bob, "swords")).to_have_text("1")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and score").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    text = page.locator("#result").text_content()
    # Ann: red 2 (+10), blue 4 (−4), most crowns (+15) = 21; Bob: red 10 (−10), most swords (+20) = 10.
    assert "Ann wins" in text and "21" in text and "Red 10: 10 cards × −1 = −10 VP." in text
    assert not [e for e in page.console_errors if "Content Security Policy" in e or "Refused" in e]
