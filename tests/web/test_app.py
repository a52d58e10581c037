"""The app factory's configuration, the database choice and the `companion` command."""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

import pytest

from companion import create_app
from companion.cli import main
from companion.store.db import normalise_url


def test_secret_key_is_generated_once_into_the_instance(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "inst"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    first = create_app()
    second = create_app()
    key_file = tmp_path / "inst" / "secret_key"
    assert key_file.exists() and oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key_file.read_text().strip()
    assert first.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'inst' / 'companion.sqlite'}"
    assert (tmp_path / "inst" / "companion.sqlite").exists()
    for app in (first, second):
        app.extensions["db_engine"].dispose()


def test_instance_config_and_environment(tmp_path, monkeypatch) -> None:
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'from-config'\nHISTORY_NOTE = 'club'\n")
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-config"
    assert app.config["HISTORY_NOTE"] == "club"
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'env.sqlite'}"
    assert (tmp_path / "env.sqlite").exists()
    app.extensions["db_engine"].dispose()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.sqlite", "sqlite:///x.sqlite"),
    ],
)
def test_database_urls_use_psycopg(given: str, expected: str) -> None:
    assert normalise_url(given) == expected


def test_serve_command_prints_the_url(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    seen = {}

    class Server:
        """A waitress server that says where it would listen and returns at once instead of serving."""

        servers: ClassVar[list[SimpleNamespace]] = [SimpleNamespace(channel_class=None)]

        def print_listen(self, _format: str) -> None:
            """Nothing to say: nothing listens."""

        def run(self) -> None:
            """Return at once, as after Ctrl+C."""

        def close(self) -> None:
            """Nothing was opened."""

    def create_server(app, **kw):
        seen.update(kw)
        return Server()

    monkeypatch.setattr("waitress.server.create_server", create_server)
    monkeypatch.setattr("companion.web.security.guard_connections", lambda server, *args, **kw: server)
    assert main(["serve", "--host", "127.0.0.1", "--port", "5123"]) == 0
    assert "open http://127.0.0.1:5123/" in capsys.readouterr().out
    assert seen["host"] == "127.0.0.1" and seen["port"] == 5123


def test_serve_needs_a_command(capsys) -> None:
    with pytest.raises(SystemExit):
        main([])
