"""Every kind of page walked in French and in German: no English sentence is left. A page's words (its text and the
words of its attributes a person hears or reads: aria-label, title, placeholder, alt) are searched for English's
own small words, which neither French nor German writes; game terms printed on the components and the players'
names are allowed."""

from __future__ import annotations

import html as markup
import re

import pytest

from companion import create_app
from companion.games import GAMES
from tests.helpers import api_act, csrf_client, post_json, save

PAIR = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]
# English's own function words: none is a French or a German word ("was" is German, "on" French: left out).
ENGLISH = {
    "the",
    "and",
    "of",
    "with",
    "your",
    "you",
    "is",
    "are",
    "this",
    "that",
    "for",
    "to",
    "from",
    "by",
    "each",
    "every",
    "its",
    "has",
    "have",
    "will",
    "when",
    "which",
    "what",
    "who",
    "how",
    "there",
    "their",
    "than",
    "after",
    "before",
    "nothing",
    "yet",
    "not",
    "no",
    "or",
    "it",
    "be",
    "been",
    "can",
    "here",
    "shows",
    "show",
    "can't",
    "don't",
    "isn't",
    "won't",
}
# Game terms and names as printed on the components, kept in English (README, "Languages"); and the languages'
# own names in the switch.
ALLOWED = [
    "Conquest of Speros",
    "King's Appraisal",
    "English",
]
HEARD = re.compile(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"')


def words_of(page: str) -> str:
    """What a person reads or hears of a page: its text and its labelled attributes, scripts and styles left out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    page = re.sub(r'<option[^>]*\slang="en"[^>]*>.*?</option>', " ", page, flags=re.DOTALL)
    heard = " ".join(HEARD.findall(page))
    text = re.sub(r"<[^>]+>", " ", page)
    words = markup.unescape(text + " " + heard)
    for term in ALLOWED:
        words = words.replace(term, " ")
    return " ".join(words.split())


def english_in(page: str) -> list[str]:
    """Each stretch of the page around an English word."""
    text = words_of(page)
    found = []
    # Whole words of any alphabet: "notée" is not "not".
    for match in re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?", text):
        if match.group(0).lower() in ENGLISH:
            found.append(text[max(0, match.start() - 40) : match.end() + 40])
    return found


def track(client, game: str, players: list[dict] = PAIR) -> int:
    """A play of the game tracked live through the API; its id."""
    response = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def walked(client) -> list[str]:
    """Every kind of page a group opens: home, new play, the four trackers after a few taps, their results with the
    story and log, a play put aside, history and its lists, correcting and deleting a play, statistics, a player's
    and a game's page, calculators, import, an error page, the offline page."""
    urls = ["/", "/history", "/players", "/calculator/", "/import", "/offline", "/plays/nowhere"]
    for game in GAMES:
        urls += [f"/plays/new?game={game}", f"/calculator/{game}", f"/games/{game}"]
        play = track(client, game)
        urls += [f"/plays/{play}", f"/plays/{play}/join"]
    spires = track(client, "spires")
    api_act(client, spires, {"action": "add", "player": "Ann", "field": "crowns", "delta": 2})
    api_act(client, spires, {"action": "add", "player": "Bob", "field": "towers.red", "delta": 3})
    urls.append(f"/plays/{spires}")
    assert post_json(client, f"/api/v1/plays/{spires}/finish", {}).status_code == 200
    urls += [f"/plays/{spires}", f"/plays/{spires}/log", f"/history/{spires}/correct", f"/history/{spires}/delete"]
    aside = track(client, "spqf")
    assert client.post(f"/plays/{aside}/abandon").status_code in (200, 303)
    urls += [f"/plays/{aside}", "/history/put-aside", "/history/in-progress"]
    save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 28}])
    gone = save(client, "spyrium", [{"name": "Ann", "vp_track": 20}, {"name": "Bob", "vp_track": 21}])
    assert client.post(f"/history/{gone}/delete").status_code in (200, 303)
    urls.append("/history/deleted")
    roster = client.get("/players").get_data(as_text=True)
    urls += sorted(set(re.findall(r'href="(/players/\d+)"', roster)))
    return urls


@pytest.mark.parametrize("language", ["fr", "de"])
def test_no_english_sentence_is_left(client, language: str) -> None:
    left = {}
    for url in walked(client):
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code in (200, 404), url
        if found := english_in(response.get_data(as_text=True)):
            left[url] = found
    assert left == {}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_access_page_and_its_refusal_have_no_english(tmp_path, language: str) -> None:
    # A club server behind an access code: its page, and the same page refusing a wrong code.
    base = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"}
    client = csrf_client(create_app({**base, "COMPANION_ACCESS_CODE": "tarte-tatin"}))
    heard = {"Accept-Language": language}
    page = client.get("/access?next=/history", headers=heard)
    refused = client.post("/access", data={"code": "pizza", "next": "/history"}, headers=heard)
    assert page.status_code == 200 and refused.status_code in (401, 403, 422)
    assert english_in(page.get_data(as_text=True)) == []
    assert english_in(refused.get_data(as_text=True)) == []
