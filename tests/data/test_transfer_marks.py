"""Our export, version 2 (issue 20, part 4): where a play was played, its minutes at the table, its "ignored" and
"seats known" marks, guest seats, players' and places' uids; restored by its import, on SQLite and PostgreSQL, and a
version 1 file without them still imported."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.store import records
from companion.store.models import Location, Play, Player, Seat
from tests.helpers import counts, fresh_client, history, save, start_play, upload

ANN_UID = "0f8e7c1a-6b2d-4c3e-9a55-1234567890ab"
HOME_UID = "5d2c9e31-0a4b-4f6c-8d77-abcdef012345"
CAFE = "Café «Ὀδυσσεύς» 東京"


def engine_of(client) -> Any:
    """The client's database engine."""
    return client.application.extensions["db_engine"]


def marked_history(client) -> None:
    """A history with everything version 2 carries: places (one no play names), a play's minutes, an ignored play,
    one without seat order, a guest seat, a seat with a winner's rank but no score, a player's and a place's uid."""
    history(client)
    timed = save(
        client,
        "spyrium",
        [{"name": "Ann", "vp_track": 40}, {"name": "Zoë", "vp_track": 22}, {"name": "Visitor", "vp_track": 9}],
        played_at="2026-02-01T18:00:00Z",
    )
    unscored = save(
        client, "spyrium", [{"name": "Bob", "vp_track": 3}, {"name": "Cy", "vp_track": 1}], played_at="2026-02-02"
    )
    with Session(engine_of(client)) as session:
        home = records.find_or_add_location(session, "Home")
        cafe = records.find_or_add_location(session, CAFE)
        records.find_or_add_location(session, "Club room")  # no play names it: the list keeps it
        assert home is not None and cafe is not None
        home.uid = HOME_UID
        home.created_at = datetime(2025, 5, 4, 3, 2, 1, tzinfo=UTC)
        ann = session.exec(select(Player).where(Player.key == "ann")).one()
        ann.uid = ANN_UID
        play = session.get(Play, timed)
        assert play is not None
        play.location_id, play.duration_min, play.seats_known = home.id, 47, False
        guest = play.seats[2]
        guest.player_id, guest.name = None, "Guest"
        other = session.get(Play, unscored)
        assert other is not None
        other.location_id, other.ignored = cafe.id, True
        # Imported from BG Stats with its winner but no scores: the loser has no total.
        other.seats[1].total, other.seats[1].breakdown = None, []
        in_progress = session.exec(select(Play).where(Play.status == "in_progress")).one()
        in_progress.location_id = cafe.id
        session.add_all([home, ann, play, guest, other, other.seats[1], in_progress])
        session.commit()
    # Visitor was on the roster only through that seat, now a guest's.
    with Session(engine_of(client)) as session:
        visitor = session.exec(select(Player).where(Player.key == "visitor")).one()
        session.delete(visitor)
        session.commit()


def exported(client) -> dict[str, Any]:
    """The client's JSON export, read."""
    response = client.get("/export.json")
    assert response.status_code == 200
    return json.loads(response.get_data())


def by_uid(export: dict[str, Any]) -> list[dict[str, Any]]:
    """An export's plays by uid."""
    return sorted(export["plays"], key=lambda play: play["uid"])


def of_game_day(export: dict[str, Any], day: str) -> dict[str, Any]:
    """The play of an export played on that day."""
    return next(play for play in export["plays"] if play["played_at"].startswith(day))


def test_the_export_carries_places_minutes_marks_guests_and_uids(client) -> None:
    marked_history(client)
    export = exported(client)
    assert export["version"] == 2
    timed = of_game_day(export, "2026-02-01")
    assert (timed["location"], timed["duration_min"], timed["ignored"], timed["seats_known"]) == (
        "Home",
        47,
        False,
        False,
    )
    assert [(seat["name"], seat["player"]) for seat in timed["seats"]] == [
        ("Ann", "Ann"),
        ("Zoë", "Zoë"),
        ("Guest", None),
    ]
    unscored = of_game_day(export, "2026-02-02")
    assert (unscored["location"], unscored["ignored"], unscored["seats_known"]) == (CAFE, True, True)
    assert [(seat["total"], seat["rank"]) for seat in unscored["seats"]] == [(3, 1), (None, 2)]
    first = of_game_day(export, "2026-01-02")
    assert (first["location"], first["duration_min"], first["ignored"]) == (None, None, False)
    assert {p["name"]: p["uid"] for p in export["players"]}["Ann"] == ANN_UID
    assert "Guest" not in {p["name"] for p in export["players"]}
    assert all(set(p) == {"name", "created_at", "uid"} for p in export["players"])
    assert export["locations"] == [
        {"name": CAFE, "uid": None, "created_at": export["locations"][0]["created_at"]},
        {"name": "Club room", "uid": None, "created_at": export["locations"][1]["created_at"]},
        {"name": "Home", "uid": HOME_UID, "created_at": "2025-05-04T03:02:01+00:00"},
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_round_trip_into_an_empty_database_restores_them_all(db_client, tmp_path, htmx) -> None:
    """Exported from SQLite, imported into an empty SQLite or PostgreSQL database, exported again: the same file."""
    source = fresh_client(tmp_path, "source")
    marked_history(source)
    first = exported(source)
    target, _app = db_client
    response = upload(target, json.dumps(first), htmx=htmx)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert ("<h1>" in html) is not htmx
    assert "6 plays added, no plays already there." in html
    again = exported(target)
    assert by_uid(again) == by_uid(first)
    assert again["players"] == first["players"]
    assert again["locations"] == first["locations"]
    with Session(engine_of(target)) as session:
        guest = session.exec(select(Seat).where(Seat.name == "Guest")).one()
        assert guest.player_id is None
        assert session.exec(select(Player).where(Player.key == "guest")).first() is None
        assert session.exec(select(Location.uid).where(Location.key == "home")).one() == HOME_UID
        assert session.exec(select(Player.uid).where(Player.key == "ann")).one() == ANN_UID
        timed = session.exec(select(Play).where(Play.duration_min == 47)).one()
        assert timed.location is not None and timed.location.name == "Home" and not timed.seats_known
        assert [play.played_at.date().isoformat() for play in session.exec(select(Play).where(Play.ignored))] == [
            "2026-02-02"
        ]
    # Twice: nothing more, no place either.
    before = counts(target)
    assert "No plays added, 6 plays already there." in upload(target, json.dumps(first)).get_data(as_text=True)
    assert counts(target) == before and exported(target)["locations"] == first["locations"]


def older(export: dict[str, Any]) -> dict[str, Any]:
    """The export as version 1 wrote it: no places, no uids, no guests (a guest seat seated by name), no marks."""
    copy = json.loads(json.dumps(export))
    copy["version"] = 1
    del copy["locations"]
    for player in copy["players"]:
        del player["uid"]
    for play in copy["plays"]:
        for key in ("location", "duration_min", "ignored", "seats_known"):
            del play[key]
        for seat in play["seats"]:
            seat["player"] = seat["player"] or seat["name"]
            if play["status"] == "finished" and seat["total"] is None:
                seat["total"] = sum(line["points"] for line in seat["breakdown"])
    return copy


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_version_1_file_imports_with_the_defaults(db_client, tmp_path, htmx) -> None:
    source = fresh_client(tmp_path, "source")
    marked_history(source)
    file = older(exported(source))
    target, _app = db_client
    response = upload(target, json.dumps(file), htmx=htmx)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert "6 plays added" in response.get_data(as_text=True)
    again = exported(target)
    assert again["locations"] == []
    assert all(p["uid"] is None for p in again["players"]) and "Guest" in {p["name"] for p in again["players"]}
    for play in again["plays"]:
        assert (play["location"], play["duration_min"], play["ignored"], play["seats_known"]) == (
            None,
            None,
            False,
            True,
        )
        assert all(seat["player"] is not None for seat in play["seats"])  # no guests in version 1
    # Apart from what version 2 added, the same plays.
    assert by_uid(older(again)) == by_uid(file)


def changed(export: dict[str, Any], change) -> str:
    """The export with `change` made to it (in place), as text."""
    copy = json.loads(json.dumps(export))
    change(copy)
    return json.dumps(copy)


def timed_play(export: dict[str, Any]) -> dict[str, Any]:
    """The export's play with a place and minutes."""
    return of_game_day(export, "2026-02-01")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda x: timed_play(x).update(duration_min=-1), "greater than or equal to 0"),
        (lambda x: timed_play(x).update(duration_min="45"), "valid integer"),
        (lambda x: timed_play(x).update(duration_min=2**31), "less than or equal to 2147483647"),
        (lambda x: timed_play(x).update(location=""), "at least 1 character"),
        (lambda x: timed_play(x).update(location="x" * 61), "at most 60 characters"),
        (lambda x: timed_play(x).update(location=7), "valid string"),
        (lambda x: timed_play(x).update(ignored="yes"), "valid boolean"),
        (lambda x: timed_play(x).update(seats_known=None), "valid boolean"),
        (lambda x: timed_play(x)["seats"][2].update(name="Ann"), "The same player sits twice"),
        (lambda x: of_game_day(x, "2026-02-02")["seats"][1].update(rank=None), "result is missing"),
        (
            lambda x: of_game_day(x, "2026-02-02")["seats"][1].update(
                breakdown=[{"key": "vp_track", "label": "VP", "points": 1, "why": "1 VP."}]
            ),
            "has score lines but no total",
        ),
        (lambda x: x["players"][0].update(uid="u" * 37), "at most 36 characters"),
        (lambda x: x["locations"].append({"name": "Attic", "colour": "red"}), "Place 4: colour: Extra inputs"),
        (lambda x: x["locations"].append("Attic"), "Place 4"),
        (lambda x: x.update(locations={"Home": 1}), "locations: Input should be a valid list"),
        (lambda x: x["locations"][0].update(created_at="soon"), "valid datetime"),
    ],
)
def test_bad_new_fields_are_refused_with_nothing_changed(client, tmp_path, change, said) -> None:
    source = fresh_client(tmp_path, "source")
    marked_history(source)
    export = exported(source)
    before = counts(client)
    response = upload(client, changed(export, change))
    html = response.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')
    assert response.status_code == 422, html
    assert said in html and "Nothing was changed." in html
    assert counts(client) == before
    with Session(engine_of(client)) as session:
        assert records.locations(session) == []


def test_importing_keeps_the_databases_own_places_and_uids(client, tmp_path) -> None:
    """A place or player the database has keeps its uid; one it has without a uid takes the file's; a place spelt
    another way is the same place."""
    source = fresh_client(tmp_path, "source")
    marked_history(source)
    export = exported(source)
    with Session(engine_of(client)) as session:
        home = records.find_or_add_location(session, "  HOME ")
        cafe = records.find_or_add_location(session, CAFE.upper())
        assert home is not None and cafe is not None
        cafe.uid = "ours"
        cafe_key = cafe.key
        session.add(cafe)
        session.commit()
    export["locations"][0]["uid"] = "theirs"  # the café
    export["locations"][1]["uid"] = "ours"  # the club room, new here: our café's uid is not given to it
    assert upload(client, json.dumps(export)).status_code == 200
    with Session(engine_of(client)) as session:
        places = {place.key: (place.name, place.uid) for place in records.locations(session)}
        assert sorted(name for name, _uid in places.values()) == sorted(["HOME", CAFE.upper(), "Club room"])
        assert places["home"] == ("HOME", HOME_UID)
        assert places[cafe_key] == (CAFE.upper(), "ours") and "theirs" not in str(places)
        assert places["club room"] == ("Club room", None)
        timed = session.exec(select(Play).where(Play.duration_min == 47)).one()
        assert timed.location is not None and timed.location.name == "HOME"


def csv_rows(client) -> list[list[str]]:
    """The CSV export's rows, read as a spreadsheet reads them."""
    return list(csv.reader(io.StringIO(client.get("/export.csv").get_data().decode("utf-8-sig"), newline="")))


def test_csv_appends_location_and_minutes_and_leaves_a_guest_without_a_roster_player(client) -> None:
    marked_history(client)
    with Session(engine_of(client)) as session:
        formula = records.find_or_add_location(session, '=HYPERLINK("http://x.example","Home")')
        assert formula is not None
        play = session.exec(select(Play).where(Play.duration_min == 47)).one()
        play.location_id = formula.id
        session.add(play)
        session.commit()
    rows = csv_rows(client)
    assert rows[0][:11] == [
        "date",
        "game",
        "play",
        "player",
        "colour",
        "seat",
        "total",
        "rank",
        "winner",
        "breakdown",
        "notes",
    ]
    assert rows[0][11:] == ["location", "duration_min"]
    timed = [row for row in rows[1:] if row[0] == "2026-02-01"]
    assert [(row[3], row[5], row[6]) for row in timed] == [("Ann", "1", "40"), ("Zoë", "2", "22"), ("", "3", "9")]
    assert {(row[11], row[12]) for row in timed} == {('\'=HYPERLINK("http://x.example","Home")', "47")}
    unscored = [row for row in rows[1:] if row[0] == "2026-02-02"]
    assert [(row[3], row[6], row[8], row[11], row[12]) for row in unscored] == [
        ("Bob", "3", "yes", CAFE, ""),
        ("Cy", "", "no", CAFE, ""),
    ]
    assert all(len(row) == 13 for row in rows)


def test_a_play_in_progress_with_a_place_restored_goes_on(client, tmp_path) -> None:
    marked_history(client)
    other = fresh_client(tmp_path)
    assert upload(other, client.get("/export.json").get_data()).status_code == 200
    with Session(engine_of(other)) as session:
        play = session.exec(select(Play).where(Play.status == "in_progress")).one()
        assert play.location is not None and play.location.name == CAFE
        seat_id = play.seats[0].id
    assert other.get(f"/plays/{play.id}").status_code == 200
    assert other.post(f"/plays/{play.id}/seats/{seat_id}", data={"field": "swords", "value": "1"}).status_code in (
        200,
        303,
    )


def test_a_tracked_play_keeps_its_minutes_through_the_round_trip(client, tmp_path) -> None:
    """A play finished at the tracker: the minutes records stored are the ones the file carries and restores."""
    play_id = start_play(client, ["Ann", "Bob"])
    with Session(engine_of(client)) as session:
        play = session.get(Play, play_id)
        assert play is not None
        play.duration_min = 95
        session.add(play)
        session.commit()
    export = exported(client)
    assert [p["duration_min"] for p in export["plays"]] == [95]
    other = fresh_client(tmp_path)
    assert upload(other, json.dumps(export)).status_code == 200
    assert by_uid(exported(other)) == by_uid(export)


def test_a_file_of_more_places_than_an_import_takes_is_refused_before_they_are_checked(app, client) -> None:
    """Places are bounded as players are (IMPORT_MAX_PLAYERS): a group has fewer of them."""
    app.config["IMPORT_MAX_PLAYERS"] = 3
    body = {
        "format": "companion-export",
        "version": 2,
        "exported_at": "2026-12-01T00:00:00+00:00",
        "players": [],
        "locations": [{"name": f"Room {n}"} for n in range(4)],
        "plays": [],
    }
    response = upload(client, json.dumps(body))
    assert response.status_code == 422
    assert "This file holds 4 places, more than an import takes: at most 3" in response.get_data(as_text=True)
    with Session(engine_of(client)) as session:
        assert records.locations(session) == []
    body["locations"] = body["locations"][:3]
    assert upload(client, json.dumps(body)).status_code == 200
    with Session(engine_of(client)) as session:
        assert [place.name for place in records.locations(session)] == ["Room 0", "Room 1", "Room 2"]
