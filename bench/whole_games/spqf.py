"""A whole game of SPQF for three, as it is tracked at the table (bench/game_taps.py plays it on a phone).

Ann (first player), Bob and Cy play nine rounds. Nobody scores in the first round (cubes are gathered and stored);
from then on Score actions take 2 to 5 VP tokens at once, some followed by another player for fewer, and each player
expands three or four times, Cy once by following Bob's Expand and Ann by following Bob's on the turn Bob is first
to level 3 (he resolves first, so the token is his). Cy recruits a card with a 1 VP corner. Ann's Score on her turn
of round 9 brings her to 25 VP tokens: the end begins, and Bob and Cy play their turns to finish the round. At
Finish the Monuments are counted: Ann 7, Bob 10, Cy 6 (Bob's the most: +3).

The totals, line by line (default level table 0, 3, 6, 9, 12, 15):
- Ann: 22 VP from Score actions + the first tokens of levels 1, 2 and 4 = 25 VP tokens; level 4 = 12; Monument 7:
  44.
- Bob: 18 + the first token of level 3 = 19 VP tokens; level 3 = 9; Monument 10 + 3: 41.
- Cy: 16 VP tokens; level 3 = 9; Monument 6; one 1 VP card: 32.

The tracker is followed as a group that doesn't keep turns would: VP tokens on the chips (+1 to +5, one tap a
Score), a level +1 per Expand, no Next turn (untapped, the first tap takes each level's token, in the order the
expansions resolve), the Monuments typed at Finish: 26 taps for the game's 26 gains, levels and cards, 3 taps and
4 keys for the Monuments, Finish and its confirmation, 35 in all.
The same game on the tracker before (commit 2facdfa: VP tokens by +1 and +5 only, the first-to-level tokens
needing Next turn after every turn) took 70 taps and 4 keys, 74.
"""

from __future__ import annotations

from typing import Any

PLAYERS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy", "colour": "green"}]
OPTIONS: dict[str, Any] = {}

# Turn by turn (Ann, Bob, Cy, Ann, ...): what each player takes, in the order it resolves (the active player first,
# then those who follow, in turn order). ("vp", n): n VP tokens; ("level", 1): one Expand; ("card", 1): a 1 VP card.
TURNS: list[list[tuple[str, str, int]]] = [
    [],
    [],
    [],
    [("Ann", "vp", 3)],
    [("Bob", "vp", 2)],
    [],
    [("Ann", "level", 1)],
    [("Bob", "level", 1), ("Cy", "level", 1)],
    [("Cy", "vp", 3)],
    [("Ann", "vp", 5), ("Bob", "vp", 2)],
    [],
    [("Cy", "vp", 4)],
    [("Ann", "level", 1)],
    [("Bob", "level", 1)],
    [("Cy", "level", 1)],
    [("Ann", "vp", 4)],
    [("Bob", "level", 1), ("Ann", "level", 1)],
    [("Cy", "card", 1)],
    [],
    [("Bob", "vp", 5), ("Ann", "vp", 2)],
    [("Cy", "vp", 4), ("Ann", "vp", 3)],
    [("Ann", "level", 1)],
    [("Bob", "vp", 5)],
    [("Cy", "vp", 5)],
    [("Ann", "vp", 5)],
    [("Bob", "vp", 4)],
    [("Cy", "level", 1)],
]
MONUMENTS = {"Ann": "7", "Bob": "10", "Cy": "6"}
EXPECTED = {"Ann": 44, "Bob": 41, "Cy": 32}


def gain(table: Any, name: str, count: int) -> None:
    """A Score action's VP tokens: +1 is the counter's own button, +2 to +5 a chip each (more: +5 chips first)."""
    while count > 0:
        step = min(count, 5)
        label = "plus one" if step == 1 else f"plus {step}"
        table.tap(f"[aria-label='{name}: VP tokens {label}']")
        count -= step


def take(table: Any, name: str, what: str, count: int) -> None:
    """One thing a player takes, through the tracker's control for it."""
    if what == "vp":
        gain(table, name, count)
    elif what == "level":
        table.tap(f"[aria-label='{name}: Civilization Level plus one']")
    else:
        table.tap(f"[aria-label='{name}: 1 VP cards plus one']")


def finish(table: Any) -> None:
    """Type each Monument count, finish and confirm (the confirmation's OK is a tap), then wait for the result."""
    page = table.page
    for name, count in MONUMENTS.items():
        table.type(
            page.locator("fieldset.end-seat", has_text=name).locator("input[name$='-monument_modifiers']"), count
        )
    table.finish()


def play(table: Any) -> dict[str, int]:
    """Play the game turn by turn, then finish; the totals the result must show."""
    for turn in TURNS:
        for name, what, count in turn:
            take(table, name, what, count)
    finish(table)
    return EXPECTED
