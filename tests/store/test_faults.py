"""Faults said plainly: a full disk, a read-only database or a lost connection answers 503 "Not saved: <reason>"
(in #flash for htmx, the error page otherwise, the API's error shape under /api/), never a 500; what was saved stays
saved, and the app works again by itself once the fault is gone.

The SQLite faults are real ones, made with mounts (the tests run as root, so file modes would not stop a write):
- read-only: the app opens its database through a bind mount of the folder that holds it, and the test remounts
  that bind read-only. Linux refuses that while files on it are open for writing, so the test first closes the
  app's idle pooled connections (as a restarted worker would have none); the app itself is given no help to
  recover. Another program (a subprocess) holding the database open through the writable folder keeps the -wal and
  -shm files (SQLite can read a WAL database on a read-only mount only when they exist); without one, the database
  can't even be opened, which is the "can't be reached" test.
- disk full: the database on a small tmpfs, filled up by a filler file.
Both skip when mount is not permitted (not root, or a container without CAP_SYS_ADMIN).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from markupsafe import escape

from companion import create_app
from companion.web.errors import BUSY, DISK_FULL, READ_ONLY, UNREACHABLE, fault_reason
from tests.helpers import PG_ADMIN, Client, csrf_client, postgres_url, start_play


def make_app(url: str) -> tuple[Flask, Client]:
    """An app on this database, and a client holding the CSRF token."""
    app = create_app({"TESTING": True, "SECRET_KEY": "faults", "DATABASE_URL": url})
    client = csrf_client(app)
    return app, client  # type: ignore[return-value]


def seat_ids(client: Client, play: int) -> list[str]:
    """The seat ids of a play, in turn order."""
    return re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))


def shown(client: Client, play: int, seat: str, counter: str) -> int:
    """A counter's value as the tracker page shows it (counter like 'towers-red')."""
    response = client.get(f"/plays/{play}")
    assert response.status_code == 200, response.get_data(as_text=True)
    html = response.get_data(as_text=True)
    return int(re.search(rf'<output id="c-{seat}-{counter}-value" class="value[^"]*"[^>]*>(\d+)<', html).group(1))


def tap(client: Client, play: int, seat: str, **form: str):
    """A tap as htmx sends it."""
    return client.htmx("POST", f"/plays/{play}/seats/{seat}", data=form)


def assert_not_saved(client: Client, play: int, seat: str, reason: str) -> None:
    """A tap (htmx and full page) and an API action all answer 503 with the reason, each in its own shape."""
    said = str(escape(reason))  # as the page says it: can&#39;t
    fragment = tap(client, play, seat, field="towers.red", delta="1")
    body = fragment.get_data(as_text=True)
    assert fragment.status_code == 503, body
    assert fragment.headers["HX-Retarget"] == "#flash"
    assert said in body and "<html" not in body
    page = client.post(f"/plays/{play}/seats/{seat}", data={"field": "towers.red", "delta": "1"})
    assert page.status_code == 503
    assert said in page.get_data(as_text=True) and "<html" in page.get_data(as_text=True)
    api = client.post(
        f"/api/v1/plays/{play}/actions",
        json={"action": "add", "player": "Ann", "field": "towers.red", "delta": 1},
        csrf=False,
    )
    assert api.status_code == 503
    assert api.get_json() == {"errors": [{"field": "", "message": reason}]}


def run(*command: str) -> None:
    """Run a command; fail the test with its message if it fails."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(command)}: {done.stderr.strip()}"


def mount_or_skip(*args: str) -> None:
    """mount, or skip the test when this machine does not let us."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a test filesystem needs root and mount(8)")
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mount is not permitted here: {done.stderr.strip()}")


def unmount(target: Path) -> None:
    """Unmount, lazily if something still holds a file open there."""
    if subprocess.run(["umount", str(target)], capture_output=True, check=False).returncode != 0:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


@pytest.fixture
def no_bug_logged(caplog) -> Iterator[None]:
    """A fault is logged as a warning, never as an unexpected error (a bug's 500)."""
    caplog.set_level(logging.WARNING)
    yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


# -- SQLite on a read-only mount ---------------------------------------------------------------------------------


# A program that opens the database, reads it, says so, and keeps it open until its stdin closes.
READER = (
    "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('SELECT count(*) FROM play').fetchall();"
    " print('reading', flush=True); sys.stdin.read()"
)


@pytest.fixture
def bind_mount(tmp_path) -> Iterator[tuple[Path, Path, list[Flask]]]:
    """(the real folder, a bind mount of it the app uses, the apps to close before unmounting)."""
    real, view = tmp_path / "real", tmp_path / "view"
    real.mkdir()
    view.mkdir()
    mount_or_skip("--bind", str(real), str(view))
    apps: list[Flask] = []
    yield real, view, apps
    for app in apps:
        app.extensions["db_engine"].dispose()
    unmount(view)


def test_a_read_only_sqlite_database_says_so_and_recovers(bind_mount, no_bug_logged) -> None:
    real, view, apps = bind_mount
    app, client = make_app(f"sqlite:///{view / 'db.sqlite'}")
    apps.append(app)
    play = start_play(client, ["Ann", "Bob"])
    ann, _bob = seat_ids(client, play)
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    # Another program reading the database through the writable folder keeps its -wal and -shm files. (Not this
    # process: SQLite shares one -shm handle among a process's connections to a file, the app's among them.)
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(real / "db.sqlite")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout.readline() == "reading\n"
        app.extensions["db_engine"].dispose()  # Linux won't remount read-only under files open for writing
        run("mount", "-o", "remount,ro,bind", str(view))

        assert_not_saved(client, play, ann, READ_ONLY)
        assert shown(client, play, ann, "towers-red") == 1  # what was saved is still there, and readable

        run("mount", "-o", "remount,rw,bind", str(view))
        # The connection the page above opened is read-only for good: the app must not keep it for this tap.
        assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
        assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
        assert shown(client, play, ann, "towers-red") == 3
    finally:
        reader.communicate(timeout=10)  # closing its stdin ends it


def test_a_database_that_cannot_be_opened_says_so_and_recovers(bind_mount, no_bug_logged) -> None:
    """A WAL database on a read-only mount, with nobody holding its -shm: SQLite can't open it at all."""
    _real, view, apps = bind_mount
    app, client = make_app(f"sqlite:///{view / 'db.sqlite'}")
    apps.append(app)
    play = start_play(client, ["Ann", "Bob"])
    ann, _bob = seat_ids(client, play)
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    app.extensions["db_engine"].dispose()
    run("mount", "-o", "remount,ro,bind", str(view))

    assert_not_saved(client, play, ann, UNREACHABLE)
    page = client.get(f"/plays/{play}")
    assert page.status_code == 503 and str(escape(UNREACHABLE)) in page.get_data(as_text=True)

    run("mount", "-o", "remount,rw,bind", str(view))
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    assert shown(client, play, ann, "towers-red") == 2


# -- SQLite on a full disk ---------------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path) -> Iterator[tuple[Path, list[Flask]]]:
    """A 2 MB tmpfs for the database, and the apps to close before unmounting it."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mount_or_skip("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk))
    apps: list[Flask] = []
    yield disk, apps
    for app in apps:
        app.extensions["db_engine"].dispose()
    unmount(disk)


def fill(path: Path, leave: int) -> None:
    """Write a filler file until the disk is full, then give back `leave` bytes (a few taps' worth)."""
    with path.open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError:
            pass
        filler.truncate(max(filler.tell() - leave, 0))
    assert shutil.disk_usage(path.parent).free <= leave + 4096


def test_a_full_disk_says_so_keeps_every_saved_tap_and_recovers(small_disk, no_bug_logged) -> None:
    disk, apps = small_disk
    app, client = make_app(f"sqlite:///{disk / 'db.sqlite'}")
    apps.append(app)
    play = start_play(client, ["Ann", "Bob"])
    ann, _bob = seat_ids(client, play)
    for value in range(1, 6):
        assert tap(client, play, ann, field="scroll_vp", value=str(value)).status_code == 200
    fill(disk / "filler", leave=48 * 1024)

    saved, failed = 5, None
    for value in range(6, 100):
        response = tap(client, play, ann, field="scroll_vp", value=str(value))
        if response.status_code != 200:
            failed = response
            break
        saved = value
    assert failed is not None, "the disk never filled up"
    assert saved > 5  # taps went on saving in the room left, up to the one that found none
    assert failed.status_code == 503
    assert failed.headers["HX-Retarget"] == "#flash"
    assert DISK_FULL in failed.get_data(as_text=True)
    assert_not_saved(client, play, ann, DISK_FULL)

    # The database is whole, with every tap answered 200 and nothing of the refused ones.
    check = sqlite3.connect(disk / "db.sqlite")
    try:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        values = [row[0] for row in check.execute("SELECT json_extract(new, '$.action.value') FROM change ORDER BY id")]
    finally:
        check.close()
    assert values == list(range(1, saved + 1))
    assert shown(client, play, ann, "scroll_vp") == saved

    (disk / "filler").unlink()
    assert tap(client, play, ann, field="scroll_vp", value=str(saved + 1)).status_code == 200
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    assert shown(client, play, ann, "scroll_vp") == saved + 1


# -- PostgreSQL --------------------------------------------------------------------------------------------------


@pytest.fixture
def pg_app() -> Iterator[tuple[Flask, Client, str, object]]:
    """(app, client, database name, an admin connection) on a throwaway PostgreSQL database."""
    psycopg = pytest.importorskip("psycopg")
    urls = postgres_url()
    url = next(urls)
    app, client = make_app(url)
    admin = psycopg.connect(PG_ADMIN, autocommit=True)
    try:
        yield app, client, url.rsplit("/", 1)[1], admin
    finally:
        admin.close()
        app.extensions["db_engine"].dispose()
        next(urls, None)


def terminate_backends(admin, name: str) -> int:
    """Cut every connection to the database, as a server restart or a dropped network would; how many."""
    rows = admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
        (name,),
    ).fetchall()
    return len(rows)


@pytest.mark.postgres
def test_a_lost_postgresql_connection_is_never_a_500(pg_app, no_bug_logged) -> None:
    _app, client, name, admin = pg_app
    play = start_play(client, ["Ann", "Bob"])
    ann, _bob = seat_ids(client, play)
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200

    assert terminate_backends(admin, name) >= 1
    response = tap(client, play, ann, field="towers.red", delta="1")
    assert response.status_code in (200, 503)  # pool_pre_ping finds the dead connection and opens another
    if response.status_code == 503:
        assert str(escape(UNREACHABLE)) in response.get_data(as_text=True)
    taps = 1 + (response.status_code == 200)
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    taps += 1

    # The server refuses new connections for a while: nothing gets through, each request says why.
    admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    try:
        terminate_backends(admin, name)
        assert_not_saved(client, play, ann, UNREACHABLE)
        page = client.get(f"/plays/{play}")
        assert page.status_code == 503 and str(escape(UNREACHABLE)) in page.get_data(as_text=True)
    finally:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    assert shown(client, play, ann, "towers-red") == taps + 1


@pytest.mark.postgres
def test_a_read_only_postgresql_database_says_so_and_recovers(pg_app, no_bug_logged) -> None:
    _app, client, name, admin = pg_app
    play = start_play(client, ["Ann", "Bob"])
    ann, _bob = seat_ids(client, play)
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200

    # New sessions start read-only (as on a hot standby after a failover); the app's pool reconnects into them.
    admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    terminate_backends(admin, name)
    assert_not_saved(client, play, ann, READ_ONLY)
    assert shown(client, play, ann, "towers-red") == 1

    # Writable again for new sessions only: the app must not keep the read-only session the page above used.
    admin.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    assert tap(client, play, ann, field="towers.red", delta="1").status_code == 200
    assert shown(client, play, ann, "towers-red") == 3


# -- What counts as a fault --------------------------------------------------------------------------------------


def sqlite_error(message: str, code: int | None) -> sqlite3.OperationalError:
    """An sqlite3 error as the driver raises it (with its result code) or without one."""
    error = sqlite3.OperationalError(message)
    if code is not None:
        error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (sqlite_error("database or disk is full", sqlite3.SQLITE_FULL), DISK_FULL),
        (sqlite_error("database or disk is full", None), DISK_FULL),
        (sqlite_error("attempt to write a readonly database", sqlite3.SQLITE_READONLY), READ_ONLY),
        (sqlite_error("attempt to write a readonly database", 1032), READ_ONLY),  # SQLITE_READONLY_DBMOVED
        (sqlite_error("unable to open database file", sqlite3.SQLITE_CANTOPEN), UNREACHABLE),
        (sqlite_error("disk I/O error", 778), UNREACHABLE),  # SQLITE_IOERR_WRITE
        (sqlite_error("database is locked", sqlite3.SQLITE_BUSY), BUSY),
        (sqlite_error("no such table: play", sqlite3.SQLITE_ERROR), None),
        (sqlite3.DatabaseError("file is not a database"), None),
        (ValueError("database or disk is full"), None),
    ],
)
def test_sqlite_faults_and_their_reasons(error: Exception, reason: str | None) -> None:
    from sqlalchemy.exc import DatabaseError, OperationalError

    wrapper = OperationalError if isinstance(error, sqlite3.OperationalError) else DatabaseError
    assert fault_reason(error) == reason
    assert fault_reason(wrapper("INSERT ...", {}, error)) == reason


def test_postgresql_faults_and_their_reasons() -> None:
    psycopg = pytest.importorskip("psycopg")
    from psycopg import errors
    from sqlalchemy.exc import InternalError, OperationalError, ProgrammingError

    assert fault_reason(OperationalError("INSERT", {}, errors.DiskFull("no space"))) == DISK_FULL
    assert fault_reason(InternalError("UPDATE", {}, errors.ReadOnlySqlTransaction("read-only"))) == READ_ONLY
    assert fault_reason(OperationalError("SELECT", {}, errors.AdminShutdown("terminating"))) == UNREACHABLE
    assert fault_reason(OperationalError("SELECT", {}, errors.ConnectionFailure("lost"))) == UNREACHABLE
    assert fault_reason(psycopg.OperationalError("connection failed: Connection refused")) == UNREACHABLE
    assert fault_reason(ProgrammingError("SELECT", {}, errors.UndefinedTable("no table"))) is None
    lost = OperationalError("SELECT", {}, psycopg.DatabaseError("whatever"), connection_invalidated=True)
    assert fault_reason(lost) == UNREACHABLE


def test_other_database_errors_stay_a_logged_500(client, play_id: int, monkeypatch, caplog) -> None:
    from sqlalchemy.exc import OperationalError

    from companion.store import records

    def broken(*_args, **_kwargs):
        raise OperationalError("SELECT", {}, sqlite_error("no such column: play.nope", sqlite3.SQLITE_ERROR))

    ann, _bob = seat_ids(client, play_id)
    monkeypatch.setattr(records, "act", broken)
    response = tap(client, play_id, ann, field="towers.red", delta="1")
    assert response.status_code == 500
    assert "Not saved" not in response.get_data(as_text=True)
    assert "Unexpected error" in caplog.text
