"""Shared fixtures: an app on a fresh SQLite file, a client that carries the CSRF token, a started play."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.web.logs import HANDLER_NAME

TOKEN = "test-csrf-token"


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


class Client(FlaskClient):
    """A test client that sends the session's CSRF token on every unsafe request, as the pages do."""

    def open(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        """Add the token header unless the test asks for none (csrf=False)."""
        if kwargs.pop("csrf", True):
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("X-CSRF-Token", TOKEN)
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)

    def htmx(self, method: str, url: str, **kwargs: Any):
        """A request as htmx sends it."""
        headers = dict(kwargs.pop("headers", None) or {})
        headers["HX-Request"] = "true"
        return self.open(url, method=method, headers=headers, **kwargs)


@pytest.fixture
def client(app: Flask) -> Client:
    """A client whose session already holds the CSRF token."""
    app.test_client_class = Client
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client  # type: ignore[return-value]


def start_play(client: FlaskClient, names: list[str], solo: bool = False) -> int:
    """Start a Spires play through the new-play form; returns its id."""
    form = {"game": "spires", **{f"name-{i}": name for i, name in enumerate(names)}}
    if solo:
        form["solo"] = "on"
    response = client.post("/plays", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(re.search(r"/plays/(\d+)$", response.headers["Location"]).group(1))


@pytest.fixture
def play_id(client: FlaskClient) -> int:
    """A two-player Spires play in progress: Ann first, then Bob."""
    return start_play(client, ["Ann", "Bob"])
