"""How many taps a whole game takes on the tracker, played in a real browser on a phone (390 x 844).

Run: python3 bench/game_taps.py [--quick] [--game spires|spqf|spyrium|speros] [--app-root PATH]. Each game's
driver (bench/whole_games/<game>.py) plays one realistic game of three players from the moment the tracker opens
to the result page, through the controls a player would use, and names the totals the result must show. It
counts:
- a tap: a click on a button, chip, link or summary, or on a field to type into it;
- a key: each character typed, and the Enter or Done that ends it (a phone's keypad is tapped too);
- choosing from a list: two taps (open it, pick one).
The figure to compare is taps + keys. Starting the play (names, colours, the first player) is the same for
every way of tracking and is left out. --app-root serves another checkout's app (e.g. a copy of an older commit,
`git archive HEAD | tar -x -C /tmp/before`) to measure a driver written for its controls. --quick plays the same
games and checks each total, printing no table: the suite runs it (tests/browser/test_bench_game_taps.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import threading
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
DRIVERS = HERE / "whole_games"
GAMES = ("spires", "spqf", "spyrium", "speros")
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


@dataclass
class Table:
    """A phone at the table: every touch goes through here and is counted."""

    page: Any
    base: str
    play_id: int
    taps: int = 0
    keys: int = 0
    said: list[str] = field(default_factory=list)

    def settle(self) -> None:
        """Wait until every request the last touch started (and those queued behind it) has been answered."""
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request') && !(window.htmx && htmx.find('.htmx-request'))"
        )
        self.page.wait_for_timeout(30)

    def tap(self, target: Any) -> None:
        """One tap on a button, chip, link or summary (a selector or a locator)."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.first.click()
        self.taps += 1
        self.settle()

    def type(self, target: Any, text: str, enter: bool = False) -> None:
        """Tap a field and type into it: one tap, a key per character, and one for Enter when it ends the entry."""
        locator = (self.page.locator(target) if isinstance(target, str) else target).first
        locator.click()
        self.taps += 1
        locator.fill("")
        locator.press_sequentially(text)
        self.keys += len(text)
        if enter:
            locator.press("Enter")
            self.keys += 1
        self.settle()

    def keys_in(self, text: str, enter: bool = True) -> None:
        """Type into the field that has the focus (after a tap opened it): a key per character, and Enter or Done."""
        self.page.keyboard.type(text)
        self.keys += len(text)
        if enter:
            self.page.keyboard.press("Enter")
            self.keys += 1
        self.settle()

    def choose(self, target: Any, value: str) -> None:
        """Pick from a list: open it and choose, two taps."""
        locator = (self.page.locator(target) if isinstance(target, str) else target).first
        locator.select_option(value)
        self.taps += 2
        self.settle()

    def finish(self) -> None:
        """Tap Finish and score and OK its confirmation (a tap too), then wait for the result page."""
        self.page.once("dialog", lambda dialog: dialog.accept())
        self.tap(self.page.get_by_role("button", name="Finish and score"))
        self.taps += 1
        self.page.locator("#result").wait_for()

    @property
    def total(self) -> int:
        """Taps and keys together: the figure the bench compares."""
        return self.taps + self.keys


def load_driver(game: str) -> ModuleType:
    """bench/whole_games/<game>.py as a module (bench/ is no package)."""
    path = DRIVERS / f"{game}.py"
    spec = importlib.util.spec_from_file_location(f"companion_game_taps_{game}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def serve(app_root: Path, folder: Path) -> tuple[str, Any]:
    """The app of `app_root` on a free local port with a fresh SQLite file; its base URL and the server."""
    sys.path.insert(0, str(app_root))
    from werkzeug.serving import make_server

    from companion import create_app

    app = create_app({"SECRET_KEY": "taps", "DATABASE_URL": f"sqlite:///{folder / 'taps.sqlite'}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server


def api(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON API call (POST when there is a body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path, data=data, method="POST" if data else "GET", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def play_game(browser: Any, base: str, game: str) -> Table:
    """Start the driver's play through the API, play it on the tracker page, and check the result's totals."""
    driver = load_driver(game)
    started = api(
        base,
        "/api/v1/plays",
        {"game": game, "track": True, "players": driver.PLAYERS, "options": getattr(driver, "OPTIONS", {})},
    )
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{base}/plays/{started['id']}")
        table = Table(page, base, started["id"])
        expected = driver.play(table)
        result = api(base, f"/api/v1/plays/{started['id']}")["result"]
        if result is None:
            raise AssertionError(f"{game}: the play is not finished after the driver's last tap")
        totals = {player["name"]: player["total"] for player in result["players"]}
        if totals != expected:
            raise AssertionError(f"{game}: the result's totals {totals} are not the game's {expected}")
        return table
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    """Play each game and print its taps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="play and check, print one line a game")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (may repeat)")
    parser.add_argument("--app-root", type=Path, default=HERE.parent, help="the checkout whose app is served")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    games = args.game or [game for game in GAMES if (DRIVERS / f"{game}.py").exists()]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, server = serve(args.app_root.resolve(), Path(folder))
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            rows = [(game, play_game(browser, base, game)) for game in games]
        finally:
            browser.close()
            server.shutdown()
    if not args.quick:
        print(f"{'game':8} {'taps':>5} {'keys':>5} {'total':>6}")
    for game, table in rows:
        print(f"{game:8} {table.taps:5} {table.keys:5} {table.total:6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
