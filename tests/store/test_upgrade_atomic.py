"""An upgrade is all or nothing (issue 16): one that fails midway, from every old schema, leaves the database exactly
as it was (schema version, tables, rows), says so and names the copy made before it; once the cause is gone, the
retry gives the right data and the app starts. On SQLite (a small disk that fills mid-upgrade, and a migration
step that raises) and on PostgreSQL (a step that raises)."""

from __future__ import annotations

import gc
import logging
import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext, RevisionStep
from sqlmodel import SQLModel

from companion import cli, create_app
from companion.store import migrate
from companion.store.db import make_engine
from tests.helpers import OLD_NAMES, OLDEST, SPIRES_SEAT, client_for, fill_oldest, postgres_url

# The schemas a database can be at before this version: from before migrations (without seat.name, then with it
# but not stamped), then every revision but the newest.
OLD_SCHEMAS = [
    "oldest",
    "unstamped",
    *[script.revision for script in reversed(list(migrate._scripts().walk_revisions()))][:-1],
]
# Plays added to the oldest schema's few for the small disk: over half a megabyte, so it fills at many points.
MORE_PLAYS = 400
DISK_BYTES = 8 * 1024 * 1024
# Free space left on the small disk for the first attempt, as fractions of the database's size: too little for the
# copy aside, then room for the copy but not for the upgrade (it fills at several points of it), then about enough.
FREE_FRACTIONS = (0.5, 1.15, 1.4, 1.6, 2.2)


@pytest.fixture(autouse=True)
def no_stale_log_handler() -> Iterator[None]:
    """`companion` commands log to the stderr of their moment; a test's captured stderr is closed after it, so the
    handler an earlier command left is taken off before and after each test here."""

    def drop() -> None:
        """Take the commands' handler off the root logger."""
        root = logging.getLogger()
        for handler in [h for h in root.handlers if h.get_name() == "companion"]:
            root.removeHandler(handler)

    drop()
    yield
    drop()


def fill_more(url: str, plays: int) -> None:
    """Add finished plays (three seats, a breakdown each, a tap) to a database in the oldest schema."""
    engine = make_engine(url)
    now = datetime(2024, 6, 1, 20, 0, tzinfo=UTC)
    t = OLDEST.tables
    first_player, first_play = len(OLD_NAMES) + 1, 3
    with engine.begin() as db:
        db.execute(
            t["player"].insert(),
            [{"id": first_player + i, "name": f"Player {i}", "created_at": now} for i in range(12)],
        )
        db.execute(
            t["play"].insert(),
            [
                {
                    "id": first_play + i,
                    "game": "spires",
                    "status": "finished",
                    "options": {"solo": False, "discard": {}},
                    "rules_version": "spires-rulebook/rules-notes-1",
                    "source": "calculator",
                    "created_at": now,
                    "played_at": now,
                    "finished_at": now,
                    "notes": f"Evening {i}: " + "a long note " * 8,
                    "tiebreak": None,
                    "extra": {},
                    "version": 1,
                }
                for i in range(plays)
            ],
        )
        db.execute(
            t["seat"].insert(),
            [
                {
                    "id": 100 + 3 * i + position,
                    "play_id": first_play + i,
                    "player_id": first_player + (i + position) % 12,
                    "position": position,
                    "colour": "",
                    "state": SPIRES_SEAT,
                    "version": 1,
                    "total": 20 - position,
                    "rank": position + 1,
                    "breakdown": [
                        {"key": "towers", "label": "Towers", "points": 10, "why": "Red 2: 2 cards × 5 = 10 VP."}
                    ],
                }
                for i in range(plays)
                for position in range(3)
            ],
        )
        db.execute(
            t["change"].insert(),
            [
                {
                    "play_id": first_play + i,
                    "seat_id": 100 + 3 * i,
                    "field": "towers.red",
                    "old": 1,
                    "new": 2,
                    "at": now,
                    "device": "tablet",
                    "undone": False,
                }
                for i in range(plays)
            ],
        )
    engine.dispose()


def make_old(url: str, schema: str, plays: int = 0) -> None:
    """A filled database at an old schema: the oldest one filled, then brought as far as that schema."""
    fill_oldest(url)
    if plays:
        fill_more(url, plays)
    if schema == "oldest":
        return
    engine = make_engine(url)
    with engine.connect() as connection, migrate._one_transaction(connection):
        migrate._bring_to_baseline(connection)
        if schema != "unstamped":
            migrate._stamp(connection, migrate.BASELINE)
            command.upgrade(migrate._config(connection), schema)
    engine.dispose()


def snapshot(url: str) -> dict[str, Any]:
    """Everything a database holds: its tables' definitions (SQLite's own text of them), indexes and every row."""
    engine = sa.create_engine(migrate_url(url))
    shot: dict[str, Any] = {}
    with engine.connect() as db:
        inspector = sa.inspect(db)
        if engine.dialect.name == "sqlite":
            shot["sqlite_master"] = sorted(
                db.exec_driver_sql("SELECT type, name, tbl_name, sql FROM sqlite_master").all()
            )
        for table in sorted(inspector.get_table_names()):
            shot[f"{table}: columns"] = [
                (column["name"], str(column["type"]), column["nullable"]) for column in inspector.get_columns(table)
            ]
            shot[f"{table}: indexes"] = sorted(
                (index["name"], tuple(index["column_names"]), bool(index["unique"]))
                for index in inspector.get_indexes(table)
            )
            shot[f"{table}: unique"] = sorted(
                (unique["name"] or "", tuple(unique["column_names"]))
                for unique in inspector.get_unique_constraints(table)
            )
            rows = db.execute(sa.text(f'SELECT * FROM "{table}"'))
            names = list(rows.keys())
            shot[table] = sorted((dict(zip(names, row, strict=True)) for row in rows.all()), key=repr)
    engine.dispose()
    return shot


def migrate_url(url: str) -> str:
    """The URL as SQLAlchemy takes it (postgresql:// is psycopg 3 here)."""
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def without_uids(shot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot with each play's uid (random, made by the upgrade) checked and put aside."""
    uids = [row.pop("uid") for row in (dict(row) for row in shot.get("play", [])) if "uid" in row]
    assert all(isinstance(uid, str) and len(uid) == 32 for uid in uids) and len(set(uids)) == len(uids)
    return {**shot, "play": [{k: v for k, v in row.items() if k != "uid"} for row in shot.get("play", [])]}


def copies(folder: Path) -> list[Path]:
    """The copies an upgrade made beside the database (not SQLite's own -wal and -shm files)."""
    return sorted(path for path in folder.glob("companion.sqlite.before-*") if not path.name.endswith(("-wal", "-shm")))


def assert_plays_as_played(url: str) -> None:
    """The app starts on the upgraded database, and shows the plays with their seats' names and winners."""
    client, app = client_for(url)
    assert client.get("/").status_code == 200
    assert client.get("/history").status_code == 200
    finished = client.get("/api/v1/plays/1").get_json()
    assert [p["name"] for p in finished["players"]] == ["Óscar", "Иван"]
    # Both seats were stored at 19 VP, rank 1: a shared victory, and no more winners than that.
    assert finished["result"]["winners"] == ["Óscar", "Иван"] and finished["result"]["players"][0]["total"] == 19
    assert "Óscar" in client.get("/plays/1").get_data(as_text=True)
    assert [p["name"] for p in client.get("/api/v1/plays/2").get_json()["players"]] == ["óscar", "Σοφία", "Łukasz"]
    app.extensions["db_engine"].dispose()


def fail_in_the_newest_step(patch: pytest.MonkeyPatch) -> None:
    """The newest migration does all its work, then raises: the last moment an upgrade can fail."""
    real_init = RevisionStep.__init__

    def init(self: RevisionStep, revision_map: Any, revision: Any, is_upgrade: bool) -> None:
        """The step as Alembic makes it; the newest one's upgrade raises once it has run."""
        real_init(self, revision_map, revision, is_upgrade)
        if revision.revision == migrate.head():
            upgrade = self.migration_fn

            def upgrade_then_fail() -> None:
                """Run the step, then fail at its end."""
                upgrade()
                raise RuntimeError("the last step failed on purpose")

            self.migration_fn = upgrade_then_fail

    patch.setattr(RevisionStep, "__init__", init)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request, tmp_path, monkeypatch) -> Iterator[str]:
    """An empty database's URL on SQLite or PostgreSQL; the environment points `companion` at it."""
    urls = iter([f"sqlite:///{tmp_path / 'companion.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    yield url
    next(urls, None)


@pytest.mark.parametrize("schema", OLD_SCHEMAS)
def test_an_upgrade_that_fails_midway_leaves_the_database_as_it_was(
    database, schema, tmp_path, monkeypatch, capsys, caplog
) -> None:
    make_old(database, schema)
    before = snapshot(database)
    with monkeypatch.context() as patch:
        fail_in_the_newest_step(patch)
        with caplog.at_level(logging.ERROR, logger="companion.store.migrate"):
            assert cli.main(["db", "upgrade"]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err and "Upgraded" not in said.out
    assert "failed (the last step failed on purpose)" in said.err
    assert f"Nothing was changed: the database is as it was ({migrate._at(_revision(schema))})." in said.err
    assert snapshot(database) == before
    if database.startswith("sqlite"):
        (copy,) = copies(tmp_path)
        assert f"A copy of it as it was before the upgrade is {copy}." in said.err
        assert snapshot(f"sqlite:///{copy}") == before
    # The same sentence is logged, for a server's log.
    (logged,) = [record.getMessage() for record in caplog.records if record.name == "companion.store.migrate"]
    assert logged.startswith("The database upgrade to schema") and logged in said.err
    # The step mended, the same command upgrades, and every play is there as played.
    assert cli.main(["db", "upgrade"]) == 0
    assert f"to {migrate.head()}." in capsys.readouterr().out
    assert_plays_as_played(database)


def _revision(schema: str) -> str | None:
    """The revision a database at this old schema reports (None from before migrations)."""
    return None if schema in ("oldest", "unstamped") else schema


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A folder on a disk of DISK_BYTES of its own (tmpfs), unmounted afterwards; skipped where it can't be made."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a small disk needs `mount -t tmpfs`, which only root may run")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,  # a refusal is a skip, said below
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=False)


def fill_disk_leaving(folder: Path, free: int) -> Path:
    """Write a ballast file that leaves about `free` bytes of the folder's disk free; its path."""
    ballast = folder / "ballast"
    stat = os.statvfs(folder)
    size = max(0, stat.f_bavail * stat.f_frsize - free)
    with ballast.open("wb") as file:
        chunk = b"\0" * (1024 * 1024)
        while size > 0:
            size -= file.write(chunk[: min(size, len(chunk))])
    return ballast


@pytest.mark.parametrize("schema", OLD_SCHEMAS)
def test_a_disk_that_fills_mid_upgrade_changes_nothing_and_the_retry_is_right(
    small_disk, schema, tmp_path, monkeypatch, capsys
) -> None:
    # Made and upgraded once off the small disk: the database as it was, and as a good upgrade makes it.
    made = tmp_path / "made.sqlite"
    make_old(f"sqlite:///{made}", schema, plays=MORE_PLAYS)
    reference = tmp_path / "reference.sqlite"
    shutil.copyfile(made, reference)
    reference_engine = make_engine(f"sqlite:///{reference}")
    migrate.upgrade(reference_engine, copy_aside=False)
    reference_engine.dispose()
    upgraded = without_uids(snapshot(f"sqlite:///{reference}"))
    size = made.stat().st_size
    url = f"sqlite:///{small_disk / 'companion.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("COMPANION_INSTANCE", str(small_disk))
    before = snapshot(f"sqlite:///{made}")
    failed_midway = 0
    for fraction in FREE_FRACTIONS:
        for path in small_disk.iterdir():
            path.unlink()
        shutil.copyfile(made, small_disk / "companion.sqlite")
        ballast = fill_disk_leaving(small_disk, int(size * fraction))
        code = cli.main(["db", "upgrade"])
        said = capsys.readouterr()
        ballast.unlink()  # space freed: the database and the copies are read as the retry will find them
        if code == 0:
            assert f"to {migrate.head()}." in said.out
        else:
            assert code == 1 and "Traceback" not in said.err
            assert "failed (database or disk is full)." in said.err, said.err
            assert "Nothing was changed: the database is as it was" in said.err
            assert snapshot(url) == before
            kept = copies(small_disk)
            # A copy cut short by the full disk is removed; one made whole holds the database as it was.
            assert len(kept) <= 1
            if kept:
                failed_midway += 1
                assert f"A copy of it as it was before the upgrade is {kept[0]}." in said.err
                assert snapshot(f"sqlite:///{kept[0]}") == before
            # The retry, with room: the database as a good upgrade makes it, every field as before.
            assert cli.main(["db", "upgrade"]) == 0, capsys.readouterr().err
            capsys.readouterr()
        assert without_uids(snapshot(url)) == upgraded
        assert_plays_as_played(url)
    # The disk filled after the copy aside, in the upgrade itself, at least once; from 0006 the upgrade only adds
    # two small tables (0007) and a column (0008), from 0007 the column: a few pages that these fractions can't cut
    # in half.
    assert failed_midway >= 1 or schema in ("0006", "0007")


def test_a_new_database_on_a_full_disk_is_made_whole_or_not_at_all(small_disk) -> None:
    """Started on a disk with room for some of the tables: nothing is made (never half the tables, which the next
    start would take for an old schema); with room, the app makes the whole schema and serves."""
    for free in (48 * 1024, 96 * 1024):
        # A file of its own each time: the failed app's connection may still hold the last one's log.
        url = f"sqlite:///{small_disk / f'companion-{free}.sqlite'}"
        # A failed app's engine is closed now, never while the next app is made (its files freed meanwhile).
        gc.collect()
        ballast = fill_disk_leaving(small_disk, free)
        with pytest.raises(sa.exc.OperationalError, match=r"disk is full|disk I/O error"):
            create_app({"TESTING": True, "SECRET_KEY": "full", "DATABASE_URL": url})
        gc.collect()
        ballast.unlink()
        engine = sa.create_engine(url)
        with engine.connect() as db:
            assert db.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar() == 0
        engine.dispose()
    client, app = client_for(url)
    assert client.get("/").status_code == 200
    with app.extensions["db_engine"].connect() as db:
        assert migrate.current(db) == migrate.head()
        assert compare_metadata(MigrationContext.configure(db), SQLModel.metadata) == []
    app.extensions["db_engine"].dispose()
