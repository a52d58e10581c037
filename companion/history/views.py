"""Blueprint for the group's memory: the home page, the history of finished plays and the lists of open plays.

Every list is read a page at a time (LIMIT in the query), with a count where the page says how many there are:
thousands of plays in progress or put aside never make the home page or the history slow. The history is filtered
by game, player, place and days (history_filter, shared with the history report) and each page is the same few
queries whatever its length: the count (from indexes), the plays with their places, and all their seats with their
roster entries at once.

Each row says where and how long the play was played when known, and marks a play ignored (listed, left out of
the statistics) and a guest's seat (no roster entry to link). A finished play can be corrected (names, notes, day,
place, and its inputs in the calculator's own form, scored again by the rules) and deleted. A deleted play is left
out of every list but kept RESTORE_DAYS days, to be restored from its page or from Recently deleted; after that it
is purged, with its seats and changes, the next time the history is listed or a play is deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from math import ceil
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, render_template, request, url_for
from pydantic import BaseModel, ValidationError, field_validator
from sqlalchemy.orm.exc import ObjectDeletedError
from sqlmodel import Session
from werkzeug.datastructures import MultiDict

from companion.calculator.forms import (
    CalculatorEntry,
    calculator_messages,
    form_context,
    form_values,
    read_calculator,
    read_location,
    read_notes,
    valid_options,
    validate_entry,
)
from companion.games import GAMES
from companion.games.base import FieldError, Game, InputErrors
from companion.games.wording import grouped, utc
from companion.history.rows import play_rows
from companion.language import N_, _, ngettext
from companion.store import history_version, lists, records
from companion.store.db import get_session
from companion.store.history_filter import HistoryFilter, count_filtered, filtered_ids
from companion.store.models import ABANDONED, FINISHED, ID_IN_URL, IN_PROGRESS, LOCATION_MAX, Play, utcnow
from companion.web.htmx import client_redirect, is_fragment_request, page_or_fragments, render_fragments

bp = Blueprint("history", __name__)
# Counts as the reader's language groups their thousands ('1,024', French '1 024', German '1.024').
bp.add_app_template_filter(grouped, "grouped")

HISTORY_PAGE = 50
HISTORY_PAGES_MAX = 100_000
# The newest games in progress on the home page, and the newest put aside on the first page of the history.
HOME_IN_PROGRESS = 5
# The newest finished plays the home page lists.
HOME_RECENT = 5
HISTORY_PUT_ASIDE = 5
# A page of /history/in-progress or /history/put-aside, and of Recently deleted.
OPEN_PAGE = 50
# How long a deleted play can be restored; then it is purged.
RESTORE_DAYS = 30

# The titles of the lists of open plays, and the names of their pagers (translated where shown).
OPEN_LISTS = {IN_PROGRESS: N_("Games in progress"), ABANDONED: N_("Games put aside")}
OPEN_PAGERS = {IN_PROGRESS: N_("Pages of games in progress"), ABANDONED: N_("Pages of games put aside")}

HISTORY_RESULTS = ("history/_results.html",)
CORRECT_FORM = ("history/_correct_form.html",)
# What a correction says when another device deleted the play (or changed it past correcting) before it was saved.
# (Translated where shown.)
CORRECTION_DELETED = N_(
    "This play was deleted from the history on another device, so your correction was not saved. To correct it, "
    "restore it from Recently deleted and save again."
)
CORRECTION_STALE = N_(
    "This play changed on another device, so your correction was not saved. Reload the page to see it."
)
NO_SUCH_PLAY = N_("There is no such finished play in the history.")


def _first_of(session: Session, status: str, limit: int) -> tuple[list[Play], int]:
    """The newest plays with this status, and how many there are (counted only when the list is full)."""
    plays = lists.open_plays(session, status, limit)
    return plays, (lists.count_plays(session, status) if len(plays) == limit else len(plays))


def _page() -> int:
    """The page asked for, from 1; clamped, since a huge page number would overflow the database's OFFSET."""
    return min(max(request.args.get("page", 1, type=int) or 1, 1), HISTORY_PAGES_MAX)


def _page_args(page: int) -> dict[str, int]:
    """The page argument of a link: none for the first page."""
    return {"page": page} if page > 1 else {}


def restorable_since() -> datetime:
    """The oldest moment a deleted play can have been deleted and still be restored."""
    return utcnow() - timedelta(days=RESTORE_DAYS)


@bp.app_template_global()
def restore_until(play: Play) -> datetime | None:
    """The moment a deleted play is purged (None for a play that is not deleted)."""
    return play.deleted_at + timedelta(days=RESTORE_DAYS) if play.deleted_at else None


@dataclass(frozen=True)
class RankedSeat:
    """A player in a history row: the name as played, the total (None: imported without scores), whether they won,
    and their roster entry (None: a guest, on no roster, whose name links nowhere)."""

    name: str
    total: int | None
    won: bool
    player_id: int | None


@bp.app_template_global()
def ranked_seats(play: Play) -> list[RankedSeat]:
    """A finished play's players by rank (ties in turn order), each with the roster entry their name links to; the
    winners are those ranked first, as in its stored result (records.stored_result)."""
    # sorted() keeps turn order among equal ranks; a seat without a rank goes last.
    seats = sorted(play.seats, key=lambda seat: (seat.rank is None, seat.rank or 0))
    return [RankedSeat(seat.name, seat.total, seat.rank == 1, seat.player_id) for seat in seats]


def _finished_play(play_id: int) -> Play:
    """A finished play that is not deleted, or the 404 page."""
    play = records.get_play(get_session(), play_id)
    if play is None or play.status != FINISHED or play.deleted_at is not None:
        abort(404, description=_(NO_SUCH_PLAY))
    return play


@bp.get("/")
def home() -> Response:
    """Start a game, carry on with one of the newest in progress (a link to all of them), see the latest results."""
    session = get_session()
    recent = play_rows(session, filtered_ids(session, HistoryFilter(), limit=HOME_RECENT))
    in_progress, in_progress_count = _first_of(session, IN_PROGRESS, HOME_IN_PROGRESS)
    return make_response(
        render_template(
            "history/home.html",
            games=GAMES.values(),
            in_progress=in_progress,
            in_progress_count=in_progress_count,
            recent=recent,
        )
    )


def _around_the_list(session: Session, flt: HistoryFilter, page: int) -> dict[str, Any]:
    """What the whole page shows around the list: the play just deleted (to restore at once), links to the
    plays deleted and in progress, and on the unfiltered first page the newest put aside."""
    since = restorable_since()
    deleted_id = request.args.get("deleted", type=int)
    just = records.get_play(session, deleted_id) if deleted_id and 0 < deleted_id < 2**31 else None
    first = page == 1 and not flt.active
    abandoned, abandoned_count = _first_of(session, ABANDONED, HISTORY_PUT_ASIDE) if first else ([], 0)
    return {
        "just_deleted": just if just and just.deleted_at and utc(just.deleted_at) >= since else None,
        "deleted_count": lists.count_deleted(session, since),
        "abandoned": abandoned,
        "abandoned_count": abandoned_count,
        "in_progress_count": lists.count_plays(session, IN_PROGRESS) if first else 0,
    }


@bp.get("/history")
def history() -> Response:
    """Finished plays matching the filter, newest first, a page at a time; htmx gets the filter and list alone."""
    flt, errors = HistoryFilter.from_args(request.args)
    page = _page()
    session = get_session()
    records.purge_deleted(session, restorable_since())

    def count() -> tuple[list[int], int]:
        """The page's play ids and how many plays match in all."""
        ids = filtered_ids(session, flt, limit=HISTORY_PAGE, offset=(page - 1) * HISTORY_PAGE)
        # A first page that is not full holds every match: no count to make.
        return ids, len(ids) if page == 1 and len(ids) < HISTORY_PAGE else count_filtered(session, flt)

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    ids, count_all = history_version.kept(app, session, ("history", tuple(flt.to_args().items()), page), count)
    context: dict[str, Any] = {
        "flt": flt,
        "errors": errors,
        "games": GAMES.values(),
        "roster": records.roster(session),
        "locations": records.locations(session),
        "rows": play_rows(session, ids),
        "count": count_all,
        "page": page,
        "pages": max(ceil(count_all / HISTORY_PAGE), 1),
        **(_around_the_list(session, flt, page) if not is_fragment_request() else {}),
    }
    status = 422 if errors else 200
    # Not page_or_fragments: the list's own `page` (its number) would clash with that helper's argument.
    if is_fragment_request():
        response = render_fragments(*HISTORY_RESULTS, status=status, **context)
        # The address bar shows the filter's own address, not the empty fields the form sent along; a refused
        # filter keeps the address it had.
        # One dict of Any: url_for's own keyword arguments (_external: bool, ...) would not take these as typed.
        args: dict[str, Any] = {**_page_args(page), **flt.to_args()}
        canonical = url_for("history.history", **args)
        response.headers["HX-Push-Url"] = "false" if errors else canonical
        return response
    return make_response(render_template("history/index.html", **context), status)


@bp.get("/history/in-progress", defaults={"status": IN_PROGRESS}, endpoint="in_progress")
@bp.get("/history/put-aside", defaults={"status": ABANDONED}, endpoint="put_aside")
def open_list(status: str) -> Response:
    """Every play in progress (or put aside), newest first, a page at a time."""
    page = _page()
    session = get_session()
    found = lists.open_plays(session, status, limit=OPEN_PAGE + 1, offset=(page - 1) * OPEN_PAGE)
    return make_response(
        render_template(
            "history/index.html",
            open_list=_(OPEN_LISTS[status]),
            open_pager=_(OPEN_PAGERS[status]),
            open_plays=found[:OPEN_PAGE],
            open_count=lists.count_plays(session, status),
            page=page,
            has_more=len(found) > OPEN_PAGE,
        )
    )


@bp.get("/history/deleted")
def deleted() -> Response:
    """Recently deleted plays, the latest deleted first, each with the day it goes for good and Restore."""
    page = _page()
    session = get_session()
    since = restorable_since()
    records.purge_deleted(session, since)
    found = lists.deleted_plays(session, since, limit=OPEN_PAGE + 1, offset=(page - 1) * OPEN_PAGE)
    return make_response(
        render_template(
            "history/deleted.html",
            plays=[play for play in found[:OPEN_PAGE] if play.status == FINISHED],
            count=lists.count_deleted(session, since),
            page=page,
            has_more=len(found) > OPEN_PAGE,
            restore_days=RESTORE_DAYS,
        )
    )


@bp.get(f"/history/<{ID_IN_URL}:play_id>/delete")
def confirm_delete(play_id: int) -> Response:
    """Ask before deleting: what the play was, and that it can be restored for RESTORE_DAYS days."""
    play = _finished_play(play_id)
    return make_response(render_template("history/delete.html", play=play, restore_days=RESTORE_DAYS))


@bp.post(f"/history/<{ID_IN_URL}:play_id>/delete")
def delete(play_id: int) -> Response:
    """Delete a finished play from the history (kept to be restored), then show the history saying so."""
    session = get_session()
    if not records.delete_play(session, play_id, utcnow()):
        abort(404, description=_(NO_SUCH_PLAY))
    records.purge_deleted(session, restorable_since())
    return client_redirect(url_for("history.history", deleted=play_id))


@bp.post(f"/history/<{ID_IN_URL}:play_id>/restore", endpoint="restore")
def restore_deleted(play_id: int) -> Response:
    """Bring a deleted play back into the history, within RESTORE_DAYS days of its deletion; then show it."""
    if not records.restore_play(get_session(), play_id, restorable_since()):
        abort(
            404,
            description=ngettext(
                "That play can't be restored: it was not deleted, or more than %(num)s day ago.",
                "That play can't be restored: it was not deleted, or more than %(num)s days ago.",
                RESTORE_DAYS,
            ),
        )
    return client_redirect(url_for("plays.show_play", play_id=play_id))


class Details(BaseModel):
    """What a correction says about the play besides the scores: the day it was played."""

    played_on: date

    @field_validator("played_on", mode="before")
    @classmethod
    def _day(cls, value: Any) -> Any:
        """A day as the date picker writes it, in a year the group could have played in."""
        try:
            day = date.fromisoformat(str(value or "").strip())
        except ValueError:
            raise ValueError(_("Give the day it was played as year-month-day, e.g. 2026-11-30.")) from None
        if day.year < 1900:
            raise ValueError(_("Give a day after 1900."))
        return day


def _played_at(play: Play, form: MultiDict[str, str]) -> datetime:
    """The moment the corrected play was played: the day typed, at the time of day it was saved (UTC)."""
    try:
        day = Details.model_validate({"played_on": form.get("played_on")}).played_on
    except ValidationError as exc:
        raise InputErrors(
            [FieldError("played_on", str(exc.errors()[0]["msg"]).removeprefix("Value error, "))]
        ) from None
    return datetime.combine(day, utc(play.played_at).timetz())


@dataclass(frozen=True)
class Corrected:
    """What a correction sets besides the scores: the day (at the time of day it was saved), the notes, and the
    place ('' clears it; None leaves it as it was: a form sent without the field)."""

    played_at: datetime
    notes: str
    location: str | None


def _read_details(play: Play, entry: CalculatorEntry, form: MultiDict[str, str]) -> tuple[Corrected, dict[str, str]]:
    """The corrected day, notes and place, and a message for each field beyond the calculator's that can't be kept."""
    messages: dict[str, str] = {}
    played_at, notes, location = play.played_at, play.notes, None
    try:
        notes = read_notes(form)
    except InputErrors as refused:
        messages["notes"] = refused.errors[0].message
    try:
        location = read_location(form) if "location" in form else None
    except InputErrors as refused:
        messages["location"] = refused.errors[0].message
    try:
        played_at = _played_at(play, form)
    except InputErrors as refused:
        messages["played_on"] = refused.errors[0].message
    if len(entry.players) != len(play.seats):
        messages["players"] = ngettext(
            "This play had %(num)s player; a correction keeps them. To change who played, delete it and score it "
            "again.",
            "This play had %(num)s players; a correction keeps each of them. To change who played, delete it and "
            "score it again.",
            len(play.seats),
        )
    return Corrected(played_at, notes, location), messages


def _correct_context(play: Play, game: Game, values: MultiDict[str, str], errors: dict[str, str]) -> dict[str, Any]:
    """What the correction page and its form fragment need: the calculator's inputs, filled."""
    # The calculator's shared inputs build their tap URLs from the route's game (calculator.tap_line).
    if request.view_args is not None:
        request.view_args.setdefault("game_id", game.id)
    return {
        **form_context(game, values, errors, valid_options(game, play.options)),
        "play": play,
        "seat_count": len(play.seats),
        "locations": records.locations(get_session()),
        "location_max": LOCATION_MAX,
    }


@bp.get(f"/history/<{ID_IN_URL}:play_id>/correct")
def correct_form(play_id: int) -> Response:
    """The calculator's form filled with the play's names and inputs, its day, place and notes, to correct them."""
    play = _finished_play(play_id)
    game = records.game_of(play)
    values = form_values(game, *records.play_inputs(play))
    values["played_on"] = utc(play.played_at).date().isoformat()
    values["notes"] = play.notes
    values["location"] = play.location.name if play.location is not None else ""
    return make_response(render_template("history/correct.html", **_correct_context(play, game, values, {})))


@bp.post(f"/history/<{ID_IN_URL}:play_id>/correct")
def correct(play_id: int) -> Response:
    """Score the corrected inputs by the rules and store them with the names, day, place and notes; 422 with messages,
    409 when another device deleted the play meanwhile (before the form was sent, or while it was saved)."""
    play = records.get_play(get_session(), play_id)
    if play is not None and play.status == FINISHED and play.deleted_at is not None:
        return _correction_not_saved(play_id, records.game_of(play))
    play = _finished_play(play_id)
    game = records.game_of(play)
    entry = read_calculator(game, request.form)
    corrected, details = _read_details(play, entry, request.form)
    try:
        players, options = validate_entry(game, entry)
        messages: dict[str, str] = {}
    except InputErrors as refused:
        messages = calculator_messages(game, entry, refused)
    if messages or details:
        context = _correct_context(play, game, request.form, {**messages, **details})
        return page_or_fragments("history/correct.html", CORRECT_FORM, status=422, **context)
    result = game.score(players, options)
    saved = records.correct_play(
        get_session(),
        play,
        players,
        options,
        result,
        played_at=corrected.played_at,
        notes=corrected.notes,
        location=corrected.location,
    )
    if saved is None:
        return _correction_not_saved(play_id, game)
    return client_redirect(url_for("plays.show_play", play_id=play_id))


def _correction_not_saved(play_id: int, game: Game) -> Response:
    """409: the form again, as typed, saying the play was deleted (by another device, while this was on its way)."""
    try:
        play = records.get_play(get_session(), play_id)
    except ObjectDeletedError:  # purged for good meanwhile: no form left to show
        play = None
    if play is None:
        abort(409, description=_(CORRECTION_DELETED))
    message = _(CORRECTION_DELETED if play.deleted_at is not None else CORRECTION_STALE)
    context = _correct_context(play, game, request.form, {"": message})
    return page_or_fragments("history/correct.html", CORRECT_FORM, status=409, **context)
