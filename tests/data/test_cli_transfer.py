"""`companion export FILE` and `companion import FILE` (issue 11): the page's functions on the command line."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from companion import cli
from companion.store import records
from companion.store.models import Play
from tests.helpers import counts, fresh_client, history, use_database


def test_export_then_import_into_a_fresh_database(client, tmp_path, monkeypatch, capsys) -> None:
    history(client)
    use_database(monkeypatch, tmp_path, client)
    target = tmp_path / "backup.json"
    assert cli.main(["export", str(target)]) == 0
    assert f"Exported to {target}" in capsys.readouterr().out
    assert json.loads(target.read_bytes()) | {"exported_at": None} == json.loads(
        client.get("/export.json").get_data()
    ) | {"exported_at": None}
    assert cli.main(["export", str(target)]) == 2  # never overwrites
    assert "exists already" in capsys.readouterr().err
    other = fresh_client(tmp_path)
    use_database(monkeypatch, tmp_path, other)
    assert cli.main(["import", str(target)]) == 0
    out = capsys.readouterr().out
    assert "4 plays added, no plays already there." in out
    before = counts(other)
    assert cli.main(["import", str(target)]) == 0
    assert "No plays added, 4 plays already there." in capsys.readouterr().out
    assert counts(other) == before


def test_csv_and_bgstats_formats(client, tmp_path, monkeypatch) -> None:
    history(client)
    use_database(monkeypatch, tmp_path, client)
    assert cli.main(["export", "--format", "csv", str(tmp_path / "plays.csv")]) == 0
    assert (tmp_path / "plays.csv").read_bytes() == client.get("/export.csv").get_data()
    assert cli.main(["export", "--format", "bgstats", str(tmp_path / "bg.json")]) == 0
    assert len(json.loads((tmp_path / "bg.json").read_bytes())["plays"]) == 2
    other = fresh_client(tmp_path)
    use_database(monkeypatch, tmp_path, other)
    assert cli.main(["import", str(tmp_path / "bg.json")]) == 0
    assert counts(other)[0] == 2


def test_the_bgstats_export_names_the_owner_the_setting_names(client, tmp_path, monkeypatch) -> None:
    """BGSTATS_OWNER reaches the command as the page: userInfo.meRefId is that player's, among the export's players."""
    history(client)
    use_database(monkeypatch, tmp_path, client)
    monkeypatch.setenv("COMPANION_BGSTATS_OWNER", "Bob")
    assert cli.main(["export", "--format", "bgstats", str(tmp_path / "bg.json")]) == 0
    data = json.loads((tmp_path / "bg.json").read_bytes())
    me = next(player for player in data["players"] if player["id"] == data["userInfo"]["meRefId"])
    assert me["name"] == "Bob"


def test_a_refused_file_exits_2_and_changes_nothing(client, tmp_path, monkeypatch, capsys) -> None:
    history(client)
    use_database(monkeypatch, tmp_path, client)
    before = counts(client)
    bad = json.loads(client.get("/export.json").get_data())
    bad["version"] = 7
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(bad))
    assert cli.main(["import", str(path)]) == 2
    err = capsys.readouterr().err
    assert "newer format (version 7)" in err and "Nothing was changed." in err
    path.write_text("{ cut short")
    assert cli.main(["import", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert cli.main(["import", str(tmp_path / "missing.json")]) == 2
    assert "Can't read" in capsys.readouterr().err
    assert counts(client) == before


def test_a_number_over_4300_digits_is_a_plain_line_not_a_traceback(client, tmp_path, monkeypatch, capsys) -> None:
    """Python reads at most 4,300 digits of a whole number from text: past that json.loads raises a ValueError."""
    history(client)
    use_database(monkeypatch, tmp_path, client)
    before = counts(client)
    export = json.loads(client.get("/export.json").get_data())
    text = json.dumps(export).replace('"version": 2', '"version": ' + "1" * 5000, 1)
    path = tmp_path / "digits.json"
    path.write_text(text)
    assert cli.main(["import", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: This file is no export: it holds a number thousands of digits long. Nothing was changed." in err
    assert "Traceback" not in err and "Exceeds the limit" not in err
    assert counts(client) == before


def test_the_command_line_round_trip_keeps_place_minutes_marks_and_guests(client, tmp_path, monkeypatch) -> None:
    """Version 2's fields through `companion export` and `companion import`, as through the page."""
    history(client)
    with Session(client.application.extensions["db_engine"]) as session:
        place = records.find_or_add_location(session, "Κήπος")
        assert place is not None
        place.uid = "garden-uid"
        play = session.exec(select(Play).where(Play.status == "finished")).first()
        assert play is not None
        play.location_id, play.duration_min, play.ignored, play.seats_known = place.id, 75, True, False
        play.seats[1].player_id = None
        session.add_all([place, play, play.seats[1]])
        session.commit()
    use_database(monkeypatch, tmp_path, client)
    target = tmp_path / "backup.json"
    assert cli.main(["export", str(target)]) == 0
    first = json.loads(target.read_bytes())
    marked = next(p for p in first["plays"] if p["location"] is not None)
    assert (marked["location"], marked["duration_min"], marked["ignored"], marked["seats_known"]) == (
        "Κήπος",
        75,
        True,
        False,
    )
    assert marked["seats"][1]["player"] is None
    other = fresh_client(tmp_path)
    use_database(monkeypatch, tmp_path, other)
    assert cli.main(["import", str(target)]) == 0
    again = tmp_path / "again.json"
    assert cli.main(["export", str(again)]) == 0
    second = json.loads(again.read_bytes())
    assert sorted(second["plays"], key=lambda p: p["uid"]) == sorted(first["plays"], key=lambda p: p["uid"])
    assert second["locations"] == first["locations"] and second["locations"][0]["uid"] == "garden-uid"
