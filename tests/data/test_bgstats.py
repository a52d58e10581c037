"""BG Stats' backup format (issue 11): our finished plays out, a backup's plays of our four games in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.data.bgstats import play_uid, ranks, score_of
from companion.store.models import Play
from tests.helpers import counts, csrf_client, fresh_client, history, save, upload


def results(client) -> list[tuple[str, str, list[tuple[str, int | None, int]]]]:
    """Each finished play as (date, game, [(name, total, rank) in seat order]), by date (a total may be None)."""
    with Session(client.application.extensions["db_engine"]) as session:
        plays = session.exec(select(Play).where(Play.status == "finished", Play.deleted_at.is_(None))).all()
        return sorted(
            ((str(play.played_at)[:16], play.game, [(s.name, s.total, s.rank) for s in play.seats]) for play in plays),
            key=repr,
        )


def backup(plays: list[dict[str, Any]], **more: Any) -> str:
    """A BG Stats backup as the app writes it: more fields than we read, scores as text, upper-case uuids."""
    return json.dumps(
        {
            "userInfo": {"meRefId": 1},
            "players": [
                {"id": 1, "uuid": "A1A1A1A1-0000-0000-0000-000000000001", "name": "Ann", "isAnonymous": False},
                {"id": 2, "uuid": "A1A1A1A1-0000-0000-0000-000000000002", "name": "Bø", "isAnonymous": False},
                {"id": 3, "uuid": "A1A1A1A1-0000-0000-0000-000000000003", "name": "Кира", "isAnonymous": False},
            ],
            "locations": [{"id": 1, "name": "Home", "uuid": "B1B1B1B1-0000-0000-0000-000000000001"}],
            "games": [
                {
                    "id": 10,
                    "name": "Spyrium (2013)",
                    "bggId": 137269,
                    "highestWins": True,
                    "designers": "William Attia",
                },
                {"id": 11, "name": "spires", "bggId": 0, "highestWins": True},
                {"id": 12, "name": "Catan", "bggId": 13, "highestWins": True},
            ],
            "plays": plays,
            **more,
        }
    )


def bg_play(uid: str, game: int, scores: list[tuple[int, Any, bool]], **more: Any) -> dict[str, Any]:
    """A BG Stats play: (player id, score, winner) in the order given."""
    return {
        "uuid": uid,
        "gameRefId": game,
        "playDate": "2025-06-01 20:15:00",
        "entryDate": "2025-06-01 21:00:00",
        "durationMin": 75,
        "ignored": False,
        "manualWinner": False,
        "locationRefId": 1,
        "expansionPlays": [],
        "playerScores": [
            {
                "playerRefId": ref,
                "score": score,
                "winner": won,
                "newPlayer": False,
                "startPlayer": False,
                "rank": 0,
                "seatOrder": 0,
                "role": "",
            }
            for ref, score, won in scores
        ],
        **more,
    }


def test_export_has_games_players_and_plays_with_scores(client) -> None:
    history(client)
    response = client.get("/export/bgstats.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert 'filename="companion-bgstats-' in response.headers["Content-Disposition"]
    data = json.loads(response.get_data())
    assert {g["name"] for g in data["games"]} == {"SPQF", "Spyrium", "Spires", "Conquest of Speros"}
    spyrium = next(g for g in data["games"] if g["name"] == "Spyrium")
    assert spyrium["bggId"] == 137269
    # No BGG id found: 0, as readers take a game on no BGG page.
    assert all(g["bggId"] == 0 for g in data["games"] if g["name"] != "Spyrium")
    assert len(data["plays"]) == 2  # finished plays only, the deleted one left out
    names = {p["id"]: p["name"] for p in data["players"]}
    first = next(p for p in data["plays"] if len(p["playerScores"]) == 3)
    assert first["gameRefId"] == spyrium["id"] and first["playDate"].startswith("2026-01-0")
    assert [(names[s["playerRefId"]], s["score"], s["winner"]) for s in first["playerScores"]] == [
        ("Ιωάννα", "64", False),
        ("陈伟", "13", False),
        ("=cmd|' /C calc'!A0", "67", True),
    ]
    assert [s["startPlayer"] for s in first["playerScores"]] == [True, False, False]
    assert [s["seatOrder"] for s in first["playerScores"]] == [1, 2, 3]
    tie = next(p for p in data["plays"] if len(p["playerScores"]) == 2)
    assert [s["winner"] for s in tie["playerScores"]] == [True, True]
    assert len(first["uuid"]) == 36 and first["uuid"] == first["uuid"].upper()


def test_round_trip_keeps_players_scores_and_winners(client, tmp_path) -> None:
    history(client)
    exported = client.get("/export/bgstats.json").get_data()
    other = fresh_client(tmp_path)
    response = upload(other, exported, "bgstats.json")
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert "2 plays added" in html and "BG Stats export" in html
    assert results(other) == results(client)
    with Session(other.application.extensions["db_engine"]) as session:
        play = session.exec(select(Play)).first()
        assert play.source == "bgstats" and play.seats[0].breakdown == []
    # Ours again, into the database it came from and into the fresh one: nothing added.
    for target in (client, other):
        before = counts(target)
        assert "No plays added, 2 plays already there." in upload(target, exported).get_data(as_text=True)
        assert counts(target) == before
    # Through our own export into a third database: plays without score lines pass its checks.
    third = fresh_client(tmp_path, "third")
    assert "2 plays added" in upload(third, other.get("/export.json").get_data()).get_data(as_text=True)
    assert results(third) == results(client)
    # An imported play's result page shows its totals without lines.
    page = other.get(f"/plays/{play.id}")
    assert page.status_code == 200 and play.seats[0].name in page.get_data(as_text=True)


def test_import_of_a_real_shaped_backup(client) -> None:
    plays = [
        # Spyrium, matched by its BGG id though named otherwise; the seat order given, from the start player on.
        bg_play("C0FFEE00-0000-4000-8000-000000000001", 10, [(1, "42", False), (2, "3+20+25", True), (3, "7", False)]),
        # A shared win on equal scores; the third player behind them ranks 3. No seat order: kept as listed.
        bg_play("C0FFEE00-0000-4000-8000-000000000002", 10, [(1, "50", True), (2, "50", True), (3, "20", False)]),
        # Spires by name (any case), colours as roles, a one-player solo play.
        bg_play("C0FFEE00-0000-4000-8000-000000000003", 11, [(3, 31, False)]),
        bg_play("C0FFEE00-0000-4000-8000-000000000004", 12, [(1, "9", True), (2, "5", False)]),  # Catan
        # Ignored in BG Stats: kept, and marked.
        bg_play("C0FFEE00-0000-4000-8000-000000000005", 10, [(1, "9", True), (2, "5", False)], ignored=True),
        # A score missing, a winner flagged: the flag says who won, the score there is kept.
        bg_play("C0FFEE00-0000-4000-8000-000000000006", 10, [(1, "", True), (2, "5", False)]),
    ]
    for order, score in zip((3, 1, 2), plays[0]["playerScores"], strict=True):
        score["seatOrder"] = order
    plays[0]["playerScores"][1]["startPlayer"] = True
    plays[2]["playerScores"][0]["role"] = "Red"
    response = upload(client, backup(plays), "BGStatsExport.json")
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert "5 plays added" in html and "3 players added" in html
    assert "Left out: 1 play of other games." in html and html.count("Left out") == 1
    got = results(client)
    assert sorted((g[1:] for g in got), key=repr) == sorted(
        [
            ("spyrium", [("Bø", 48, 1), ("Кира", 7, 3), ("Ann", 42, 2)]),
            ("spyrium", [("Ann", 50, 1), ("Bø", 50, 1), ("Кира", 20, 3)]),
            ("spires", [("Кира", 31, 1)]),
            ("spyrium", [("Ann", 9, 1), ("Bø", 5, 2)]),
            ("spyrium", [("Ann", None, 1), ("Bø", 5, 2)]),
        ],
        key=repr,
    )
    with Session(client.application.extensions["db_engine"]) as session:
        solo = session.exec(select(Play).where(Play.game == "spires")).one()
        assert solo.options["solo"] is True and solo.seats[0].colour == "red"
        assert solo.uid == "c0ffee0000004000800000000000000" + "3"
        marks = {play.uid[-1]: (play.ignored, play.seats_known) for play in session.exec(select(Play))}
        assert marks == {"1": (False, True), "2": (False, False), "3": (False, False), "5": (True, False),
                         "6": (False, False)}  # fmt: skip
        assert {play.location.name for play in session.exec(select(Play))} == {"Home"}
        assert {play.duration_min for play in session.exec(select(Play))} == {75}
    before = counts(client)
    assert "No plays added, 5 plays already there." in upload(client, backup(plays)).get_data(as_text=True)
    assert counts(client) == before


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # What makes a play (its game, date and scores) missing or of a type no file has: damage. A reference to
        # what the file does not list, or no uuid, is none (test_bgstats_real_files.py).
        (lambda p: p[0].update(gameRefId="Spyrium"), "gameRefId: Input should be a valid integer"),
        (lambda p: p[0].update(playDate="yesterday"), "is not a date"),
        # The last day of the calendar with a zone west of UTC has no UTC twin.
        (lambda p: p[0].update(playDate="9999-12-31T23:00:00-05:00"), "is not a date"),
        (lambda p: p[0].pop("playerScores"), "Field required"),
        (lambda p: p[0].update(comments=["a", "list"]), "comments: Input should be a valid string"),
        (lambda p: p[0]["playerScores"][0].update(winner="maybe"), "winner: Input should be a valid boolean"),
    ],
)
def test_a_damaged_backup_is_refused_with_nothing_changed(client, change, said) -> None:
    save(client, "spyrium", [{"name": "Zoe", "vp_track": 1}, {"name": "Yan", "vp_track": 2}])
    plays = [
        bg_play("C0FFEE00-0000-4000-8000-00000000000A", 10, [(1, "4", True), (2, "3", False)]),
        bg_play("C0FFEE00-0000-4000-8000-00000000000B", 10, [(1, "4", True), (2, "3", False)]),
    ]
    change(plays)
    before = counts(client)
    response = upload(client, backup(plays))
    html = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 422, html
    assert "BG Stats file is damaged" in html and said in html
    assert counts(client) == before


def test_scores_uids_and_ranks_as_bg_stats_has_them() -> None:
    # A decimal is a tie-break typed into the score: the whole part, rounded down (toward minus infinity).
    assert [score_of(v) for v in ("42", " -3 ", "−3", "3+20+5", "4.5", "-4.5", "", "abc", 7, 7.0, 7.5, None, True)] == [
        42,
        -3,
        -3,
        28,
        4,
        -5,
        None,
        None,
        7,
        7,
        7,
        None,
        None,
    ]
    assert score_of("1" + "0" * 7) is None and score_of(-(10**12)) is None and score_of("1000000") == 1_000_000
    assert play_uid("c0ffee00-0000-4000-8000-000000000001") == "c0ffee00000040008000000000000001"
    assert play_uid("my-own-id") == "my-own-id"
    long = play_uid("x" * 50)
    assert len(long) == 36 and long == play_uid("x" * 50) and long.startswith("bgs-")
    assert ranks([10, 30, 30, 5], [False, True, True, False]) == [3, 1, 1, 4]
    assert ranks([10, 30, 20], [True, False, False]) == [1, 2, 3]  # BG Stats' winner over the scores
    assert ranks([10, 30, 30], [False, False, False]) == [3, 1, 1]  # no winner flagged: the scores decide
    # Ranks the file gives stand when they hold together: a tie-break separated the two players on 40.
    assert ranks([60, 40, 40], [True, False, False], [1, 2, 3]) == [1, 2, 3]
    assert ranks([60, 40, 40], [True, False, False], [0, 0, 0]) == [1, 2, 2]
    assert ranks([60, 40, 40], [True, False, False], [2, 1, 3]) == [1, 2, 2]  # first is not the winner: not kept
    assert ranks([60, 40, 40], [True, False, False], [1, 2, 9]) == [1, 2, 2]  # past the last seat: not kept


@pytest.mark.postgres
def test_bgstats_import_on_postgresql(client) -> None:
    from companion import create_app
    from tests.helpers import postgres_url

    history(client)
    exported = client.get("/export/bgstats.json").get_data()
    urls = postgres_url()
    app = create_app({"TESTING": True, "SECRET_KEY": "pg", "DATABASE_URL": next(urls)})
    try:
        other = csrf_client(app)
        assert "2 plays added" in upload(other, exported).get_data(as_text=True)
        assert results(other) == results(client)
        assert "No plays added, 2 plays already there." in upload(other, exported).get_data(as_text=True)
    finally:
        app.extensions["db_engine"].dispose()
        next(urls, None)


def test_a_backup_with_a_nul_character_is_refused_with_nothing_changed(client) -> None:
    """PostgreSQL can't store it, and SQLite would keep a name that our own export then can't bring back."""
    plays = [
        bg_play("C0FFEE00-0000-4000-8000-00000000000C", 10, [(1, "4", True), (2, "3", False)], comments="a\u0000b")
    ]
    before = counts(client)
    response = upload(client, backup(plays))
    assert response.status_code == 422
    assert "holds text that can't be stored" in response.get_data(as_text=True).replace("&#39;", "'")
    assert counts(client) == before


def test_a_party_game_of_150_players_in_the_backup_is_within_its_bounds(client) -> None:
    """A backup holds every game logged: a convention's play of another game with 150 players is no damage."""
    crowd = [{"playerRefId": 100 + i, "score": str(i), "winner": i == 0} for i in range(150)]
    party = bg_play("C0FFEE00-0000-4000-8000-00000000000D", 12, []) | {"playerScores": crowd}
    ours = bg_play("C0FFEE00-0000-4000-8000-00000000000E", 10, [(1, "4", True), (2, "3", False)])
    data = json.loads(backup([party, ours]))
    data["players"] += [{"id": 100 + i, "name": f"Guest {i}"} for i in range(150)]
    response = upload(client, json.dumps(data))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert "1 play added" in html and "Left out: 1 play of other games." in html
