"""A player's records the way score-keeping apps' users ask for them (issue 22): the longest winning streak, the
best and average score by game and number of players, and each year at the table (plays, time, wins, the
favourite game). Pure, over the counted plays of companion/store/statistics.py read_player (oldest first, each
with its year in the group's time zone, TIME_ZONE).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean

from companion.stats.figures import Best
from companion.store.statistics import CountedSeat, PlayRows

# A play with the player's own seat in it.
Mine = tuple[PlayRows, CountedSeat]


@dataclass(frozen=True)
class Streak:
    """Wins in a row in the player's multiplayer plays (any game), a shared victory counting as a win."""

    length: int
    first_play: int
    last_play: int


@dataclass(frozen=True)
class CountRecord:
    """The player's scores in one game at one number of players (1: solo)."""

    game: str
    players: int
    plays: int
    wins: int
    average: float | None
    best: Best | None


@dataclass(frozen=True)
class YearAtTable:
    """One year of the player's plays (solo ones too): how many, the minutes of those timed, wins, the favourite."""

    year: int
    plays: int
    timed: int
    minutes: int
    wins: int
    favourite: str
    favourite_plays: int


@dataclass(frozen=True)
class PlayerRecords:
    """Everything above for one player."""

    streak: Streak | None
    by_count: tuple[CountRecord, ...]
    years: tuple[YearAtTable, ...]


def player_records(player_id: int, plays: Sequence[PlayRows]) -> PlayerRecords:
    """The player's records over these plays (those without the player are ignored)."""
    theirs = [(play, seat) for play in plays for seat in play.seats if seat.player_id == player_id]
    return PlayerRecords(longest_streak(theirs), by_count(theirs), years(theirs))


def longest_streak(theirs: Sequence[Mine]) -> Streak | None:
    """The longest run of multiplayer wins in date order (the first such run when two are as long); None without
    a win."""
    best: Streak | None = None
    run: list[int] = []
    for play, seat in theirs:
        if play.solo:
            continue
        if seat.rank == 1:
            run.append(play.id)
            if best is None or len(run) > best.length:
                best = Streak(len(run), run[0], run[-1])
        else:
            run = []
    return best


def by_count(theirs: Sequence[Mine]) -> tuple[CountRecord, ...]:
    """Per game and number of players: plays, wins, the average and best of the player's scores."""
    groups: dict[tuple[str, int], list[Mine]] = defaultdict(list)
    for play, seat in theirs:
        groups[(play.game, len(play.seats))].append((play, seat))
    found = []
    for (game, count), rows in sorted(groups.items()):
        scored = [(seat.total, play.id) for play, seat in rows]
        totals = [(total, play_id) for total, play_id in scored if total is not None]
        top = max(totals, key=lambda pair: pair[0], default=None)
        wins = sum(seat.rank == 1 for play, seat in rows if not play.solo)
        average = mean(total for total, _ in totals) if totals else None
        found.append(CountRecord(game, count, len(rows), wins, average, Best(*top) if top else None))
    return tuple(found)


def years(theirs: Sequence[Mine]) -> tuple[YearAtTable, ...]:
    """Each year with plays, newest first; the favourite game is the one played most that year (of two played as
    often, the one played first)."""
    grouped: dict[int, list[Mine]] = defaultdict(list)
    for play, seat in theirs:
        if play.year is not None:
            grouped[play.year].append((play, seat))
    found = []
    for year in sorted(grouped, reverse=True):
        rows = grouped[year]
        games = Counter(play.game for play, _ in rows)
        favourite, favourite_plays = games.most_common(1)[0]
        timed = [play.duration_min for play, _ in rows if play.duration_min is not None]
        wins = sum(seat.rank == 1 for play, seat in rows if not play.solo)
        found.append(YearAtTable(year, len(rows), len(timed), sum(timed), wins, favourite, favourite_plays))
    return tuple(found)
