"""`companion backup` on PostgreSQL (finding 5: the pg_dump command it printed failed, since it passed SQLAlchemy's
`postgresql+psycopg://...` where libpq wants `postgresql://...`).

With pg_dump installed the command makes the backup itself; without it, it prints a pg_dump line that works as
printed. Either way the password never shows. The SQLite backup is tested with the migrations (test_migrations).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import cli, create_app
from tests.helpers import postgres_url

pytestmark = pytest.mark.postgres
PG_DUMP = shutil.which("pg_dump")
PG_RESTORE = shutil.which("pg_restore")
needs_pg_tools = pytest.mark.skipif(PG_DUMP is None or PG_RESTORE is None, reason="pg_dump/pg_restore not installed")


@pytest.fixture
def postgres(tmp_path, monkeypatch) -> Iterator[str]:
    """A fresh PostgreSQL database with the app's tables and one play, named in DATABASE_URL as a club would write
    it (SQLAlchemy's psycopg URL, with a password: trust auth ignores it)."""
    urls = postgres_url()
    url = next(urls)
    app = create_app({"TESTING": True, "SECRET_KEY": "b", "DATABASE_URL": url})
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = "t"
    form = {"game": "spires", "name-0": "Ann", "name-1": "Bob", "csrf_token": "t"}
    assert client.post("/plays", data=form).status_code == 303
    app.extensions["db_engine"].dispose()
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", url.replace("postgresql://postgres@", "postgresql+psycopg://postgres:s3cret@"))
    yield url
    next(urls, None)


def restored_tables(dump: Path) -> str:
    """pg_restore's table of contents of a dump."""
    listing = subprocess.run([PG_RESTORE, "--list", str(dump)], capture_output=True, text=True, timeout=60, check=False)
    assert listing.returncode == 0, listing.stderr
    return listing.stdout


@needs_pg_tools
def test_backup_runs_pg_dump(postgres: str, tmp_path, capsys) -> None:
    target = tmp_path / "club.dump"
    assert cli.main(["backup", str(target)]) == 0
    said = capsys.readouterr()
    assert "Backed up the PostgreSQL database" in said.out and "pg_restore --clean" in said.out
    assert "s3cret" not in said.out + said.err and "+psycopg" not in said.out
    assert "TABLE public play " in restored_tables(target)
    assert not target.with_name("club.dump.part").exists()
    assert cli.main(["backup", str(target)]) == 2  # never overwrites
    assert "exists already" in capsys.readouterr().err


@needs_pg_tools
def test_without_pg_dump_the_printed_command_works_as_printed(postgres: str, tmp_path, monkeypatch, capsys) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    target = tmp_path / "printed.dump"
    assert cli.main(["backup", str(target)]) == 2
    said = capsys.readouterr().err
    assert "pg_dump is not installed here" in said and "PGPASSWORD" in said and "s3cret" not in said
    [line] = [line.strip() for line in said.splitlines() if line.strip().startswith("pg_dump ")]
    command = shlex.split(line)
    assert command[-1].startswith("postgresql://") and "+psycopg" not in line
    done = subprocess.run([PG_DUMP, *command[1:]], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "TABLE public play " in restored_tables(target)


def test_a_failed_pg_dump_says_why_and_leaves_no_file(postgres: str, tmp_path, monkeypatch, capsys) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "pg_dump"
    fake.write_text(
        "#!/bin/sh\necho 'pg_dump: error: server version: 99.0; pg_dump version: 15.0' >&2\n"
        'touch "${2#--file=}"\nexit 1\n'
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    target = tmp_path / "failed.dump"
    assert cli.main(["backup", str(target)]) == 2
    said = capsys.readouterr().err
    assert "pg_dump could not back the database up" in said and "server version: 99.0" in said
    assert "pg_dump --format=custom --file=" in said and "postgresql://postgres@" in said and "s3cret" not in said
    assert not target.exists() and not target.with_name("failed.dump.part").exists()
