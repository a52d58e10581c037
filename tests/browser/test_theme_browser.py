"""Dark mode, keyboard and the app shell in a real browser: axe-core on every page in light and dark, the theme
switch remembered across a reload and set before the first paint, the skip link, focus rings with enough contrast,
the service worker's offline page, and the wake lock asked for on a tracker.

Uses the live_server and browser fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from tests.browser.axe import axe_violations, describe

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PAIR = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "green"}]
PHONE = {"width": 390, "height": 844}
LIGHT_BG = "rgb(246, 243, 236)"
DARK_BG = "rgb(23, 21, 19)"
OFFLINE_TEXT = "The app can't be reached: check the table's Wi-Fi"
CSP_WORDS = ("content security policy", "content-security-policy")

# Records every wake lock asked for; each lock can be let go as the browser does when the page is hidden.
WAKE_LOCK_STUB = """
window.wakeLockCalls = [];
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request(type) {
    window.wakeLockCalls.push(type);
    const lock = {type, released: false, release() { this.released = true; return Promise.resolve(); },
                  addEventListener() {}};
    window.wakeLocks.push(lock);
    return Promise.resolve(lock);
  },
}});
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"

# data-theme as it stood the moment <body> was parsed: before anything of the page could be painted.
THEME_AT_BODY = """
window.themeAtBody = "not seen";
new MutationObserver((records, observer) => {
  if (document.body) { window.themeAtBody = document.documentElement.dataset.theme || "auto"; observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""

# The focused element's outline, and the colour behind it (the first ancestor with a background of its own).
FOCUS_RING = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  let behind = el.parentElement;
  while (behind && ["rgba(0, 0, 0, 0)", "transparent"].includes(getComputedStyle(behind).backgroundColor)) {
    behind = behind.parentElement;
  }
  return {tag: el.tagName.toLowerCase(), text: (el.textContent || el.name || "").trim().slice(0, 30),
          style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor,
          behind: getComputedStyle(behind || document.body).backgroundColor};
}"""


def api(context, base: str, path: str, body: dict) -> dict:
    """POST JSON to the app's API with the context's cookies; the answer."""
    response = context.request.post(base + path, data=body)
    assert response.ok, response.text()
    return response.json()


def start_tracker(context, base: str, game: str) -> int:
    """A play of `game` in progress for Ann and Bob (POST /api/v1/plays, as the new-play form would start it)."""
    return api(context, base, "/api/v1/plays", {"game": game, "track": True, "players": PAIR})["id"]


def finish(context, base: str, play: int) -> int:
    """Finish a play; its id, whose page is now the result."""
    api(context, base, f"/api/v1/plays/{play}/finish", {})
    return play


def every_page(context, base: str) -> list[str]:
    """Every page a device opens, with plays in progress and finished to show: home (listing them), each game's new
    play form, tracker, result and calculator, the history (filtered, a correction, a deletion's confirmation,
    recently deleted), the statistics, the import page, a report's progress, the calculator index, the offline page."""
    trackers = {game: start_tracker(context, base, game) for game in GAMES}
    # A Spires tower of 4 cards: the warning colours are on the page too.
    api(context, base, f"/api/v1/plays/{trackers['spires']}/actions",
        {"action": "add", "player": "Ann", "field": "towers.blue", "delta": 4})  # fmt: skip
    results = {game: finish(context, base, start_tracker(context, base, game)) for game in GAMES}
    return [
        "/",
        *(f"/plays/new?game={game}" for game in GAMES),
        *(f"/plays/{play}" for play in trackers.values()),
        *(f"/plays/{play}" for play in results.values()),
        "/history",
        "/history?game=spires",
        f"/history/{results['spires']}/correct",
        f"/history/{results['spqf']}/delete",
        "/history/deleted",
        "/players",
        "/players/1",
        *(f"/games/{game}" for game in GAMES),
        "/import",
        # The history report's progress page (202) while it is made.
        "/history/report.pdf",
        "/calculator/",
        *(f"/calculator/{game}" for game in GAMES),
        "/offline",
    ]


def luminance(css: str) -> float:
    """Relative luminance (WCAG) of an rgb()/rgba() colour."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    """WCAG contrast ratio of two colours."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def csp_errors(messages: list[str]) -> list[str]:
    """The console messages that name the Content-Security-Policy."""
    return [text for text in messages if any(word in text.lower() for word in CSP_WORDS)]


def recorded(page) -> list[str]:
    """Start recording the page's console errors; the list they go in."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def body_background(page) -> str:
    """The page's background colour as drawn."""
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page(browser, live_server: str, scheme: str) -> None:
    """axe-core: no serious or critical violation (contrast included) on every page, with the device light or dark."""
    # bypass_csp lets add_script_tag put axe in; the app has no inline script or style, so the page is the same.
    context = browser.new_context(viewport=PHONE, bypass_csp=True, color_scheme=scheme, service_workers="block")
    try:
        page = context.new_page()
        found = {}
        for url in every_page(context, live_server):
            page.goto(live_server + url)
            assert body_background(page) == (DARK_BG if scheme == "dark" else LIGHT_BG), url
            violations = axe_violations(page)
            if violations:
                found[url] = describe(violations)
        assert not found, "\n".join(f"{url}:\n{text}" for url, text in found.items())
    finally:
        context.close()


def test_a_chosen_dark_theme_on_a_light_device_draws_as_the_device_dark(browser, live_server: str) -> None:
    """Dark chosen with the switch and dark from the device give the same colours (one set of variables)."""
    colours = {}
    for name, scheme, forced in (("device", "dark", None), ("chosen", "light", "dark")):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, service_workers="block")
        if forced:
            context.add_init_script(f"localStorage.setItem('companion-theme', '{forced}');")
        page = context.new_page()
        play = start_tracker(context, live_server, "spires")
        page.goto(f"{live_server}/plays/{play}")
        colours[name] = page.evaluate("""() => [document.body, document.querySelector('.topbar'),
            document.querySelector('.counter .step'), document.querySelector('.card')]
            .map(el => { const s = getComputedStyle(el); return [s.backgroundColor, s.color, s.borderTopColor]; })""")
        context.close()
    assert colours["device"] == colours["chosen"]


def test_the_theme_switch_is_remembered_and_set_before_the_first_paint(browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="light", service_workers="block")
    context.add_init_script(THEME_AT_BODY)
    page = context.new_page()
    errors = recorded(page)
    page.goto(live_server + "/")
    switch = page.get_by_label("Theme")
    expect(switch).to_have_value("auto")
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert body_background(page) == LIGHT_BG

    switch.select_option("dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert body_background(page) == DARK_BG
    page.reload()
    expect(page.get_by_label("Theme")).to_have_value("dark")
    assert body_background(page) == DARK_BG
    assert page.evaluate("window.themeAtBody") == "dark", "the theme was set only after the body was drawn"
    page.goto(live_server + "/history")
    assert body_background(page) == DARK_BG

    page.get_by_label("Theme").select_option("light")
    page.emulate_media(color_scheme="dark")
    assert body_background(page) == LIGHT_BG, "a chosen Light holds on a dark device"
    page.get_by_label("Theme").select_option("auto")
    assert page.evaluate("localStorage.getItem('companion-theme')") is None
    assert body_background(page) == DARK_BG, "Auto follows the device"
    page.reload()
    expect(page.get_by_label("Theme")).to_have_value("auto")
    assert page.evaluate("window.themeAtBody") == "auto"
    assert body_background(page) == DARK_BG
    assert errors == []
    context.close()


def test_the_skip_link_is_the_first_tab_stop_and_moves_focus_to_main(browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    for url in ("/", f"/plays/{start_tracker(context, live_server, 'spqf')}", "/calculator/spires"):
        page.goto(live_server + url)
        skip = page.get_by_role("link", name="Skip to content")
        box = skip.bounding_box()
        assert box is None or box["y"] + box["height"] <= 0, "out of sight until it is reached"
        page.keyboard.press("Tab")
        expect(skip).to_be_focused()
        box = skip.bounding_box()
        assert box and box["y"] >= 0 and box["height"] >= 44, "in sight, and big enough to tap, once reached"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "content", url
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('main')"), f"{url}: the next Tab stays in main"
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_focused_control_shows_a_ring_that_stands_out(browser, live_server: str, scheme: str) -> None:
    """Every kind of control reached by Tab shows a solid outline of 3:1 or more against what is behind it."""
    context = browser.new_context(viewport={"width": 1180, "height": 820}, color_scheme=scheme, service_workers="block")
    page = context.new_page()
    play = start_tracker(context, live_server, "speros")
    seen = {}
    for url in ("/", f"/plays/{play}", "/plays/new?game=spires"):
        page.goto(live_server + url)
        for _ in range(60):
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING)
            kind = ring["tag"]
            if kind == "body":  # past the last control
                break
            assert ring["style"] == "solid" and ring["width"] >= 2, f"{url}: no ring on {ring}"
            assert contrast(ring["colour"], ring["behind"]) >= 3, f"{url}: faint ring on {ring}"
            seen.setdefault(kind, ring)
    assert {"a", "button", "select", "input"} <= set(seen), seen
    context.close()


def test_buttons_and_fields_have_edges_of_3_to_1(browser, live_server: str) -> None:
    """The borders of fields, buttons, chips and steppers stand out from what is behind them, light and dark."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, service_workers="block")
        page = context.new_page()
        play = start_tracker(context, live_server, "speros")
        # A counter's steppers: Speros's board has none until a card is in play, Spires's seats have them at once.
        counters = start_tracker(context, live_server, "spires")
        for url, selector in (
            ("/", ".button:not(.primary)"),
            ("/plays/new?game=spires", "input[type=text]"),
            (f"/plays/{play}", ".chip"),
            (f"/plays/{counters}", ".step"),
            (f"/plays/{play}", "select"),
            ("/calculator/speros", "textarea"),
        ):
            page.goto(live_server + url)
            edge = page.evaluate(
                """(selector) => {
                  const el = document.querySelector(selector);
                  let behind = el.parentElement;
                  while (["rgba(0, 0, 0, 0)", "transparent"].includes(getComputedStyle(behind).backgroundColor)) {
                    behind = behind.parentElement;
                  }
                  return [getComputedStyle(el).borderTopColor, getComputedStyle(behind).backgroundColor];
                }""",
                selector,
            )
            assert contrast(*edge) >= 3, f"{scheme} {url} {selector}: {edge}"
        context.close()


def test_the_service_worker_shows_the_offline_page_when_the_app_cant_be_reached(browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    page = context.new_page()
    errors = recorded(page)
    play = start_tracker(context, live_server, "spires")
    page.goto(live_server + "/")
    version = page.evaluate("""async () => {
      const registration = await navigator.serviceWorker.ready;
      const script = await (await fetch(registration.active.scriptURL)).text();
      return [registration.scope, script.match(/"version": "(\\w+)"/)[1]];
    }""")
    assert version[0] == live_server + "/"
    page.wait_for_function("async () => (await caches.keys()).length > 0")
    assert page.evaluate("caches.keys()") == [f"companion-{version[1]}"]
    # Navigations go through the worker once it controls the page.
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.goto(f"{live_server}/plays/{play}")
    expect(page.locator(".tracker")).to_be_visible()

    context.set_offline(True)
    for url in (f"/plays/{play}", "/history", "/"):
        page.goto(live_server + url)
        expect(page.locator("main")).to_contain_text(OFFLINE_TEXT)
        assert page.url == live_server + url, "the address stays the one asked for"
        # The stylesheets came from the cache: the page is drawn as the app, not as bare HTML.
        assert body_background(page) == LIGHT_BG
    assert page.evaluate("document.title").startswith("Can't be reached")

    context.set_offline(False)
    page.get_by_role("button", name="Try again").click()
    expect(page.locator("h1")).to_have_text("What are we playing?")
    assert csp_errors(errors) == []
    context.close()


def test_the_service_worker_leaves_taps_to_the_network(browser, live_server: str) -> None:
    """A tap (an htmx POST) while the worker controls the page is saved, and offline it is kept on the device
    (static/js/queue.js), never answered from the worker's cache."""
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    page = context.new_page()
    play = start_tracker(context, live_server, "spires")
    page.goto(f"{live_server}/plays/{play}")
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active")
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    seat = page.locator("section.seat").first
    seat.get_by_role("button", name="Red plus one").click()
    expect(seat.locator("output[id$='-towers-red-value']")).to_have_text("1")
    context.set_offline(True)
    seat.get_by_role("button", name="Red plus one").click()
    expect(page.locator("#flash")).to_contain_text("1 tap waiting to be saved.")
    expect(seat.locator("output[id$='-towers-red-value']")).to_have_text("1")
    context.set_offline(False)
    expect(seat.locator("output[id$='-towers-red-value']")).to_have_text("2")
    context.close()


def test_a_tracker_keeps_the_screen_awake(browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(WAKE_LOCK_STUB)
    page = context.new_page()
    errors = recorded(page)
    page.goto(live_server + "/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.wakeLockCalls") == [], "no lock away from a tracker"

    play = start_tracker(context, live_server, "spqf")
    page.goto(f"{live_server}/plays/{play}")
    page.wait_for_function("() => window.wakeLockCalls.length === 1")
    assert page.evaluate("window.wakeLockCalls") == ["screen"]
    # A tap swaps parts of the page: the lock held is kept, not asked for again.
    seat = page.locator("section.seat").first
    seat.get_by_role("button", name="VP tokens plus one").click()
    expect(seat.locator("output[id$='-vp_tokens-value']")).to_have_text("1")
    assert page.evaluate("window.wakeLockCalls.length") == 1
    # Hidden, the browser lets the lock go; visible again, it is asked for again.
    page.evaluate("""() => {
      window.wakeLocks.forEach(lock => { lock.released = true; });
      document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_function("() => window.wakeLockCalls.length === 2")
    assert errors == []
    context.close()


def test_without_the_wake_lock_api_nothing_goes_wrong(browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(NO_WAKE_LOCK)
    page = context.new_page()
    errors = recorded(page)
    play = start_tracker(context, live_server, "spires")
    page.goto(f"{live_server}/plays/{play}")
    page.wait_for_load_state("load")
    assert page.evaluate("'wakeLock' in navigator") is False
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator(".tracker")).to_be_visible()
    assert errors == []
    context.close()
