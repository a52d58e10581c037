"""Imports bounded before any heavy validation (issue 16): a small hostile file is refused quickly, in little
memory, with a few problems said and the rest counted; a real-sized history still imports."""

from __future__ import annotations

import json
import re
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from bench.imports import hostile
from bench.seed import seed_plays
from companion import cli, create_app
from companion.data import bgstats, files, importing, transfer
from tests.helpers import counts, fresh_client, history, save, upload, use_database

KINDS = ("ours", "bgstats")


def said(response) -> str:
    """A page's text with the quotes Jinja escapes put back."""
    return response.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')


def problems(html: str) -> list[str]:
    """The lines of the import's refusal."""
    block = re.search(r'<div class="error import-error" id="import-error" role="alert">(.*?)</div>', html, re.DOTALL)
    assert block, html[-2000:]
    return re.findall(r"<li>(.*?)</li>", block.group(1), re.DOTALL)


def our_export(plays: list[dict[str, Any]], **more: Any) -> str:
    """Our export format around these plays."""
    head = {"format": "companion-export", "version": 1, "exported_at": "2026-12-01T00:00:00+00:00", "players": []}
    return json.dumps({**head, "plays": plays, **more})


def bg_backup(plays: list[dict[str, Any]], **more: Any) -> str:
    """A BG Stats backup around these plays: one game of ours and two players."""
    return json.dumps(
        {
            "games": [{"id": 1, "name": "Spyrium"}],
            "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}],
            "plays": plays,
            **more,
        }
    )


def bg_play(uid: str, **more: Any) -> dict[str, Any]:
    """A good BG Stats play of Spyrium: Ann 5 beats Bob 3."""
    scores = [{"playerRefId": 1, "score": "5", "winner": True}, {"playerRefId": 2, "score": "3"}]
    return {"uuid": uid, "gameRefId": 1, "playDate": "2025-06-01 20:00:00", "playerScores": scores, **more}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize("kind", KINDS)
def test_100000_empty_plays_are_refused_with_a_few_problems_said(db_client, kind, htmx) -> None:
    client, _app = db_client
    save(client, "spyrium", [{"name": "Zoe", "vp_track": 1}, {"name": "Yan", "vp_track": 2}])
    before = counts(client)
    raw = hostile(kind, 100_000)
    assert len(raw) < 310 * 1024  # the probe's 300 KB file
    response = upload(client, raw, htmx=htmx)
    html = said(response)
    assert response.status_code == 422
    assert ("<h1>" in html) is not htmx
    assert "Nothing was changed." in html and 'aria-invalid="true"' in html
    lines = problems(html)
    assert len(lines) == importing.MAX_PROBLEMS + 1
    assert lines[0].startswith("Play 1: ") and "Field required" in lines[0]
    assert lines[-1] == "And 99,990 more problems."
    assert counts(client) == before


@pytest.mark.parametrize("kind", KINDS)
def test_the_hostile_files_stay_within_150_mb(client, kind) -> None:
    """The probe's files took 410 MB (BG Stats) and 960 MB (ours) while pydantic made an error per field."""
    with Session(client.application.extensions["db_engine"]) as session:
        for plays in (100_000, 1_000_000):
            raw = hostile(kind, plays)
            tracemalloc.start()
            try:
                with pytest.raises(importing.ImportRefused):
                    files.import_file(session, raw)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            assert peak < 150 * 1024 * 1024, (plays, peak)


@pytest.mark.parametrize("kind", KINDS)
def test_more_plays_than_an_import_takes_are_refused_before_any_is_read(client, kind) -> None:
    before = counts(client)
    response = upload(client, hostile(kind, 1_000_000))
    assert response.status_code == 422
    html = said(response)
    assert "This file holds 1,000,000 plays, more than an import takes: at most 100,000" in html
    assert "Nothing was changed." in html
    assert counts(client) == before


def test_the_caps_are_settings(client, tmp_path) -> None:
    history(client)
    export = client.get("/export.json").get_data()
    other = fresh_client(tmp_path)
    other.application.config.update(IMPORT_MAX_PLAYS=3)
    refused = upload(other, export)
    assert refused.status_code == 422
    assert "This file holds 4 plays, more than an import takes: at most 3," in said(refused)
    other.application.config.update(IMPORT_MAX_PLAYS=4, IMPORT_MAX_PLAYERS=2)
    assert "more than an import takes: at most 2," in said(upload(other, export))
    assert counts(other) == (0, 0, 0)
    other.application.config.update(IMPORT_MAX_PLAYERS=100)
    assert "4 plays added" in said(upload(other, export))


def test_a_backup_of_more_games_than_any_collection_is_refused(client) -> None:
    response = upload(client, json.dumps({"games": [{}] * (bgstats.MAX_GAMES + 1), "players": [], "plays": []}))
    assert response.status_code == 422
    assert f"holds {bgstats.MAX_GAMES + 1:,} games, more than an import takes" in said(response)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (lambda: our_export([{"game": "spires", "seats": [{}] * 100_000}]), "Play 1 (Spires): it has 100,000 players"),
        (lambda: our_export([{"seats": [{}] * 101}]), "no play has more than 100"),
        (lambda: bg_backup([bg_play("a", playerScores=[{}] * 1_001)]), "Play 1: it has 1,001 players"),
        (
            lambda: our_export([{"game": "spires", "extra": {f"k{i}": i for i in range(30_000)}}]),
            "Play 1 (Spires): it holds far more values than any real one",
        ),
        (
            lambda: our_export([{"seats": [{"state": json.loads("[" * 900 + "]" * 900)}]}]),
            "Play 1: its parts nest more than 24 levels deep",
        ),
        (
            lambda: our_export([], players=[{"name": "Ann", **{f"k{i}": 0 for i in range(500)}}]),
            "Player 1: it holds far more values than any real one",
        ),
        (
            lambda: our_export([], **{f"k{i}": 0 for i in range(100_000)}),
            "Fields no export has: 'k0', 'k1', 'k2', 'k3', 'k4' and 99,995 more.",
        ),
    ],
    ids=["100000-seats", "101-seats", "1001-scores", "30000-values", "900-deep", "big-player", "100000-fields"],
)
def test_an_entry_larger_than_any_real_one_is_refused_before_its_fields(client, body, expected) -> None:
    before = counts(client)
    response = upload(client, body())
    html = said(response)
    assert response.status_code == 422, html[-2000:]
    assert expected in html
    assert len(problems(html)) <= importing.MAX_PROBLEMS + 1
    assert counts(client) == before


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (lambda: json.dumps({"format": json.loads("[" * 900 + "]" * 900)}), "another format (not a name)"),
        (lambda: our_export([], padding=json.loads("[" * 900 + '"\\u0000"' + "]" * 900)), "can't be stored"),
        (lambda: bg_backup([bg_play("a", comments=json.loads("[" * 900 + "]" * 900))]), "Play 1: comments"),
        (lambda: our_export([], version=int("9" * 4000)), "This export is of a newer format"),
        (
            lambda: bg_backup([bg_play("a", playerScores=[{"playerRefId": int("7" * 4000)}])]),
            "Play 1: playerScores.0.playerRefId: Input should be less than or equal to 9223372036854775807",
        ),
    ],
    ids=["deep-format", "deep-nul", "deep-comments", "4000-digit-version", "4000-digit-player"],
)
def test_nested_or_long_values_are_refused_plainly(client, body, expected) -> None:
    response = upload(client, body())
    html = said(response)
    assert response.status_code == 422, html[-2000:]
    assert expected in html
    assert max(len(line) for line in [*problems(html), ""]) <= importing.PROBLEM_CHARS + 10


@pytest.mark.parametrize("kind", KINDS)
def test_the_command_line_refuses_hostile_files_with_plain_lines(client, tmp_path, monkeypatch, capsys, kind) -> None:
    save(client, "spyrium", [{"name": "Zoe", "vp_track": 1}, {"name": "Yan", "vp_track": 2}])
    use_database(monkeypatch, tmp_path, client)
    before = counts(client)
    for plays, expected in ((100_000, "  And 99,990 more problems."), (1_000_000, "more than an import takes")):
        path = tmp_path / f"{kind}-{plays}.json"
        path.write_bytes(hostile(kind, plays))
        assert cli.main(["import", str(path)]) == 2
        err = capsys.readouterr().err
        assert expected in err and "Nothing was changed." in err and "Traceback" not in err
        # The refusal's own lines (log lines may come beside them): the reason, then the problems indented.
        refusal = [line for line in err.splitlines() if line.startswith((f"{path}: ", "  "))]
        assert refusal[0].startswith(f"{path}: ") and len(refusal) <= importing.MAX_PROBLEMS + 2
    assert counts(client) == before


@pytest.fixture(scope="module")
def real_history() -> tuple[bytes, bytes]:
    """Our export and the BG Stats backup of a seeded history of 1,000 finished plays (a group's years)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "seed", "DATABASE_URL": f"sqlite:///{Path(folder) / 's.db'}"})
        engine = app.extensions["db_engine"]
        seed_plays(engine, 1_000, seed=1)
        with Session(engine) as session:
            ours = transfer.export_json(session)
            theirs = json.dumps(bgstats.export_backup(session)).encode()
        engine.dispose()
    return ours, theirs


def test_a_real_sized_history_still_imports(db_client, real_history) -> None:
    client, _app = db_client
    ours, theirs = real_history
    response = upload(client, ours)
    assert response.status_code == 200, said(response)[-2000:]
    assert "1,000 plays added, no plays already there." in said(response)
    added = counts(client)
    assert added[0] == 1_000
    # The same plays in BG Stats' format map to the same uids: nothing is added twice.
    again = upload(client, theirs, "bgstats.json", htmx=True)
    assert again.status_code == 200 and "No plays added, 1,000 plays already there." in said(again)
    assert counts(client) == added
