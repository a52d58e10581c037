"""The API in the request's language: the same score request with Accept-Language de answers German words for a
person (labels, whys, the winners' sentence, refusals' messages) under the same English keys and codes."""

from __future__ import annotations

from tests.helpers import post_json

BODY = {
    "players": [
        {"name": "Ann", "towers": {"red": 3}, "crowns": 2},
        {"name": "Bob", "towers": {"green": 2}, "swords": 1},
    ]
}


def score(client, language: str, body: dict = BODY):
    """POST /api/v1/score/spires in that language."""
    return client.post("/api/v1/score/spires", json=body, headers={"Accept-Language": language})


def shape(value):
    """The answer's keys and codes, its words left out."""
    if isinstance(value, dict):
        return {
            key: shape(item) for key, item in value.items() if key not in ("label", "why", "winners_text", "tiebreak")
        }
    if isinstance(value, list):
        return [shape(item) for item in value]
    return value


def test_the_same_score_in_german_has_german_words_and_english_keys(client) -> None:
    english, german = score(client, "en").get_json(), score(client, "de").get_json()
    assert shape(german) == shape(english)
    lines = {line["key"]: line for line in german["players"][0]["breakdown"]}
    assert lines["towers"]["why"] == "Red 3: 3 Karten × 5 = 15 SP."
    assert lines["crowns"]["why"] == "Die meisten crowns (2): 15 SP."
    assert english["players"][0]["breakdown"][0]["why"] == "Red 3: 3 cards × 5 = 15 VP."


def test_a_refusal_in_german_names_the_same_fields(client) -> None:
    response = score(client, "de", {"players": [{"name": "Ann", "crowns": -1}]})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["field"] for e in errors] == ["players[0].crowns", "players"]
    assert errors[0]["message"] == "Muss mindestens 0 sein."
    assert errors[1]["message"].startswith("Spires ist für 2 bis 4 Spieler")


def test_the_api_own_messages_follow_accept_language(client) -> None:
    response = client.get("/api/v1/plays/999", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    assert response.get_json()["errors"] == [{"field": "id", "message": "Il n'y a pas de partie 999."}]
    wrong_type = client.post(
        "/api/v1/plays", data="{}", headers={"Accept-Language": "de", "Content-Type": "text/plain"}
    )
    assert wrong_type.status_code == 415
    assert wrong_type.get_json()["errors"][0]["message"].startswith("Sende die Anfrage als application/json")
    assert post_json(client, "/api/v1/plays/999/undo", {}).get_json()["errors"][0]["message"] == "There is no play 999."
