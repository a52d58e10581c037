"""Turn order at the table, the same in every game that follows turns: the table counts turns from 1, and they go
round the seats clockwise from the first player.

Pure arithmetic on seat numbers (0 to count − 1, in turn order): nothing here knows a game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The new-play form puts the first player first in turn order.
FIRST_SEAT = 0


def seat_of_turn(turn: int, count: int) -> int:
    """The seat that plays a turn (from 1): turns go round the table from the first player."""
    return (FIRST_SEAT + turn - 1) % count


def active_seat(table: Mapping[str, Any], count: int) -> int:
    """The seat whose turn it is, from the table's turn count."""
    return seat_of_turn(table["turn"], count)


def round_number(table: Mapping[str, Any], count: int) -> int:
    """The round the current turn belongs to, from 1."""
    return (int(table["turn"]) - 1) // count + 1


def turn_order_from(seat: int, count: int) -> list[int]:
    """Every seat in turn order beginning with this one (the active player, for a tie broken in turn order)."""
    return [(seat + step) % count for step in range(count)]


def turns_left(active: int, until: int, count: int) -> list[int]:
    """The seats still to play after the active one, clockwise, before `until` would play again: the rest of a
    round that ends before the first player, or the final turns after the player who drew the last card."""
    return turn_order_from(active, count)[1 : (until - active - 1) % count + 1]
