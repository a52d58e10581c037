"""The printed sheets say where and how long (issue 20, part 4): a finished play's score sheet names the place and
the time at the table where known; the history report has them per play, the time played at the top, an ignored
play marked and left out of every figure, a guest left out of the players' lines, and takes the history's place
filter. PDFs are read back as text with pypdf."""

from __future__ import annotations

import io
import re
import time

from pypdf import PdfReader
from sqlmodel import Session

from companion.store import records
from companion.store.models import Play
from tests.helpers import SPIRES, sheet_text

SPYRIUM_TWO = [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}]


def save(client, game: str, players: list, day: str) -> int:
    """A finished play saved through the API, played on that day; its id."""
    response = client.post("/api/v1/plays", json={"game": game, "players": players, "played_at": f"{day}T20:00:00Z"})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def mark(
    app,
    play_id: int,
    *,
    place: str | None = None,
    minutes: int | None = None,
    ignored: bool = False,
    guest: int | None = None,
    unscored: bool = False,
    seats_known: bool = True,
) -> None:
    """Give a saved play what an import may give it: a place, minutes, "ignored", a guest in seat `guest`, no
    scores (the first seat the winner), no seat order."""
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        if place is not None:
            found = records.find_or_add_location(session, place)
            play.location_id = found.id if found else None
        play.duration_min = minutes
        play.ignored = ignored
        play.seats_known = seats_known
        for seat in play.seats:
            if guest is not None and seat.position == guest:
                seat.player_id = None
                seat.name = "Guest"
            if unscored:
                seat.total = None
                seat.breakdown = []
                seat.rank = 1 if seat.position == 0 else 2
            session.add(seat)
        session.add(play)
        session.commit()


def pdf_text(data: bytes) -> str:
    """Every page's text."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).replace("\xa0", " ")


def report_text(client, query: str = "") -> str:
    """The history report of the query's filter, made and fetched as the progress page does; its text."""
    started = client.get(f"/history/report.pdf{query}")
    assert started.status_code == 202
    job = re.search(r'hx-get="/history/report/([0-9a-f]{32})"', started.get_data(as_text=True)).group(1)
    deadline = time.monotonic() + 120
    while "hx-trigger" in client.htmx("GET", f"/history/report/{job}").get_data(as_text=True):
        assert time.monotonic() < deadline, "the report took too long"
        time.sleep(0.2)
    response = client.get(f"/history/report/{job}.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    return pdf_text(response.data)


def test_the_score_sheet_says_where_and_how_long(app, client) -> None:
    play = save(client, "spires", SPIRES, "2026-11-20")
    mark(app, play, place="Café Ωμέγα", minutes=85)
    text = sheet_text(client, play, "spires")
    assert "Played: 20 Nov 2026 Where: Café Ωμέγα Time at the table: 1 h 25 min" in " ".join(text.split())
    plain = save(client, "spires", SPIRES, "2026-11-21")
    text = sheet_text(client, plain, "spires")
    assert "Where:" not in text and "Time at the table" not in text


def test_the_score_sheet_of_a_play_without_scores(app, client) -> None:
    play = save(client, "spyrium", SPYRIUM_TWO, "2026-11-20")
    mark(app, play, guest=1, unscored=True, minutes=30, ignored=True, seats_known=False)
    text = sheet_text(client, play, "spyrium")
    assert "Total — —" in text.splitlines()
    assert "Ann wins." in text and "None" not in text
    words = " ".join(text.split())
    assert "Time at the table: 30 min" in words and "Players: Ann, Guest" in words
    # No turn order to print for a play imported without one; the guest and "ignored" are said.
    assert "turn order" not in words and "First player" not in words
    assert "Guest guest" in words and "Ignored in BG Stats: left out of the statistics." in words


def test_the_report_has_where_and_how_long_and_the_time_played(app, client) -> None:
    flat = save(client, "spyrium", SPYRIUM_TWO, "2026-11-20")
    cafe = save(client, "spyrium", [{"name": "Bob", "vp_track": 50}, {"name": "Ann", "vp_track": 10}], "2026-11-21")
    guest = save(client, "spyrium", [{"name": "Ann", "vp_track": 5}, {"name": "Cy", "vp_track": 9}], "2026-11-22")
    save(client, "spyrium", [{"name": "Ann", "vp_track": 40}, {"name": "Bob", "vp_track": 1}], "2026-11-23")
    mark(app, flat, place="Anna's flat", minutes=85)
    # Ignored: listed and marked, left out of the time played, the players' lines and the charts.
    mark(app, cafe, place="Café", minutes=600, ignored=True)
    # Cy's seat is a guest's, and the play was imported with its winner only.
    mark(app, guest, minutes=45, guest=1, unscored=True)
    lines = report_text(client).splitlines()
    text = " ".join(lines)
    # 85 + 45 minutes: the ignored play's 600 left out, the untimed one too.
    assert "Time played: 2 h 10 min" in text
    assert "Time played adds up the 2 plays whose time at the table is known." in text
    assert "1 is marked ignored: listed, left out of every figure." in text
    assert "23 Nov 2026 Spyrium Ann 40 · Bob 1 ★ Ann" in lines
    assert "22 Nov 2026 Spyrium Ann — · Guest — ★ Ann 45 min at the table" in lines
    assert "21 Nov 2026 Spyrium (ignored) Bob 50 · Ann 10 ★ Bob Café · 10 h" in lines
    # A place and a time too long for the column wrap between the two.
    assert "20 Nov 2026 Spyrium Ann 30 · Bob 20 ★ Ann Anna's flat ·" in lines and "1 h 25 min" in lines
    # The players' lines: Ann won 3 of 3 counted plays (the one without scores too), her average and best over the
    # two with a score; Bob lost both counted plays (his ignored win is not counted); no line for the guest.
    assert "Ann 3 3 100% 35.0 40" in lines
    assert "Bob 2 0 0% 10.5 20" in lines
    assert not any(line.startswith(("Guest ", "Cy ")) for line in lines)


def test_the_report_takes_the_place_filter(app, client) -> None:
    flat = save(client, "spyrium", SPYRIUM_TWO, "2026-11-20")
    save(client, "spyrium", SPYRIUM_TWO, "2026-11-21")
    mark(app, flat, place="Anna's flat", minutes=5)
    text = report_text(client, "?location=ANNA'S FLAT")
    assert "Plays: at ANNA'S FLAT" in text and "1 finished play, 20 Nov 2026 to 20 Nov 2026" in text
    assert "Time played: 5 min" in text
    nowhere = report_text(client, "?location=Nowhere")
    assert "No finished play matches." in nowhere and "Time played" not in nowhere
    refused = client.get("/history/report.pdf?location=" + "x" * 61)
    assert refused.status_code == 422 and "A place has at most 60 characters." in refused.get_data(as_text=True)
