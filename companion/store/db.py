"""The database: an engine from DATABASE_URL (SQLite in instance/ by default), one session per request."""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, current_app, g, request
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from companion.store import migrate


def normalise_url(url: str) -> str:
    """Point postgres URLs at the psycopg 3 driver the project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def make_engine(url: str) -> Engine:
    """An engine for the URL; SQLite gets foreign keys and a wait instead of 'database is locked'."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            """Foreign keys on (SQLite leaves them off); a write-ahead log, so devices reading never block a tap."""
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    """Create the engine (and the tables of a new database), and close each request's session at teardown.

    A database at an older schema is not touched here: every request answers 503 saying to upgrade it
    (`companion db upgrade`; `companion serve` upgrades before it serves).
    """
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["db_engine"] = engine
    app.extensions["db_outdated"] = migrate.prepare(engine)
    app.before_request(refuse_while_outdated)
    app.teardown_appcontext(close_session)


def refuse_while_outdated() -> None:
    """Answer 503 with what to do while the database's schema is older than the app's."""
    outdated = current_app.extensions.get("db_outdated")
    if outdated and not (request.endpoint or "").endswith("static"):
        abort(503, description=outdated)


def get_session() -> Session:
    """The request's database session, opened on first use."""
    if "db_session" not in g:
        g.db_session = Session(current_app.extensions["db_engine"], expire_on_commit=False)
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    """Close the request's session, if one was opened."""
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
