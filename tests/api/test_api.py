"""The JSON API contract: /api/v1/score/<game>, /api/v1/plays and /api/v1/plays/<id>, answers and refusals."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from tests.helpers import SPEROS, SPEROS_OPTIONS, SPIRES, SPIRES_SOLO, SPQF, SPYRIUM, post_json

needs_speros = pytest.mark.skipif("speros" not in GAMES, reason="Conquest of Speros is not registered yet")


# (game, players, options or None, totals by name, winners), each worked out by hand from the rules modules' docs.
SCORED = {
    # Ann: (3+2)×5 + 5×−1 + 8 scroll + 15 crowns = 43; Bob: 4×5 + 12 + 20 swords + 10 quills = 62.
    "spires": ("spires", SPIRES, None, {"Ann": 43, "Bob": 62}, ["Bob"]),
    # 3×5 + 30 scroll + 15 crowns (2 ≥ 1 in the discard pile) = 60: "a few days in the stocks".
    "spires-solo": ("spires", SPIRES_SOLO, {"solo": True, "discard": {"crowns": 1}}, {"Ann": 60}, ["Ann"]),
    # Ann: 10 + 9 (level 3) + 4 + 3 bonus + 2 = 28; Bob: 12 + 6 + 1 = 19.
    "spqf": ("spqf", SPQF, None, {"Ann": 28, "Bob": 19}, ["Ann"]),
    # The same with a table read off the reference card: level 3 = 8, level 2 = 4.
    "spqf-level-vp": ("spqf", SPQF, {"level_vp": [0, 2, 4, 8, 11, 14]}, {"Ann": 27, "Bob": 17}, ["Ann"]),
    # Ann: 30 + (3+5+2) + (4+2) = 46; Bob: 35 + 4 = 39.
    "spyrium": ("spyrium", SPYRIUM, None, {"Ann": 46, "Bob": 39}, ["Ann"]),
    # Ann: 10 captured + 3 (one set) + 4 minions + 3 general + 5 best objective + 3 mastery = 28;
    # Bob: 4 + 3 unfamiliar minions + 3 mastery = 10 (his one card, a crystal, makes no set).
    "speros": pytest.param(
        "speros", SPEROS, SPEROS_OPTIONS, {"Ann": 28, "Bob": 10}, ["Ann"], marks=needs_speros, id="speros"
    ),
}


def score(client, game: str, players: list[dict[str, Any]], options: dict[str, Any] | None = None):
    """POST /api/v1/score/<game>."""
    body: dict[str, Any] = {"players": players}
    if options is not None:
        body["options"] = options
    return post_json(client, f"/api/v1/score/{game}", body)


def save(client, game: str, players: list[dict[str, Any]], **more: Any):
    """POST /api/v1/plays."""
    return post_json(client, "/api/v1/plays", {"game": game, "players": players, **more})


def assert_well_formed(answer: dict[str, Any], game_id: str) -> None:
    """Every breakdown key of the game, in order, for every player; totals are the sums; winners have rank 1."""
    keys = [key for key, _label in GAMES[game_id].breakdown]
    assert answer["game"] == game_id
    for player in answer["players"]:
        assert [line["key"] for line in player["breakdown"]] == keys
        assert player["total"] == sum(line["points"] for line in player["breakdown"])
        assert all(set(line) == {"key", "label", "points", "why"} and line["why"] for line in player["breakdown"])
    assert answer["winners"] == [p["name"] for p in answer["players"] if p["rank"] == 1]


# --- POST /api/v1/score/<game> ---


@pytest.mark.parametrize(("game", "players", "options", "totals", "winners"), SCORED.values(), ids=SCORED.keys())
def test_score_each_game(client, game, players, options, totals, winners) -> None:
    response = score(client, game, players, options)
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    answer = response.get_json()
    assert_well_formed(answer, game)
    assert {p["name"]: p["total"] for p in answer["players"]} == totals
    assert answer["winners"] == winners
    assert set(answer) >= {"game", "players", "winners", "tiebreak"}


def test_score_answer_is_exactly_the_result_dict(client) -> None:
    expected = GAMES["spqf"].score_raw(SPQF, None).to_dict()
    assert score(client, "spqf", SPQF).get_json() == json.loads(json.dumps(expected))


def test_players_come_back_in_request_order(client) -> None:
    answer = score(client, "spires", list(reversed(SPIRES))).get_json()
    assert [p["name"] for p in answer["players"]] == ["Bob", "Ann"]
    assert [p["rank"] for p in answer["players"]] == [1, 2]


def test_spires_solo_has_the_kings_appraisal(client) -> None:
    answer = score(client, "spires", SPIRES_SOLO, {"solo": True, "discard": {"crowns": 1}}).get_json()
    assert answer["appraisal"] == "stocks"
    assert "stocks" in answer["appraisal_text"]
    multi = score(client, "spires", SPIRES).get_json()
    assert "appraisal" not in multi


def test_spqf_level_table_changes_the_level_line(client) -> None:
    default = score(client, "spqf", SPQF).get_json()
    custom = score(client, "spqf", SPQF, {"level_vp": [0, 2, 4, 8, 11, 14]}).get_json()
    level = [next(ln["points"] for ln in p["breakdown"] if ln["key"] == "civ_level") for p in custom["players"]]
    assert level == [8, 4]
    assert [p["total"] for p in default["players"]] == [28, 19]


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("spires", [{"name": "Ann", "towers": {"red": 2}}, {"name": "Bob", "towers": {"blue": 2}}, {"name": "Cy"}]),
        ("spyrium", [{"name": "Ann", "vp_track": 20}, {"name": "Bob", "vp_track": 20}, {"name": "Cy", "vp_track": 10}]),
    ],
    ids=["spires", "spyrium"],
)
def test_players_still_tied_share_a_rank_and_the_next_skips(client, game, players) -> None:
    answer = score(client, game, players).get_json()
    assert [p["rank"] for p in answer["players"]] == [1, 1, 3]
    assert answer["winners"] == ["Ann", "Bob"]
    assert "share the victory" in answer["tiebreak"]
    assert_well_formed(answer, game)


def test_a_tie_break_splits_a_tie(client) -> None:
    players = [{"name": "Ann", "vp_tokens": 9, "civ_level": 3}, {"name": "Bob", "vp_tokens": 12, "civ_level": 2}]
    answer = score(client, "spqf", players).get_json()
    assert [p["total"] for p in answer["players"]] == [18, 18]
    assert [p["rank"] for p in answer["players"]] == [1, 2]
    assert "highest Civilization Level" in answer["tiebreak"]


def test_no_tie_means_no_tiebreak_sentence(client) -> None:
    assert score(client, "spqf", SPQF).get_json()["tiebreak"] is None


def test_options_may_be_left_out_or_null(client) -> None:
    assert post_json(client, "/api/v1/score/spqf", {"players": SPQF, "options": None}).status_code == 200
    assert post_json(client, "/api/v1/score/spqf", {"players": SPQF}).status_code == 200


@needs_speros
def test_speros_players_carry_their_colour(client) -> None:
    answer = score(client, "speros", SPEROS, SPEROS_OPTIONS).get_json()
    assert [p["color"] for p in answer["players"]] == ["green", "red"]


# --- refusals ---

TOO_TALL = [{"name": "Ann"}, {"name": "Bob", "towers": {"red": 15}}]

REFUSED = {
    "tower out of range": ("spires", {"players": TOO_TALL}, "players[1].towers.red", "at most 14"),
    "negative count": (
        "spqf",
        {"players": [{"name": "Ann", "vp_tokens": -1}, {"name": "Bob"}]},
        "players[0].vp_tokens",
        "at least 0",
    ),
    "level out of range": (
        "spqf",
        {"players": [{"name": "Ann", "civ_level": 6}, {"name": "Bob"}]},
        "players[0].civ_level",
        "at most 5",
    ),
    "unknown player field": (
        "spqf",
        {"players": [{"name": "Ann", "gold": 1}, {"name": "Bob"}]},
        "players[0].gold",
        "Unknown",
    ),
    "unknown nested field": (
        "spires",
        {"players": [{"name": "Ann", "towers": {"pink": 1}}, {"name": "Bob"}]},
        "players[0].towers.pink",
        "Unknown",
    ),
    "unknown top-level field": ("spqf", {"players": SPQF, "bogus": 1}, "bogus", "Unknown"),
    "missing players": ("spqf", {"options": {}}, "players", "required"),
    "missing name": ("spqf", {"players": [{"vp_tokens": 1}, {"name": "Bob"}]}, "players[0].name", "required"),
    "empty name": ("spqf", {"players": [{"name": "  "}, {"name": "Bob"}]}, "players[0].name", "empty"),
    "players not a list": ("spqf", {"players": {"name": "Ann"}}, "players", "list"),
    "player not an object": ("spqf", {"players": ["Ann", {"name": "Bob"}]}, "players[0]", "object"),
    "text for a number": (
        "spqf",
        {"players": [{"name": "Ann", "vp_tokens": "3"}, {"name": "Bob"}]},
        "players[0].vp_tokens",
        "whole number",
    ),
    "true for a number": (
        "spqf",
        {"players": [{"name": "Ann", "vp_tokens": True}, {"name": "Bob"}]},
        "players[0].vp_tokens",
        "whole number",
    ),
    "fraction for a number": (
        "spqf",
        {"players": [{"name": "Ann", "vp_tokens": 1.5}, {"name": "Bob"}]},
        "players[0].vp_tokens",
        "whole number",
    ),
    "list item out of range": (
        "spyrium",
        {"players": [{"name": "Ann", "technique_vp": [2, 8]}, {"name": "Bob"}]},
        "players[0].technique_vp[1]",
        "at most 7",
    ),
    "too few players": ("spqf", {"players": [{"name": "Ann"}]}, "players", "2 to 4"),
    "too many players": ("spires", {"players": [{"name": n} for n in "ABCDE"]}, "players", "2 to 4"),
    "no players": ("spyrium", {"players": []}, "players", "2 to 5"),
    "solo with two players": ("spires", {"players": SPIRES, "options": {"solo": True}}, "players", "exactly 1"),
    "one player without solo": ("spires", {"players": SPIRES_SOLO}, "players", "solo"),
    "duplicate names": ("spqf", {"players": [{"name": "Ann"}, {"name": "ann"}]}, "players[1].name", "already playing"),
    "more crowns than the deck": (
        "spires",
        {"players": [{"name": "Ann", "crowns": 5}, {"name": "Bob", "crowns": 4}]},
        "players[1].crowns",
        "only 8 crowns",
    ),
    "unknown option": ("spires", {"players": SPIRES, "options": {"colour": "red"}}, "options.colour", "Unknown"),
    "option of the wrong type": (
        "spires",
        {"players": SPIRES, "options": {"solo": "yes"}},
        "options.solo",
        "true or false",
    ),
    "level table too short": (
        "spqf",
        {"players": SPQF, "options": {"level_vp": [0, 3, 6]}},
        "options.level_vp",
        "exactly 6",
    ),
    "options not an object": ("spqf", {"players": SPQF, "options": [1]}, "options", "object"),
    "body not an object": ("spqf", [{"name": "Ann"}], "", "object"),
    # Decision (docs/rules.md, "Conquest of Speros"): every captured card shows at least one resource; one entered
    # without is refused with a question.
    "speros card without a resource": pytest.param(
        "speros",
        {"players": [{**SPEROS[0], "captured": [SPEROS[0]["captured"][0], {"vp": 3, "terrain": "ocean"}]}, SPEROS[1]]},
        "players[0].captured[1].resources",
        "Which resource does this card show?",
        marks=needs_speros,
        id="speros card without a resource",
    ),
    "speros card with no resources listed": pytest.param(
        "speros",
        {"players": [SPEROS[0], {**SPEROS[1], "captured": [{"vp": 4, "resources": [], "terrain": "mountain"}]}]},
        "players[1].captured[0].resources",
        "Which resource does this card show?",
        marks=needs_speros,
        id="speros card with no resources listed",
    ),
}


@pytest.mark.parametrize(("game", "body", "field", "words"), REFUSED.values(), ids=REFUSED.keys())
def test_bad_input_is_422_with_the_field(client, game, body, field, words) -> None:
    response = post_json(client, f"/api/v1/score/{game}", body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert all(set(e) == {"field", "message"} for e in errors)
    messages = [e["message"] for e in errors if e["field"] == field]
    assert messages, errors
    assert any(words in m for m in messages), messages


def test_every_mistake_is_reported_at_once(client) -> None:
    players = [{"name": "Ann", "vp_tokens": 151, "civ_level": 9}, {"name": "Bob", "bogus": 1}]
    errors = post_json(client, "/api/v1/score/spqf", {"players": players}).get_json()["errors"]
    assert {e["field"] for e in errors} == {"players[0].vp_tokens", "players[0].civ_level", "players[1].bogus"}


@needs_speros
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"color": "pink"}, "players[0].color"),
        ({"captured": [{"vp": 3, "resources": ["crystal"]}]}, "players[0].captured[0].terrain"),
        ({"captured": [{"vp": 99, "resources": ["crystal"], "terrain": "forest"}]}, "players[0].captured[0].vp"),
        ({"general": "castle"}, "players[0].general"),
    ],
)
def test_speros_refusals_name_the_field(client, change, field) -> None:
    players = [{**SPEROS[0], **change}, SPEROS[1]]
    errors = score(client, "speros", players).get_json()["errors"]
    assert field in {e["field"] for e in errors}


@pytest.mark.parametrize("body", ["{", "", "{'players': []}", '{"players": [}', "NaN", "null", '"players"', "[]"])
def test_malformed_json_or_not_an_object_is_422_on_the_body(client, body) -> None:
    response = client.post("/api/v1/score/spqf", data=body, content_type="application/json", csrf=False)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == [""]


@pytest.mark.parametrize(
    ("content_type", "data"),
    [
        ("text/plain", json.dumps({"players": SPQF})),
        ("application/x-www-form-urlencoded", "players=Ann"),
        ("multipart/form-data; boundary=x", "--x--"),
        (None, json.dumps({"players": SPQF})),
    ],
)
@pytest.mark.parametrize("url", ["/api/v1/score/spqf", "/api/v1/plays"])
def test_only_json_is_accepted(client, url, content_type, data) -> None:
    response = client.post(url, data=data, content_type=content_type, csrf=False)
    assert response.status_code == 415
    errors = response.get_json()["errors"]
    assert errors and "application/json" in errors[0]["message"]


def test_json_with_a_charset_is_json(client) -> None:
    data = json.dumps({"players": SPQF})
    response = client.post("/api/v1/score/spqf", data=data, content_type="application/json; charset=utf-8", csrf=False)
    assert response.status_code == 200


def test_unknown_game_is_404_with_the_errors_shape(client) -> None:
    response = score(client, "monopoly", SPQF)
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["field"] == "game"
    response = save(client, "monopoly", SPQF)
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["field"] == "game"


def test_unknown_play_is_404_with_the_errors_shape(client) -> None:
    response = client.get("/api/v1/plays/9999")
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["field"] == "id"


def test_wrong_method_answers_json(client) -> None:
    response = client.get("/api/v1/score/spqf")
    assert response.status_code == 405
    assert "errors" in response.get_json()


def test_the_api_needs_no_csrf_token(app: Flask) -> None:
    """A client with no session at all (no token anywhere) is still served."""
    bare = app.test_client()
    assert bare.post("/api/v1/score/spqf", json={"players": SPQF}).status_code == 200
    assert bare.post("/api/v1/plays", json={"game": "spqf", "players": SPQF}).status_code == 201


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
PLAYER_KEYS = st.sampled_from(["name", "towers", "crowns", "vp_tokens", "civ_level", "building_vp", "captured", "x"])
PLAYERS = st.lists(st.dictionaries(PLAYER_KEYS, JSON_VALUES, max_size=5), max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(GAMES)), players=PLAYERS | JSON_VALUES, options=JSON_VALUES)
def test_any_json_is_answered_never_a_500(client, game, players, options) -> None:
    response = post_json(client, f"/api/v1/score/{game}", {"players": players, "options": options})
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    body = response.get_json()
    if response.status_code == 422:
        assert body["errors"] and all(isinstance(e["field"], str) and e["message"] for e in body["errors"])
    else:
        assert_well_formed(body, game)


# --- POST /api/v1/plays and GET /api/v1/plays/<id> ---


@pytest.mark.parametrize(("game", "players", "options", "totals", "winners"), SCORED.values(), ids=SCORED.keys())
def test_save_a_play_and_read_it_back(client, game, players, options, totals, winners) -> None:
    body = {"options": options} if options is not None else {}
    response = save(client, game, players, notes="Friday at Ann's", **body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert set(created) == {"id", "url", "result"}
    assert created["url"] == f"/plays/{created['id']}"
    assert response.headers["Location"].endswith(created["url"])
    assert created["result"] == score(client, game, players, options).get_json()

    read = client.get(f"/api/v1/plays/{created['id']}").get_json()
    assert read["id"] == created["id"] and read["game"] == game
    assert read["status"] == "finished" and read["source"] == "api"
    assert read["notes"] == "Friday at Ann's"
    assert read["result"] == created["result"]
    assert {p["name"]: p["total"] for p in read["result"]["players"]} == totals
    assert read["result"]["winners"] == winners
    # The inputs as entered (validated, defaults filled in) and the options.
    model = GAMES[game].player_model
    assert read["players"] == [model.model_validate(p).model_dump(mode="json") for p in players]
    assert read["options"] == GAMES[game].options_model.model_validate(options or {}).model_dump(mode="json")


def test_spires_input_reads_back_with_its_defaults(client) -> None:
    play_id = save(client, "spires", SPIRES).get_json()["id"]
    ann = client.get(f"/api/v1/plays/{play_id}").get_json()["players"][0]
    assert ann["towers"] == {"purple": 0, "red": 3, "yellow": 0, "blue": 2, "green": 5, "black": 0}
    assert ann["quills"] == 0


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("2024-05-01T20:30:00+02:00", "2024-05-01T18:30:00+00:00"),
        ("2024-05-01T20:30:00Z", "2024-05-01T20:30:00+00:00"),
        ("2024-05-01T20:30:00", "2024-05-01T20:30:00+00:00"),
        ("2024-05-01", "2024-05-01T00:00:00+00:00"),
    ],
)
def test_played_at_is_stored_in_utc(client, sent, stored) -> None:
    play_id = save(client, "spqf", SPQF, played_at=sent).get_json()["id"]
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["played_at"] == stored


def test_played_at_defaults_to_now(client) -> None:
    play_id = save(client, "spqf", SPQF).get_json()["id"]
    played_at = datetime.fromisoformat(client.get(f"/api/v1/plays/{play_id}").get_json()["played_at"])
    assert abs(datetime.now(UTC) - played_at) < timedelta(minutes=5)


@pytest.mark.parametrize(
    ("more", "field"),
    [
        ({"played_at": "yesterday"}, "played_at"),
        ({"played_at": "01/05/2024"}, "played_at"),
        ({"played_at": 1714594200}, "played_at"),
        ({"notes": "x" * 2001}, "notes"),
        ({"notes": 5}, "notes"),
        ({"game": 3}, "game"),
        ({"bogus": True}, "bogus"),
    ],
)
def test_save_refusals(client, more, field) -> None:
    response = post_json(client, "/api/v1/plays", {"game": "spqf", "players": SPQF, **more})
    assert response.status_code == 422
    assert field in {e["field"] for e in response.get_json()["errors"]}
    assert client.get("/history").get_data(as_text=True).count("/plays/") == 0


def test_missing_game_is_422(client) -> None:
    response = post_json(client, "/api/v1/plays", {"players": SPQF})
    assert response.status_code == 422
    assert "game" in {e["field"] for e in response.get_json()["errors"]}


def test_game_refusals_are_not_saved(client) -> None:
    response = save(client, "spires", TOO_TALL)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "players[1].towers.red"
    assert "/plays/" not in client.get("/history").get_data(as_text=True)


def test_notes_of_2000_characters_are_kept(client) -> None:
    play_id = save(client, "spqf", SPQF, notes="n" * 2000).get_json()["id"]
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["notes"] == "n" * 2000


def test_a_saved_play_shows_in_history_its_page_and_its_sheet(client) -> None:
    created = save(client, "spyrium", SPYRIUM, played_at="2024-05-01T20:30:00+00:00").get_json()
    history = client.get("/history").get_data(as_text=True)
    assert f'href="{created["url"]}"' in history
    assert "Spyrium" in history and "1 May 2024" in history

    page = client.get(created["url"])
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.get_data(as_text=True))
    assert created["result"]["winners_text"] in text and "Ann wins with" in text

    sheet = client.get(f"{created['url']}/sheet.pdf")
    assert sheet.status_code == 200
    assert sheet.mimetype == "application/pdf"
    assert sheet.data.startswith(b"%PDF")


def test_a_play_in_progress_reads_back_without_a_result(client, play_id: int) -> None:
    read = client.get(f"/api/v1/plays/{play_id}").get_json()
    assert read["status"] == "in_progress"
    assert read["source"] == "tracker"
    assert read["result"] is None
    assert [p["name"] for p in read["players"]] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "spqf", "players": [{"name": "A\u0000n"}, {"name": "Bob"}]}, "players[0].name"),
        ({"game": "spqf", "players": SPQF, "notes": "late\u0000"}, "notes"),
    ],
)
def test_nul_characters_are_refused_before_the_database_sees_them(client, body, field) -> None:
    response = post_json(client, "/api/v1/plays", body)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == [field]


@pytest.mark.postgres
def test_save_and_read_back_on_postgresql() -> None:
    """The same contract on PostgreSQL: timestamps with zones, JSON columns, text without NUL."""
    from companion import create_app
    from tests.helpers import postgres_url

    urls = postgres_url()
    url = next(urls)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url})
    try:
        client = app.test_client()
        created = client.post(
            "/api/v1/plays", json={"game": "spires", "players": SPIRES, "played_at": "2024-05-01T20:30:00+02:00"}
        )
        assert created.status_code == 201
        read = client.get(f"/api/v1/plays/{created.get_json()['id']}").get_json()
        assert read["played_at"] == "2024-05-01T18:30:00+00:00"
        assert read["result"] == created.get_json()["result"]
        refused = client.post("/api/v1/plays", json={"game": "spqf", "players": [{"name": "A\u0000"}, {"name": "B"}]})
        assert refused.status_code == 422
    finally:
        app.extensions["db_engine"].dispose()
        next(urls, None)


def test_played_at_out_of_range_is_refused(client) -> None:
    body = {
        "game": "spyrium",
        "players": [{"name": "Ann", "vp_track": 1}, {"name": "Bob", "vp_track": 2}],
        "played_at": "0001-01-01T00:00:00+01:00",
    }
    response = client.post("/api/v1/plays", json=body, csrf=False)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "played_at"
