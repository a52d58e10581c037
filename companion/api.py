"""Blueprint for the JSON API under /api/v1: score a finished game, save it, or track it live, action by action.

The contract (stable: other tools and our own tests depend on it; it only ever grows):

- POST /api/v1/score/<game> with {"players": [...], "options": {...}} (players in turn order, first player
  first; options optional) answers 200 with Result.to_dict(): {"game", "players": [{"name", "total", "rank",
  "breakdown": [{"key", "label", "points", "why"}]}], "winners", "tiebreak", "winners_text"} plus any game extras
  (Spires solo: "appraisal", "appraisal_text"), players in request order. "winners_text" is the winners' sentence
  exactly as the result page and the score sheet say it ("Ann wins with 42 VP.", "Ann and Bob share the victory
  with 40 VP.", one player alone "Ann scores 42 VP."); every "result" and "live" answer below has it too.
- POST /api/v1/plays with {"game", "players", "options"?, "played_at"?, "notes"?, "location"?, "duration_min"?}
  scores and saves a finished play and answers 201 with {"id", "url", "result"} and a Location header. `url` and
  Location are site-relative ("/plays/7"), so they stay right behind any proxy or LAN address; join them to the
  address you called. played_at is ISO-8601 (a date, or a date and time); it is stored in UTC, and a time
  without an offset is taken as UTC. "location" is where it was played, text of at most 60 characters: the
  group's place of that name however it is capitalised or spaced (added when new; "" or spaces only: no place).
  "duration_min" is the minutes at the table, a whole number from 1 to 1440. Both may be left out or null; a
  location that is not text or is longer, or a duration_min out of range or not a whole number, answers 422 on
  that field.
- POST /api/v1/plays with "track": true starts a play to track live instead (games with a tracker: spires, spqf,
  spyrium, speros; speros needs each player's colour):
  players are [{"name", "colour"?}] in turn order, first player first (colour one of the game's, distinct, or
  left out); "options" as for the game; "played_at", "notes" and "location" as above ("duration_min" is refused
  with 422 on that field: a tracked play's minutes are counted from its start to its finish). Answers 201 with
  the play view (below) and a Location header.
- GET /api/v1/plays/<id> answers the play view: {"id", "url", "game", "status" ("in_progress", "finished" or
  "abandoned": put aside, resumable on the page), "source", "rules_version", "played_at" (ISO, UTC), "notes" (the
  play's own notes, text), "location" (the name of the place it was played, as the group first wrote it, or null),
  "duration_min" (whole minutes at the table, or null when unknown: for a play tracked live, the minutes from its
  start to its finish, the time it was put aside left out, 0 for under a minute, null until finished; for a play
  scored at the end, the minutes given when it was saved), "players" (each {"name", "colour" (when the player has
  one), ...state}: the player's input as validated, defaults filled in, or for a tracked play their live state, which
  holds at least the game's scoring input under the same names), "options" (as chosen at the start; once a tracked
  play is finished, as scored: a Spires solo discard pile as counted at the table), "table" (the table-wide live
  state, e.g. SPQF's {"turn", "first": {level: {"seat", "turn"}}, "reached": {level: {seat: turn}} (present once
  someone has expanded: the turn each player reached each level on), "last_card", "end_round"}, where a "seat" is a
  player's index in "players" and the active player is players[(turn - 1) % count]; Spyrium's {"turn"}, 0 before the
  first; Speros' {"turn", "cards", "next_card", "last_drawn" (the turn it was drawn, or null), "mastery": [{"name",
  "vp", "leaders"}], "ended" (why the game is over: a turn started with an empty Base Camp, or the final turns after
  the last Location card were played; null while it goes on)}; {} when there is none), and for a play in progress a
  seat may carry read-only facts worked out from its state, never stored (Spyrium's "residence_value": the value
  printed on the Residence space the token is on), "live" (the score answer as the game stands now, null once finished
  or while it can't be scored), "tracker_notes" ([{"text", "warning"}]: what the tracker says beside the live score),
  "end" ({"triggered": bool, "why": text or null}: whether the game's end has begun), "result" (the score answer, null
  until finished), "time" (null until finished: then {"minutes": "duration_min" again, "players": [{"name", "turns",
  "average_seconds", "longest_seconds"}]}, each player's turns timed from the tracker's turn passes, in turn order, a
  player with no timed turn left out; [] for a game without turns passed seat to seat (Spires, Spyrium), a play where
  nobody passed the turn on the tracker, or one scored at the end; a turn leaves out the time the play was put aside
  during it), "story" (null until finished, and for a play with no action in its log (scored at the end, imported,
  or tracked without a tap): then the score race the result page draws, [{"seq", "said", "totals": [{"name",
  "total"}]}], one entry per action still standing in the log's order, "seq" the entry's number in the log (as in
  /log), "said" the action's words, "totals" each player's score right after it, in turn order ("total" null where
  the table could not be scored then); it stops before an action today's rules can't replay; the final scores are
  "result"), "bgstats_url" (null until finished: then BG Stats' createPlay link, which adds the play to the BG
  Stats app in one tap; see data/createplay.py), "deleted_at" (ISO, UTC, when the play was deleted from the
  history: it is restorable on its page for 30 days, then gone; null for a play in the history)}.
- POST /api/v1/plays/<id>/actions with {"action": name, "player": name or null, ...parameters} applies one game action
  to a play in progress, exactly as a tap on the tracker page does (same rules, same records path, one undo step).
  Every tracker has {"action": "add", "player", "field", "delta"} and {"action": "set", "player", "field", "value"}
  ("player": null or left out for table-wide counters such as Spires' solo "discard.crowns"). SPQF adds {"action":
  "next_turn"}, {"action": "last_card", "placed": bool} and {"action": "first_token", "player", "level"} (hand a
  level's first-player token to the player who really was first). Spyrium adds {"action": "start_turn"} (every
  player's Residence income paid), {"action": "bonus", "player", "choice": "worker" or "money"} (the 8 VP choice; at
  20 VP the other bonus comes by itself), {"action": "build", "player", "vp", "cost"?, "replace"?, "matching"?} (the
  printed VP and cost; the building space's price is worked out and paid, none when it replaces building number
  "replace"; "matching": true takes £3 off the card's cost, for a replacement only), {"action": "technique", "player",
  "beside"?} (a new technique paying £6, and £1 for each of "beside" workers beside its card, default 0; the older
  "vp" gives its end VP, and "number" sets the end VP of that technique, as technique_vp does), {"action":
  "technique_vp", "player", "number", "vp"} (a technique's end VP, 0-7), {"action": "pay", "player", "amount"} (an
  amount of 1 or more paid at once; 422 on "amount" when the player has less) and {"action": "residence_vp", "player"}
  (a Residence action scoring the value printed on the token's space as score-track VP; the 8 and 20 VP bonuses follow
  as for any VP); "build" also takes "replace" as text, "<n>" or "<n> matching" (replace building n; "matching" after
  it: its icon matches, −£3, the same as "replace": n, "matching": true; text that names no building, or "<n>
  matching" beside "matching": false, answers 422 on "replace"), and "vp" and "cost" as lists, of which the last value
  given counts (as the page's chips and boxes send them); its counters are "vp_track", "money", "workers" (at most 7),
  "spyrium" and "residence" (space 1 to 6; see "residence_value"). Conquest of Speros adds {"action": "explore",
  "player"? (who explores: deploys a Minion unless the Location is of their colour), "terrain", "encampments" (an
  Artifact's may be left out, or must be 5), "vp", "resources": [...] (at least one), "end_turn"?: bool (default
  false; true makes the exploring the turn's action: for the player whose turn it is only, refused with 422 on
  "player" from any other player, as attack and lead are; with no player, a card of the setup or an ability, it
  changes nothing)}, {"action": "deploy" | "remove", "player", "card", "kind": "minion" | "general"} (units placed or
  taken away by abilities, at any time), {"action": "attack", "player", "card"} (the turn's action of the player whose
  turn it is: one Minion onto the card) and {"action": "lead", "player", "card", "minion"?: bool (default true)} (the
  General, and a Minion where an encampment and a Minion are left), {"action": "move", "player", "card", "to",
  "kind"}, {"action": "capture", "player", "card"} (refused unless the rules give that player the card), {"action":
  "next_turn"}, {"action": "last_drawn", "drawn": bool} and {"action": "mastery", "number", "vp", "leaders": [names]};
  its counters are "bonus_1" to "bonus_3" (what each Bonus Objective would score; the best counts). Cards are numbered
  from 1 in the table's "cards" (each {"id", "terrain", "encampments", "vp", "resources", "units": [[seat, kind], ...]
  in the order placed, "captured_by": seat or null, "locked"?}). A turn's action (attack, lead, explore with end_turn)
  passes the turn to the next player, unless it lets someone capture that card: then the turn waits (the table's
  "acted": {"turn", "card"}, absent otherwise) until the capture, or next_turn, passes it; a second action in one
  turn, or one out of turn, is refused. Answers 200 with the play view plus "said" (what the action caused, sentences
  for the table), 422 with nothing changed when the rules or bounds refuse it, 409 when the play is finished or put
  aside. An action that changes nothing (the same value set again) answers 200 with "said": [] and is no step for
  undo.
- POST /api/v1/plays/<id>/undo takes back the newest action whole, with everything it caused: 200 with the play
  view plus "undone" ({"action", "text", "said"} of the action taken back), 409 when nothing is left to undo or
  the play is not in progress.
- GET /api/v1/plays/<id>/log answers the play's log, the same as the tracker's *What happened* and the result
  page's: {"log": [{"seq", "at", "player", "action", "said", "undone", "undoes"}]}, in the order the actions were
  saved, seq 1, 2, ... ; "at" ISO-8601 in UTC; "player" the name of the seat the action was for, as played, or
  null for an action of the whole table; "action" the action's name as POSTed to /actions ("add", "set",
  "next_turn", "build", "explore", ...; "set" too for a tap saved before actions existed); "said" the sentence the
  table hears (what it did and what it caused, "Ann, VP tokens +1 (Ann is first to level 3: +1 VP token)");
  "undone" true for an action Undo took back. Every Undo is an entry of its own: "action": "undo", "player" null,
  "said" "Took back: ...", "undoes" the seq of the entry it took back (null on every other entry), "undone"
  false. Works for a play in progress, finished or put aside (a play scored at the end has an empty log); 404
  for no such play.
- GET /api/v1/games/<game>/ladder answers the game's ladder: {"game", "players": [{"name", "rating", "plays",
  "rank"}]}, best first: "rating" openskill's Plackett-Luce ordinal (mu − 3σ, one decimal; a new player is 0)
  from every finished multiplayer play of the game in date order (deleted, ignored and solo plays left out, and
  plays whose ranks are not all known), players sharing a rank as ties, recomputed whenever a play is finished,
  corrected, deleted, restored or imported; "plays" the plays rated; "rank" from 1, equal ratings sharing one.
  Guests have no place on it. {"players": []} before any such play; 404 for an unknown game.
- POST /api/v1/plays/<id>/finish (with {}, or no body, sent as application/json) scores the play as it stands by the
  official rules and keeps the result: 200 with the play view, "result" filled in; 422 when the state can't be
  scored; 409 when the play is already finished or put aside.
- POST /api/v1/rules/speros/capture with {"encampments": 4, "placements": ["Red", "Green", "Green"]} (the units
  on one Conquest of Speros Location or Artifact, in the order they were placed, by player) decides the capture by
  the rule text: {"captured_by": "Red" or null, "how": "achieve", "demonstrate" or null, "why": "..."}. More
  placements than encampments, or fewer than 1 encampment (or more than 12), answers 422 in the usual shape.
- Sent once, whatever the network does: POST /api/v1/plays/<id>/actions and /undo take an `Idempotency-Key: <id>`
  header (1 to 64 visible ASCII characters, a uuid say; the tracker page sends one with every tap). The same key
  sent again for the same play, after an answer that never arrived, applies nothing: it answers 200 with the play
  view as it stands and what the first request said ("said", or "undone"), and the header `Idempotent-Replayed:
  true`. An action the rules refused is not kept, so its key may be sent again and is checked again. An action
  made earlier than it is sent (kept by a program while offline) may say how long ago with `Companion-Action-Age:
  <milliseconds>`: the log (and turn times, the score race) date it then, by the server's clock, never before the
  play's newest action and never in the future. A malformed header answers 422 naming it.
- Access: when the server sets COMPANION_ACCESS_CODE, send it on every request as `Authorization: Bearer <code>`;
  without it or wrong: 401 {"errors": [{"field": "", "message"}]} with a WWW-Authenticate: Bearer header. After
  5 wrong codes in a minute from one address, 429 with Retry-After (even for the right code) until the minute is
  over; after 20 wrong codes in a minute from all addresses together, every address that has not given the right
  code before answers 429 the same way. A body over 512 KiB answers 413, a Host outside TRUSTED_HOSTS 400, both in
  the errors shape.
- Errors answer {"errors": [{"field": "players[1].towers.red", "message": "..."}]}: 422 for bad input (field ""
  for the body as a whole, e.g. malformed JSON), 404 for an unknown game or play, 409 for an action on a play
  that is not in progress, 415 for any POST (or PUT, PATCH, DELETE) not sent with Content-Type: application/json,
  with a body or without, before anything else runs (so undo and finish take {}), and 403 for a request a browser
  marks as made by another website (Sec-Fetch-Site: cross-site, or an Origin other than this server's or
  PUBLIC_URL's; programs that send neither header are not affected). The API is exempt from CSRF (security.py)
  because of these two rules.
- Languages: the words meant for a person (every "message", a breakdown's "label" and "why", "winners_text",
  "said", "text", "why", "tracker_notes") are in the language the request's Accept-Language prefers among English,
  French and German (`Accept-Language: de`), else the server's LANGUAGE setting, else English; field names, keys,
  codes, game terms printed on the components and player names stay as they are. A play's log keeps what each
  action said in the language of the device that made it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from flask import Blueprint, Response, jsonify, make_response, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from companion.data import createplay
from companion.games import GAMES, get_game, speros
from companion.games.base import (
    FieldError,
    Game,
    InputErrors,
    PlayerName,
    Result,
    nul_errors,
    validation_errors,
    winners_sentence,
)
from companion.games.live import validate_start
from companion.games.wording import plural, utc
from companion.language import N_, _
from companion.play import story
from companion.play.standing import stand
from companion.stats import views as stats_views
from companion.store import play_log, records, statistics
from companion.store.db import get_session
from companion.store.models import (
    DURATION_MAX,
    FINISHED,
    ID_IN_URL,
    IN_PROGRESS,
    LOCATION_MAX,
    NOTES_MAX,
    Change,
    Play,
)
from companion.web.errors import json_errors
from companion.web.sent import sent_with

# The device a Change names when the API made it.
API_DEVICE = "api"
# Said on the answer to an action sent again with the Idempotency-Key of one already saved.
REPLAYED = "Idempotent-Replayed"

bp = Blueprint("api", __name__, url_prefix="/api/v1")

JSON = "application/json"
# A tracked play's minutes are the tracker's to count, so a start that gives them is refused rather than ignored.
TRACKED_MINUTES = N_("A tracked play's minutes are counted from its start to its finish: leave duration_min out.")
Envelope = TypeVar("Envelope", bound=BaseModel)


class ApiRefusal(Exception):
    """A request the API refuses with an HTTP error status (404, 409, 415, 422) and field messages."""

    def __init__(self, status: int, errors: list[FieldError]):
        """Keep the status to answer with and the field errors."""
        super().__init__(status, errors)
        self.status = status
        self.errors = errors


class ScoreRequest(BaseModel):
    """The body of POST /score/<game>: the game's raw input; the game itself validates what is inside."""

    model_config = ConfigDict(extra="forbid", strict=True)

    players: list[Any]
    options: dict[str, Any] | None = None


class PlayRequest(ScoreRequest):
    """The body of POST /plays: a game's raw input plus the play's date and notes; or players to track live."""

    game: str
    track: bool = False
    played_at: datetime | None = None
    notes: str | None = Field(None, max_length=NOTES_MAX)
    location: str | None = Field(None, max_length=LOCATION_MAX)
    duration_min: int | None = Field(None, ge=1, le=DURATION_MAX)

    @field_validator("played_at", mode="before")
    @classmethod
    def _iso_8601(cls, value: Any) -> datetime | None:
        """ISO-8601 text only: pydantic alone would also take a number of seconds, which nobody means."""
        if value is None:
            return None
        if isinstance(value, str):
            try:
                when = datetime.fromisoformat(value)
                return utc(when)
            except (ValueError, OverflowError):  # OverflowError: year 1 with an offset east of UTC
                pass
        raise ValueError(_("Give an ISO-8601 date or date and time, e.g. 2024-05-01T20:30:00+02:00."))

    @field_validator("duration_min")
    @classmethod
    def _finished_only(cls, minutes: int | None, info: ValidationInfo) -> int | None:
        """Minutes are given for a play scored at the end; a tracked play's are counted from its start to its finish."""
        # info.data holds "track" (declared before), so this comes with every other refusal of the body.
        if minutes is not None and info.data.get("track"):
            raise ValueError(_(TRACKED_MINUTES))
        return minutes


class TrackedPlayer(BaseModel):
    """A player of a play to track: a name and, if the group uses them, a colour."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PlayerName
    colour: str = ""


class ActionRequest(BaseModel):
    """The body of POST /plays/<id>/actions: an action's name, its player, and its own parameters."""

    model_config = ConfigDict(extra="allow", strict=True)

    action: str
    player: str | None = None


class CaptureRequest(BaseModel):
    """The body of POST /rules/speros/capture: one card's encampments and its units, by player, as placed."""

    model_config = ConfigDict(extra="forbid", strict=True)

    encampments: int = Field(ge=1, le=speros.ENCAMPMENTS_MAX)
    placements: list[PlayerName]

    @field_validator("placements")
    @classmethod
    def _room_for_every_unit(cls, placements: list[str], info: ValidationInfo) -> list[str]:
        """A card holds one unit per encampment."""
        encampments = info.data.get("encampments")
        if encampments is not None and len(placements) > encampments:
            raise ValueError(
                f"{plural(len(placements), 'unit')} on {plural(encampments, 'encampment')}: a card holds one unit "
                "per encampment."
            )
        return placements


class FinishRequest(BaseModel):
    """The body of POST /plays/<id>/finish: nothing (the counts are set by actions before)."""

    model_config = ConfigDict(extra="forbid", strict=True)


@bp.errorhandler(records.NotInProgress)
def _not_in_progress(error: records.NotInProgress) -> Response:
    """An action on a play that is finished or put aside: 409."""
    return json_errors(409, str(error))


@bp.errorhandler(ApiRefusal)
def _refused(error: ApiRefusal) -> Response:
    """The errors shape with the refusal's status."""
    return json_errors(error.status, error.errors)


@bp.errorhandler(InputErrors)
def _invalid(error: InputErrors) -> Response:
    """Input the game can't score: 422 with a message per field."""
    return json_errors(422, error.errors)


def _body(model: type[Envelope]) -> Envelope:
    """The JSON body validated into the envelope model, or ApiRefusal (415 not JSON, 422 malformed or invalid)."""
    if request.mimetype != JSON:
        raise ApiRefusal(415, [FieldError("", _("Send the body as %(type)s.", type=JSON))])
    try:
        body = model.model_validate_json(request.get_data())
    except ValidationError as exc:
        raise ApiRefusal(422, validation_errors(exc)) from None
    if errors := nul_errors(body.model_dump()):
        raise ApiRefusal(422, errors)
    return body


def _game(game_id: str) -> Game:
    """The registered game, or ApiRefusal 404 naming the games there are."""
    game = get_game(game_id)
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise ApiRefusal(
            404, [FieldError("game", _("Unknown game %(game)r; the games are %(known)s.", game=game_id, known=known))]
        )
    return game


def _score(game: Game, body: ScoreRequest) -> tuple[list[Any], Any, Result]:
    """Validate the players and options through the game and score them (InputErrors when refused)."""
    players, options = game.validate(body.players, body.options)
    return players, options, game.score(players, options)


def _play_url(play: Play) -> str:
    """The play's page, site-relative."""
    return url_for("plays.show_play", play_id=play.id)


@bp.post("/score/<game_id>")
def score(game_id: str) -> Response:
    """Score a finished game by the official rules without saving it."""
    game = _game(game_id)
    _players, _options, result = _score(game, _body(ScoreRequest))
    return jsonify(result.to_dict())


@bp.post("/plays")
def create_play() -> Response:
    """Score a finished game and save it to the history as a finished play."""
    body = _body(PlayRequest)
    game = _game(body.game)
    if body.track:
        return _start_tracked_play(game, body)
    players, options, result = _score(game, body)
    play = records.create_play(
        get_session(),
        game,
        players,
        options,
        finished=result,
        source="api",
        played_at=body.played_at,
        notes=body.notes or "",
        location=body.location or "",
        duration_min=body.duration_min,
    )
    response = make_response(jsonify(id=play.id, url=_play_url(play), result=result.to_dict()), 201)
    response.headers["Location"] = _play_url(play)
    return response


@bp.get(f"/plays/<{ID_IN_URL}:play_id>")
def show_play(play_id: int) -> Response:
    """A saved play: its inputs or live state, its live score or result, when it was played and its notes."""
    return jsonify(_play_view(_load_play(play_id)))


def _start_tracked_play(game: Game, body: PlayRequest) -> Response:
    """Start a play to track live: names, colours and options checked as the new-play form checks them."""
    seats, errors = [], []
    for index, raw in enumerate(body.players):
        try:
            seats.append(TrackedPlayer.model_validate(raw))
        except ValidationError as exc:
            errors += validation_errors(exc, f"players[{index}]")
    if errors:
        raise InputErrors(errors)
    colour_errors = game.colour_errors([seat.colour for seat in seats])
    try:
        players, options = validate_start(
            game, [seat.name for seat in seats], [seat.colour for seat in seats], body.options
        )
    except InputErrors as refused:
        # A game that checks colours itself (Speros) has said so already for those players.
        said = {e.field for e in refused.errors}
        raise InputErrors(refused.errors + [e for e in colour_errors if e.field not in said]) from None
    if colour_errors:
        raise InputErrors(colour_errors)
    play = records.create_play(
        get_session(),
        game,
        players,
        options,
        [seat.colour for seat in seats],
        source="api",
        played_at=body.played_at,
        notes=body.notes or "",
        location=body.location or "",
    )
    response = make_response(jsonify(_play_view(play)), 201)
    response.headers["Location"] = _play_url(play)
    return response


def _play_view(play: Play, acted: records.Acted | None = None, **more: Any) -> dict[str, Any]:
    """A play as the API shows it: its inputs or live state, the live score, notes and end (play/standing.py; after
    `acted`, the action just saved, its new state as it is), and the result."""
    standing = stand(play, acted).api_parts()
    return {
        "id": play.id,
        "url": _play_url(play),
        "game": play.game,
        "status": play.status,
        "source": play.source,
        "rules_version": play.rules_version,
        "played_at": utc(play.played_at).isoformat(),
        "notes": play.notes,
        "location": play.location.name if play.location else None,
        "duration_min": play.duration_min,
        "players": [
            {"name": seat.name, **({"colour": seat.colour} if seat.colour else {}), **seat.state, **seat_facts}
            for seat, seat_facts in zip(play.seats, standing.pop("facts"), strict=True)
        ],
        "options": play.options,
        "table": play.extra.get(records.TABLE, {}),
        **standing,
        "result": _stored_result(play) if play.status == FINISHED else None,
        "time": story.play_time(get_session(), play),
        "story": story.play_story(get_session(), play),
        "bgstats_url": createplay.url(play),
        "deleted_at": utc(play.deleted_at).isoformat() if play.deleted_at else None,
        **more,
    }


def _stored_result(play: Play) -> dict[str, Any]:
    """A finished play's result with the winners' sentence, made from the stored ranks as the result page makes it."""
    result = records.worded_result(play)
    return {**result, "winners_text": winners_sentence(result)}


def _load_play(play_id: int) -> Play:
    """The play, or ApiRefusal 404."""
    play = records.get_play(get_session(), play_id)
    if play is None:
        raise ApiRefusal(404, [FieldError("id", _("There is no play %(id)s.", id=play_id))])
    return play


def _claim_play(play_id: int) -> Play:
    """The play, claimed for the write this request makes (records.claim_play), or ApiRefusal 404."""
    play = records.claim_play(get_session(), play_id)
    if play is None:
        raise ApiRefusal(404, [FieldError("id", _("There is no play %(id)s.", id=play_id))])
    return play


def _refuse_unless_in_progress(play: Play) -> None:
    """409 for a play that is finished or put aside."""
    if play.status != IN_PROGRESS:
        if play.status == FINISHED:
            raise ApiRefusal(409, [FieldError("", _("This play is finished."))])
        raise ApiRefusal(409, [FieldError("", _("This play is put aside (resume it on its page first)."))])


@bp.post(f"/plays/<{ID_IN_URL}:play_id>/actions")
def play_action(play_id: int) -> Response:
    """Apply one game action to a play in progress, as a tap on the tracker does."""
    play = _claim_play(play_id)
    body = _body(ActionRequest)
    _refuse_unless_in_progress(play)
    seat = records.seat_named(play, body.player) if body.player is not None else None
    raw = {key: value for key, value in body.model_dump().items() if key != "player"}
    try:
        acted = records.act(get_session(), play, raw, seat, API_DEVICE, strict=True, sent=sent_with(request))
    except records.AlreadySaved as retry:
        return _replayed(_play_view(play, said=list(retry.change.new.get("said") or [])))
    return jsonify(_play_view(play, acted, said=list(acted.applied.said) if acted else []))


def _replayed(view: dict[str, Any]) -> Response:
    """The answer to an action sent again with the Idempotency-Key of one saved before: nothing applied again."""
    response = jsonify(view)
    response.headers[REPLAYED] = "true"
    return response


@bp.post(f"/plays/<{ID_IN_URL}:play_id>/undo")
def play_undo(play_id: int) -> Response:
    """Take back the newest action of a play in progress, with everything it caused."""
    play = _claim_play(play_id)
    _refuse_unless_in_progress(play)
    try:
        change = records.undo_last(get_session(), play, API_DEVICE, sent_with(request))
    except records.AlreadySaved as retry:
        return _replayed(_play_view(play, undone=_undone(play, records.undone_by(get_session(), retry.change))))
    if change is None:
        raise ApiRefusal(409, [FieldError("", _("Nothing is left to undo."))])
    return jsonify(_play_view(play, undone=_undone(play, change)))


def _undone(play: Play, change: Change | None) -> dict[str, Any] | None:
    """What an undo took back, as the API says it: {"action", "text", "said"}."""
    if change is None:
        return None
    return {
        "action": change.new.get("action") if records.is_action(change) else {"field": change.field},
        "text": records.action_text(play, change),
        "said": change.new.get("said", []) if records.is_action(change) else [],
    }


@bp.get(f"/plays/<{ID_IN_URL}:play_id>/log")
def play_log_entries(play_id: int) -> Response:
    """The log of a play, in progress or finished: every action in order, what it said, and whether it was undone."""
    play = _load_play(play_id)
    return jsonify(log=[entry.to_dict() for entry in play_log.read_log(get_session(), play)])


@bp.get("/games/<game_id>/ladder")
def game_ladder(game_id: str) -> Response:
    """A game's ladder: each rostered player's rating from the group's finished plays, best first."""
    game = _game(game_id)
    rated = stats_views.game_ladder(game.id)
    names = statistics.read_names(get_session())
    players = [
        {"name": names.get(rung.player_id, ""), "rating": rung.rating, "plays": rung.plays, "rank": rung.rank}
        for rung in rated.rungs
    ]
    return jsonify(game=game.id, players=players)


@bp.post(f"/plays/<{ID_IN_URL}:play_id>/finish")
def play_finish(play_id: int) -> Response:
    """Score a play in progress by the official rules and keep the result."""
    play = _load_play(play_id)
    if request.get_data():
        _body(FinishRequest)
    _refuse_unless_in_progress(play)
    if records.finish_play(get_session(), play, device=API_DEVICE) is None:
        _refuse_unless_in_progress(play)
    return jsonify(_play_view(play))


@bp.post("/rules/speros/capture")
def speros_capture() -> Response:
    """Who captures a Conquest of Speros card with these units on it, how and why: a pure rules call."""
    body = _body(CaptureRequest)
    return jsonify(speros.capture(body.encampments, body.placements).to_dict())
