"""The group's data in and out: the companion's own export (JSON, restorable) and a CSV for spreadsheets.

No Flask here: the pages (data.py) and the command line (cli.py) call the same functions.

The export ("companion-export", FORMAT_VERSION) holds everything a play is: the roster, every play that is not
deleted (in progress, put aside, finished) with its options, live state (the table's in play.extra, each seat's in
seat.state), result (totals, ranks, breakdown lines, tie-break) and its uid. It leaves out the undo history (Change
rows): a restored play in progress carries on from where it stood, but its earlier taps can't be undone.

An import is one transaction, validated whole before anything is written: a file refused (corrupt, foreign, newer)
changes nothing. It is bounded before any heavy check (Limits: so many plays, players, seats; a few problems said
and the rest counted), and each play is validated on its own, so a small hostile file can't fill the memory with
one error per field. A play whose uid the database has already (deleted ones too) is skipped, so the same file imported
twice adds nothing; players are matched by name_key, as a name typed at the table is.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from companion.games import GAMES, get_game
from companion.games.base import NAME_MAX, FieldError, Game, InputErrors, field_path, name_key, validation_errors
from companion.games.wording import join_names, utc
from companion.play.result_grid import result_grid
from companion.store import records
from companion.store.models import ABANDONED, FINISHED, IN_PROGRESS, NOTES_MAX, Play, Player, Seat

FORMAT = "companion-export"
FORMAT_VERSION = 1
# Scores beyond this are no board game's: refused before PostgreSQL's integer column would overflow.
POINTS_MAX = 1_000_000
Points = Annotated[int, Field(ge=-POINTS_MAX, le=POINTS_MAX)]
# How many uids one query looks up: well under SQLite's oldest limit of 999 bound parameters.
UID_CHUNK = 500

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]

# What one import takes, far beyond any group's file and small enough that a hostile one stays cheap. The page's
# 64 MiB hold some 25,000 plays; the settings IMPORT_MAX_PLAYS and IMPORT_MAX_PLAYERS raise the first two.
MAX_PLAYS = 100_000
MAX_PLAYERS = 10_000
# No game of ours seats more than 5 (a BG Stats backup's plays of other games have bgstats.MAX_SCORES).
MAX_SEATS = 100
# Values (dict entries and list items, nested) in one play: a real one has some 200, a live one a few hundred more.
MAX_PLAY_VALUES = 20_000
MAX_PLAYER_VALUES = 100
# How deep a play's parts nest: a real one 7 levels (play, seats, a seat, its state, a card, its terrains); deeper
# ones would break Python's own recursion later (copying a state, writing it as JSON).
MAX_DEPTH = 24
# Problems said of a refused file; the others are counted ("and 99,990 more problems").
MAX_PROBLEMS = 10
# A problem's sentence is cut here: an option or a state can be refused field by field.
PROBLEM_CHARS = 400


@dataclass(frozen=True)
class Limits:
    """How many plays and players one import takes (the settings IMPORT_MAX_PLAYS and IMPORT_MAX_PLAYERS)."""

    plays: int = MAX_PLAYS
    players: int = MAX_PLAYERS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        """The limits an app's settings give (the defaults where none is set)."""
        return cls(
            plays=int(config.get("IMPORT_MAX_PLAYS", MAX_PLAYS)),
            players=int(config.get("IMPORT_MAX_PLAYERS", MAX_PLAYERS)),
        )


DEFAULT_LIMITS = Limits()


def _in_utc(moment: datetime) -> datetime:
    """A time of the file in UTC (a time without a zone is UTC); a date at the very ends of the calendar, which has no
    UTC twin, is no time this app stored."""
    try:
        return utc(moment)
    except OverflowError:
        raise ValueError("This date is out of range.") from None


# Dates may come as ISO text (the file) even though every other field is strict.
When = Annotated[datetime, Field(strict=False), AfterValidator(_in_utc)]


class Refused(Exception):
    """A file that can't be imported, with what to tell the person; nothing was written."""

    def __init__(self, message: str, details: Sequence[str] = ()):
        """Keep the message and up to a few details (which play, which field)."""
        super().__init__(message)
        self.message = message
        self.details = list(details)


@dataclass
class Summary:
    """What an import did: plays and players added, those already there, plays left out and why."""

    plays_added: int = 0
    plays_present: int = 0
    players_added: int = 0
    players_present: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    source: str = "Companion export"

    def sentences(self) -> list[str]:
        """The summary said for the page and the command line."""
        said = [
            f"{_count(self.plays_added, 'play')} added, {_count(self.plays_present, 'play')} already there.",
            f"{_count(self.players_added, 'player')} added, {_count(self.players_present, 'player')} already there.",
        ]
        said += [f"Left out: {_count(n, 'play')} {why}." for why, n in self.left_out.items()]
        return [sentence[:1].upper() + sentence[1:] for sentence in said]


def _count(n: int, word: str) -> str:
    """'1 play', '3 plays', 'no plays'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}" if n else f"no {word}s"


class Problems:
    """What is wrong with a file: the first few said, the others only counted (a file may hold a great many)."""

    def __init__(self, shown: int = MAX_PROBLEMS):
        """Say at most `shown` problems."""
        self.shown = shown
        self.said: list[str] = []
        self.more = 0

    @property
    def full(self) -> bool:
        """Whether more problems are only counted (so their sentences need not be made)."""
        return len(self.said) >= self.shown

    def add(self, problem: str) -> None:
        """One more problem: kept while there are few, else counted."""
        if self.full:
            self.more += 1
        else:
            self.said.append(problem if len(problem) <= PROBLEM_CHARS else problem[: PROBLEM_CHARS - 1] + "…")

    def __bool__(self) -> bool:
        """Whether anything is wrong."""
        return bool(self.said)

    def lines(self) -> list[str]:
        """The problems said, and how many more there are."""
        if not self.more:
            return list(self.said)
        return [*self.said, f"And {self.more:,} more problem{'' if self.more == 1 else 's'}."]


def too_many(data: Mapping[str, Any], caps: Iterable[tuple[str, str, int]]) -> None:
    """Refused when one of the file's lists (key, what it holds, cap) is longer than an import takes."""
    for key, what, cap in caps:
        entries = data.get(key)
        if isinstance(entries, list) and len(entries) > cap:
            raise Refused(
                f"This file holds {len(entries):,} {what}, more than an import takes: at most {cap:,}, "
                "far beyond any group's."
            )


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
            return f"its parts nest more than {depth} levels deep, far deeper than any real one's"
        frontier = []
        for item in containers:
            budget -= len(item)
            if budget < 0:
                return "it holds far more values than any real one"
            frontier.extend(item.values() if isinstance(item, dict) else item)
    return None


Model = TypeVar("Model", bound=BaseModel)


def validate_each(
    model: type[Model],
    entries: Sequence[Any],
    label: Callable[[int, Any], str],
    problems: Problems,
    check: Callable[[Any], str | None] = lambda entry: None,
) -> list[Model]:
    """Each entry validated on its own (a cheap check first, which may refuse it), its problems said by its label."""
    required = [name for name, info in model.model_fields.items() if info.is_required()]
    valid = []
    for index, entry in enumerate(entries):
        if problems.full and not (isinstance(entry, dict) and all(key in entry for key in required)):
            # Refused for sure and only counted: a file of 100,000 empty plays must not cost pydantic's time.
            problems.add("")
            continue
        refused: str | ValidationError | None = check(entry)
        if refused is None:
            try:
                valid.append(model.model_validate(entry))
                continue
            except ValidationError as exc:
                refused = exc
        if problems.full:
            problems.add("")
        else:
            problems.add(f"{label(index, entry)}: {refused if isinstance(refused, str) else said_errors(refused)}")
    return valid


def said_errors(exc: ValidationError, shown: int = 3) -> str:
    """A validation's first few errors in one sentence ("uid: Field required; game: Field required (and 6 more)")."""
    said = []
    for error in exc.errors(include_url=False)[:shown]:
        message = str(error["msg"]).removeprefix("Value error, ")
        path = ".".join(str(part) for part in error["loc"])
        said.append(f"{path}: {message}" if path else message)
    more = exc.error_count() - len(said)
    return "; ".join(said) + (f" (and {more:,} more)" if more > 0 else "")


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
    player: Name
    colour: Annotated[str, StringConstraints(max_length=20)] = ""
    state: dict[str, Any] = {}
    total: Points | None = None
    rank: int | None = Field(default=None, ge=1, le=100)
    breakdown: list[LineIn] | None = None


class PlayIn(Strict):
    """A play as exported, with its seats."""

    uid: Annotated[str, StringConstraints(min_length=1, max_length=36)]
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
    seats: list[SeatIn] = Field(min_length=1)

    @model_validator(mode="after")
    def _holds_together(self) -> PlayIn:
        """A known game, its player count and options, distinct players, and a result that adds up."""
        game = get_game(self.game)
        if game is None:
            known = join_names([f"{game.id} ({game.name})" for game in GAMES.values()])
            raise ValueError(f"There is no game {self.game!r} in this app; its games are {known}.")
        try:
            options = game.options_model.model_validate(self.options)
        except ValidationError as exc:
            raise ValueError(
                "Its options don't fit " + game.name + ": " + _said(validation_errors(exc, "options"))
            ) from exc
        wrong_count = game.player_count_error(len(self.seats), options)
        if wrong_count:
            raise ValueError(wrong_count)
        keys = [name_key(seat.name) for seat in self.seats]
        if len(set(keys)) != len(keys):
            raise ValueError("The same player sits twice.")
        for seat in self.seats:
            # The roster entry is the seated name in the roster's spelling: the same player, the same key.
            if name_key(seat.player) != name_key(seat.name):
                raise ValueError(f"{seat.name} sits as the roster's {seat.player}: a seat's player is its name.")
        _reads_back(self, game)
        if self.status == FINISHED:
            for seat in self.seats:
                if seat.total is None or seat.rank is None or seat.breakdown is None:
                    raise ValueError(f"{seat.name}'s result is missing (a finished play needs total, rank and lines).")
                lines = sum(line.points for line in seat.breakdown)
                if seat.breakdown and lines != seat.total:
                    raise ValueError(
                        f"{seat.name}'s score does not add up: the lines make {lines}, the total says {seat.total}."
                    )
            past_last = any(s.rank is None or s.rank > len(self.seats) for s in self.seats)  # None: refused above
            if not any(seat.rank == 1 for seat in self.seats) or past_last:
                raise ValueError("Its ranks don't hold together: nobody is first, or a rank is past the last seat.")
        return self


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
                raise ValueError("Its extra parts stand in for its players or winners.")
            result_grid(result, game, play.seats)
        elif game.has_tracker:
            records.standing(play)
    except InputErrors as refused:
        raise ValueError(f"Its live state can't be scored: {refused}") from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as broken:
        raise ValueError(f"Its stored parts don't read back ({broken}).") from None


class PlayerIn(Strict):
    """A roster entry."""

    name: Name
    created_at: When | None = None


class ExportHead(Strict):
    """A companion export's top level; its players and plays are validated one by one (validate_export)."""

    format: Literal["companion-export"]
    version: Literal[1]
    exported_at: When
    players: list[Any]
    plays: list[Any]


@dataclass(frozen=True)
class Export:
    """A companion export checked entry by entry: its roster and its plays."""

    players: list[PlayerIn]
    plays: list[PlayIn]


def _said(errors: Sequence[FieldError]) -> str:
    """Field errors as one sentence's tail."""
    return "; ".join(f"{e.field}: {e.message}" if e.field else e.message for e in errors)


# Export -------------------------------------------------------------------------------------------------------


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time in UTC: SQLite gives it back without its zone, PostgreSQL with it."""
    return None if moment is None else utc(moment)


def iso(moment: datetime | None) -> str | None:
    """A time as the file writes it: ISO 8601 in UTC."""
    moment = as_utc(moment)
    return moment.isoformat() if moment is not None else None


def exported_plays(session: Session, statuses: Iterable[str] = (IN_PROGRESS, FINISHED, ABANDONED)) -> Iterator[Play]:
    """Every play not deleted with these statuses, oldest first, read in pages (seats loaded with each page)."""
    last: tuple[datetime, int] | None = None
    while True:
        query = select(Play).where(col(Play.deleted_at).is_(None), col(Play.status).in_(list(statuses)))
        if last is not None:
            query = query.where(
                (col(Play.played_at) > last[0]) | ((col(Play.played_at) == last[0]) & (col(Play.id) > last[1]))
            )
        page = list(session.exec(query.order_by(col(Play.played_at), col(Play.id)).limit(1000)))
        if not page:
            return
        yield from page
        last = (page[-1].played_at, page[-1].id or 0)


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
        "seats": [
            {
                "name": seat.name,
                "player": seat.player.name,
                "colour": seat.colour,
                "state": seat.state,
                "total": seat.total,
                "rank": seat.rank,
                "breakdown": seat.breakdown,
            }
            for seat in play.seats
        ],
    }


def export_data(session: Session, now: datetime | None = None) -> dict[str, Any]:
    """Everything the group has, in the companion's export format."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": iso(now or datetime.now(UTC)),
        "players": [{"name": p.name, "created_at": iso(p.created_at)} for p in records.roster(session)],
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
CSV_HEADER = (
    "date", "game", "play", "player", "colour", "seat", "total", "rank", "winner", "breakdown", "notes",
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
        day = as_utc(play.played_at)
        for seat in play.seats:
            lines = "; ".join(
                f"{line.get('label', line.get('key'))} {line.get('points')}" for line in seat.breakdown or []
            )
            yield [
                day.date().isoformat() if day else "",
                game.name if game else play.game,
                play.uid,
                seat.name,
                seat.colour,
                seat.position + 1,
                seat.total,
                seat.rank,
                "yes" if seat.rank == 1 else "no",
                lines,
                play.notes,
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


def parse_json(raw: bytes) -> Any:
    """The file's JSON, or Refused when it is no JSON (a byte order mark is allowed)."""
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Refused("This file is not text in UTF-8: it is no export (a photo, a spreadsheet?).") from None
    except json.JSONDecodeError as exc:
        raise Refused(
            f"This file is not valid JSON (line {exc.lineno}, column {exc.colno}): it may be cut short "
            "or edited by hand."
        ) from None
    except ValueError:
        # Python reads a whole number of at most 4,300 digits from text (sys.get_int_max_str_digits).
        raise Refused("This file is no export: it holds a number thousands of digits long.") from None
    except RecursionError:
        # Lists inside lists thousands deep: no export is shaped so, and Python's parser gives up on it.
        raise Refused("This file is no export: its JSON is nested thousands of levels deep.") from None


def validate_export(data: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> Export:
    """A companion export checked entry by entry, or Refused saying what is wrong (newer versions said apart).

    The lists are measured first and every entry validated on its own (a play or a player too large for any real
    one is refused before pydantic sees it), so no file makes more than a few problems' worth of work to say.
    """
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        number = str(version) if version < 10**9 else "far beyond"
        raise Refused(
            f"This export is of a newer format (version {number}); this app reads version "
            f"{FORMAT_VERSION}. Update Companion, then import it again."
        )
    too_many(data, (("plays", "plays", limits.plays), ("players", "players", limits.players)))
    problems = Problems()
    unknown = [key for key in data if key not in ExportHead.model_fields]
    if unknown:
        # Listed here, not by pydantic: a file of a million unknown fields would be a million errors.
        named = ", ".join(repr(key[:40]) for key in unknown[:5])
        problems.add(
            f"Fields no export has: {named}" + (f" and {len(unknown) - 5:,} more." if len(unknown) > 5 else ".")
        )
    try:
        head = ExportHead.model_validate({key: data[key] for key in ExportHead.model_fields if key in data})
    except ValidationError as exc:
        problems.add(said_errors(exc, shown=5))
        raise Refused("This export is damaged.", problems.lines()) from None
    players = validate_each(PlayerIn, head.players, lambda index, entry: f"Player {index + 1}", problems, _player_fits)
    plays = validate_each(PlayIn, head.plays, play_label, problems, _play_fits)
    if problems:
        raise Refused("This export is damaged.", problems.lines())
    return Export(players=players, plays=plays)


def _player_fits(entry: Any) -> str | None:
    """Why a roster entry is too large to be one, or None."""
    return oversized(entry, MAX_PLAYER_VALUES)


def _play_fits(entry: Any) -> str | None:
    """Why a play is too large to be one (its seats, its parts), or None: said before any field is validated."""
    seats = entry.get("seats") if isinstance(entry, dict) else None
    if isinstance(seats, list) and len(seats) > MAX_SEATS:
        return f"it has {len(seats):,} players; no play has more than {MAX_SEATS}"
    return oversized(entry, MAX_PLAY_VALUES)


def play_label(index: int, play: Any) -> str:
    """A play of the file as a person finds it there: "Play 3 (Spires, 2026-01-02)", or "Play 3"."""
    if not isinstance(play, dict):
        return f"Play {index + 1}"
    name = play.get("game")
    game = get_game(name) if isinstance(name, str) else None
    day = play.get("played_at")
    about = [
        game.name if game else name[:40] if isinstance(name, str) else "",
        day[:10] if isinstance(day, str) else "",
    ]
    about = [part for part in about if part]
    return f"Play {index + 1}" + (f" ({', '.join(about)})" if about else "")


def existing_uids(session: Session, uids: Sequence[str]) -> set[str]:
    """Which of these uids the database has already, deleted plays included."""
    found: set[str] = set()
    for start in range(0, len(uids), UID_CHUNK):
        chunk = list(uids[start : start + UID_CHUNK])
        found.update(session.exec(select(Play.uid).where(col(Play.uid).in_(chunk))))
    return found


class Roster:
    """The roster looked up by name_key in memory, players added as the import meets them."""

    def __init__(self, session: Session):
        """Read every player once (a roster is small; a 10,000-play file must not ask per seat)."""
        self.session = session
        self.by_key = {player.key: player for player in records.roster(session)}
        self.added: set[str] = set()
        self.present: set[str] = set()

    def get(self, name: str, created_at: datetime | None = None) -> Player:
        """The roster entry for this name, added when new."""
        key = name_key(name)
        player = self.by_key.get(key)
        if player is None:
            player = records.find_or_add_player(self.session, name)
            if created_at is not None:
                player.created_at = created_at
            self.by_key[key] = player
            self.added.add(key)
        elif key not in self.added:
            self.present.add(key)
        return player


def play_row(**fields: Any) -> dict[str, Any]:
    """A new play's row: the fields given over what a play starts with."""
    return {"deleted_at": None, "tiebreak": None, "notes": "", "extra": {}, "finished_at": None, "version": 0, **fields}


def write_plays(
    session: Session,
    roster: Roster,
    plays: Sequence[dict[str, Any]],
    seats: Sequence[Sequence[tuple[dict[str, Any], str]]],
) -> None:
    """Insert new plays and their seats (a seat's row, the roster name of its player), a chunk at a time.

    Rows, not ORM objects: building 35,000 SQLModel objects took most of a 10,000-play import's time.
    """
    play_table, seat_table = Play.__table__, Seat.__table__  # type: ignore[attr-defined]
    for start in range(0, len(plays), UID_CHUNK):
        chunk = plays[start : start + UID_CHUNK]
        session.execute(insert(play_table), list(chunk))
        uids = [play["uid"] for play in chunk]
        ids = dict(session.execute(select(play_table.c.uid, play_table.c.id).where(play_table.c.uid.in_(uids))).all())
        rows = [
            {**seat, "play_id": ids[play["uid"]], "player_id": roster.get(name).id}
            for play, play_seats in zip(chunk, seats[start : start + UID_CHUNK], strict=True)
            for seat, name in play_seats
        ]
        if rows:
            session.execute(insert(seat_table), rows)


def import_export(session: Session, export: Export) -> Summary:
    """Add what a validated companion export holds and the database lacks, in one transaction."""
    summary = Summary()
    roster = Roster(session)
    try:
        for player in export.players:
            roster.get(player.name, as_utc(player.created_at))
        present = existing_uids(session, [play.uid for play in export.plays])
        new_plays, new_seats = [], []
        seen: set[str] = set()
        for entry in export.plays:
            if entry.uid in present or entry.uid in seen:
                summary.plays_present += 1
                continue
            seen.add(entry.uid)
            new_plays.append(
                play_row(
                    uid=entry.uid,
                    game=entry.game,
                    status=entry.status,
                    options=entry.options,
                    rules_version=entry.rules_version,
                    source=entry.source,
                    created_at=as_utc(entry.created_at),
                    played_at=as_utc(entry.played_at),
                    finished_at=as_utc(entry.finished_at),
                    notes=entry.notes,
                    tiebreak=entry.tiebreak,
                    extra=entry.extra,
                )
            )
            new_seats.append(
                [
                    (
                        {
                            "name": seat.name,
                            "position": position,
                            "colour": seat.colour,
                            "state": seat.state,
                            "total": seat.total,
                            "rank": seat.rank,
                            "breakdown": [line.model_dump() for line in seat.breakdown]
                            if seat.breakdown is not None
                            else None,
                        },
                        seat.player,
                    )
                    for position, seat in enumerate(entry.seats)
                ]
            )
        write_plays(session, roster, new_plays, new_seats)
        summary.plays_added = len(new_plays)
        summary.players_added = len(roster.added)
        summary.players_present = len(roster.present)
        session.commit()
    except Exception:
        session.rollback()
        raise
    return summary


def nul_fields(value: Any) -> Iterator[str]:
    """Where text holds a NUL character, field by field, found lazily and without recursion (a file may hold a
    great many, nested nearly a thousand levels)."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                yield path
        elif isinstance(item, dict):
            pending.extend((child, field_path(path, [str(key)])) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            pending.extend((child, field_path(path, [index])) for index, child in reversed(list(enumerate(item))))


def import_file(session: Session, raw: bytes, limits: Limits = DEFAULT_LIMITS) -> Summary:
    """Import a file of either format the app reads (the format recognised from the file), or Refused."""
    from companion.data import bgstats

    if not raw.strip():
        raise Refused("This file is empty.")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise Refused("This file is JSON but no export: a Companion or BG Stats export is one JSON object.")
    # Both formats: PostgreSQL can't store a NUL character, and SQLite would keep one our own export then refuses.
    # JSON can only write one as \u0000, so a file without that text is not searched.
    if b"\\u0000" in raw:
        problems = Problems(shown=5)
        for path in islice(nul_fields(data), 5):
            problems.add(f"{path}: Remove the NUL character (\\u0000): it can't be stored.")
        if problems:
            raise Refused("This file holds text that can't be stored.", problems.lines())
    if data.get("format") == FORMAT:
        export = validate_export(data, limits)
        return _twice_if_raced(session, lambda: import_export(session, export))
    if "format" in data:
        named = repr(data["format"][:60]) if isinstance(data["format"], str) else "not a name"
        raise Refused(
            f"This file is of another format ({named}): Companion reads its own exports and BG Stats exports."
        )
    if bgstats.looks_like(data):
        backup = bgstats.validate_backup(data, limits)
        return _twice_if_raced(session, lambda: bgstats.import_backup(session, backup))
    raise Refused("This file is JSON but neither a Companion export nor a BG Stats export.")


def _twice_if_raced(session: Session, run: Callable[[], Summary]) -> Summary:
    """Run an import; if another import added one of its plays meanwhile (a uid taken), run it again: the plays
    now there are skipped."""
    try:
        return run()
    except IntegrityError:
        session.rollback()
        return run()
