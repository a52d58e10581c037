"""Data in and out (issue 11): the companion's export, its import into a fresh or the same database, and the CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlmodel import Session, select

from companion import create_app
from companion.store.models import Play, Player
from tests.helpers import (
    counts,
    csrf_client,
    fresh_client,
    history,
    postgres_url,
    save,
    upload,
)


def plays_of(export: dict[str, Any]) -> list[dict[str, Any]]:
    """An export's plays by uid (what a round trip must keep)."""
    return sorted(export["plays"], key=lambda play: play["uid"])


def test_export_holds_everything_but_deleted_plays(client) -> None:
    history(client)
    response = client.get("/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="companion-')
    export = json.loads(response.get_data())
    assert (export["format"], export["version"]) == ("companion-export", 2)
    assert sorted(p["status"] for p in export["plays"]) == ["abandoned", "finished", "finished", "in_progress"]
    assert "Dee" not in json.dumps(export["plays"], ensure_ascii=False)
    assert {p["name"] for p in export["players"]} >= {"Ιωάννα", "陈伟", "Ann", "Bob", "Cy"}
    first = next(p for p in export["plays"] if p["notes"].startswith("Première"))
    assert [s["name"] for s in first["seats"]] == ["Ιωάννα", "陈伟", "=cmd|' /C calc'!A0"]
    assert [s["total"] for s in first["seats"]] == [64, 13, 67]
    assert first["seats"][2]["rank"] == 1 and first["played_at"] == "2026-01-02T19:30:00+00:00"
    assert all(len(p["uid"]) == 32 for p in export["plays"])
    in_progress = next(p for p in export["plays"] if p["status"] == "in_progress")
    assert in_progress["extra"]["table"] is not None and in_progress["seats"][0]["state"]
    assert "Ιωάννα" in response.get_data(as_text=True)  # written as it is, not \u-escaped


def test_round_trip_into_a_fresh_database_gives_the_same_plays(client, tmp_path) -> None:
    history(client)
    export = client.get("/export.json").get_data()
    other = fresh_client(tmp_path)
    response = upload(other, export)
    assert response.status_code == 200, response.get_data(as_text=True)
    html = response.get_data(as_text=True)
    assert "4 plays added, no plays already there." in html
    again = json.loads(other.get("/export.json").get_data())
    assert plays_of(again) == plays_of(json.loads(export))
    assert [p["name"] for p in again["players"]] == [p["name"] for p in json.loads(export)["players"]]
    # The restored play in progress goes on where it stood: its tracker opens and takes a tap.
    with Session(other.application.extensions["db_engine"]) as session:
        play = session.exec(select(Play).where(Play.status == "in_progress")).one()
        seat_id = play.seats[0].id
    assert other.get(f"/plays/{play.id}").status_code == 200
    tap = other.post(f"/plays/{play.id}/seats/{seat_id}", data={"field": "swords", "value": "1"})
    assert tap.status_code in (200, 303)


def test_importing_twice_adds_nothing(client, tmp_path) -> None:
    history(client)
    export = client.get("/export.json").get_data()
    other = fresh_client(tmp_path)
    assert upload(other, export).status_code == 200
    before = counts(other)
    html = upload(other, export).get_data(as_text=True)
    assert "No plays added, 4 plays already there." in html
    assert "No players added" in html
    assert counts(other) == before
    # Into the database it came from: nothing either, the deleted play included (it is not in the file).
    before = counts(client)
    assert "No plays added, 4 plays already there." in upload(client, export).get_data(as_text=True)
    assert counts(client) == before


def test_a_deleted_play_is_not_brought_back(client, tmp_path) -> None:
    history(client)
    export = json.loads(client.get("/export.json").get_data())
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.exec(select(Play).where(Play.status == "finished")).first()
        play.deleted_at = datetime.now(UTC)
        session.add(play)
        session.commit()
    before = counts(client)
    html = upload(client, json.dumps(export)).get_data(as_text=True)
    assert "No plays added, 4 plays already there." in html
    assert counts(client) == before


def test_players_are_matched_by_name_key(client, tmp_path) -> None:
    history(client)
    export = client.get("/export.json").get_data()
    other = fresh_client(tmp_path)
    save(other, "spyrium", [{"name": "ΙΩΆΝΝΑ", "vp_track": 1}, {"name": "ann", "vp_track": 2}])
    html = upload(other, export).get_data(as_text=True)
    assert "2 players already there." in html
    with Session(other.application.extensions["db_engine"]) as session:
        names = sorted(session.exec(select(Player.name)))
    assert "ΙΩΆΝΝΑ" in names and "Ιωάννα" not in names and "ann" in names and "Ann" not in names


def broken(export: dict[str, Any], change) -> str:
    """The export changed by `change` (which edits it in place), as text."""
    copy = json.loads(json.dumps(export))
    change(copy)
    return json.dumps(copy)


def finished(export: dict[str, Any]) -> dict[str, Any]:
    """The first finished play of an export."""
    return next(p for p in export["plays"] if p["status"] == "finished")


def in_progress(export: dict[str, Any]) -> dict[str, Any]:
    """The play in progress of an export."""
    return next(p for p in export["plays"] if p["status"] == "in_progress")


def set_total(export: dict[str, Any]) -> None:
    """A total that is not the sum of its lines."""
    finished(export)["seats"][0]["total"] += 1


def unknown_game(export: dict[str, Any]) -> None:
    """A game this app does not have."""
    finished(export)["game"] = "catan"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (lambda e: "{not json", "not valid JSON"),
        (lambda e: "", "empty"),
        (lambda e: "[1, 2]", "one JSON object"),
        (lambda e: "[" * 100_000, "nested thousands of levels deep"),
        (lambda e: b"\xff\xfe\x00garbage", "not text in UTF-8"),
        (lambda e: broken(e, set_total), "does not add up"),
        (lambda e: broken(e, unknown_game), "There is no game 'catan'"),
        (lambda e: broken(e, lambda x: x["plays"][0].pop("seats")), "Field required"),
        (lambda e: broken(e, lambda x: x["plays"][-1].update(uid="x" * 37)), "at most 36"),
        (lambda e: broken(e, lambda x: finished(x)["seats"][0].update(name="")), "at least 1 character"),
        (lambda e: broken(e, lambda x: finished(x)["seats"].pop()), ""),
        (lambda e: broken(e, lambda x: finished(x)["seats"][0].update(total=10**12)), "less than or equal to 1000000"),
        (lambda e: broken(e, lambda x: x.update(version=3)), "newer format (version 3)"),
        (lambda e: broken(e, lambda x: x.update(format="someone-else")), "another format"),
        (lambda e: json.dumps({"hello": "world"}), "neither a Companion export nor a BG Stats export"),
        (lambda e: broken(e, lambda x: finished(x).update(notes="a\u0000b")), "can't be stored"),
        # Stored parts that would break the result page, the tracker or the history: refused, not stored.
        (lambda e: broken(e, lambda x: finished(x).update(extra={"players": [{}]})), "don't read back"),
        (lambda e: broken(e, lambda x: finished(x).update(extra={"winners": 5})), "stand in for its players"),
        (lambda e: broken(e, lambda x: in_progress(x).update(extra={"table": "x"})), "don't read back"),
        (
            lambda e: broken(e, lambda x: in_progress(x)["seats"][0].update(state={"vp_track": "lots"})),
            "can't be scored",
        ),
        (
            lambda e: broken(e, lambda x: finished(x)["seats"][1].update(player=finished(x)["seats"][0]["player"])),
            "a seat's player is its name",
        ),
        (lambda e: broken(e, lambda x: finished(x).update(played_at="0001-01-01T00:00:00+05:00")), "out of range"),
    ],
)
def test_corrupt_foreign_and_newer_files_are_refused_with_nothing_changed(client, tmp_path, body, said) -> None:
    history(client)
    export = json.loads(client.get("/export.json").get_data())
    other = fresh_client(tmp_path)
    save(other, "spyrium", [{"name": "Zoe", "vp_track": 1}, {"name": "Yan", "vp_track": 2}])
    before = counts(other)
    response = upload(other, body(export))
    html = response.get_data(as_text=True)
    assert response.status_code == 422, html
    assert said in html.replace("&#39;", "'").replace("&#34;", '"')
    assert "Nothing was changed." in html and 'aria-invalid="true"' in html
    assert counts(other) == before


def test_a_file_whose_last_play_is_bad_adds_none_of_the_good_ones(client, tmp_path) -> None:
    history(client)
    export = json.loads(client.get("/export.json").get_data())
    export["plays"][-1]["game"] = "nope"
    other = fresh_client(tmp_path)
    assert upload(other, json.dumps(export)).status_code == 422
    assert counts(other) == (0, 0, 0)


def test_import_page_as_page_and_as_fragment(client) -> None:
    page = client.get("/import").get_data(as_text=True)
    assert "<h1>Your data</h1>" in page and 'name="csrf_token"' in page and 'enctype="multipart/form-data"' in page
    for url in ("/export.json", "/export.csv", "/export/bgstats.json"):
        assert f'href="{url}"' in page
    fragment = client.htmx("GET", "/import").get_data(as_text=True)
    assert fragment.lstrip().startswith("{#") is False and '<section class="card" id="import"' in fragment
    assert "<h1>" not in fragment
    refused = upload(client, "{", htmx=True)
    assert refused.status_code == 422 and "<h1>" not in refused.get_data(as_text=True)
    assert "not valid JSON" in refused.get_data(as_text=True)
    done = upload(client, client.get("/export.json").get_data(), htmx=True)
    assert done.status_code == 200 and "No plays added" in done.get_data(as_text=True)


def test_no_file_chosen_is_said(client) -> None:
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a file to import" in response.get_data(as_text=True)


def test_import_needs_the_csrf_token(client) -> None:
    response = client.post(
        "/import", data={"file": (io.BytesIO(b"{}"), "x.json")}, content_type="multipart/form-data", csrf=False
    )
    assert response.status_code == 400


def test_csv_has_a_row_per_player_per_finished_play(client) -> None:
    history(client)
    response = client.get("/export.csv")
    assert response.mimetype == "text/csv"
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == [
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
        "location",
        "duration_min",
    ]
    assert len(rows) == 1 + 3 + 2  # the finished plays only; the deleted one left out
    first = rows[1:4]
    assert [r[3] for r in first] == ["Ιωάννα", "陈伟", "'=cmd|' /C calc'!A0"]
    assert [r[0] for r in first] == ["2026-01-02"] * 3 and {r[1] for r in first} == {"Spyrium"}
    assert [(r[5], r[6], r[7], r[8]) for r in first] == [
        ("1", "64", "2", "no"),
        ("2", "13", "3", "no"),
        ("3", "67", "1", "yes"),
    ]
    assert "64" in first[0][9] and first[0][10].startswith("Première")
    assert [(r[11], r[12]) for r in rows[1:]] == [("", "")] * 5  # scored at the end: no place said, no minutes
    tie = rows[4:6]
    assert [(r[3], r[7], r[8]) for r in tie] == [("Ann", "1", "yes"), ("Bob", "1", "yes")]
    assert len({r[2] for r in rows[1:]}) == 2
    assert b"\r\n" in body


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "\nx", "＝1+1", "Ann", "a=1"])
def test_csv_cells_never_start_a_formula(text: str) -> None:
    from companion.data.transfer import cell

    assert cell(text) == (text if text in ("Ann", "a=1") else "'" + text)


FORMULAS = ('=HYPERLINK("http://x.example","y")', "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=2")


def csv_cells(client) -> list[list[str]]:
    """The CSV export's rows, read as a spreadsheet reads them."""
    return list(csv.reader(io.StringIO(client.get("/export.csv").get_data().decode("utf-8-sig"), newline="")))


def assert_no_formula(rows: list[list[str]]) -> None:
    """No cell starts a formula: text that would is quoted; numbers (a negative total too) stay numbers."""
    from companion.data.transfer import FORMULA_START

    for row in rows:
        for value in row:
            assert not value.startswith(FORMULA_START) or value.lstrip("-").isdigit(), (value, row)


def test_an_imported_play_whose_id_names_and_notes_are_formulas_exports_them_as_text(client, tmp_path) -> None:
    """Ids come from imported files too: a uid '=HYPERLINK(...)' must reach the sheet as text."""
    save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}])
    export = json.loads(client.get("/export.json").get_data())
    play = export["plays"][0]
    play.update(uid=FORMULAS[0], notes=FORMULAS[3])
    for seat, name in zip(play["seats"], FORMULAS[1:3], strict=True):
        seat.update(name=name, player=name)
    export["players"] = [{"name": name} for name in FORMULAS[1:3]]
    other = fresh_client(tmp_path)
    assert upload(other, json.dumps(export)).status_code == 200
    rows = csv_cells(other)
    assert_no_formula(rows)
    assert [(r[2], r[3], r[10]) for r in rows[1:]] == [
        ("'" + FORMULAS[0], "'+1+2", "'@SUM(A1)"),
        ("'" + FORMULAS[0], "'-2+3", "'@SUM(A1)"),
    ]


def test_a_bg_stats_play_whose_uuid_names_and_comments_are_formulas_exports_them_as_text(client) -> None:
    backup = {
        "games": [{"id": 1, "name": "=Spyrium"}, {"id": 2, "name": "Spyrium"}],
        "players": [{"id": 1, "name": FORMULAS[4]}, {"id": 2, "name": FORMULAS[5]}],
        "plays": [
            {
                "uuid": FORMULAS[0],
                "gameRefId": 2,
                "playDate": "2025-06-01 20:00:00",
                "comments": "-1 for the host",
                "playerScores": [{"playerRefId": 1, "score": "-3", "winner": True}, {"playerRefId": 2, "score": "-5"}],
            }
        ],
    }
    assert upload(client, json.dumps(backup), "bgstats.json").status_code == 200
    rows = csv_cells(client)
    assert_no_formula(rows)
    assert [(r[2], r[3], r[6], r[10]) for r in rows[1:]] == [
        ("'" + FORMULAS[0], "'=1", "-3", "'-1 for the host"),  # names trimmed of their tab and CR on import
        ("'" + FORMULAS[0], "'=2", "-5", "'-1 for the host"),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    "body",
    [
        '{"format": "companion-export", "version": 1, "plays": [{"seats": [{"total": ' + "9" * 4301 + "}]}]}",
        '{"games": [], "players": [], "plays": [{"playerScores": [{"score": -' + "1" * 10_000 + "}]}]}",
    ],
    ids=["ours", "bgstats"],
)
def test_a_number_over_4300_digits_is_refused_plainly(client, body, htmx) -> None:
    """Python reads at most 4,300 digits of a whole number from text: past that json.loads raises a ValueError."""
    history(client)
    before = counts(client)
    response = upload(client, body, htmx=htmx)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert ("<h1>" in html) is not htmx
    assert "This file is no export: it holds a number thousands of digits long. Nothing was changed." in html
    assert "4300" not in html and "int_max_str_digits" not in html
    assert counts(client) == before


@pytest.mark.postgres
def test_import_on_postgresql(client, tmp_path) -> None:
    history(client)
    export = client.get("/export.json").get_data()
    urls = postgres_url()
    url = next(urls)
    app = create_app({"TESTING": True, "SECRET_KEY": "pg", "DATABASE_URL": url})
    try:
        other = csrf_client(app)
        assert "4 plays added" in upload(other, export).get_data(as_text=True)
        assert "No plays added, 4 plays already there." in upload(other, export).get_data(as_text=True)
        assert plays_of(json.loads(other.get("/export.json").get_data())) == plays_of(json.loads(export))
        bad = json.loads(export)
        bad["plays"][-1]["game"] = "nope"
        before = counts(other)
        assert upload(other, json.dumps(bad)).status_code == 422
        assert counts(other) == before
    finally:
        app.extensions["db_engine"].dispose()
        next(urls, None)


def test_a_file_over_the_upload_limit_is_refused_and_the_limit_said(app, client) -> None:
    page = client.get("/import").get_data(as_text=True)
    assert "At most 65,536 KiB (64 MiB)" in page and "companion import FILE" in page
    app.config["IMPORT_MAX_LENGTH"] = 512 * 1024
    before = counts(client)
    response = upload(client, b"{" + b" " * (600 * 1024) + b"}")
    assert response.status_code == 413
    assert counts(client) == before


def test_the_import_takes_a_file_larger_than_other_requests_may_be(client) -> None:
    """A 10,000-play export is some 23 MB: the import page takes it where every other request stops at 512 KiB."""
    big = json.dumps(
        {"format": "companion-export", "version": 1, "players": [], "plays": [], "padding": " " * (2 * 1024 * 1024)}
    )
    response = upload(client, big)
    assert response.status_code != 413
    assert client.post("/plays", data={"game": "spires", "name-0": "x" * (600 * 1024)}).status_code == 413
