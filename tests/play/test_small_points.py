"""The smaller points: open plays a page at a time, score sheets that wrap long words, WeasyPrint reading only
the app's static files, and finished sheets rendered once, without holding the database connection."""

from __future__ import annotations

import io
import os
import re
import socket
import threading
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, DictLoader
from pypdf import PdfReader
from sqlalchemy import event
from sqlmodel import Session

from companion.games.base import NAME_MAX
from companion.history import views as history
from companion.printing import pdf
from companion.store.models import ABANDONED, Play
from tests.helpers import start_play

# --- Plays in progress and put aside: the newest few, and every one a page at a time -------------------------


def play_links(html: str) -> list[int]:
    """The ids of the plays a page links to, in page order."""
    return [int(i) for i in re.findall(r'href="/plays/(\d+)"', html)]


def put_aside(app, play_ids: list[int]) -> None:
    """Mark plays as put aside, straight in the database."""
    with Session(app.extensions["db_engine"]) as session:
        for play_id in play_ids:
            session.get(Play, play_id).status = ABANDONED
        session.commit()


def test_home_shows_the_newest_games_in_progress_and_a_link_to_all(client) -> None:
    plays = [start_play(client, ["Ann", "Bob"]) for _ in range(history.HOME_IN_PROGRESS + 2)]
    html = client.get("/").get_data(as_text=True)
    assert play_links(html) == list(reversed(plays))[: history.HOME_IN_PROGRESS]
    assert f'<a href="/history/in-progress">All {len(plays)} games in progress</a>' in html


def test_home_has_no_link_when_every_game_in_progress_is_shown(client) -> None:
    plays = [start_play(client, ["Ann", "Bob"]) for _ in range(2)]
    html = client.get("/").get_data(as_text=True)
    assert play_links(html) == list(reversed(plays))
    assert "/history/in-progress" not in html


def test_home_counts_with_a_query_and_loads_only_the_few_it_shows(app, client) -> None:
    for _ in range(history.HOME_IN_PROGRESS + 1):
        start_play(client, ["Ann", "Bob"])
    statements: list[str] = []
    engine = app.extensions["db_engine"]

    def record(_conn, _cursor, statement, _parameters, _context, _many) -> None:
        statements.append(" ".join(statement.split()).lower())

    event.listen(engine, "before_cursor_execute", record)
    try:
        client.get("/")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    plays = [s for s in statements if s.startswith("select") and "from play" in s and "play.status" in s]
    assert any("count(" in s for s in plays), plays
    listed = [s for s in plays if "count(" not in s]
    assert listed and all(" limit " in s for s in listed), listed


def test_every_game_in_progress_a_page_at_a_time(client, monkeypatch) -> None:
    monkeypatch.setattr(history, "OPEN_PAGE", 3)
    plays = list(reversed([start_play(client, ["Ann", "Bob"]) for _ in range(7)]))
    first = client.get("/history/in-progress").get_data(as_text=True)
    assert "Games in progress" in first and "7 games, newest first." in first
    assert play_links(first) == plays[:3]
    assert 'href="/history/in-progress?page=2">Older</a>' in first and "Newer" not in first
    second = client.get("/history/in-progress?page=2").get_data(as_text=True)
    assert play_links(second) == plays[3:6]
    assert 'href="/history/in-progress?page=1">Newer</a>' in second
    last = client.get("/history/in-progress?page=3").get_data(as_text=True)
    assert play_links(last) == plays[6:] and "Older" not in last
    beyond = client.get("/history/in-progress?page=99999999999").get_data(as_text=True)
    assert play_links(beyond) == [] and "No more games here." in beyond


def test_history_shows_the_newest_put_aside_and_a_link_to_all(app, client, monkeypatch) -> None:
    monkeypatch.setattr(history, "HISTORY_PUT_ASIDE", 2)
    plays = [start_play(client, ["Ann", "Bob"]) for _ in range(4)]
    put_aside(app, plays[:3])
    html = client.get("/history").get_data(as_text=True)
    # The one still in progress is counted and linked, not listed; the newest two put aside are listed.
    assert play_links(html) == [plays[2], plays[1]]
    assert '<a href="/history/in-progress">1 game in progress</a>' in html
    assert '<a href="/history/put-aside">All 3 games put aside</a>' in html
    aside = client.get("/history/put-aside").get_data(as_text=True)
    assert "Games put aside" in aside and play_links(aside) == [plays[2], plays[1], plays[0]]
    assert play_links(client.get("/history/in-progress").get_data(as_text=True)) == [plays[3]]


def test_empty_lists_of_open_plays(client) -> None:
    for url in ("/history/in-progress", "/history/put-aside"):
        html = client.get(url).get_data(as_text=True)
        assert "0 games, newest first." in html and "None just now." in html


# --- The score sheet: long unbroken words wrap inside the page -----------------------------------------------

LONG_NAME = "W" * NAME_MAX  # the widest letter, no space to break at
OTHER_LONG_NAME = "Maximilian" * (NAME_MAX // 10)
LONG_NOTES = "https://example.org/" + "x" * 600 + " then " + "Q" * 400
# The narrowest these letters are in DejaVu Sans (advance width / em): a run of them is at least this wide.
MIN_EM = {"W": 0.95, "Q": 0.75, "x": 0.55}


def sheet_with_long_words(client) -> bytes:
    """The score sheet of a finished Spires play with 40-letter names and notes of unbroken runs."""
    players = [
        {"name": LONG_NAME, "towers": {"red": 3, "blue": 2, "green": 5}, "crowns": 3, "scroll_vp": 8},
        {"name": OTHER_LONG_NAME, "towers": {"purple": 3, "black": 1}, "swords": 4, "quills": 2, "scroll_vp": 12},
        {"name": "Ann", "towers": {"purple": 3}, "swords": 4, "scroll_vp": 9},
    ]
    saved = client.post("/api/v1/plays", json={"game": "spires", "players": players, "notes": LONG_NOTES})
    assert saved.status_code == 201, saved.get_data(as_text=True)
    response = client.get(f"/plays/{saved.get_json()['id']}/sheet.pdf")
    assert response.status_code == 200
    return response.data


def text_runs(page) -> list[tuple[float, float, str]]:
    """Each run of text on the page: where it starts (x, in points), its font size in points, and its text."""
    runs: list[tuple[float, float, str]] = []

    def visit(run: str, cm, tm, _font, font_size: float) -> None:
        if run.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            size = font_size * (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            runs.append((x, size, run.strip()))

    page.extract_text(visitor_text=visit)
    return runs


def test_long_names_and_notes_wrap_inside_the_page(client) -> None:
    reader = PdfReader(io.BytesIO(sheet_with_long_words(client)))
    text = "\n".join(page.extract_text() for page in reader.pages)
    squeezed = "".join(text.split())
    # Nothing is lost: every name and the notes are there whole (broken over lines, so spaces taken out).
    for whole in (LONG_NAME, OTHER_LONG_NAME, "".join(LONG_NOTES.split())):
        assert whole in squeezed, whole[:20]
    # Nothing runs off the page: every run of text starts within the margins (14 mm, print.css) and no run of
    # the long words is wider than what is left of the line.
    margin = 14 / 25.4 * 72
    for page in reader.pages:
        width = float(page.mediabox.width)
        runs = text_runs(page)
        assert runs
        for x, size, run in runs:
            assert margin - 1 <= x <= width - margin, (x, run[:30])
            for letter, em in MIN_EM.items():
                streak = max((len(m) for m in re.findall(f"{letter}+", run)), default=0)
                assert x + streak * em * size <= width - margin + 1, (x, size, run[:30])
    # print.css was read (its margins, not WeasyPrint's default 75px): the first line starts near 14 mm.
    assert text_runs(reader.pages[0])[0][0] < margin + 10


# --- WeasyPrint reads the app's static files and nothing else ------------------------------------------------


def test_the_fetcher_serves_static_files(app) -> None:
    static = Path(app.static_folder)
    fetcher = pdf.static_fetcher(static)
    css = (static / "css" / "print.css").read_bytes()
    for url in (static.as_uri() + "/css/print.css", "file:///static/css/print.css", "file:///static/css/print.css?v=2"):
        response = fetcher(url)
        assert response.read() == css
        assert response.content_type == "text/css"
        response.close()


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/x.png",
        "https://example.com/x.css",
        "ftp://example.com/x.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "file:///etc/passwd",
        "file://example.com/static/css/print.css",
        "file:///static/../companion/__init__.py",
        "file:///static/css/missing.css",
        "//example.com/x.png",
    ],
)
def test_the_fetcher_refuses_everything_else(app, url: str) -> None:
    with pytest.raises(pdf.RefusedResource):  # a ValueError: WeasyPrint logs it and goes on without the resource
        pdf.static_fetcher(app.static_folder)(url)


def test_the_fetcher_refuses_files_beside_the_static_folder(app) -> None:
    static = Path(app.static_folder)
    fetcher = pdf.static_fetcher(static)
    for url in (
        (static.parent / "companion" / "__init__.py").as_uri(),
        static.as_uri() + "/../pyproject.toml",
        static.as_uri() + "/%2e%2e/pyproject.toml",
        static.as_uri(),
    ):
        with pytest.raises(pdf.RefusedResource):
            fetcher(url)


def test_a_symbolic_link_out_of_the_static_folder_is_refused(tmp_path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "ok.css").write_text("body {}")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    os.symlink(secret, static / "link.css")
    assert pdf.static_file((static / "ok.css").as_uri(), static) == (static / "ok.css").resolve()
    with pytest.raises(pdf.RefusedResource):
        pdf.static_file((static / "link.css").as_uri(), static)


def test_a_template_injected_external_url_is_never_fetched(app, monkeypatch, caplog) -> None:
    """Images and stylesheets pointing anywhere but static/ fail as resources: no connection is ever opened."""
    attempts: list[object] = []

    def no_network(*args, **_kwargs):
        attempts.append(args)
        raise AssertionError("WeasyPrint tried to open a connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: no_network(address))
    asked: list[str] = []
    real = pdf.static_file

    def spy(url: str, *args, **kwargs):
        asked.append(url)
        return real(url, *args, **kwargs)

    monkeypatch.setattr(pdf, "static_file", spy)
    page = """<!doctype html><html><head>
      <link rel="stylesheet" href="https://example.com/evil.css">
      <link rel="stylesheet" href="css/print.css">
      <style>@import url("http://example.com/imported.css"); body { background: url(http://example.com/bg.png) }</style>
      </head><body><h1>Sheet of {{ name }}</h1>
      <img src="{{ picture }}"><img src="file:///etc/passwd"><img src="/static/icons/companion.svg">
      </body></html>"""
    app.jinja_env.loader = ChoiceLoader([DictLoader({"test/injected.html": page}), app.jinja_env.loader])
    with app.test_request_context("/"), caplog.at_level("WARNING", logger="weasyprint"):
        made = pdf.render_pdf("test/injected.html", name="Ann", picture="http://example.com/x.png")
    assert "Sheet of Ann" in PdfReader(io.BytesIO(made)).pages[0].extract_text()
    assert attempts == []
    for url in (
        "https://example.com/evil.css",
        "http://example.com/x.png",
        "http://example.com/bg.png",
        "http://example.com/imported.css",
        "file:///etc/passwd",
    ):
        assert url in asked, url
        assert url in caplog.text, url
    # The app's own files were served: the stylesheet by a relative URL, the icon by its /static/ URL.
    assert any(url.endswith("/static/css/print.css") for url in asked)
    assert "file:///static/icons/companion.svg" in asked
    assert "companion.svg" not in caplog.text


# --- A finished sheet is rendered once, without the database connection ----------------------------------------


def finished_play(client, names: tuple[str, str] = ("Ann", "Bob")) -> int:
    """A finished two-player Spires play."""
    play = start_play(client, list(names))
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    first, _second = re.findall(r'id="seat-(\d+)"', html)
    client.post(f"/plays/{play}/seats/{first}", data={"field": "towers.red", "value": "3"})
    assert client.post(f"/plays/{play}/finish").status_code == 303
    return play


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The HTML of every sheet WeasyPrint renders."""
    done: list[str] = []
    real = pdf._render

    def counted(html: str):
        done.append(html)
        return real(html)

    monkeypatch.setattr(pdf, "_render", counted)
    return done


def test_a_finished_sheet_is_rendered_once(client, renders: list[str]) -> None:
    play = finished_play(client)
    first = client.get(f"/plays/{play}/sheet.pdf")
    again = client.get(f"/plays/{play}/sheet.pdf")
    assert first.status_code == again.status_code == 200
    assert again.data == first.data and len(renders) == 1
    assert again.headers["Content-Type"] == "application/pdf"
    assert again.headers["Content-Disposition"] == f'inline; filename="spires-{play}.pdf"'
    # A device that has it is told so.
    etag = first.headers["ETag"]
    assert etag and again.headers["ETag"] == etag
    unchanged = client.get(f"/plays/{play}/sheet.pdf", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    # Another play is another sheet.
    other = finished_play(client, ("Cy", "Di"))
    sheet = client.get(f"/plays/{other}/sheet.pdf")
    assert len(renders) == 2 and sheet.headers["ETag"] != etag
    assert "Cy" in PdfReader(io.BytesIO(sheet.data)).pages[0].extract_text()


def test_the_database_connection_is_returned_before_weasyprint_works(app, client, monkeypatch) -> None:
    play = finished_play(client)
    engine = app.extensions["db_engine"]
    held: list[int] = []
    real = pdf._render

    def render(html: str):
        held.append(engine.pool.checkedout())
        return real(html)

    monkeypatch.setattr(pdf, "_render", render)
    assert client.get(f"/plays/{play}/sheet.pdf").status_code == 200
    assert held == [0]


def test_devices_opening_the_same_new_sheet_at_once_cost_one_render(app, client, renders: list[str]) -> None:
    play = finished_play(client)
    start = threading.Barrier(8)
    sheets: list[bytes] = []

    def fetch() -> None:
        device = app.test_client()
        start.wait()
        response = device.get(f"/plays/{play}/sheet.pdf")
        assert response.status_code == 200
        sheets.append(response.data)

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(sheets) == 8 and len(set(sheets)) == 1
    assert len(renders) == 1


def test_the_cache_is_bounded_and_drops_the_least_recently_used(tmp_path) -> None:
    cache = pdf.PdfCache(max_entries=2, max_bytes=10)
    cache.put("a", b"aaa")
    cache.put("b", b"bbb")
    assert cache.get("a") == b"aaa"  # now b is the least recently used
    cache.put("c", b"ccc")
    assert cache.get("b") is None and cache.get("a") == b"aaa" and cache.get("c") == b"ccc"
    cache.put("d", b"dddddd")  # 3 + 3 + 6 > 10 bytes: the least recently used go until it fits
    assert len(cache) == 2 and cache.size == 9 and cache.get("a") is None
    assert cache.get("c") == b"ccc" and cache.get("d") == b"dddddd"
    cache.put("huge", b"x" * 11)  # larger than the whole cache: not kept
    assert cache.get("huge") is None and cache.get("d") == b"dddddd"
    # A PDF made with a static file that changed since is made again.
    css = tmp_path / "print.css"
    css.write_text("body {}")
    cache.put("e", b"eee", [css])
    assert cache.get("e") == b"eee"
    stat = css.stat()
    os.utime(css, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert cache.get("e") is None
    made = iter([(b"new", [css])])
    assert cache.get_or_render("e", lambda: next(made)) == b"new"
    assert cache.get_or_render("e", lambda: next(made)) == b"new"  # from the cache: the render isn't called


def test_the_cache_can_be_turned_off(tmp_path) -> None:
    from companion import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": f"sqlite:///{tmp_path / 't.sqlite'}",
            "PDF_CACHE_ENTRIES": 0,
        }
    )
    try:
        cache = pdf.pdf_cache(app)
        cache.put("a", b"aaa")
        assert cache.get("a") is None and pdf.pdf_cache(app) is cache
    finally:
        app.extensions["db_engine"].dispose()
