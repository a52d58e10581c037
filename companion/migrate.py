"""The database's schema over time, with Alembic: made whole when new, upgraded in place, SQLite copied aside first.

`companion db upgrade` and `companion serve` call upgrade(); create_app() calls prepare(), which makes an empty
database at once and otherwise only says whether an upgrade is needed (the app then answers 503 until it is done).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text
from sqlmodel import SQLModel

from . import models  # noqa: F401  (registers the tables on SQLModel.metadata)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
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
    _stamp(connection, head())
    return True


def prepare(engine: Engine) -> str | None:
    """Make an empty database whole at the newest schema; for one that needs an upgrade, say so (else None)."""
    with engine.connect() as connection:
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


def upgrade(engine: Engine, *, copy_aside: bool = True) -> str:
    """Bring the database to the newest schema; returns what was done, in a sentence."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # SQLite copies a table to alter it; its foreign keys must be off for that, and only outside a transaction.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        with connection.begin():
            if _hold_and_create_if_empty(connection):
                return f"Created a new database at schema {head()}."
            before = current(connection)
            if before == head():
                return f"The database is up to date (schema {head()})."
            copy = _copy_aside(engine, before) if copy_aside else None
            if before is None:
                _bring_to_baseline(connection)
                _stamp(connection, BASELINE)
            command.upgrade(_config(connection), "head")
        if connection.dialect.name == "sqlite":
            problems = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            if problems:
                raise RuntimeError(f"The upgrade left {len(problems)} broken references; the copy is {copy}.")
    kept = f" The database as it was is kept in {copy}." if copy else ""
    return f"Upgraded the database from schema {before or 'from before migrations'} to {head()}.{kept}"


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
    backup_sqlite(source, target)
    return target


def backup_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database while the app may be writing to it (SQLite's online backup API)."""
    original, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        original.backup(copy)
    finally:
        copy.close()
        original.close()
