"""The `companion` command: serve the app with waitress."""

from __future__ import annotations

import argparse
import socket
from collections.abc import Sequence


def lan_address() -> str | None:
    """This machine's address on the local network, for tablets on the same Wi-Fi (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
            return probe.getsockname()[0]
    except OSError:
        return None


def serve(host: str, port: int, threads: int) -> None:
    """Serve the app with waitress and say where to open it."""
    from waitress import serve as waitress_serve

    from . import create_app

    app = create_app()
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    print(f"Companion is running: open http://{shown or host}:{port}/ (Ctrl+C stops it)", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="companion")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the asked command."""
    parser = argparse.ArgumentParser(prog="companion", description="The board-game table companion.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the app with waitress")
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole Wi-Fi)")
    serve_parser.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    serve_parser.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, args.threads)
    return 0
