"""The tracker's sync check answered before Flask's request machinery where it can be (issue 21).

Every device at a table asks every 400 ms whether the play changed (companion/play/views.py `live`); nearly every
answer is "nothing new", and most of the others are an answer already drawn for another device of the table at
the same version (companion/play/shared_answers.py). This WSGI middleware gives those two alone, with one small
query, and hands every other request to the app unchanged. It answers only where the app would answer the same:
a GET of /plays/<id>/live from htmx (not boosted, not a history restore), on a database at the app's schema, with
a Host header the app accepts and, when an access code is set, a session cookie holding its mark; the play in
progress. A copy needs the session's CSRF token (for the Undo form it redraws): a device without a session yet is
the app's. A copy is of an answer drawn in the language the app would answer this request in (read here as
companion/web/i18n.py select_locale reads it). Anything else, a database that fails included, goes through the app.

"Nothing new" is an empty 200 with Content-Length 0 rather than a 204: waitress closes the connection after every
answer it sends without a Content-Length, a 204 included, so each device would connect again four times a second.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wsgi import get_host

from companion.play.shared_answers import shared_answers
from companion.store import play_version
from companion.store.models import IN_PROGRESS
from companion.web import i18n, security

PREFIX = "/plays/"
SUFFIX = "/live"
LARGEST_ID = 2147483647  # the route's converter: int(max=2147483647)
SINCE = "since"
# The log fields a tracker sends (templates/play/_play_log.html): the newest entry it shows with its panel opened,
# or, never opened, the newest it knows of.
LOG_AFTER = "log_after"
LOG_WAITING = "log_waiting"
# Where a check handed to the app leaves the version and status it read, so the view does not ask them again.
READ_VERSION = "companion.play_version"
NOTHING_NEW_HEADERS = [
    ("Content-Type", "text/html; charset=utf-8"),
    ("Content-Length", "0"),
    ("Vary", "Cookie"),
    *security.SECURITY_HEADERS,
]
# A copy's words are in the language of the device's cookie, else the club's, else the browser's.
COPY_VARY = ("Vary", "Accept-Language, Cookie")


def init_app(app: Flask) -> None:
    """Answer the sync check's "nothing new" in front of the app (call after security.init_app's proxy wrapper)."""
    app.wsgi_app = NothingNew(app, app.wsgi_app)  # type: ignore[method-assign]


def known_version(text: str | None) -> int | None:
    """The play version a device says it shows (the tracker's `since` field), if it is a number."""
    try:
        return int(text or "")
    except ValueError:
        return None


def log_position(values: Mapping[str, str]) -> tuple[int | None, bool]:
    """The newest log entry (a Change id) the device shows, if it said, and whether its panel shows the entries
    (opened once) or only waits."""
    for name, loaded in ((LOG_AFTER, True), (LOG_WAITING, False)):
        try:
            return int(values.get(name) or ""), loaded
        except ValueError:
            continue
    return None, True


def request_language(app: Flask, environ: Mapping[str, Any], cookies: Mapping[str, str]) -> str:
    """The language the app answers this request in, as companion/web/i18n.py select_locale picks it: this
    device's switch (its cookie), else the club's LANGUAGE, else the browser's Accept-Language, else English."""
    accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
    return (
        i18n.chosen(cookies.get(i18n.COOKIE))
        or i18n.chosen(app.config.get("LANGUAGE"))
        or accepted.best_match(list(i18n.LANGUAGES))
        or i18n.SOURCE
    )


class NothingNew:
    """WSGI middleware: the sync check's "nothing new" without routing, sessions, hooks or templates."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]):
        """Wrap the app's WSGI callable; the app's settings and engine are read on each request."""
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Answer "nothing new", or what changed as already drawn for another device, when it is safe; else run the
        app."""
        play_id = self.play_asked(environ)
        if play_id is not None and self.may_answer(environ):
            answer = self.answer(environ, play_id)
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body]
        return self.wsgi_app(environ, start_response)

    @staticmethod
    def play_asked(environ: dict[str, Any]) -> int | None:
        """The play id of an htmx sync check (GET /plays/<id>/live), or None for any other request."""
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not (path.startswith(PREFIX) and path.endswith(SUFFIX)):
            return None
        if environ.get("HTTP_HX_REQUEST") != "true":
            return None
        if "true" in (environ.get("HTTP_HX_BOOSTED"), environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST")):
            return None
        digits = path[len(PREFIX) : -len(SUFFIX)]
        # As the route's int converter reads it: plain digits without a leading zero (Flask's 404 answers the rest).
        if not digits.isascii() or not digits.isdigit() or digits.startswith("0") or int(digits) > LARGEST_ID:
            return None
        return int(digits)

    def may_answer(self, environ: dict[str, Any]) -> bool:
        """Whether the app would let this request through: schema current, Host accepted, access code given."""
        app = self.app
        if app.extensions.get("db_outdated"):
            return False
        try:
            host = get_host(environ, app.config.get("TRUSTED_HOSTS"))
        except SecurityError:
            return False
        if not security.is_wellformed_host(host):
            return False
        return security.cookie_has_access(app, parse_cookie(environ.get("HTTP_COOKIE", "")))

    def answer(self, environ: dict[str, Any], play_id: int) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """Status, headers and body: "nothing new" when the play is as the device shows it, or the copy of an
        answer drawn for the same version and log position with this session's CSRF token; None leaves the
        request to the app (another version, a play not in progress, a database that fails, no session yet)."""
        query = dict(reversed(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)))
        since = known_version(query.get(SINCE))
        try:
            saved = play_version.ask_play_version(self.app.extensions["db_engine"], play_id)
        except SQLAlchemyError:
            return None
        environ[READ_VERSION] = (play_id, saved)
        if saved is None or saved[1] != IN_PROGRESS:
            return None
        if saved[0] == since:
            return "200 OK", list(NOTHING_NEW_HEADERS), b""
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        token = security.cookie_csrf_token(self.app, cookies)
        language = request_language(self.app, environ, cookies)
        key = (play_id, saved[0], *log_position(query), language)
        kept = shared_answers(self.app).copy(key, token) if token else None
        if kept is None:
            return None
        body, status, headers = kept
        length = [("Content-Length", str(len(body))), COPY_VARY]
        return f"{status} OK", [*headers, *length, *security.SECURITY_HEADERS], body
