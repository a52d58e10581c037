"""Spyrium (2-5 players): score track, printed building VP and end-game technique VP.

Rule text: shared/seeds/001_e6107a0cf4062ca0.txt (start, turns, "Maximum number of workers", "Bonuses").
Decisions: shared/rules-notes.md, "Spyrium".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import Field, field_validator

from .base import Game, Line, PlayerInput, Result, Schema, number_table, plural, rank_scores

MIN_PLAYERS = 2
MAX_PLAYERS = 5
TURNS = 6
START_WORKERS, START_SPYRIUM, START_MONEY, START_RESIDENCE = 3, 2, 8, 2
WORKERS_MAX = 7
TECHNIQUE_VP_MAX = 7
BONUS_STEPS = (8, 20)
DEFAULT_RESIDENCE_VALUES = (2, 3, 4, 5, 6, 7)
RESIDENCE_SPACES = len(DEFAULT_RESIDENCE_VALUES)
# A typo guard for a custom Residence track: the default tops out at £7.
RESIDENCE_VALUE_MAX = 20

# 9 market cards are dealt each of the 6 turns, and buildings and techniques are bought from the market:
# no player can own more than the 54 cards that pass through it.
MARKET_CARDS = 9 * TURNS
# No public text gives the printed building VP or the length of the score track; these are typo guards
# (an extra digit, or a total typed into one building) set well above anything a 6-turn game produces.
BUILDING_VP_MAX = 30
VP_TRACK_MAX = 200
# Money and Spyrium never score; their ceilings only catch typos in a tracked count.
MONEY_MAX = 200
SPYRIUM_MAX = 100

BuildingVP = Annotated[int, Field(ge=0, le=BUILDING_VP_MAX)]
TechniqueVP = Annotated[int, Field(ge=0, le=TECHNIQUE_VP_MAX)]


class SpyriumPlayer(PlayerInput):
    """What a Spyrium player has at the end: track VP, each building's VP, each technique's VP.

    Money, Spyrium and workers may be tracked but score nothing. They default to 0 rather than the starting
    £8, 2 Spyrium and 3 workers: an end-of-game count the player did not enter should not claim a value.
    """

    vp_track: int = Field(0, ge=0, le=VP_TRACK_MAX)
    building_vp: list[BuildingVP] = Field(default_factory=list, max_length=MARKET_CARDS)
    technique_vp: list[TechniqueVP] = Field(default_factory=list, max_length=MARKET_CARDS)
    money: int = Field(0, ge=0, le=MONEY_MAX)
    spyrium: int = Field(0, ge=0, le=SPYRIUM_MAX)
    workers: int = Field(0, ge=0, le=WORKERS_MAX)


class SpyriumOptions(Schema):
    """The Residence track's income values, read off the board; shown as a reminder, never scored."""

    residence_values: tuple[int, int, int, int, int, int] = Field(
        DEFAULT_RESIDENCE_VALUES,
        title="Residence track income (£, bottom to top)",
        description="Check your board and reference card; a reminder only, it does not change the score.",
    )

    @field_validator("residence_values", mode="before")
    @classmethod
    def _six_spaces(cls, value: Any) -> tuple[int, ...]:
        """One clear message for the whole track instead of pydantic's per-item tuple errors."""
        return number_table(value, RESIDENCE_SPACES, "the income of each Residence space", RESIDENCE_VALUE_MAX)


BREAKDOWN = (
    ("vp_track", "Score track"),
    ("buildings", "Buildings"),
    ("techniques", "Techniques"),
)
LABELS = dict(BREAKDOWN)


def _sum_text(values: Sequence[int]) -> str:
    """'2 + 4 + 0 = 6' for several values, '4' for one."""
    if len(values) == 1:
        return str(values[0])
    return " + ".join(str(v) for v in values) + f" = {sum(values)}"


def _track_line(player: SpyriumPlayer) -> Line:
    """VP scored during play (characters, Residence, buildings used, the 8 and 20 VP bonuses) are on the track."""
    why = f"{player.vp_track} VP on the score track."
    if player.money or player.spyrium:
        why += f" Money (£{player.money}) and Spyrium ({player.spyrium}) left over score nothing."
    return Line("vp_track", LABELS["vp_track"], player.vp_track, why)


def _buildings_line(player: SpyriumPlayer) -> Line:
    """Each building you own scores the VP printed on it."""
    values = player.building_vp
    if not values:
        return Line("buildings", LABELS["buildings"], 0, "No building: 0 VP.")
    why = f"{plural(len(values), 'building')}: {_sum_text(values)} VP (the VP printed on each)."
    return Line("buildings", LABELS["buildings"], sum(values), why)


def _techniques_line(player: SpyriumPlayer) -> Line:
    """Each technique you patented scores its end-game VP, at most 7."""
    values = player.technique_vp
    if not values:
        return Line("techniques", LABELS["techniques"], 0, "No technique: 0 VP.")
    why = f"{plural(len(values), 'technique')}: {_sum_text(values)} VP (each at most {TECHNIQUE_VP_MAX})."
    return Line("techniques", LABELS["techniques"], sum(values), why)


def score(players: Sequence[SpyriumPlayer], options: SpyriumOptions) -> Result:
    """Score a finished game of Spyrium: track + buildings + techniques; tied players share the rank."""
    rows = [
        (player.name, [_track_line(player), _buildings_line(player), _techniques_line(player)], {})
        for player in players
    ]
    # No tie-break is published (rules notes): tied players share the victory.
    return rank_scores("spyrium", rows, ())


def reference_notes(options: SpyriumOptions) -> list[str]:
    """The Residence track in use, flagged to check against the board, and what scores at the end."""
    values = ", ".join(f"£{v}" for v in options.residence_values)
    return [
        f"Residence track income, bottom to top: {values} (check your board and reference card). "
        "It does not change the final score: VP from a Residence action is already on the score track.",
        "Final score: VP on the score track + the VP printed on each building you own + the end-game VP of "
        f"each technique (at most {TECHNIQUE_VP_MAX} each).",
        "Money and Spyrium left at the end score nothing.",
        f"Reaching {BONUS_STEPS[0]} VP: choose +1 worker or £5; reaching {BONUS_STEPS[1]} VP: take the other "
        f"(at most {WORKERS_MAX} workers).",
        "No tie-break is published: tied players share the victory.",
    ]


def setup(count: int, options: SpyriumOptions) -> list[str]:
    """The rule text's starting position and turn structure for this player count, and when the game ends."""
    return [
        f"Each of the {plural(count, 'player')} takes {START_WORKERS} workers, {START_SPYRIUM} Spyrium "
        f"crystals and £{START_MONEY}.",
        f"Put each player's marker on 0 of the score track and a token on the {START_RESIDENCE} space of the "
        "Residence track.",
        "Shuffle the A, B and C decks and the event deck separately; choose a start player.",
        f"Each turn: deal 9 cards of the turn's period into a 3×3 market (A for turns 1-3, B for 4-5, C for "
        f"turn {TURNS}), pay each player the income of their Residence space, and turn the top event onto "
        "Current Event, revealing the next one as Future Event.",
        f"The game ends after turn {TURNS}; the most points wins, and tied players share the victory.",
    ]


GAME = Game(
    id="spyrium",
    name="Spyrium",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version="spyrium-bga-gamehelp/rules-notes-1",
    player_model=SpyriumPlayer,
    options_model=SpyriumOptions,
    breakdown=BREAKDOWN,
    score=score,
    colours=("red", "blue", "green", "yellow", "purple"),
    blurb="Steampunk worker placement between market cards: build, patent and refine Spyrium in 6 turns.",
    setup=setup,
    reference_notes=reference_notes,
)
