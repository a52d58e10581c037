"""Blueprint for a play at the table: new play, tracker, taps, undo, finish, result and score sheet."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for

from . import records
from .db import get_session
from .forms import (
    SeatRow,
    colour_errors,
    option_fields,
    options_from_form,
    parse_int,
    players_from_rows,
    row_errors,
    seat_rows,
)
from .games import get_game
from .games.base import Game, InputErrors, Note, counter_values, read_path
from .htmx import after_change, client_redirect, page_or_fragments
from .models import ABANDONED, FINISHED, ID_IN_URL, Play, Seat
from .pdf import render_pdf
from .security import device_id

bp = Blueprint("plays", __name__, url_prefix="/plays")


def _tracked_game(game_id: str | None) -> Game:
    """The game to start, or 404 when there is no tracker for it."""
    game = get_game(game_id or "")
    if game is None or not game.has_tracker:
        abort(404, description="There is no tracker for that game.")
    return game


def _new_play_context(game: Game, rows: list[Any], options: dict[str, Any], errors: dict[str, str]) -> dict:
    """What the new-play page and its players fragment need."""
    session = get_session()
    return {
        "game": game,
        "rows": rows,
        "roster": records.roster(session),
        "option_fields": option_fields(game, options),
        "errors": errors,
        # 'options.level_vp[2]' is shown beside the option 'level_vp'.
        "option_errors": {
            key.removeprefix("options.").split("[")[0].split(".")[0]: text
            for key, text in errors.items()
            if key.startswith("options.")
        },
    }


@bp.get("/new")
def new_play() -> Response:
    """The form to start a play: players from the roster or typed new, turn order, options."""
    game = _tracked_game(request.args.get("game", "spires"))
    rows = [SeatRow("", game.colours[i] if i < len(game.colours) else "") for i in range(game.max_players)]
    return make_response(render_template("new_play.html", **_new_play_context(game, rows, {}, {})))


@bp.post("/new/first-player")
def random_first_player() -> Response:
    """Pick a first player at random and rotate the turn order so that they start."""
    game = _tracked_game(request.form.get("game"))
    rows = seat_rows(request.form, game.max_players)
    filled = [row for row in rows if row.name]
    if filled:
        start = random.randrange(len(filled))
        filled = filled[start:] + filled[:start]
    rows = filled + [SeatRow("", row.colour) for row in rows if not row.name]
    context = _new_play_context(game, rows, _options_as_typed(game), {})
    context["first_player"] = filled[0].name if filled else None
    return page_or_fragments("new_play.html", ("_partials/seat_rows.html",), **context)


def _options_as_typed(game: Game) -> dict[str, Any]:
    """The options as typed, or the defaults when they don't parse (they are checked on submit)."""
    try:
        return options_from_form(game, request.form)
    except InputErrors:
        return {}


@bp.post("")
def create_play() -> Response:
    """Start a play from the new-play form; a 422 with messages beside the fields when it can't."""
    game = _tracked_game(request.form.get("game"))
    rows = seat_rows(request.form, game.max_players)
    raw_players, row_of_player = players_from_rows(rows)
    messages = colour_errors(game.colours, rows, row_of_player)
    try:
        players, options = game.validate(raw_players, options_from_form(game, request.form))
    except InputErrors as errors:
        messages = row_errors(errors, row_of_player) | messages
        if not raw_players:
            messages = {"players": "Type the players' names, first player first."}
    if messages:
        context = _new_play_context(game, rows, _options_as_typed(game), messages)
        return page_or_fragments("new_play.html", ("_partials/new_play_form.html",), status=422, **context)
    colours = [rows[row].colour for row in row_of_player]
    play = records.create_play(get_session(), game, players, options, colours)
    return client_redirect(url_for("plays.show_play", play_id=play.id))


def _load_play(play_id: int) -> Play:
    """The play, or 404."""
    play = records.get_play(get_session(), play_id)
    if play is None:
        abort(404, description="There is no such play.")
    return play


def _tracker_context(play: Play, **more: Any) -> dict[str, Any]:
    """What the tracker page and its fragments need: seats, live score, notes, setup card."""
    game = records.game_of(play)
    try:
        players, options = records.validate_play(play)
    except InputErrors as broken:
        return _unscorable_context(play, game, broken, **more)
    result = game.score(players, options)
    flagged = {seat.id: game.flagged(p) for seat, p in zip(play.seats, players, strict=True)} if game.flagged else {}
    return {
        "play": play,
        "game": game,
        "options": options,
        "live": result.to_dict(),
        "notes": game.tracker_notes(players, options, result) if game.tracker_notes else [],
        "setup": game.setup(len(play.seats), options) if game.setup else [],
        "reference_notes": game.reference_notes(options) if game.reference_notes else [],
        "can_undo": records.last_change(get_session(), play) is not None,
        "flagged": flagged,
        "live_values": _live_values(play, flagged, game.table_counters(options) if game.table_counters else ()),
        "tapped": None,
        "notice": None,
        "errors": {},
        "error_seat": None,
        **more,
    }


def _unscorable_context(play: Play, game: Game, broken: InputErrors, **more: Any) -> dict[str, Any]:
    """The tracker for saved counts the rules no longer accept (say, a later rules version): shown, not scored."""
    options = game.options_model.model_construct(**play.options)
    return {
        "play": play,
        "game": game,
        "options": options,
        "live": {"players": []},
        "notes": [Note(f"These counts can't be scored: {broken}. Correct them to go on.", warning=True)],
        "setup": [],
        "reference_notes": [],
        "can_undo": records.last_change(get_session(), play) is not None,
        "flagged": {},
        "live_values": _live_values(play, {}, ()),
        "tapped": None,
        "notice": None,
        "errors": {},
        "error_seat": None,
        **more,
    }


def _live_values(play: Play, flagged: dict[int, set[str]], table_paths: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every counter the tracker shows with its saved value: each seat's whole-number fields and the table's."""
    values = [
        {"scope": seat.id, "field": path, "value": number, "flagged": path in flagged.get(seat.id, ())}
        for seat in play.seats
        for path, number in counter_values(seat.state)
    ]
    values += [
        {"scope": "options", "field": path, "value": read_path(play.options, path), "flagged": False}
        for path in table_paths
    ]
    return values


@bp.get(f"/<{ID_IN_URL}:play_id>")
def show_play(play_id: int) -> Response:
    """The tracker while the play is in progress, the result once it is finished."""
    play = _load_play(play_id)
    if play.status == FINISHED:
        return make_response(render_template("result.html", **_result_context(play)))
    if play.status == ABANDONED:
        return make_response(render_template("abandoned.html", play=play, game=records.game_of(play)))
    return make_response(render_template("tracker.html", **_tracker_context(play)))


def _tap_from_form(path: str) -> records.Tap:
    """The tap a form asks for: `delta` steps the counter at `path`, `value` sets it."""
    if "delta" in request.form:
        return records.Tap(path, delta=parse_int(request.form.get("delta"), path))
    return records.Tap(path, value=parse_int(request.form.get("value"), path))


def _refuse_if_finished(play: Play) -> Response | None:
    """A finished play keeps its result, and one put aside waits to be resumed: taps go to its page."""
    if play.status in (FINISHED, ABANDONED):
        return client_redirect(url_for("plays.show_play", play_id=play.id))
    return None


@bp.post(f"/<{ID_IN_URL}:play_id>/seats/<{ID_IN_URL}:seat_id>")
def tap_seat(play_id: int, seat_id: int) -> Response:
    """Save one tap on a player's counter; answer with its value, its message, the scoreboard and undo."""
    play = _load_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    seat = seat_by_id(play, seat_id)
    if seat is None:
        abort(404, description="That player is not in this play.")
    path = request.form.get("field", "")
    error = _try(lambda: records.tap_seat(get_session(), play, seat, _tap_from_form(path), device_id()))
    context = _tracker_context(play, errors={path: error} if error else {}, error_seat=seat.id)
    context.update(tapped={"scope": seat.id, "field": path, "error": error}, notice="")
    return _answer_tap(play, context, error)


@bp.post(f"/<{ID_IN_URL}:play_id>/options")
def tap_option(play_id: int) -> Response:
    """Save one tap on a play-wide counter (the solo discard pile); answer like a seat tap."""
    play = _load_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    path = request.form.get("field", "")
    error = _try(lambda: records.tap_option(get_session(), play, _tap_from_form(path), device_id()))
    context = _tracker_context(play, errors={path: error} if error else {})
    context.update(tapped={"scope": "options", "field": path, "error": error}, notice="")
    return _answer_tap(play, context, error)


def _try(save: Callable[[], object]) -> str | None:
    """Run a save; the messages of the InputErrors it raised, or None when it was saved."""
    try:
        save()
    except InputErrors as errors:
        return " ".join(dict.fromkeys(e.message for e in errors.errors))
    return None


def _answer_tap(play: Play, context: dict[str, Any], error: str | None) -> Response:
    """The tapped counter's message and every live value for htmx (422 when refused), else the page or a redirect."""
    fragments = ("_partials/counter_tapped.html",)
    if error:
        return page_or_fragments("tracker.html", fragments, status=422, **context)
    return after_change(url_for("plays.show_play", play_id=play.id), fragments, **context)


@bp.post(f"/<{ID_IN_URL}:play_id>/undo")
def undo(play_id: int) -> Response:
    """Take back the newest tap; answer with the whole tracker body, since any seat may change."""
    play = _load_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    undone = records.undo_last(get_session(), play, device_id())
    notice = f"Took back: {_change_text(play, undone)}." if undone else "Nothing left to take back."
    return after_change(
        url_for("plays.show_play", play_id=play.id), ("_partials/live.html",), **_tracker_context(play, notice=notice)
    )


def _change_text(play: Play, change: Any) -> str:
    """A tap said for the table: "Ann, towers red 3 → 2"."""
    seat = seat_by_id(play, change.seat_id) if change.seat_id is not None else None
    who = seat.name if seat else "table"
    what = change.field.removeprefix("options.").replace(".", " ").replace("_", " ")
    return f"{who}, {what} {change.new} → {change.old}"


@bp.get(f"/<{ID_IN_URL}:play_id>/live")
def live(play_id: int) -> Response:
    """Every counter's saved value and the scoreboard, for the tracker's regular refresh (other devices' taps)."""
    play = _load_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    return page_or_fragments("tracker.html", ("_partials/live.html",), **_tracker_context(play))


@bp.post(f"/<{ID_IN_URL}:play_id>/finish")
def finish(play_id: int) -> Response:
    """Score the play by the official rules, store the result and show it."""
    play = _load_play(play_id)
    try:
        records.finish_play(get_session(), play)
    except InputErrors:
        # The scoreboard already says what can't be scored; the play stays open to be corrected.
        return page_or_fragments("tracker.html", ("_partials/live.html",), status=422, **_tracker_context(play))
    return client_redirect(url_for("plays.show_play", play_id=play.id))


@bp.post(f"/<{ID_IN_URL}:play_id>/abandon")
def abandon(play_id: int) -> Response:
    """Put a play in progress aside: it leaves the home page's list and waits, kept, on the history page."""
    play = _load_play(play_id)
    records.put_aside(get_session(), play, aside=True)
    return client_redirect(url_for("history.home"))


@bp.post(f"/<{ID_IN_URL}:play_id>/resume")
def resume(play_id: int) -> Response:
    """Bring a play that was put aside back to its tracker."""
    play = _load_play(play_id)
    records.put_aside(get_session(), play, aside=False)
    return client_redirect(url_for("plays.show_play", play_id=play.id))


def _result_context(play: Play) -> dict[str, Any]:
    """What the result page and the score sheet need."""
    game = records.game_of(play)
    return {"play": play, "game": game, "result": records.stored_result(play), "seats": play.seats}


@bp.get(f"/<{ID_IN_URL}:play_id>/sheet.pdf")
def score_sheet(play_id: int) -> Response:
    """The finished play as a printable A4 score sheet."""
    play = _load_play(play_id)
    if play.status != FINISHED:
        abort(404, description="The score sheet exists once the play is finished.")
    pdf = render_pdf("print/sheet.html", **_result_context(play))
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{play.game}-{play.id}.pdf"'
    return response


def seat_by_id(play: Play, seat_id: int) -> Seat | None:
    """The seat of this play with this id."""
    return next((s for s in play.seats if s.id == seat_id), None)
