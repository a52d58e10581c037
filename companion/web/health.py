"""GET /healthz: whether this app server can serve, for a load balancer or a monitor (JSON, no access code).

200 when the database answers and is at the schema this version needs; 503 (with the reason) when it can't be
reached or waits for `companion db upgrade`. It says nothing of the group's data.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, request
from sqlalchemy.exc import SQLAlchemyError

from companion.store import migrate
from companion.version import __version__

ENDPOINT = "healthz"
PATH = "/healthz"


def init_app(app: Flask) -> None:
    """The route, and a hook that answers it before every other check (call this before security.init_app)."""
    app.add_url_rule(PATH, ENDPOINT, healthz, methods=["GET"])
    # The first before-request hook: the access code and the outdated-schema 503 page never stand in the way. A Host
    # outside TRUSTED_HOSTS still fails routing (no endpoint), so security's 400 answers it as any other page.
    app.before_request(answer_health_first)


def answer_health_first() -> Response | None:
    """For /healthz, the answer itself; for any other request, nothing (the other hooks run)."""
    if request.endpoint == ENDPOINT and request.method in ("GET", "HEAD"):
        return healthz()
    return None


def healthz() -> Response:
    """The app's version, the database's schema and whether it is reachable: 200 when all is well, else 503."""
    expected = migrate.head()
    body: dict[str, object] = {"status": "ok", "version": __version__, "schema": None, "expected_schema": expected}
    engine = current_app.extensions["db_engine"]
    try:
        with engine.connect() as connection:
            body["schema"] = migrate.current(connection)
        body["database"] = "reachable"
    except SQLAlchemyError as error:
        body["database"] = "unreachable"
        body["status"] = "unavailable"
        # The driver's own first line names the fault (refused, timed out) without the URL or its password.
        message = str(getattr(error, "orig", None) or error).strip()
        body["problem"] = message.splitlines()[0] if message else type(error).__name__
    else:
        if body["schema"] != expected:
            body["status"] = "unavailable"
            body["problem"] = "The database needs `companion db upgrade`."
    response = jsonify(body)
    response.status_code = 200 if body["status"] == "ok" else 503
    response.headers["Cache-Control"] = "no-store"
    return response
