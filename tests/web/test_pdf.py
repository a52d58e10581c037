"""The A4 score sheet: rendered by WeasyPrint, read back with pypdf."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from tests.conftest import start_play


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


def test_score_sheet_pdf_text(client) -> None:
    play = finished_play(client)
    response = client.get(f"/plays/{play}/sheet.pdf")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    # A4: 210 × 297 mm, in PostScript points.
    assert abs(float(reader.pages[0].mediabox.width) - 210 / 25.4 * 72) < 0.5
    assert abs(float(reader.pages[0].mediabox.height) - 297 / 25.4 * 72) < 0.5
    for expected in ("Spires", "score sheet", "Ann", "Bob", "Towers of 1-3 cards", "Towers of 4+ cards",
                     "Scroll cards", "Crowns bonus", "Swords bonus", "Quills bonus", "Total", "30", "25"):
        assert expected in text, expected
    assert re.search(r"Ann\s+wins\s+with\s+30\s+VP\.", text)


def test_score_sheet_only_for_finished_plays(client) -> None:
    play = start_play(client, ["Ann", "Bob"])
    assert client.get(f"/plays/{play}/sheet.pdf").status_code == 404
    assert client.get("/plays/999/sheet.pdf").status_code == 404
