"""The `companion` command: serve the app with waitress, upgrade the database's schema, back the data up, export and
import it."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def lan_address() -> str | None:
    """This machine's address on the local network, for tablets on the same Wi-Fi (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
            return probe.getsockname()[0]
    except OSError:
        return None


def serve(host: str, port: int, threads: int) -> None:
    """Upgrade the database if it is older than the app, then serve the app with waitress and say where to open it."""
    from waitress import serve as waitress_serve

    app = _upgraded_app()
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    print(f"Companion is running: open http://{shown or host}:{port}/ (Ctrl+C stops it)", flush=True)
    # Waitress refuses a larger body before reading it; Flask's MAX_CONTENT_LENGTH says why (413) below that.
    waitress_serve(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="companion",
        max_request_body_size=max(app.config["MAX_CONTENT_LENGTH"], app.config["IMPORT_MAX_LENGTH"]) * 2,
    )


def _upgraded_app():  # noqa: ANN202  (a Flask app; imported late so that `companion --help` stays quick)
    """The app, its database first brought to the newest schema (saying so when anything was done)."""
    from . import create_app, migrate

    app = create_app()
    if app.extensions["db_outdated"]:
        print(migrate.upgrade(app.extensions["db_engine"]), flush=True)
        app.extensions["db_outdated"] = None
    return app


def db_upgrade() -> int:
    """Bring the database to the newest schema (a SQLite file is copied aside first)."""
    from . import create_app, migrate

    app = create_app()
    print(migrate.upgrade(app.extensions["db_engine"]))
    return 0


def backup(target: str) -> int:
    """Copy the SQLite database to a file while the app may run; on PostgreSQL, say how to back it up."""
    from . import create_app, migrate

    app = create_app()
    engine = app.extensions["db_engine"]
    if engine.dialect.name != "sqlite":
        print(
            "The data is in PostgreSQL: back it up with pg_dump, e.g.\n"
            f"  pg_dump --format=custom --file={target} '{engine.url.render_as_string(hide_password=True)}'\n"
            "and restore it with pg_restore --clean --dbname=... FILE.",
            file=sys.stderr,
        )
        return 2
    destination = Path(target)
    if destination.exists():
        print(f"{destination} exists already: give a new file name.", file=sys.stderr)
        return 2
    migrate.backup_sqlite(Path(engine.url.database), destination)
    print(f"Backed up {engine.url.database} to {destination}.")
    return 0


# What `companion export --format` writes: the restorable export, the spreadsheet rows, BG Stats' backup.
EXPORT_FORMATS = ("json", "csv", "bgstats")


def _data_app() -> Flask | None:
    """The app for export and import, or None (said on stderr) while its database needs `companion db upgrade`."""
    from . import create_app

    app = create_app()
    if app.extensions["db_outdated"]:
        print(app.extensions["db_outdated"], file=sys.stderr)
        return None
    return app


def export(target: str, kind: str = "json") -> int:
    """Write the group's data to a new file: the companion's export (default), the CSV, or a BG Stats backup."""
    import json

    from sqlmodel import Session

    from . import bgstats, transfer

    destination = Path(target)
    if destination.exists():
        print(f"{destination} exists already: give a new file name.", file=sys.stderr)
        return 2
    app = _data_app()
    if app is None:
        return 2
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        if kind == "csv":
            body = transfer.export_csv(session)
        elif kind == "bgstats":
            body = json.dumps(bgstats.export_backup(session), ensure_ascii=False).encode()
        else:
            body = transfer.export_json(session)
    # Written aside and renamed: a full disk or Ctrl+C never leaves half an export under the asked name.
    partial = destination.with_name(destination.name + ".part")
    partial.write_bytes(body)
    partial.replace(destination)
    print(f"Exported to {destination} ({len(body) // 1024 or 1} KiB).")
    return 0


def import_(source: str) -> int:
    """Import a Companion or BG Stats export: what it adds is said; a refused file changes nothing (exit code 2)."""
    from sqlmodel import Session

    from . import transfer

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
            summary = transfer.import_file(session, raw)
        except transfer.Refused as refused:
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
    parser = argparse.ArgumentParser(prog="companion", description="The board-game table companion.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the app with waitress")
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole Wi-Fi)")
    serve_parser.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    serve_parser.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    db_parser = commands.add_parser("db", help="the database's schema")
    db_commands = db_parser.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="bring the database to the newest schema (SQLite is copied aside first)")
    backup_parser = commands.add_parser("backup", help="copy the SQLite database to FILE while the app runs")
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
