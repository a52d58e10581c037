"""Conquest of Speros in a real browser: a short two-player game through the UI to the final table and its PDF, axe-core
on the tracker and the result, the tracker's tap targets at phone and tablet widths, and screenshots for a look by eye.

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
    PLAYERS,
    VIEWPORTS,
    deploy_button,
    finish,
    put_card,
    result_text,
    sheet_pdf_text,
    shots_folder,
    start_speros,
    tracker_screenshots,
)

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = tuple(name for name, _colour in PLAYERS)
# A phone, a tablet held upright, the same tablet on its side.
# Said with every refusal once the game is over.
AFTER_THE_END = "Only the Bonus Objectives and the Mastery Objectives can still be entered; then finish and score."


def capture_button(page, card_id: int, who: str):
    return page.locator(f"#card-{card_id}").get_by_role("button", name=f"{who} captures it", exact=True)


def test_two_player_speros_to_final_table(page, live_server: str) -> None:
    pytest.importorskip("pypdf")
    seat_of = start_speros(page, live_server)
    ann_facts, bob_facts = (page.locator(f"#facts-{seat_of[name]}") for name in NAMES)
    notice = page.locator("#notice")
    skirmish = page.locator("#skirmish")
    expect(page.locator("#turn-title")).to_have_text("Ann's turn")
    expect(skirmish).to_contain_text("No card in play")
    expect(ann_facts).to_contain_text("Base Camp: 10 Minions and the General. Familiar terrain: forest.")
    expect(bob_facts).to_contain_text("Familiar terrain: mountain.")
    # While the setup's cards go in, the tracker proposes nobody as the explorer.
    explorer = page.locator("#put-card select[name=seat]")
    expect(explorer.locator("option:checked")).to_have_text("nobody (setup or an ability)")
    expect(page.locator("#explorer")).to_contain_text("Setup: 4 more cards")

    # Ann explores a Mountain (3 encampments, crystal and iron, 3 VP): not her colour, so a Minion of hers goes on
    # it by itself, and her Explore passes the turn. Counted from the terrain chip to the capture: the taps one
    # captured card costs at the table.
    taps: list[str] = []
    put_card(page, seat_of, "mountain", resources=("crystal", "iron"), vp=3, explorer="Ann", taps=taps)
    expect(notice).to_have_text(
        "Mountain card 1 (3 VP, crystal and iron) is in the Skirmish Area. Ann deploys a Minion there. Bob's turn."
    )
    expect(page.locator("#turn-title")).to_have_text("Bob's turn")
    mountain = page.locator("#card-1")
    expect(mountain.locator("h3")).to_have_text("Mountain card 1 3 VP · crystal, iron · 3 encampments")
    expect(mountain.locator(".dots")).to_have_attribute("aria-label", "1 of 3 encampments occupied")
    expect(mountain.locator(".dot.colour-green")).to_have_count(1)
    expect(mountain).to_contain_text("no capture yet")
    expect(ann_facts).to_contain_text("Base Camp: 9 Minions and the General.")

    # Bob attacks it, Ann leads her General there: all 3 encampments full, Ann 2 to 1, and the card says so.
    deploy_button(page, "Bob", "Mountain card 1").click()
    taps.append("Bob + Minion")
    expect(notice).to_have_text("Bob deploys a Minion to Mountain card 1.")
    expect(mountain).to_contain_text(
        "Ann and Bob tie with 1 unit each and 1 encampment is still empty: no capture yet."
    )
    expect(capture_button(page, 1, "Ann")).to_have_count(0)
    deploy_button(page, "Ann", "Mountain card 1", "General").click()
    taps.append("Ann + General")
    said = "All 3 encampments are occupied and Ann has the most units (2; Bob 1): Ann achieves majority."
    expect(notice).to_have_text(f"Ann deploys a General to Mountain card 1. Ann may capture Mountain card 1: {said}")
    expect(mountain.locator(".capturable")).to_have_text(said)
    expect(page.locator("#scoreboard .notes")).to_contain_text(f"Ann may capture Mountain card 1: {said}")
    expect(mountain.locator(".dot.general.colour-green")).to_have_count(1)
    # A full card offers no more deploys; Bob's + buttons there are gone too.
    expect(mountain.get_by_role("button", name=re.compile(r"deploy"))).to_have_count(0)
    capture_button(page, 1, "Ann").click()
    taps.append("Ann captures it")
    expect(notice).to_have_text("Ann captures Mountain card 1 (achieve majority).")
    expect(mountain).to_have_count(0)
    expect(ann_facts.locator(".captured > li")).to_have_text(re.compile(r"^Mountain card 1: 3 VP, crystal, iron"))
    # 1 terrain + 1 encampment chip + 2 resources + the explorer (the setup was skipped here) + the VP, which puts it
    # in; 2 units; the capture (nothing is ticked for a new card: every chip is the player's own tap).
    assert taps == [
        "terrain mountain",
        "3 encampments",
        "resource crystal",
        "resource iron",
        "explored by Ann",
        "explored by Ann",
        "VP 3",
        "Bob + Minion",
        "Ann + General",
        "Ann captures it",
    ], taps
    print(f"\ntaps for one captured card: {len(taps)} ({', '.join(taps)})")

    # A refused action: an Artifact put into play with no resource ticked. Said in its own slot, nothing saved.
    put_card(page, seat_of, "artifact", resources=(), vp=2, explorer=None)
    refused = page.locator("#a-explore")
    expect(refused).to_have_text("Which resource does this card show?")
    expect(refused).to_be_visible()
    expect(notice).to_have_text("")
    expect(skirmish).to_contain_text("No card in play")

    # With gold ticked it goes in, by nobody (as at setup): 5 encampments whatever the chip says, no unit deployed.
    put_card(page, seat_of, "artifact", resources=("gold",), vp=2, explorer=None)
    expect(notice).to_have_text("Artifact 2 (2 VP, gold) is in the Skirmish Area.")
    expect(refused).to_have_text("")  # the answer clears the refusal
    artifact = page.locator("#card-2")
    expect(artifact.locator(".dots")).to_have_attribute("aria-label", "0 of 5 encampments occupied")
    expect(artifact.locator(".dot.empty")).to_have_count(5)

    # Bob 1, Ann 3, one empty: Ann demonstrates majority.
    deploy_button(page, "Bob", "Artifact 2").click()
    expect(notice).to_have_text("Bob deploys a Minion to Artifact 2.")
    for n in range(1, 4):
        deploy_button(page, "Ann", "Artifact 2").click()
        expect(artifact.locator(".dots")).to_have_attribute("aria-label", f"{1 + n} of 5 encampments occupied")
    expect(artifact.locator(".capturable")).to_contain_text("Ann demonstrates majority.")
    expect(bob_facts).to_contain_text("Base Camp: 8 Minions and the General.")

    # The capture sends Bob's unit home and locks Ann's on.
    capture_button(page, 2, "Ann").click()
    took = (
        "Ann captures Artifact 2 (demonstrate majority). Ann's units on it are locked on; Bob's go back to their "
        "Base Camp."
    )
    expect(notice).to_have_text(took)
    expect(artifact).to_have_count(0)
    expect(bob_facts).to_contain_text("Base Camp: 9 Minions and the General.")
    captured = ann_facts.locator(".captured > li")
    expect(captured).to_have_count(2)
    expect(captured.nth(1)).to_contain_text("Artifact 2: 2 VP, gold")
    expect(captured.nth(1)).to_contain_text("units locked on")
    expect(captured.nth(1).locator(".dot.colour-green")).to_have_count(3)

    # Undo takes the capture back whole: the card in play, Bob's Minion on it again.
    page.get_by_role("button", name="Undo last tap").click()
    # Its first sentence says what the capture was, so it stands for the action; the rest follows in brackets.
    first, rest = took.split(". ", 1)
    expect(notice).to_have_text(f"Took back: {first} ({rest.removesuffix('.')}).")
    expect(artifact.locator(".dots")).to_have_attribute("aria-label", "4 of 5 encampments occupied")
    expect(artifact.locator(".dot.colour-red")).to_have_count(1)
    expect(bob_facts).to_contain_text("Base Camp: 8 Minions and the General.")
    expect(captured).to_have_count(1)
    capture_button(page, 2, "Ann").click()
    expect(notice).to_have_text(took)
    expect(captured).to_have_count(2)
    expect(skirmish.locator("li.play-card")).to_have_count(0)

    # Bob plans; the last Location card is drawn in Ann's turn: Bob gets one more.
    page.get_by_role("button", name="Next turn").click()
    expect(notice).to_have_text("Ann's turn.")
    page.get_by_role("button", name="Last Location card drawn").click()
    expect(notice).to_have_text("The last Location card is drawn. Ann finishes, then Bob takes one more turn.")
    expect(page.locator("#countdown")).to_have_text("Last card drawn: Ann finishes, then Bob takes one more turn.")
    expect(page.locator("#scoreboard .notes .warn")).to_contain_text("Ann finishes, then Bob takes one more turn.")
    page.get_by_role("button", name="Next turn").click()
    expect(notice).to_have_text("Bob's turn.")
    expect(page.locator("#turn-title")).to_have_text("Bob's turn")
    expect(page.locator("#countdown")).to_have_text("Last card drawn: Bob takes the last turn; then score.")
    # Bob's Next turn ends his final turn, and the game.
    page.get_by_role("button", name="Next turn").click()
    over = (
        "Bob's final turn is over: the last Location card was drawn and each other player has taken one final "
        "turn. The game has ended."
    )
    expect(notice).to_have_text(over)
    expect(page.locator("#turn-title")).to_have_text("The game is over")
    expect(page.locator("#countdown")).to_have_text(
        f"Game over: {over} Enter the Bonus Objectives, then finish and score."
    )
    # A stray tap after the end is refused with its message, beside its button; the score stays as it was.
    total = page.locator("#scoreboard").inner_text()
    put_card(page, seat_of, "forest", resources=("iron",), vp=1)
    refusal = f"{over} {AFTER_THE_END}"
    expect(page.locator("#a-explore")).to_have_text(refusal)
    page.get_by_role("button", name="Last Location card drawn").click()
    expect(page.locator("#a-last_drawn")).to_have_text(refusal)
    expect(skirmish.locator("li.play-card")).to_have_count(0)
    assert page.locator("#scoreboard").inner_text() == total

    # Bonus Objectives at the end: the best of each player's three counts.
    for name, values in (("Ann", (4, 6, 1)), ("Bob", (5, 0, 0))):
        for n, value in enumerate(values, start=1):
            page.locator(f"#end-{seat_of[name]}-bonus_{n}").fill(str(value))
    finish(page)
    text = result_text(page, NAMES)
    # Ann: cards 3 + 2, no set (2 cards), 4 Minions off her colour, the General on a Mountain 2, bonus 6 = 17.
    # Bob: his Minion on Mountain card 1 is on his colour 2, General at home 0, bonus 5 = 7.
    assert "Ann wins" in text
    assert "with 17 VP." in text
    for label in ("Captured cards", "Resource sets", "Deployed Minions", "Deployed General", "Bonus Objective"):
        assert label in text, label
    assert "1 Location: 3 VP; 1 Artifact: 2 VP; together 3 + 2 = 5 VP." in text
    assert "No set, as only 2 cards show a resource and a set needs 3: 0 VP." in text
    assert "0 familiar × 2 + 4 unfamiliar × 1 = 4 VP." in text
    assert "1 familiar × 2 + 0 unfamiliar × 1 = 2 VP." in text
    assert "General on unfamiliar terrain (or an Artifact): 2 VP." in text
    assert "The best of 4, 6 and 1: 6 VP." in text
    assert "The best of 5, 0 and 0: 5 VP." in text

    pdf_text = sheet_pdf_text(page, live_server, NAMES)
    for words in ("Conquest of Speros", "Captured cards", "Deployed Minions"):
        assert words in pdf_text, words

    # The refused actions are 422s the browser logs as failed resources; nothing else may go wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == [], "\n".join(page.console_errors)


def test_explored_by_follows_the_turn(page, live_server: str) -> None:
    seat_of = start_speros(page, live_server)
    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#turn-title")).to_have_text("Bob's turn")
    explorer = page.locator("#put-card select[name=seat] option:checked")
    expect(explorer).to_have_text("Bob", timeout=2_000)
    # Bob explores a Forest on his turn, leaving 'Explored by' as the tracker shows it.
    put_card(page, seat_of, "forest", resources=("iron",), vp=1)
    expect(page.locator("#notice")).to_have_text(
        "Forest card 1 (1 VP, iron) is in the Skirmish Area. Bob deploys a Minion there. Ann's turn.", timeout=2_000
    )
    expect(explorer).to_have_text("Ann", timeout=2_000)


@pytest.mark.parametrize(
    "width",
    [
        390,
        820,
        1180,
    ],
)
def test_skirmish_area_is_not_pushed_aside(browser, live_server: str, width: int) -> None:
    """The Skirmish Area starts at the left of the players' part of the page, not a column further right, past an
    empty cell held by its message slot."""
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        start_speros(page, live_server)
        seats = page.locator(".tracker .seats").bounding_box()
        skirmish = page.locator("#skirmish").bounding_box()
        assert round(skirmish["x"]) == round(seats["x"]), (
            f"Skirmish Area at x={skirmish['x']:.0f}, seats at {seats['x']:.0f}"
        )
    finally:
        context.close()


def test_unit_buttons_stay_put_as_units_are_deployed(page, live_server: str) -> None:
    """Deploying is tapped again and again on one card: its buttons must not jump between taps."""
    seat_of = start_speros(page, live_server)
    put_card(page, seat_of, "artifact", resources=("gold",), vp=2, explorer=None)
    artifact = page.locator("#card-1")
    dots = artifact.locator(".dots")
    expect(dots).to_have_attribute("aria-label", "0 of 5 encampments occupied")

    def offset() -> float:
        """How far the unit buttons stand below the top of their card."""
        return page.evaluate("""() => {
          const card = document.getElementById('card-1');
          return card.querySelector('.unit-buttons').getBoundingClientRect().top - card.getBoundingClientRect().top;
        }""")

    at_first = offset()
    deploy_button(page, "Bob", "Artifact 1").click()
    expect(dots).to_have_attribute("aria-label", "1 of 5 encampments occupied")
    after = {"Bob's Minion": offset()}
    for n in range(1, 4):
        deploy_button(page, "Ann", "Artifact 1").click()
        expect(dots).to_have_attribute("aria-label", f"{1 + n} of 5 encampments occupied")
        after[f"Ann's Minion {n}"] = offset()
    expect(capture_button(page, 1, "Ann")).to_be_visible()
    moved = {tap: round(y - at_first) for tap, y in after.items() if abs(y - at_first) > 1}
    assert moved == {}, f"the unit buttons moved down by (px): {moved}"


def _tracker_with_a_bit_of_everything(page, live_server: str) -> dict[str, str]:
    """Two players; a Mountain Ann may capture (her General on it, so its Move form is there too), an Artifact with
    both colours on it, a Forest captured by Ann (her facts list it), the last card drawn (the countdown), and a refused
    card (its message in its slot); every details open."""
    seat_of = start_speros(page, live_server)
    notice = page.locator("#notice")

    # Each tap waits for its answer: an answer redraws the Skirmish Area, and a tap aimed before it would miss. The
    # unit and capture buttons get their click sent to them, not to a point on the screen: whether a finger can
    # reach them at every width is what the hit test measures, and the state is the same for it and the screenshots.
    def deploy(who: str, card: str, kind: str = "Minion") -> None:
        deploy_button(page, who, card, kind).dispatch_event("click")

    def capture(card_id: int, who: str) -> None:
        capture_button(page, card_id, who).dispatch_event("click")

    put_card(page, seat_of, "forest", resources=("crystal",), vp=2, encampments=1, explorer=None)
    expect(notice).to_contain_text("Forest card 1 (2 VP, crystal)")
    deploy("Ann", "Forest card 1")
    capture(1, "Ann")
    expect(page.locator(f"#facts-{seat_of['Ann']} .captured > li")).to_have_count(1)
    put_card(page, seat_of, "mountain", resources=("iron", "gold"), vp=4, encampments=2, explorer="Ann")
    expect(notice).to_contain_text("Ann deploys a Minion there.")
    deploy("Ann", "Mountain card 2", "General")
    expect(capture_button(page, 2, "Ann")).to_be_visible()
    put_card(page, seat_of, "artifact", resources=("gold",), vp=3, explorer=None)
    expect(notice).to_contain_text("Artifact 3 (3 VP, gold)")
    deploy("Bob", "Artifact 3")
    expect(page.locator("#card-3 .dots")).to_have_attribute("aria-label", "1 of 5 encampments occupied")
    deploy("Ann", "Artifact 3")
    expect(page.locator("#card-3 .dots")).to_have_attribute("aria-label", "2 of 5 encampments occupied")
    page.get_by_role("button", name="Last Location card drawn").click()
    expect(page.locator("#countdown")).not_to_be_empty()
    put_card(page, seat_of, "swamp", resources=(), vp=1)
    expect(page.locator("#a-explore")).to_have_text("Which resource does this card show?")
    page.evaluate("() => document.querySelectorAll('.tracker details').forEach(d => { d.open = true; })")
    return seat_of


def _axe_clean(page) -> None:
    violations = axe_violations(page)
    assert violations == [], "axe-core found serious or critical violations:\n" + describe(violations)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_tracker_and_result_have_no_serious_violations(browser, live_server: str, scheme: str) -> None:
    """Mid-game (cards in play with empty encampments, the dots of each), light and dark: the empty dots are part of
    one image whose name says how many encampments are occupied (axe: aria-label needs a role)."""
    # bypass_csp lets add_script_tag put axe in; the app has no inline script or style, so the page is the same.
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        expect(page.locator(".tracker .dots[role=img] .dot.empty").first).to_be_attached()
        expect(page.locator(".tracker details.move[open]")).to_have_count(2)
        expect(page.locator(".tracker .mastery details[open]")).to_have_count(1)
        _axe_clean(page)

        finish(page)
        _axe_clean(page)
    finally:
        context.close()


# The controls measured: those a finger taps (tests/browser/targets.py checks each).
TRACKER_CONTROLS = "button, input:not([type=hidden]), select, textarea"


@pytest.mark.parametrize(
    "width",
    [
        390,
        820,
        1180,
    ],
)
def test_tracker_controls_fit_are_big_enough_and_not_covered(browser, live_server: str, width: int) -> None:
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        _tracker_with_a_bit_of_everything(page, live_server)
        count = count_controls(page, ".tracker", TRACKER_CONTROLS)
        # Undo; Next turn, Last drawn; 5 + 6 + 3 chips, the explorer select, 8 VP buttons, the typed VP and Put;
        # Mastery: 2 chips, 10 VP buttons, the typed VP, Save; 2 cards in play: a capture, 9 unit buttons (Bob's
        # turn: his Attack and Lead on the Artifact), the Mountain's Move form (3 selects and a button; the Artifact
        # has nowhere to move to); Ann's captured Forest: her − Minion and its Move form; 6 Bonus Objective boxes;
        # Finish; Put aside.
        assert count == 69, f"{count} controls found in .tracker, not 69"
        problems = target_problems(page, ".tracker", TRACKER_CONTROLS)
        assert problems == [], f"{len(problems)} problems at {w}x{h}:\n" + "\n".join(problems)
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_tracker_screenshots(browser, live_server: str, tmp_path: Path, width: int, scheme: str) -> None:
    """Full-page screenshots of a tracker in play and of its result, for a look by eye; they never fail the test."""
    fill = partial(_tracker_with_a_bit_of_everything, live_server=live_server)
    tracker_screenshots(browser, shots_folder(tmp_path), "speros", width, scheme, fill, finish)


def _play_id(page) -> int:
    """The play's id, from the tracker's address."""
    return int(re.search(r"/plays/(\d+)$", page.url).group(1))


def _api(page, live_server: str, play_id: int, body: dict) -> dict:
    """One action through the JSON API, as another device or program would send it; its answer."""
    response = page.request.post(f"{live_server}/api/v1/plays/{play_id}/actions", data=body)
    assert response.ok, response.text()
    return response.json()


def _stored_cards(page, live_server: str, play_id: int) -> list[dict]:
    """The table's cards as stored, read back through GET /api/v1/plays/<id>."""
    return page.request.get(f"{live_server}/api/v1/plays/{play_id}").json()["table"]["cards"]


# Nine cards, each different from the one before: (terrain, encampments, resources, VP, explorer).
NINE_CARDS = [
    ("forest", 4, ("iron", "gold"), 2, "Ann"),
    ("mountain", 1, ("crystal",), 0, None),
    ("ocean", 6, ("gold",), 5, "Bob"),
    ("artifact", None, ("iron",), -1, None),
    ("swamp", 2, ("crystal", "iron", "gold"), 1, "Ann"),
    ("forest", 3, ("crystal",), 3, "Bob"),
    ("ocean", 5, ("iron",), 0, None),
    ("artifact", None, ("crystal", "gold"), 4, "Ann"),
    ("mountain", 2, ("gold", "iron"), 7, None),
]


def test_nine_cards_through_the_page_are_stored_as_tapped(page, live_server: str) -> None:
    """Each card put into play through the page is stored with exactly what was tapped for it: once a card is saved
    the form is back to nothing ticked (VP 1), so no chip of the card before carries over to the next."""
    seat_of = start_speros(page, live_server)
    play_id = _play_id(page)
    form = page.locator("#put-card")
    notice = page.locator("#notice")
    for number, (terrain, encampments, resources, vp, explorer) in enumerate(NINE_CARDS, start=1):
        put_card(page, seat_of, terrain, resources=resources, vp=vp, encampments=encampments or 3, explorer=explorer)
        expect(notice).to_contain_text(
            f"{'Artifact' if terrain == 'artifact' else terrain.capitalize() + ' card'} {number} ("
        )
        # Back to what the page drew: no terrain, no encampments, no resource, no VP typed.
        expect(form.locator("input:checked")).to_have_count(0)
        expect(form.locator("input[name=vp_typed]")).to_have_value("")
    stored = _stored_cards(page, live_server, play_id)
    assert [(c["id"], c["terrain"], c["encampments"], c["resources"], c["vp"]) for c in stored] == [
        (
            n,
            terrain,
            5 if terrain == "artifact" else encampments,
            [r for r in ("crystal", "iron", "gold") if r in resources],
            vp,
        )
        for n, (terrain, encampments, resources, vp, _explorer) in enumerate(NINE_CARDS, start=1)
    ]
    # The explorer deployed a Minion exactly where a Location was not their colour (Ann green, Bob red): not on Ann's
    # Forest, nor Ann's Artifact, nor a card put in by nobody.
    deployed = {c["id"]: c["units"] for c in stored if c["units"]}
    assert deployed == {3: [[1, "minion"]], 5: [[0, "minion"]], 6: [[1, "minion"]]}
    assert [e for e in page.console_errors if "status of 422" not in e] == [], "\n".join(page.console_errors)


def test_a_stray_tap_after_the_game_ended_at_once_is_refused(page, live_server: str) -> None:
    """'If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends': the
    board's buttons go, and a tap on what stays (a card put into play, Next turn) is refused with why."""
    seat_of = start_speros(page, live_server)
    play_id = _play_id(page)
    _api(
        page,
        live_server,
        play_id,
        {"action": "explore", "terrain": "swamp", "encampments": 12, "vp": 1, "resources": ["iron"]},
    )
    for _ in range(10):
        _api(page, live_server, play_id, {"action": "deploy", "player": "Bob", "card": 1})
    _api(page, live_server, play_id, {"action": "deploy", "player": "Bob", "card": 1, "kind": "general"})
    expect(page.locator("#card-1 .dots")).to_have_attribute("aria-label", "11 of 12 encampments occupied")
    page.get_by_role("button", name="Next turn").click()
    reason = "Bob starts the turn with no units in Base Camp: the game ends at once."
    expect(page.locator("#notice")).to_have_text(f"Bob's turn. {reason}")
    expect(page.locator("#turn-title")).to_have_text("The game is over")
    expect(page.locator("#card-1").get_by_role("button")).to_have_count(0)
    refusal = f"{reason} {AFTER_THE_END}"
    put_card(page, seat_of, "ocean", resources=("gold",), vp=2, explorer="Ann")
    expect(page.locator("#a-explore")).to_have_text(refusal)
    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#a-next_turn")).to_have_text(refusal)
    assert [c["id"] for c in _stored_cards(page, live_server, play_id)] == [1]


def test_units_on_a_captured_location_are_moved_and_removed_from_the_page(page, live_server: str) -> None:
    """'Units in that zone may still be affected by card abilities'; 'Regardless of the Units moved onto or off its
    encampments, a captured Location cannot become uncaptured.'"""
    seat_of = start_speros(page, live_server)
    play_id = _play_id(page)
    for terrain, encampments in (("forest", 3), ("ocean", 4)):
        _api(
            page,
            live_server,
            play_id,
            {"action": "explore", "terrain": terrain, "encampments": encampments, "vp": 2, "resources": ["gold"]},
        )
    for who, kind in (("Ann", "minion"), ("Bob", "minion"), ("Ann", "general")):
        _api(page, live_server, play_id, {"action": "deploy", "player": who, "card": 1, "kind": kind})
    _api(page, live_server, play_id, {"action": "capture", "player": "Ann", "card": 1})
    ann_facts = page.locator(f"#facts-{seat_of['Ann']}")
    forest = ann_facts.locator("#captured-1")
    expect(forest.locator(".dots")).to_have_attribute("aria-label", "3 of 3 encampments occupied")
    # An ability sends Bob's Minion home.
    forest.get_by_role("button", name="Bob: a minion from Forest card 1 back to Base Camp").click()
    expect(page.locator("#notice")).to_have_text("Bob's Minion leaves Forest card 1 for the Base Camp.")
    expect(forest.locator(".dots")).to_have_attribute("aria-label", "2 of 3 encampments occupied")
    # Another moves Ann's General to the Ocean card.
    forest.locator("summary", has_text="Move a unit").click()
    forest.locator("select[name=seat]").select_option(seat_of["Ann"])
    forest.locator("select[name=kind]").select_option("general")
    forest.locator("select[name=to]").select_option("2")
    forest.get_by_role("button", name="Move").click()
    expect(page.locator("#notice")).to_have_text("Ann moves a General from Forest card 1 to Ocean card 2.")
    expect(forest.locator(".dots")).to_have_attribute("aria-label", "1 of 3 encampments occupied")
    expect(page.locator("#card-2 .dot.general.colour-green")).to_have_count(1)
    stored = {c["id"]: c for c in _stored_cards(page, live_server, play_id)}
    assert stored[1]["captured_by"] == 0 and stored[1]["units"] == [[0, "minion"]]
    assert stored[2]["units"] == [[0, "general"]]
    expect(ann_facts.locator(".captured > li")).to_have_count(1)


def _three_cards_in_play(page, live_server: str) -> None:
    """Three players; three cards in the Skirmish Area with units on them, two captured by Bob; Cy's turn."""
    seat_of = start_speros(page, live_server, (("Ann", "green"), ("Bob", "red"), ("Cy", "blue")))
    play_id = _play_id(page)
    for terrain, encampments, resources, vp in (
        ("forest", 3, ["gold"], 2),
        ("mountain", 1, ["iron"], 1),
        ("ocean", 3, ["crystal"], 2),
        ("artifact", None, ["gold"], 3),
        ("swamp", 2, ["iron", "gold"], 3),
    ):
        body = {"action": "explore", "terrain": terrain, "vp": vp, "resources": resources}
        _api(page, live_server, play_id, body | ({"encampments": encampments} if encampments else {}))
    for who, card, kind in (
        ("Bob", 1, "general"),
        ("Bob", 1, "minion"),
        ("Bob", 2, "minion"),
        ("Ann", 4, "minion"),
        ("Cy", 4, "general"),
        ("Cy", 3, "minion"),
    ):
        _api(page, live_server, play_id, {"action": "deploy", "player": who, "card": card, "kind": kind})
    for card in (1, 2):
        _api(page, live_server, play_id, {"action": "capture", "player": "Bob", "card": card})
    page.reload()
    expect(page.locator("#skirmish li.play-card")).to_have_count(3)
    expect(page.locator(f"#facts-{seat_of['Bob']} .captured > li")).to_have_count(2)


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_the_board_comes_first_and_the_seats_sit_beside_it(browser, live_server: str, width: int) -> None:
    """Issue 17: 'on a phone the Skirmish Area is on the first screen and Put a card into play is one tap away
    without pushing the board down; on tablets the seats and captured areas sit beside the board without
    stretching.'"""
    w, h = VIEWPORTS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        _three_cards_in_play(page, live_server)
        box = page.evaluate("""() => {
          const top = e => e.getBoundingClientRect().top + scrollY;
          const board = document.getElementById('skirmish');
          return {first: top(board.querySelector('.play-card')), board_bottom: top(board) + board.offsetHeight,
                  board_right: board.getBoundingClientRect().right,
                  put_open: document.querySelector('.put-card').open,
                  seats: [...document.querySelectorAll('section.seat')].map(s => ({
                    top: top(s), left: s.getBoundingClientRect().left, height: s.offsetHeight,
                    content: s.scrollHeight, align: getComputedStyle(s).alignSelf}))};
        }""")
        # The board's first card is on the first screen, with the card form closed above it, one tap away.
        assert box["first"] < h, f"the first card starts {box['first']:.0f} px down, below the {h} px screen"
        assert box["put_open"] is False
        page.locator(".put-card > summary").click()
        expect(page.locator("#put-card")).to_be_visible()
        if width >= 800:
            for seat in box["seats"]:
                # Beside the board, as tall as what it holds, and at its top: not pushed below it.
                assert seat["left"] >= box["board_right"], seat
                assert seat["height"] - seat["content"] <= 8, seat
                assert seat["top"] < box["board_bottom"], seat
            assert box["seats"][0]["top"] < h
    finally:
        context.close()
