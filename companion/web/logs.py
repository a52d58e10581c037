"""Logging, configured once by the `companion` command: plain lines (default) or JSON lines, on stderr.

Each request is one line (method, path, status, milliseconds) from the `companion.request` logger (a library's
chatter at INFO, WeasyPrint's steps of every PDF, is kept out of it unless the level is DEBUG); commands
(import, export, upgrade, backup) and jobs log on `companion.*` loggers. Query strings are never logged: a link may
carry something private, and the path alone says which page was asked.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from flask import Flask

FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
REQUEST_LOGGER = "companion.request"
# The fields a log call may add (extra=...), shown in a JSON line beside the message.
FIELDS = ("method", "path", "status", "ms", "command", "file", "format", "exit_code", "job")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HANDLER_NAME = "companion"
# Libraries that log what they do at INFO for every request: WeasyPrint's progress ("Step 4 - Creating formatting
# structure", a dozen lines a sheet) and fontTools' font subsetting under it. Their warnings and errors (a refused
# image, a broken font) still come through; all of it at DEBUG.
CHATTY_LIBRARIES = ("weasyprint", "fontTools")

log = logging.getLogger(REQUEST_LOGGER)


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message and the event's own fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({field: getattr(record, field) for field in FIELDS if hasattr(record, field)})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str = "INFO", fmt: str = "text", stream: TextIO | None = None) -> logging.Handler:
    """Send every log record at `level` or above to stderr as text or JSON lines; calling it again replaces it."""
    if fmt not in FORMATS:
        raise ValueError(f"The log format is one of {', '.join(FORMATS)}, not {fmt!r}.")
    if level.upper() not in LEVELS:
        raise ValueError(f"The log level is one of {', '.join(LEVELS)}, not {level!r}.")
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(HANDLER_NAME)
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    # The root logger's level: waitress's queue warnings and Alembic's upgrade steps come through as well.
    root.setLevel(level.upper())
    # NOTSET: the root's level (WARNING and ERROR are already as strict; DEBUG shows everything).
    chatty = logging.WARNING if level.upper() == "INFO" else logging.NOTSET
    for name in CHATTY_LIBRARIES:
        logging.getLogger(name).setLevel(chatty)
    return handler


def init_app(app: Flask) -> None:
    """Log one line per request, whatever answered it (a page, an error, a hook): wraps the WSGI app outermost."""
    app.wsgi_app = RequestLog(app.wsgi_app)  # type: ignore[method-assign]


class RequestLog:
    """WSGI middleware: after each response is sent (or fails), one line with method, path, status and time."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]]):
        """Wrap the app."""
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Run the app, remember the status it starts the response with, and log when the body is done."""
        started = time.perf_counter()
        status: list[str] = []

        def remember_status(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            """start_response, noting the status."""
            status[:] = [code]
            return start_response(code, headers, exc_info)

        try:
            body = self.wsgi_app(environ, remember_status)
        except BaseException:
            log_request(environ, "500", started)
            raise
        return LoggedBody(body, lambda: log_request(environ, status[0] if status else "500", started))


class LoggedBody:
    """The response body as the app gave it, logging once when the server closes it (all of it sent, or not)."""

    def __init__(self, body: Iterable[bytes], on_close: Callable[[], None]):
        """Wrap the body."""
        self.body = body
        self.on_close = on_close

    def __iter__(self) -> Iterator[bytes]:
        """The body's chunks, unchanged."""
        return iter(self.body)

    def close(self) -> None:
        """Close the body as WSGI asks, then log."""
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.on_close()


def log_request(environ: dict[str, Any], status: str, started: float) -> None:
    """The request's one line: method, path without its query string, status code, milliseconds."""
    ms = round((time.perf_counter() - started) * 1000, 1)
    method = environ.get("REQUEST_METHOD", "?")
    path = (environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")) or "/"
    code = int(status.split(" ", 1)[0]) if status[:3].isdigit() else 500
    log.info(
        "%s %s %s %.1f ms", method, path, code, ms, extra={"method": method, "path": path, "status": code, "ms": ms}
    )
