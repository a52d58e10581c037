"""Blueprint for the group's memory: the home page, the history of finished plays and the lists of open plays.

Every list is read a page at a time (LIMIT in the query), with a count where the page says how many there are:
thousands of plays in progress or put aside never make the home page or the history slow.
"""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, request
from sqlmodel import Session

from . import records
from .db import get_session
from .games import GAMES
from .models import ABANDONED, IN_PROGRESS, Play

bp = Blueprint("history", __name__)

HISTORY_PAGE = 50
HISTORY_PAGES_MAX = 100_000
# The newest games in progress on the home page, and the newest put aside on the first page of the history.
HOME_IN_PROGRESS = 5
HISTORY_PUT_ASIDE = 5
# A page of /history/in-progress or /history/put-aside.
OPEN_PAGE = 50

# The titles of the lists of open plays.
OPEN_LISTS = {IN_PROGRESS: "Games in progress", ABANDONED: "Games put aside"}


def _first_of(session: Session, status: str, limit: int) -> tuple[list[Play], int]:
    """The newest plays with this status, and how many there are (counted only when the list is full)."""
    plays = records.open_plays(session, status, limit)
    return plays, (records.count_plays(session, status) if len(plays) == limit else len(plays))


def _page() -> int:
    """The page asked for, from 1; clamped, since a huge page number would overflow the database's OFFSET."""
    return min(max(request.args.get("page", 1, type=int) or 1, 1), HISTORY_PAGES_MAX)


@bp.get("/")
def home() -> Response:
    """Start a game, carry on with one of the newest in progress (a link to all of them), see the latest results."""
    session = get_session()
    plays = [(play, records.stored_result(play)) for play in records.finished_plays(session, limit=5)]
    in_progress, in_progress_count = _first_of(session, IN_PROGRESS, HOME_IN_PROGRESS)
    return make_response(
        render_template(
            "home.html",
            games=GAMES.values(),
            in_progress=in_progress,
            in_progress_count=in_progress_count,
            recent=plays,
        )
    )


@bp.get("/history")
def history() -> Response:
    """Finished plays, newest first, each linking to its result; on the first page, the newest put aside."""
    page = _page()
    session = get_session()
    found = records.finished_plays(session, limit=HISTORY_PAGE + 1, offset=(page - 1) * HISTORY_PAGE)
    plays = [(play, records.stored_result(play)) for play in found[:HISTORY_PAGE]]
    abandoned, abandoned_count = _first_of(session, ABANDONED, HISTORY_PUT_ASIDE) if page == 1 else ([], 0)
    return make_response(
        render_template(
            "history.html",
            plays=plays,
            page=page,
            has_more=len(found) > HISTORY_PAGE,
            abandoned=abandoned,
            abandoned_count=abandoned_count,
            in_progress_count=records.count_plays(session, IN_PROGRESS) if page == 1 else 0,
        )
    )


@bp.get("/history/in-progress", defaults={"status": IN_PROGRESS}, endpoint="in_progress")
@bp.get("/history/put-aside", defaults={"status": ABANDONED}, endpoint="put_aside")
def open_list(status: str) -> Response:
    """Every play in progress (or put aside), newest first, a page at a time."""
    page = _page()
    session = get_session()
    found = records.open_plays(session, status, limit=OPEN_PAGE + 1, offset=(page - 1) * OPEN_PAGE)
    return make_response(
        render_template(
            "history.html",
            open_list=OPEN_LISTS[status],
            open_plays=found[:OPEN_PAGE],
            open_count=records.count_plays(session, status),
            page=page,
            has_more=len(found) > OPEN_PAGE,
        )
    )
