"""Blueprint for the end-game calculator: type every player's final counts, see the explained result, save it.

The form is drawn from the game's input schema (calculator.forms.player_inputs / option_inputs), so any registered game
gets a calculator without a template of its own. Views read the form, call the game, save, render.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from companion.calculator.forms import (
    CalculatorEntry,
    calculator_messages,
    form_context,
    read_calculator,
    read_details,
    tappable_list,
    valid_options,
    validate_entry,
)
from companion.calculator.line_entry import built_line, line_items, part_name, stepper_start, with_line, without_line
from companion.games import GAMES, get_game
from companion.games.base import Game, InputErrors
from companion.language import _
from companion.store import records
from companion.store.db import get_session
from companion.web.htmx import client_redirect, page_or_fragments

bp = Blueprint("calculator", __name__, url_prefix="/calculator")
# A list filled by taps (calculator.forms.LineSpec.tappable) reads its own text back into cards, on any page.
for helper in (line_items, part_name, stepper_start):
    bp.add_app_template_global(helper)

PAGE = "calculator/page.html"
BODY = ("calculator/_body.html",)
LINE_FIELD = ("calculator/_line_field.html",)


def _game(game_id: str) -> Game:
    """The game, or the 404 page."""
    game = get_game(game_id)
    if game is None:
        abort(404, description=_("There is no calculator for that game."))
    return game


def _page_context(
    game: Game,
    values: MultiDict[str, str],
    options: Any,
    *,
    submitted: bool,
    errors: dict[str, str] | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the calculator page and its fragment need."""
    return {**form_context(game, values, errors or {}, options), "submitted": submitted, "result": result}


def _refused(game: Game, entry: CalculatorEntry, errors: InputErrors) -> Response:
    """The form again with every message beside its field and everything typed kept: 422."""
    context = _page_context(
        game,
        request.form,
        # The reference notes need options: the typed ones when they are valid, else the defaults.
        valid_options(game, entry.options) or game.options_model(),
        submitted=True,
        errors=calculator_messages(game, entry, errors),
    )
    return page_or_fragments(PAGE, BODY, status=422, **context)


@bp.get("/")
def index() -> Response:
    """Pick the game to score."""
    return make_response(render_template("calculator/index.html", games=GAMES.values()))


@bp.get("/<game_id>")
def form(game_id: str) -> Response:
    """The empty calculator form: a card per possible player, the options and the reference notes."""
    game = _game(game_id)
    context = _page_context(game, MultiDict(), game.options_model(), submitted=False)
    return make_response(render_template(PAGE, **context))


@bp.post("/<game_id>")
def calculate(game_id: str) -> Response:
    """Score the typed counts by the official rules; show the explained result below the form."""
    game = _game(game_id)
    entry = read_calculator(game, request.form)
    try:
        players, options = validate_entry(game, entry)
    except InputErrors as errors:
        return _refused(game, entry, errors)
    result = game.score(players, options).to_dict()
    context = _page_context(game, request.form, options, submitted=True, result=result)
    return page_or_fragments(PAGE, BODY, **context)


@bp.post("/<game_id>/line")
def tap_line(game_id: str) -> Response:
    """Add the line a list's chips and stepper make (or take line `remove` out); answer the list, nothing saved."""
    game = _game(game_id)
    name = request.form.get("line", "")
    found = tappable_list(game, name)
    if found is None:
        abort(404, description=_("That list can't be filled by taps."))
    field, row = found
    assert field.line is not None  # tappable_list finds only a list with a line's spec
    values = MultiDict(request.form)
    text = values.get(name, "")
    errors: dict[str, str] = {}
    if "remove" in values:
        try:
            values[name] = without_line(text, int(values["remove"]))
        except ValueError:
            abort(400, description=_("Which line should be taken out?"))
    else:
        try:
            values[name] = with_line(text, built_line(field, values, name))
            # The next card keeps its terrain and VP; its resources are tapped afresh.
            for part in field.line.word_lists:
                values.poplist(part_name(name, part))
        except InputErrors as refused:
            errors = {e.field: e.message for e in refused.errors}
    context = _page_context(game, values, game.options_model(), submitted=True, errors=errors)
    return page_or_fragments(PAGE, LINE_FIELD, status=422 if errors else 200, field=field, row=row, **context)


@bp.post("/<game_id>/save")
def save(game_id: str) -> Response:
    """Score the same form again and save it as a finished play, then go to its result page."""
    game = _game(game_id)
    entry = read_calculator(game, request.form)
    details = read_details(request.form, entry)
    try:
        players, options = validate_entry(game, entry)
    except InputErrors as errors:
        return _refused(game, entry, errors)
    result = game.score(players, options)
    session = get_session()
    play = records.create_play(
        session,
        game,
        players,
        options,
        finished=result,
        source="calculator",
        notes=details.notes,
        location=details.location,
        duration_min=details.duration_min,
    )
    return client_redirect(url_for("plays.show_play", play_id=play.id))
