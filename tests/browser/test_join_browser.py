"""The Join panel on a phone (issue 17 point 5): on a server that listens on this machine alone it says so, and how
to open it to the Wi-Fi, where the player looks and in a live region, with no QR code; on one started another way
the code shows with its note. Nothing sticks out at 390 px and axe finds nothing serious.

Uses the browser fixture of tests/browser/conftest.py; the app servers are made here, as `companion serve` sets them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator

import pytest
from werkzeug.serving import make_server

from companion import create_app
from companion.play import join
from tests.browser.axe import axe_violations, describe
from tests.browser.targets import target_problems

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture
def serve_app(tmp_path) -> Iterator[Callable[..., str]]:
    """Start the app on 127.0.0.1 with the given settings (SERVE_HOST as `companion serve` sets it); its URL."""
    started = []

    def start(**settings: object) -> str:
        app = create_app({"SECRET_KEY": "join", "DATABASE_URL": f"sqlite:///{tmp_path / 'join.sqlite'}", **settings})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        started.append((app, server, thread))
        return f"http://127.0.0.1:{server.server_port}"

    yield start
    for app, server, thread in started:
        server.shutdown()
        thread.join(timeout=5)
        app.extensions["db_engine"].dispose()


def panel_problems(page) -> list[str]:
    """What sticks out of the 390 px viewport in the Join panel, and its controls a finger would miss (the rest of
    the tracker is its own tests' business)."""
    wide = page.evaluate("""() => [...document.querySelectorAll('#join-panel, #join-panel *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map(e => e.tagName.toLowerCase() + '.' + e.className + ' ends at '
             + Math.round(e.getBoundingClientRect().right))""")
    controls = [p for p in target_problems(page, "#join-panel") if not p.startswith("the page scrolls sideways")]
    return wide + controls


def open_join(page, base: str) -> None:
    """Start a two-player Spires play and open its Join panel with one tap on the tracker."""
    page.goto(f"{base}/plays/new?game=spires")
    page.locator("input[name=name-0]").fill("Ann")
    page.locator("input[name=name-1]").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    page.get_by_text("Join from another phone").click()
    expect(page.locator("#join-panel")).to_be_visible()


def test_on_a_server_of_this_machine_alone_the_panel_says_how_to_open_it(page, serve_app) -> None:
    open_join(page, serve_app(SERVE_HOST="127.0.0.1"))
    status = page.locator("#join-panel [role=status]")
    expect(status).to_contain_text("Only this device can open this game now")
    expect(status).to_contain_text("companion serve --host 0.0.0.0")
    expect(status).to_contain_text("COMPANION_ACCESS_CODE")
    assert page.locator("#join-panel svg").count() == 0
    # Where the player looks: the panel's message is in view right under the tap that opened it.
    status.locator("strong").scroll_into_view_if_needed()
    assert panel_problems(page) == []
    problems = axe_violations(page)
    assert problems == [], describe(problems)


def test_on_a_server_started_another_way_the_code_shows_with_its_note(page, serve_app, monkeypatch) -> None:
    monkeypatch.setattr(join, "lan_address", lambda: "192.168.1.20")
    open_join(page, serve_app())
    panel = page.locator("#join-panel")
    expect(panel.locator("svg title")).to_have_text(re.compile(r"QR code of http://192\.168\.1\.20:\d+/plays/\d+"))
    expect(panel.locator(".join-note[role=status]")).to_contain_text("If the phone can't open it")
    assert panel_problems(page) == []
    problems = axe_violations(page)
    assert problems == [], describe(problems)
