"""The printed documents in the reader's language (issue 35): a score sheet and a blank pad in the language of the
request that asked for them, the PDF cache keeping each language's copy apart, and the history report in the
language chosen when it was asked for, whoever follows it and in whatever language. PDFs are read back with pypdf."""

from __future__ import annotations

import io
import re
import time

from pypdf import PdfReader

from companion.printing import pdf, report
from companion.store.history_filter import HistoryFilter
from tests.helpers import SPIRES, SPQF
from tests.printing import test_report as reports

# Kept before any test replaces it.
REAL_MAKE_REPORT = report._make_report
FRENCH = {"Accept-Language": "fr"}
GERMAN = {"Accept-Language": "de"}
ENGLISH = {"Accept-Language": "en"}


def save(client, game: str, players: list, day: str) -> int:
    """A finished play saved through the API, played on that day; its id."""
    response = client.post("/api/v1/plays", json={"game": game, "players": players, "played_at": f"{day}T20:00:00Z"})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def pdf_text(data: bytes) -> str:
    """Every page's text, its white space squeezed to single spaces."""
    assert data.startswith(b"%PDF")
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def counted_renders(monkeypatch) -> list[str]:
    """The HTML of every PDF rendered from now on (a PDF served from the cache renders nothing)."""
    renders: list[str] = []
    real = pdf._render

    def counted(html: str):
        renders.append(html)
        return real(html)

    monkeypatch.setattr(pdf, "_render", counted)
    return renders


def test_a_finished_plays_sheet_in_french_then_german_then_english(client, monkeypatch) -> None:
    play = save(client, "spires", SPIRES, "2026-11-20")
    renders = counted_renders(monkeypatch)
    french = pdf_text(client.get(f"/plays/{play}/sheet.pdf", headers=FRENCH).data)
    for words in (
        "Spires feuille de score",
        "Jouée le : 20 nov. 2026",
        "Joueurs dans l'ordre du tour : Ann, Bob",
        "Premier joueur : Ann",
        "★ Gagnant",
        "Total 43 62",
        "Rang 2e 1er",
        "Bob gagne avec 62 PV.",
        "Ce que chaque ligne a rapporté",
        "Companion · compté selon les règles officielles",
        "page 1 sur 1",
    ):
        assert words in french, words
    for english in ("score sheet", "Played", "First player", "Winner", "How each line scored", " VP", "page 1 of"):
        assert english not in french, english

    german = pdf_text(client.get(f"/plays/{play}/sheet.pdf", headers=GERMAN).data)
    for words in (
        "Spires Wertungsbogen",
        "Gespielt am: 20. Nov. 2026",
        "Spieler in Zugreihenfolge: Ann, Bob",
        "Startspieler: Ann",
        "★ Sieger",
        "Summe 43 62",
        "Bob gewinnt mit 62 SP.",
        "Wie jede Zeile gewertet wurde",
        "Seite 1 von 1",
    ):
        assert words in german, words
    assert "feuille" not in german and "First player" not in german

    # English again: the cache kept the French and the German copies apart from it.
    english = pdf_text(client.get(f"/plays/{play}/sheet.pdf", headers=ENGLISH).data)
    for words in (
        "Spires score sheet",
        "Played: 20 Nov 2026",
        "First player: Ann",
        "Bob wins with 62 VP.",
        "page 1 of 1",
    ):
        assert words in english, words
    assert "Gagnant" not in english and "Sieger" not in english
    assert len(renders) == 3
    # Each language's copy is in the cache now: asked again, none is rendered once more.
    again = {
        name: pdf_text(client.get(f"/plays/{play}/sheet.pdf", headers=headers).data)
        for name, headers in (("fr", FRENCH), ("de", GERMAN), ("en", ENGLISH))
    }
    assert again == {"fr": french, "de": german, "en": english} and len(renders) == 3


def test_the_cache_key_says_the_language(app) -> None:
    with app.test_request_context(headers=FRENCH):
        french = pdf.cache_key("<p>Spires</p>")
        assert french.startswith("fr:")
    with app.test_request_context(headers=GERMAN):
        assert pdf.cache_key("<p>Spires</p>") not in (french, pdf.cache_key("<p>SPQF</p>"))


def test_a_blank_pad_in_german(client) -> None:
    german = pdf_text(client.get("/games/spqf/pad.pdf?players=3", headers=GERMAN).data)
    for words in (
        "SPQF Wertungsblock · 3 Spieler",
        "Datum",
        "Startspieler",
        "Summe",
        "Notizen",
        "Regeln",
        "Seite 1 von 1",
    ):
        assert words in german, words
    assert german.count("Name") == 3 and german.count("Farbe") == 3
    for english in ("score pad", "First player", "Total", "Notes", "colour", "page 1"):
        assert english not in german, english
    # The same pad in English is its own copy in the cache.
    english = pdf_text(client.get("/games/spqf/pad.pdf?players=3", headers=ENGLISH).data)
    assert "SPQF score pad · 3 players" in english and "Wertungsblock" not in english


def test_a_solo_pad_in_french(client) -> None:
    french = pdf_text(client.get("/games/spires/pad.pdf?players=1", headers=FRENCH).data)
    assert "Spires bloc de score · solo" in french and "bloc de score vierge : notez les points" in french
    assert "Premier joueur" not in french and "Rang" not in french


def report_job(client, headers: dict[str, str], query: str = "") -> str:
    """The report job a request in that language started (or was shown)."""
    started = client.get(f"/history/report.pdf{query}", headers=headers)
    assert started.status_code == 202
    return re.search(r'hx-get="/history/report/([0-9a-f]{32})"', started.get_data(as_text=True)).group(1)


def test_a_history_report_asked_for_in_french_is_french(client) -> None:
    save(client, "spires", SPIRES, "2026-11-20")
    save(client, "spqf", SPQF, "2026-11-21")
    started = client.get("/history/report.pdf?player=bob", headers=FRENCH).get_data(as_text=True)
    assert "Rapport de l'historique" in started and "Parties : avec bob" in started
    job = re.search(r'hx-get="/history/report/([0-9a-f]{32})"', started).group(1)
    # Followed from a German device: the progress speaks German, the report stays French.
    deadline = time.monotonic() + 120
    while "hx-trigger" in (
        status := client.htmx("GET", f"/history/report/{job}", headers=GERMAN).get_data(as_text=True)
    ):
        assert time.monotonic() < deadline, "the report took too long"
        time.sleep(0.2)
    assert "Der Bericht ist fertig: 2 Partien." in status and "Bericht herunterladen (PDF)" in status
    text = pdf_text(client.get(f"/history/report/{job}.pdf", headers=GERMAN).data)
    for words in (
        "Rapport de l'historique",
        "Parties : avec bob",
        "2 parties terminées, du 20 nov. 2026 au 21 nov. 2026, les plus récentes d'abord.",
        "Joueur Parties Victoires",
        "Ann 2 1 50 % 35,5 43",
        "Victoires par joueur",
        "1 sur 2 (50 %)",
        "Parties par jeu",
        "Joueurs par rang, avec totaux",
        "21 nov. 2026 SPQF Ann 28 · Bob 19 ★ Ann",
        "20 nov. 2026 Spires Bob 62 · Ann 43 ★ Bob",
        "page 1",
    ):
        assert words in text, words
    for english in ("History report", "finished play", "Wins per player", "Nov 2026", "Bericht", "Seite"):
        assert english not in text, english


def test_a_report_being_made_is_shown_only_to_a_request_in_its_language(client, monkeypatch) -> None:
    """A second tap in French is shown the French job; the same filter asked in German starts a German one."""
    started: list[str] = []
    monkeypatch.setattr(report, "_make_report", lambda _app, job, _flt: started.append(job))
    french = report_job(client, FRENCH, "?game=spires")
    assert report_job(client, FRENCH, "?game=spires") == french
    german = report_job(client, GERMAN, "?game=spires")
    assert german != french and report_job(client, GERMAN, "?game=spires") == german
    assert started == [french, german]


def test_a_job_keeps_the_language_it_was_asked_in(app, client, monkeypatch) -> None:
    """The thread renders in the job's language (its row says which), not in its caller's nor the club's."""
    monkeypatch.setattr(report, "_make_report", lambda *_args: None)
    job = report_job(client, GERMAN, "?game=spqf")
    assert report.job_language(app, job) == "de"
    assert report.read_description(report.stored_description("fr", "Spires, avec bob")) == ("fr", "Spires, avec bob")
    # A row that says no language (written before jobs kept one) is read as it stands.
    assert report.read_description("Spires") == (None, "Spires")
    seen: list[tuple[str, str]] = []

    def told(job_state, *_args) -> bytes:
        seen.append((job_state.description, report._("Wins per player")))
        return b"%PDF"

    monkeypatch.setattr(report, "render_report", told)
    with app.test_request_context(headers=FRENCH):
        REAL_MAKE_REPORT(app, job, HistoryFilter(game="spqf"))
    assert seen == [("SPQF", "Siege pro Spieler")]


# The lead's first tests of the issue, kept as they were written.


def sheet(client, play: int, headers: dict | None = None) -> str:
    """The play's score sheet's text, as asked for in that language."""
    response = client.get(f"/plays/{play}/sheet.pdf", headers=headers or {})
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/pdf"
    return reports.pdf_text(response.data)


def test_the_score_sheet_is_in_the_language_of_the_page_that_asked(client) -> None:
    play = reports.save(client, "spires", SPIRES)
    english = sheet(client, play)
    assert "Bob wins with 62 VP." in english
    french = sheet(client, play, FRENCH)
    assert "Bob gagne avec 62 PV." in french and "wins with" not in french and " VP" not in french
    german = sheet(client, play, GERMAN)
    assert "Bob gewinnt mit 62 SP." in german and "gagne" not in german and " VP" not in german
    # Each language has its own cached PDF: English again is English.
    assert sheet(client, play) == english and sheet(client, play, FRENCH) == french


def test_a_blank_pad_in_german_and_its_refusal(client) -> None:
    response = client.get("/games/spires/pad.pdf?players=3", headers=GERMAN)
    assert response.status_code == 200
    text = reports.pdf_text(response.data)
    assert "Wertungsblock" in text and "score pad" not in text
    refused = client.get("/games/spires/pad.pdf?players=9", headers=GERMAN)
    assert refused.status_code == 422 and "Spires ist für 2 bis 4 Spieler; angegeben: 9." in refused.get_data(
        as_text=True
    )


def test_the_history_report_is_made_in_the_language_it_was_asked_in(client) -> None:
    reports.save(client, "spires", SPIRES, day="2026-11-20")
    started = client.get("/history/report.pdf", headers=FRENCH)
    assert started.status_code == 202 and "Rapport de l'historique" in started.get_data(as_text=True)
    job = reports.job_id(started.get_data(as_text=True))
    # Followed from an English device, it is still the French report.
    deadline = time.monotonic() + 120
    while "hx-trigger" in (done := client.htmx("GET", f"/history/report/{job}").get_data(as_text=True)):
        assert time.monotonic() < deadline, "the report took too long"
        time.sleep(0.2)
    assert "The report is ready: 1 play." in done
    text = reports.pdf_text(client.get(f"/history/report/{job}.pdf").data)
    assert "Parties par jeu" in text and "Victoires par joueur" in text and "20 nov. 2026" in text
    assert "Plays per game" not in text and "20 Nov 2026" not in text
    # The same filter asked in German is a report of its own, in German.
    again = client.get("/history/report.pdf", headers=GERMAN)
    assert reports.job_id(again.get_data(as_text=True)) != job and "Verlaufsbericht" in again.get_data(as_text=True)
