"""The `companion` command: serve the app with waitress, upgrade the database's schema, back the data up, export and
import it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy.engine import URL as EngineURL


# The server's connection settings (instance/config.py may change them): room for some twenty devices that each
# hold a browser's six connections and more, idle ones closed after half a minute, headers due within ten seconds.
SERVER_DEFAULTS = {
    "SERVER_CONNECTION_LIMIT": 500,
    "SERVER_CONNECTIONS_PER_DEVICE": 24,
    "SERVER_IDLE_TIMEOUT": 30,
    "SERVER_HEADER_TIMEOUT": 10,
}


def serve(host: str, port: int, threads: int) -> None:
    """Upgrade the database if it is older than the app, then serve the app with waitress and say where to open it."""
    serve_app(_upgraded_app(), host, port, threads)


def serve_app(app: Flask, host: str, port: int, threads: int) -> None:
    """Serve an app of create_app's with waitress at the server settings (its config may change them), each device's
    share of connections guarded, and say where to open it (bench/server_rate.py serves its floor case so too)."""
    import logging

    from waitress.server import create_server

    from companion.play.join import EVERY_INTERFACE, OPEN_COMMAND, SERVE_HOST, is_loopback, lan_address
    from companion.web.security import guard_connections, is_trusted_proxy

    # Where it listens decides whether a phone can follow the Join panel's QR code (companion/play/join.py).
    app.config[SERVE_HOST] = host
    settings = {name: int(app.config.get(name, default)) for name, default in SERVER_DEFAULTS.items()}
    proxies = app.config["TRUSTED_PROXIES"]

    def is_proxy(address: str) -> bool:
        """A proxy's connections carry every device behind it: its share is the whole server (it limits them)."""
        return is_trusted_proxy(address, proxies) if isinstance(proxies, tuple) else proxies is not None

    # Waitress refuses a larger body before reading it; Flask's MAX_CONTENT_LENGTH says why (413) below that.
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="companion",
        max_request_body_size=max(app.config["MAX_CONTENT_LENGTH"], app.config["IMPORT_MAX_LENGTH"]) * 2,
        connection_limit=settings["SERVER_CONNECTION_LIMIT"],
        channel_timeout=settings["SERVER_IDLE_TIMEOUT"],
        cleanup_interval=1,
        # poll() has no limit on descriptor numbers, where select() stops at 1024 open files.
        asyncore_use_poll=True,
        # Waitress deletes every X-Forwarded-* header unless told otherwise, so TRUSTED_PROXIES (security.py,
        # which believes them from the named proxies alone) would never see the device behind nginx. Without a
        # trusted proxy they stay deleted.
        clear_untrusted_proxy_headers=proxies is None,
    )
    guard_connections(server, settings["SERVER_CONNECTIONS_PER_DEVICE"], settings["SERVER_HEADER_TIMEOUT"], is_proxy)
    logging.basicConfig()  # waitress's warnings (a full queue, a dropped connection) reach the console
    server.print_listen("Serving on http://{}:{}")
    shown = lan_address() if host in EVERY_INTERFACE else host
    print(f"Companion is running: open http://{shown or host}:{port}/ (Ctrl+C stops it)", flush=True)
    if is_loopback(host):
        print(
            f"Only this machine can open it: start it with {OPEN_COMMAND} to let phones on the same Wi-Fi join "
            "(with COMPANION_ACCESS_CODE set on a Wi-Fi others share).",
            flush=True,
        )
    try:
        server.run()
    finally:
        server.close()


def _upgraded_app() -> Flask:  # imported late, so that `companion --help` stays quick
    """The app, its database first brought to the newest schema (saying so when anything was done)."""
    from companion import create_app
    from companion.store import migrate

    app = create_app()
    if app.extensions["db_outdated"]:
        try:
            print(migrate.upgrade(app.extensions["db_engine"]), flush=True)
        except migrate.UpgradeFailed as failed:
            # The sentence says what happened and which copy holds the database as it was: no traceback.
            raise SystemExit(str(failed)) from None
        app.extensions["db_outdated"] = None
    return app


def db_upgrade() -> int:
    """Bring the database to the newest schema (a SQLite file is copied aside first); 1 when it failed, changing
    nothing (said on stderr with the copy's file)."""
    from companion import create_app
    from companion.store import migrate

    app = create_app()
    try:
        print(migrate.upgrade(app.extensions["db_engine"]))
    except migrate.UpgradeFailed as failed:
        print(failed, file=sys.stderr)
        return 1
    finally:
        app.extensions["db_engine"].dispose()
    return 0


def backup(target: str) -> int:
    """Copy the SQLite database to a file while the app may run; on PostgreSQL, run pg_dump (or say how to)."""
    from companion import create_app
    from companion.store import migrate

    destination = Path(target)
    if destination.exists():
        print(f"{destination} exists already: give a new file name.", file=sys.stderr)
        return 2
    app = create_app()
    engine = app.extensions["db_engine"]
    if engine.dialect.name != "sqlite":
        return _pg_dump(engine.url, destination)
    migrate.backup_sqlite(Path(engine.url.database), destination)
    print(f"Backed up {engine.url.database} to {destination}.")
    return 0


def _pg_dump(url: EngineURL, destination: Path) -> int:
    """Back a PostgreSQL database up with pg_dump's custom format when pg_dump is installed, else print the command.

    pg_dump wants libpq's URL (postgresql://...), not SQLAlchemy's with its driver (postgresql+psycopg://...); the
    password goes in PGPASSWORD, never on the command line.
    """
    import os
    import shlex
    import shutil
    import subprocess

    from sqlalchemy.engine import URL

    # URL.set() keeps a password given as None: a new URL leaves it out.
    libpq_url = URL.create(
        "postgresql", username=url.username, host=url.host, port=url.port, database=url.database, query=url.query
    ).render_as_string(hide_password=False)
    command = ["pg_dump", "--format=custom", f"--file={destination}", libpq_url]
    password_hint = " (with the password in PGPASSWORD or ~/.pgpass)" if url.password else ""
    program = shutil.which("pg_dump")
    if program is None:
        print(
            f"The data is in PostgreSQL and pg_dump is not installed here: back it up with\n  {shlex.join(command)}\n"
            f"on a machine that has it{password_hint}, and restore it with pg_restore --clean --dbname=... FILE.",
            file=sys.stderr,
        )
        return 2
    environment = {**os.environ, **({"PGPASSWORD": str(url.password)} if url.password else {})}
    # Written aside and renamed: a failed dump never leaves half a backup under the asked name.
    partial = destination.with_name(destination.name + ".part")
    done = subprocess.run(
        [program, "--format=custom", f"--file={partial}", libpq_url],
        check=False,
        env=environment,
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        print(
            f"pg_dump could not back the database up:\n{done.stderr.strip()}\nThe command was\n  {shlex.join(command)}",
            file=sys.stderr,
        )
        return 2
    partial.replace(destination)
    print(f"Backed up the PostgreSQL database {url.database} to {destination} with pg_dump.")
    print(f"Restore it with: pg_restore --clean --dbname={shlex.quote(libpq_url)} {shlex.quote(str(destination))}")
    return 0


# What `companion export --format` writes: the restorable export, the spreadsheet rows, BG Stats' backup.
EXPORT_FORMATS = ("json", "csv", "bgstats")


def _data_app() -> Flask | None:
    """The app for export and import, or None (said on stderr) while its database needs `companion db upgrade`."""
    from companion import create_app

    app = create_app()
    if app.extensions["db_outdated"]:
        print(app.extensions["db_outdated"], file=sys.stderr)
        return None
    return app


def export(target: str, kind: str = "json") -> int:
    """Write the group's data to a new file: the companion's export (default), the CSV, or a BG Stats backup."""
    from sqlmodel import Session

    from companion.config import bgstats_zone
    from companion.data import bgstats, transfer

    destination = Path(target)
    if destination.exists():
        print(f"{destination} exists already: give a new file name.", file=sys.stderr)
        return 2
    app = _data_app()
    if app is None:
        return 2
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        if kind == "bgstats":
            body = bgstats.export_json(session, bgstats_zone(app.config), bgstats.owner_setting(app.config))
        else:
            body = {"csv": transfer.export_csv}.get(kind, transfer.export_json)(session)
    # Written aside and renamed: a full disk or Ctrl+C never leaves half an export under the asked name.
    partial = destination.with_name(destination.name + ".part")
    partial.write_bytes(body)
    partial.replace(destination)
    print(f"Exported to {destination} ({len(body) // 1024 or 1} KiB).")
    return 0


def import_(source: str) -> int:
    """Import a Companion or BG Stats export: what it adds is said; a refused file changes nothing (exit code 2)."""
    from sqlmodel import Session

    from companion.config import bgstats_zone
    from companion.data import files
    from companion.data.importing import ImportRefused, Limits

    path = Path(source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        print(f"Can't read {path}: {exc.strerror or exc}.", file=sys.stderr)
        return 2
    app = _data_app()
    if app is None:
        return 2
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        try:
            summary = files.import_file(session, raw, Limits.from_config(app.config), bgstats_zone(app.config))
        except ImportRefused as refused:
            print(f"{path}: {refused.message} Nothing was changed.", file=sys.stderr)
            for detail in refused.details:
                print(f"  {detail}", file=sys.stderr)
            return 2
    print(f"Imported {path} ({summary.source}).")
    for sentence in summary.sentences():
        print(sentence)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the asked command."""
    from companion import config
    from companion.version import __version__
    from companion.web import logs

    parser = argparse.ArgumentParser(prog="companion", description="The board-game table companion.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=logs.LEVELS,
        default=config.environment_setting("LOG_LEVEL") or "INFO",
        help="the least a log line says (default INFO, or COMPANION_LOG_LEVEL)",
    )
    parser.add_argument(
        "--log-format",
        choices=logs.FORMATS,
        default=config.environment_setting("LOG_FORMAT") or "text",
        help="text: plain lines (default, or COMPANION_LOG_FORMAT); json: one JSON object a line",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the app with waitress")
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole Wi-Fi)")
    serve_parser.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    serve_parser.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    db_parser = commands.add_parser("db", help="the database's schema")
    db_commands = db_parser.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="bring the database to the newest schema (SQLite is copied aside first)")
    backup_parser = commands.add_parser(
        "backup", help="back the database up to FILE while the app runs (SQLite's online backup, or pg_dump)"
    )
    backup_parser.add_argument("file", help="the new file to write the copy to")
    export_parser = commands.add_parser("export", help="write the roster and every play to FILE (to keep or move)")
    export_parser.add_argument("file", help="the new file to write")
    export_parser.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="json",
        help="json: everything, to import again (default); csv: finished plays, for a spreadsheet; bgstats: BG Stats",
    )
    import_parser = commands.add_parser("import", help="add what a Companion or BG Stats export holds and this lacks")
    import_parser.add_argument("file", help="the export to import")
    args = parser.parse_args(argv)
    try:
        logs.configure(args.log_level, args.log_format)
    except ValueError as refused:  # COMPANION_LOG_LEVEL or COMPANION_LOG_FORMAT spelled wrong
        print(f"Companion can't start: {refused}", file=sys.stderr)
        return 2
    try:
        return _logged_run(args)
    except config.SettingError as refused:
        print(f"Companion can't start: {refused}", file=sys.stderr)
        return 2


def _logged_run(args: argparse.Namespace) -> int:
    """Run the command, and log a line when one that changes or copies data (all but serve) ends."""
    import logging
    import time

    started = time.perf_counter()
    code = _run(args)
    if args.command != "serve":
        name = "db upgrade" if args.command == "db" else args.command
        target = getattr(args, "file", None)
        logging.getLogger("companion.command").info(
            "%s%s: exit code %d, %.0f ms",
            name,
            f" {target}" if target else "",
            code,
            (time.perf_counter() - started) * 1000,
            extra={"command": name, "file": target, "format": getattr(args, "format", None), "exit_code": code},
        )
    return code


def _run(args: argparse.Namespace) -> int:
    """Run the command the parsed arguments ask for; its exit code."""
    if args.command == "serve":
        serve(args.host, args.port, args.threads)
    elif args.command == "db":
        return db_upgrade()
    elif args.command == "backup":
        return backup(args.file)
    elif args.command == "export":
        return export(args.file, args.format)
    elif args.command == "import":
        return import_(args.file)
    return 0
