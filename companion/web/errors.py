"""Error pages: every failure answers a clear page (or JSON under /api/), never a stack trace.

A fault of the database's surroundings (a full disk, a read-only database, a lost connection) is no bug: it answers
503 "Not saved: <reason>" and the app works again by itself once the fault is gone.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable, default_exceptions
from werkzeug.http import HTTP_STATUS_CODES

from companion.games.base import FieldError, InputErrors
from companion.language import N_, _
from companion.store.db import close_session
from companion.web.htmx import is_fragment_request

# The reasons, in English for the server's log; said to a person in their language (handle_fault).
DISK_FULL = N_("Not saved: the disk is full.")
READ_ONLY = N_("Not saved: the database is read-only.")
UNREACHABLE = N_("Not saved: the database can't be reached.")
BUSY = N_("Not saved: the database is busy.")

# SQLite's primary result codes (the low byte of an extended code such as SQLITE_IOERR_WRITE).
_SQLITE_CODES = {
    sqlite3.SQLITE_FULL: DISK_FULL,
    sqlite3.SQLITE_READONLY: READ_ONLY,
    sqlite3.SQLITE_CANTOPEN: UNREACHABLE,
    sqlite3.SQLITE_IOERR: UNREACHABLE,
    sqlite3.SQLITE_BUSY: BUSY,
    sqlite3.SQLITE_LOCKED: BUSY,
}
# The same faults said by an SQLite error without its code.
_SQLITE_MESSAGES = (
    ("database or disk is full", DISK_FULL),
    ("readonly database", READ_ONLY),
    ("unable to open database file", UNREACHABLE),
    ("disk i/o error", UNREACHABLE),
    ("database is locked", BUSY),
)
# PostgreSQL's SQLSTATEs; any of class 08 (connection exception) is UNREACHABLE too.
_SQLSTATES = {
    "53100": DISK_FULL,  # disk_full
    "25006": READ_ONLY,  # read_only_sql_transaction (also a hot standby)
    "57P01": UNREACHABLE,  # admin_shutdown (pg_terminate_backend, a restart)
    "57P02": UNREACHABLE,  # crash_shutdown
    "57P03": UNREACHABLE,  # cannot_connect_now (starting up)
    "57P04": UNREACHABLE,  # database_dropped
    "57P05": UNREACHABLE,  # idle_session_timeout
    "58030": UNREACHABLE,  # io_error
    "53300": BUSY,  # too_many_connections
    "55P03": BUSY,  # lock_not_available
}
# Faults whose connections may keep them (SQLite opened read-only stays read-only): see watch_engine.
_STICKY = (DISK_FULL, READ_ONLY, UNREACHABLE)


# Werkzeug's names and descriptions of the statuses the app answers, said in the reader's language (an error
# raised with a description of its own says that one; a status not here keeps Werkzeug's English).
_NAMES = {
    400: N_("Bad Request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    409: N_("Conflict"),
    413: N_("Request Entity Too Large"),
    415: N_("Unsupported Media Type"),
    422: N_("Unprocessable Entity"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}
_DESCRIPTIONS = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    401: N_(
        "The server could not verify that you are authorized to access the URL requested. You either supplied the "
        "wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials "
        "required."
    ),
    403: N_(
        "You don't have the permission to access the requested resource. It is either read-protected or not "
        "readable by the server."
    ),
    404: N_(
        "The requested URL was not found on the server. If you entered the URL manually please check your spelling "
        "and try again."
    ),
    405: N_("The method is not allowed for the requested URL."),
    409: N_(
        "A conflict happened while processing the request. The resource might have been modified while the request "
        "was being processed."
    ),
    413: N_("The data value transmitted exceeds the capacity limit."),
    415: N_("The server does not support the media type transmitted in the request."),
    422: N_("The request was well-formed but was unable to be followed due to semantic errors."),
    429: N_("This user has exceeded an allotted request count. Try again later."),
    500: N_(
        "The server encountered an internal error and was unable to complete your request. Either the server is "
        "overloaded or there is an error in the application."
    ),
    503: N_(
        "The server is temporarily unable to service your request due to maintenance downtime or capacity "
        "problems. Please try again later."
    ),
}


class NotSaved(ServiceUnavailable):
    """503: the database could not do its part, for a reason outside the app; nothing of this request was saved."""

    @property
    def name(self) -> str:
        """The status's name, as the page says it."""
        return _("Not saved")

    @property
    def hint(self) -> str:
        """What the fault means for the table."""
        return _("Everything saved before is kept: try again once this is fixed.")


def said(error: HTTPException) -> tuple[str, str, str]:
    """An error's name, description and hint (a database fault's, else "") in the reader's language."""
    status = error.code or 500
    name = error.name
    if name == HTTP_STATUS_CODES.get(status) and status in _NAMES:
        name = _(_NAMES[status])
    description = error.description or ""
    standard = default_exceptions.get(status)
    if standard is not None and description == standard.description and status in _DESCRIPTIONS:
        description = _(_DESCRIPTIONS[status])
    return name, description, str(getattr(error, "hint", "") or "")


def init_app(app: Flask) -> None:
    """Answer HTTP errors and unexpected exceptions in the requester's language: HTML or JSON."""
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_unexpected)
    engine = app.extensions.get("db_engine")
    if engine is not None:
        watch_engine(engine)


def json_errors(status: int, errors: Sequence[FieldError] | str) -> Response:
    """The JSON API's error answer with this status: {"errors": [{"field", "message"}]}, a text alone being the
    message for the request as a whole (field "")."""
    errors = [FieldError("", errors)] if isinstance(errors, str) else errors
    return make_response(jsonify(InputErrors(errors).to_dict()), status)


def handle_http_error(error: HTTPException) -> Response:
    """A friendly page, {"errors": [...]} for the API, or for htmx a message in the page's #flash."""
    status = error.code or 500
    name, description, hint = said(error)
    if request.path.startswith("/api/"):
        return json_errors(status, description)
    words = {"name": name, "description": description, "hint": hint}
    if is_fragment_request():
        response = make_response(render_template("_flash.html", error=error, **words), status)
        response.headers["HX-Retarget"] = "#flash"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", status=status, error=error, **words), status)


def handle_unexpected(error: Exception) -> Response:
    """A database fault says its reason (503); anything else is a bug: log it and answer 500 without internals."""
    reason = fault_reason(error)
    if reason is not None:
        return handle_fault(error, reason)
    current_app.logger.exception("Unexpected error", exc_info=error)
    return handle_http_error(InternalServerError())


def handle_fault(error: BaseException, reason: str) -> Response:
    """Log the fault in a line, end the request's failed transaction, and answer 503 with the reason."""
    driver_error = getattr(error, "orig", None) or error
    current_app.logger.warning("%s (%s: %s)", reason, type(driver_error).__name__, str(driver_error).strip())
    try:
        close_session()  # rolls the failed transaction back now: its connection goes back clean, or is discarded
    except Exception:  # a connection lost for good may refuse even that: the pool replaces it
        current_app.logger.warning("The failed transaction could not be rolled back", exc_info=True)
    return handle_http_error(NotSaved(_(reason)))


def fault_reason(error: BaseException) -> str | None:
    """'Not saved: <reason>' for a fault of the database's surroundings (disk, permissions, network, a long
    lock), None for anything else. Looks at the error, the driver's error it wraps and the errors it was raised from.
    """
    seen: set[int] = set()
    pending: list[Any] = [error]
    while pending:
        current = pending.pop(0)
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        reason = _own_reason(current)
        if reason is not None:
            return reason
        pending += [getattr(current, "orig", None), current.__cause__]
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return UNREACHABLE  # SQLAlchemy saw the connection drop, whatever the driver called it
    return None


def _own_reason(error: BaseException) -> str | None:
    """The reason this one error says by itself, without what it wraps."""
    if isinstance(error, sa_exc.TimeoutError):  # no pooled connection came free in time
        return BUSY
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is not None:
            return _SQLITE_CODES.get(code & 0xFF)
        message = str(error).lower()
        return next((reason for text, reason in _SQLITE_MESSAGES if text in message), None)
    psycopg = sys.modules.get("psycopg")  # not loaded: no psycopg error can exist
    if psycopg is not None and isinstance(error, psycopg.Error):
        state = error.sqlstate
        if state:
            return _SQLSTATES.get(state) or (UNREACHABLE if state.startswith("08") else None)
        # No SQLSTATE: the client's own failure (refused, timed out, the socket closed, a database not accepting).
        return UNREACHABLE if isinstance(error, psycopg.OperationalError) else None
    return None


def watch_engine(engine: Engine) -> None:
    """Let no pooled connection carry a fault past its end.

    A connection that met a fault is discarded, with the pool's older ones (SQLAlchemy's disconnect handling).
    And until a write commits again, each connection serves one request only: one opened during the fault may
    keep it for good (SQLite opened on a read-only file stays read-only; a PostgreSQL session started under
    default_transaction_read_only stays read-only), so none of them is kept for after the fault.
    """
    faulted = False

    @event.listens_for(engine, "handle_error")
    def _discard_on_fault(context: Any) -> None:
        """A fault's connection (and the pool's older ones) is replaced by a fresh one at the next checkout."""
        nonlocal faulted
        if fault_reason(context.original_exception) in _STICKY:
            faulted = True
            context.is_disconnect = True
            # SQLAlchemy leaves a disconnected connection's cursor to be closed with it, but sqlite3 only really
            # closes a connection once its statements are gone: an open cursor (kept alive by the traceback)
            # would keep the read-only file and its -shm open, and this process's next connections would share them.
            # (ExceptionContext.cursor is not always set: SQLAlchemy 2.1 leaves it out; the execution's has it.)
            cursor = getattr(context, "cursor", None) or getattr(context.execution_context, "cursor", None)
            if cursor is not None:
                with contextlib.suppress(Exception):  # a cursor on a lost connection may refuse: it goes with it
                    cursor.close()

    @event.listens_for(engine, "commit")
    def _healthy_on_commit(_connection: Any) -> None:
        """A commit is on its way: a fault in it (handle_error, which comes after) sets the flag again."""
        nonlocal faulted
        faulted = False

    @event.listens_for(engine, "checkin")
    def _close_while_faulted(dbapi_connection: Any, record: Any) -> None:
        """While faulted, a returned connection is closed instead of kept (the next checkout opens a fresh one)."""
        if faulted and dbapi_connection is not None:
            record.invalidate()
