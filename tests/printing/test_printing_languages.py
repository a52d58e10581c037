"""Printed documents in the language of the request that asked for them: a finished play's score sheet, a blank
pad and the history report (made later in a thread, still in the language it was asked in); a sheet in one
language is never served from the cache to a reader of another."""

from __future__ import annotations

import time

from tests.helpers import SPIRES
from tests.printing.test_report import job_id, pdf_text, save

FRENCH = {"Accept-Language": "fr"}
GERMAN = {"Accept-Language": "de"}


def sheet(client, play: int, headers: dict | None = None) -> str:
    """The play's score sheet's text, as asked for in that language."""
    response = client.get(f"/plays/{play}/sheet.pdf", headers=headers or {})
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/pdf"
    return pdf_text(response.data)


def test_the_score_sheet_is_in_the_language_of_the_page_that_asked(client) -> None:
    play = save(client, "spires", SPIRES)
    english = sheet(client, play)
    assert "Bob wins with 62 VP." in english
    french = sheet(client, play, FRENCH)
    assert "Bob gagne avec 62 PV." in french and "wins with" not in french and " VP" not in french
    german = sheet(client, play, GERMAN)
    assert "Bob gewinnt mit 62 SP." in german and "gagne" not in german and " VP" not in german
    # Each language has its own cached PDF: English again is English.
    assert sheet(client, play) == english and sheet(client, play, FRENCH) == french


def test_a_blank_pad_in_german(client) -> None:
    response = client.get("/games/spires/pad.pdf?players=3", headers=GERMAN)
    assert response.status_code == 200
    text = pdf_text(response.data)
    assert "Wertungsblock" in text and "score pad" not in text
    refused = client.get("/games/spires/pad.pdf?players=9", headers=GERMAN)
    assert refused.status_code == 422 and "Spires ist für 2 bis 4 Spieler; angegeben: 9." in refused.get_data(as_text=True)


def test_the_history_report_is_made_in_the_language_it_was_asked_in(client) -> None:
    save(client, "spires", SPIRES, day="2026-11-20")
    started = client.get("/history/report.pdf", headers=FRENCH)
    assert started.status_code == 202 and "Rapport de l'historique" in started.get_data(as_text=True)
    job = job_id(started.get_data(as_text=True))
    # Followed from an English device, it is still the French report.
    deadline = time.monotonic() + 120
    while "hx-trigger" in (done := client.htmx("GET", f"/history/report/{job}").get_data(as_text=True)):
        assert time.monotonic() < deadline, "the report took too long"
        time.sleep(0.2)
    assert "The report is ready: 1 play." in done
    text = pdf_text(client.get(f"/history/report/{job}.pdf").data)
    assert "Parties par jeu" in text and "Victoires par joueur" in text and "20 nov. 2026" in text
    assert "Plays per game" not in text and "20 Nov 2026" not in text
    # The same filter asked in German is a report of its own, in German.
    again = client.get("/history/report.pdf", headers=GERMAN)
    assert job_id(again.get_data(as_text=True)) != job and "Verlaufsbericht" in again.get_data(as_text=True)
