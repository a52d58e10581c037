"""The history's rows (templates/history/_play_row.html), each drawn once per history version on each server.

A row shows what its play holds (the game, the day, the place and time, the seats' names, totals and ranks) in the
reader's language (each language has rows of its own), and every write that changes a finished play moves the
history's version on (companion/store/history_version.py), so a row drawn at one version is the row at that version. A page then reads its plays only for the rows not yet drawn:
the history's pages cost what their own few queries cost, however many rows they show.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import current_app, get_template_attribute, request
from markupsafe import Markup
from sqlmodel import Session

from companion.store import history_version
from companion.store.history_filter import plays_by_ids
from companion.store.models import saved_id
from companion.web.i18n import current_language

ROW_TEMPLATE = "history/_play_row.html"


def play_rows(session: Session, ids: Sequence[int]) -> list[Markup]:
    """The rows of these finished plays, in the order of the ids (one deleted meanwhile left out)."""
    kept = history_version.kept_by(current_app._get_current_object())  # type: ignore[attr-defined]
    version = history_version.current(session)
    # A proxy may serve the app under a prefix of its own: the rows' links carry it; and a row is written in the
    # reader's language (its day, its marks): each language has rows of its own.
    language = current_language()
    keys = {play_id: ("history-row", request.script_root, language, play_id) for play_id in ids}
    rows = {play_id: kept.peek(key, version) for play_id, key in keys.items()}
    missing = [play_id for play_id, row in rows.items() if row is None]
    if missing:
        draw = get_template_attribute(ROW_TEMPLATE, "play_row")
        for play in plays_by_ids(session, missing):
            row = rows[saved_id(play)] = Markup(draw(play))
            kept.put(keys[saved_id(play)], version, row)
    return [row for play_id in ids if (row := rows[play_id]) is not None]
