"""Offline at the table (issue 34): a tap made while the Wi-Fi is down is kept on the device, counted in the bar and
marked on its counter, survives a reload (the service worker keeps the tracker's last page), and is sent once, in
order, when the app can be reached again; a kept tap the rules refuse on its way back waits for the player's choice
with the ones after it; a proxy's 503 keeps the tap too. The play on the server is compared with the same taps made
online through the JSON API.

Uses the live_server and browser fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest

from tests.browser.axe import axe_violations, describe
from tests.browser.tracker import start_by_form

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PHONE = {"width": 390, "height": 844}
NAMES = ("Ann", "Bob")
# The promise: once the app can be reached, every kept tap is applied within 3 s.
WITHIN_MS = 3000
SHOTS = Path(os.environ.get("COMPANION_SHOTS", "/tmp/shots-offline"))

# A tap: (player, field, delta); "undo" and "next_turn" as they are.
SPIRES_TAPS = [("Ann", "crowns", 1), ("Bob", "swords", 1), ("Ann", "crowns", 1), ("Bob", "swords", 1),
               ("Ann", "crowns", 1), "undo"]  # fmt: skip
SPQF_TAPS = [("Ann", "vp_tokens", 1), ("Bob", "civ_level", 1), "next_turn", ("Ann", "vp_tokens", 1),
             ("Bob", "civ_level", 1), ("Ann", "vp_tokens", 1), "undo"]  # fmt: skip


def api(live_server: str, path: str, body: dict | None = None) -> dict:
    """A JSON API call (GET, or POST with `body`), outside the browser and its offline switch."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        live_server + "/api/v1" + path, data=data, method="GET" if body is None else "POST"
    )
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def play_id(page) -> str:
    """The id of the play the page's tracker shows."""
    return re.search(r"/plays/(\d+)$", page.url).group(1)


def seat_ids(page) -> dict[str, str]:
    """Each seat's id by its player's name."""
    seats = page.locator("section.seat")
    return {seats.nth(i).locator("h2").first.inner_text().split()[0]: seats.nth(i).get_attribute("id").removeprefix("seat-")
            for i in range(seats.count())}  # fmt: skip


def counter(page, seat: str, field: str):
    """A counter's form."""
    return page.locator(f"#c-{seat}-{field.replace('.', '-')}")


def value_of(page, seat: str, field: str):
    """A counter's shown value."""
    return page.locator(f"#c-{seat}-{field.replace('.', '-')}-value")


def tap(page, seats: dict[str, str], what) -> None:
    """One tap on the tracker: a counter's step button, Undo, or Next turn."""
    if what == "undo":
        page.locator("#undo-button").click()
    elif what == "next_turn":
        page.get_by_role("button", name="Next turn", exact=True).click()
    else:
        who, field, delta = what
        counter(page, seats[who], field).locator(f"button.step[name=delta][value='{delta}']").click()


def replay_online(live_server: str, game: str, taps) -> str:
    """The same taps made online through the JSON API on a new play of `game`; its id."""
    play = api(live_server, "/plays", {"game": game, "track": True, "players": [{"name": n} for n in NAMES]})["id"]
    for what in taps:
        if what == "undo":
            api(live_server, f"/plays/{play}/undo", {})
        elif what == "next_turn":
            api(live_server, f"/plays/{play}/actions", {"action": "next_turn"})
        else:
            who, field, delta = what
            api(live_server, f"/plays/{play}/actions", {"action": "add", "player": who, "field": field, "delta": delta})
    return str(play)


def standing(live_server: str, play: str) -> tuple[list, dict, list]:
    """What a play is on the server: its players' counts, its table, and its log, without the times."""
    view = api(live_server, f"/plays/{play}")
    log = api(live_server, f"/plays/{play}/log")["log"]
    # The colours are the new-play form's choice, not the taps'.
    players = [{k: v for k, v in player.items() if k != "colour"} for player in view["players"]]
    return players, view["table"], [{k: v for k, v in entry.items() if k != "at"} for entry in log]


def keep_page(page) -> None:
    """Wait until the service worker controls the tracker and keeps its copy (a first visit is not yet controlled)."""
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active")
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.wait_for_function("async () => !!(await (await caches.open('companion-pages')).match(location.href))")


def phone(browser, **options):
    """A phone-sized context and its page, whose uncaught script errors go in page.script_errors."""
    context = browser.new_context(viewport=PHONE, **options)
    page = context.new_page()
    page.script_errors = []
    page.on("pageerror", lambda error: page.script_errors.append(str(error)))
    return context, page


def waiting(n: int) -> str:
    """The bar's count of kept taps."""
    return "1 tap waiting to be saved" if n == 1 else f"{n} taps waiting to be saved"


@pytest.mark.parametrize(("game", "taps"), [("spires", SPIRES_TAPS), ("spqf", SPQF_TAPS)])
def test_taps_made_offline_survive_a_reload_and_are_applied_once_in_order(browser, live_server: str, game, taps):
    context, page = phone(browser, service_workers="allow")
    try:
        start_by_form(page, live_server, game, NAMES)
        keep_page(page)
        seats = seat_ids(page)
        context.set_offline(True)
        for what in taps:
            tap(page, seats, what)
        flash = page.locator("#flash")
        expect(flash).to_contain_text(waiting(len(taps)))
        first = next(t for t in taps if isinstance(t, tuple))
        kept = sum(1 for t in taps if t == first)
        mark = counter(page, seats[first[0]], first[1])
        expect(mark).to_have_attribute("data-queued", f"{kept} waiting")
        expect(value_of(page, seats[first[0]], first[1])).to_have_text("0")
        expect(page.locator("#finish button[type=submit]")).to_be_disabled()
        assert axe_violations(page) == [], describe(axe_violations(page))

        # Reloaded while still offline: the worker's kept copy, and the same taps waiting.
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-kept-copy", re.compile(r"."))
        expect(flash).to_contain_text(waiting(len(taps)))
        expect(flash).to_contain_text("this is the page as last seen")
        expect(mark).to_have_attribute("data-queued", f"{kept} waiting")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{game}-kept-copy-390-light.png"))

        context.set_offline(False)
        expect(flash).to_contain_text(f"{len(taps)} taps saved", timeout=WITHIN_MS)
        expect(page.locator(".queued")).to_have_count(0)
        expect(page.locator("#finish button[type=submit]")).to_be_enabled()
        online = replay_online(live_server, game, taps)
        assert standing(live_server, play_id(page)) == standing(live_server, online)
        players, _table, _log = standing(live_server, online)
        shown = next(p for p in players if p["name"] == first[0])[first[1]]
        expect(value_of(page, seats[first[0]], first[1])).to_have_text(str(shown))
        assert page.evaluate(f"localStorage.getItem('companion:queue:{play_id(page)}')") is None
        assert page.script_errors == []
    finally:
        context.close()


def test_taps_of_another_device_meanwhile_are_kept_too(browser, live_server: str) -> None:
    """A kept +1 is a +1 on the play as it now stands: the other device's taps made meanwhile stay, before it."""
    context, page = phone(browser, service_workers="block")
    other = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        start_by_form(page, live_server, "spires", NAMES)
        seats = seat_ids(page)
        tablet = other.new_page()
        tablet.goto(page.url)
        context.set_offline(True)
        offline_taps = [("Ann", "crowns", 1), ("Bob", "quills", 1), ("Ann", "crowns", 1)]
        for what in offline_taps:
            tap(page, seats, what)
        expect(page.locator("#flash")).to_contain_text(waiting(3))
        online_taps = [("Ann", "crowns", 1), ("Bob", "quills", 1)]
        for what in online_taps:
            tap(tablet, seats, what)
        expect(value_of(tablet, seats["Bob"], "quills")).to_have_text("1")

        context.set_offline(False)
        expect(page.locator("#flash")).to_contain_text("3 taps saved", timeout=WITHIN_MS)
        for device in (page, tablet):
            expect(value_of(device, seats["Ann"], "crowns")).to_have_text("3")
            expect(value_of(device, seats["Bob"], "quills")).to_have_text("2")
        online = replay_online(live_server, "spires", online_taps + offline_taps)
        assert standing(live_server, play_id(page)) == standing(live_server, online)
        assert page.script_errors == []
    finally:
        context.close()
        other.close()


def type_in(page, seat: str, field: str, number: str) -> None:
    """Open a counter's number and type a new count, then Enter."""
    counter(page, seat, field).locator(".value-open").click()
    box = page.locator(f"#c-{seat}-{field}-input")
    box.fill(number)
    box.press("Enter")


@pytest.mark.parametrize("choice", ["Send the rest anyway", "Drop the rest"])
def test_a_kept_tap_refused_on_its_way_back_holds_the_rest_for_the_players_choice(browser, live_server, choice):
    """SPQF: Bob's level typed as 2 offline, then the other device takes his level 1 back: levels come one at a time,
    so the kept 2 is refused, said with the rule's words, and Ann's two taps after it wait for the choice."""
    context, page = phone(browser, service_workers="block")
    other = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        start_by_form(page, live_server, "spqf", NAMES)
        seats = seat_ids(page)
        tablet = other.new_page()
        tablet.goto(page.url)
        tap(tablet, seats, ("Bob", "civ_level", 1))
        expect(value_of(page, seats["Bob"], "civ_level")).to_have_text("1")

        context.set_offline(True)
        type_in(page, seats["Bob"], "civ_level", "2")
        tap(page, seats, ("Ann", "vp_tokens", 1))
        tap(page, seats, ("Ann", "vp_tokens", 1))
        flash = page.locator("#flash")
        expect(flash).to_contain_text(waiting(3))
        tap(tablet, seats, ("Bob", "civ_level", -1))
        expect(value_of(tablet, seats["Bob"], "civ_level")).to_have_text("0")

        context.set_offline(False)
        expect(flash).to_contain_text(
            "Bob: Civilization Level set to 2 was refused: Levels are earned one at a time, in ascending order: "
            "Bob is on level 0, so the next is level 1.",
            timeout=WITHIN_MS,
        )
        expect(flash).to_contain_text("The 2 taps after it wait")
        expect(counter(page, seats["Ann"], "vp_tokens")).to_have_attribute("data-queued", "2 waiting")
        expect(page.locator("#finish button[type=submit]")).to_be_disabled()
        assert axe_violations(page) == [], describe(axe_violations(page))
        assert api(live_server, f"/plays/{play_id(page)}")["players"][0]["vp_tokens"] == 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "spqf-refused-390-light.png"))

        page.get_by_role("button", name=choice, exact=True).click()
        expect(page.get_by_role("button", name=choice, exact=True)).to_be_hidden()
        sent = choice == "Send the rest anyway"
        expect(flash).to_contain_text("2 taps saved" if sent else "2 taps dropped", timeout=WITHIN_MS)
        for device in (page, tablet):
            expect(value_of(device, seats["Ann"], "vp_tokens")).to_have_text("2" if sent else "0")
            expect(value_of(device, seats["Bob"], "civ_level")).to_have_text("0")
        expect(page.locator(".queued")).to_have_count(0)
        log = api(live_server, f"/plays/{play_id(page)}/log")["log"]
        assert [entry["player"] for entry in log] == ["Bob", "Bob"] + (["Ann", "Ann"] if sent else [])
        assert page.script_errors == []
    finally:
        context.close()
        other.close()


DISK_FULL = "Not saved: the disk is full. Everything saved before is kept: try again once this is fixed."
# What answers in the app's place: a proxy's bare page (the app away), or the app's own fault, said in its words
# (companion/web/errors.py answers htmx with a message for #flash).
ANSWERS = {
    "proxy 503": (503, {}, "<h1>503 Service Unavailable</h1>", "The app can't be reached"),
    "fault 507": (
        507,
        {"HX-Retarget": "#flash"},
        f'<p class="error" role="alert" data-fault>{DISK_FULL}</p>',
        DISK_FULL,
    ),
}


@pytest.mark.parametrize("answer", list(ANSWERS))
def test_a_5xx_keeps_the_tap_and_it_is_sent_once_when_let_through(browser, live_server: str, answer: str) -> None:
    """Answered 5xx twice (a proxy while the app restarts, a full disk): the tap waits, said so in the bar, is sent
    again with the same Idempotency-Key, and is saved once."""
    status, headers, body, words = ANSWERS[answer]
    context, page = phone(browser, service_workers="block")
    try:
        start_by_form(page, live_server, "spires", NAMES)
        seats = seat_ids(page)
        keys = []

        def in_front(route) -> None:
            """The 5xx twice, then the app."""
            keys.append(route.request.headers.get("idempotency-key"))
            if len(keys) <= 2:
                route.fulfill(status=status, headers=headers, content_type="text/html", body=body)
            else:
                route.continue_()

        page.route(re.compile(r"/plays/\d+/seats/\d+$"), in_front)
        tap(page, seats, ("Ann", "quills", 1))
        flash = page.locator("#flash")
        expect(flash).to_contain_text(waiting(1))
        expect(flash).to_contain_text(words)
        quills = counter(page, seats["Ann"], "quills")
        expect(quills).to_have_attribute("data-queued", "waiting")
        expect(quills).not_to_have_class(re.compile(r"\bnot-saved\b"))
        # The answer is never swapped into the counter's message slot.
        expect(page.locator(f"#c-{seats['Ann']}-quills-error")).to_be_empty()

        expect(flash).to_contain_text("1 tap saved", timeout=10_000)
        expect(value_of(page, seats["Ann"], "quills")).to_have_text("1")
        assert len(keys) == 3 and len(set(keys)) == 1 and keys[0], keys
        log = api(live_server, f"/plays/{play_id(page)}/log")["log"]
        assert [(entry["player"], entry["action"], entry["undone"]) for entry in log] == [("Ann", "add", False)]
        assert page.script_errors == []
    finally:
        context.close()


BOXES = """() => [...document.querySelectorAll('.tracker :is(button, output, input:not([type=hidden]), .bar-line)')]
  .filter(el => el.checkVisibility()).map(el => {
    const r = el.getBoundingClientRect();
    return [el.id || el.getAttribute('aria-label') || el.className, r.left, r.top + scrollY, r.width, r.height];
  })"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_waiting_taps_move_nothing_and_are_shot_at_390(browser, live_server: str, scheme: str) -> None:
    """The bar's count and the marks take no room: every control stays where it was. Screenshots to look at."""
    context, page = phone(browser, service_workers="block", color_scheme=scheme)
    try:
        start_by_form(page, live_server, "spires", NAMES)
        seats = seat_ids(page)
        before = page.evaluate(BOXES)
        context.set_offline(True)
        for what in [("Ann", "crowns", 1), ("Ann", "crowns", 1), ("Bob", "swords", 1), "undo"]:
            tap(page, seats, what)
        expect(page.locator("#flash")).to_contain_text(waiting(4))
        expect(counter(page, seats["Ann"], "crowns")).to_have_attribute("data-queued", "2 waiting")
        assert page.evaluate(BOXES) == before
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"spires-waiting-390-{scheme}.png"))
        # Scrolled to Bob's seat: the bar, with its count, stays at the top of the screen over the seat.
        page.locator(f"#seat-{seats['Bob']}").scroll_into_view_if_needed()
        page.locator(f"#c-{seats['Bob']}-swords").evaluate("el => el.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(SHOTS / f"spires-waiting-390-{scheme}-bob.png"))
        assert page.locator("#tracker-bar").bounding_box()["y"] == 0
    finally:
        context.close()


# Every empty Scroll VP entry (the second post of a typed number: its box's change, then its form's submit) waits
# 400 ms before it leaves: the number typed meanwhile is in the box when its answer comes.
SLOW_EMPTY_ENTRY = """(() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    const empty = typeof body === 'string' && /(^|&)value=(&|$)/.test(body) && /scroll_vp/.test(body);
    if (empty) setTimeout(() => send.call(this, body), 400); else send.call(this, body);
  };
})()"""


def test_an_earlier_answer_never_wipes_a_number_typed_since(page, live_server: str) -> None:
    """The fresh-forms flake made certain: an answer's form reset (app.js) happens only when the form still holds what
    that request sent, so 100000 typed while an earlier entry's answer is on its way stays, and is refused."""
    page.add_init_script(SLOW_EMPTY_ENTRY)
    start_by_form(page, live_server, "spires", NAMES)
    ann = seat_ids(page)["Ann"]
    box = page.locator(f"#c-{ann}-scroll_vp-input")
    box.fill("6")
    box.press("Enter")
    expect(value_of(page, ann, "scroll_vp")).to_have_text("6")
    expect(box).to_have_value("")
    box.fill("100000")
    box.press("Enter")
    expect(page.locator(f"#c-{ann}-scroll_vp-error")).not_to_be_empty()
    expect(box).to_have_value("100000")
