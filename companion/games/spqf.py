"""SPQF (2-4 players): VP tokens, Civilization Level, Monument and its bonus, cards with a 1 VP corner.

Rule text: shared/seeds/000_93c0f8820d2d9d2b.txt ("Setup", "Civilization Level", "End of the Game").
Decisions: shared/rules-notes.md, "SPQF".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field, field_validator

from .base import (
    FieldError,
    Game,
    Line,
    PlayerInput,
    Result,
    Schema,
    TieBreak,
    join_names,
    number_table,
    plural,
    rank_scores,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
LEVEL_MAX = 5
LEVELS = LEVEL_MAX + 1
# The rule text prints only "Level 3 awards 9VP"; the rest of the table is a setting (rules notes).
PRINTED_LEVEL, PRINTED_LEVEL_VP = 3, 9
DEFAULT_LEVEL_VP = (0, 3, 6, 9, 12, 15)
# A typo guard for a custom table: the one printed entry is 9 VP, so two digits is plenty.
LEVEL_VP_MAX = 99
MONUMENT_BONUS = 3
END_VP_TOKENS = 25

CIVILIZATION_CARDS = 48
STARTERS_PER_PLAYER = 5
# The box holds 40 wooden VP acorns (rules notes), so no player can hold more tokens than that.
VP_TOKENS_MAX = 40
# A player's cards are at most every Civilization card plus their own 5 starters: starters are discarded,
# never put in a trade row, so no opponent can recruit them.
PLAYER_CARDS_MAX = CIVILIZATION_CARDS + STARTERS_PER_PLAYER
# The rule text speaks of cards "with two modifiers", never more; 2 per card is a generous ceiling.
MODIFIERS_PER_CARD_MAX = 2
MONUMENT_MODIFIERS_MAX = PLAYER_CARDS_MAX * MODIFIERS_PER_CARD_MAX


class SpqfPlayer(PlayerInput):
    """What an SPQF player has at the end: tokens, level, Monument modifiers and 1 VP cards."""

    vp_tokens: int = Field(0, ge=0, le=VP_TOKENS_MAX)
    civ_level: int = Field(0, ge=0, le=LEVEL_MAX)
    monument_modifiers: int = Field(0, ge=0, le=MONUMENT_MODIFIERS_MAX)
    vp_cards: int = Field(0, ge=0, le=PLAYER_CARDS_MAX)


class SpqfOptions(Schema):
    """The Civilization Level VP table, levels 0 to 5, read off the reference card."""

    level_vp: tuple[int, int, int, int, int, int] = Field(
        DEFAULT_LEVEL_VP,
        title="Civilization Level VP (levels 0 to 5)",
        description="Only level 3 = 9 VP is printed in the rules: check your reference card.",
    )

    @field_validator("level_vp", mode="before")
    @classmethod
    def _six_levels(cls, value: Any) -> tuple[int, ...]:
        """One clear message for the whole table instead of pydantic's per-item tuple errors."""
        return number_table(value, LEVELS, "the VP for levels 0 to 5", LEVEL_VP_MAX)


BREAKDOWN = (
    ("vp_tokens", "VP tokens"),
    ("civ_level", "Civilization Level"),
    ("monument", "Monument"),
    ("monument_bonus", "Monument bonus"),
    ("vp_cards", "1 VP cards"),
)
LABELS = dict(BREAKDOWN)


def _tokens_line(player: SpqfPlayer) -> Line:
    """'VP tokens collected' (including the 1 VP token for being first to a level)."""
    count = player.vp_tokens
    why = f"{plural(count, 'VP token')} collected: {count} VP." if count else "No VP tokens: 0 VP."
    return Line("vp_tokens", LABELS["vp_tokens"], count, why)


def _level_line(player: SpqfPlayer, options: SpqfOptions) -> Line:
    """'Civilization Level (Ex: Level 3 awards 9VP)', from the level table in use."""
    vp = options.level_vp[player.civ_level]
    why = f"Level {player.civ_level} of {LEVEL_MAX}: {vp} VP from the level table (check your reference card)."
    return Line("civ_level", LABELS["civ_level"], vp, why)


def _monument_line(player: SpqfPlayer) -> Line:
    """'Score 1 VP per indicated modifier on cards in your deck (or stored). Don't count oak leaves!'"""
    count = player.monument_modifiers
    if count:
        why = f"{plural(count, 'modifier')} matching your Monument: {count} × 1 = {count} VP (oak leaves never count)."
    else:
        why = "No modifier matching your Monument: 0 VP (oak leaves never count)."
    return Line("monument", LABELS["monument"], count, why)


def _bonus_line(player: SpqfPlayer, players: Sequence[SpqfPlayer]) -> Line:
    """'The player who earned the most VP for their Monument scores a 3VP bonus. If players are tied, no bonus.'"""
    mine = player.monument_modifiers
    most = max(p.monument_modifiers for p in players)
    leaders = [p.name for p in players if p.monument_modifiers == most]
    if len(leaders) == 1 and leaders[0] == player.name:
        runner_up = max((p.monument_modifiers for p in players if p is not player), default=0)
        why = f"The most Monument VP ({mine}, next best {runner_up}): +{MONUMENT_BONUS} VP."
        return Line("monument_bonus", LABELS["monument_bonus"], MONUMENT_BONUS, why)
    if len(leaders) == 1:
        why = f"{mine} Monument VP; {leaders[0]} has the most ({most}) and takes the +{MONUMENT_BONUS}."
    elif most == 0:
        # With 2+ players a most of 0 always means everyone is tied at 0, so the tie rule already says no bonus.
        why = "Everyone has 0 Monument VP: a tie for the most, so no bonus is awarded."
    elif mine == most:
        others = join_names([name for name in leaders if name != player.name])
        why = f"Tied for the most Monument VP ({most}) with {others}: a tie awards no bonus to anybody."
    else:
        why = f"{mine} Monument VP; {join_names(leaders)} tie for the most ({most}): no bonus to anybody."
    return Line("monument_bonus", LABELS["monument_bonus"], 0, why)


def _cards_line(player: SpqfPlayer) -> Line:
    """'1 VP from each card with 1 VP in top right corner.'"""
    count = player.vp_cards
    if count:
        why = f"{plural(count, 'card')} with 1 VP in the top right corner: {count} × 1 = {count} VP."
    else:
        why = "No card with 1 VP in the top right corner: 0 VP."
    return Line("vp_cards", LABELS["vp_cards"], count, why)


def score(players: Sequence[SpqfPlayer], options: SpqfOptions) -> Result:
    """Score a finished game of SPQF, ranked by total, then highest Civilization Level, then shared."""
    rows = []
    for player in players:
        lines = [
            _tokens_line(player),
            _level_line(player, options),
            _monument_line(player),
            _bonus_line(player, players),
            _cards_line(player),
        ]
        rows.append((player.name, lines, {}))
    # The level itself, not its VP, breaks ties: a custom table may give two levels the same VP.
    # Names are unique once validated, so they identify the player inside rank_scores.
    level_of = {player.name: player.civ_level for player in players}
    tiebreaks = (
        TieBreak(
            "highest Civilization Level",
            key=lambda p: level_of[p.name],
            show=lambda p: f"level {level_of[p.name]}",
        ),
    )
    return rank_scores("spqf", rows, tiebreaks)


def check(players: Sequence[SpqfPlayer], options: SpqfOptions) -> list[FieldError]:
    """Between them, players can't hold more cards than are in play: 48 Civilization cards + 5 starters each."""
    in_play = CIVILIZATION_CARDS + STARTERS_PER_PLAYER * len(players)
    counted = sum(p.vp_cards for p in players)
    if players and counted > in_play:
        message = (
            f"Only {in_play} cards are in play with {len(players)} players "
            f"({CIVILIZATION_CARDS} Civilization + {STARTERS_PER_PLAYER} starters each); "
            f"{counted} cards with a 1 VP corner counted in all."
        )
        return [FieldError(f"players[{len(players) - 1}].vp_cards", message)]
    return []


def level_table_text(level_vp: Sequence[int]) -> str:
    """'level 0: 0, level 1: 3, ...' for a level VP table."""
    return ", ".join(f"level {level}: {vp}" for level, vp in enumerate(level_vp))


def reference_notes(options: SpqfOptions) -> list[str]:
    """The level VP table in use, flagged to check against the printed reference card, and scoring reminders."""
    source = "default" if tuple(options.level_vp) == DEFAULT_LEVEL_VP else "your own"
    return [
        f"Civilization Level VP ({source} table): {level_table_text(options.level_vp)} VP. "
        f"The rules print only level {PRINTED_LEVEL} = {PRINTED_LEVEL_VP} VP: check your reference card.",
        "The first player to reach each Civilization Level takes a 1 VP token: count it with the VP tokens.",
        "Monument: 1 VP per modifier matching your Monument on all your cards (deck, discard pile, hand and "
        "stored); oak leaves never count.",
        f"Monument bonus: +{MONUMENT_BONUS} VP to the single player with the most Monument VP; a tie for the "
        "most (everyone at 0 included) awards it to nobody.",
        "Tied totals: the highest Civilization Level wins; still tied, the victory is shared.",
    ]


def setup(count: int, options: SpqfOptions) -> list[str]:
    """The rule text's setup steps for this player count, and when the game ends."""
    return [
        "Each player takes a reference card; give the first player token to a random player.",
        "Form a supply with the VP acorns and the resource cubes.",
        "Each player takes a tableau and puts their Civilization Level marker on 0.",
        "Shuffle the Monuments and deal one face down to each player, who may look at it and keeps it secret.",
        f"Each player takes their {STARTERS_PER_PLAYER} different starter cards. Shuffle the Civilization cards "
        f"and deal 5 to each player ({5 * count} for {plural(count, 'player')}); each player shuffles them "
        "with their starters to form their deck.",
        "Advanced: draft the 5 Civilization cards instead (keep one, pass the rest to your left, repeat).",
        "Put the remaining Civilization cards face down as a deck and deal 3 face up as the central trade row.",
        "Each player draws the first 5 cards of their deck.",
        f"The end begins when a player has {END_VP_TOKENS} or more VP tokens, a player reaches level "
        f"{LEVEL_MAX}, or the last Civilization card is placed in the central trade row; finish the round so "
        "everyone has had the same number of turns, then score.",
    ]


GAME = Game(
    id="spqf",
    name="SPQF",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version="spqf-rules-page/rules-notes-1",
    player_model=SpqfPlayer,
    options_model=SpqfOptions,
    breakdown=BREAKDOWN,
    score=score,
    colours=("red", "blue", "green", "yellow"),
    blurb="Deck-building civilizations: follow each other's actions, expand, build toward your Monument.",
    check=check,
    setup=setup,
    reference_notes=reference_notes,
)
