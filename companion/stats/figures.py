"""The group's statistics, worked out from the store's rows (companion/store/statistics.py): a player's record and
a game's, in one pass over them (no Flask, no query).

The counting rules, as the games rank a play (games/base.py rank_scores): a seat with rank 1 wins; when several
seats share rank 1 they share the victory and each of them is counted a win. A play of one seat (Spires solo, one
player against the deck) has no one to beat: it stays out of plays, wins, win rates and head to head, and is
counted on its own (solo plays, best solo score). Only finished plays that are neither deleted nor ignored are
counted (the store's queries leave the others out); a seat with an empty breakdown (a play imported from BG Stats:
total and rank only) counts for totals and wins but not for the averages of the breakdown lines, and a seat without
a total (imported with its winner only) counts for plays, wins and losses but in no score figure. A guest's seat
(no player) is one more player at the table: it makes a play multiplayer and its score counts for the game's
figures, but it has no line of its own and is nobody's opponent head to head. "Wins by seat" counts only plays
whose seat order is known. Time played is over every counted play whose minutes are known, solo ones too (time at
the table is no contest), and never 0 for none known.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.store.statistics import LineSums, PlayRows, RosterLine, rate

# Recent form: the newest plays of a player (solo left out), oldest first as a line is read.
FORM_PLAYS = 10
# A score distribution has at most this many bars: each keeps room for its label on a phone.
HISTOGRAM_BINS = 8


def mean(values: Sequence[float]) -> float | None:
    """The average, or None for no values."""
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class TimePlayed:
    """Minutes at the table over the plays whose time is known (`timed` of them), of one game or of all (None);
    `untimed` plays had no time (scored at the end, imported without one)."""

    game: str | None
    timed: int
    minutes: int
    untimed: int

    @property
    def total(self) -> int | None:
        """The minutes in all; None when no play's time is known (not 0)."""
        return self.minutes if self.timed else None

    @property
    def average(self) -> int | None:
        """The minutes per timed play, to the nearest minute (a half up, as a reader rounds); None when none is
        timed."""
        return (2 * self.minutes + self.timed) // (2 * self.timed) if self.timed else None


def time_played(plays: Iterable[PlayRows], game: str | None = None) -> TimePlayed:
    """The time played over these plays."""
    known = [play.duration_min for play in plays]
    minutes = [m for m in known if m is not None]
    return TimePlayed(game, len(minutes), sum(minutes), len(known) - len(minutes))


def game_times(plays: Sequence[PlayRows]) -> tuple[TimePlayed, ...]:
    """The time played per game, the games in the order of their first play."""
    by_game: dict[str, list[PlayRows]] = defaultdict(list)
    for play in plays:
        by_game[play.game].append(play)
    return tuple(time_played(found, game) for game, found in by_game.items())


@dataclass(frozen=True)
class Best:
    """A best (or record) score and the play it was made in."""

    total: int
    play_id: int


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game, multiplayer plays only; average and best over the plays with a score (None:
    none had one)."""

    game: str
    plays: int
    wins: int
    average: float | None
    best: Best | None

    @property
    def win_rate(self) -> float | None:
        """Wins per play."""
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class SoloRecord:
    """A player's solo plays of one game: apart from every win and rate; average and best over those with a score."""

    game: str
    plays: int
    average: float | None
    best: Best | None


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
    total: int | None
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
    """A player's page: totals, each game, solo plays, head to head, recent form and time played (in all and per
    game)."""

    player_id: int
    plays: int
    wins: int
    shared_wins: int
    games: tuple[GameRecord, ...]
    solo: tuple[SoloRecord, ...]
    versus: tuple[Versus, ...]
    form: tuple[FormPoint, ...]
    time: TimePlayed = TimePlayed(None, 0, 0, 0)
    times: tuple[TimePlayed, ...] = ()

    @property
    def win_rate(self) -> float | None:
        """Wins per multiplayer play."""
        return rate(self.wins, self.plays)


def player_stats(player_id: int, plays: Sequence[PlayRows], form_plays: int = FORM_PLAYS) -> PlayerStats:
    """The statistics of one player over these plays (those without the player are ignored)."""
    played: dict[str, int] = defaultdict(int)
    totals: dict[str, list[int]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    best: dict[str, Best] = {}
    solo_played: dict[str, int] = defaultdict(int)
    solo_totals: dict[str, list[int]] = defaultdict(list)
    solo_best: dict[str, Best] = {}
    versus: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    form: list[FormPoint] = []
    theirs: list[PlayRows] = []
    shared = 0
    for play in plays:
        mine = next((seat for seat in play.seats if seat.player_id == player_id), None)
        if mine is None:
            continue
        theirs.append(play)
        if play.solo:
            solo_played[play.game] += 1
            _keep_score(solo_totals, solo_best, play.game, mine.total, play.id)
            continue
        played[play.game] += 1
        _keep_score(totals, best, play.game, mine.total, play.id)
        won = mine.rank == 1
        winners = len(play.winners)
        if won:
            wins[play.game] += 1
            shared += winners > 1
        form.append(FormPoint(play.id, play.game, mine.total, mine.rank, len(play.seats), won, won and winners > 1))
        for other in play.seats:
            if other is mine or other.player_id is None:
                continue
            tally = versus[other.player_id]
            tally[0] += 1
            tally[1] += won
            tally[2] += other.rank == 1
            order = _compare(mine.rank, other.rank)
            tally[3 + order] += 1
    games = tuple(
        GameRecord(game, count, wins[game], mean(totals[game]), best.get(game)) for game, count in played.items()
    )
    solo = tuple(
        SoloRecord(game, count, mean(solo_totals[game]), solo_best.get(game)) for game, count in solo_played.items()
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
        time=time_played(theirs),
        times=game_times(theirs),
    )


def _keep_score(
    totals: dict[str, list[int]], best: dict[str, Best], game: str, total: int | None, play_id: int
) -> None:
    """Add a score to its game's and remember the highest (the first play to reach it keeps it); no score, no
    change."""
    if total is None:
        return
    totals[game].append(total)
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
    """A player who made a record score (None: a guest), and in which play."""

    player_id: int | None
    play_id: int


@dataclass(frozen=True)
class Record:
    """The highest total, and everyone who reached it (oldest first)."""

    total: int
    holders: tuple[Holder, ...]


@dataclass(frozen=True)
class PlayerInGame:
    """One player's plays, wins and best score (None: none scored) in a game (multiplayer plays)."""

    player_id: int
    plays: int
    wins: int
    best: int | None

    @property
    def win_rate(self) -> float | None:
        """Wins per play."""
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class GameStats:
    """A game's page: plays, record, winning scores, distribution, seats, breakdown lines; solo apart; the time
    played over all of them. `seats` counts the scores (seats with a total), `unordered` the multiplayer plays left
    out of the wins by seat (their seat order unknown)."""

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
    unordered: int = 0
    time: TimePlayed = TimePlayed(None, 0, 0, 0)

    @property
    def record_plays(self) -> list[int]:
        """The plays the record and the best solo score were made in (the page says when)."""
        records = (self.record, self.solo_record)
        return [holder.play_id for found in records if found is not None for holder in found.holders]

    @property
    def deciding(self) -> LineAverage | None:
        """The line on which the winners gain most over the others (None when no winner is ahead on any line)."""
        gaps = [line for line in self.lines if line.gap is not None and line.gap > 0]
        return max(gaps, key=lambda line: line.gap or 0.0) if gaps else None


def game_stats(
    game: str, plays: Sequence[PlayRows], labels: Sequence[tuple[str, str]] = (), sums: LineSums | None = None
) -> GameStats:
    """The statistics of one game over these plays (plays of other games are ignored); lines in `labels` order,
    summed from the seats' lines unless `sums` (read_line_sums) are given."""
    plays = [play for play in plays if play.game == game]
    multi = [play for play in plays if not play.solo]
    solo = [play for play in plays if play.solo]
    scores = [seat.total for play in multi for seat in play.seats if seat.total is not None]
    winning = [max(totals) for play in multi if (totals := [s.total for s in play.winners if s.total is not None])]
    positions: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    people: dict[int, list[int]] = {}
    best: dict[int, int] = {}
    for seat, ordered in ((seat, play.seats_known) for play in multi for seat in play.seats):
        if ordered:
            positions[seat.position][0] += 1
            positions[seat.position][1] += seat.rank == 1
        if seat.player_id is None:
            continue
        tally = people.setdefault(seat.player_id, [0, 0])
        tally[0] += 1
        tally[1] += seat.rank == 1
        if seat.total is not None:
            best[seat.player_id] = max(best.get(seat.player_id, seat.total), seat.total)
    ranked_people = sorted(
        (PlayerInGame(player_id, plays, won, best.get(player_id)) for player_id, (plays, won) in people.items()),
        key=lambda p: (-p.wins, -(p.win_rate or 0.0), -p.plays, p.player_id),
    )
    solo_totals = [play.seats[0].total for play in solo if play.seats[0].total is not None]
    return GameStats(
        game=game,
        plays=len(multi),
        shared_plays=sum(len(play.winners) > 1 for play in multi),
        record=record(multi),
        average_winning=mean(winning),
        distribution=histogram(scores),
        positions=tuple(SeatPosition(position, *tally) for position, tally in sorted(positions.items())),
        lines=line_averages(sums if sums is not None else line_sums(multi), labels),
        scored_seats=sum(seat.has_breakdown and seat.total is not None for play in multi for seat in play.seats),
        seats=len(scores),
        players=tuple(ranked_people),
        solo_plays=len(solo),
        solo_record=record(solo),
        solo_average=mean(solo_totals),
        unordered=sum(not play.seats_known for play in multi),
        time=time_played(plays, game),
    )


def record(plays: Sequence[PlayRows]) -> Record | None:
    """The highest total over these plays and every seat that reached it, oldest first; None for no score."""
    seats = [(seat.total, seat.player_id, play.id) for play in plays for seat in play.seats if seat.total is not None]
    if not seats:
        return None
    top = max(total for total, _, _ in seats)
    return Record(top, tuple(Holder(player_id, play_id) for total, player_id, play_id in seats if total == top))


def line_sums(plays: Sequence[PlayRows]) -> LineSums:
    """Each line's points summed from the seats' lines (the pure twin of read_line_sums)."""
    sums: tuple[dict[str, float], dict[str, float]] = (defaultdict(float), defaultdict(float))
    counts = [0, 0]
    for play in plays:
        for seat in play.seats:
            if not seat.lines or seat.total is None:
                continue
            group = 0 if seat.rank == 1 else 1
            counts[group] += 1
            for key, points in seat.lines:
                sums[group][key] += points
    return LineSums(dict(sums[0]), dict(sums[1]), counts[0], counts[1])


def line_averages(sums: LineSums, labels: Sequence[tuple[str, str]] = ()) -> tuple[LineAverage, ...]:
    """Each line's average per scored seat, for everyone, the winners and the others; in `labels` order, then any
    line the game no longer names. A seat without a line scored 0 on it."""
    seats = sums.winner_seats + sums.other_seats
    if not seats:
        return ()
    names = dict(labels)
    found = {**sums.winners, **sums.others}
    order = [key for key, _ in labels if key in found] + [key for key in found if key not in names]
    return tuple(
        LineAverage(
            key,
            names.get(key, key),
            (sums.winners.get(key, 0) + sums.others.get(key, 0)) / seats,
            sums.winners.get(key, 0) / sums.winner_seats if sums.winner_seats else None,
            sums.others.get(key, 0) / sums.other_seats if sums.other_seats else None,
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


def roster_lines(plays: Sequence[PlayRows], names: Mapping[int, str]) -> list[RosterLine]:
    """Every player of the roster with plays, wins and time played counted from these plays (the pure twin of
    read_roster); a guest has no line."""
    tally: dict[int, list[int]] = {player_id: [0, 0, 0, 0, 0] for player_id in names}
    for play in plays:
        for seat in play.seats:
            if seat.player_id is None:
                continue
            counts = tally.setdefault(seat.player_id, [0, 0, 0, 0, 0])
            if play.solo:
                counts[2] += 1
            else:
                counts[0] += 1
                counts[1] += seat.rank == 1
            if play.duration_min is not None:
                counts[3] += 1
                counts[4] += play.duration_min
    return [RosterLine(player_id, names.get(player_id, ""), *counts) for player_id, counts in tally.items()]
