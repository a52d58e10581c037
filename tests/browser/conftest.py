"""A live server on a free local port and a headless Chromium (Debian's /usr/bin/chromium) for browser tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from companion import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def live_server(tmp_path) -> Iterator[str]:
    """The app on 127.0.0.1 with a fresh SQLite file; yields its base URL."""
    app = create_app({"SECRET_KEY": "browser", "DATABASE_URL": f"sqlite:///{tmp_path / 'browser.sqlite'}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    app.extensions["db_engine"].dispose()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request):
    """A fresh page (phone-sized unless a test resizes it) that records console errors."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    yield page
    context.close()
