"""The score sheet: laid out like a score pad, rendered by WeasyPrint, read back with pypdf."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from sqlmodel import Session, select

from companion import create_app
from companion.printing.pdf import paper_size
from companion.store.models import Play, Seat
from tests.helpers import csrf_client, start_play

A4 = (210 / 25.4 * 72, 297 / 25.4 * 72)
LETTER = (8.5 * 72, 11 * 72)


def finished_play(client) -> int:
    """A finished two-player Spires play: Ann 30 (red 3, scroll 15), Bob 25 (most swords, 1 blue)."""
    play = start_play(client, ["Ann", "Bob"])
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    ann, bob = re.findall(r'id="seat-(\d+)"', html)
    client.post(f"/plays/{play}/seats/{ann}", data={"field": "towers.red", "value": "3"})
    client.post(f"/plays/{play}/seats/{ann}", data={"field": "scroll_vp", "value": "15"})
    client.post(f"/plays/{play}/seats/{bob}", data={"field": "swords", "value": "2"})
    client.post(f"/plays/{play}/seats/{bob}", data={"field": "towers.blue", "value": "1"})
    client.post(f"/plays/{play}/finish")
    return play


def pdf_text(data: bytes) -> str:
    """Every page's text, pages joined by newlines."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def page_size(data: bytes) -> tuple[float, float]:
    """The first page's width and height in PostScript points."""
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return float(box.width), float(box.height)


def test_score_sheet_pdf_text(client) -> None:
    play = finished_play(client)
    response = client.get(f"/plays/{play}/sheet.pdf")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    text = pdf_text(response.data)
    width, height = page_size(response.data)
    assert abs(width - A4[0]) < 0.5 and abs(height - A4[1]) < 0.5
    for expected in (
        "Spires",
        "score sheet",
        "Ann",
        "Bob",
        "Towers of 1-3 cards",
        "Towers of 4+ cards",
        "Scroll cards",
        "Crowns bonus",
        "Swords bonus",
        "Quills bonus",
        "Total",
        "30",
        "25",
    ):
        assert expected in text, expected
    assert re.search(r"Ann\s+wins\s+with\s+30\s+VP\.", text)


def test_the_sheet_is_a_grid_of_lines_by_players(client) -> None:
    play = finished_play(client)
    text = pdf_text(client.get(f"/plays/{play}/sheet.pdf").data)
    lines = text.splitlines()
    # The header row names the players in turn order, the winner marked; each line of the game is a row with
    # both players' points; then the total row and the rank row.
    assert re.search(r"Ann\s*★ Winner\s*Bob", text)
    for row in (
        "Towers of 1-3 cards +15 +5",
        "Towers of 4+ cards 0 0",
        "Scroll cards +15 0",
        "Crowns bonus 0 0",
        "Swords bonus 0 +20",
        "Quills bonus 0 0",
        "Total 30 25",
        "Rank 1st 2nd",
    ):
        assert row in lines, row
    # The winners' sentence and the reasons come below the grid.
    below = text.index("Rank 1st 2nd")
    assert text.index("Ann wins with 30 VP.") > below
    assert text.index("How each line scored") > below
    assert "Red 3: 3 cards × 5 = 15 VP." in text


def test_the_sheet_shows_date_notes_first_player_and_colours_but_no_internal_identifiers(app, client) -> None:
    play = finished_play(client)
    with Session(app.extensions["db_engine"]) as session:
        stored = session.get(Play, play)
        stored.notes = "Friday at Cleo's: the new sleeves."
        session.add(stored)
        for seat, colour in zip(
            session.exec(select(Seat).where(Seat.play_id == play).order_by(Seat.position)), ("red", "blue"), strict=True
        ):
            seat.colour = colour
            session.add(seat)
        session.commit()
        rules_version, played = stored.rules_version, stored.played_at
    text = pdf_text(client.get(f"/plays/{play}/sheet.pdf").data)
    assert f"Played: {played.day} {played:%b %Y}" in text
    assert "Players in turn order: Ann, Bob" in text and "First player: Ann" in text
    assert "Notes: Friday at Cleo's: the new sleeves." in text
    assert re.search(r"Ann\s*red\s*★ Winner\s*Bob\s*blue", text)
    for internal in (rules_version, "rules-notes", f"#{play}", "play #"):
        assert internal not in text, internal


def test_a_tie_break_is_said_below_the_grid(client) -> None:
    # Ann and Bob both 20 VP; Ann's tall tower costs her 4 VP, so Bob has fewer negative points and wins.
    body = {
        "game": "spires",
        "players": [
            {"name": "Ann", "towers": {"red": 4}, "scroll_vp": 24},
            {"name": "Bob", "towers": {"blue": 2}, "scroll_vp": 10},
        ],
    }
    saved = client.post("/api/v1/plays", json=body)
    assert saved.status_code == 201, saved.get_data(as_text=True)
    text = pdf_text(client.get(f"/plays/{saved.get_json()['id']}/sheet.pdf").data)
    assert "Total 20 20" in text.splitlines() and "Rank 2nd 1st" in text.splitlines()
    squeezed = " ".join(text.split())
    assert "Ann and Bob tied on 20 VP. Tie-break, fewest negative points: Bob 0 VP, Ann −4 VP." in squeezed
    assert squeezed.index("Tie-break") > squeezed.index("Rank 2nd 1st")


def test_a_solo_sheet_has_no_rank_and_says_the_kings_appraisal(client) -> None:
    body = {
        "game": "spires",
        "players": [{"name": "Ann", "towers": {"red": 3}, "crowns": 2, "scroll_vp": 30}],
        "options": {"solo": True, "discard": {"crowns": 1}},
    }
    saved = client.post("/api/v1/plays", json=body)
    text = pdf_text(client.get(f"/plays/{saved.get_json()['id']}/sheet.pdf").data)
    assert "Solo game: Ann" in text and "Total 60" in text.splitlines()
    assert "Rank" not in text and "First player" not in text and "Winner" not in text
    assert "King's Appraisal: A few days in the stocks" in " ".join(text.split())


def test_an_imported_play_without_a_breakdown_shows_totals_and_ranks(app, client) -> None:
    play = finished_play(client)
    with Session(app.extensions["db_engine"]) as session:
        for seat in session.exec(select(Seat).where(Seat.play_id == play)):
            seat.breakdown = []
            session.add(seat)
        session.commit()
    text = pdf_text(client.get(f"/plays/{play}/sheet.pdf").data)
    lines = text.splitlines()
    assert "Total 30 25" in lines and "Rank 1st 2nd" in lines
    assert "No breakdown was recorded for this play." in text
    assert "Scroll cards" not in text and "How each line scored" not in text
    assert re.search(r"Ann\s+wins\s+with\s+30\s+VP\.", text)


@pytest.mark.parametrize(("setting", "size"), [(None, A4), ("A4", A4), ("Letter", LETTER), ("letter", LETTER)])
def test_the_paper_size_setting(tmp_path, setting: str | None, size: tuple[float, float]) -> None:
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"}
    if setting is not None:
        config["PAPER_SIZE"] = setting
    app = create_app(config)
    client = csrf_client(app)
    play = finished_play(client)
    width, height = page_size(client.get(f"/plays/{play}/sheet.pdf").data)
    assert abs(width - size[0]) < 0.5 and abs(height - size[1]) < 0.5
    app.extensions["db_engine"].dispose()


def test_the_paper_size_is_read_from_the_instance_config(tmp_path, monkeypatch) -> None:
    (tmp_path / "config.py").write_text(
        f'SECRET_KEY = "x"\nDATABASE_URL = "sqlite:///{tmp_path / "db.sqlite"}"\nPAPER_SIZE = "Letter"\n'
    )
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    assert app.config["PAPER_SIZE"] == "Letter"
    with app.test_request_context():
        from companion.printing.pdf import app_paper

        assert app_paper().css == "letter"
    app.extensions["db_engine"].dispose()


def test_paper_sizes() -> None:
    assert paper_size("A4").css == "A4" and paper_size(" letter ").css == "letter"
    # A typo lays out for A4 (and the app logs it) rather than failing every PDF.
    assert paper_size("Leter").name == "A4" and paper_size(None).name == "A4"


def test_score_sheet_only_for_finished_plays(client) -> None:
    play = start_play(client, ["Ann", "Bob"])
    assert client.get(f"/plays/{play}/sheet.pdf").status_code == 404
    assert client.get("/plays/999/sheet.pdf").status_code == 404
