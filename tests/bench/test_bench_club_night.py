"""bench/club_night.py's quick mode runs in the suite: a real `companion serve` on a fresh database, devices
following plays over HTTP from a client process of their own, taps through the JSON API, and the table printed;
no time is asserted. Every server and client it starts is gone afterwards, and so is its PostgreSQL database."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest


def club_night() -> ModuleType:
    """bench/club_night.py as a module (bench/ is a namespace package on the project's path)."""
    return importlib.import_module("bench.club_night")


def children() -> list[str]:
    """The processes this test process started that still exist (running or not yet reaped)."""
    mine = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if int(rest.split()[1]) == os.getpid():
            mine.append(name.split("(", 1)[1])
    return mine


def quick_row(lines: list[str], devices: int, plays: int) -> dict[str, str]:
    """The step's row of the table, by column, after checking the header."""
    assert lines[0].startswith("club night on ")
    assert lines[1].split("|")[0].split() == ["devices", "plays"]
    cells = [cell.split() for cell in lines[2].split("|")]
    assert cells[0] == [str(devices), str(plays)], lines
    names = ("sync_p50", "sync_p95", "sync_p99", "sync_new", "tap_p50", "tap_p95", "tap_p99", "seen_p50", "seen_p95")
    values = cells[1] + cells[2] + cells[3]
    row = dict(zip(names, values, strict=True))
    row.update(zip(("answers", "errors", "skipped"), cells[4], strict=True))
    return row


@pytest.fixture(autouse=True)
def _no_database_of_the_shell(monkeypatch) -> None:
    """The bench makes its own database: nothing of the shell's settings reaches its servers."""
    for name in ("DATABASE_URL", "COMPANION_DATABASE_URL", "COMPANION_ACCESS_CODE"):
        monkeypatch.delenv(name, raising=False)


def test_tables_keep_their_size() -> None:
    """Devices dealt out over the plays: five a table at 200 and 40, at least the active device at each."""
    bench = club_night()
    assert bench.tables(200, 40) == [5] * 40
    assert bench.tables(7, 2) == [4, 3]
    assert bench.tables(3, 5) == [1, 1, 1]
    assert bench.percentile([0.3, 0.1, 0.2, 0.4], 50) == 0.2
    assert bench.percentile([0.3, 0.1, 0.2, 0.4], 99) == 0.4
    assert bench.percentile([], 95) == 0.0


def test_the_quick_club_night_runs_on_sqlite(capsys) -> None:
    """Four devices at two plays for two seconds: every request answered, none an error, the table printed."""
    assert club_night().main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("club night on SQLite:")
    row = quick_row(lines, 4, 2)
    assert row["errors"] == "0" and int(row["answers"]) > 0
    assert row["sync_p50"].isdigit() and row["tap_p50"].isdigit()
    assert lines[-1].startswith("p95 ") and "500 ms" in lines[-1]
    assert children() == []


@pytest.mark.postgres
def test_the_quick_club_night_runs_on_two_servers_and_postgresql(capsys) -> None:
    """The same on two app servers sharing one fresh PostgreSQL database, which is dropped afterwards."""
    bench = club_night()
    from bench.servers import PG_ADMIN, postgres_reachable

    if why := postgres_reachable():
        pytest.skip(why)
    assert bench.main(["--quick", "--postgres", "--servers", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("club night on PostgreSQL, 2 app servers:")
    assert quick_row(lines, 4, 2)["errors"] == "0"
    assert children() == []
    import psycopg

    with psycopg.connect(PG_ADMIN) as admin:
        left = admin.execute("SELECT datname FROM pg_database WHERE datname LIKE 'companion_bench_%'").fetchall()
    assert left == []


def test_two_servers_want_postgresql(capsys) -> None:
    """Two app servers share a PostgreSQL database: asked on SQLite, the bench says so and starts nothing."""
    with pytest.raises(SystemExit) as exited:
        club_night().main(["--quick", "--servers", "2"])
    assert exited.value.code == 2
    assert "--servers 2 runs two app servers on one PostgreSQL database: add --postgres" in capsys.readouterr().err
    assert children() == []
