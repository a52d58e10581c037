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


def ladder(game: str, plays: Sequence[PlayRows]) -> Ladder:
    """Rate every counted multiplayer play of the game in order."""
    model = PlackettLuce()
    ratings: dict[int, PlackettLuceRating] = {}
    counts: dict[int, int] = {}
    history: dict[int, list[tuple[int, float]]] = {}
    rated = 0
    for play in plays:
        seats = play.seats
        if play.game != game or len(seats) < 2 or any(seat.rank is None for seat in seats):
            continue
        teams = [
            [ratings.get(seat.player_id) or model.rating()] if seat.player_id is not None else [model.rating()]
            for seat in seats
        ]
        updated = model.rate(teams, ranks=[float(seat.rank or 0) for seat in seats])
        for seat, (rating,) in zip(seats, updated, strict=True):
            if seat.player_id is None:
                continue
            ratings[seat.player_id] = rating
            counts[seat.player_id] = counts.get(seat.player_id, 0) + 1
            history.setdefault(seat.player_id, []).append((rated, _shown(rating)))
        rated += 1
    order = sorted(ratings, key=lambda player: (-_shown(ratings[player]), -counts[player], player))
    rungs: list[Rung] = []
    for player in order:
        shown = _shown(ratings[player])
        rank = rungs[-1].rank if rungs and rungs[-1].rating == shown else len(rungs) + 1
        rungs.append(Rung(player, shown, counts[player], rank))
    return Ladder(game, tuple(rungs), rated, {player: tuple(points) for player, points in history.items()})


def _shown(rating: PlackettLuceRating) -> float:
    """A rating as the ladder says it: the ordinal, to one decimal."""
    return round(rating.ordinal(), SHOWN_DIGITS)


def checkpoints(ladder: Ladder, players: Sequence[int], most: int) -> list[tuple[float | None, ...]]:
    """Each player's rating at up to `most` evenly spaced moments of the game's rated plays (None before their
    first play), for a chart that stays small however long the history is."""
    total = ladder.rated_plays
    if total == 0:
        return [() for _ in players]
    count = min(most, total)
    moments = [round(k * (total - 1) / (count - 1)) if count > 1 else total - 1 for k in range(count)]
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
