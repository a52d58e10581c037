"""Fixtures for the server tests: a fresh database (SQLite or PostgreSQL), servers on it (tests/server/helpers.py),
and its Change rows read straight from the database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server.helpers import Server


@pytest.fixture
def serve(database_url, tmp_path) -> Iterator[Callable[[], Server]]:
    """Start a server on the test's database (call it again for a new server on the same data); all are stopped
    at the end of the test, before the database is dropped."""
    servers: list[Server] = []

    def start() -> Server:
        server = Server(database_url, tmp_path, tmp_path / "server.log")
        servers.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def read_changes(database_url) -> Callable[[int], list[Any]]:
    """The Change rows of a play in id order, read straight from the database (not through the app)."""

    def read(play_id: int) -> list[Any]:
        from sqlmodel import Session, col, select

        from companion.store.db import make_engine
        from companion.store.models import Change

        engine = make_engine(database_url)
        try:
            with Session(engine) as session:
                query = select(Change).where(Change.play_id == play_id).order_by(col(Change.id))
                return list(session.exec(query).all())
        finally:
            engine.dispose()

    return read
