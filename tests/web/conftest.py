"""Fixtures the web tests share: a client on an app backed by SQLite or by PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import create_app
from tests.conftest import TOKEN, Client
from tests.web.helpers import postgres_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_client(request, tmp_path) -> Iterator[tuple[Client, object]]:
    """A client on an app backed by SQLite or PostgreSQL."""
    urls = iter([f"sqlite:///{tmp_path / 'db.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    app = create_app({"TESTING": True, "SECRET_KEY": "db", "DATABASE_URL": url})
    app.test_client_class = Client
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    yield client, app
    app.extensions["db_engine"].dispose()
    next(urls, None)
