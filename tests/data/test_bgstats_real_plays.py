"""Real plays from BG Stats (issue 20): guests, ignored plays, plays without seat order, decimal scores, winner-only
plays, places, minutes and uuids, each imported as BG Stats means it and exported back so, on SQLite and PostgreSQL;
the time zone of a file's dates (the setting BGSTATS_TIME_ZONE); the createPlay link of such plays."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal as D
from typing import Any

import pytest
from sqlmodel import Session, select

from companion import cli, create_app
from companion.config import SettingError
from companion.data import createplay
from companion.data.bgstats import bg_uuid, decimal_tiebreak, number_text, ranks
from companion.store import records
from companion.store.models import GameUid, Location, Play, Player
from tests.helpers import counts, csrf_client, decoded, fresh_client, save, upload, use_database

NAMES = {1: "Anonymous player", 2: "Ann", 3: "Bø", 4: "Кира"}


def uuid_of(kind: int, n: int) -> str:
    """A BG Stats uuid (upper case, as the app writes them): kind 1 plays, 2 players, 3 places, 4 games."""
    return f"C0FFEE0{kind}-0000-4000-8000-{n:012d}"


def bg_file(plays: list[dict[str, Any]]) -> str:
    """A BG Stats backup as real ones are: the anonymous player first, two places, another game beside ours."""
    return json.dumps(
        {
            "userInfo": {"meRefId": 2},
            "players": [
                {"id": ref, "uuid": uuid_of(2, ref), "name": name, "isAnonymous": ref == 1}
                for ref, name in NAMES.items()
            ],
            "locations": [
                {"id": 1, "uuid": uuid_of(3, 1), "name": "Home"},
                {"id": 2, "uuid": uuid_of(3, 2), "name": "  Café   Zoë "},
            ],
            "games": [
                {"id": 1, "uuid": uuid_of(4, 1), "name": "Spyrium", "bggId": 137269},
                {"id": 2, "uuid": uuid_of(4, 2), "name": "Spires", "bggId": 0},
                {"id": 3, "uuid": uuid_of(4, 3), "name": "Catan", "bggId": 13},
            ],
            "plays": plays,
        },
        ensure_ascii=False,
    )


def score(ref: int, typed: Any, winner: bool = False, order: int = 0, start: bool = False) -> dict[str, Any]:
    """A player score as BG Stats writes it."""
    return {"playerRefId": ref, "score": typed, "winner": winner, "seatOrder": order, "startPlayer": start, "rank": 0}


def bg_play(n: int, scores: list[dict[str, Any]], game: int = 1, **more: Any) -> dict[str, Any]:
    """Play n of the file (its uuid from n), of Spyrium unless said."""
    return {
        "uuid": uuid_of(1, n),
        "gameRefId": game,
        "playDate": "2025-06-01 20:15:00",
        "ignored": False,
        "playerScores": scores,
        **more,
    }


@dataclass
class Kind:
    """A kind of real play: its scores in the file, and what the import and the export make of it."""

    scores: list[dict[str, Any]]
    # (seat name, on the roster, total, rank) in seat order.
    seats: list[tuple[str, bool, int | None, int]]
    # (player, score, winner, seatOrder) as exported.
    out: list[tuple[str, str, bool, int]]
    game: int = 1
    more: dict[str, Any] = field(default_factory=dict)
    ignored: bool = False
    seats_known: bool = False
    tiebreak: str | None = None
    typed: list[str] | None = None
    minutes: int | None = None
    place: str | None = None


ANON = "Anonymous player"
KINDS = {
    # The anonymous player is a guest on every seat it takes, numbered in a play: never a roster player, never twice.
    "guests": Kind(
        [score(1, "30"), score(2, "40", True), score(1, "20")],
        [("Guest", False, 30, 2), ("Ann", True, 40, 1), ("Guest 2", False, 20, 3)],
        [(ANON, "30", False, 0), ("Ann", "40", True, 0), (ANON, "20", False, 0)],
    ),
    "ignored": Kind(
        [score(2, "30", True), score(3, "20")],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
        more={"ignored": True},
        ignored=True,
    ),
    # Seat order given: by seatOrder from the start player on.
    "seat order": Kind(
        [score(2, "30", order=2), score(3, "40", True, order=3, start=True), score(4, "20", order=1)],
        [("Bø", True, 40, 1), ("Кира", True, 20, 3), ("Ann", True, 30, 2)],
        [("Bø", "40", True, 1), ("Кира", "20", False, 2), ("Ann", "30", False, 3)],
        seats_known=True,
    ),
    # All 0, as BG Stats writes a play whose seats were not set: as listed, the start player flag no order.
    "no seat order": Kind(
        [score(2, "30"), score(3, "40", True, start=True), score(4, "20")],
        [("Ann", True, 30, 2), ("Bø", True, 40, 1), ("Кира", True, 20, 3)],
        [("Ann", "30", False, 0), ("Bø", "40", True, 0), ("Кира", "20", False, 0)],
    ),
    "seat order twice": Kind(
        [score(2, "30", True, order=1), score(3, "20", order=1)],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
    ),
    # A decimal is the group's tie-break: the whole part is the total, the scores as typed rank, and come back.
    "decimals": Kind(
        [score(2, "45"), score(3, "45.5"), score(4, 44.25)],
        [("Ann", True, 45, 2), ("Bø", True, 45, 1), ("Кира", True, 44, 3)],
        [("Ann", "45", False, 0), ("Bø", "45.5", True, 0), ("Кира", "44.25", False, 0)],
        tiebreak="Ranked by the scores as typed in BG Stats: 45.5 over 45.",
        typed=["45", "45.5", "44.25"],
    ),
    "negative decimals": Kind(
        [score(2, "-1"), score(3, "−0.5", True)],
        [("Ann", True, -1, 2), ("Bø", True, -1, 1)],
        [("Ann", "-1", False, 0), ("Bø", "−0.5", True, 0)],
        tiebreak="Ranked by the scores as typed in BG Stats: −0.5 over −1.",
        typed=["-1", "−0.5"],
    ),
    # A decimal that separates nobody needs no sentence; the score as typed still comes back.
    "decimal apart": Kind(
        [score(2, "50.5", True), score(3, "20")],
        [("Ann", True, 50, 1), ("Bø", True, 20, 2)],
        [("Ann", "50.5", True, 0), ("Bø", "20", False, 0)],
        typed=["50.5", "20"],
    ),
    "expressions": Kind(
        [score(2, "24-12"), score(3, " 10 ")],
        [("Ann", True, 12, 1), ("Bø", True, 10, 2)],
        [("Ann", "24-12", True, 0), ("Bø", "10", False, 0)],
        typed=["24-12", "10"],
    ),
    "winner only": Kind(
        [score(2, "", True), score(3, ""), score(4, None)],
        [("Ann", True, None, 1), ("Bø", True, None, 2), ("Кира", True, None, 2)],
        [("Ann", "", True, 0), ("Bø", "", False, 0), ("Кира", "", False, 0)],
    ),
    "winner only, shared": Kind(
        [score(2, "", True), score(3, "", True), score(4, "")],
        [("Ann", True, None, 1), ("Bø", True, None, 1), ("Кира", True, None, 3)],
        [("Ann", "", True, 0), ("Bø", "", True, 0), ("Кира", "", False, 0)],
    ),
    "winner only, solo": Kind(
        [score(2, "", True)],
        [("Ann", True, None, 1)],
        [("Ann", "", True, 0)],
        game=2,
    ),
    # Some scores and a winner flagged: the flag says who won, the scores there are kept, the missing ones last.
    "some scores and a winner": Kind(
        [score(2, "", True), score(3, "12"), score(4, "")],
        [("Ann", True, None, 1), ("Bø", True, 12, 2), ("Кира", True, None, 3)],
        [("Ann", "", True, 0), ("Bø", "12", False, 0), ("Кира", "", False, 0)],
    ),
    "place and minutes": Kind(
        [score(2, "30", True), score(3, "20")],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
        more={"locationRefId": 2, "durationMin": 95},
        minutes=95,
        place="Café Zoë",
    ),
    "minutes in a fraction": Kind(
        [score(2, "30", True), score(3, "20")],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
        more={"locationRefId": 0, "durationMin": 75.6},
        minutes=76,
    ),
    "no minutes": Kind(
        [score(2, "30", True), score(3, "20")],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
        more={"durationMin": 0},
    ),
    "minutes past a week": Kind(
        [score(2, "30", True), score(3, "20")],
        [("Ann", True, 30, 1), ("Bø", True, 20, 2)],
        [("Ann", "30", True, 0), ("Bø", "20", False, 0)],
        more={"durationMin": 7 * 24 * 60 + 1},
    ),
}


def stored(app) -> Play:
    """The one play the database holds, its seats and place with it."""
    with Session(app.extensions["db_engine"]) as session:
        (play,) = session.exec(select(Play)).all()
        return play


@pytest.mark.parametrize("kind", list(KINDS), ids=list(KINDS))
def test_each_kind_of_real_play_comes_in_and_goes_back_out(db_client, kind) -> None:
    client, app = db_client
    case = KINDS[kind]
    response = upload(client, bg_file([bg_play(1, case.scores, case.game, **case.more)]))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert "1 play added" in html and "Left out" not in html
    play = stored(app)
    assert [(s.name, s.player_id is not None, s.total, s.rank) for s in play.seats] == case.seats
    assert (play.ignored, play.seats_known, play.tiebreak) == (case.ignored, case.seats_known, case.tiebreak)
    assert play.extra.get("bgstats_scores") == case.typed
    assert play.duration_min == case.minutes
    assert (play.location.name if play.location else None) == case.place
    assert all(s.breakdown == [] for s in play.seats) and play.source == "bgstats"
    with Session(app.extensions["db_engine"]) as session:
        roster = {player.name for player in session.exec(select(Player))}
    assert roster == {name for name, on_roster, _, _ in case.seats if on_roster}
    data = json.loads(client.get("/export/bgstats.json").get_data())
    names = {player["id"]: player["name"] for player in data["players"]}
    (out,) = data["plays"]
    got = [(names[s["playerRefId"]], s["score"], s["winner"], s["seatOrder"]) for s in out["playerScores"]]
    assert got == case.out
    assert [s["startPlayer"] for s in out["playerScores"]] == [case.seats_known and i == 0 for i in range(len(got))]
    assert (out["ignored"], out["durationMin"]) == (case.ignored, case.minutes or 0)
    places = {place["id"]: place["name"] for place in data["locations"]}
    assert places.get(out["locationRefId"]) == case.place and (out["locationRefId"] == 0) == (case.place is None)
    # Our export imported into the database it came from adds nothing.
    assert "No plays added, 1 play already there." in upload(client, json.dumps(data)).get_data(as_text=True)


def test_a_guest_seat_is_never_taken_for_a_roster_player(client) -> None:
    """A roster player named Guest stays who they are; the anonymous seats beside them are guests."""
    data = json.loads(bg_file([bg_play(1, [score(1, "3"), score(2, "5", True)])]))
    data["players"][1]["name"] = "Guest"
    assert "1 play added" in upload(client, json.dumps(data)).get_data(as_text=True)
    play = stored(client.application)
    assert [(s.name, s.player_id is not None) for s in play.seats] == [("Guest", False), ("Guest", True)]
    with Session(client.application.extensions["db_engine"]) as session:
        assert [player.name for player in session.exec(select(Player))] == ["Guest"]


def test_a_player_without_a_name_leaves_the_play_out_named(client) -> None:
    data = json.loads(bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)]), bg_play(2, [score(4, "1", True)])]))
    data["players"][2]["name"] = "  "
    data["plays"][1]["gameRefId"] = 2
    html = upload(client, json.dumps(data)).get_data(as_text=True)
    assert "1 play added" in html
    assert "2025-06-01 20:15, Spyrium, Ann and (no name): left out, with a player without a name." in html


def test_the_import_as_page_and_as_fragment(client) -> None:
    body = bg_file([bg_play(1, [score(1, "3"), score(2, "5.5", True)], locationRefId=1)])
    page = upload(client, body, "BG.json")
    assert page.status_code == 200 and "<h1>Your data</h1>" in page.get_data(as_text=True)
    assert "1 play added" in page.get_data(as_text=True)
    fragment = upload(client, body, "BG.json", htmx=True)
    html = fragment.get_data(as_text=True)
    assert fragment.status_code == 200 and "<h1>" not in html and '<section class="card" id="import"' in html
    assert "No plays added, 1 play already there." in html and 'role="status"' in html


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(locations={"id": 1}), "Its locations are not a list."),
        (lambda d: d["locations"][0].update(id="x"), "Location 1: id:"),
        (lambda d: d["plays"][0].update(durationMin="long"), "Play 1: durationMin:"),
        (lambda d: d["players"][0].update(isAnonymous="maybe"), "Player 1: isAnonymous:"),
    ],
)
def test_a_damaged_place_or_mark_is_refused_with_nothing_changed(client, change, said) -> None:
    data = json.loads(bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)])]))
    change(data)
    before = counts(client)
    response = upload(client, json.dumps(data))
    html = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 422 and "BG Stats file is damaged" in html and said in html
    assert counts(client) == before


def test_ranks_and_tiebreaks_from_decimals() -> None:
    assert ranks([D("45.5"), D(45), D(44)], [False] * 3) == [1, 2, 3]
    assert ranks([None, D(12), None], [True, False, False]) == [1, 2, 3]
    assert ranks([None, None, None], [True, False, False]) == [1, 2, 2]
    assert ranks([None, None, None], [True, True, False]) == [1, 1, 3]
    assert decimal_tiebreak([D("45.5"), D("45.5"), D(45)], [1, 1, 3]) == (
        "Ranked by the scores as typed in BG Stats: 45.5 over 45."
    )
    assert decimal_tiebreak([D(45), D("45.5")], [1, 2]) is None  # the winner flagged decided, not the decimals
    assert decimal_tiebreak([D("30.7"), D("30.2"), D(30)], [1, 2, 3]) == (
        "Ranked by the scores as typed in BG Stats: 30.7 over 30.2 over 30."
    )
    assert decimal_tiebreak([D(30), D(20)], [1, 2]) is None
    assert [number_text(D(t)) for t in ("45.50", "100", "-0.5", "-0")] == ["45.5", "100", "−0.5", "0"]


# The group's time zone -----------------------------------------------------------------------------------------


def zoned_client(tmp_path, zone: Any):
    """A client on a fresh SQLite database whose BGSTATS_TIME_ZONE is that zone."""
    config = {"TESTING": True, "SECRET_KEY": "z", "DATABASE_URL": f"sqlite:///{tmp_path / 'zoned.sqlite'}"}
    return csrf_client(create_app(config | ({"BGSTATS_TIME_ZONE": zone} if zone is not None else {})))


def test_the_time_zone_setting_reads_and_writes_bg_stats_dates(tmp_path) -> None:
    client = zoned_client(tmp_path, "Pacific/Auckland")
    try:
        # 20:15 in Auckland in June (winter, UTC+12) is 08:15 UTC.
        assert "1 play added" in upload(client, bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)])])).get_data(
            as_text=True
        )
        play = stored(client.application)
        assert play.played_at.replace(tzinfo=UTC) == datetime(2025, 6, 1, 8, 15, tzinfo=UTC)
        (out,) = json.loads(client.get("/export/bgstats.json").get_data())["plays"]
        assert out["playDate"] == "2025-06-01 20:15:00"
        # The createPlay link stays in UTC, as its integrators read it.
        assert decoded(createplay.url(play))["playDate"] == "2025-06-01 08:15:00"
    finally:
        client.application.extensions["db_engine"].dispose()


def test_the_command_line_uses_the_time_zone(client, tmp_path, monkeypatch) -> None:
    use_database(monkeypatch, tmp_path, client)
    monkeypatch.setenv("COMPANION_BGSTATS_TIME_ZONE", "America/New_York")
    source = tmp_path / "bg.json"
    source.write_text(bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)])]), encoding="utf-8")
    assert cli.main(["import", str(source)]) == 0
    # 20:15 in New York in June (UTC−4) is 00:15 UTC the next day.
    assert stored(client.application).played_at.replace(tzinfo=UTC) == datetime(2025, 6, 2, 0, 15, tzinfo=UTC)
    assert cli.main(["export", "--format", "bgstats", str(tmp_path / "out.json")]) == 0
    (out,) = json.loads((tmp_path / "out.json").read_bytes())["plays"]
    assert out["playDate"] == "2025-06-01 20:15:00"


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "../../etc/passwd", "Europe", 7])
def test_an_unknown_time_zone_stops_the_start_with_a_clear_message(tmp_path, zone) -> None:
    with pytest.raises(SettingError, match="BGSTATS_TIME_ZONE") as refused:
        zoned_client(tmp_path, zone)
    assert "Europe/Berlin" in str(refused.value)


def test_the_command_line_says_an_unknown_time_zone_plainly(client, tmp_path, monkeypatch, capsys) -> None:
    use_database(monkeypatch, tmp_path, client)
    monkeypatch.setenv("COMPANION_BGSTATS_TIME_ZONE", "Europe/Atlantis")
    assert cli.main(["export", "--format", "bgstats", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Companion can't start: BGSTATS_TIME_ZONE: 'Europe/Atlantis' is no time zone")
    assert not (tmp_path / "out.json").exists()


def test_a_zone_given_as_itself_in_the_config_file(tmp_path) -> None:
    from zoneinfo import ZoneInfo

    client = zoned_client(tmp_path, ZoneInfo("Asia/Tokyo"))
    try:
        assert "1 play added" in upload(client, bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)])])).get_data(
            as_text=True
        )
        assert stored(client.application).played_at.replace(tzinfo=UTC) == datetime(2025, 6, 1, 11, 15, tzinfo=UTC)
    finally:
        client.application.extensions["db_engine"].dispose()


def test_an_empty_time_zone_is_the_servers_own(tmp_path) -> None:
    client = zoned_client(tmp_path, " ")
    try:
        assert "1 play added" in upload(client, bg_file([bg_play(1, [score(2, "3"), score(3, "5", True)])])).get_data(
            as_text=True
        )
        local = datetime(2025, 6, 1, 20, 15).astimezone().astimezone(UTC)
        assert stored(client.application).played_at.replace(tzinfo=UTC) == local
    finally:
        client.application.extensions["db_engine"].dispose()


# The createPlay link of imported plays ---------------------------------------------------------------------------


def test_the_create_play_link_of_real_plays(client) -> None:
    plays = [
        bg_play(1, [score(2, "45.5", True, order=1, start=True), score(3, "45", order=2)], locationRefId=2),
        bg_play(2, [score(1, "", True), score(3, "")], durationMin=40),
    ]
    assert "2 plays added" in upload(client, bg_file(plays)).get_data(as_text=True)
    with Session(client.application.extensions["db_engine"]) as session:
        first, second = session.exec(select(Play).order_by(Play.uid)).all()
    sent = decoded(createplay.url(first))
    assert sent["location"] == "Café Zoë" and sent["durationMin"] == 0
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in sent["players"]] == [
        ("Ann", 45.5, True, True),
        ("Bø", 45, False, False),
    ]
    # A winner-only play without seat order: no score, no start player, no place; a guest by its seat's name.
    link = createplay.url(second)
    assert link is not None
    winner_only = createplay.data(second)
    assert "location" not in winner_only and winner_only["durationMin"] == 40
    assert winner_only["players"] == [
        {"name": "Guest", "sourcePlayerId": "Guest", "winner": True, "rank": 1, "startPlayer": False},
        {"name": "Bø", "sourcePlayerId": str(second.seats[1].player_id), "winner": False, "rank": 2,
         "startPlayer": False},
    ]  # fmt: skip


def test_a_play_of_ours_keeps_its_place_in_both_exports(client, tmp_path) -> None:
    """A place picked at the table is the play's location in the export, in the link, and after an import."""
    play_id = save(client, "spyrium", [{"name": "Ann", "vp_track": 5}, {"name": "Bob", "vp_track": 3}])
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None
        place = records.find_or_add_location(session, "Küche")
        assert place is not None
        play.location_id = place.id
        session.add(play)
        session.commit()
        session.refresh(play)
        link = decoded(createplay.url(play))
    assert link["location"] == "Küche"
    data = json.loads(client.get("/export/bgstats.json").get_data())
    assert [place["name"] for place in data["locations"]] == ["Küche"]
    assert data["plays"][0]["locationRefId"] == data["locations"][0]["id"] == 1
    # The place's uuid is made from its key, the same in every export; no game has a uuid kept yet.
    again = json.loads(client.get("/export/bgstats.json").get_data())
    assert again["locations"][0]["uuid"] == data["locations"][0]["uuid"]
    with Session(client.application.extensions["db_engine"]) as session:
        assert session.exec(select(GameUid)).all() == []
    other = fresh_client(tmp_path, "other")
    try:
        assert "1 play added" in upload(other, json.dumps(data)).get_data(as_text=True)
        assert stored(other.application).location.name == "Küche"
        with Session(other.application.extensions["db_engine"]) as session:
            assert bg_uuid(session.exec(select(Location)).one().uid) == data["locations"][0]["uuid"]
    finally:
        other.application.extensions["db_engine"].dispose()
