"""The tracker API: start a play to track, apply actions, undo, finish, read the play view; every status."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.helpers import post_json

TRIO = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy"}]


def start(client, game: str = "spqf", players: list[dict[str, Any]] | None = None, **more: Any) -> dict:
    """POST /api/v1/plays with track: true; the play view."""
    response = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players or TRIO, **more})
    assert response.status_code == 201, response.get_json()
    assert response.headers["Location"] == response.get_json()["url"]
    return response.get_json()


def act(client, play: int, body: dict[str, Any], status: int = 200) -> dict:
    """POST an action; the answer, checked for its status."""
    response = post_json(client, f"/api/v1/plays/{play}/actions", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def player(view: dict, name: str) -> dict:
    """A player's entry in the play view."""
    return next(p for p in view["players"] if p["name"] == name)


def test_start_a_tracked_play_answers_the_play_view(client) -> None:
    view = start(client)
    assert view["status"] == "in_progress"
    assert view["source"] == "api"
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob", "Cy"]
    assert player(view, "Ann") == {
        "name": "Ann",
        "colour": "red",
        "vp_tokens": 0,
        "civ_level": 0,
        "monument_modifiers": 0,
        "vp_cards": 0,
    }
    assert "colour" not in player(view, "Cy")
    assert view["table"] == {"turn": 1, "first": {}, "last_card": False, "end_round": None}
    assert [p["total"] for p in view["live"]["players"]] == [0, 0, 0]
    assert {"text": "First to each level: nobody has expanded yet.", "warning": False} in view["tracker_notes"]
    assert view["end"] == {"triggered": False, "why": None}
    assert view["result"] is None
    assert view["notes"] == ""
    assert client.get(f"/api/v1/plays/{view['id']}").get_json() == view


def test_tracked_spires_play_starts_with_its_options(client) -> None:
    view = start(client, "spires", [{"name": "Ann"}], options={"solo": True})
    assert view["table"] == {"discard": {"crowns": 0, "swords": 0, "quills": 0}}
    assert player(view, "Ann")["towers"]["red"] == 0


BAD_STARTS = [
    ("one player", {"game": "spqf", "players": [{"name": "Ann"}]}, "players"),
    ("a name twice", {"game": "spqf", "players": [{"name": "Ann"}, {"name": "ann"}]}, "players[1].name"),
    (
        "a colour not the game's",
        {"game": "spqf", "players": [{"name": "Ann", "colour": "pink"}, {"name": "Bob"}]},
        "players[0].colour",
    ),
    (
        "a colour twice",
        {"game": "spqf", "players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]},
        "players[1].colour",
    ),
    (
        "a counter given at the start",
        {"game": "spqf", "players": [{"name": "A", "vp_tokens": 3}, {"name": "B"}]},
        "players[0].vp_tokens",
    ),
    ("a bad option", {"game": "spqf", "players": TRIO, "options": {"level_vp": [1, 2]}}, "options.level_vp"),
]


@pytest.mark.parametrize(("case", "body", "field"), BAD_STARTS, ids=[b[0] for b in BAD_STARTS])
def test_bad_starts_answer_422_and_save_nothing(client, case: str, body: dict, field: str) -> None:
    response = post_json(client, "/api/v1/plays", {"track": True, **body})
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert client.get("/api/v1/plays/1").status_code == 404


def test_counter_actions_and_what_they_said(client) -> None:
    play = start(client)["id"]
    view = act(client, play, {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 2})
    assert player(view, "Ann")["vp_tokens"] == 2
    assert view["said"] == []
    view = act(client, play, {"action": "set", "player": "bob", "field": "civ_level", "value": 1})
    assert view["said"] == ["Bob is first to level 1: +1 VP token."]
    assert player(view, "Bob")["vp_tokens"] == 1
    assert view["table"]["first"] == {"1": {"seat": 1, "turn": 1}}
    # The level VP shows in the live score as it stands: 3 (level 1) + 1 token.
    assert view["live"]["players"][1]["total"] == 4


def test_game_actions(client) -> None:
    play = start(client)["id"]
    view = act(client, play, {"action": "next_turn"})
    assert view["table"]["turn"] == 2 and view["said"] == ["Round 1: Bob's turn."]
    view = act(client, play, {"action": "last_card", "player": None, "placed": True})
    assert view["end"] == {"triggered": True, "why": "The last Civilization card is in the central trade row."}
    assert any(n["warning"] and "Cy still plays" in n["text"] for n in view["tracker_notes"])
    act(client, play, {"action": "set", "player": "Cy", "field": "civ_level", "value": 1})
    act(client, play, {"action": "set", "player": "Ann", "field": "civ_level", "value": 1})
    view = act(client, play, {"action": "first_token", "player": "Ann", "level": 1})
    assert view["table"]["first"]["1"]["seat"] == 0
    assert (player(view, "Ann")["vp_tokens"], player(view, "Cy")["vp_tokens"]) == (1, 0)
    act(client, play, {"action": "next_turn"})
    refused = act(client, play, {"action": "next_turn"}, 422)
    assert "The round is finished" in refused["errors"][0]["message"]


REFUSED = [
    ("a skipped level", {"action": "set", "player": "Ann", "field": "civ_level", "value": 2}, "civ_level"),
    ("level 6", {"action": "add", "player": "Ann", "field": "civ_level", "delta": 6}, "civ_level"),
    ("negative tokens", {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": -1}, "players[0].vp_tokens"),
    ("no such counter", {"action": "add", "player": "Ann", "field": "gold", "delta": 1}, "field"),
    ("no such player", {"action": "add", "player": "Zed", "field": "vp_tokens", "delta": 1}, "player"),
    ("no player for a seat counter", {"action": "add", "field": "vp_tokens", "delta": 1}, "player"),
    ("a player for a table action", {"action": "next_turn", "player": "Ann"}, "player"),
    ("a token with no player", {"action": "first_token", "level": 1}, "player"),
    ("no such action", {"action": "explode", "player": "Ann"}, "action"),
    ("a delta as text", {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": "2"}, "delta"),
    ("an unknown parameter", {"action": "next_turn", "speed": 2}, "speed"),
    ("no action at all", {"player": "Ann"}, "action"),
]


@pytest.mark.parametrize(("case", "body", "field"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_actions_answer_422_and_change_nothing(client, case: str, body: dict, field: str) -> None:
    play = start(client)["id"]
    before = client.get(f"/api/v1/plays/{play}").get_json()
    answer = act(client, play, body, 422)
    assert field in [e["field"] for e in answer["errors"]], answer
    assert client.get(f"/api/v1/plays/{play}").get_json() == before
    assert post_json(client, f"/api/v1/plays/{play}/undo", {}).status_code == 409


def test_undo_takes_back_the_newest_action_whole(client) -> None:
    play = start(client)["id"]
    act(client, play, {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 5})
    act(client, play, {"action": "add", "player": "Ann", "field": "civ_level", "delta": 1})
    response = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert response.status_code == 200
    view = response.get_json()
    assert view["undone"] == {
        "action": {"action": "add", "player": "Ann", "field": "civ_level", "delta": 1},
        "text": "Ann, Civilization Level +1 (Ann is first to level 1: +1 VP token)",
        "said": ["Ann is first to level 1: +1 VP token."],
    }
    assert (player(view, "Ann")["civ_level"], player(view, "Ann")["vp_tokens"]) == (0, 5)
    assert view["table"]["first"] == {}
    post_json(client, f"/api/v1/plays/{play}/undo", {})
    nothing = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert nothing.status_code == 409
    assert nothing.get_json()["errors"][0]["message"] == "Nothing is left to undo."


def test_finish_scores_and_then_refuses_with_409(client) -> None:
    play = start(client)["id"]
    act(client, play, {"action": "set", "player": "Ann", "field": "vp_tokens", "value": 10})
    act(client, play, {"action": "set", "player": "Bob", "field": "monument_modifiers", "value": 4})
    response = client.post(f"/api/v1/plays/{play}/finish", json={}, csrf=False)
    assert response.status_code == 200
    view = response.get_json()
    assert view["status"] == "finished"
    assert view["live"] is None
    totals = {p["name"]: p["total"] for p in view["result"]["players"]}
    assert totals == {"Ann": 10, "Bob": 7, "Cy": 0}  # Bob: 4 Monument + 3 bonus
    assert view["table"]["turn"] == 1
    assert client.get(f"/api/v1/plays/{play}").get_json() == view
    for url, body in (
        ("actions", {"action": "next_turn"}),
        ("undo", {}),
        ("finish", {}),
    ):
        again = post_json(client, f"/api/v1/plays/{play}/{url}", body)
        assert again.status_code == 409, url
        assert again.get_json()["errors"][0]["message"] == "This play is finished."


def test_a_play_put_aside_refuses_actions_with_409(client) -> None:
    play = start(client)["id"]
    assert client.post(f"/plays/{play}/abandon").status_code == 303
    response = post_json(client, f"/api/v1/plays/{play}/actions", {"action": "next_turn"})
    assert response.status_code == 409
    assert "put aside" in response.get_json()["errors"][0]["message"]
    assert client.get(f"/api/v1/plays/{play}").get_json()["status"] == "abandoned"


def test_unknown_play_and_bad_bodies(client) -> None:
    assert post_json(client, "/api/v1/plays/999/actions", {"action": "next_turn"}).status_code == 404
    assert post_json(client, "/api/v1/plays/999/undo", {}).status_code == 404
    assert post_json(client, "/api/v1/plays/999/finish", {}).status_code == 404
    play = start(client)["id"]
    as_form = client.post(f"/api/v1/plays/{play}/actions", data={"action": "next_turn"}, csrf=False)
    assert as_form.status_code == 415
    broken = client.post(f"/api/v1/plays/{play}/actions", data="{", content_type="application/json", csrf=False)
    assert broken.status_code == 422
    extra = post_json(client, f"/api/v1/plays/{play}/finish", {"players": []})
    assert extra.status_code == 422


def test_an_unscorable_play_has_no_live_score_and_cannot_finish(client, app) -> None:
    from sqlmodel import Session

    from companion.store.models import Seat

    play = start(client)["id"]
    with Session(app.extensions["db_engine"]) as session:
        seat = session.get(Seat, 1)
        seat.state = {**seat.state, "civ_level": 9}
        session.add(seat)
        session.commit()
    view = client.get(f"/api/v1/plays/{play}").get_json()
    assert view["live"] is None and view["status"] == "in_progress"
    response = post_json(client, f"/api/v1/plays/{play}/finish", {})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "players[0].civ_level"


def test_an_action_through_the_api_and_a_tap_on_the_page_give_the_same_state(client) -> None:
    """The same records path: one play driven by the API, one by the tracker page, end in the same state."""
    by_api = start(client)["id"]
    by_page = start(client)["id"]
    html = client.get(f"/plays/{by_page}").get_data(as_text=True)
    seats = [int(s) for s in re.findall(r'id="seat-(\d+)"', html)]
    steps = [
        (
            {"action": "add", "player": "Bob", "field": "civ_level", "delta": 1},
            (f"/plays/{by_page}/seats/{seats[1]}", {"field": "civ_level", "delta": "1"}),
        ),
        (
            {"action": "add", "player": "Ann", "field": "civ_level", "delta": 1},
            (f"/plays/{by_page}/seats/{seats[0]}", {"field": "civ_level", "delta": "1"}),
        ),
        (
            {"action": "set", "player": "Cy", "field": "vp_tokens", "value": 25},
            (f"/plays/{by_page}/seats/{seats[2]}", {"field": "vp_tokens", "value": "25"}),
        ),
        ({"action": "next_turn"}, (f"/plays/{by_page}/actions", {"action": "next_turn"})),
        (
            {"action": "first_token", "player": "Bob", "level": 1},
            (f"/plays/{by_page}/actions", {"action": "first_token", "seat": str(seats[1]), "level": "1"}),
        ),
    ]
    for body, (url, form) in steps:
        act(client, by_api, body)
        assert client.htmx("POST", url, data=form).status_code == 200
    api_view = client.get(f"/api/v1/plays/{by_api}").get_json()
    page_view = client.get(f"/api/v1/plays/{by_page}").get_json()
    for key in ("players", "table", "live", "tracker_notes", "end"):
        assert api_view[key] == page_view[key], key
    assert player(api_view, "Bob")["vp_tokens"] == 1
