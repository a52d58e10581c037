"""GET /healthz: 200 with the version and schema while the database answers at the newest schema, 503 (JSON,
saying why) when it can't be reached or needs an upgrade; never behind the access code."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from companion import __version__, create_app
from companion.store import migrate
from companion.store.db import make_engine
from tests.helpers import Client, csrf_client, postgres_url

CODE = "table-code-2026"


def client_for(url: str, **settings: object) -> tuple[Client, object]:
    """A test client on an app over that database, with any extra settings."""
    app = create_app({"TESTING": True, "SECRET_KEY": "health", "DATABASE_URL": url, **settings})
    client = csrf_client(app)
    return client, app  # type: ignore[return-value]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path) -> Iterator[str]:
    """A fresh SQLite file or PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'health.sqlite'}"
    else:
        yield from postgres_url()


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_reachable_database_at_the_newest_schema_is_healthy(database_url, htmx) -> None:
    client, app = client_for(database_url)
    response = client.get("/healthz", headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code == 200
    assert response.is_json and response.headers["Cache-Control"] == "no-store"
    assert response.get_json() == {
        "status": "ok",
        "version": __version__,
        "schema": migrate.head(),
        "expected_schema": migrate.head(),
        "database": "reachable",
    }
    app.extensions["db_engine"].dispose()


def test_an_outdated_database_is_unavailable_and_says_why(database_url) -> None:
    client, app = client_for(database_url)
    engine = app.extensions["db_engine"]
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0004'"))
    app.extensions["db_outdated"] = migrate.prepare(engine)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.is_json
    body = response.get_json()
    assert body["status"] == "unavailable" and body["database"] == "reachable"
    assert body["schema"] == "0004" and body["expected_schema"] == migrate.head()
    assert "companion db upgrade" in body["problem"]
    # Every other page answers its own 503 page meanwhile: the health check is not in its way, nor it in theirs.
    assert client.get("/history").status_code == 503
    engine.dispose()


def test_an_unreachable_database_is_unavailable(tmp_path) -> None:
    client, app = client_for(f"sqlite:///{tmp_path / 'health.sqlite'}")
    app.extensions["db_engine"].dispose()
    app.extensions["db_engine"] = make_engine(f"sqlite:///{tmp_path / 'no such folder' / 'gone.sqlite'}")
    response = client.get("/healthz")
    assert response.status_code == 503 and response.is_json
    body = response.get_json()
    assert body["status"] == "unavailable" and body["database"] == "unreachable" and body["schema"] is None
    assert "unable to open database file" in body["problem"]
    assert str(tmp_path) not in body["problem"]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_health_check_needs_no_access_code(tmp_path, htmx) -> None:
    client, app = client_for(f"sqlite:///{tmp_path / 'health.sqlite'}", COMPANION_ACCESS_CODE=CODE)
    headers = {"HX-Request": "true"} if htmx else {}
    assert client.get("/healthz", headers=headers).status_code == 200
    # The rest of the app still wants the code.
    assert client.get("/history", headers=headers).status_code in (303, 401)
    app.extensions["db_engine"].dispose()


def test_the_health_check_answers_only_the_trusted_hosts(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "health",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite'}",
            "TRUSTED_HOSTS": "companion.local",
        }
    )
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": "companion.local"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "elsewhere.example"}).status_code == 400
    app.extensions["db_engine"].dispose()


def test_only_get_is_answered(tmp_path) -> None:
    client, app = client_for(f"sqlite:///{tmp_path / 'health.sqlite'}")
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200
    app.extensions["db_engine"].dispose()
