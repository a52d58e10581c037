"""The history report (/history/report.pdf?<the history's filter>): made in the background with its progress shown,
then a PDF of the plays table, the players' figures and the charts, read back with pypdf."""

from __future__ import annotations

import io
import re
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from pypdf import PdfReader
from sqlmodel import Session

from bench.seed import seed_plays
from companion import create_app
from companion.printing import report
from companion.store.history_filter import HistoryFilter
from companion.store.models import Play, ReportJob
from tests.helpers import SPIRES, SPIRES_SOLO, SPQF, csrf_client

# Kept before any test replaces it.
REAL_MAKE_REPORT = report._make_report


def save(client, game: str, players: list, options: dict | None = None, day: str = "2026-11-20") -> int:
    """A finished play saved through the API, played on that day; its id."""
    body = {"game": game, "players": players, "played_at": f"{day}T20:00:00+00:00"}
    if options:
        body["options"] = options
    response = client.post("/api/v1/plays", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def job_id(html: str) -> str:
    """The report job a progress page polls."""
    return re.search(r'hx-get="/history/report/([0-9a-f]{32})"', html).group(1)


def wait_for(client, job: str, seconds: float = 120) -> str:
    """Poll the progress fragment as htmx does until the report is ready; its last fragment."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        fragment = client.htmx("GET", f"/history/report/{job}")
        assert fragment.status_code == 200
        html = fragment.get_data(as_text=True)
        assert "<html" not in html
        if "hx-trigger" not in html:
            return html
        time.sleep(0.2)
    raise AssertionError("the report took too long")


def pdf_text(data: bytes) -> str:
    """Every page's text."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.fixture
def history(client, app) -> dict[str, int]:
    """Spires: Bob 62 beats Ann 43; SPQF: Ann 28 beats Bob 19; a solo Spires of Ann (60); an SPQF play deleted."""
    plays = {
        "spires": save(client, "spires", SPIRES, day="2026-11-20"),
        "spqf": save(client, "spqf", SPQF, day="2026-11-21"),
        "solo": save(client, "spires", SPIRES_SOLO, {"solo": True, "discard": {"crowns": 1}}, day="2026-11-22"),
        "deleted": save(client, "spqf", [{"name": "Zed", "vp_tokens": 5}, {"name": "Bob"}], day="2026-11-23"),
    }
    with Session(app.extensions["db_engine"]) as session:
        deleted = session.get(Play, plays["deleted"])
        deleted.deleted_at = datetime.now(UTC)
        session.add(deleted)
        session.commit()
    return plays


def test_the_report_of_the_whole_history(client, history) -> None:
    started = client.get("/history/report.pdf")
    assert started.status_code == 202
    page = started.get_data(as_text=True)
    assert "<html" in page and "History report" in page and 'hx-trigger="every 1s"' in page
    job = job_id(page)
    done = wait_for(client, job)
    assert "The report is ready: 3 plays." in done and f'href="/history/report/{job}.pdf"' in done
    # The progress page itself, opened again, is a whole page.
    assert "<html" in client.get(f"/history/report/{job}").get_data(as_text=True)
    response = client.get(f"/history/report/{job}.pdf")
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == 'attachment; filename="history-report.pdf"'
    text = pdf_text(response.data)
    lines = text.splitlines()
    assert "Plays: Every game, every player" in text
    assert "3 finished plays, 20 Nov 2026 to 22 Nov 2026, newest first." in text
    # The plays table: newest first, players by rank with their totals, the winners marked; solo has no winner.
    assert "22 Nov 2026 Spires (solo) Ann 60 –" in lines
    assert "21 Nov 2026 SPQF Ann 28 · Bob 19 ★ Ann" in lines
    assert "20 Nov 2026 Spires Bob 62 · Ann 43 ★ Bob" in lines
    assert lines.index("22 Nov 2026 Spires (solo) Ann 60 –") < lines.index("21 Nov 2026 SPQF Ann 28 · Bob 19 ★ Ann")
    # The players' figures: multiplayer plays, wins, win rate, average, best; the solo play counted apart.
    assert "Ann 2 1 50% 35.5 43 1" in lines and "Bob 2 1 50% 40.5 62" in lines
    # The charts, their values written out; the deleted play is nowhere.
    assert "Wins per player" in text and "Plays per game" in text and "1 of 2 (50%)" in text
    assert "Zed" not in text and "23 Nov 2026" not in text


def test_the_report_follows_the_filter(client, history) -> None:
    job = job_id(
        client.get("/history/report.pdf?game=spires&date_from=2026-11-20&date_to=2026-11-21").get_data(as_text=True)
    )
    wait_for(client, job)
    text = pdf_text(client.get(f"/history/report/{job}.pdf").data)
    assert "Plays: Spires, 20 Nov 2026 to 21 Nov 2026" in text
    assert "1 finished play, 20 Nov 2026 to 20 Nov 2026, newest first." in text
    assert "SPQF" not in text and "(solo)" not in text and "Bob 62 · Ann 43" in text


def test_the_report_is_printed_on_the_paper_set(app, client, history) -> None:
    app.config["PAPER_SIZE"] = "Letter"
    job = job_id(client.get("/history/report.pdf").get_data(as_text=True))
    wait_for(client, job)
    reader = PdfReader(io.BytesIO(client.get(f"/history/report/{job}.pdf").data))
    assert {(round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in reader.pages} == {
        (612, 792)
    }


def test_a_filter_that_matches_nothing(client, history) -> None:
    job = job_id(client.get("/history/report.pdf?player=Nobody").get_data(as_text=True))
    assert "The report is ready: 0 plays." in wait_for(client, job)
    assert "No finished play matches." in pdf_text(client.get(f"/history/report/{job}.pdf").data)


@pytest.mark.parametrize(
    ("query", "message"),
    [("game=chess", "chess”; choose one from the list."), ("date_from=yesterday", "Give a date as year-month-day")],
)
def test_a_bad_filter_is_refused_with_its_message(client, query: str, message: str) -> None:
    response = client.get(f"/history/report.pdf?{query}")
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def add_job(app, **values) -> ReportJob:
    """A job row as a server making it would have written it."""
    job = ReportJob(**{"id": uuid.uuid4().hex, "description": "", **values})
    with Session(app.extensions["db_engine"]) as session:
        session.add(job)
        session.commit()
        session.refresh(job)
    return job


def test_unknown_and_unfinished_reports(app, client) -> None:
    assert client.get(f"/history/report/{'0' * 32}").status_code == 404
    assert client.get(f"/history/report/{'0' * 32}.pdf").status_code == 404
    job = add_job(app, total=10, done=4)
    waiting = client.htmx("GET", f"/history/report/{job.id}").get_data(as_text=True)
    assert "Rendering… 4 of 10 plays" in waiting and 'hx-trigger="every 1s"' in waiting
    assert '<progress max="10" value="4">' in waiting
    early = client.get(f"/history/report/{job.id}.pdf")
    assert early.status_code == 303 and early.headers["Location"].endswith(f"/history/report/{job.id}")
    failed = add_job(app, error="The report could not be made.")
    html = client.htmx("GET", f"/history/report/{failed.id}").get_data(as_text=True)
    assert "could not be made" in html and "hx-trigger" not in html
    expired = add_job(app, pdf=b"%PDF", started_at=datetime.now(UTC) - timedelta(seconds=report.KEEP_SECONDS + 1))
    assert client.get(f"/history/report/{expired.id}").status_code == 404


@pytest.mark.parametrize("htmx", [True, False])
def test_a_job_whose_server_stopped_says_so_and_is_made_again(app, client, monkeypatch, htmx) -> None:
    """A server killed while it made a report leaves a row that stops moving: past HEARTBEAT_STALE_SECONDS the page
    says so and stops asking, and the same filter asked again starts a new job rather than wait for it."""
    monkeypatch.setattr(report, "_make_report", lambda *_args: None)
    first = job_id(client.get("/history/report.pdf?game=spires").get_data(as_text=True))
    with Session(app.extensions["db_engine"]) as session:
        row = session.get(ReportJob, first)
        row.total, row.done = 40, 10
        row.heartbeat_at = datetime.now(UTC) - timedelta(seconds=report.HEARTBEAT_STALE_SECONDS + 1)
        session.add(row)
        session.commit()
    answer = client.htmx("GET", f"/history/report/{first}") if htmx else client.get(f"/history/report/{first}")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and ("<html" in html) is not htmx
    assert report.STOPPED in html and "hx-trigger" not in html
    again = job_id(client.get("/history/report.pdf?game=spires").get_data(as_text=True))
    assert again != first


def test_asked_again_while_it_is_made_the_same_report_is_shown(app, client, monkeypatch) -> None:
    """A second tap or a reload starts no second thread for the same filter; a report purged from the kept jobs
    while it waited is never rendered."""
    started: list[str] = []
    monkeypatch.setattr(report, "_make_report", lambda _app, job, _flt: started.append(job))
    first = job_id(client.get("/history/report.pdf?game=spires").get_data(as_text=True))
    again = job_id(client.get("/history/report.pdf?game=spires").get_data(as_text=True))
    other = job_id(client.get("/history/report.pdf?game=spqf").get_data(as_text=True))
    assert first == again != other and started == [first, other]

    rendered: list[str] = []
    monkeypatch.setattr(report, "render_report", lambda job, *_args: rendered.append(job.id) or b"%PDF")
    REAL_MAKE_REPORT(app, "f" * 32, HistoryFilter())  # no row: purged, or never written
    assert rendered == []
    # The database keeps the newest KEEP_JOBS: older ones are forgotten as new ones start.
    for game in ("spyrium", "speros", *[f"spires&player=p{n}" for n in range(report.KEEP_JOBS)]):
        client.get(f"/history/report.pdf?game={game}")
    assert client.get(f"/history/report/{first}").status_code == 404


def test_a_report_started_on_one_server_is_served_by_another(database_url) -> None:
    """Two app servers on one database: the report started through the first is followed and downloaded through
    the second, which never made it."""
    first, second = (create_app({"TESTING": True, "SECRET_KEY": "club", "DATABASE_URL": database_url}) for _ in "ab")
    try:
        starter, follower = csrf_client(first), csrf_client(second)
        save(starter, "spires", SPIRES, day="2026-11-20")
        save(follower, "spqf", SPQF, day="2026-11-21")
        job = job_id(starter.get("/history/report.pdf?player=bob").get_data(as_text=True))
        assert "The report is ready: 2 plays." in wait_for(follower, job)
        assert report.RENDERING_EXTENSION not in second.extensions  # the second made nothing
        download = follower.get(f"/history/report/{job}.pdf")
        assert download.status_code == 200 and download.headers["Content-Type"] == "application/pdf"
        text = pdf_text(download.data)
        assert "Plays: with bob" in text and "20 Nov 2026 Spires Bob 62 · Ann 43 ★ Bob" in text.splitlines()
    finally:
        for app in (first, second):
            app.extensions["db_engine"].dispose()


def test_the_parts_join_into_one_report_without_short_pages(app, client, monkeypatch) -> None:
    # 120 plays laid out 25 at a time: every play once, in order; the page numbers run on; every page of the
    # table but the last is full (the same number of rows give or take the wrapping of long names).
    seed_plays(app.extensions["db_engine"], 120, seed=1)
    monkeypatch.setattr(report, "PART_ROWS", 25)
    said: list[int] = []
    real = report.render_report

    def counted(job, rows, players, games, progress):
        def told(done: int) -> None:
            said.append(done)
            progress(done)

        return real(job, rows, players, games, told)

    monkeypatch.setattr(report, "render_report", counted)
    job = job_id(client.get("/history/report.pdf").get_data(as_text=True))
    wait_for(client, job)
    reader = PdfReader(io.BytesIO(client.get(f"/history/report/{job}.pdf").data))
    pages = [page.extract_text() for page in reader.pages]
    assert [re.search(r"page (\d+)\s*$", text).group(1) for text in pages] == [str(n) for n in range(1, len(pages) + 1)]
    rows_per_page = [len(re.findall(r"^\d{1,2} \w{3} \d{4} ", text, re.MULTILINE)) for text in pages]
    table = [count for count in rows_per_page if count]
    assert sum(table) == 120 and len(table) >= 3
    assert min(table[:-1]) >= max(table[:-1]) - 3, rows_per_page
    assert said == sorted(said) and said[-1] == 120 and len(said) >= 4
    days = [
        line.split(" ", 3)[:3]
        for text in pages
        for line in text.splitlines()
        if re.match(r"\d{1,2} \w{3} \d{4} ", line)
    ]
    stamps = [datetime.strptime(" ".join(day), "%d %b %Y").replace(tzinfo=UTC) for day in days]
    assert stamps == sorted(stamps, reverse=True)


def test_the_report_and_the_sheets_on_each_database(db_client) -> None:
    client, _app = db_client
    play = save(client, "spires", SPIRES, day="2026-11-20")
    save(client, "spqf", SPQF, day="2026-11-21")
    job = job_id(client.get("/history/report.pdf?player=bob").get_data(as_text=True))
    assert "The report is ready: 2 plays." in wait_for(client, job)
    text = pdf_text(client.get(f"/history/report/{job}.pdf").data)
    assert "Plays: with bob" in text and "20 Nov 2026 Spires Bob 62 · Ann 43 ★ Bob" in text.splitlines()
    assert "Total 43 62" in pdf_text(client.get(f"/plays/{play}/sheet.pdf").data).splitlines()
    assert client.get("/games/spires/pad.pdf?players=2").status_code == 200


@pytest.mark.parametrize("job", ["%00", "a" * 31 + "%00", "../etc", "A" * 32, "0" * 33])
def test_a_job_id_that_cannot_be_one_is_the_404(db_client, job) -> None:
    client, _app = db_client
    for url in (f"/history/report/{job}", f"/history/report/{job}.pdf"):
        assert client.get(url).status_code == 404
        assert client.htmx("HEAD", url).status_code == 404
