"""Error pages: every failure answers a clear page (or JSON under /api/), never a stack trace."""

from __future__ import annotations

from flask import Flask, Response, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from .htmx import is_fragment_request


def init_app(app: Flask) -> None:
    """Answer HTTP errors and unexpected exceptions in the requester's language: HTML or JSON."""
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_unexpected)


def handle_http_error(error: HTTPException) -> Response:
    """A friendly page, {"errors": [...]} for the API, or for htmx a message in the page's #flash."""
    status = error.code or 500
    if request.path.startswith("/api/"):
        return make_response(jsonify(errors=[{"field": "", "message": error.description}]), status)
    if is_fragment_request():
        response = make_response(render_template("_partials/flash.html", error=error), status)
        response.headers["HX-Retarget"] = "#flash"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", status=status, error=error), status)


def handle_unexpected(error: Exception) -> Response:
    """Log the bug and answer like any other error, without showing internals."""
    from flask import current_app

    current_app.logger.exception("Unexpected error", exc_info=error)
    return handle_http_error(InternalServerError())
