"""BG Stats backups as BG Stats writes them (issue 33, part 2): read as BG Stats reads them, every play of ours we
can't take named with its reason and the rest kept, only a damaged, foreign or newer file refused; the export's
userInfo.meRefId a player of its plays (the setting BGSTATS_OWNER); a seat's colour as the player score's role, in
the createPlay link and the export alike.

The format facts these files are built from (companion/data/bgstats.py says where each comes from):
- A backup's top level holds "tags", "groups", "players", "locations", "games", "plays", "challenges",
  "deletedObjects" (the uuids of players, places, games and plays deleted) and "userInfo" {"meRefId",
  "bggUsername", "exportDate", "appVersion", "systemVersion", "device"}; "meRefId" is the device owner's player, one
  with plays.
- Ids are BG Stats' database ids, not list positions: players are listed by name (159, 17, 53, ...), and there may
  be several anonymous players (isAnonymous true).
- A player has "uuid", "id", "name", "isAnonymous", "modificationDate", "bggUsername" and "metaData" (a JSON text);
  other writers give players no uuid.
- A game has "bggId", "bggName", "bggYear", "designers", "metaData", "tags", "isBaseGame"/"isExpansion" as 0 or 1,
  "copies" and more; a game of no BGG page has bggId 0 (null or "" from other writers).
- A play has "uuid", "modificationDate", "entryDate", "playDate" ("YYYY-MM-DD HH:MM:SS"), "usesTeams",
  "durationMin", "ignored", "manualWinner", "rounds", "bggId", "importPlayId", "locationRefId" (0 or none: no
  place), "gameRefId", "rating", "nemestatsId", "scoringSetting", "metaData", "expansionPlays", and "board" and
  "comments" only where given; a play may name a place, a player or a game deleted since (in "deletedObjects").
- A player score has "score" (the text typed, null where none), "winner", "newPlayer", "startPlayer",
  "playerRefId", "rank", "seatOrder", and "role" (a character or faction: "Paladin") and "team" ("1") only where
  given.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any

import pytest
from sqlmodel import Session, select

from companion import cli, create_app
from companion.data import createplay
from companion.store.models import Play
from tests.helpers import counts, csrf_client, decoded, fresh_client, post_json, save, upload, use_database

# The players of the file: (id, name); 46 and 101 are anonymous players, 109 the device owner.
ANN, ME, BO, KIRA, ANON, ANON_2 = 159, 109, 17, 53, 46, 101
# The games: Spyrium (by its BGG id), Conquest of Speros and Spires (by name), Pandemic (another game).
SPYRIUM, SPEROS, SPIRES, PANDEMIC = 81, 26, 12, 39
# The places: 8 and 1 listed, 5 deleted.
WEEKEND, HOME, DELETED_PLACE = 8, 1, 5


def line(ref: int | str, score: Any, winner: Any = False, **more: Any) -> dict[str, Any]:
    """A player score as BG Stats writes it: every key, the score as typed (null for none)."""
    return {
        "score": score,
        "winner": winner,
        "newPlayer": False,
        "startPlayer": False,
        "playerRefId": ref,
        "rank": 0,
        "seatOrder": 0,
        **more,
    }


def real_play(n: int, game: int | str, scores: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """Play n (its uuid and day from n) as BG Stats writes it: every key it writes, at the place of the weekend."""
    return {
        "uuid": f"9ad2278c-7c9f-44ab-b879-{n:012d}",
        "modificationDate": "2025-03-02 10:27:34",
        "entryDate": "2025-03-02 10:23:25",
        "playDate": f"2025-03-{n:02d} 20:00:00",
        "usesTeams": False,
        "durationMin": 35,
        "ignored": False,
        "manualWinner": False,
        "rounds": 0,
        "bggId": 0,
        "importPlayId": 0,
        "locationRefId": WEEKEND,
        "gameRefId": game,
        "rating": 0,
        "nemestatsId": 0,
        "scoringSetting": 0,
        "metaData": '{"playUsedGameCopy":0}',
        "playerScores": scores,
        "expansionPlays": [],
        **more,
    }


def real_game(ref: int | str, name: str, bgg_id: Any, **more: Any) -> dict[str, Any]:
    """A game as BG Stats writes it, with its collection and metadata."""
    return {
        "uuid": f"645461be-32f3-4632-ab3c-{int(ref):012d}",
        "id": ref,
        "name": name,
        "modificationDate": "2021-10-03 14:00:40",
        "cooperative": name == "Pandemic",
        "highestWins": True,
        "noPoints": False,
        "usesTeams": False,
        "urlThumb": "https://cf.geekdo-images.com/thumb/img/x.png",
        "bggName": name,
        "bggYear": 2013,
        "bggId": bgg_id,
        "designers": "Someone",
        "metaData": '{"CollectionHistory":{"20200727":1}}',
        "tags": [{"tagRefId": 1}],
        "isBaseGame": 1,
        "isExpansion": 0,
        "rating": 0,
        "minPlayerCount": 1,
        "maxPlayerCount": 5,
        "minPlayTime": 30,
        "maxPlayTime": 90,
        "minAge": 10,
        "preferredImage": 0,
        "previouslyPlayedAmount": 0,
        "copies": [{"uuid": "d12e3494-0776-41e4-947e-c162726c384f", "statusOwned": True, "year": 0}],
        **more,
    }


def real_backup(plays: list[dict[str, Any]]) -> dict[str, Any]:
    """A BG Stats backup shaped as BG Stats' own (v5.5.6 on Android): players by name with database ids, two
    anonymous players, players without uuid, a place deleted, a game of another collection."""
    return {
        "tags": [{"uuid": "bfa15645-eb00-4aba-ab8a-071cc12644d3", "id": 1, "name": "My games", "type": "Personal"}],
        "groups": [{"uuid": "14f7b784-3c43-47dc-9bdc-fc9d30c7d1c8", "id": 1, "name": "All Games", "type": "Basis"}],
        "players": [
            {
                "uuid": "06a4f4a7-2051-4a59-acda-a5d52db7193c",
                "id": ANN,
                "name": "Ann",
                "isAnonymous": False,
                "modificationDate": "2023-01-20 21:34:21",
                "bggUsername": "",
                "metaData": '{"bgaUsername":"","yucataUsername":"","isNpc":0}',
            },
            {
                "uuid": "60cde66e-d7ea-49f7-a73a-66343cd68092",
                "id": ANON,
                "name": "Anonymous player",
                "isAnonymous": True,
            },
            {
                "uuid": "9EBE4351-182C-403D-B6EA-C45C0D67046B",
                "id": ANON_2,
                "name": "Anonymous player",
                "isAnonymous": True,
            },
            # Another writer's players: a null uuid, no uuid or isAnonymous at all, an id written as text.
            {"uuid": None, "id": BO, "name": "Bø", "isAnonymous": False, "bggUsername": None},
            {"id": KIRA, "name": "Кира"},
            {"id": str(ME), "name": "Me", "isAnonymous": False, "bggUsername": "me_on_bgg"},
        ],
        "locations": [
            {"uuid": "3448c17c-086a-4a8b-be03-75abc788e409", "id": WEEKEND, "name": "Board Game Weekend"},
            {"id": HOME, "name": "Home", "modificationDate": "2019-09-23 14:12:27"},
        ],
        "games": [
            real_game(SPYRIUM, "Spyrium", 137269),
            # No BGG page: a null BGG id and name from one writer, "" from another, and the id as text.
            real_game(SPEROS, "Conquest of Speros", None, bggName=None, uuid=None),
            real_game(str(SPIRES), "Spires", ""),
            real_game(PANDEMIC, "Pandemic", 30549),
        ],
        "plays": plays,
        "challenges": [],
        "deletedObjects": [
            {"uuid": "bc42af4c-ae9f-47c6-bebb-865507d339ad", "objectType": "Location", "externalId": 0},
            {"uuid": "e5b4eb9a-2058-472d-92b8-9484414dff15", "objectType": "Player", "externalId": 0},
            {"uuid": "9f7824b7-63fb-495f-9359-05c21e9df5f4", "objectType": "Game", "externalId": 0},
        ],
        "userInfo": {
            "meRefId": ME,
            "bggUsername": "me_on_bgg",
            "exportDate": "2025-04-01 15:57:51",
            "appVersion": "v5.5.6 (5050601)",
            "systemVersion": "Android 15 (35)",
            "device": "shiba Pixel 8",
        },
    }


def nulls(play: dict[str, Any]) -> dict[str, Any]:
    """The play with a null for every field it may have no value for, as BG Stats' Android app writes a score."""
    for key in (
        "comments",
        "board",
        "durationMin",
        "rounds",
        "usesTeams",
        "scoringSetting",
        "ignored",
        "locationRefId",
    ):
        play[key] = None
    for score in play["playerScores"]:
        score.update(rank=None, seatOrder=None, role=None, startPlayer=None, newPlayer=None)
        score["winner"] = score["winner"] or None
    return play


def without(play: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The play without these keys, as other writers leave them out."""
    return {key: value for key, value in play.items() if key not in keys}


def the_plays() -> list[dict[str, Any]]:
    """A year of plays as a real backup has them, with every kind of play BG Stats reads and we used to refuse."""
    red, blue = {"role": "Red"}, {"role": "Blue"}
    texts = real_play(9, str(SPYRIUM), [], durationMin="45", ignored=0, locationRefId=str(HOME))
    texts["playerScores"] = [
        line(str(ANN), "13", rank="2", seatOrder="2"),
        line(str(ME), 20, winner=1, rank="1", seatOrder="1", startPlayer="true"),
    ]
    return [
        # 1: every field BG Stats writes, colours as roles ("Red", as BG Stats shows them), a team as text.
        real_play(1, SPYRIUM, [line(ANN, "42", **red), line(ME, "50", True, **blue), line(BO, "7", team="1")]),
        # 2: locationRefId 0, a role that is no colour of the game (a character, as roles are for other games).
        real_play(
            2, SPEROS, [line(ANN, "30", True, role="green"), line(ME, "20", role="Swamp witch")], locationRefId=0
        ),
        # 3: no locationRefId, no durationMin at all.
        without(real_play(3, SPEROS, [line(KIRA, "12", True), line(BO, "10")]), "locationRefId", "durationMin"),
        # 4: a place deleted since (the file lists it in deletedObjects only).
        real_play(4, SPYRIUM, [line(ANN, "10"), line(ME, "11", True)], locationRefId=DELETED_PLACE),
        # 5: a player deleted since: left out, named.
        real_play(5, SPYRIUM, [line(ANN, "10", True), line(77, "9")]),
        # 6: a game deleted since: left out, counted.
        real_play(6, 300, [line(ANN, "10", True), line(ME, "9")]),
        # 7: null for everything it has no value for.
        nulls(real_play(7, SPYRIUM, [line(ANN, "31"), line(ME, "28")])),
        # 8: no uuid (another writer's play): Spires solo, 70 is the King's greeting card.
        without(real_play(8, str(SPIRES), [line(ME, "70", True)]), "uuid"),
        # 9: numbers and flags written as text.
        texts,
        # 10: a score that is no number: left out, named.
        real_play(10, SPYRIUM, [line(ANN, "lots"), line(ME, "5", True)]),
        # 11: a cooperative game of another collection, scores null: counted.
        real_play(11, PANDEMIC, [line(ANN, None, True), line(ME, None, True)], board="5 epidemics"),
        # 12: both anonymous players at one table.
        real_play(12, SPYRIUM, [line(ANON, "3"), line(ANON_2, "4"), line(ME, "5", True)]),
    ]


SUMMARY = [
    "8 plays added, no plays already there.",
    "4 players added, no players already there.",
    "Left out: 1 play with a player the file does not list.",
    "Left out: 1 play of a game the file does not list.",
    "Left out: 1 play with a score that is no number of points.",
    "Left out: 1 play of other games.",
    "2025-03-05 20:00, Spyrium, Ann and player 77: left out, with a player the file does not list.",
    "2025-03-10 20:00, Spyrium, Ann and Me: left out, with a score that is no number of points.",
]


def said(response) -> list[str]:
    """The lines of an import's summary on the page."""
    return re.findall(r"<li>(.*?)</li>", response.get_data(as_text=True).replace("&#39;", "'"))


def stored_plays(client) -> dict[str, tuple[Any, ...]]:
    """Each play by its day: game, (name, colour, total, rank) in seat order, place, minutes, seat order known."""
    with Session(client.application.extensions["db_engine"]) as session:
        return {
            play.played_at.strftime("%d"): (
                play.game,
                [(seat.name, seat.colour, seat.total, seat.rank) for seat in play.seats],
                play.location.name if play.location else None,
                play.duration_min,
                play.seats_known,
            )
            for play in session.exec(select(Play))
        }


# Reading a real backup -------------------------------------------------------------------------------------------


def test_a_real_backup_imports_with_each_play_left_out_named(client) -> None:
    raw = json.dumps(real_backup(the_plays()), ensure_ascii=False)
    response = upload(client, raw, "BGStatsExport.json")
    assert response.status_code == 200, response.get_data(as_text=True)[-2000:]
    assert said(response) == SUMMARY
    assert stored_plays(client) == {
        "01": ("spyrium", [("Ann", "red", 42, 2), ("Me", "blue", 50, 1), ("Bø", "", 7, 3)], "Board Game Weekend", 35,
               False),
        "02": ("speros", [("Ann", "green", 30, 1), ("Me", "", 20, 2)], None, 35, False),
        "03": ("speros", [("Кира", "", 12, 1), ("Bø", "", 10, 2)], None, None, False),
        "04": ("spyrium", [("Ann", "", 10, 2), ("Me", "", 11, 1)], None, 35, False),
        "07": ("spyrium", [("Ann", "", 31, 1), ("Me", "", 28, 2)], None, None, False),
        "08": ("spires", [("Me", "", 70, 1)], "Board Game Weekend", 35, False),
        "09": ("spyrium", [("Me", "", 20, 1), ("Ann", "", 13, 2)], "Home", 45, True),
        "12": ("spyrium", [("Guest", "", 3, 3), ("Guest 2", "", 4, 2), ("Me", "", 5, 1)], "Board Game Weekend", 35,
               False),
    }  # fmt: skip
    # The same file again adds nothing, the play without a uuid included (its uid made from what it holds).
    before = counts(client)
    assert said(upload(client, raw))[0] == "No plays added, 8 plays already there."
    assert counts(client) == before


@pytest.mark.parametrize(
    ("change", "summary"),
    [
        # A backup of a new phone: every list there, and empty.
        (lambda d: d.update(players=[], games=[], plays=[], locations=[]), "No plays added, no plays already there."),
        # No places at all, the plays naming one: they come without.
        (lambda d: d.update(locations=[]), "8 plays added, no plays already there."),
        (lambda d: d.pop("locations"), "8 plays added, no plays already there."),
        (lambda d: d.update(locations=None), "8 plays added, no plays already there."),
        # No players listed: each play of ours names a player the file does not list.
        (lambda d: d.update(players=[]), "No plays added, no plays already there."),
    ],
    ids=["all-empty", "locations-empty", "no-locations", "locations-null", "players-empty"],
)
def test_empty_lists_are_no_damage(client, change, summary) -> None:
    data = real_backup(the_plays())
    change(data)
    response = upload(client, json.dumps(data))
    assert response.status_code == 200, response.get_data(as_text=True)[-2000:]
    assert said(response)[0] == summary
    assert {place for _, _, place, _, _ in stored_plays(client).values()} <= {None}


def test_with_no_players_listed_each_play_of_ours_is_named(client) -> None:
    data = real_backup(the_plays())
    data["players"] = []
    lines = said(upload(client, json.dumps(data)))
    assert "Left out: 10 plays with a player the file does not list." in lines
    named = "2025-03-01 20:00, Spyrium, player 159, player 109 and player 17: left out, with a player the file does"
    assert f"{named} not list." in lines


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (lambda raw: raw[: len(raw) // 2], "This file is not valid JSON (line 1, column"),
        (lambda raw: json.dumps({"plays": [], "players": []}), "neither a Companion export nor a BG Stats export"),
        (lambda raw: json.dumps([json.loads(raw)]), "This file is JSON but no export"),
        (lambda raw: json.dumps({"format": "companion-export", "version": 99}), "This export is of a newer format"),
        (lambda raw: raw.replace('"2025-03-07 20:00:00"', '"last Friday"'), "This BG Stats file is damaged."),
        (lambda raw: raw.replace('"durationMin": 35', '"durationMin": "long"', 1), "This BG Stats file is damaged."),
    ],
    ids=["cut-short", "foreign", "a-list", "newer", "no-date", "minutes-no-number"],
)
def test_a_damaged_foreign_or_newer_file_is_still_refused(client, body, reason) -> None:
    before = counts(client)
    response = upload(client, body(json.dumps(real_backup(the_plays()))))
    html = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 422 and reason in html and "Nothing was changed." in html
    assert counts(client) == before


def test_the_command_line_imports_a_real_backup(client, tmp_path, monkeypatch, capsys) -> None:
    use_database(monkeypatch, tmp_path, client)
    source = tmp_path / "BGStatsExport.json"
    source.write_text(json.dumps(real_backup(the_plays()), ensure_ascii=False), encoding="utf-8")
    assert cli.main(["import", str(source)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"Imported {source} (BG Stats export).", *SUMMARY]


# The export's owner (userInfo.meRefId) --------------------------------------------------------------------------


def exported(client) -> dict[str, Any]:
    """Our BG Stats export, as a reader loads it."""
    response = client.get("/export/bgstats.json")
    assert response.status_code == 200
    return json.loads(response.get_data())


def me(data: dict[str, Any]) -> dict[str, Any]:
    """The player userInfo.meRefId names, as bgstats-merger finds it (`_.find(players, ['id', meRefId])`), checked
    to be in the file's plays as the merger's filterPlays and end-of-year-bgstats-summary take it."""
    (player,) = [player for player in data["players"] if player["id"] == data["userInfo"]["meRefId"]]
    assert any(s["playerRefId"] == player["id"] for play in data["plays"] for s in play["playerScores"])
    return player


def spyrium(client, *names: str) -> int:
    """A finished play of Spyrium for these players, the first one winning."""
    return save(client, "spyrium", [{"name": name, "vp_track": 10 - i} for i, name in enumerate(names)])


def test_the_owner_is_the_player_in_the_most_plays_ties_by_name(client) -> None:
    spyrium(client, "Cy", "Bob")
    spyrium(client, "Bob", "Ann")
    spyrium(client, "Cy", "ann")
    # Ann, Bob and Cy are in two plays each: the first by name.
    assert me(exported(client))["name"] == "Ann"
    spyrium(client, "Dee", "Cy")
    owner = me(exported(client))
    assert owner["name"] == "Cy" and owner["isAnonymous"] is False


def test_bgstats_owner_names_the_owner(client, caplog) -> None:
    spyrium(client, "Ann", "Bob")
    spyrium(client, "Ann", "Cy")
    # Matched as a name typed at the table is.
    client.application.config["BGSTATS_OWNER"] = "  BOB "
    assert me(exported(client))["name"] == "Bob"
    # A name in no exported play (no player of that name, or one only in a play going on) counts as unset, and says so.
    post_json(client, "/api/v1/plays", {"game": "spires", "track": True, "players": [{"name": "Dee"}, {"name": "Eve"}]})
    for name in ("Zed", "Dee"):
        client.application.config["BGSTATS_OWNER"] = name
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="companion.data.bgstats"):
            assert me(exported(client))["name"] == "Ann"
        assert f"BGSTATS_OWNER is '{name}', who is in none of the exported plays" in caplog.text


def test_bgstats_owner_from_the_environment(client, tmp_path, monkeypatch) -> None:
    spyrium(client, "Ann", "Bob")
    use_database(monkeypatch, tmp_path, client)
    monkeypatch.setenv("COMPANION_BGSTATS_OWNER", "Bob")
    app = create_app()
    try:
        assert app.config["BGSTATS_OWNER"] == "Bob"
        assert me(exported(csrf_client(app)))["name"] == "Bob"
    finally:
        app.extensions["db_engine"].dispose()


def test_without_a_roster_player_in_its_plays_the_file_names_the_anonymous_player(client, tmp_path) -> None:
    client.application.config["BGSTATS_OWNER"] = "Ann"
    # No plays at all, or only one going on: the anonymous player, the only one in the file.
    post_json(client, "/api/v1/plays", {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bo"}]})
    data = exported(client)
    assert data["userInfo"]["meRefId"] == 1 and data["plays"] == [] and [p["id"] for p in data["players"]] == [1]
    # Only guests' plays (BG Stats' anonymous players, imported): that player is the one in them.
    guests = real_backup([real_play(1, SPYRIUM, [line(ANON, "3"), line(ANON_2, "4", True)])])
    other = fresh_client(tmp_path)
    try:
        assert said(upload(other, json.dumps(guests)))[0] == "1 play added, no plays already there."
        data = exported(other)
        assert me(data) == data["players"][0] and data["players"][0]["isAnonymous"] is True
        assert len(data["players"]) == 1
    finally:
        other.application.extensions["db_engine"].dispose()


# A seat's colour as its role -------------------------------------------------------------------------------------

SPEROS_PLAYERS = [
    {"name": "Ann", "color": "green", "captured": [{"terrain": "forest", "resources": ["crystal"], "vp": 5}]},
    {"name": "Bob", "color": "black", "minions_familiar": 2},
]


def roles(client, play_id: int) -> tuple[list[str | None], list[str]]:
    """Each player's role in the play's createPlay link (None: none sent) and in the export's player scores."""
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None
        link = decoded(createplay.url(play))
        uid = play.uid
    (out,) = [p for p in exported(client)["plays"] if p["uuid"].replace("-", "").lower() == uid]
    return [player.get("role") for player in link["players"]], [score["role"] for score in out["playerScores"]]


def test_a_speros_play_scored_at_the_end_sends_each_colour_as_the_role(client, tmp_path) -> None:
    play_id = save(client, "speros", SPEROS_PLAYERS)
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        # Scored at the end, the colours are its result's (what it was scored by), not the seats'.
        assert play is not None and [seat.colour for seat in play.seats] == ["", ""]
    assert roles(client, play_id) == (["Green", "Black"], ["Green", "Black"])
    # The export's roles bring the colours back in: the seats of the play imported have them.
    other = fresh_client(tmp_path)
    try:
        assert said(upload(other, client.get("/export/bgstats.json").get_data()))[0].startswith("1 play added")
        with Session(other.application.extensions["db_engine"]) as session:
            (imported,) = session.exec(select(Play)).all()
            assert [seat.colour for seat in imported.seats] == ["green", "black"]
    finally:
        other.application.extensions["db_engine"].dispose()


def test_a_tracked_play_sends_its_seats_colours_and_none_where_a_seat_has_none(client) -> None:
    players = [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"}]
    view = post_json(client, "/api/v1/plays", {"game": "speros", "track": True, "players": players}).get_json()
    assert post_json(client, f"/api/v1/plays/{view['id']}/finish", {}).status_code == 200
    assert roles(client, view["id"]) == (["Blue", "Red"], ["Blue", "Red"])
    # SPQF: one seat with a colour, one without.
    spqf = post_json(
        client, "/api/v1/plays", {"game": "spqf", "track": True, "players": [{"name": "Cy", "colour": "yellow"},
                                                                            {"name": "Dee"}]}
    ).get_json()  # fmt: skip
    assert post_json(client, f"/api/v1/plays/{spqf['id']}/finish", {}).status_code == 200
    assert roles(client, spqf["id"]) == (["Yellow", None], ["Yellow", ""])
    # A play of no colours at all: no role sent, "" in the file (the typed readers declare it text).
    assert roles(client, spyrium(client, "Ann", "Bob")) == ([None, None], ["", ""])


def test_a_colour_that_is_no_colour_of_the_game_is_sent_as_none(client) -> None:
    play_id = save(client, "speros", copy.deepcopy(SPEROS_PLAYERS))
    assert roles(client, play_id)[0] == ["Green", "Black"]
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None
        # A colour no longer the game's (a stored play of an older version, say) is sent as none.
        play.extra = {
            **play.extra,
            "players": [{**play.extra["players"][0], "color": "mauve"}, play.extra["players"][1]],
        }
        session.add(play)
        session.commit()
    assert roles(client, play_id) == ([None, "Black"], ["", "Black"])
