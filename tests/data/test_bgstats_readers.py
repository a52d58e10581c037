"""Our BG Stats export read the way the open-source tools that read BG Stats backups read it (issue 20), the fields
only the tracker knows (duration, rounds, solo wins), and the import of scores typed as sums and differences, with
every play left out named.

Each reader test indexes what that tool indexes, as the format's public description and the tool's code have it
(not through our own importer): a KeyError, an IndexError or a wrong type here is that tool crashing on our file.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlmodel import Session, select

from companion import create_app
from companion.data.bgstats import export_backup, rounds, score_of
from companion.store import records
from companion.store.models import Play, Seat
from tests.helpers import csrf_client, history, post_json, postgres_url, save, timed, upload

DATE = "%Y-%m-%d %H:%M:%S"
TOP_LEVEL = ("groups", "userInfo", "players", "locations", "games", "plays", "tags", "challenges")


def read_date(text: str) -> datetime:
    """A date read as the Python readers read it, strptime("%Y-%m-%d %H:%M:%S"): any other form raises."""
    return datetime.strptime(text, DATE)  # noqa: DTZ007 (BG Stats writes no zone, and the readers assume none)


def at_table(client, play_id: int, start: datetime, minutes: float) -> None:
    """Set when a play was started and finished, and its minutes at the table as finishing stores them."""
    timed(client, play_id, start, minutes)
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None and play.finished_at is not None
        play.duration_min = records.minutes_played(play, play.finished_at)
        session.add(play)
        session.commit()


def tracked(client, game: str, names: list[str], actions: list[dict[str, Any]], **more: Any) -> int:
    """A play tracked through the API, its actions taken and finished as it stands; its id."""
    players = [{"name": name} for name in names]
    response = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players, **more})
    assert response.status_code == 201, response.get_json()
    play = response.get_json()["id"]
    for action in actions:
        assert post_json(client, f"/api/v1/plays/{play}/actions", action).status_code == 200
    assert post_json(client, f"/api/v1/plays/{play}/finish", {}).status_code == 200
    return play


def exported(client) -> dict[str, Any]:
    """Our BG Stats export, as the file a reader loads."""
    response = client.get("/export/bgstats.json")
    assert response.status_code == 200
    return json.loads(response.get_data())


@pytest.fixture
def data(client) -> dict[str, Any]:
    """The export of a small history with tracked plays and solo plays in it."""
    history(client)
    spqf = tracked(client, "spqf", ["Ann", "Bob", "Cy"], [{"action": "next_turn"}] * 6)
    at_table(client, spqf, datetime(2026, 2, 1, 19, 0, tzinfo=UTC), 95.4)
    tracked(client, "spyrium", ["Ann", "Dee"], [{"action": "start_turn"}] * 3)
    save(client, "spires", [{"name": "Ann", "scroll_vp": 70}], options={"solo": True})
    save(client, "spires", [{"name": "Bob", "scroll_vp": 55}], options={"solo": True})
    return exported(client)


# The readers ------------------------------------------------------------------------------------------------


def test_bgstats_wrapped_reads_it(data) -> None:
    """sqrtxander/bgstats-wrapped get_data.py, gen_wrap.py and main.py."""
    games = {game["id"]: (game["bggId"], game["name"], game["bggName"]) for game in data["games"]}
    assert all(isinstance(bgg_id, int) and not isinstance(bgg_id, bool) for bgg_id, _, _ in games.values())
    players = {player["id"]: player["name"] for player in data["players"]}
    for play in data["plays"]:
        read_date(play["playDate"])
        assert play["gameRefId"] in games and play["ignored"] is False
        for score in play["playerScores"]:
            assert score["playerRefId"] in players
            assert int(score["winner"]) + int(score["startPlayer"]) in (0, 1, 2)


def test_talitajames_data_visualiser_reads_it(data) -> None:
    """TalitaJames/bgStats-dataVisualiser BGStats_Class.py (every top-level list) and dataGathering.py."""
    raw = {key: data[key] for key in TOP_LEVEL}
    assert all(isinstance(raw[key], list) for key in TOP_LEVEL if key != "userInfo")
    for play in raw["plays"]:
        datetime.fromisoformat(play["playDate"])
        read_date(play["playDate"])
        game = raw["games"][play["gameRefId"] - 1]
        assert game["bggId"] == 0 or game["bggId"] == 137269
        assert play["uuid"] and isinstance(play["ignored"], bool)
        for score in play["playerScores"]:
            assert isinstance(score["playerRefId"], int) and isinstance(score["score"], str)
            assert isinstance(score["winner"], bool)


def test_luceleaftea_summary_reads_it(data) -> None:
    """luceleaftea/end-of-year-bgstats-summary general_summary.py: the self and anonymous ids, the playing times."""
    self_id = data["userInfo"]["meRefId"]
    anonymous = [player["id"] for player in data["players"] if player["isAnonymous"]]
    assert anonymous == [1] and self_id in {player["id"] for player in data["players"]}
    games = {game["id"]: (game["minPlayTime"] + game["maxPlayTime"]) / 2 for game in data["games"]}
    assert len(data["locations"]) == 0
    days = set()
    for play in data["plays"]:
        assert not play["ignored"] and play["gameRefId"] in games
        days.add(play["playDate"].split(" ")[0])
        for score in play["playerScores"]:
            assert score["playerRefId"] != anonymous[0] and isinstance(score["newPlayer"], bool)
            assert isinstance(score.get("role"), str)
        assert isinstance(play.get("board"), str)
    assert len(days) >= 3


def test_bgstats_merger_reads_it(data) -> None:
    """adrianocola/bgstats-merger index.js: each file named by its userInfo.meRefId player (`player.bggUsername ||
    player.name`, a TypeError where that id is no player), the "me" player's plays kept with the players in them,
    games by bggId, the rest by uuid, scores compared by evaluating them, new ids from the largest one."""
    me = next(player for player in data["players"] if player["id"] == data["userInfo"]["meRefId"])
    assert me.get("bggUsername") or me["name"]
    mine = [play for play in data["plays"] if any(s["playerRefId"] == me["id"] for s in play["playerScores"])]
    # The device owner by default: the player in the most plays (Ann: the SPQF, Spyrium and solo Spires plays).
    assert me["name"] == "Ann" and not me["isAnonymous"] and len(mine) == 4
    for key in ("players", "plays"):
        uuids = [entry["uuid"] for entry in data[key]]
        assert len(set(uuids)) == len(uuids) and all(uuids)
    assert max(player["id"] for player in data["players"]) == len(data["players"])
    for play in data["plays"]:
        # 0 is a play without a place: the merger's `if (play[field] ...)` and its lookup by id both skip it.
        assert play.get("locationRefId", 0) == 0 or play["locationRefId"] in {loc["id"] for loc in data["locations"]}
        for score in play["playerScores"]:
            assert re.fullmatch(r"-?\d+", score["score"])  # what eval() takes


def test_gnidan_elo_ratings_reads_it(data) -> None:
    """gnidan/bgstats-elo-ratings src/index.ts: games[gameRefId - 1] and players[playerRefId - 1], ranks sorted."""
    assert [game["id"] for game in data["games"]] == list(range(1, len(data["games"]) + 1))
    assert [player["id"] for player in data["players"]] == list(range(1, len(data["players"]) + 1))
    names = {player["id"]: player["name"] for player in data["players"]}
    for play in data["plays"]:
        assert play["usesTeams"] is False and data["games"][play["gameRefId"] - 1]["id"] == play["gameRefId"]
        for score in play["playerScores"]:
            assert data["players"][score["playerRefId"] - 1]["name"] == names[score["playerRefId"]]
            assert isinstance(score["rank"], int)


def test_typed_readers_read_it(data) -> None:
    """theiam79/BGStats.Bot Models/{Play,PlayerScore,Game}.cs and RickardNi/MagicDeckStats BGStatsModels.cs (typed
    properties: a JSON null or a number where text is declared throws), thorpelawrence/bgstats-sqlite (Go's
    time.DateTime), joshrainwater/bgstats-to-markdown (each reference resolving)."""

    def typed(entry: dict[str, Any], kind: type, *keys: str) -> None:
        """Each key there, of that JSON type (a bool is no int)."""
        for key in keys:
            assert isinstance(entry[key], kind) and (kind is bool or not isinstance(entry[key], bool)), key

    for game in data["games"]:
        typed(game, int, "id", "bggId", "minPlayerCount", "maxPlayerCount", "minPlayTime", "maxPlayTime")
        typed(game, bool, "highestWins", "noPoints", "cooperative", "usesTeams")
        # Real files write these two as 0 or 1 (a model declaring them bool rejects BG Stats' own files too).
        assert (game["isBaseGame"], game["isExpansion"]) == (1, 0)
    for player in data["players"]:
        typed(player, int, "id")
        typed(player, str, "uuid", "name")
        if "modificationDate" in player:
            read_date(player["modificationDate"])
    for play in data["plays"]:
        typed(play, int, "gameRefId", "durationMin", "rounds", "scoringSetting")
        typed(play, str, "uuid", "playDate", "entryDate", "modificationDate", "board")
        typed(play, bool, "ignored", "manualWinner", "usesTeams")
        assert [game["name"] for game in data["games"] if game["id"] == play["gameRefId"]]
        for score in play["playerScores"]:
            typed(score, int, "playerRefId", "rank", "seatOrder")
            typed(score, str, "score", "role")
            typed(score, bool, "winner", "newPlayer", "startPlayer")
            assert [player["name"] for player in data["players"] if player["id"] == score["playerRefId"]]


def test_an_empty_database_exports_a_file_readers_take(client) -> None:
    data = exported(client)
    assert list(data) == list(TOP_LEVEL)
    assert data["userInfo"] == {"meRefId": 1}
    assert data["players"] == [
        {"id": 1, "uuid": data["players"][0]["uuid"], "name": "Anonymous player", "isAnonymous": True}
    ]
    assert data["groups"] == data["tags"] == data["challenges"] == data["locations"] == data["plays"] == []


# What only the tracker knows ------------------------------------------------------------------------------------


def test_duration_rounds_and_solo_wins(data) -> None:
    games = {game["id"]: game["name"] for game in data["games"]}
    by_game: dict[str, list[dict[str, Any]]] = {}
    for play in data["plays"]:
        by_game.setdefault(games[play["gameRefId"]], []).append(play)
    (spqf,) = by_game["SPQF"]
    # Started 19:00, finished 20:35 and some seconds: 95 minutes; 6 Next turns of 3 players: turn 7, round 3.
    assert (spqf["durationMin"], spqf["rounds"]) == (95, 3)
    assert spqf["playDate"] == datetime(2026, 2, 1, 19, 0, tzinfo=UTC).astimezone().strftime(DATE)
    tracked_spyrium = [play for play in by_game["Spyrium"] if play["rounds"]]
    assert [play["rounds"] for play in tracked_spyrium] == [3]  # its turn 3 (of 6)
    # Scored at the end (the API, the calculator): no time at the table, no rounds counted.
    assert all(play["durationMin"] == 0 for play in by_game["Spyrium"])
    assert all(play["rounds"] == 0 for play in by_game["Spyrium"] if play not in tracked_spyrium)
    names = {player["id"]: player["name"] for player in data["players"]}
    solo = {names[p["playerScores"][0]["playerRefId"]]: p["playerScores"][0] for p in by_game["Spires"]}
    # 70 is the King's greeting card: won; 55 is a few days in the stocks: lost. Either ranks first, alone.
    assert {name: (s["score"], s["winner"], s["rank"]) for name, s in solo.items()} == {
        "Ann": ("70", True, 1),
        "Bob": ("55", False, 1),
    }


def test_rounds_from_each_games_table() -> None:
    def play(game: str, seats: int, table: dict[str, Any] | None) -> Play:
        """A finished play of so many seats whose tracker's table ended so."""
        return Play(
            game=game,
            rules_version="test",
            extra={} if table is None else {"table": table},
            seats=[Seat(player_id=1, name=f"P{i}", position=i) for i in range(seats)],
        )

    assert rounds(play("speros", 2, {"turn": 9})) == 5
    assert rounds(play("speros", 4, {"turn": 4})) == 1
    assert rounds(play("spqf", 3, {"turn": 7})) == 3
    assert rounds(play("spqf", 3, {"turn": 1})) == 0  # Next turn never tapped: the tracker counted no turns
    assert rounds(play("spyrium", 4, {"turn": 6})) == 6
    assert rounds(play("spires", 2, {})) == 0
    assert rounds(play("spyrium", 2, None)) == 0  # scored at the end or imported


def test_dates_in_a_zone_given(client) -> None:
    history(client)
    with Session(client.application.extensions["db_engine"]) as session:
        auckland = export_backup(session, timezone(timedelta(hours=13)))
        here = export_backup(session)
    first = next(play for play in auckland["plays"] if len(play["playerScores"]) == 3)
    assert first["playDate"] == "2026-01-03 08:30:00"  # played 2026-01-02 19:30 UTC
    mine = next(play for play in here["plays"] if len(play["playerScores"]) == 3)
    assert mine["playDate"] == datetime(2026, 1, 2, 19, 30, tzinfo=UTC).astimezone().strftime(DATE)


# Import: scores typed as sums and differences, plays left out named ------------------------------------------


def test_scores_with_plus_and_minus_between_terms() -> None:
    cases = {
        "24-12": 12,
        "66-5-0-11-17": 33,
        "52+18+41-3": 108,
        "−3+5": 2,
        " 42 - 9 – 23 — 16 ": -6,
        "+5": 5,
        "-200": -200,
        "31+3+1+8+7": 50,
        "3-": None,
        "--3": None,
        "3*2": None,
        "7.5": 7,
        "45.5-0.5": 45,
        "-0.5": -1,
        "1.5.5": None,
        "(3+2)": None,
        "1" * 19: None,
        "1000000-1": 999_999,
        "1000001-0": None,
    }
    assert {text: score_of(text) for text in cases} == cases


def backup(plays: list[dict[str, Any]]) -> str:
    """A BG Stats backup as real files are: the anonymous player first, other games beside ours."""
    players = ["Anonymous player", "Ann", "Bø", "Кира", "Dan", "Eve", "Fay"]
    return json.dumps(
        {
            "userInfo": {"meRefId": 2},
            "players": [
                {"id": i + 1, "uuid": f"A1A1A1A1-0000-0000-0000-00000000000{i}", "name": name, "isAnonymous": i == 0}
                for i, name in enumerate(players)
            ],
            "locations": [],
            "games": [
                {"id": 1, "name": "Spyrium", "bggId": 137269, "isBaseGame": 1, "isExpansion": 0},
                {"id": 2, "name": "6 nimmt!", "bggId": 432, "isBaseGame": 1, "isExpansion": 0},
            ],
            "plays": plays,
        }
    )


def bg_play(n: int, game: int, scores: list[tuple[int, Any, bool]], **more: Any) -> dict[str, Any]:
    """Play n (its uuid and day from it): (player id, score, winner) in the order given."""
    return {
        "uuid": f"C0FFEE00-0000-4000-8000-{n:012d}",
        "gameRefId": game,
        "playDate": f"2025-06-{n:02d} 20:15:00",
        "ignored": False,
        "playerScores": [
            {"playerRefId": ref, "score": score, "winner": won, "startPlayer": False, "seatOrder": 0, "rank": 0}
            for ref, score, won in scores
        ],
        **more,
    }


def test_scores_typed_as_differences_come_in(client) -> None:
    plays = [bg_play(1, 1, [(2, "24-12", False), (3, "52+18+41-3", True), (4, "66-5-0-11-17", False)])]
    html = upload(client, backup(plays)).get_data(as_text=True)
    assert "1 play added" in html
    with Session(client.application.extensions["db_engine"]) as session:
        (play,) = session.exec(select(Play)).all()
        assert [(seat.name, seat.total, seat.rank) for seat in play.seats] == [
            ("Ann", 12, 3),
            ("Bø", 108, 1),
            ("Кира", 33, 2),
        ]


def test_the_summary_names_every_play_of_ours_left_out(client, monkeypatch) -> None:
    plays = [
        bg_play(1, 1, [(2, "10", True), (3, "5", False)]),
        bg_play(2, 1, [(2, "", False), (3, "5", False)]),
        bg_play(3, 1, [(2, "3*2", True), (3, "7.5", False)]),
        bg_play(4, 1, [(2, "9", True)]),
        bg_play(5, 1, [(2, "9", True), (2, "8", False)]),
        bg_play(6, 2, [(2, "9", True), (3, "8", False)]),  # another game: counted, not named
        bg_play(7, 1, [(ref, str(ref), ref == 7) for ref in range(1, 8)] * 2),
        # Two anonymous seats are two guests, no player seated twice.
        bg_play(8, 1, [(1, "4", False), (1, "5", True)]),
    ]
    html = upload(client, backup(plays)).get_data(as_text=True).replace("&#39;", "'")
    said = re.findall(r"<li>(.*?)</li>", html)
    assert said == [
        "2 plays added, no plays already there.",
        "2 players added, no players already there.",
        "Left out: 1 play without a score for every player and no winner marked.",
        "Left out: 1 play with a score that is no number of points.",
        "Left out: 2 plays with a number of players the game is not for.",
        "Left out: 1 play with the same player twice.",
        "Left out: 1 play of other games.",
        "2025-06-02 20:15, Spyrium, Ann and Bø: left out, without a score for every player and no winner marked.",
        "2025-06-03 20:15, Spyrium, Ann and Bø: left out, with a score that is no number of points.",
        "2025-06-04 20:15, Spyrium, Ann: left out, with a number of players the game is not for.",
        "2025-06-05 20:15, Spyrium, Ann and Ann: left out, with the same player twice.",
        (
            "2025-06-07 20:15, Spyrium, Guest, Ann, Bø, Кира, Dan, Eve, Fay, Guest 2 and 6 more: "
            "left out, with a number of players the game is not for."
        ),
    ]
    # Left out again, named again; a play the database has (added meanwhile) is already there, not left out.
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.exec(select(Play).where(Play.uid == "c0ffee00000040008000000000000001")).one()
        play.uid = "c0ffee00000040008000000000000002"
        session.add(play)
        session.commit()
    monkeypatch.setattr("companion.data.bgstats.MAX_NAMED", 2)
    said = re.findall(r"<li>(.*?)</li>", upload(client, backup(plays)).get_data(as_text=True).replace("&#39;", "'"))
    assert said[0] == "1 play added, 2 plays already there."
    assert "Left out: 1 play without a score for every player and no winner marked." not in said
    assert said[-3:] == [
        "2025-06-03 20:15, Spyrium, Ann and Bø: left out, with a score that is no number of points.",
        "2025-06-04 20:15, Spyrium, Ann: left out, with a number of players the game is not for.",
        "And 2 more plays left out.",
    ]


@pytest.mark.postgres
def test_duration_rounds_and_scores_on_postgresql() -> None:
    """PostgreSQL gives the stored times back with their zone, SQLite without: the minutes are the same."""
    urls = postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "pg", "DATABASE_URL": next(urls)})
    try:
        client = csrf_client(app)
        play = tracked(client, "spqf", ["Ann", "Bob"], [{"action": "next_turn"}] * 4)
        at_table(client, play, datetime(2026, 2, 1, 19, 0, tzinfo=UTC), 61)
        (spqf,) = exported(client)["plays"]
        assert (spqf["durationMin"], spqf["rounds"]) == (61, 3)
        scores = [(2, "24-12", False), (3, "52+18+41-3", True)]
        assert "1 play added" in upload(client, backup([bg_play(1, 1, scores)])).get_data(as_text=True)
    finally:
        app.extensions["db_engine"].dispose()
        next(urls, None)
