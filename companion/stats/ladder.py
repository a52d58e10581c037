"""A game's ladder: a rating for each player from the group's finished plays in date order (issue 22).

The ratings are openskill's Plackett-Luce model (Weng-Lin, a Bayesian rating for games of any number of players):
each play updates its players' ratings by their ranks, players who share a rank (a shared victory, a tie) as the
model defines it. The rating shown is the model's ordinal, mu − 3σ: what the player is at least worth with 99.7 %
confidence, so a player of two plays does not top one of two hundred on one lucky night. A new player starts at
0 (mu 25, σ 25/3). Solo plays, and plays whose ranks are not all known, are left out. A guest (no roster entry)
takes part in each play with a fresh rating, which is not kept. Pure: the plays come from
companion/store/statistics.py read_game, oldest first.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.store.statistics import PlayRows

# Ratings are said to one decimal; two players equal to that decimal share a rank on the ladder.
SHOWN_DIGITS = 1


@dataclass(frozen=True)
class Rung:
    """One player on the ladder."""

    player_id: int
    rating: float
    plays: int
    rank: int


@dataclass(frozen=True)
class Ladder:
    """The ladder of a game: its players best first, and each player's rating after each play they were rated in
    (the index of the play among the rated ones, the rating then)."""

    game: str
    rungs: tuple[Rung, ...]
    rated_plays: int
    history: dict[int, tuple[tuple[int, float], ...]]


# A rater keeps the state after every this many plays, so that a history changed somewhere is rated again from
# the last such point before the change, not from the first play.
SNAPSHOT_EVERY = 64

# A rated play as the ratings see it: its id and each seat's (player or None for a guest, rank), in turn order.
PlayKey = tuple[int, tuple[tuple[int | None, int], ...]]


@dataclass(frozen=True)
class _Snapshot:
    """The ratings (mu, sigma) and play counts after the first `rated` plays."""

    rated: int
    ratings: dict[int, tuple[float, float]]
    counts: dict[int, int]


class Rater:
    """Rates one game's plays again and again as the history changes: where the plays begin as they did last time
    (a play finished after all the others, the usual case), rating resumes from the state kept at the last
    snapshot before the first difference. The ratings are exactly those of rating every play from the first."""

    def __init__(self, game: str, every: int = SNAPSHOT_EVERY) -> None:
        self.game = game
        self._every = every
        self._keys: list[PlayKey] = []
        self._snapshots = [_Snapshot(0, {}, {})]
        self._history: dict[int, list[tuple[int, float]]] = {}
        self._lock = threading.Lock()
        self.rated_again = 0

    def rate(self, plays: Sequence[PlayRows]) -> Ladder:
        """The ladder over these plays (oldest first; other games', solo and unranked plays left out)."""
        keys = [key for play in plays if (key := _key(self.game, play)) is not None]
        with self._lock:
            same = next((i for i, (old, new) in enumerate(zip(self._keys, keys, strict=False)) if old != new), None)
            same = min(len(self._keys), len(keys)) if same is None else same
            self._snapshots = [snap for snap in self._snapshots if snap.rated <= same]
            start = self._snapshots[-1]
            model = PlackettLuce()
            ratings = {who: model.rating(mu=mu, sigma=sigma) for who, (mu, sigma) in start.ratings.items()}
            counts = dict(start.counts)
            for who, points in list(self._history.items()):
                kept = [point for point in points if point[0] < start.rated]
                if kept:
                    self._history[who] = kept
                else:
                    del self._history[who]
            for index in range(start.rated, len(keys)):
                _rate_one(model, keys[index][1], ratings, counts, self._history, index)
                if (index + 1) % self._every == 0:
                    frozen = {who: (rating.mu, rating.sigma) for who, rating in ratings.items()}
                    self._snapshots.append(_Snapshot(index + 1, frozen, dict(counts)))
            self.rated_again = len(keys) - start.rated
            self._keys = keys
            history = {who: tuple(points) for who, points in self._history.items()}
        return _ladder(self.game, ratings, counts, len(keys), history)


def ladder(game: str, plays: Sequence[PlayRows]) -> Ladder:
    """Rate every counted multiplayer play of the game in order, from the first."""
    return Rater(game).rate(plays)


def _key(game: str, play: PlayRows) -> PlayKey | None:
    """The play as the ratings see it; None for a play left out (another game's, solo, a rank not known)."""
    if play.game != game or len(play.seats) < 2 or any(seat.rank is None for seat in play.seats):
        return None
    return play.id, tuple((seat.player_id, seat.rank or 0) for seat in play.seats)


def _rate_one(
    model: PlackettLuce,
    seats: tuple[tuple[int | None, int], ...],
    ratings: dict[int, PlackettLuceRating],
    counts: dict[int, int],
    history: dict[int, list[tuple[int, float]]],
    index: int,
) -> None:
    """Rate one play: each player's rating moves by the ranks (a guest plays with a fresh rating, not kept)."""
    teams = [[ratings.get(who) or model.rating()] if who is not None else [model.rating()] for who, _ in seats]
    updated = model.rate(teams, ranks=[float(rank) for _, rank in seats])
    for (who, _), (rating,) in zip(seats, updated, strict=True):
        if who is None:
            continue
        ratings[who] = rating
        counts[who] = counts.get(who, 0) + 1
        history.setdefault(who, []).append((index, _shown(rating)))


def _ladder(
    game: str,
    ratings: dict[int, PlackettLuceRating],
    counts: dict[int, int],
    rated: int,
    history: dict[int, tuple[tuple[int, float], ...]],
) -> Ladder:
    """The players best first, equal ratings (as shown) sharing a rank."""
    order = sorted(ratings, key=lambda player: (-_shown(ratings[player]), -counts[player], player))
    rungs: list[Rung] = []
    for player in order:
        shown = _shown(ratings[player])
        rank = rungs[-1].rank if rungs and rungs[-1].rating == shown else len(rungs) + 1
        rungs.append(Rung(player, shown, counts[player], rank))
    return Ladder(game, tuple(rungs), rated, history)


def _shown(rating: PlackettLuceRating) -> float:
    """A rating as the ladder says it: the ordinal, to one decimal."""
    return round(rating.ordinal(), SHOWN_DIGITS)


def checkpoints(ladder: Ladder, players: Sequence[int], most: int) -> list[tuple[float | None, ...]]:
    """Each player's rating at up to `most` evenly spaced moments of the game's rated plays (None before their
    first play), for a chart that stays small however long the history is."""
    moments = _moments(ladder.rated_plays, most)
    if not moments:
        return [() for _ in players]
    lines = []
    for player in players:
        points = ladder.history.get(player, ())
        values: list[float | None] = []
        index, current = 0, None
        for moment in moments:
            while index < len(points) and points[index][0] <= moment:
                current = points[index][1]
                index += 1
            values.append(current)
        lines.append(tuple(values))
    return lines


def own_checkpoints(ladder: Ladder, player: int, most: int) -> tuple[float, ...]:
    """The player's rating after up to `most` of their own plays of the game, evenly spaced, their first and their
    latest included: a line on their page that stays small however many they played."""
    points = ladder.history.get(player, ())
    return tuple(points[index][1] for index in _moments(len(points), most))


def _moments(total: int, most: int) -> list[int]:
    """Up to `most` evenly spaced indexes of `total` steps, the first and the last included."""
    count = min(most, total)
    if count == 0:
        return []
    return [round(k * (total - 1) / (count - 1)) if count > 1 else total - 1 for k in range(count)]
