"""Blueprint for printed sheets that are not one play's.

Blank score pads (/games/<id>/pad.pdf) and the history report (/history/report.pdf).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, request, url_for
from pydantic import BaseModel, ConfigDict, ValidationError
from werkzeug.wrappers import Response as BaseResponse

from companion.games import get_game
from companion.games.base import Game, Pad
from companion.games.wording import grouped
from companion.language import _
from companion.play.result_grid import Grid, result_grid
from companion.printing.pdf import css_content, render_pdf
from companion.printing.report import JobState, job_pdf, job_state, start_report
from companion.store.db import get_session
from companion.store.history_filter import HistoryFilter
from companion.web.htmx import page_or_fragments

bp = Blueprint("sheets", __name__)
JOB_ID = re.compile(r"[0-9a-f]{32}")
# The printed documents spell counts as the reader's language groups them, and their margins' words through CSS.
bp.add_app_template_filter(grouped, "grouped")
bp.add_app_template_global(css_content)


class PadQuery(BaseModel):
    """A blank pad's query: how many players (a whole number; the game says which counts it allows)."""

    model_config = ConfigDict(extra="ignore")

    players: int


def pad_options(game: Game, count: int) -> tuple[Any, str | None]:
    """The game's options for a blank pad of `count` players, or the reason that count can't play.

    A game whose options have a solo mode (Spires) plays one player solo: its pad is the solo pad.
    """
    options = game.options_model()
    error = game.player_count_error(count, options)
    if error and count == 1 and "solo" in type(options).model_fields:
        options = game.options_model.model_validate({"solo": True})
        error = game.player_count_error(count, options)
    return options, error


def pad_counts(game: Game) -> list[int]:
    """The player counts the game has a blank pad for, fewest first (1 is a solo pad, where the game has one)."""
    if game.pad is None:
        return []
    return [count for count in range(1, game.max_players + 1) if pad_options(game, count)[1] is None]


@bp.app_context_processor
def pad_links() -> dict[str, Any]:
    """Every page may offer a game's blank pads (the calculator, the game's statistics)."""
    return {"pad_counts": pad_counts}


def blank_grid(pad: Pad, count: int) -> Grid:
    """The score pad grid of `count` unnamed players with every box empty: the same grid as a finished play's."""
    lines = [{"key": line.key, "label": line.label, "points": None, "why": ""} for line in pad.lines]
    players = [{"name": "", "total": None, "rank": 0, "breakdown": lines} for _ in range(count)]
    return result_grid({"players": players, "winners": []})


def _pdf_response(pdf: bytes, filename: str) -> Response:
    """A PDF shown in the browser, with an ETag so that a device that has it gets 304."""
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.add_etag()
    response.make_conditional(request)  # in place: it hands back this same response, typed as werkzeug's
    return response


@bp.get("/games/<game_id>/pad.pdf")
def pad(game_id: str) -> Response:
    """A blank score pad to fill in by hand: the game's lines for ?players=N, empty boxes, its rules in small print."""
    game = get_game(game_id)
    if game is None or game.pad is None:
        abort(404, description=_("There is no score pad for that game."))
    try:
        query = PadQuery.model_validate(dict(request.args))
    except ValidationError:
        abort(
            422,
            description=_(
                "Say how many players the pad is for: players=%(fewest)s to %(most)s.",
                fewest=game.min_players,
                most=game.max_players,
            ),
        )
    options, error = pad_options(game, query.players)
    if error:
        abort(422, description=error)
    sheet = game.pad(options)
    pdf = render_pdf(
        "printing/pad.html",
        cache=True,
        game=game,
        pad=sheet,
        grid=blank_grid(sheet, query.players),
        rules={line.key: line.rule for line in sheet.lines},
        count=query.players,
    )
    return _pdf_response(pdf, f"{game.id}-pad-{query.players}-players.pdf")


def _job(job_id: str) -> JobState:
    """The report job with this id, or 404 (unknown, or made too long ago: the history's link makes a new one)."""
    # Looked up only when it can be one (32 hex digits): PostgreSQL refuses a NUL in a query's text outright.
    job = job_state(get_session(), job_id) if JOB_ID.fullmatch(job_id) else None
    if job is None:
        abort(404, description=_("That report is no longer here: make it again from the history."))
    return job


def _progress(job: JobState, status: int = 200) -> Response:
    """The report's progress: the whole page, or for htmx's poll the status fragment alone."""
    return page_or_fragments("printing/report_progress.html", ("printing/_report_status.html",), status=status, job=job)


@bp.get("/history/report.pdf")
def report() -> Response:
    """Start the history report of the filter in the query string (the history's own arguments) and show its
    progress; the page offers the PDF once it is made."""
    flt, errors = HistoryFilter.from_args(request.args)
    if errors:
        abort(422, description=" ".join(errors.values()))
    job = start_report(current_app._get_current_object(), get_session(), flt)  # type: ignore[attr-defined]
    return _progress(job, status=202)


@bp.get("/history/report/<job_id>")
def report_status(job_id: str) -> Response:
    """How far a report got: polled every second by its page until the download link appears."""
    return _progress(_job(job_id))


@bp.get("/history/report/<job_id>.pdf")
def report_file(job_id: str) -> BaseResponse:
    """A finished report's PDF; its progress page while it is still being made."""
    job = _job(job_id)
    pdf = job_pdf(get_session(), job.id) if job.ready else None
    if pdf is None:
        return redirect(url_for("sheets.report_status", job_id=job.id), code=303)
    response = _pdf_response(pdf, "history-report.pdf")
    response.headers["Content-Disposition"] = 'attachment; filename="history-report.pdf"'
    return response
