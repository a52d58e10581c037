"""Migrations: a database made by the oldest schema, filled, upgraded (SQLite and PostgreSQL), every play found."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel

from companion import cli
from companion.games.base import name_key
from companion.store import migrate
from tests.helpers import OLD_NAMES, client_for, fill_oldest, postgres_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_database(request, tmp_path, monkeypatch):
    """The URL of a database in the oldest schema, filled; the environment points `companion` at it."""
    urls = iter([f"sqlite:///{tmp_path / 'companion.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    fill_oldest(url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    yield url
    next(urls, None)


def test_an_outdated_database_is_refused_with_what_to_do(old_database) -> None:
    client, app = client_for(old_database)
    response = client.get("/")
    assert response.status_code == 503
    assert "companion db upgrade" in response.get_data(as_text=True)
    api = client.get("/api/v1/plays/1")
    assert api.status_code == 503 and "companion db upgrade" in api.get_json()["errors"][0]["message"]
    assert client.get("/static/css/app.css").status_code == 200
    app.extensions["db_engine"].dispose()


def test_upgrade_from_the_oldest_schema_finds_every_play(old_database, tmp_path, capsys) -> None:
    assert cli.main(["db", "upgrade"]) == 0
    said = capsys.readouterr().out
    assert f"Upgraded the database from schema from before migrations to {migrate.head()}." in said
    if old_database.startswith("sqlite"):
        assert "kept in" in said
        copies = list(tmp_path.glob("companion.sqlite.before-migrations-*"))
        assert len(copies) == 1 and copies[0].stat().st_size > 0
    client, app = client_for(old_database)
    finished = client.get("/api/v1/plays/1").get_json()
    assert finished["status"] == "finished"
    assert [p["name"] for p in finished["players"]] == ["Óscar", "Иван"]
    assert finished["result"]["players"][0]["total"] == 19
    assert "Óscar" in client.get("/plays/1").get_data(as_text=True)
    in_progress = client.get("/api/v1/plays/2").get_json()
    # The seats keep the name each play was played under, though the roster merged the two spellings of Óscar.
    assert [p["name"] for p in in_progress["players"]] == ["óscar", "Σοφία", "Łukasz"]
    # Red 2 × 5, scroll 4, and crowns tied at 1: every tied player gets the full 15.
    assert in_progress["live"]["players"][0]["total"] == 2 * 5 + 4 + 15
    undone = client.post("/api/v1/plays/2/undo", json={}, csrf=False)
    assert undone.status_code == 200
    assert undone.get_json()["players"][0]["towers"]["red"] == 1
    tapped = client.post(
        "/api/v1/plays/2/actions", json={"action": "add", "player": "Σοφία", "field": "crowns", "delta": 1}, csrf=False
    )
    assert tapped.status_code == 200
    history = client.get("/history").get_data(as_text=True)
    assert "/plays/1" in history
    roster = client.get("/plays/new?game=spires").get_data(as_text=True)
    assert roster.count('<option value="Óscar">') == 1 and '<option value="óscar">' not in roster
    # Óscar plays again, typed in lower case: the same roster entry, no 500.
    again = client.post("/plays", data={"game": "spires", "name-0": "ÓSCAR", "name-1": "Иван"})
    assert again.status_code == 303
    engine = app.extensions["db_engine"]
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT count(*) FROM player")).scalar() == len(OLD_NAMES) - 1
        assert migrate.current(db) == migrate.head()
        # The upgraded schema is the one a new database gets: the models, nothing more or less.
        assert compare_metadata(MigrationContext.configure(db), SQLModel.metadata) == []
    app.extensions["db_engine"].dispose()
    assert cli.main(["db", "upgrade"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_migration_0002_keys_names_as_the_app_still_does() -> None:
    """0002 keeps a frozen copy of name_key (app code changing must never change an old migration). While the app's
    is the same, the roster keys an upgrade stored are the ones the app looks up; when this fails, the app's
    name_key changed: add a migration that works every player.key out again (and leave 0002 as it is)."""
    frozen = migrate._scripts().get_revision("0002").module.name_key
    for name in ["  ÓSCAR ", "óscar", "İpek", "i̇pek", "Ann\u200b", "Straße", "ﬀ", "Ａｎｎ", "Σοφία", "ΣΟΦΊΑ", "a  b"]:
        assert frozen(name) == name_key(name), name


def test_a_new_database_is_made_at_the_newest_schema(tmp_path) -> None:
    client, app = client_for(f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert client.get("/").status_code == 200
    with app.extensions["db_engine"].connect() as db:
        assert migrate.current(db) == migrate.head()
    app.extensions["db_engine"].dispose()


def test_backup_copies_the_sqlite_database(tmp_path, monkeypatch, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'companion.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    client, app = client_for(url)
    assert client.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob"}).status_code == 303
    target = tmp_path / "copy.sqlite"
    assert cli.main(["backup", str(target)]) == 0
    assert "Backed up" in capsys.readouterr().out
    assert cli.main(["backup", str(target)]) == 2
    copy, _ = client_for(f"sqlite:///{target}")
    assert json.loads(copy.get("/api/v1/plays/1").get_data())["players"][0]["name"] == "Ann"
    app.extensions["db_engine"].dispose()
