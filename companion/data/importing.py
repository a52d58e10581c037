"""Writing an import, whichever format the file is (transfer.py ours, bgstats.py BG Stats'): the limits, the refusal,
the checks both formats share, the one transaction that adds plays and players, and its summary (and the query both
exports read their plays with).

An import is one transaction, validated whole before anything is written: a file refused (corrupt, foreign, newer)
changes nothing. It is bounded before any heavy check (Limits: so many plays, players; a few problems said and the
rest counted), and each entry is validated on its own, so a small hostile file can't fill the memory with one error
per field. A play whose uid the database has already (deleted ones too) is skipped, so the same file imported twice
adds nothing; players are matched by name_key, as a name typed at the table is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy import insert, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

from companion.games.base import name_key
from companion.games.wording import grouped
from companion.language import N_, _, ngettext
from companion.store import history_version, records
from companion.store.models import ABANDONED, FINISHED, IN_PROGRESS, GameUid, Location, Play, Player, Seat, utcnow

# Scores beyond this are no board game's: refused before PostgreSQL's integer column would overflow.
POINTS_MAX = 1_000_000
# How many uids one query looks up: well under SQLite's oldest limit of 999 bound parameters.
UID_CHUNK = 500
# What one import takes, far beyond any group's file and small enough that a hostile one stays cheap. The page's
# 64 MiB hold some 25,000 plays; the settings IMPORT_MAX_PLAYS and IMPORT_MAX_PLAYERS raise the first two.
MAX_PLAYS = 100_000
# An import of at least this many plays gathers PostgreSQL's planner statistics at once (_analyze).
ANALYZE_AFTER_PLAYS = 1_000
MAX_PLAYERS = 10_000
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


class ImportRefused(Exception):
    """A file that can't be imported, with what to tell the person; nothing was written."""

    def __init__(self, message: str, details: Sequence[str] = ()):
        """Keep the message and up to a few details (which play, which field)."""
        super().__init__(message)
        self.message = message
        self.details = list(details)


@dataclass
class Summary:
    """What an import did: plays and players added, those already there, plays left out and why."""

    source: str
    plays_added: int = 0
    plays_present: int = 0
    players_added: int = 0
    players_present: int = 0
    left_out: dict[str, int] = field(default_factory=dict)

    def sentences(self) -> list[str]:
        """The summary said for the page and the command line, in the reader's language."""
        said = [
            _(
                "%(plays)s added, %(present)s already there.",
                plays=_plays(self.plays_added),
                present=_plays(self.plays_present),
            ),
            _(
                "%(players)s added, %(present)s already there.",
                players=_players(self.players_added),
                present=_players(self.players_present),
            ),
        ]
        # The reasons are kept in English (marked N_ where they are made), said here in the reader's language.
        said += [
            ngettext(
                "Left out: %(num)s play %(why)s.", "Left out: %(num)s plays %(why)s.", n, num=grouped(n), why=_(why)
            )
            for why, n in self.left_out.items()
        ]
        return [sentence[:1].upper() + sentence[1:] for sentence in said]


def _plays(n: int) -> str:
    """'1 play', '3 plays', 'no plays'."""
    return ngettext("%(num)s play", "%(num)s plays", n, num=grouped(n)) if n else _("no plays")


def _players(n: int) -> str:
    """'1 player', '3 players', 'no players'."""
    return ngettext("%(num)s player", "%(num)s players", n, num=grouped(n)) if n else _("no players")


# Checking a file --------------------------------------------------------------------------------------------


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
        more = ngettext("And %(num)s more problem.", "And %(num)s more problems.", self.more, num=grouped(self.more))
        return [*self.said, more]


# What a list too long to import holds, by the word too_many is given.
TOO_MANY = {
    "plays": N_("This file holds %(count)s plays, more than an import takes: at most %(cap)s, far beyond any group's."),
    "players": N_(
        "This file holds %(count)s players, more than an import takes: at most %(cap)s, far beyond any group's."
    ),
    "games": N_("This file holds %(count)s games, more than an import takes: at most %(cap)s, far beyond any group's."),
    "places": N_(
        "This file holds %(count)s places, more than an import takes: at most %(cap)s, far beyond any group's."
    ),
}


def too_many(data: Mapping[str, Any], caps: Iterable[tuple[str, str, int]]) -> None:
    """Refused when one of the file's lists (key, what it holds: plays, players, games or places, cap) is longer
    than an import takes."""
    for key, what, cap in caps:
        entries = data.get(key)
        if isinstance(entries, list) and len(entries) > cap:
            raise ImportRefused(_(TOO_MANY[what], count=grouped(len(entries)), cap=grouped(cap)))


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
            problem = refused if isinstance(refused, str) else said_errors(refused)
            problems.add(_("%(entry)s: %(problem)s", entry=label(index, entry), problem=problem))
    return valid


# Pydantic's own English for the errors a damaged file most often has, marked for the catalogue: said in the
# reader's language when pydantic's message is exactly this English ({name} filled from the error's ctx).
PYDANTIC_SAID = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "string_type": N_("Input should be a valid string"),
    "int_type": N_("Input should be a valid integer"),
    "bool_type": N_("Input should be a valid boolean"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "datetime_type": N_("Input should be a valid datetime"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
}


def _pydantic_said(error: Mapping[str, Any], message: str) -> str:
    """A pydantic message in the reader's language where it is one of PYDANTIC_SAID's, else as pydantic says it."""
    template = PYDANTIC_SAID.get(error["type"])
    values = {key: str(value) for key, value in (error.get("ctx") or {}).items()}
    try:
        if template is None or template.format_map(values) != message:
            return message
        return _(template).format_map(values)
    except (KeyError, ValueError, IndexError):
        return message


def said_errors(exc: ValidationError, shown: int = 3) -> str:
    """A validation's first few errors in one sentence ("uid: Field required; game: Field required (and 6 more)")."""
    said = []
    for error in exc.errors(include_url=False)[:shown]:
        message = _pydantic_said(error, str(error["msg"]).removeprefix("Value error, "))
        path = ".".join(str(part) for part in error["loc"])
        said.append(_("%(entry)s: %(problem)s", entry=path, problem=message) if path else message)
    more = exc.error_count() - len(said)
    joined = "; ".join(said)
    return _("%(errors)s (and %(more)s more)", errors=joined, more=grouped(more)) if more > 0 else joined


# Writing the plays ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewPlay:
    """A play of a file to add: its uid, its row, its seats' rows each with the roster name of its player (None for a
    guest, who is on no roster) and the name of its place ("" for none)."""

    uid: str
    row: dict[str, Any]
    seats: list[tuple[dict[str, Any], str | None]]
    location: str = ""


@dataclass(frozen=True)
class LeftOut:
    """A play of a file that is not added, and why; with its uid it counts as already there when the database has it."""

    why: str
    uid: str | None = None


@dataclass(frozen=True)
class NewPlayer:
    """A roster entry a file names: its name, when it was added, its uid in that file (None for none)."""

    name: str
    created_at: datetime | None = None
    uid: str | None = None


@dataclass(frozen=True)
class NewPlace:
    """One of the group's places a file lists: its name, when it was added, its uid in that file (None for none)."""

    name: str
    created_at: datetime | None = None
    uid: str | None = None


@dataclass(frozen=True)
class Uids:
    """The uids a file gives players and places (by name_key) and our games (by id), kept where the database has
    none yet (and no other row has that uid), so that an export gives them back."""

    players: Mapping[str, str] = field(default_factory=dict)
    locations: Mapping[str, str] = field(default_factory=dict)
    games: Mapping[str, str] = field(default_factory=dict)


def new_play(seats: list[tuple[dict[str, Any], str | None]], uid: str, location: str = "", **fields: Any) -> NewPlay:
    """A new play: the fields given over what a play starts with, its seats and its place."""
    row = {
        "deleted_at": None,
        "tiebreak": None,
        "notes": "",
        "extra": {},
        "finished_at": None,
        "version": 0,
        "duration_min": None,
        "ignored": False,
        "seats_known": True,
        **fields,
    }
    return NewPlay(uid, {"uid": uid, **row}, seats, location)


def write_import(
    session: Session,
    source: str,
    plays: Sequence[NewPlay | LeftOut],
    players: Sequence[NewPlayer] = (),
    uids: Uids = Uids(),
    places: Sequence[NewPlace] = (),
) -> Summary:
    """Add the plays, roster entries and places (those listed, and those the plays name) the database lacks, in one
    transaction, all or nothing.

    If another import added one of these plays meanwhile (a uid taken), it runs again: the plays now there are
    skipped.
    """
    try:
        return _write(session, source, plays, players, uids, places)
    except IntegrityError:
        session.rollback()
        return _write(session, source, plays, players, uids, places)


def _write(
    session: Session,
    source: str,
    plays: Sequence[NewPlay | LeftOut],
    players: Sequence[NewPlayer],
    uids: Uids,
    places: Sequence[NewPlace],
) -> Summary:
    """One try of write_import: the roster and the places first, then the plays not there yet, committed together."""
    summary = Summary(source)
    roster = Roster(session, uids.players)
    try:
        for player in players:
            roster.get(player.name, player.created_at, player.uid)
        _add_places(session, places)
        present = existing_uids(session, [play.uid for play in plays if play.uid is not None])
        added: list[NewPlay] = []
        seen: set[str] = set()
        for play in plays:
            if play.uid is not None and (play.uid in present or play.uid in seen):
                summary.plays_present += 1
            elif isinstance(play, LeftOut):
                summary.left_out[play.why] = summary.left_out.get(play.why, 0) + 1
            else:
                seen.add(play.uid)
                added.append(play)
        _insert(session, roster, Places(session, uids.locations), added)
        _keep_game_uids(session, uids.games)
        summary.plays_added = len(added)
        summary.players_added = len(roster.added)
        summary.players_present = len(roster.present)
        history_version.move_on(session)
        session.commit()
    except Exception:
        session.rollback()
        raise
    if summary.plays_added >= ANALYZE_AFTER_PLAYS:
        _analyze(session)
    return summary


def _analyze(session: Session) -> None:
    """On PostgreSQL, the planner's statistics of the tables an import filled, gathered now rather than by
    autovacuum within the minute: the history's pages read right after a big import would scan whole tables."""
    if session.get_bind().dialect.name != "postgresql":
        return
    try:
        session.exec(text("ANALYZE play, seat"))  # type: ignore[call-overload]
        session.commit()
    except SQLAlchemyError:
        session.rollback()  # the import is saved; the statistics come with autovacuum


def existing_uids(session: Session, uids: Sequence[str]) -> set[str]:
    """Which of these uids the database has already, deleted plays included."""
    found: set[str] = set()
    for start in range(0, len(uids), UID_CHUNK):
        chunk = list(uids[start : start + UID_CHUNK])
        found.update(session.exec(select(Play.uid).where(col(Play.uid).in_(chunk))))
    return found


class Roster:
    """The roster looked up by name_key in memory, players added as the import meets them."""

    def __init__(self, session: Session, uids: Mapping[str, str] | None = None):
        """Read every player once (a roster is small; a 10,000-play file must not ask per seat)."""
        self.session = session
        self.by_key = {player.key: player for player in records.roster(session)}
        self.uids = dict(uids or {})
        self.taken = {player.uid for player in self.by_key.values() if player.uid is not None}
        self.added: set[str] = set()
        self.present: set[str] = set()

    def get(self, name: str, created_at: datetime | None = None, uid: str | None = None) -> Player:
        """The roster entry for this name, added when new; given the file's uid when it has none."""
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
        uid = uid or self.uids.get(key)
        if player.uid is None and uid is not None and uid not in self.taken:
            player.uid = uid
            self.taken.add(uid)
            self.session.add(player)
        return player


def place_key(name: str) -> str:
    """The key a place of this name is found by (its spaces run together first, as the place is stored)."""
    return name_key(" ".join(name.split()))


class Places:
    """The group's places looked up by key in memory (id and uid only), added as the import meets them."""

    def __init__(self, session: Session, uids: Mapping[str, str]):
        """Read every place once, as keys and ids: a file may list 10,000 of them."""
        self.session = session
        self.by_key: dict[str, tuple[int | None, str | None]] = {
            key: (place_id, uid) for key, place_id, uid in session.exec(select(Location.key, Location.id, Location.uid))
        }
        self.uids = uids
        self.taken = {uid for _, uid in self.by_key.values() if uid is not None}

    def id_of(self, name: str) -> int | None:
        """The id of the place of this name (None for no name), added when new; given the file's uid when it has none."""
        if not name.strip():
            return None
        key = place_key(name)
        if key not in self.by_key:
            place = records.find_or_add_location(self.session, name)
            if place is None:
                return None
            self.by_key[key] = (place.id, place.uid)
        place_id, uid = self.by_key[key]
        given = self.uids.get(key)
        if uid is None and given is not None and given not in self.taken:
            self.session.execute(update(Location).where(col(Location.id) == place_id).values(uid=given))
            self.by_key[key] = (place_id, given)
            self.taken.add(given)
        return place_id


def _add_places(session: Session, listed: Sequence[NewPlace]) -> None:
    """Add the file's places the database lacks, with the time each was added and its uid (an existing place takes
    the file's uid when it has none, and no other place has it)."""
    if not listed:
        return
    # Keys and uids, not rows: reading 10,000 places as objects took half a second each time.
    known: dict[str, str | None] = dict(session.exec(select(Location.key, Location.uid)).all())
    taken = {uid for uid in known.values() if uid is not None}
    new: dict[str, dict[str, Any]] = {}
    for entry in listed:
        key = place_key(entry.name)
        uid = entry.uid if entry.uid is not None and entry.uid not in taken else None
        if key in known:
            if known[key] is None and uid is not None:
                session.execute(update(Location).where(col(Location.key) == key).values(uid=uid))
                known[key] = uid
                taken.add(uid)
        elif key not in new:
            name = " ".join(entry.name.split())
            new[key] = {"name": name, "key": key, "uid": uid, "created_at": entry.created_at or utcnow()}
            if uid is not None:
                taken.add(uid)
    if new:
        # In one statement, not a find_or_add_location each: 10,000 places took 15 s so.
        session.execute(insert(Location), list(new.values()))


def _keep_game_uids(session: Session, uids: Mapping[str, str]) -> None:
    """Keep the file's uid of each of our games that has none yet."""
    for game, uid in uids.items():
        if session.get(GameUid, game) is None:
            session.add(GameUid(game=game, uid=uid))


def _insert(session: Session, roster: Roster, places: Places, plays: Sequence[NewPlay]) -> None:
    """Insert new plays and their seats, a chunk at a time.

    Rows, not ORM objects: building 35,000 SQLModel objects took most of a 10,000-play import's time.
    """
    play_table, seat_table = Play.__table__, Seat.__table__  # type: ignore[attr-defined]
    for start in range(0, len(plays), UID_CHUNK):
        chunk = plays[start : start + UID_CHUNK]
        session.flush()
        session.execute(
            insert(play_table), [{**play.row, "location_id": places.id_of(play.location)} for play in chunk]
        )
        uids = [play.uid for play in chunk]
        ids = dict(session.execute(select(play_table.c.uid, play_table.c.id).where(play_table.c.uid.in_(uids))).all())
        rows = [
            {**seat, "play_id": ids[play.uid], "player_id": None if name is None else roster.get(name).id}
            for play in chunk
            for seat, name in play.seats
        ]
        if rows:
            session.execute(insert(seat_table), rows)


# Both exports read the plays so ------------------------------------------------------------------------------


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
