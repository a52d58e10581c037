"""Our thin layer over htmx-flask: is this a fragment request, and answer with fragments or the page."""

from __future__ import annotations

from typing import Any, cast

from flask import Flask, Response, make_response, redirect, render_template, request
from htmx_flask import Htmx

htmx = Htmx()


def init_app(app: Flask) -> None:
    """Give every request its `request.htmx` headers."""
    htmx.init_app(app)


def is_fragment_request() -> bool:
    """True when htmx asked for a piece of a page rather than a whole page."""
    headers = getattr(request, "htmx", None)
    if not headers:
        return False
    return not headers.boosted and not headers.history_restore_request


def render_fragments(*templates: str, status: int = 200, **context: Any) -> Response:
    """Render partials one after the other: the first swaps into the target, the others out of band."""
    context.pop("oob", None)
    body = "".join(render_template(name, oob=index > 0, **context) for index, name in enumerate(templates))
    return make_response(body, status)


def page_or_fragments(page: str, fragments: tuple[str, ...], status: int = 200, **context: Any) -> Response:
    """The fragments for htmx, the whole page otherwise: both built from the same partials."""
    if is_fragment_request():
        return render_fragments(*fragments, status=status, **context)
    return make_response(render_template(page, **context), status)


def see_other(location: str) -> Response:
    """A 303 to location (after a form, the browser GETs it)."""
    # Inside a request flask.redirect builds current_app.response_class, flask's Response; its stub says werkzeug's.
    return cast(Response, redirect(location, code=303))


def after_change(page_url: str, fragments: tuple[str, ...], **context: Any) -> Response:
    """After a saved change: the changed fragments for htmx, a redirect back to the page otherwise."""
    if is_fragment_request():
        return render_fragments(*fragments, **context)
    return see_other(page_url)


def client_redirect(url: str) -> Response:
    """Send htmx (HX-Redirect) or the browser (303) to another page."""
    if is_fragment_request():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = url
        return response
    return see_other(url)
