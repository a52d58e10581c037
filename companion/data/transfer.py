"""Our own formats: the companion's export (JSON, restorable, and its import) and a CSV for spreadsheets.

No Flask here: the pages (views.py) and the command line (cli.py) call the same functions.

The export ("companion-export", FORMAT_VERSION) holds everything a play is: the roster (with each player's uid),
the group's places, every play that is not deleted (in progress, put aside, finished) with its options, live state
(the table's in play.extra, each seat's in seat.state), result (totals, ranks, breakdown lines, tie-break), its place,
minutes at the table, its "ignored" and "seats known" marks, its guests (a seat whose player is null) and its uid. It
leaves out the undo history (Change rows): a restored play in progress carries on from where it stood, but its
earlier taps can't be undone.

Version 2 added the places, the players' uids, guests and a play's location, duration_min, ignored and seats_known;
a version 1 file (without them) still imports, each missing field taking the default a new row has. The version went
up because an app that reads version 1 refuses unknown fields as damage: told "newer format", its user knows to
update rather than wonder what broke the file.

Its import is checked here (a play's seats and parts bounded, each play read back as the app reads it) and written
by importing.py, as BG Stats' is.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator
from sqlmodel import Session

from companion.data.importing import (
    DEFAULT_LIMITS,
    POINTS_MAX,
    ImportRefused,
    Limits,
    NewPlace,
    NewPlayer,
    Problems,
    Summary,
    exported_plays,
    new_play,
    said_errors,
    too_many,
    validate_each,
    write_import,
)
from companion.games import GAMES, get_game
from companion.games.base import NAME_MAX, FieldError, Game, InputErrors, name_key, validation_errors
from companion.games.wording import grouped, join_names, utc
from companion.language import N_, _
from companion.play.result_grid import result_grid
from companion.store import records
from companion.store.models import FINISHED, LOCATION_MAX, NOTES_MAX, Location, Play, Player, Seat

FORMAT = "companion-export"
FORMAT_VERSION = 2
# The summary's source: said in the reader's language where shown (N_).
COMPANION_EXPORT = N_("Companion export")
Points = Annotated[int, Field(ge=-POINTS_MAX, le=POINTS_MAX)]

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]
PlaceName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=LOCATION_MAX)]
Uid = Annotated[str, StringConstraints(min_length=1, max_length=36)]
# Minutes at the table: beyond this PostgreSQL's integer column would overflow (no play is so long; none is refused).
DURATION_MAX = 2**31 - 1

# No game of ours seats more than 5 (a BG Stats backup's plays of other games have bgstats.MAX_SCORES).
MAX_SEATS = 100
# Values (dict entries and list items, nested) in one play: a real one has some 200, a live one a few hundred more.
MAX_PLAY_VALUES = 20_000
MAX_PLAYER_VALUES = 100
# How deep a play's parts nest: a real one 7 levels (play, seats, a seat, its state, a card, its terrains); deeper
# ones would break Python's own recursion later (copying a state, writing it as JSON).
MAX_DEPTH = 24


def _in_utc(moment: datetime) -> datetime:
    """A time of the file in UTC (a time without a zone is UTC); a date at the very ends of the calendar, which has no
    UTC twin, is no time this app stored."""
    try:
        return utc(moment)
    except OverflowError:
        raise ValueError(_("This date is out of range.")) from None


# Dates may come as ISO text (the file) even though every other field is strict.
When = Annotated[datetime, Field(strict=False), AfterValidator(_in_utc)]


def oversized(value: Any, budget: int, depth: int = MAX_DEPTH) -> str | None:
    """Why a value is larger than any real entry (more than `budget` values, dict entries and list items counted at
    every depth, or nested deeper than `depth`), or None. Level by level, not recursive: a file may nest nearly a
    thousand levels."""
    frontier = [value]
    for level in range(depth + 1):
        containers = [item for item in frontier if isinstance(item, dict | list)]
        if not containers:
            return None
        if level == depth:
            return _("its parts nest more than %(depth)s levels deep, far deeper than any real one's", depth=depth)
        frontier = []
        for item in containers:
            budget -= len(item)
            if budget < 0:
                return _("it holds far more values than any real one")
            frontier.extend(item.values() if isinstance(item, dict) else item)
    return None


# The file's shape --------------------------------------------------------------------------------------------


class Strict(BaseModel):
    """Every part of the file: unknown fields and loose types are a corrupt file, not guesses."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LineIn(Strict):
    """One explained line of a seat's score."""

    key: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    label: Annotated[str, StringConstraints(max_length=200)]
    points: Points
    why: Annotated[str, StringConstraints(max_length=2000)]


class SeatIn(Strict):
    """A player in a play, in turn order."""

    name: Name
    # The roster entry's name; None for a guest (a seat of that play only, on no roster).
    player: Name | None
    colour: Annotated[str, StringConstraints(max_length=20)] = ""
    state: dict[str, Any] = {}
    total: Points | None = None
    rank: int | None = Field(default=None, ge=1, le=100)
    breakdown: list[LineIn] | None = None


class PlayIn(Strict):
    """A play as exported, with its seats."""

    uid: Uid
    game: str
    status: Literal["in_progress", "finished", "abandoned"]
    options: dict[str, Any]
    rules_version: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    source: Annotated[str, StringConstraints(max_length=20)]
    created_at: When
    played_at: When
    finished_at: When | None = None
    notes: Annotated[str, StringConstraints(max_length=NOTES_MAX)] = ""
    tiebreak: Annotated[str, StringConstraints(max_length=2000)] | None = None
    extra: dict[str, Any] = {}
    location: PlaceName | None = None
    duration_min: int | None = Field(default=None, ge=0, le=DURATION_MAX)
    ignored: bool = False
    seats_known: bool = True
    seats: list[SeatIn] = Field(min_length=1)

    @model_validator(mode="after")
    def _holds_together(self) -> PlayIn:
        """A known game, its player count and options, distinct players, and a result that adds up."""
        game = get_game(self.game)
        if game is None:
            known = join_names([f"{game.id} ({game.name})" for game in GAMES.values()])
            raise ValueError(
                _("There is no game %(game)s in this app; its games are %(games)s.", game=repr(self.game), games=known)
            )
        try:
            options = game.options_model.model_validate(self.options)
        except ValidationError as exc:
            said = _said(validation_errors(exc, "options"))
            raise ValueError(_("Its options don't fit %(game)s: %(problems)s", game=game.name, problems=said)) from exc
        wrong_count = game.player_count_error(len(self.seats), options)
        if wrong_count:
            raise ValueError(wrong_count)
        keys = [name_key(seat.name) for seat in self.seats]
        if len(set(keys)) != len(keys):
            raise ValueError(_("The same player sits twice."))
        for seat in self.seats:
            # The roster entry is the seated name in the roster's spelling: the same player, the same key.
            if seat.player is not None and name_key(seat.player) != name_key(seat.name):
                raise ValueError(
                    _(
                        "%(name)s sits as the roster's %(player)s: a seat's player is its name.",
                        name=seat.name,
                        player=seat.player,
                    )
                )
        _reads_back(self, game)
        if self.status == FINISHED:
            _result_holds(self.seats)
        return self


def _result_holds(seats: Sequence[SeatIn]) -> None:
    """A finished play's result, refused unless every seat has one, its lines add up and its ranks hold together.

    A seat may have no total (a play imported from BG Stats with its winners but no scores): then it has a rank and
    no lines.
    """
    for seat in seats:
        if seat.rank is None or (seat.total is not None and seat.breakdown is None):
            raise ValueError(
                _("%(name)s's result is missing (a finished play needs total, rank and lines).", name=seat.name)
            )
        if seat.total is None:
            if seat.breakdown:
                raise ValueError(_("%(name)s has score lines but no total.", name=seat.name))
            continue
        lines = sum(line.points for line in seat.breakdown or [])
        if seat.breakdown and lines != seat.total:
            raise ValueError(
                _(
                    "%(name)s's score does not add up: the lines make %(lines)s, the total says %(total)s.",
                    name=seat.name,
                    lines=lines,
                    total=seat.total,
                )
            )
    past_last = any(s.rank is None or s.rank > len(seats) for s in seats)  # None: refused above
    if not any(seat.rank == 1 for seat in seats) or past_last:
        raise ValueError(_("Its ranks don't hold together: nobody is first, or a rank is past the last seat."))


def _reads_back(play_in: PlayIn, game: Game) -> None:
    """The play's stored parts (extra, each seat's state) read back as the app reads them, on a play built here and
    never saved: a file that would break the result page, the tracker or the history is refused, not stored."""
    play = Play(
        game=play_in.game,
        status=play_in.status,
        options=play_in.options,
        rules_version="check",
        extra=play_in.extra,
        tiebreak=play_in.tiebreak,
    )
    play.seats = [
        Seat(
            play_id=0,  # never saved: no play or player row to point at
            player_id=0,
            name=seat.name,
            position=position,
            colour=seat.colour,
            state=seat.state,
            total=seat.total,
            rank=seat.rank,
            breakdown=[line.model_dump() for line in seat.breakdown or []],
        )
        for position, seat in enumerate(play_in.seats)
    ]
    try:
        if play_in.status == FINISHED:
            result = records.stored_result(play)
            # The play's own extras lie beside the result; they must not stand in for its players or winners.
            stored = {seat.name for seat in play_in.seats}
            if (
                result["game"] != play_in.game
                or {p["name"] for p in result["players"]} != stored
                or result["winners"] != [seat.name for seat in play_in.seats if seat.rank == 1]
            ):
                raise ValueError(_("Its extra parts stand in for its players or winners."))
            result_grid(result, game, play.seats)
        else:
            records.standing(play)
    except InputErrors as refused:
        raise ValueError(_("Its live state can't be scored: %(problems)s", problems=str(refused))) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as broken:
        raise ValueError(_("Its stored parts don't read back (%(error)s).", error=str(broken))) from None


class PlayerIn(Strict):
    """A roster entry."""

    name: Name
    created_at: When | None = None
    uid: Uid | None = None


class LocationIn(Strict):
    """One of the group's places."""

    name: PlaceName
    uid: Uid | None = None
    created_at: When | None = None


class ExportHead(Strict):
    """A companion export's top level; its players, places and plays are validated one by one (validate_export)."""

    format: Literal["companion-export"]
    # Every version this app reads: a version 1 file lacks the fields version 2 added, and they take their defaults.
    version: Literal[1, 2]
    exported_at: When
    players: list[Any]
    locations: list[Any] = []
    plays: list[Any]


@dataclass(frozen=True)
class Export:
    """A companion export checked entry by entry: its roster, its places and its plays."""

    players: list[PlayerIn]
    plays: list[PlayIn]
    locations: list[LocationIn] = field(default_factory=list)


def _said(errors: Sequence[FieldError]) -> str:
    """Field errors as one sentence's tail."""
    return "; ".join(
        _("%(entry)s: %(problem)s", entry=e.field, problem=e.message) if e.field else e.message for e in errors
    )


# Export -------------------------------------------------------------------------------------------------------


def iso(moment: datetime | None) -> str | None:
    """A time as the file writes it: ISO 8601 in UTC."""
    return None if moment is None else utc(moment).isoformat()


def play_dict(play: Play) -> dict[str, Any]:
    """One play in the export's shape."""
    return {
        "uid": play.uid,
        "game": play.game,
        "status": play.status,
        "options": play.options,
        "rules_version": play.rules_version,
        "source": play.source,
        "created_at": iso(play.created_at),
        "played_at": iso(play.played_at),
        "finished_at": iso(play.finished_at),
        "notes": play.notes,
        "tiebreak": play.tiebreak,
        "extra": play.extra,
        "location": play.location.name if play.location else None,
        "duration_min": play.duration_min,
        "ignored": play.ignored,
        "seats_known": play.seats_known,
        "seats": [
            {
                "name": seat.name,
                "player": seat.player.name if seat.player else None,
                "colour": seat.colour,
                "state": seat.state,
                "total": seat.total,
                "rank": seat.rank,
                "breakdown": seat.breakdown,
            }
            for seat in play.seats
        ],
    }


def player_dict(player: Player) -> dict[str, Any]:
    """A roster entry in the export's shape (uid null: made from the name's key, the same in every export)."""
    return {"name": player.name, "created_at": iso(player.created_at), "uid": player.uid}


def location_dict(place: Location) -> dict[str, Any]:
    """A place in the export's shape."""
    return {"name": place.name, "uid": place.uid, "created_at": iso(place.created_at)}


def export_data(session: Session, now: datetime | None = None) -> dict[str, Any]:
    """Everything the group has, in the companion's export format."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": iso(now or datetime.now(UTC)),
        "players": [player_dict(player) for player in records.roster(session)],
        "locations": [location_dict(place) for place in records.locations(session)],
        "plays": [play_dict(play) for play in exported_plays(session)],
    }


def export_json(session: Session, now: datetime | None = None) -> bytes:
    """The export as a UTF-8 JSON file (names in every alphabet written as they are, not escaped)."""
    # Compact: 10,000 plays make about 23 MB so, a third more indented.
    return json.dumps(export_data(session, now), ensure_ascii=False, separators=(",", ":")).encode()


# CSV ----------------------------------------------------------------------------------------------------------

# One fixed header for every game: the score lines go in one cell ("VP track 42; Buildings 12") rather than a
# column each, since the four games' lines differ and a column per game's line would leave most cells empty; the JSON
# export has them line by line.
# Columns added later go at the end, so that a sheet built on the older columns keeps finding them where they were.
CSV_HEADER = (
    "date", "game", "play", "player", "colour", "seat", "total", "rank", "winner", "breakdown", "notes",
    "location", "duration_min",
)  # fmt: skip
# Characters that make a spreadsheet read a cell as a formula (or, tab, CR and LF, hide one; the full-width signs
# some spreadsheets take for the plain ones): a quote before them keeps the cell text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")


def cell(text: str) -> str:
    """A text cell safe to open in a spreadsheet: one that would start a formula gets a leading '."""
    return "'" + text if text.startswith(FORMULA_START) else text


def guarded(row: Sequence[Any]) -> list[Any]:
    """A row with every text cell made safe (numbers stay numbers): ids and names come from imported files too."""
    return [cell(value) if isinstance(value, str) else value for value in row]


def csv_rows(session: Session) -> Iterator[list[Any]]:
    """One row per player per finished play (not deleted), oldest play first, players in turn order; as stored
    (export_csv guards every text cell)."""
    yield list(CSV_HEADER)
    for play in exported_plays(session, (FINISHED,)):
        game = get_game(play.game)
        for seat in play.seats:
            lines = "; ".join(
                f"{line.get('label', line.get('key'))} {line.get('points')}" for line in seat.breakdown or []
            )
            yield [
                utc(play.played_at).date().isoformat(),
                game.name if game else play.game,
                play.uid,
                # A guest is no roster player: a sheet that counts by this column must not take every "Guest" of
                # every play for one person who plays a lot.
                seat.name if seat.player_id is not None else "",
                seat.colour,
                seat.position + 1,
                seat.total,
                seat.rank,
                "yes" if seat.rank == 1 else "no",
                lines,
                play.notes,
                play.location.name if play.location else "",
                play.duration_min,
            ]


def export_csv(session: Session) -> bytes:
    """The CSV file: UTF-8 with a byte order mark, comma-separated, CRLF line ends (RFC 4180)."""
    # The BOM is what makes Excel read the file as UTF-8 (without it, it guesses the system's code page and
    # "Ιωάννα" or "陈" come out garbled); LibreOffice, Numbers and Google Sheets read it either way.
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows(guarded(row) for row in csv_rows(session))
    return ("\ufeff" + out.getvalue()).encode()


# Import -------------------------------------------------------------------------------------------------------


def validate_export(data: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> Export:
    """A companion export checked entry by entry, or ImportRefused saying what is wrong (newer versions said apart).

    The lists are measured first and every entry validated on its own (a play or a player too large for any real
    one is refused before pydantic sees it), so no file makes more than a few problems' worth of work to say.
    """
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        number = str(version) if version < 10**9 else _("far beyond")
        raise ImportRefused(
            _(
                "This export is of a newer format (version %(version)s); this app reads versions up to %(ours)s."
                " Update Companion, then import it again.",
                version=number,
                ours=FORMAT_VERSION,
            )
        )
    # A group has fewer places than players: the players' cap bounds them too.
    caps = (("plays", "plays", limits.plays), ("players", "players", limits.players))
    too_many(data, (*caps, ("locations", "places", limits.players)))
    problems = Problems()
    unknown = [key for key in data if key not in ExportHead.model_fields]
    if unknown:
        # Listed here, not by pydantic: a file of a million unknown fields would be a million errors.
        named = ", ".join(repr(key[:40]) for key in unknown[:5])
        if len(unknown) > 5:
            problems.add(
                _("Fields no export has: %(names)s and %(more)s more.", names=named, more=grouped(len(unknown) - 5))
            )
        else:
            problems.add(_("Fields no export has: %(names)s.", names=named))
    try:
        head = ExportHead.model_validate({key: data[key] for key in ExportHead.model_fields if key in data})
    except ValidationError as exc:
        problems.add(said_errors(exc, shown=5))
        raise ImportRefused(_("This export is damaged."), problems.lines()) from None
    players = validate_each(
        PlayerIn, head.players, lambda index, entry: _("Player %(number)s", number=index + 1), problems, _player_fits
    )
    places = validate_each(
        LocationIn, head.locations, lambda index, entry: _("Place %(number)s", number=index + 1), problems, _player_fits
    )
    plays = validate_each(PlayIn, head.plays, play_label, problems, _play_fits)
    if problems:
        raise ImportRefused(_("This export is damaged."), problems.lines())
    return Export(players=players, plays=plays, locations=places)


def _player_fits(entry: Any) -> str | None:
    """Why a roster entry (or a place) is too large to be one, or None."""
    return oversized(entry, MAX_PLAYER_VALUES)


def _play_fits(entry: Any) -> str | None:
    """Why a play is too large to be one (its seats, its parts), or None: said before any field is validated."""
    seats = entry.get("seats") if isinstance(entry, dict) else None
    if isinstance(seats, list) and len(seats) > MAX_SEATS:
        return _("it has %(count)s players; no play has more than %(max)s", count=grouped(len(seats)), max=MAX_SEATS)
    return oversized(entry, MAX_PLAY_VALUES)


def play_label(index: int, play: Any) -> str:
    """A play of the file as a person finds it there: "Play 3 (Spires, 2026-01-02)", or "Play 3"."""
    if not isinstance(play, dict):
        return _("Play %(number)s", number=index + 1)
    name = play.get("game")
    game = get_game(name) if isinstance(name, str) else None
    day = play.get("played_at")
    about = [
        game.name if game else name[:40] if isinstance(name, str) else "",
        day[:10] if isinstance(day, str) else "",
    ]
    about = [part for part in about if part]
    if not about:
        return _("Play %(number)s", number=index + 1)
    return _("Play %(number)s (%(about)s)", number=index + 1, about=", ".join(about))


def import_export(session: Session, export: Export) -> Summary:
    """Add what a validated companion export holds and the database lacks, in one transaction."""
    plays = [
        new_play(
            [
                (
                    {
                        "name": seat.name,
                        "position": position,
                        "colour": seat.colour,
                        "state": seat.state,
                        "total": seat.total,
                        "rank": seat.rank,
                        "breakdown": None if seat.breakdown is None else [line.model_dump() for line in seat.breakdown],
                    },
                    seat.player,
                )
                for position, seat in enumerate(entry.seats)
            ],
            uid=entry.uid,
            location=entry.location or "",
            game=entry.game,
            status=entry.status,
            options=entry.options,
            rules_version=entry.rules_version,
            source=entry.source,
            created_at=entry.created_at,
            played_at=entry.played_at,
            finished_at=entry.finished_at,
            notes=entry.notes,
            tiebreak=entry.tiebreak,
            extra=entry.extra,
            duration_min=entry.duration_min,
            ignored=entry.ignored,
            seats_known=entry.seats_known,
        )
        for entry in export.plays
    ]
    players = [NewPlayer(player.name, player.created_at, player.uid) for player in export.players]
    places = [NewPlace(place.name, place.created_at, place.uid) for place in export.locations]
    return write_import(session, COMPANION_EXPORT, plays, players, places=places)
