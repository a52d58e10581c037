"""The app for the table through the test client: manifest and icons, the service worker, the offline page, the skip
link and theme switch on every page, the history pager, and a CSP as strict as before."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from companion import PROJECT_ROOT, create_app
from companion.games import GAMES
from companion.history.views import HISTORY_PAGE, OPEN_PAGE
from companion.web.shell import scan
from tests.helpers import post_json

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# The page links the manifest of its language (companion/web/i18n.py), made from static/manifest.webmanifest.
MANIFEST = "/manifest.en.webmanifest"
PAIR = [{"name": "Ann"}, {"name": "Bob"}]


def track(client, game: str) -> int:
    """Start Ann and Bob's play of `game` in progress through the API; its id."""
    response = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": PAIR})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def finished(client, game: str) -> int:
    """A play of `game` started and finished at once; its id."""
    play = track(client, game)
    assert post_json(client, f"/api/v1/plays/{play}/finish", {}).status_code == 200
    return play


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == PNG_SIGNATURE
    return struct.unpack(">II", data[16:24])


def pages(client) -> list[str]:
    """Every kind of page a device opens: home, new play and calculator of each game, a tracker, a result, history."""
    return [
        "/",
        *(f"/plays/new?game={game}" for game in GAMES),
        f"/plays/{track(client, 'spires')}",
        f"/plays/{finished(client, 'spqf')}",
        "/history",
        "/calculator/",
        *(f"/calculator/{game}" for game in GAMES),
        "/offline",
    ]


def test_the_manifest_is_linked_valid_and_its_icons_exist(client) -> None:
    html = client.get("/").get_data(as_text=True)
    assert f'<link rel="manifest" href="{MANIFEST}">' in html
    response = client.get(MANIFEST)
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] and manifest["short_name"] == "Companion"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    pngs = {}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        assert image.mimetype == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(image.data)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            pngs[(icon["sizes"], icon.get("purpose", "any"))] = icon["src"]
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(pngs)


def test_the_service_worker_is_javascript_at_the_root_with_its_version_and_no_cache(app, client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    config = json.loads(re.match(r"const SHELL = (\{.*\});\n", script).group(1))
    assert config["version"] == app.extensions["companion_app_shell"].version
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == "/offline"
    precached = set(config["precache"])
    for url in (
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/js/theme.js",
        "/static/vendor/htmx-2.0.11.min.js",
        "/static/icons/companion.svg",
        "/static/icons/companion-192.png",
        MANIFEST,
        "/offline",
    ):
        assert url in precached, url
    assert "/static/js/sw.js" not in precached
    for url in precached:
        assert client.get(url).status_code == 200, url
    # What it does with requests: POSTs and htmx fragments are left to the network.
    assert 'request.method !== "GET"' in script and 'headers.has("HX-Request")' in script


def test_every_page_names_the_service_worker_but_the_access_page(app) -> None:
    open_app = app.test_client()
    assert 'data-service-worker="/sw.js"' in open_app.get("/").get_data(as_text=True)
    app.config["COMPANION_ACCESS_CODE"] = "table"
    access = open_app.get("/access").get_data(as_text=True)
    assert "data-service-worker" not in access
    assert "Skip to content" in access


def test_the_version_follows_the_static_files(tmp_path: Path) -> None:
    static, templates = tmp_path / "static", tmp_path / "templates"
    (static / "js").mkdir(parents=True)
    templates.mkdir()
    (static / "js" / "sw.js").write_text("// worker")
    (static / "app.css").write_text("body { color: black; }")
    (static / "NOTES.LICENSE").write_text("licence")
    for name in ("offline.html", "base.html"):
        (templates / name).write_text(name)
    first = scan(static, templates)
    assert first.static_files == ("app.css",)
    assert scan(static, templates).version == first.version
    (static / "app.css").write_text("body { color: white; }")
    assert scan(static, templates).version != first.version
    changed = scan(static, templates)
    (templates / "offline.html").write_text("offline, reworded")
    assert scan(static, templates).version != changed.version


def test_the_offline_page_says_the_app_cant_be_reached(client) -> None:
    response = client.get("/offline")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "The app can't be reached: check the table's Wi-Fi" in html
    assert "data-reload" in html


def test_every_page_has_the_skip_link_first_the_theme_switch_and_main(client) -> None:
    for url in pages(client):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        body = html[html.index("<body") :]
        first_link = re.search(r"<a\b[^>]*>", body).group(0)
        assert 'class="skip-link" href="#content"' in first_link, url
        assert ">Skip to content</a>" in body, url
        assert '<main id="content" tabindex="-1">' in body, url
        switch = re.search(r'<select id="theme-switch"[^>]*>(.*?)</select>', body, re.DOTALL)
        assert switch, url
        assert re.findall(r'<option value="(\w+)">', switch.group(1)) == ["auto", "light", "dark"], url
        # The theme is set before the first paint: theme.js in <head>, not deferred, before the stylesheets.
        head = html[: html.index("</head>")]
        theme = re.search(r'<script src="/static/js/theme.js"[^>]*>', head)
        assert theme and "defer" not in theme.group(0) and "async" not in theme.group(0), url
        assert head.index("theme.js") < head.index('rel="stylesheet"'), url


def test_the_csp_is_as_strict_as_before(client) -> None:
    for url in ("/", "/sw.js", "/offline", MANIFEST):
        csp = client.get(url).headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["default-src"] == "'self'", url
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'", url
        assert "unsafe" not in csp and "*" not in csp and "http" not in csp, url
        # The manifest and the worker come from 'self', which default-src and script-src already allow.
        assert directives.get("manifest-src", "'self'") == "'self'"
        assert directives.get("worker-src", "'self'") == "'self'"


def test_pages_keep_scripts_and_styles_out_of_the_html(client) -> None:
    for url in pages(client):
        html = client.get(url).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], url
        assert " style=" not in html and "<style" not in html, url
        assert not re.search(r"\son\w+=", html), url


@pytest.mark.parametrize("url", ["/history", "/history/in-progress", "/history/put-aside"])
def test_no_empty_pager_when_everything_fits_on_one_page(client, url: str) -> None:
    track(client, "spires")
    html = client.get(url).get_data(as_text=True)
    assert re.findall(r"<nav\b[^>]*>", html) == ['<nav aria-label="Main">'], url


def test_a_pager_has_a_name_and_only_the_links_that_lead_somewhere(client) -> None:
    for _ in range(OPEN_PAGE + 1):
        track(client, "spires")
    for _ in range(HISTORY_PAGE + 1):
        finished(client, "spqf")
    for url, label, links in (
        ("/history", "Pages of finished plays", ["Older"]),
        ("/history?page=2", "Pages of finished plays", ["Newer"]),
        ("/history/in-progress", "Pages of games in progress", ["Older"]),
        ("/history/in-progress?page=2", "Pages of games in progress", ["Newer"]),
    ):
        html = client.get(url).get_data(as_text=True)
        pager = re.search(r'<nav class="pager" aria-label="([^"]+)">(.*?)</nav>', html, re.DOTALL)
        assert pager and pager.group(1) == label, url
        assert re.findall(r">(Newer|Older)</a>", pager.group(2)) == links, url
    # Past the last page there is nothing to page to from a list that shows nothing.
    assert '<nav class="pager"' not in client.get("/history/in-progress?page=9").get_data(as_text=True)


def test_an_app_started_twice_on_the_same_files_gives_the_same_version(tmp_path: Path) -> None:
    versions = set()
    for run in ("a", "b"):
        app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / run}.sqlite"})
        versions.add(app.extensions["companion_app_shell"].version)
        app.extensions["db_engine"].dispose()
    assert len(versions) == 1
    assert (PROJECT_ROOT / "static" / "js" / "sw.js").exists()
