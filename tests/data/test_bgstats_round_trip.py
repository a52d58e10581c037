"""A BG Stats file through the companion and back (issue 20): imported, then exported in BG Stats' format, it holds
the same plays (uuids, dates, scores as typed, winners, seats, places, minutes, ignored marks, comments), the same
players by uuid and name and our games' uuids, on SQLite and PostgreSQL; and again through a second database."""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session

from companion.data import bgstats
from companion.data.importing import DEFAULT_LIMITS
from tests.helpers import fresh_client, upload

PLAYERS = [
    (1, "8D1F2C3A-0000-4000-8000-000000000001", "Anonymous player", True),
    (2, "8D1F2C3A-0000-4000-8000-000000000002", "Ann", False),
    (3, "8D1F2C3A-0000-4000-8000-000000000003", "Bø", False),
    (4, "8D1F2C3A-0000-4000-8000-000000000004", "Кира", False),
    (5, "8D1F2C3A-0000-4000-8000-000000000005", "李娜", False),
    # Only in another game's plays: not ours to export.
    (6, "8D1F2C3A-0000-4000-8000-000000000006", "Catan Carl", False),
]
SPYRIUM_UUID = "5B5B5B5B-0000-4000-8000-000000000001"
SPIRES_UUID = "5B5B5B5B-0000-4000-8000-000000000002"


def line(ref: int, typed: str, winner: bool, order: int = 0, start: bool = False) -> dict[str, Any]:
    """A player score as BG Stats writes it (more fields than we read)."""
    return {
        "playerRefId": ref,
        "score": typed,
        "winner": winner,
        "newPlayer": False,
        "startPlayer": start,
        "seatOrder": order,
        "rank": 0,
        "role": "",
    }


def play(n: int, game: int, date: str, scores: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """Play n of the file."""
    return {
        "uuid": f"9E9E9E9E-0000-4000-8000-{n:012d}",
        "gameRefId": game,
        "playDate": date,
        "entryDate": date,
        "durationMin": 0,
        "ignored": False,
        "manualWinner": False,
        "locationRefId": 0,
        "comments": "",
        "playerScores": scores,
        **more,
    }


def bg_file() -> dict[str, Any]:
    """A group's BG Stats backup: every kind of real play of our games, and a play of another game."""
    return {
        "userInfo": {"meRefId": 2},
        "players": [{"id": i, "uuid": u, "name": name, "isAnonymous": anon} for i, u, name, anon in PLAYERS],
        "locations": [
            {"id": 1, "uuid": "7C7C7C7C-0000-4000-8000-000000000001", "name": "Home"},
            {"id": 2, "uuid": "7C7C7C7C-0000-4000-8000-000000000002", "name": "Café Zoë"},
            {"id": 3, "uuid": "7C7C7C7C-0000-4000-8000-000000000003", "name": "Never played at"},
        ],
        "games": [
            {"id": 1, "uuid": SPYRIUM_UUID, "name": "Spyrium", "bggId": 137269},
            {"id": 2, "uuid": SPIRES_UUID, "name": "Spires", "bggId": 0},
            {"id": 3, "uuid": "5B5B5B5B-0000-4000-8000-000000000003", "name": "Catan", "bggId": 13},
        ],
        "plays": [
            # Seats in order from the start player, a decimal tie-break, a place, minutes and a comment.
            play(
                1,
                1,
                "2025-03-01 19:30:00",
                [line(3, "45.5", True, 1, True), line(2, "45", False, 2), line(4, "31", False, 3)],
                locationRefId=1,
                durationMin=95,
                comments="Première partie — «long»",
            ),
            # Ignored, with two guests, no seat order.
            play(
                2,
                1,
                "2025-03-02 21:05:00",
                [line(1, "20", False), line(2, "25", True), line(1, "12", False)],
                ignored=True,
            ),
            # Winner only, at another place.
            play(3, 1, "2025-03-08 15:00:00", [line(5, "", True), line(4, "", False)], locationRefId=2, durationMin=40),
            # Scores typed as sums and differences; a shared win.
            play(4, 1, "2025-03-09 20:00:00", [line(2, "24-12", True), line(3, "10+2", True), line(5, "3", False)]),
            # A solo Spires play the King is pleased with.
            play(5, 2, "2025-03-10 10:00:00", [line(4, "70", True, 1, True)], durationMin=25),
            # Some scores and a winner flagged.
            play(6, 1, "2025-03-11 18:00:00", [line(2, "", True), line(3, "17", False), line(4, "", False)]),
            # Another game: left out, and its player with it.
            play(7, 3, "2025-03-12 18:00:00", [line(6, "9", True), line(2, "5", False)]),
        ],
    }


def plays_of(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A file's plays of our games as everything a round trip keeps, players and places by uuid and name."""
    players = {p["id"]: (p["uuid"], p["name"]) for p in data["players"] if not p.get("isAnonymous")}
    places = {p["id"]: (p["uuid"], p["name"]) for p in data["locations"]}
    games = {g["id"]: g["uuid"] for g in data["games"] if g["uuid"] in (SPYRIUM_UUID, SPIRES_UUID)}
    return sorted(
        (
            p["uuid"],
            p["playDate"],
            games[p["gameRefId"]],
            p["durationMin"],
            p["ignored"],
            places.get(p["locationRefId"]),
            p["comments"],
            [
                (players.get(s["playerRefId"], "guest"), s["score"], s["winner"], s["seatOrder"], s["startPlayer"])
                for s in p["playerScores"]
            ],
        )
        for p in data["plays"]
        if p["gameRefId"] in games
    )


def people_of(data: dict[str, Any], source: dict[str, Any]) -> set[tuple[str, str]]:
    """The players a file's plays of our games seat (not the anonymous one), by uuid and name."""
    ours = {p["id"] for p in source["games"] if p["uuid"] in (SPYRIUM_UUID, SPIRES_UUID)}
    seated = {s["playerRefId"] for p in data["plays"] if p["gameRefId"] in ours for s in p["playerScores"]}
    return {(p["uuid"], p["name"]) for p in data["players"] if p["id"] in seated and not p["isAnonymous"]}


def check_round_trip(source: dict[str, Any], exported: dict[str, Any]) -> None:
    """What the export holds is what the file held."""
    assert plays_of(exported) == plays_of(source)
    assert len(exported["plays"]) == 6
    mine = {(p["uuid"], p["name"]) for p in exported["players"] if not p["isAnonymous"]}
    assert mine == people_of(source, source) == {(u, n) for _, u, n, anon in PLAYERS[1:5]}
    uuids = {game["name"]: game["uuid"] for game in exported["games"]}
    assert (uuids["Spyrium"], uuids["Spires"]) == (SPYRIUM_UUID, SPIRES_UUID)
    # Only the places played at.
    assert sorted(place["name"] for place in exported["locations"]) == ["Café Zoë", "Home"]


def test_a_bg_stats_file_comes_back_as_it_went_in(db_client, tmp_path) -> None:
    client, _ = db_client
    source = bg_file()
    response = upload(client, json.dumps(source, ensure_ascii=False), "BGStatsExport.json")
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert "6 plays added" in html and "4 players added" in html and "Left out: 1 play of other games." in html
    exported = json.loads(client.get("/export/bgstats.json").get_data())
    check_round_trip(source, exported)
    # Into a second database and out again: the uuids were kept, not made anew.
    other = fresh_client(tmp_path, "second")
    try:
        assert "6 plays added" in upload(other, json.dumps(exported)).get_data(as_text=True)
        check_round_trip(source, json.loads(other.get("/export/bgstats.json").get_data()))
    finally:
        other.application.extensions["db_engine"].dispose()
    # The file again, and our export of it, into the first database: nothing added.
    for again in (source, exported):
        assert "No plays added, 6 plays already there." in upload(client, json.dumps(again)).get_data(as_text=True)


def test_the_round_trip_in_the_groups_time_zone(db_client) -> None:
    """Dates read in the group's zone are written back in it, an hour the clocks went back through included."""
    _, app = db_client
    source = bg_file()
    source["plays"][0]["playDate"] = "2025-10-26 02:30:00"  # Berlin passes 02:30 twice that night: the first
    berlin = ZoneInfo("Europe/Berlin")
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        bgstats.import_backup(session, bgstats.validate_backup(source, DEFAULT_LIMITS), berlin)
        exported = bgstats.export_backup(session, berlin)
        tokyo = bgstats.export_backup(session, ZoneInfo("Asia/Tokyo"))
    check_round_trip(source, exported)
    first = next(p for p in tokyo["plays"] if p["uuid"].endswith("000000000001"))
    assert first["playDate"] == "2025-10-26 09:30:00"  # 02:30 CEST is 00:30 UTC


def test_a_big_import_gathers_postgresqls_statistics_at_once(db_client, monkeypatch) -> None:
    """An import of many plays (here: ANALYZE_AFTER_PLAYS set to 1) runs ANALYZE on PostgreSQL, so the history read
    right after it is planned with the new rows; SQLite has nothing to gather."""
    from sqlalchemy import text

    from companion.data import importing

    client, app = db_client
    monkeypatch.setattr(importing, "ANALYZE_AFTER_PLAYS", 1)
    response = upload(client, json.dumps(bg_file(), ensure_ascii=False), "BGStatsExport.json")
    assert response.status_code == 200 and "6 plays added" in response.get_data(as_text=True)
    engine = app.extensions["db_engine"]
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            analyzed = connection.execute(
                text("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'play'")
            ).scalar()
        assert analyzed is not None
