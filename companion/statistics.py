"""The group's statistics, worked out from plain rows: a player's record and a game's (no Flask, no database).

The counting rules, as the games rank a play (games/base.py rank_scores): a seat with rank 1 wins; when several
seats share rank 1 they share the victory and each of them is counted a win. A play of one seat (Spires solo, one
player against the deck) has no one to beat: it stays out of plays, wins, win rates and head to head, and is
counted on its own (solo plays, best solo score). Only finished plays that are not deleted are read (read_player
and read_game filter them in the query); a seat with an empty breakdown (a play imported from BG Stats: total and
rank only) counts for totals and wins but not for the averages of the breakdown lines.

The page reads its rows in two queries (the roster, then every seat of the plays it needs, joined with its play),
never one per play, and works the rest out here in one pass over them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, func
from sqlmodel import Session, col, select

from .models import FINISHED, Play, Player, Seat

# Recent form: the newest plays of a player (solo left out), oldest first as a line is read.
FORM_PLAYS = 10
# A score distribution has at most this many bars: each keeps room for its label on a phone.
HISTOGRAM_BINS = 8


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One finished seat: who sat where in which play, the total, the rank and the breakdown lines (key, points)."""

    play_id: int
    game: str
    played_at: datetime
    player_id: int
    position: int
    total: int
    rank: int | None
    lines: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class PlayRows:
    """A finished play with its seats in turn order."""

    id: int
    game: str
    played_at: datetime
    seats: tuple[SeatRow, ...]

    @property
    def solo(self) -> bool:
        """One player against the game: no one to beat."""
        return len(self.seats) == 1

    @property
    def winners(self) -> tuple[SeatRow, ...]:
        """The seats ranked first (several when they share the victory)."""
        return tuple(seat for seat in self.seats if seat.rank == 1)


def group_plays(rows: Iterable[SeatRow]) -> list[PlayRows]:
    """Seats gathered into their plays, oldest play first (ties by id), seats in turn order."""
    seats: dict[int, list[SeatRow]] = defaultdict(list)
    for row in rows:
        seats[row.play_id].append(row)
    plays = [
        PlayRows(
            id=play_id, game=found[0].game, played_at=found[0].played_at, seats=tuple(sorted(found, key=_position))
        )
        for play_id, found in seats.items()
    ]
    plays.sort(key=lambda play: (play.played_at, play.id))
    return plays


def _position(seat: SeatRow) -> int:
    """The turn order of a seat."""
    return seat.position


def rate(part: int, whole: int) -> float | None:
    """part / whole, or None when there is nothing to divide (no plays yet: no rate, not 0 %)."""
    return part / whole if whole else None


def mean(values: Sequence[float]) -> float | None:
    """The average, or None for no values."""
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class Best:
    """A best (or record) score and the play it was made in."""

    total: int
    play_id: int


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game, multiplayer plays only."""

    game: str
    plays: int
    wins: int
    average: float
    best: Best

    @property
    def win_rate(self) -> float | None:
        """Wins per play."""
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class SoloRecord:
    """A player's solo plays of one game: apart from every win and rate."""

    game: str
    plays: int
    average: float
    best: Best


@dataclass(frozen=True)
class Versus:
    """Head to head with one other player, over the multiplayer plays both sat at."""

    player_id: int
    plays: int
    wins: int
    their_wins: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class FormPoint:
    """One recent play of a player: where they finished among how many, and their share of the table beaten."""

    play_id: int
    game: str
    played_at: datetime
    total: int
    rank: int | None
    seats: int
    won: bool
    shared: bool

    @property
    def beaten(self) -> float:
        """The share of the other players finishing below: 1 for a win (shared or not), 0 for last place."""
        if self.rank is None:
            return 0.0
        return 1.0 if self.won else max(0.0, (self.seats - self.rank) / (self.seats - 1))


@dataclass(frozen=True)
class PlayerStats:
    """A player's page: totals, each game, solo plays, head to head and recent form."""

    player_id: int
    plays: int
    wins: int
    shared_wins: int
    games: tuple[GameRecord, ...]
    solo: tuple[SoloRecord, ...]
    versus: tuple[Versus, ...]
    form: tuple[FormPoint, ...]

    @property
    def win_rate(self) -> float | None:
        """Wins per multiplayer play."""
        return rate(self.wins, self.plays)


def player_stats(player_id: int, plays: Sequence[PlayRows], form_plays: int = FORM_PLAYS) -> PlayerStats:
    """The statistics of one player over these plays (those without the player are ignored)."""
    totals: dict[str, list[int]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    best: dict[str, Best] = {}
    solo_totals: dict[str, list[int]] = defaultdict(list)
    solo_best: dict[str, Best] = {}
    versus: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    form: list[FormPoint] = []
    shared = 0
    for play in plays:
        mine = next((seat for seat in play.seats if seat.player_id == player_id), None)
        if mine is None:
            continue
        if play.solo:
            solo_totals[play.game].append(mine.total)
            _keep_best(solo_best, play.game, mine.total, play.id)
            continue
        totals[play.game].append(mine.total)
        _keep_best(best, play.game, mine.total, play.id)
        won = mine.rank == 1
        winners = len(play.winners)
        if won:
            wins[play.game] += 1
            shared += winners > 1
        form.append(
            FormPoint(
                play.id, play.game, play.played_at, mine.total, mine.rank, len(play.seats), won, won and winners > 1
            )
        )
        for other in play.seats:
            if other is mine:
                continue
            tally = versus[other.player_id]
            tally[0] += 1
            tally[1] += won
            tally[2] += other.rank == 1
            order = _compare(mine.rank, other.rank)
            tally[3 + order] += 1
    games = tuple(
        GameRecord(game, len(scores), wins[game], sum(scores) / len(scores), best[game])
        for game, scores in totals.items()
    )
    solo = tuple(
        SoloRecord(game, len(scores), sum(scores) / len(scores), solo_best[game])
        for game, scores in solo_totals.items()
    )
    return PlayerStats(
        player_id=player_id,
        plays=sum(record.plays for record in games),
        wins=sum(record.wins for record in games),
        shared_wins=shared,
        games=games,
        solo=solo,
        versus=tuple(Versus(other, *tally) for other, tally in versus.items()),
        form=tuple(form[-form_plays:]) if form_plays else (),
    )


def _keep_best(best: dict[str, Best], game: str, total: int, play_id: int) -> None:
    """Remember the highest total of a game; the first play to reach it keeps it."""
    if game not in best or total > best[game].total:
        best[game] = Best(total, play_id)


def _compare(mine: int | None, theirs: int | None) -> int:
    """0 when I finished ahead, 1 behind, 2 level (the same rank, or ranks unknown)."""
    if mine is None or theirs is None or mine == theirs:
        return 2
    return 0 if mine < theirs else 1


@dataclass(frozen=True)
class Bin:
    """One bar of a score distribution: the totals from low to high (both included) and how many."""

    low: int
    high: int
    count: int


@dataclass(frozen=True)
class SeatPosition:
    """Wins from one seat of the turn order (0 = first player), multiplayer plays only."""

    position: int
    plays: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        """Wins per play from this seat."""
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class LineAverage:
    """A breakdown line's average points: over every scored seat, the winners' and the other players'."""

    key: str
    label: str
    average: float
    winners: float | None
    others: float | None

    @property
    def gap(self) -> float | None:
        """How much more the winners score on this line than the others, on average."""
        return None if self.winners is None or self.others is None else self.winners - self.others


@dataclass(frozen=True)
class Holder:
    """A player who made a record score, and in which play."""

    player_id: int
    play_id: int
    played_at: datetime


@dataclass(frozen=True)
class Record:
    """The highest total, and everyone who reached it (oldest first)."""

    total: int
    holders: tuple[Holder, ...]


@dataclass(frozen=True)
class PlayerInGame:
    """One player's plays, wins and best score in a game (multiplayer plays)."""

    player_id: int
    plays: int
    wins: int
    best: int

    @property
    def win_rate(self) -> float | None:
        """Wins per play."""
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class GameStats:
    """A game's page: plays, record, winning scores, distribution, seats, breakdown lines; solo apart."""

    game: str
    plays: int
    shared_plays: int
    record: Record | None
    average_winning: float | None
    distribution: tuple[Bin, ...]
    positions: tuple[SeatPosition, ...]
    lines: tuple[LineAverage, ...]
    scored_seats: int
    seats: int
    players: tuple[PlayerInGame, ...]
    solo_plays: int = 0
    solo_record: Record | None = None
    solo_average: float | None = None

    @property
    def deciding(self) -> LineAverage | None:
        """The line on which the winners gain most over the others (None when no winner is ahead on any line)."""
        gaps = [line for line in self.lines if line.gap is not None and line.gap > 0]
        return max(gaps, key=lambda line: line.gap or 0.0) if gaps else None


def game_stats(game: str, plays: Sequence[PlayRows], labels: Sequence[tuple[str, str]] = ()) -> GameStats:
    """The statistics of one game over these plays (plays of other games are ignored); lines in `labels` order."""
    plays = [play for play in plays if play.game == game]
    multi = [play for play in plays if not play.solo]
    solo = [play for play in plays if play.solo]
    seats = [seat for play in multi for seat in play.seats]
    winning = [max(seat.total for seat in play.winners) for play in multi if play.winners]
    positions: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    people: dict[int, list[int]] = {}
    for seat in seats:
        positions[seat.position][0] += 1
        positions[seat.position][1] += seat.rank == 1
        tally = people.setdefault(seat.player_id, [0, 0, seat.total])
        tally[0] += 1
        tally[1] += seat.rank == 1
        tally[2] = max(tally[2], seat.total)
    ranked_people = sorted(
        (PlayerInGame(player_id, *tally) for player_id, tally in people.items()),
        key=lambda p: (-p.wins, -(p.win_rate or 0.0), -p.plays, p.player_id),
    )
    solo_totals = [play.seats[0].total for play in solo]
    return GameStats(
        game=game,
        plays=len(multi),
        shared_plays=sum(len(play.winners) > 1 for play in multi),
        record=record(multi),
        average_winning=mean(winning),
        distribution=histogram([seat.total for seat in seats]),
        positions=tuple(SeatPosition(position, *tally) for position, tally in sorted(positions.items())),
        lines=line_averages(multi, labels),
        scored_seats=sum(bool(seat.lines) for seat in seats),
        seats=len(seats),
        players=tuple(ranked_people),
        solo_plays=len(solo),
        solo_record=record(solo),
        solo_average=mean(solo_totals),
    )


def record(plays: Sequence[PlayRows]) -> Record | None:
    """The highest total over these plays and every seat that reached it, oldest first; None for no plays."""
    seats = [(seat, play) for play in plays for seat in play.seats]
    if not seats:
        return None
    top = max(seat.total for seat, _ in seats)
    holders = tuple(Holder(seat.player_id, play.id, play.played_at) for seat, play in seats if seat.total == top)
    return Record(top, holders)


def line_averages(plays: Sequence[PlayRows], labels: Sequence[tuple[str, str]] = ()) -> tuple[LineAverage, ...]:
    """Each breakdown line's average over the seats that have a breakdown, for everyone, winners and the others."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    counts = [0, 0, 0]
    for play in plays:
        for seat in play.seats:
            if not seat.lines:
                continue
            group = 1 if seat.rank == 1 else 2
            counts[0] += 1
            counts[group] += 1
            for key, points in seat.lines:
                sums[key][0] += points
                sums[key][group] += points
    if not counts[0]:
        return ()
    names = dict(labels)
    order = [key for key, _ in labels if key in sums] + [key for key in sums if key not in names]
    return tuple(
        LineAverage(
            key,
            names.get(key, key),
            sums[key][0] / counts[0],
            sums[key][1] / counts[1] if counts[1] else None,
            sums[key][2] / counts[2] if counts[2] else None,
        )
        for key in order
    )


def _round_widths() -> Iterable[int]:
    """1, 2, 5, 10, 20, 50, 100, ...: widths whose bars read as round numbers."""
    scale = 1
    while True:
        for step in (1, 2, 5):
            yield step * scale
        scale *= 10


def histogram(totals: Sequence[int], bins: int = HISTOGRAM_BINS) -> tuple[Bin, ...]:
    """The totals counted into at most `bins` bars of the narrowest round width, each starting at a multiple of it."""
    if not totals:
        return ()
    low, high = min(totals), max(totals)
    for width in _round_widths():
        start = (low // width) * width
        count = (high - start) // width + 1
        if count <= bins:
            break
    counts = [0] * count
    for total in totals:
        counts[(total - start) // width] += 1
    return tuple(Bin(start + i * width, start + (i + 1) * width - 1, n) for i, n in enumerate(counts))


@dataclass(frozen=True)
class RosterLine:
    """A player on the roster page: multiplayer plays and wins, and solo plays apart."""

    player_id: int
    name: str
    plays: int
    wins: int
    solo: int

    @property
    def win_rate(self) -> float | None:
        """Wins per multiplayer play."""
        return rate(self.wins, self.plays)


def roster_lines(plays: Sequence[PlayRows], names: Mapping[int, str]) -> list[RosterLine]:
    """Every player of the roster with plays and wins counted from these plays (the pure twin of read_roster)."""
    tally: dict[int, list[int]] = {player_id: [0, 0, 0] for player_id in names}
    for play in plays:
        for seat in play.seats:
            counts = tally.setdefault(seat.player_id, [0, 0, 0])
            if play.solo:
                counts[2] += 1
            else:
                counts[0] += 1
                counts[1] += seat.rank == 1
    return [RosterLine(player_id, names.get(player_id, ""), *counts) for player_id, counts in tally.items()]


# The database side: each page's rows in a fixed number of queries.

_SEAT_COLUMNS = (
    col(Seat.play_id),
    col(Play.game),
    col(Play.played_at),
    col(Seat.player_id),
    col(Seat.position),
    col(Seat.total),
    col(Seat.rank),
)


def _counted() -> tuple[Any, ...]:
    """The conditions of a seat that counts: its play finished and not deleted, and a total stored."""
    return (col(Play.status) == FINISHED, col(Play.deleted_at).is_(None), col(Seat.total).is_not(None))


def read_names(session: Session) -> dict[int, str]:
    """The roster: each player's id and name, by name (one query)."""
    rows = session.exec(select(Player.id, Player.name).order_by(col(Player.key)))
    return {player_id: name for player_id, name in rows if player_id is not None}


def read_player(session: Session, player_id: int) -> list[PlayRows]:
    """Every counted play the player sat at, with all its seats (one query, no breakdowns: the page needs none)."""
    theirs = select(Seat.play_id).where(col(Seat.player_id) == player_id)
    query = (
        select(*_SEAT_COLUMNS)
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(col(Seat.play_id).in_(theirs), *_counted())
    )
    return group_plays(SeatRow(*row) for row in session.exec(query))


def read_game(session: Session, game: str) -> list[PlayRows]:
    """Every counted play of a game with its seats and their breakdown lines (one query)."""
    query = (
        select(*_SEAT_COLUMNS, col(Seat.breakdown))
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(col(Play.game) == game, *_counted())
    )
    return group_plays(SeatRow(*row[:7], _lines(row[7])) for row in session.exec(query))


def _lines(breakdown: Any) -> tuple[tuple[str, int], ...]:
    """A stored breakdown as (key, points) pairs; anything unreadable (an import's empty or odd list) as none."""
    if not isinstance(breakdown, list):
        return ()
    return tuple(
        (str(line["key"]), int(line["points"]))
        for line in breakdown
        if isinstance(line, dict) and "key" in line and isinstance(line.get("points"), int)
    )


def read_roster(session: Session) -> list[RosterLine]:
    """Every player with multiplayer plays, wins and solo plays, counted in the database (two queries)."""
    names = read_names(session)
    sizes = (
        select(col(Seat.play_id).label("play_id"), func.count().label("seats"))
        .join(Play, col(Play.id) == col(Seat.play_id))
        .where(*_counted())
        .group_by(col(Seat.play_id))
        .subquery()
    )
    multi = sizes.c.seats > 1
    query = (
        select(
            col(Seat.player_id),
            func.sum(case((multi, 1), else_=0)),
            func.sum(case((multi & (col(Seat.rank) == 1), 1), else_=0)),
            func.sum(case((multi, 0), else_=1)),
        )
        .join(sizes, sizes.c.play_id == col(Seat.play_id))
        .where(col(Seat.total).is_not(None))
        .group_by(col(Seat.player_id))
    )
    counted = {player_id: (int(p), int(w), int(s)) for player_id, p, w, s in session.exec(query)}
    return [RosterLine(player_id, name, *counted.get(player_id, (0, 0, 0))) for player_id, name in names.items()]


@dataclass(frozen=True)
class Names:
    """Player ids to roster names, for the pages (a player deleted from the roster reads as 'Unknown player')."""

    names: Mapping[int, str] = field(default_factory=dict)

    def __call__(self, player_id: int) -> str:
        """The roster name of a player id."""
        return self.names.get(player_id, "Unknown player")
