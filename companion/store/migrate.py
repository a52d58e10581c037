"""The database's schema over time, with Alembic: made whole when new, upgraded in place, SQLite copied aside first.

`companion db upgrade` and `companion serve` call upgrade(); create_app() calls prepare(), which makes an empty
database at once and otherwise only says whether an upgrade is needed (the app then answers 503 until it is done).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, insert, inspect, text
from sqlmodel import SQLModel

from companion.store import models  # registers the tables on SQLModel.metadata

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
log = logging.getLogger(__name__)
# Any fixed number: PostgreSQL's advisory lock that lets one app server at a time create or upgrade the schema.
PG_LOCK = 7_042_016


def _config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, pointed at our migrations and handed the connection to run them on."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@cache
def _scripts() -> ScriptDirectory:
    """The migration scripts, read once per process."""
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision: the schema this code expects."""
    return _scripts().get_current_head() or BASELINE


def current(connection: Connection) -> str | None:
    """The revision a database is at; None for a database made before migrations (or an empty one)."""
    return MigrationContext.configure(connection).get_current_revision()


def _app_tables(connection: Connection) -> set[str]:
    """The companion's tables that exist in the database."""
    return set(inspect(connection).get_table_names()) & set(SQLModel.metadata.tables)


def _stamp(connection: Connection, revision: str) -> None:
    """Record the revision, as Alembic's own stamp does, without loading the scripts (a new database each test)."""
    MigrationContext.configure(connection).stamp(_scripts(), revision)


def _hold_and_create_if_empty(connection: Connection) -> bool:
    """Hold the schema for this transaction (PostgreSQL: one app server at a time); make an empty database whole at
    the newest schema and say True, or say False for one that has tables."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})
    if _app_tables(connection):
        return False
    SQLModel.metadata.create_all(connection)
    # Its one row, as migration 0007 adds it: writes move its version on, they never insert it.
    connection.execute(insert(models.HistoryVersion).values(id=1, version=0))
    _stamp(connection, head())
    return True


def prepare(engine: Engine) -> str | None:
    """Make an empty database whole at the newest schema; for one that needs an upgrade, say so (else None)."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            empty = not _app_tables(connection)
            connection.rollback()
            if empty:
                # Made whole or not at all (a full disk): never half the tables, which would pass for an old schema.
                with _one_transaction(connection):
                    _hold_and_create_if_empty(connection)
                return None
        with connection.begin():
            if _hold_and_create_if_empty(connection):
                return None
            revision = current(connection)
    if revision == head():
        return None
    return (
        f"The database is at schema {revision or 'from before migrations'}; this version of the app needs "
        f"{head()}. Run `companion db upgrade` (it copies a SQLite database aside first), or start it with "
        "`companion serve`, which upgrades."
    )


class UpgradeFailed(RuntimeError):
    """An upgrade that could not be done; its message (logged too) says why, that the database is as it was, and
    which file holds the copy made before it."""


def upgrade(engine: Engine, *, copy_aside: bool = True) -> str:
    """Bring the database to the newest schema in one transaction; returns what was done, in a sentence.

    All or nothing, on SQLite as on PostgreSQL: when any step fails (a full disk, a broken migration) the whole
    upgrade is rolled back and UpgradeFailed says so, naming the copy of a SQLite database made before it.
    """
    before: str | None = None
    copy: Path | None = None
    try:
        with engine.connect() as connection, _one_transaction(connection):
            if _hold_and_create_if_empty(connection):
                return f"Created a new database at schema {head()}."
            before = current(connection)
            if before == head():
                return f"The database is up to date (schema {head()})."
            # Made under the upgrade's own lock: no write lands between the copy and the upgrade.
            copy = _copy_aside(engine, before) if copy_aside else None
            if before is None:
                _bring_to_baseline(connection)
                _stamp(connection, BASELINE)
            command.upgrade(_config(connection), "head")
            _check_references(connection)
    except Exception as exc:
        failure = UpgradeFailed(_failed(engine, before, copy, exc))
        log.error("%s", failure)
        raise failure from exc
    kept = f" The database as it was is kept in {copy}." if copy else ""
    done = f"Upgraded the database from schema {_schema(before)} to {head()}.{kept}"
    log.info("%s", done)
    return done


def _schema(revision: str | None) -> str:
    """A revision as a sentence says it after "from schema"."""
    return revision or "from before migrations"


def _at(revision: str | None) -> str:
    """A revision as a sentence says where a database is: "schema 0003"."""
    return f"schema {revision}" if revision else "a schema from before migrations"


@contextmanager
def _one_transaction(connection: Connection) -> Iterator[None]:
    """Hold the whole upgrade in one transaction that also holds SQLite's DDL, and end it whole.

    Python's sqlite3 opens a transaction only before a row is written, so CREATE, ALTER and DROP before the first
    write used to land at once: an upgrade that failed midway left half a schema (and a retry found a column it
    was about to add). With the driver's own transaction handling off, an explicit BEGIN IMMEDIATE holds every
    statement (batch mode's table copies too, which SQLite's transactional DDL rolls back with the rest) and takes
    the write lock at once, so app processes wait for the upgrade rather than meet half of it.
    """
    if connection.dialect.name != "sqlite":
        with connection.begin():
            yield
        return
    driver = connection.connection.dbapi_connection
    # SQLite copies a table to alter it; its foreign keys must be off for that, and only outside a transaction.
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    connection.commit()
    before = driver.isolation_level  # type: ignore[union-attr]
    driver.isolation_level = None  # type: ignore[union-attr]
    try:
        with connection.begin():
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            yield
    finally:
        _hand_back(connection, driver, before)


def _hand_back(connection: Connection, driver: Any, isolation_level: str | None) -> None:
    """Give the connection the driver's transaction handling and foreign keys back, or close it when it can't."""
    if connection.invalidated:
        return
    if driver.in_transaction:
        # A rollback that failed left the transaction open: closed, SQLite undoes it; it is never committed here.
        connection.invalidate()
        return
    try:
        driver.isolation_level = isolation_level
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()
    except Exception:  # noqa: BLE001 - whatever the failure left broken, handing back must not raise over it
        # A connection the failure left unusable (a vanished file) is not handed back to the app.
        connection.invalidate()


def _check_references(connection: Connection) -> None:
    """Refuse (rolling the upgrade back) a SQLite upgrade that would leave rows pointing at rows that are gone."""
    if connection.dialect.name != "sqlite":
        return
    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if problems:
        raise RuntimeError(f"the upgrade would leave {len(problems)} rows pointing at rows that are not there")


def _failed(engine: Engine, before: str | None, copy: Path | None, error: Exception) -> str:
    """What a failed upgrade says: why, the schema the database is still at (read again), and where the copy is."""
    reason = (str(getattr(error, "orig", None) or error).strip().splitlines() or ["no reason given"])[0].rstrip(".")
    said = f"The database upgrade to schema {head()} failed ({reason})."
    try:
        with engine.connect() as connection:
            now = current(connection) if _app_tables(connection) else before
    except Exception:  # noqa: BLE001 - saying why the upgrade failed must not fail over another error
        # The database can't be read at all (its disk vanished): say what was known before.
        now = before
    if now == before:
        said += f" Nothing was changed: the database is as it was ({_at(before)})."
    else:
        said += f" The database was left at {_at(now)}: put the copy back in its place before starting the app."
    if copy is not None:
        said += f" A copy of it as it was before the upgrade is {copy}."
    return said + " Fix the cause (free some disk space, say), then run `companion db upgrade` again."


def _bring_to_baseline(connection: Connection) -> None:
    """A database from before the baseline: seats got the name as played (taken from the roster), lost version."""
    columns = {column["name"] for column in inspect(connection).get_columns("seat")}
    if "name" not in columns:
        connection.exec_driver_sql("ALTER TABLE seat ADD COLUMN name VARCHAR(40) NOT NULL DEFAULT ''")
        connection.exec_driver_sql(
            "UPDATE seat SET name = (SELECT player.name FROM player WHERE player.id = seat.player_id)"
        )
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("ALTER TABLE seat ALTER COLUMN name DROP DEFAULT")
    if "version" in columns:
        connection.exec_driver_sql("ALTER TABLE seat DROP COLUMN version")


def _copy_aside(engine: Engine, revision: str | None) -> Path | None:
    """Copy a SQLite database file beside itself before upgrading it (SQLite's online backup); None elsewhere."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    source = Path(database)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = source.with_name(f"{source.name}.before-{revision or 'migrations'}-{stamp}")
    attempt = 1
    while target.exists():  # a retry within the same second keeps the copy before it
        attempt += 1
        target = source.with_name(f"{source.name}.before-{revision or 'migrations'}-{stamp}-{attempt}")
    try:
        backup_sqlite(source, target)
    except Exception:
        # A copy cut short (the disk filled while it was written) is no copy: nothing of it is left to mislead.
        for part in (target, target.with_name(target.name + "-journal")):
            part.unlink(missing_ok=True)
        raise
    return target


def backup_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database while the app may be writing to it (SQLite's online backup API)."""
    original, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        original.backup(copy)
    finally:
        copy.close()
        original.close()
