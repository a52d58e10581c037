"""A result laid out as a score pad: players as columns, the game's breakdown lines as rows (formatting only, no rules).

The rules already ranked the players and explained every line (games/base.py Result.to_dict()); this only turns
that dict round so a template can draw a grid. Columns stay in turn order, as the players sit and as a paper pad is
filled in: everyone finds their own column where they expect it, and the rank row and the Winner badge say who won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game
from companion.games.wording import ordinal


@dataclass(frozen=True)
class Cell:
    """One player's points on one line and why; points None when that player has no such line."""

    name: str
    points: int | None
    why: str
    winner: bool


@dataclass(frozen=True)
class Row:
    """A breakdown line across every player."""

    key: str
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Column:
    """A player: name, total (None where no score was recorded), rank as said at the table ('1st', 'tied'), winner
    or not, seat colour if any, and whether a guest (an imported anonymous player on no roster)."""

    name: str
    total: int | None
    rank: int
    place: str
    tied: bool
    winner: bool
    colour: str
    guest: bool = False


@dataclass(frozen=True)
class Grid:
    """Columns in turn order, rows in the game's breakdown order; solo when one player plays against the game."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    solo: bool


def _colour(player: Mapping[str, Any], seat: Any) -> str:
    """The player's colour: the seat's at a tracked table, else the one the game scored with (Speros), else none."""
    colour = getattr(seat, "colour", "") if seat is not None else ""
    return str(colour or player.get("color") or "")


def _guest(seat: Any) -> bool:
    """Whether the seat is a guest's: a stored seat with no roster player (the calculator's results have no seats)."""
    return seat is not None and hasattr(seat, "player_id") and seat.player_id is None


def result_grid(result: Mapping[str, Any], game: Game | None = None, seats: Sequence[Any] | None = None) -> Grid:
    """The result dict (players with breakdown, total, rank; winners) as columns and rows for a grid."""
    players = list(result.get("players") or [])
    winners = set(result.get("winners") or [])
    solo = len(players) == 1
    ranks = [p.get("rank") or 0 for p in players]
    seat_list = list(seats) if seats is not None and len(seats) == len(players) else [None] * len(players)
    columns = tuple(
        Column(
            name=p["name"],
            total=p.get("total", 0),
            rank=rank,
            place=ordinal(rank) if rank else "",
            # An unranked player (a blank pad, an import without ranks) ties with no one.
            tied=bool(rank) and ranks.count(rank) > 1,
            # Alone against the game there is no one to beat: the solo player is not badged a winner.
            winner=p["name"] in winners and not solo,
            colour=_colour(p, seat),
            guest=_guest(seat),
        )
        for p, rank, seat in zip(players, ranks, seat_list, strict=True)
    )
    lines = [{line["key"]: line for line in p.get("breakdown") or []} for p in players]
    # The game's order first; a key it no longer declares (a play scored by older rules) still shows, after them.
    keys = [key for key, _label in (game.breakdown if game else ())]
    for by_key in lines:
        keys += [key for key in by_key if key not in keys]
    labels = dict(game.breakdown) if game else {}
    rows = []
    for key in keys:
        found = [by_key[key] for by_key in lines if key in by_key]
        if not found:
            continue
        cells = tuple(
            Cell(column.name, by_key[key]["points"], by_key[key]["why"], column.winner)
            if key in by_key
            else Cell(column.name, None, "", column.winner)
            for column, by_key in zip(columns, lines, strict=True)
        )
        rows.append(Row(key, found[0].get("label") or labels.get(key, key), cells))
    return Grid(columns, tuple(rows), solo)
