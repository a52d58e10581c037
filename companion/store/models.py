"""The tables: Player (the roster), Location (the group's places), Play, Seat (a player in a play), Change (one entry
per tap), GameUid (a game's uuid in BG Stats' files), HistoryVersion (moved by every write the statistics see) and
ReportJob (a history report being made, shared by every app server)."""

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from sqlalchemy import JSON, BigInteger, Column, Index, LargeBinary, Text
from sqlmodel import Field, Relationship, SQLModel

# Ids in URLs are at most PostgreSQL's integer: a longer number is a 404, not an overflow in the database driver.
ID_IN_URL = "int(max=2147483647)"

# The longest notes a play keeps; the API and the calculator refuse longer ones with a message.
NOTES_MAX = 2000
# The longest name of a place.
LOCATION_MAX = 60
# The longest time at the table a play is given (a day, in minutes): more is a typing error.
DURATION_MAX = 24 * 60

IN_PROGRESS = "in_progress"
FINISHED = "finished"
# Put aside from the list of games in progress; kept, and can be resumed.
ABANDONED = "abandoned"


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class Player(SQLModel, table=True):
    """A member of the group's roster: the name as first typed, and the key that makes two spellings one player."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40, index=True)
    # games.base.name_key(name): worked out in Python, never by the database's lower(), which folds differently.
    key: str = Field(unique=True, index=True)
    created_at: datetime = Field(default_factory=utcnow)
    # The player's uuid in BG Stats' files, kept from an import so that our export gives it back; None: made from
    # the key (bgstats.bg_uuid), the same in every export.
    uid: str | None = Field(default=None, max_length=36, unique=True)


class Location(SQLModel, table=True):
    """One of the group's places to play, picked or typed when a play starts: the name as first typed, and its key."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=LOCATION_MAX)
    key: str = Field(unique=True, index=True)
    # Its uuid in BG Stats' files, kept from an import; None: made from the key.
    uid: str | None = Field(default=None, max_length=36, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


class GameUid(SQLModel, table=True):
    """One of our games' uuid in BG Stats' files, kept from the first import that named it, so the export gives it
    back (BG Stats merges a file by uuids)."""

    game: str = Field(primary_key=True, max_length=20)
    uid: str = Field(max_length=36)


class Play(SQLModel, table=True):
    """One game played (or being played) at the table."""

    # The lists of open plays read a page by status, newest first; the history reads finished plays by date, of
    # every game or of one.
    __table_args__ = (
        Index("ix_play_status_created_at", "status", "created_at"),
        Index("ix_play_status_played_at", "status", "played_at"),
        Index("ix_play_game_status_played_at", "game", "status", "played_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=20, index=True)
    status: str = Field(default=IN_PROGRESS, max_length=20, index=True)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    rules_version: str = Field(max_length=60)
    source: str = Field(default="tracker", max_length=20)
    created_at: datetime = Field(default_factory=utcnow)
    played_at: datetime = Field(default_factory=utcnow, index=True)
    finished_at: datetime | None = None
    # Deleted from the history: kept this long (history.RESTORE_DAYS) so that it can be restored, left out of
    # every list, statistic and export meanwhile.
    deleted_at: datetime | None = Field(default=None, index=True)
    # The play's identity across databases: an export imported twice, or into the database it came from, adds it
    # once.
    uid: str = Field(default_factory=lambda: uuid4().hex, max_length=36, unique=True)
    notes: str = Field(default="", max_length=NOTES_MAX)
    tiebreak: str | None = Field(default=None, max_length=2000)
    extra: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # Where it was played, if said.
    location_id: int | None = Field(default=None, foreign_key="location.id", index=True)
    # Minutes at the table (start to finish, time put aside left out), or None where unknown (scored at the end).
    duration_min: int | None = None
    # Marked "ignored" in BG Stats: kept and listed, left out of every statistic.
    ignored: bool = False
    # False for a play imported without seat order: its seats are in no turn order, so "Wins by seat" leaves it out.
    seats_known: bool = True
    # Moves on with every tap, so that two devices (or two app servers) never overwrite each other's tap.
    version: int = 0

    seats: list["Seat"] = Relationship(
        back_populates="play", sa_relationship_kwargs={"order_by": "Seat.position", "lazy": "selectin"}
    )
    location: Location | None = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class Seat(SQLModel, table=True):
    """A player in a play: turn order, colour, tracked state and, once finished, the result."""

    id: int | None = Field(default=None, primary_key=True)
    play_id: int = Field(foreign_key="play.id", index=True)
    # None for a guest (BG Stats' anonymous player): a seat of that play only, never on the roster.
    player_id: int | None = Field(default=None, foreign_key="player.id", index=True)
    # The name as it was played and scored; the roster entry may spell it with other capitals.
    name: str = Field(max_length=40)
    position: int
    colour: str = Field(default="", max_length=20)
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    total: int | None = None
    rank: int | None = None
    breakdown: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON))

    play: Play = Relationship(back_populates="seats")
    player: Player | None = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class Change(SQLModel, table=True):
    """One tap: what changed from what to what, when, from which device."""

    id: int | None = Field(default=None, primary_key=True)
    play_id: int = Field(foreign_key="play.id", index=True)
    seat_id: int | None = Field(default=None, foreign_key="seat.id")
    field: str = Field(max_length=60)
    old: Any = Field(default=None, sa_column=Column(JSON))
    new: Any = Field(default=None, sa_column=Column(JSON))
    at: datetime = Field(default_factory=utcnow)
    device: str = Field(default="", max_length=64)
    undone: bool = False
    # The Idempotency-Key the device sent with the action: the same key again is the same action, applied once.
    client_id: str | None = Field(default=None, max_length=64)

    __table_args__ = (Index("ix_change_play_client", "play_id", "client_id", unique=True),)


class HistoryVersion(SQLModel, table=True):
    """The one row whose version moves on with every write that changes what the statistics and the history show:
    each app server keeps its figures under the version they were counted at (companion/store/history_version.py)."""

    __tablename__ = "history_version"
    id: int = Field(default=1, primary_key=True, sa_column_kwargs={"autoincrement": False})
    version: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))


class ReportJob(SQLModel, table=True):
    """A history report being made or made: how far it got (plays laid out of `total`), then its PDF or what went
    wrong. Any app server answers for it; the one making it moves `heartbeat_at` on as it goes."""

    __tablename__ = "report_job"
    id: str = Field(primary_key=True, max_length=32)
    description: str = Field(sa_column=Column(Text, nullable=False))
    total: int | None = None
    matched: int = 0
    done: int = 0
    pdf: bytes | None = Field(default=None, sa_column=Column(LargeBinary))
    error: str | None = Field(default=None, sa_column=Column(Text))
    started_at: datetime = Field(default_factory=utcnow, index=True)
    heartbeat_at: datetime = Field(default_factory=utcnow)


def saved_id(row: Player | Location | Play | Seat | Change) -> int:
    """The id of a row read from the database or flushed to it (the id is None only before that)."""
    assert row.id is not None, f"{type(row).__name__} used before it was flushed"
    return row.id
