"""The statistics' rows and their queries: each counted seat with its play, the roster, a game's line sums.

A seat that counts belongs to a finished play that is neither deleted nor ignored (BG Stats' "ignored": kept in the
history, left out of every statistic); read_player, read_game and read_roster filter them in the query. A counted
seat may be a guest's (no player: an imported anonymous player) or have no total (a play imported with its winner
but no scores): the figures (companion/stats/figures.py) decide what each of those counts for. Each page reads its
rows in a fixed number of queries (the roster, then every seat of the plays it needs, joined with its play), never
one per play, and read without the ORM's objects; the figures are worked out from these rows in
companion/stats/figures.py. Dates are not read per seat (parsing thousands of them is most of a big page's time):
the plays come oldest first from the query, and read_dates fetches the few dates a page shows.
"""

from __future__ import annotations

import typing
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from sqlalchemy import Text, case, cast, extract, func, text
from sqlalchemy import select as core_select  # typed for more columns than sqlmodel's select (4)
from sqlmodel import Session, col, select

from companion.store.models import FINISHED, Play, Player, Seat


@dataclass(frozen=True, slots=True)
class CountedSeat:
    """One finished seat: who sat where in which play (player None: a guest), the total (None: the play was imported
    with its winner but no scores) and the rank; the breakdown lines (key, points) when the game page's pure twin
    needs them, else only whether it has any (`scored`). Its play's seat order and minutes come with every seat, as
    the game does, so that one query reads a page."""

    play_id: int
    game: str
    player_id: int | None
    position: int
    total: int | None
    rank: int | None
    scored: bool = False
    lines: tuple[tuple[str, int], ...] = ()
    seats_known: bool = True
    duration_min: int | None = None
    # The year the play was played in, in the group's zone, where the page needs it (a player's year by year).
    year: int | None = None

    @property
    def has_breakdown(self) -> bool:
        """Scored line by line (a play imported with only totals and ranks has no lines)."""
        return self.scored or bool(self.lines)


@dataclass(frozen=True)
class PlayRows:
    """A finished play with its seats in turn order, whether that order is known, and its minutes at the table (None:
    unknown)."""

    id: int
    game: str
    seats: tuple[CountedSeat, ...]
    seats_known: bool = True
    duration_min: int | None = None
    year: int | None = None

    @property
    def solo(self) -> bool:
        """One player against the game: no one to beat."""
        return len(self.seats) == 1

    @property
    def winners(self) -> tuple[CountedSeat, ...]:
        """The seats ranked first (several when they share the victory)."""
        return tuple(seat for seat in self.seats if seat.rank == 1)


def group_plays(rows: Iterable[CountedSeat]) -> list[PlayRows]:
    """Seats gathered into their plays, the plays in the order of their first seat (the queries read them oldest
    first), seats in turn order."""
    seats: dict[int, list[CountedSeat]] = defaultdict(list)
    for row in rows:
        seats[row.play_id].append(row)
    return [
        PlayRows(
            play_id,
            found[0].game,
            tuple(sorted(found, key=_position)),
            found[0].seats_known,
            found[0].duration_min,
            found[0].year,
        )
        for play_id, found in seats.items()
    ]


def _position(seat: CountedSeat) -> int:
    """The turn order of a seat."""
    return seat.position


def rate(part: int, whole: int) -> float | None:
    """part / whole, or None when there is nothing to divide (no plays yet: no rate, not 0 %)."""
    return part / whole if whole else None


@dataclass(frozen=True)
class LineSums:
    """Points of each breakdown line summed over the seats scored line by line, winners' and the others' apart,
    and how many such seats each group has."""

    winners: Mapping[str, float]
    others: Mapping[str, float]
    winner_seats: int
    other_seats: int


@dataclass(frozen=True)
class RosterLine:
    """A player on the roster page: multiplayer plays and wins, solo plays apart, and the minutes at the table over
    the plays (solo ones too) whose time is known (`timed` of them)."""

    player_id: int
    name: str
    plays: int
    wins: int
    solo: int
    timed: int = 0
    minutes: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins per multiplayer play."""
        return rate(self.wins, self.plays)

    @property
    def time_played(self) -> int | None:
        """Minutes at the table in all; None when no play's time is known (not 0)."""
        return self.minutes if self.timed else None


_SEAT_COLUMNS = (
    col(Seat.play_id),
    col(Play.game),
    col(Seat.player_id),
    col(Seat.position),
    col(Seat.total),
    col(Seat.rank),
    col(Play.seats_known),
    col(Play.duration_min),
)
# The rows those columns give.
_SeatColumns = tuple[int, str, int | None, int, int | None, int | None, bool, int | None]
_OLDEST_FIRST = (col(Play.played_at), col(Play.id), col(Seat.position))
# Breakdowns as the seats store them: '[]' (an import with totals only) and JSON null say there are no lines.
_NO_LINES = ("[]", "null")
# A play's year in the group's zone, without converting every date: no zone is more than 14 hours from UTC, so only
# a play on 31 December or 1 January in UTC may fall in another year there. The database gives every play's UTC
# year (on SQLite and PostgreSQL alike, from the stored UTC moment) and the moment itself of those few plays only,
# which Python converts (SQLite knows no zone but the server's own).
_MONTH, _DAY = extract("month", col(Play.played_at)), extract("day", col(Play.played_at))
_NEAR_NEW_YEAR = ((_MONTH == 12) & (_DAY == 31)) | ((_MONTH == 1) & (_DAY == 1))
_YEAR_COLUMNS = (extract("year", col(Play.played_at)), case((_NEAR_NEW_YEAR, col(Play.played_at)), else_=None))


def _counted() -> tuple[Any, ...]:
    """The conditions of a seat that counts: its play finished, neither deleted nor ignored."""
    return (col(Play.status) == FINISHED, col(Play.deleted_at).is_(None), ~col(Play.ignored))


def _seat(row: _SeatColumns, scored: bool = False, year: int | None = None) -> CountedSeat:
    """A counted seat from the columns of _SEAT_COLUMNS."""
    play_id, game, player_id, position, total, rank, seats_known, minutes = row
    return CountedSeat(play_id, game, player_id, position, total, rank, scored, (), bool(seats_known), minutes, year)


def read_names(session: Session) -> dict[int, str]:
    """The roster: each player's id and name, by name (one query)."""
    rows = session.connection().execute(select(Player.id, Player.name).order_by(col(Player.key)))
    return dict(rows.all())  # the rows, not the result: dict() would take its keys() for a mapping


def read_dates(session: Session, play_ids: Iterable[int]) -> dict[int, datetime]:
    """When each of these plays was played (one query, for the few plays a page names)."""
    wanted = sorted(set(play_ids))
    if not wanted:
        return {}
    rows = session.connection().execute(select(Play.id, Play.played_at).where(col(Play.id).in_(wanted)))
    return dict(rows.all())  # the rows, not the result: dict() would take its keys() for a mapping


def read_player(session: Session, player_id: int, zone: tzinfo | None = None) -> list[PlayRows]:
    """Every counted play the player sat at, oldest first, with all its seats and its year in `zone` (None: the
    server's own) (one query; no breakdowns; the year worked out by the database, so that no date is parsed per
    seat but those around New Year)."""
    theirs = select(Seat.play_id).where(col(Seat.player_id) == player_id)
    query = (
        core_select(*_SEAT_COLUMNS, *_YEAR_COLUMNS)
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(col(Seat.play_id).in_(theirs), *_counted())
        .order_by(*_OLDEST_FIRST)
    )
    rows = typing.cast("Iterable[tuple[*_SeatColumns, int, datetime | None]]", session.connection().execute(query))
    return group_plays(_seat(row[:8], year=local_year(int(row[8]), row[9], zone)) for row in rows)


def local_year(utc_year: int, moment: datetime | None, zone: tzinfo | None) -> int:
    """The year of a play in `zone` (None: the server's own): its UTC year, or its moment's year there where the
    query gave the moment (a play around New Year)."""
    if moment is None:
        return utc_year
    # The database gives the stored UTC moment without its zone; astimezone would take a naive one as local.
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).astimezone(zone).year


def read_game(session: Session, game: str) -> list[PlayRows]:
    """Every counted play of a game, oldest first, with its seats and whether each was scored line by line (one
    query; the lines themselves are summed in the database by read_line_sums)."""
    stored = func.coalesce(cast(col(Seat.breakdown), Text), "null")
    query = (
        core_select(*_SEAT_COLUMNS, stored.not_in(_NO_LINES))
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(col(Play.game) == game, *_counted())
        .order_by(*_OLDEST_FIRST)
    )
    rows = typing.cast("Iterable[tuple[*_SeatColumns, bool]]", session.connection().execute(query))
    return group_plays(_seat(row[:8], scored=bool(row[8])) for row in rows)


# Each line's points summed per group (winners, others) over a game's counted multiplayer seats with a total (a
# guest's too: a seat's score counts for the game whoever made it), in the database:
# reading every breakdown into Python (with each line's sentence) would cost more than the rest of the page.
_LINE_SUMS = {
    "sqlite": """
        SELECT seat.rank = 1, json_extract(line.value, '$.key'), SUM(json_extract(line.value, '$.points'))
        FROM seat JOIN play ON play.id = seat.play_id, json_each(seat.breakdown) AS line
        WHERE {where}
        GROUP BY 1, 2""",
    "postgresql": """
        SELECT seat.rank = 1, line ->> 'key', SUM((line ->> 'points')::integer)
        FROM seat JOIN play ON play.id = seat.play_id,
            LATERAL json_array_elements(
                CASE WHEN json_typeof(seat.breakdown) = 'array' THEN seat.breakdown ELSE '[]'::json END
            ) AS line
        WHERE {where} AND json_typeof(line -> 'points') = 'number'
        GROUP BY 1, 2""",
}
_LINE_SUMS_WHERE = (
    "play.game = :game AND play.status = :finished AND play.deleted_at IS NULL AND NOT play.ignored"
    " AND seat.total IS NOT NULL"
    " AND EXISTS (SELECT 1 FROM seat AS other WHERE other.play_id = seat.play_id AND other.id <> seat.id)"
)


def read_line_sums(session: Session, game: str, plays: Sequence[PlayRows]) -> LineSums:
    """The game's line sums from the database (one query); the seats counted per group from the plays' rows."""
    connection = session.connection()
    sql = _LINE_SUMS[connection.dialect.name].format(where=_LINE_SUMS_WHERE)
    sums: tuple[dict[str, float], dict[str, float]] = ({}, {})
    for won, key, points in connection.execute(text(sql), {"game": game, "finished": FINISHED}):
        if key is not None:
            sums[0 if won else 1][str(key)] = float(points or 0)
    seats = [
        seat for play in plays if not play.solo for seat in play.seats if seat.has_breakdown and seat.total is not None
    ]
    winners = sum(seat.rank == 1 for seat in seats)
    return LineSums(sums[0], sums[1], winners, len(seats) - winners)


def read_roster(session: Session) -> list[RosterLine]:
    """Every player with multiplayer plays, wins, solo plays and time played, counted in the database (two
    queries). A guest's seat makes a play multiplayer but gives no line."""
    return roster_lines(read_names(session), read_roster_counts(session))


# A player's counts on the roster: multiplayer plays, wins, solo plays, plays with a time, minutes.
RosterCounts = tuple[int, ...]


def roster_lines(names: Mapping[int, str], counted: Mapping[int, RosterCounts]) -> list[RosterLine]:
    """The roster's lines: every player named, with the counts of those who have any (else none)."""
    return [RosterLine(player_id, name, *counted.get(player_id, (0, 0, 0))) for player_id, name in names.items()]


def read_roster_counts(session: Session) -> dict[int, RosterCounts]:
    """Each player's counts on the roster, by player id, counted in the database (one query)."""
    sizes = (
        core_select(
            col(Seat.play_id).label("play_id"),
            func.count().label("seats"),
            func.max(col(Play.duration_min)).label("minutes"),  # one value per play: max() only carries it
        )
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(*_counted())
        .group_by(col(Seat.play_id))
        .subquery()
    )
    multi = sizes.c.seats > 1
    query = (
        core_select(
            col(Seat.player_id),
            func.sum(case((multi, 1), else_=0)),
            func.sum(case((multi & (col(Seat.rank) == 1), 1), else_=0)),
            func.sum(case((multi, 0), else_=1)),
            func.count(sizes.c.minutes),
            func.coalesce(func.sum(sizes.c.minutes), 0),
        )
        .join(sizes, sizes.c.play_id == col(Seat.play_id))
        .where(col(Seat.player_id).is_not(None))
        .group_by(col(Seat.player_id))
    )
    return {row[0]: tuple(int(n) for n in row[1:]) for row in session.connection().execute(query)}
