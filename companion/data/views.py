"""Blueprint for data in and out: the JSON export and import, the CSV export, BG Stats' format.

The views only read the request and hand bytes to transfer.py, bgstats.py and files.py (the command line uses the same
functions); a refused file answers 422 with the reason on the page and has changed nothing.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from flask import Blueprint, Response, current_app, make_response, request

from companion.config import bgstats_zone
from companion.data import bgstats, files, transfer
from companion.data.importing import ImportRefused, Limits
from companion.language import _
from companion.store.db import get_session
from companion.web.htmx import page_or_fragments

bp = Blueprint("data", __name__)
log = logging.getLogger(__name__)

PAGE = "data/import.html"
FRAGMENTS = ("data/_import_form.html",)


def _download(body: bytes, mimetype: str, name: str, extension: str) -> Response:
    """A file to save, named with today's date (companion-2026-11-30.json)."""
    response = make_response(body)
    # Werkzeug adds "; charset=utf-8" to a text/* type; JSON is UTF-8 by its definition (RFC 8259).
    response.mimetype = mimetype
    day = datetime.now(UTC).date().isoformat()
    response.headers["Content-Disposition"] = f'attachment; filename="{name}-{day}.{extension}"'
    response.headers["Cache-Control"] = "no-store"
    log.info("Export %s.%s: %d bytes", name, extension, len(body), extra={"job": "export"})
    return response


@bp.get("/export.json")
def export_json() -> Response:
    """Everything (roster, plays of every status but deleted ones, their state and results) as a restorable file."""
    return _download(transfer.export_json(get_session()), "application/json", "companion", "json")


@bp.get("/export.csv")
def export_csv() -> Response:
    """One row per player per finished play, for a spreadsheet."""
    return _download(transfer.export_csv(get_session()), "text/csv", "companion-plays", "csv")


@bp.get("/export/bgstats.json")
def export_bgstats() -> Response:
    """The finished plays in BG Stats' backup format, dates in the group's time zone (BGSTATS_TIME_ZONE), the device
    owner's player as BGSTATS_OWNER names it."""
    config = current_app.config
    body = bgstats.export_json(get_session(), bgstats_zone(config), bgstats.owner_setting(config))
    return _download(body, "application/json", "companion-bgstats", "json")


@bp.context_processor
def upload_limit() -> dict[str, int | None]:
    """The largest file the import takes (IMPORT_MAX_LENGTH, the whole request), said beside the field."""
    return {"upload_limit": current_app.config.get("IMPORT_MAX_LENGTH")}


@bp.route("/import", methods=["GET", "POST"])
def import_page() -> Response:
    """GET: the upload form and the exports. POST: import the file (either format) and say what was added."""
    if request.method == "GET":
        return page_or_fragments(PAGE, FRAGMENTS, summary=None, refused=None)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        refused = ImportRefused(_("Choose a file to import: a Companion export or a BG Stats export (.json)."))
        return page_or_fragments(PAGE, FRAGMENTS, 422, summary=None, refused=refused)
    try:
        summary = files.import_file(
            get_session(), upload.read(), Limits.from_config(current_app.config), bgstats_zone(current_app.config)
        )
    except ImportRefused as refused:
        log.info("Import refused: %s", refused, extra={"job": "import"})
        return page_or_fragments(PAGE, FRAGMENTS, 422, summary=None, refused=refused, filename=upload.filename)
    log.info("Import (%s): %s", summary.source, " ".join(summary.sentences()), extra={"job": "import"})
    return page_or_fragments(PAGE, FRAGMENTS, summary=summary, refused=None, filename=upload.filename)
