"""Blueprint for the group's memory: the home page and the history of finished plays."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, request

from . import records
from .db import get_session
from .games import GAMES

bp = Blueprint("history", __name__)

HISTORY_PAGE = 50
HISTORY_PAGES_MAX = 100_000


@bp.get("/")
def home() -> Response:
    """Start a game, carry on with one in progress, see the latest results."""
    session = get_session()
    plays = [(play, records.stored_result(play)) for play in records.finished_plays(session, limit=5)]
    return make_response(
        render_template(
            "home.html", games=GAMES.values(), in_progress=records.plays_in_progress(session), recent=plays
        )
    )


@bp.get("/history")
def history() -> Response:
    """Finished plays, newest first, each linking to its result."""
    # Clamped: a huge page number would overflow the database's OFFSET.
    page = min(max(request.args.get("page", 1, type=int) or 1, 1), HISTORY_PAGES_MAX)
    session = get_session()
    found = records.finished_plays(session, limit=HISTORY_PAGE + 1, offset=(page - 1) * HISTORY_PAGE)
    plays = [(play, records.stored_result(play)) for play in found[:HISTORY_PAGE]]
    return make_response(
        render_template(
            "history.html",
            plays=plays,
            page=page,
            has_more=len(found) > HISTORY_PAGE,
            abandoned=records.abandoned_plays(session) if page == 1 else [],
        )
    )
