"""A play's version and status: what a device's sync check compares with the version it shows (issue 21).

The check in front of the app (companion/play/sync_check.py) asks it several times a second per device, nearly
always to answer "nothing new". There it goes past SQLAlchemy's execution layer (events, execution context,
result wrapping: most of the check's time) to the pool's DBAPI connection, with the statement compiled once for
the engine's database. Views ask it on their session's connection like any other query.
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Connection, bindparam, exc
from sqlalchemy.engine import Dialect, Engine
from sqlmodel import col, select

from companion.store.models import Play

PLAY_VERSION = select(col(Play.version), col(Play.status)).where(col(Play.id) == bindparam("play_id"))


def play_version(connection: Connection, play_id: int) -> tuple[int, str] | None:
    """The play's version and status on a connection of SQLAlchemy's (a session's), or None for no such play."""
    row = connection.execute(PLAY_VERSION, {"play_id": play_id}).first()
    return (row[0], row[1]) if row else None


def ask_play_version(engine: Engine, play_id: int) -> tuple[int, str] | None:
    """The play's version and status asked on a DBAPI connection of the engine's pool, or None for no such play.

    A failure is SQLAlchemy's error, as on a connection of its own: sqlalchemy.exc.DBAPIError around the driver's.
    """
    sql, positional = _compiled(engine.dialect)
    params: Any = (play_id,) if positional else {"play_id": play_id}
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        finally:
            cursor.close()
    except engine.dialect.loaded_dbapi.Error as error:
        raise exc.DBAPIError.instance(sql, params, error, engine.dialect.loaded_dbapi.Error) from error
    finally:
        # Back to the pool, which ends the read (a rollback) as it does for every connection it lends.
        connection.close()
    return (row[0], row[1]) if row else None


@functools.cache
def _compiled(dialect: Dialect) -> tuple[str, bool]:
    """The statement in the dialect's SQL and placeholders, and whether its one parameter goes by position."""
    compiled = PLAY_VERSION.compile(dialect=dialect)
    return str(compiled), bool(dialect.positional)
