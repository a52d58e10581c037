"""Which language a request is answered in (the device's switch, the club's LANGUAGE, the browser's), the switch
itself, and the pages, the scripts' words and the manifest in French and German."""

from __future__ import annotations

import html as markup
import json
import re

from flask import Flask

from companion import create_app
from companion.web.i18n import COOKIE
from tests.helpers import api_act, csrf_client, post_json


def nav(page: str) -> list[str]:
    """The main menu's words."""
    menu = re.search(r'<nav aria-label="[^"]*">(.*?)</nav>', page, re.DOTALL)
    assert menu
    return re.findall(r">([^<]+)</a>", menu.group(1))


def test_the_browser_language_is_the_default(client) -> None:
    assert nav(client.get("/").get_data(as_text=True)) == ["Play", "Score", "History", "Players"]
    french = client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="fr">' in french and nav(french) == ["Jouer", "Compter", "Historique", "Joueurs"]
    german = client.get("/", headers={"Accept-Language": "de-AT"}).get_data(as_text=True)
    assert '<html lang="de">' in german and nav(german) == ["Spielen", "Werten", "Verlauf", "Spieler"]
    # A language the app doesn't speak falls back to English.
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)


def test_a_page_says_it_varies_by_language(client) -> None:
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_the_switch_keeps_the_choice_on_this_device_and_goes_back(client) -> None:
    page = client.get("/history").get_data(as_text=True)
    assert '<select id="language-switch" name="language">' in page and 'name="next" value="/history"' in page
    response = client.post("/language", data={"language": "de", "next": "/history?game=spires"})
    assert response.status_code == 303 and response.headers["Location"] == "/history?game=spires"
    cookie = response.headers["Set-Cookie"]
    assert f"{COOKIE}=de" in cookie and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    # The device's choice wins over the browser's.
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="de">' in page and '<option value="de" lang="de" selected>Deutsch</option>' in page


def test_the_switch_goes_back_only_within_the_app_and_ignores_unknown_languages(client) -> None:
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)", ""):
        response = client.post("/language", data={"language": "fr", "next": target})
        assert response.headers["Location"] == "/", target
    response = client.post("/language", data={"language": "xx", "next": "/"})
    assert response.status_code == 303 and "Set-Cookie" not in response.headers


def test_the_switch_needs_the_form_token(app: Flask) -> None:
    stranger = app.test_client()
    assert stranger.post("/language", data={"language": "fr"}).status_code == 400


def test_the_club_language_is_the_default_for_a_device_without_a_choice(tmp_path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}", "LANGUAGE": "fr"}
    )
    client = csrf_client(app)
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    client.post("/language", data={"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    app.extensions["db_engine"].dispose()


def script_words(page: str) -> dict:
    """The words base.html gives the scripts (static/js/app.js and queue.js)."""
    found = re.search(r'<meta name="companion-words" content="([^"]*)">', page)
    assert found
    return json.loads(markup.unescape(found.group(1)))


def test_the_scripts_words_come_in_the_page_language(client, play_id) -> None:
    french = {"Accept-Language": "fr"}
    words = script_words(client.get(f"/plays/{play_id}", headers=french).get_data(as_text=True))
    assert words["offline"].startswith("Non enregistré")
    assert words["waiting"] == ["{n} action en attente d'enregistrement.", "{n} actions en attente d'enregistrement."]
    assert words["refused"] == "{label} a été refusé : {words}"
    # Only a tracker carries the offline queue's words: no other page speaks of taps kept or plays in progress.
    assert script_words(client.get("/", headers=french).get_data(as_text=True)) == {"offline": words["offline"]}


def test_the_manifest_names_the_app_in_each_language(client) -> None:
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.de.webmanifest">' in page
    manifest = client.get("/manifest.de.webmanifest").get_json(force=True)
    assert manifest["name"] == "Companion: Brettspiele am Tisch" and manifest["lang"] == "de"
    assert manifest["short_name"] == "Companion" and manifest["start_url"] == "/"
    assert client.get("/manifest.xx.webmanifest").status_code == 404


def test_a_result_finished_in_english_reads_in_the_readers_language(client) -> None:
    # The whys were stored as the finishing device read them; another reader sees them in their own language.
    response = post_json(
        client, "/api/v1/plays", {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    play = response.get_json()["id"]
    api_act(client, play, {"action": "add", "player": "Bob", "field": "towers.red", "delta": 3})
    assert post_json(client, f"/api/v1/plays/{play}/finish", {}).status_code == 200
    english = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "Red 3: 3 cards × 5 = 15 VP." in english
    french = client.get(f"/plays/{play}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Red 3: 3 cards × 5 = 15 VP." not in french and "15 PV" in french
    german = client.get(f"/api/v1/plays/{play}", headers={"Accept-Language": "de"}).get_json()["result"]
    bob = german["players"][1]
    assert bob["total"] == 15 and "15 SP" in " ".join(line["why"] for line in bob["breakdown"])
