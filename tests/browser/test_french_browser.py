"""A tracked Spires game played in French in Chromium (Accept-Language fr): the tracker's words, what an undo
announces, the whys of the result, its log and the score sheet PDF's text, all in French."""

from __future__ import annotations

import io
import re

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture
def french(browser):
    """A phone-sized page whose browser reads French first."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="fr-FR", extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"}
    )
    yield context.new_page()
    context.close()


def act(page, base: str, play: int, body: dict) -> dict:
    """A game action through the API, as another device at the table sends it."""
    response = page.request.post(f"{base}/api/v1/plays/{play}/actions", data=body)
    assert response.status == 200, response.text()
    return response.json()


def test_a_spires_game_in_french(french, live_server: str) -> None:
    page = french
    page.goto(live_server + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    expect(page.get_by_role("navigation", name="Principal")).to_contain_text("Historique")

    started = page.request.post(
        f"{live_server}/api/v1/plays",
        data={"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    assert started.status == 201
    play = started.json()["id"]
    act(page, live_server, play, {"action": "add", "player": "Ann", "field": "crowns", "delta": 2})
    act(page, live_server, play, {"action": "add", "player": "Ann", "field": "towers.red", "delta": 3})
    act(page, live_server, play, {"action": "add", "player": "Bob", "field": "swords", "delta": 1})

    page.goto(f"{live_server}/plays/{play}")
    page.get_by_role("button", name="Annuler la dernière action").click()
    # What the undo took back, said where the player looks, in French.
    expect(page.locator("#notice")).to_contain_text("Annulé : Bob")

    finished = page.request.post(f"{live_server}/api/v1/plays/{play}/finish", data={})
    assert finished.status == 200
    page.goto(f"{live_server}/plays/{play}")
    result = page.locator("#result").text_content() or ""
    # Ann: red 3 (+15), most crowns (+15) = 30; Bob nothing.
    assert "3 cartes × 5 = 15 PV." in result and "PV" in result
    assert "Red 3" in result  # the suit, as printed on the cards
    log = page.request.get(f"{live_server}/plays/{play}/log").text()
    assert "Annulé" in log or "annulé" in log

    from pypdf import PdfReader

    pdf = page.request.get(f"{live_server}/plays/{play}/sheet.pdf")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
    assert "3 cartes × 5 = 15 PV." in text
    assert not re.search(r"\bVP\b", text)
