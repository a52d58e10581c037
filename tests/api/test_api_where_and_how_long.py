"""The JSON API's "location" and "duration_min": given when a play is saved or started, shown in every play view."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.store import models
from companion.store.models import Location, Play
from tests.helpers import SPQF, SPYRIUM, api_act, post_json

TRACKED = [{"name": "Ann"}, {"name": "Bob"}]


def save(client, **more: Any):
    """POST /api/v1/plays: a finished SPQF play with more fields."""
    return post_json(client, "/api/v1/plays", {"game": "spqf", "players": SPQF, **more})


def start(client, **more: Any):
    """POST /api/v1/plays with track: a Spires play in progress with more fields."""
    return post_json(client, "/api/v1/plays", {"game": "spires", "track": True, "players": TRACKED, **more})


def view(client, play_id: int) -> dict[str, Any]:
    """GET /api/v1/plays/<id>."""
    response = client.get(f"/api/v1/plays/{play_id}")
    assert response.status_code == 200
    return response.get_json()


def plays_and_places(app) -> tuple[int, list[str]]:
    """How many plays are stored, and the names of the group's places."""
    with Session(app.extensions["db_engine"]) as session:
        plays = len(session.exec(select(Play)).all())
        return plays, sorted(place.name for place in session.exec(select(Location)))


def refused_fields(response) -> set[str]:
    """The fields a 422 names."""
    assert response.status_code == 422, response.get_json()
    return {error["field"] for error in response.get_json()["errors"]}


# --- a finished play ---


def test_a_finished_play_keeps_where_and_how_long(db_client) -> None:
    client, app = db_client
    response = save(client, location="Anna's flat", duration_min=85)
    assert response.status_code == 201, response.get_json()
    # The answer to the save is as it always was.
    assert set(response.get_json()) == {"id", "url", "result"}
    shown = view(client, response.get_json()["id"])
    assert (shown["location"], shown["duration_min"]) == ("Anna's flat", 85)
    assert shown["status"] == "finished" and shown["result"]["winners"] == ["Ann"]
    assert plays_and_places(app) == (1, ["Anna's flat"])


@pytest.mark.parametrize(
    "more",
    [{}, {"location": None, "duration_min": None}, {"location": ""}, {"location": " \t "}],
    ids=["left-out", "null", "empty", "spaces"],
)
def test_without_a_place_or_minutes_both_are_null(client, app, more: dict[str, Any]) -> None:
    play_id = save(client, **more).get_json()["id"]
    shown = view(client, play_id)
    assert shown["location"] is None and shown["duration_min"] is None
    assert plays_and_places(app) == (1, [])


def test_a_place_is_the_groups_however_it_is_written(client, app) -> None:
    """Capitals and spaces aside, a name is one place, shown as first written; names in any alphabet."""
    ids = [save(client, location=name).get_json()["id"] for name in ("Café Ünal", "CAFÉ  ünal ", "東京の家", "Ἀθῆναι")]
    assert [view(client, play_id)["location"] for play_id in ids] == ["Café Ünal", "Café Ünal", "東京の家", "Ἀθῆναι"]
    assert plays_and_places(app)[1] == ["Café Ünal", "Ἀθῆναι", "東京の家"]


@pytest.mark.parametrize(("minutes", "place"), [(1, "x"), (1440, "ж" * 60)], ids=["least", "most"])
def test_the_bounds_themselves_are_kept(client, minutes: int, place: str) -> None:
    play_id = save(client, location=place, duration_min=minutes).get_json()["id"]
    shown = view(client, play_id)
    assert (shown["location"], shown["duration_min"]) == (place, minutes)


REFUSED = {
    "location-too-long": ({"location": "ж" * 61}, "location", "at most 60 characters"),
    "location-number": ({"location": 5}, "location", "Give text."),
    "location-list": ({"location": ["Home"]}, "location", "Give text."),
    "location-object": ({"location": {"name": "Home"}}, "location", "Give text."),
    "location-nul": ({"location": "Ho\u0000me"}, "location", "NUL"),
    "minutes-zero": ({"duration_min": 0}, "duration_min", "at least 1"),
    "minutes-negative": ({"duration_min": -5}, "duration_min", "at least 1"),
    "minutes-over-a-day": ({"duration_min": 1441}, "duration_min", "at most 1440"),
    "minutes-text": ({"duration_min": "45"}, "duration_min", "whole number"),
    "minutes-fraction": ({"duration_min": 45.5}, "duration_min", "whole number"),
    "minutes-bool": ({"duration_min": True}, "duration_min", "whole number"),
}


@pytest.mark.parametrize(("more", "field", "words"), REFUSED.values(), ids=REFUSED.keys())
def test_bad_place_or_minutes_are_refused_naming_the_field(client, app, more, field: str, words: str) -> None:
    response = save(client, **more)
    assert refused_fields(response) == {field}
    assert words in response.get_json()["errors"][0]["message"]
    assert plays_and_places(app) == (0, [])


def test_a_bad_place_is_refused_with_the_games_own_refusals(client, app) -> None:
    """Every message in one answer: the place, the minutes and a count the game refuses."""
    bad = [{**SPQF[0], "civ_level": 9}, SPQF[1]]
    response = post_json(
        client, "/api/v1/plays", {"game": "spqf", "players": bad, "location": 7, "duration_min": 0, "notes": 5}
    )
    assert {"location", "duration_min", "notes"} <= refused_fields(response)
    assert plays_and_places(app) == (0, [])


def test_the_fields_need_a_json_body(client, app) -> None:
    response = client.post(
        "/api/v1/plays",
        data='{"game": "spqf", "players": [], "location": "Home"}',
        content_type="text/plain",
        csrf=False,
    )
    assert response.status_code == 415
    assert plays_and_places(app) == (0, [])


# --- a play tracked live ---


def test_a_tracked_play_starts_at_its_place_and_every_view_says_so(client, app) -> None:
    response = start(client, location="Клуб «Ладья»")
    assert response.status_code == 201, response.get_json()
    started = response.get_json()
    assert (started["location"], started["duration_min"]) == ("Клуб «Ладья»", None)
    play_id = started["id"]
    acted = api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    assert (acted["location"], acted["duration_min"]) == ("Клуб «Ладья»", None)
    undone = post_json(client, f"/api/v1/plays/{play_id}/undo", {}).get_json()
    assert undone["location"] == "Клуб «Ладья»"
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {}).get_json()
    assert finished["status"] == "finished" and finished["location"] == "Клуб «Ладья»"
    # Finished straight after it started: under a minute.
    assert finished["duration_min"] == 0
    assert view(client, play_id)["duration_min"] == 0
    assert plays_and_places(app) == (1, ["Клуб «Ладья»"])


def test_a_tracked_play_without_a_place_shows_null(client) -> None:
    started = start(client).get_json()
    assert started["location"] is None and started["duration_min"] is None


def test_a_tracked_play_counts_its_minutes_at_the_table_without_the_time_put_aside(client, monkeypatch) -> None:
    """Started, put aside after 20 minutes, resumed 30 minutes later, finished 15 minutes after that: 35 minutes."""
    play_id = post_json(
        client, "/api/v1/plays", {"game": "spyrium", "track": True, "players": [{"name": p["name"]} for p in SPYRIUM]}
    ).get_json()["id"]
    started = models.utcnow()

    def at(minutes: int) -> None:
        """The store's clock, that many minutes after the start."""
        monkeypatch.setattr("companion.store.records.utcnow", lambda: started + timedelta(minutes=minutes))

    at(20)
    assert client.post(f"/plays/{play_id}/abandon").status_code == 303
    assert view(client, play_id)["duration_min"] is None
    assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 409
    at(50)
    assert client.post(f"/plays/{play_id}/resume").status_code == 303
    at(65)
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {})
    assert finished.status_code == 200, finished.get_json()
    assert finished.get_json()["duration_min"] == 35
    assert view(client, play_id)["duration_min"] == 35


@pytest.mark.parametrize("minutes", [30, 0, "30"])
def test_a_tracked_play_refuses_minutes_given_at_its_start(client, app, minutes: Any) -> None:
    """Its minutes are counted by the tracker, so any given are refused on that field, and nothing is started."""
    response = start(client, duration_min=minutes)
    assert "duration_min" in refused_fields(response)
    if minutes == 30:
        said = {e["field"]: e["message"] for e in response.get_json()["errors"]}["duration_min"]
        assert said == "A tracked play's minutes are counted from its start to its finish: leave duration_min out."
    assert plays_and_places(app) == (0, [])


def test_a_tracked_play_names_every_refused_field_at_once(client, app) -> None:
    response = start(client, location="ж" * 61, duration_min=30, players=[{"name": "Ann"}, {"name": 4}])
    assert refused_fields(response) >= {"location", "duration_min"}
    assert plays_and_places(app) == (0, [])


def test_a_tracked_play_refuses_a_bad_place(client, app) -> None:
    assert refused_fields(start(client, location=["Home"])) == {"location"}
    assert plays_and_places(app) == (0, [])
