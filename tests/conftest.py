"""Shared fixtures: an app on a fresh SQLite file, a client that carries the CSRF token, a started play."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.web.logs import HANDLER_NAME
from tests.helpers import Client, csrf_client, postgres_url, start_play


@pytest.fixture(autouse=True)
def _no_stale_log_handler() -> Iterator[None]:
    """A test that ran the `companion` command leaves its log handler on a stream pytest has since closed."""
    yield
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(handler)


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """The app on its own SQLite file in a temporary instance folder."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"})
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def client(app: Flask) -> Client:
    """A client whose session already holds the CSRF token."""
    return csrf_client(app)


@pytest.fixture
def play_id(client: FlaskClient) -> int:
    """A two-player Spires play in progress: Ann first, then Bob."""
    return start_play(client, ["Ann", "Bob"])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_client(request, tmp_path) -> Iterator[tuple[Client, object]]:
    """A client on an app backed by SQLite or PostgreSQL."""
    urls = iter([f"sqlite:///{tmp_path / 'db.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    app = create_app({"TESTING": True, "SECRET_KEY": "db", "DATABASE_URL": url})
    client = csrf_client(app)
    yield client, app
    app.extensions["db_engine"].dispose()
    next(urls, None)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path) -> Iterator[str]:
    """A fresh database: a SQLite file in the test's folder, or a throwaway PostgreSQL database (skipped when
    PostgreSQL is unreachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'companion.sqlite'}"
        return
    urls = postgres_url()
    yield next(urls)
    next(urls, None)
