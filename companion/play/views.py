"""Blueprint for a play at the table: new play, tracker, taps, undo, finish, result and score sheet."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from flask import Blueprint, Response, abort, current_app, make_response, render_template, request, url_for

from companion.data import createplay
from companion.games import get_game
from companion.games.base import Game, InputErrors, name_key, nul_errors
from companion.games.live import Context, validate_start
from companion.games.wording import grouped
from companion.language import _
from companion.play import facts, story, story_view, sync_check
from companion.play.join import join_panel
from companion.play.result_grid import result_grid
from companion.play.shared_answers import SharedAnswers, shared_answers
from companion.play.standing import stand
from companion.printing.pdf import render_pdf
from companion.store import play_log, play_version, records
from companion.store.db import get_session
from companion.store.models import ABANDONED, FINISHED, ID_IN_URL, IN_PROGRESS, LOCATION_MAX, Play, saved_id
from companion.web.forms import (
    SeatRow,
    colour_errors,
    new_play_fields,
    option_fields,
    options_from_form,
    parse_int,
    passed_left,
    players_from_rows,
    row_errors,
    seat_rows,
)
from companion.web.htmx import after_change, client_redirect, is_fragment_request, page_or_fragments
from companion.web.i18n import current_language
from companion.web.security import device_id
from companion.web.sent import sent_with

bp = Blueprint("plays", __name__, url_prefix="/plays")
# The score pad of a result, drawn by the result page, the history, the statistics and the printed sheets.
bp.add_app_template_global(result_grid)
# Its winners' sentence, also where the winners have no score (an import with the winner only).
bp.add_app_template_global(facts.where_and_how_long)

# The form field every tracker request carries (templates/play/_tracker_body.html): the play's version as the
# device shows it, so an answer can be just what changed, and a sync check "nothing new" in one small query.
SINCE = sync_check.SINCE
# The form field of the newest log entry (a Change id) a tracker shows (templates/play/_play_log.html): an
# answer adds only the entries after it to the device's "What happened".
LOG_AFTER = sync_check.LOG_AFTER
# The same, while the device's panel has not been opened yet: its news is heard (an undo's notice), not drawn.
LOG_WAITING = sync_check.LOG_WAITING
# The new-play form's field of where the play is played (optional): one of the group's places, or a new one typed.
WHERE = "location"
# How often a tracker asks whether another device changed the play: its taps show elsewhere within a second,
# with room for the round trip on a busy Wi-Fi.
SYNC_EVERY_MS = 400


def _tracked_game(game_id: str | None) -> Game:
    """The game to start, or 404 when there is no such game."""
    game = get_game(game_id or "")
    if game is None:
        abort(404, description=_("There is no such game."))
    return game


def _new_play_context(
    game: Game, rows: list[Any], options: dict[str, Any], errors: dict[str, str], where: str = ""
) -> dict[str, Any]:
    """What the new-play page and its players fragment need; `where` is the place as typed (or the play's)."""
    session = get_session()
    return {
        "game": game,
        "rows": rows,
        "roster": records.roster(session),
        "places": records.locations(session),
        "where": where,
        "where_field": WHERE,
        "where_max": LOCATION_MAX,
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
    """The form to start a play: players from the roster or typed new, turn order, options; with `again`, filled
    with that play's players passed to the left, their colours and its options (to change before starting)."""
    again = _play_to_play_again(request.args.get("again", ""))
    game = _tracked_game(again.game if again else request.args.get("game", "spires"))
    rows = _next_game_rows(again) if again else []
    # The empty rows offer the colours nobody has yet, in the game's order.
    free = [colour for colour in game.colours if colour not in {row.colour for row in rows}]
    rows += [SeatRow("", free[i] if i < len(free) else "") for i in range(game.max_players - len(rows))]
    options = again.options if again else {}
    where = again.location.name if again and again.location else ""
    return make_response(render_template("play/new_play.html", **_new_play_context(game, rows, options, {}, where)))


def _play_to_play_again(play_id: str) -> Play | None:
    """The play named by the new-play form's `again`, when there is one."""
    try:
        return records.get_play(get_session(), int(play_id)) if play_id else None
    except ValueError:
        return None


def _next_game_rows(play: Play) -> list[SeatRow]:
    """A play's players with their colours, as the next game seats them."""
    return passed_left([SeatRow(seat.name, seat.colour or "") for seat in play.seats])


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
    context = _new_play_context(game, rows, _options_as_typed(game), {}, _where_as_typed())
    context["first_player"] = filled[0].name if filled else None
    return page_or_fragments("play/new_play.html", ("play/_seat_rows.html",), **context)


def _where_as_typed() -> str:
    """The place as typed on the new-play form, inner spaces collapsed (kept as it is to show it again)."""
    return " ".join(request.form.get(WHERE, "").split())


def _where_error(where: str) -> str | None:
    """Why the place typed can't be kept, or None."""
    if nul_errors(where):
        return _("Remove the NUL character (\\u0000) from the place: it can't be stored.")
    if len(where) > LOCATION_MAX:
        return _(
            "A place's name is at most %(max)s characters; this one has %(length)s.",
            max=LOCATION_MAX,
            length=grouped(len(where)),
        )
    return None


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
    messages = colour_errors(game, rows, row_of_player)
    try:
        names = [player["name"] for player in raw_players]
        colours = [rows[row].colour for row in row_of_player]
        players, options = validate_start(game, names, colours, options_from_form(game, request.form))
    except InputErrors as errors:
        messages = row_errors(errors, row_of_player) | messages
        if not raw_players:
            messages = {"players": _("Type the players' names, first player first.")}
    where = _where_as_typed()
    if (where_error := _where_error(where)) is not None:
        messages = messages | {WHERE: where_error}
    if messages:
        context = _new_play_context(game, rows, _options_as_typed(game), messages, where)
        return page_or_fragments("play/new_play.html", ("play/_new_play_form.html",), status=422, **context)
    colours = [rows[row].colour for row in row_of_player]
    # A name of nothing but invisible characters names no place.
    place = where if name_key(where) else ""
    play = records.create_play(get_session(), game, players, options, colours, location=place)
    return client_redirect(url_for("plays.show_play", play_id=play.id))


def _load_play(play_id: int) -> Play:
    """The play, or 404."""
    play = records.get_play(get_session(), play_id)
    if play is None:
        abort(404, description=_("There is no such play."))
    return play


def _claim_play(play_id: int) -> Play:
    """The play, claimed for the write this request makes (records.claim_play), or 404."""
    play = records.claim_play(get_session(), play_id)
    if play is None:
        abort(404, description=_("There is no such play."))
    return play


def _tracker_context(
    play: Play, acted: records.Acted | None = None, only: set[int | str] | None = None, **more: Any
) -> dict[str, Any]:
    """What the tracker page and its fragments need: the play's standing (play/standing.py), undo, the log's news
    and the answer's own messages.

    `acted`: the action this request just saved, whose new state is scored as it is (and Undo takes it back).
    `only`: the scopes (seat ids, 'table') whose counters a tap's answer redraws; None redraws every counter.
    """
    standing = stand(play, acted)
    log = _log_context(play, standing.ctx)
    return {
        "play": play,
        "game": standing.game,
        "can_undo": acted is not None
        or _standing_action_in(log["log_news"])
        or records.last_change(get_session(), play) is not None,
        "sync_every_ms": SYNC_EVERY_MS,
        "tapped": None,
        "notice": None,
        "errors": {},
        "error_seat": None,
        "end_errors": {},
        "end_values": {},
        **log,
        **standing.tracker_parts(only),
        **more,
    }


def _standing_action_in(news: play_log.News | None) -> bool:
    """Whether the log's news holds an action not taken back: then there is one for Undo, without asking."""
    return news is not None and any(entry.action != play_log.UNDO and not entry.undone for entry in news.entries)


def _log_context(play: Play, ctx: Context | None) -> dict[str, Any]:
    """The tracker's log: for htmx from a device that said which entry it shows, only the news after it (one small
    query); for the page, no entry (the panel asks once opened). `log_newest` is the entry the device shows once
    this answer is in; `ctx` the play's live context, when its options hold."""
    after, loaded = _known_log_entry()
    saved = records.saved_change(get_session())
    if after is not None and is_fragment_request():
        # A device that was up to date before its own tap saved (no other change between) has only that one entry
        # to add: the answer adds it without reading the log.
        if saved is not None and saved_id(saved) > after and _known_version() == play.version - 1:
            news = play_log.news_of(play, saved, ctx)
        else:
            news = play_log.news_since(get_session(), play, after, ctx)
        return {"log_news": news, "log_newest": news.newest or after, "log_loaded": loaded}
    # The page (and a request that did not say, which no tracker sends): where the log stands now, its entries read
    # once the panel is opened (play_log_page).
    return {"log_news": None, "log_newest": play_log.newest_id(get_session(), play), "log_loaded": False}


@bp.get(f"/<{ID_IN_URL}:play_id>/log")
def play_log_page(play_id: int) -> Response:
    """Every entry of the play's log: into the tracker's opened panel for htmx, else as a page of its own."""
    play = _load_play(play_id)
    entries = play_log.read_log(get_session(), play)
    context: dict[str, Any] = {
        "play": play,
        "game": records.game_of(play),
        "log": entries,
        "log_newest": entries[-1].change_id if entries else 0,
    }
    return page_or_fragments("play/play_log.html", ("play/_log_body.html",), **context)


def _known_log_entry() -> tuple[int | None, bool]:
    """The newest log entry (a Change id) the device showed when it sent this request, if it said, and whether its
    panel shows the entries (opened once) or only waits."""
    return sync_check.log_position(request.values)


@bp.get(f"/<{ID_IN_URL}:play_id>")
def show_play(play_id: int) -> Response:
    """The tracker while the play is in progress, the result once it is finished."""
    play = _load_play(play_id)
    if play.status == FINISHED:
        log = play_log.read_log(get_session(), play)
        context = _result_context(play)
        return make_response(render_template("play/result.html", log=log, bgstats_url=createplay.url(play), **context))
    if play.status == ABANDONED:
        return make_response(render_template("play/abandoned.html", play=play, game=records.game_of(play)))
    return make_response(render_template("play/tracker.html", **_tracker_context(play)))


def _counter_action(path: str) -> dict[str, Any] | None:
    """The counter action a form asks for: `delta` steps the counter at `path`, `value` sets it; None for a value
    left empty (the number tapped and left as it was: nothing to do)."""
    if "delta" in request.form:
        return {"action": "add", "field": path, "delta": parse_int(request.form.get("delta"), path)}
    if not (request.form.get("value") or "").strip():
        return None
    return {"action": "set", "field": path, "value": parse_int(request.form.get("value"), path)}


def _act_on_counter(play: Play, path: str, seat: int | None) -> records.Acted | None:
    """Save a counter's tap or typed value (records.act); None when it changes nothing."""
    action = _counter_action(path)
    if action is None:
        return None
    return records.act(get_session(), play, action, seat, device_id(), strict=True, sent=sent_with(request))


def _known_version() -> int | None:
    """The play version the device showed when it sent this request (the tracker's sync field), if it said."""
    return sync_check.known_version(request.values.get(SINCE))


def _changed_scopes(play: Play, acted: records.Acted | None) -> set[int | str] | None:
    """The scopes a tap's answer redraws: those the tap changed when the device was up to date, else None (all).

    Up to date means the device showed the version just before this tap: no other device's change lies between.
    """
    known = _known_version()
    if known is None or known != play.version - (1 if acted else 0):
        return None
    parts = acted.applied.changed if acted else {}
    scopes: set[int | str] = {saved_id(play.seats[int(index)]) for index in parts.get("seats", {})}
    if "table" in parts:
        scopes.add("table")
    return scopes


def _refuse_if_finished(play: Play) -> Response | None:
    """A finished play keeps its result, and one put aside waits to be resumed: taps go to its page."""
    if play.status in (FINISHED, ABANDONED):
        return client_redirect(url_for("plays.show_play", play_id=play.id))
    return None


# A table-wide counter (the solo discard pile) is tapped at its own URL, with no seat, and answered alike.
@bp.post(f"/<{ID_IN_URL}:play_id>/table", endpoint="tap_table")
@bp.post(f"/<{ID_IN_URL}:play_id>/seats/<{ID_IN_URL}:seat_id>")
def tap_seat(play_id: int, seat_id: int | None = None) -> Response:
    """Save one tap on a player's counter; answer with its message, every live value, the scoreboard and undo."""
    play = _claim_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    seat = None if seat_id is None else records.seat_index(play, seat_id)
    if seat_id is not None and seat is None:
        abort(404, description=_("That player is not in this play."))
    path = request.form.get("field", "")
    acted, said, error = _try(lambda: _act_on_counter(play, path, seat))
    context = _tracker_context(
        play, acted, _changed_scopes(play, acted), errors={path: error} if error else {}, error_seat=seat_id
    )
    context.update(
        tapped={"scope": "table" if seat_id is None else seat_id, "field": path, "error": error}, notice=said
    )
    return _answer_tap(play, context, error)


@bp.post(f"/<{ID_IN_URL}:play_id>/actions")
def game_action(play_id: int) -> Response:
    """Save one of the game's own actions (next turn, a token handed over...); its message lands in its own slot."""
    play = _claim_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    # An empty box is a parameter not given (its default), e.g. "replaces building no." left blank.
    # Several boxes ticked under one name (a card's resources) make a list.
    raw = {
        key: values if len(values) > 1 else values[0]
        for key, values in request.form.lists()
        if key not in ("csrf_token", "slot", SINCE, LOG_AFTER, LOG_WAITING) and values != [""]
    }
    seat = None
    if raw.get("seat") not in (None, ""):
        try:
            seat = records.seat_index(play, parse_int(str(raw["seat"]), "seat"))
        except InputErrors:
            seat = None
        if seat is None:
            abort(404, description=_("That player is not in this play."))
    raw.pop("seat", None)
    acted, said, error = _try(
        lambda: records.act(get_session(), play, raw, seat, device_id(), strict=False, sent=sent_with(request))
    )
    slot = request.form.get("slot") or raw.get("action")
    tapped = {"scope": None, "field": None, "action": raw.get("action"), "slot": slot, "error": error}
    context = _tracker_context(play, acted, _changed_scopes(play, acted), tapped=tapped, notice=said)
    fragments = ("play/_action_said.html",)
    if error:
        return page_or_fragments("play/tracker.html", fragments, status=422, **context)
    return after_change(url_for("plays.show_play", play_id=play.id), fragments, **context)


@bp.errorhandler(records.NotInProgress)
def _gone_while_on_its_way(_error: records.NotInProgress) -> Response:
    """Another device finished the play (or put it aside) while this tap was on its way: show the play as it is."""
    assert request.view_args is not None  # raised only by a play's routes, each matched with its play_id
    return client_redirect(url_for("plays.show_play", play_id=request.view_args["play_id"]))


def _try(save: Callable[[], records.Acted | None]) -> tuple[records.Acted | None, str, str | None]:
    """Run an action: (it, what it said, None) when saved, (None, '', the messages) when the rules or bounds refused it.

    A retry of an action saved before (its Idempotency-Key) is answered with what it said then, and every value as
    it stands. An action on a play another device finished meanwhile is not answered here: see
    _gone_while_on_its_way.
    """
    try:
        acted = save()
    except records.AlreadySaved as retry:
        return None, records.said_by(retry.change), None
    except InputErrors as errors:
        return None, "", " ".join(dict.fromkeys(e.message for e in errors.errors))
    return acted, " ".join(acted.applied.said) if acted else "", None


def _answer_tap(play: Play, context: dict[str, Any], error: str | None) -> Response:
    """The tapped counter's message and every live value for htmx (422 when refused), else the page or a redirect."""
    fragments = ("play/_counter_tapped.html",)
    if error:
        return page_or_fragments("play/tracker.html", fragments, status=422, **context)
    return after_change(url_for("plays.show_play", play_id=play.id), fragments, **context)


@bp.post(f"/<{ID_IN_URL}:play_id>/undo")
def undo(play_id: int) -> Response:
    """Take back the newest action whole; answer with every live value, since any seat may change."""
    play = _claim_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    try:
        undone = records.undo_last(get_session(), play, device_id(), sent_with(request))
    except records.AlreadySaved as retry:
        notice = records.said_by(retry.change)
    except InputErrors as refused:
        notice = " ".join(e.message for e in refused.errors)
    else:
        notice = records.undo_text(play, undone) if undone else _("Nothing left to take back.")
    return after_change(
        url_for("plays.show_play", play_id=play.id), ("play/_live.html",), **_tracker_context(play, notice=notice)
    )


@bp.get(f"/<{ID_IN_URL}:play_id>/join")
def join(play_id: int) -> Response:
    """A QR code of the play's address on the table's network, so another phone joins in one scan."""
    play = _load_play(play_id)
    page_url = url_for("plays.show_play", play_id=play.id, _external=True)
    panel = join_panel(page_url)
    return page_or_fragments("play/join.html", ("play/_join.html",), play=play, game=records.game_of(play), **panel)


@bp.get(f"/<{ID_IN_URL}:play_id>/live")
def live(play_id: int) -> Response:
    """The tracker's sync check: an empty 200 when the play is as the device shows it (one small query; mostly
    answered before the app by companion/play/sync_check.py), else every counter's saved value, the scoreboard, the
    game's live pieces and the log's new entries, with the version they show; what the new entries said to the table
    (an undo, the end begun) is said in the notice. That answer is drawn once per version and log position and
    copied to every device that asks the same in the same language (play/shared_answers.py)."""
    answers = shared_answers(current_app._get_current_object())  # type: ignore[attr-defined]
    if is_fragment_request():
        saved = _saved_version(play_id)
        if saved is not None and saved[1] == IN_PROGRESS:
            if saved[0] == _known_version():
                return make_response("", 200)
            key = (play_id, saved[0], *_known_log_entry(), current_language())
            if (kept := answers.get(key)) is not None:
                return kept
            with answers.drawing(key) as first:
                if not first and (kept := answers.get(key)) is not None:
                    return kept
                return _draw_live(play_id, answers)
    return _draw_live(play_id, answers)


def _draw_live(play_id: int, answers: SharedAnswers) -> Response:
    """The sync check's answer drawn from the play as saved (kept in `answers` for the other devices that ask the
    same)."""
    play = _load_play(play_id)
    if (finished := _refuse_if_finished(play)) is not None:
        return finished
    context = _tracker_context(play)
    # What another device's actions said to the table (the end begun, a first-to-level token, an undo's "Took
    # back: ...") is said here as on the device that made them; a plain tap said nothing and leaves the notice be.
    if context["log_news"] is not None and (said := play_log.news_said(context["log_news"])):
        context["notice"] = said
    response = page_or_fragments("play/tracker.html", ("play/_live.html",), **context)
    if is_fragment_request() and play.status == IN_PROGRESS:
        answers.keep((play_id, play.version, *_known_log_entry(), current_language()), response)
    return response


def _saved_version(play_id: int) -> tuple[int, str] | None:
    """The play's version and status: as the check in front of the app read them for this request, else asked."""
    read = request.environ.get(sync_check.READ_VERSION)
    if read is not None and read[0] == play_id:
        return cast(tuple[int, str] | None, read[1])
    return play_version.play_version(get_session().connection(), play_id)


def _end_counts(play: Play) -> tuple[list[tuple[int, dict[str, int]]], dict[str, str]]:
    """The counts typed on the finish form ('end-<seat id>-<field>'), and a message per box that isn't a number."""
    counts: list[tuple[int, dict[str, int]]] = []
    errors: dict[str, str] = {}
    for index, seat in enumerate(play.seats):
        values = {}
        for field in records.game_of(play).live.end_fields:
            name = f"end-{seat.id}-{field}"
            if name not in request.form:
                continue
            try:
                values[field] = parse_int(request.form.get(name), name)
            except InputErrors as bad:
                errors[name] = bad.errors[0].message
        counts.append((index, values))
    return counts, errors


@bp.post(f"/<{ID_IN_URL}:play_id>/finish")
def finish(play_id: int) -> Response:
    """Save the counts entered at the end, score the play by the official rules, store the result and show it."""
    play = _load_play(play_id)
    if play.status == FINISHED:
        return client_redirect(url_for("plays.show_play", play_id=play.id))
    counts, end_errors = _end_counts(play)
    if not end_errors:
        try:
            records.finish_play(get_session(), play, counts, device_id())
        except InputErrors as refused:
            end_errors = _finish_messages(play, refused)
    if end_errors:
        context = _tracker_context(play, end_errors=end_errors, end_values=request.form)
        fragments = ("play/_finish_form.html", "play/_live.html")
        return page_or_fragments("play/tracker.html", fragments, status=422, **context)
    return client_redirect(url_for("plays.show_play", play_id=play.id))


def _finish_messages(play: Play, refused: InputErrors) -> dict[str, str]:
    """Finish refusals beside the finish form's boxes ('players[1].vp_cards' -> 'end-<seat id>-vp_cards')."""
    messages: dict[str, str] = {}
    end_fields = records.game_of(play).live.end_fields
    for error in refused.errors:
        index, _, field = error.field.removeprefix("players[").partition("].")
        if field in end_fields and index.isdigit() and int(index) < len(play.seats):
            messages.setdefault(f"end-{play.seats[int(index)].id}-{field}", error.message)
        else:
            messages.setdefault("", error.message)
    return messages


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
    """What the result page and the score sheet need: Play again's fields (at the same place), where and how long
    it was played and what an imported play is marked with."""
    game = records.game_of(play)
    rows = _next_game_rows(play)
    again = new_play_fields(game, rows, play.options)
    if play.location is not None:
        again.append((WHERE, play.location.name))
    return {
        "play": play,
        "game": game,
        "result": records.worded_result(play),
        "seats": play.seats,
        "again": again,
        "again_first": rows[0].name if rows else "",
        "marks": facts.marks(play),
        "story": _story(play),
    }


def _story(play: Play) -> story_view.StoryView | None:
    """The story of a tracked play, as the result page and the sheet draw it; None for a play with no log."""
    told = story.read_story(get_session(), play)
    return story_view.story_view(told) if told is not None else None


@bp.get(f"/<{ID_IN_URL}:play_id>/sheet.pdf")
def score_sheet(play_id: int) -> Response:
    """The finished play as a printable score sheet, laid out like a score pad (A4 or Letter: PAPER_SIZE).

    A finished play's sheet never changes: rendered once, it comes from the app's PDF cache (keyed by its HTML,
    so a sheet that does change is rendered again), and a device that has it gets 304 for its ETag. The database
    connection goes back to the pool before WeasyPrint works (render_pdf closes the session).
    """
    play = _load_play(play_id)
    if play.status != FINISHED:
        abort(404, description=_("The score sheet exists once the play is finished."))
    filename = f"{play.game}-{play.id}.pdf"
    response = make_response(render_pdf("printing/sheet.html", cache=True, **_result_context(play)))
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.add_etag()
    response.make_conditional(request)  # answers 304 in place when the device's copy is current
    return response
