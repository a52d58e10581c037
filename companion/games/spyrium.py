"""Spyrium (2-5 players): score track, printed building VP and end-game technique VP.

Rules from the rulebook's start, turns, "Maximum number of workers" and "Bonuses"; the project's decisions:
docs/rules.md, "Spyrium".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from companion.games.base import (
    FieldError,
    Game,
    InputErrors,
    Line,
    Note,
    Pad,
    PadLine,
    PlayerInput,
    Result,
    Schema,
    ScoreRow,
    leads_sentence,
    number_table,
    rank_scores,
)
from companion.games.live import (
    Action,
    ActionSpec,
    Applied,
    Context,
    End,
    Live,
    NoParams,
    Params,
    Standing,
    State,
    counter_actions,
)
from companion.games.wording import sum_text
from companion.language import N_, _, ngettext

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

    vp_track: int = Field(0, ge=0, le=VP_TRACK_MAX, title=N_("VP track"))
    building_vp: list[BuildingVP] = Field(default_factory=list, max_length=MARKET_CARDS)
    technique_vp: list[TechniqueVP] = Field(default_factory=list, max_length=MARKET_CARDS, title=N_("Technique VP"))
    money: int = Field(0, ge=0, le=MONEY_MAX, title=N_("Money"))
    spyrium: int = Field(0, ge=0, le=SPYRIUM_MAX)
    workers: int = Field(0, ge=0, le=WORKERS_MAX)


class SpyriumOptions(Schema):
    """The Residence track's income values, read off the board; shown as a reminder, never scored."""

    residence_values: tuple[int, int, int, int, int, int] = Field(
        DEFAULT_RESIDENCE_VALUES,
        title=N_("Residence track income (£, bottom to top)"),
        description=N_("Check your board and reference card; a reminder only, it does not change the score."),
    )

    @field_validator("residence_values", mode="before")
    @classmethod
    def _six_spaces(cls, value: Any) -> tuple[int, ...]:
        """One clear message for the whole track instead of pydantic's per-item tuple errors."""
        return number_table(value, RESIDENCE_SPACES, _("the income of each Residence space"), RESIDENCE_VALUE_MAX)


BREAKDOWN = (
    ("vp_track", N_("Score track")),
    ("buildings", N_("Buildings")),
    ("techniques", N_("Techniques")),
)
LABELS = dict(BREAKDOWN)


def _sum_text(values: Sequence[int]) -> str:
    """'2 + 4 + 0 = 6' for several values, '4' for one."""
    return sum_text(values) + (f" = {sum(values)}" if len(values) > 1 else "")


def _track_line(player: SpyriumPlayer) -> Line:
    """VP scored during play (characters, Residence, buildings used, the 8 and 20 VP bonuses) are on the track."""
    why = _("The score track shows %(vp)s VP.", vp=player.vp_track)
    if player.money or player.spyrium:
        why = _(
            "Money (£%(money)s) and Spyrium (%(spyrium)s) left over score nothing; the score track shows %(vp)s VP.",
            money=player.money,
            spyrium=player.spyrium,
            vp=player.vp_track,
        )
    return Line("vp_track", _(LABELS["vp_track"]), player.vp_track, why)


def _buildings_line(player: SpyriumPlayer) -> Line:
    """Each building you own scores the VP printed on it."""
    values = player.building_vp
    if not values:
        return Line("buildings", _(LABELS["buildings"]), 0, _("No building: 0 VP."))
    why = ngettext(
        "%(num)s building, the VP printed on it: %(sum)s VP.",
        "%(num)s buildings, the VP printed on each: %(sum)s VP.",
        len(values),
        sum=_sum_text(values),
    )
    return Line("buildings", _(LABELS["buildings"]), sum(values), why)


def _techniques_line(player: SpyriumPlayer) -> Line:
    """Each technique you patented scores its end-game VP, at most 7."""
    values = player.technique_vp
    if not values:
        return Line("techniques", _(LABELS["techniques"]), 0, _("No technique: 0 VP."))
    why = ngettext(
        "%(num)s technique, end-game VP (at most %(max)s each): %(sum)s VP.",
        "%(num)s techniques, end-game VP (at most %(max)s each): %(sum)s VP.",
        len(values),
        max=TECHNIQUE_VP_MAX,
        sum=_sum_text(values),
    )
    return Line("techniques", _(LABELS["techniques"]), sum(values), why)


def score(players: Sequence[SpyriumPlayer], options: SpyriumOptions) -> Result:
    """Score a finished game of Spyrium: track + buildings + techniques; tied players share the rank."""
    rows: list[ScoreRow] = [
        (player.name, [_track_line(player), _buildings_line(player), _techniques_line(player)], {})
        for player in players
    ]
    # No tie-break is published (rules notes): tied players share the victory.
    return rank_scores("spyrium", rows, ())


def reference_notes(options: SpyriumOptions) -> list[str]:
    """The Residence track in use, flagged to check against the board, and what scores at the end."""
    values = ", ".join(f"£{v}" for v in options.residence_values)
    return [
        _(
            "Residence track income, bottom to top: %(values)s (check your board and reference card). "
            "It does not change the final score: VP from a Residence action is already on the score track.",
            values=values,
        ),
        _(
            "Final score: VP on the score track + the VP printed on each building you own + the end-game VP of "
            "each technique (at most %(max)s each).",
            max=TECHNIQUE_VP_MAX,
        ),
        _("Money and Spyrium left at the end score nothing."),
        _(
            "Reaching %(first)s VP: choose +1 worker or £%(money)s; reaching %(second)s VP: take the other "
            "(at most %(max)s workers).",
            first=BONUS_STEPS[0],
            money=BONUS_MONEY,
            second=BONUS_STEPS[1],
            max=WORKERS_MAX,
        ),
        _("No tie-break is published: tied players share the victory."),
    ]


def pad(options: SpyriumOptions) -> Pad:
    """A blank Spyrium pad: the score track, buildings and techniques, and what scores nothing."""
    rules = {
        "vp_track": _("The VP your marker shows on the score track."),
        "buildings": _("The VP printed on each building you own."),
        "techniques": _("The end-game VP of each technique you patented (at most %(max)s each).", max=TECHNIQUE_VP_MAX),
    }
    lines = tuple(PadLine(key, _(label), rules[key]) for key, label in BREAKDOWN)
    notes = (
        _("Money and Spyrium left at the end score nothing."),
        _("No tie-break is published: tied players share the victory."),
    )
    return Pad(lines, notes)


def setup(count: int, options: SpyriumOptions) -> list[str]:
    """The rule text's starting position and turn structure for this player count, and when the game ends."""
    return [
        ngettext(
            "Each of the %(num)s player takes %(workers)s workers, %(spyrium)s Spyrium crystals and £%(money)s.",
            "Each of the %(num)s players takes %(workers)s workers, %(spyrium)s Spyrium crystals and £%(money)s.",
            count,
            workers=START_WORKERS,
            spyrium=START_SPYRIUM,
            money=START_MONEY,
        ),
        _(
            "Put each player's marker on 0 of the score track and a token on the %(space)s space of the "
            "Residence track.",
            space=START_RESIDENCE,
        ),
        _(
            "On the track in use that is space %(space)s of %(spaces)s, income £%(income)s a turn.",
            space=start_space(options),
            spaces=RESIDENCE_SPACES,
            income=options.residence_values[start_space(options) - 1],
        ),
        _("Shuffle the A, B and C decks and the event deck separately; choose a start player."),
        _(
            "Each turn: deal 9 cards of the turn's period into a 3×3 market (A for turns 1-3, B for 4-5, C for "
            "turn %(turns)s), pay each player the income of their Residence space, and turn the top event onto "
            "Current Event, revealing the next one as Future Event.",
            turns=TURNS,
        ),
        _("The game ends after turn %(turns)s; the most points wins, and tied players share the victory.", turns=TURNS),
    ]


# Live play at the table: six turns of income, money, workers, buildings and the 8 and 20 VP bonuses.

RESIDENCE_START_SPACE = 1
TECHNIQUE_PRICE = 6
BONUS_MONEY = 5
# 'if the building being discarded has an icon at the top that matches an icon on the newly-acquired building, the
# cost of the newly-acquired building is discounted by £3': a card cheaper than £3 then costs nothing, never less.
MATCHING_ICON_DISCOUNT = 3
# A replacement chip's value when the icons match: 'replace' "2 matching" is replace 2 with the −£3.
REPLACE_MATCHING = "matching"
# 'replace' as text, the page's chips and the API's "<n> matching": a building's number, maybe said to match (a
# longer run of digits than any bound is no number, so it is refused in words).
REPLACE_TEXT = re.compile(rf"\s*([+-]?[0-9]{{1,9}})\s*({REPLACE_MATCHING})?\s*", re.ASCII)
# The one-tap amounts on the page: VP and money gained or paid 2-7 at a time (±1 is the counter's own step), a
# building's printed VP 0-11 and its card cost £0-£11; anything else is typed.
QUICK_AMOUNTS = tuple(range(2, 8))
BUILDING_VP_CHIPS = tuple(range(12))
BUILDING_COST_CHIPS = tuple(range(12))
SEAT_COUNTERS = ("vp_track", "money", "workers", "spyrium", "residence")
SCORING_FIELDS = ("vp_track", "building_vp", "technique_vp", "money", "spyrium", "workers")
# 'The player must pay an activation cost of £1 to the bank for each remaining worker next to that card': the spaces
# beside a card hold any number of workers, at most every worker of every player.
WORKERS_BESIDE_MAX = WORKERS_MAX * MAX_PLAYERS


def period(turn: int) -> str:
    """'Period A takes place across turns 1, 2, and 3, Period B across turns 4 and 5', C across turn 6."""
    return "A" if turn <= 3 else "B" if turn <= 5 else "C"


def start_seat(options: SpyriumOptions) -> dict[str, Any]:
    """'Each player begins the game with 3 workers, 2 Spyrium crystals, and £8 ... a token on the 2 space of the
    Residence track': the space worth £2 on the track in use (the first space if no space is worth £2)."""
    return {
        "vp_track": 0,
        "building_vp": [],
        "technique_vp": [],
        "money": START_MONEY,
        "workers": START_WORKERS,
        "spyrium": START_SPYRIUM,
        "residence": start_space(options),
        "bonus_8": None,
        "bonus_20": False,
        "replaced": 0,
    }


def start_space(options: SpyriumOptions) -> int:
    """The Residence space (from 1) worth £2 on the track in use, where every token starts."""
    values = list(options.residence_values)
    return values.index(START_RESIDENCE) + 1 if START_RESIDENCE in values else RESIDENCE_START_SPACE


def income(seat: dict[str, Any], options: SpyriumOptions) -> int:
    """'each player earns income based on their token's position on the Residence track': the value printed on
    the token's space (the start space shows 2)."""
    return options.residence_values[seat["residence"] - 1]


def seat_facts(seat: dict[str, Any], options: SpyriumOptions) -> dict[str, Any]:
    """What the API shows beside a seat's state: the value printed on its Residence space (its income)."""
    return {"residence_value": income(seat, options)}


def to_input(state: State, ctx: Context) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The scoring input: each seat's track, buildings, techniques and the counts that score nothing."""
    players = [
        {"name": name, **{key: seat[key] for key in SCORING_FIELDS}}
        for name, seat in zip(ctx.names, state["seats"], strict=True)
    ]
    return players, ctx.options.model_dump(mode="json")


def _take(seat: dict[str, Any], choice: str, name: str) -> str:
    """Give one bonus: +1 worker (lost at the 7-worker cap) or £5; say what happened."""
    if choice == "money":
        seat["money"] += BONUS_MONEY
        return _("%(name)s takes £%(money)s.", name=name, money=BONUS_MONEY)
    if seat["workers"] >= WORKERS_MAX:
        return _(
            "%(name)s has %(max)s workers already (maximum number of workers: %(max)s): the worker is lost.",
            name=name,
            max=WORKERS_MAX,
        )
    seat["workers"] += 1
    return _("%(name)s takes an extra worker (%(workers)s).", name=name, workers=seat["workers"])


def _other(choice: str) -> str:
    """The bonus not picked at 8 VP."""
    return "money" if choice == "worker" else "worker"


def _bonuses(state: State, seat_index: int, ctx: Context, said: list[str]) -> None:
    """'When you reach 8 VP, you can get either an extra worker or £5. When you reach 20 VP, you get the bonus you
    didn't pick.' The 8 VP choice is asked (the bonus action); the 20 VP one follows by itself."""
    seat, name = state["seats"][seat_index], ctx.names[seat_index]
    if seat["vp_track"] >= BONUS_STEPS[0] and seat["bonus_8"] is None:
        said.append(_choose_note(name))
        if seat["workers"] >= WORKERS_MAX:
            said.append(
                _("%(name)s has %(max)s workers already: a worker chosen would be lost.", name=name, max=WORKERS_MAX)
            )
    elif seat["vp_track"] >= BONUS_STEPS[1] and seat["bonus_8"] is not None and not seat["bonus_20"]:
        seat["bonus_20"] = True
        taken = _take(seat, _other(seat["bonus_8"]), name)
        said.append(
            _("%(name)s reached %(vp)s VP: the other bonus. %(taken)s", name=name, vp=BONUS_STEPS[1], taken=taken)
        )


def _choose_note(name: str) -> str:
    """'Ann reached 8 VP: choose +1 worker or £5.'"""
    return _(
        "%(name)s reached %(vp)s VP: choose +1 worker or £%(money)s.", name=name, vp=BONUS_STEPS[0], money=BONUS_MONEY
    )


def _after_counter(before: State, state: State, action: Action, ctx: Context, old: int, new: int) -> Applied:
    """The rules a counter triggers: the worker cap, the Residence track's ends, the VP bonuses."""
    said: list[str] = []
    field = action.params.field
    if action.seat is not None and new != old:
        name = ctx.names[action.seat]
        if field == "workers" and new > WORKERS_MAX:
            message = _(
                "Maximum number of workers: %(max)s. %(name)s has %(old)s.", max=WORKERS_MAX, name=name, old=old
            )
            raise InputErrors([FieldError("workers", message)])
        if field == "residence" and not 1 <= new <= RESIDENCE_SPACES:
            raise InputErrors([FieldError("residence", _residence_refusal(name, old, new, ctx.options))])
        if field == "vp_track":
            _bonuses(state, action.seat, ctx, said)
    return Applied(state, tuple(said))


def _residence_refusal(name: str, old: int, new: int, options: SpyriumOptions) -> str:
    """Why a token can't go to that Residence space, in the values printed on the board's spaces."""
    values = options.residence_values
    if new > RESIDENCE_SPACES and old == RESIDENCE_SPACES:
        return _(
            "%(name)s's token is on the top space of the Residence track (%(value)s): it can't go higher.",
            name=name,
            value=values[-1],
        )
    if new < 1 and old == 1:
        return _(
            "%(name)s's token is on the bottom space of the Residence track (%(value)s): it can't go lower.",
            name=name,
            value=values[0],
        )
    return _(
        "The Residence track has %(spaces)s spaces, from %(bottom)s at the bottom to %(top)s at the top: "
        "%(name)s's token stays on %(value)s.",
        spaces=RESIDENCE_SPACES,
        bottom=values[0],
        top=values[-1],
        name=name,
        value=values[old - 1],
    )


class BonusParams(Params):
    """The bonus chosen on reaching 8 VP."""

    choice: Literal["worker", "money"]


class BuildParams(Params):
    """A building bought: the VP and the cost printed on it, the building it replaces (its number, from 1) or none
    for a new building space, and whether the discarded building's icon matches one on the new building."""

    # Left out (no VP chip tapped, nothing typed) it is asked for in words, not as a missing field.
    vp: int | None = Field(None, ge=0, le=BUILDING_VP_MAX)
    cost: int = Field(0, ge=0, le=MONEY_MAX)
    replace: int | None = Field(None, ge=1, le=MARKET_CARDS)
    matching: bool = False

    @model_validator(mode="before")
    @classmethod
    def _chips_and_boxes(cls, data: Any) -> Any:
        """The page's chips and their typed box share a name: of the values sent, the last one counts (the box after
        the VP chips, a tapped cost button after the cost box). 'replace' may say the icons match too ('1 matching'),
        one chip on the page for a replacement with the −£3."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for key in ("vp", "cost"):
            if isinstance(data.get(key), list):
                given = [value for value in data[key] if value not in ("", None)]
                data[key] = given[-1] if given else None
                if data[key] is None:
                    del data[key]
        where = data.get("replace")
        said = REPLACE_TEXT.fullmatch(where) if isinstance(where, str) else None
        # Read here, in strict (JSON) and lax (form) parsing alike, so that the API's documented "2 matching" is
        # taken as the page's chip is; a "matching" that says otherwise is left for _replace_text to refuse.
        if said is not None and (said[2] is None or data.get("matching", True) is True):
            data["replace"] = int(said[1])
            if said[2] is not None:
                data["matching"] = True
        return data

    @field_validator("replace", mode="before")
    @classmethod
    def _replace_text(cls, value: Any) -> Any:
        """Text _chips_and_boxes could not read as a building's number is refused in words (a number is checked
        against the bounds as usual)."""
        if not isinstance(value, str):
            return value
        if (said := REPLACE_TEXT.fullmatch(value)) is not None and said[2] is not None:
            raise ValueError(
                _(
                    "'%(number)s %(matching)s' says the icons match, but 'matching' does not: leave 'matching' "
                    "out, or give the building's number alone.",
                    number=said[1],
                    matching=REPLACE_MATCHING,
                )
            )
        raise ValueError(
            _(
                "Give the number of the building it replaces (from 1), with '%(matching)s' after it when the "
                "icons match: '2' or '2 %(matching)s'.",
                matching=REPLACE_MATCHING,
            )
        )


class PatentParams(Params):
    """A technique patented, and how many other workers stand beside its card (£1 each). The API's older form may
    give the new technique's end VP, or (with `number`) set the end VP of one already held, as technique_vp does:
    the contract only ever grows."""

    vp: int = Field(0, ge=0, le=TECHNIQUE_VP_MAX)
    number: int | None = Field(None, ge=1, le=MARKET_CARDS)
    beside: int = Field(0, ge=0, le=WORKERS_BESIDE_MAX)


class PayParams(Params):
    """An amount paid to the bank (a character, an activation cost, a building used), typed once."""

    # Left out (the page's box left empty) it is asked for in words, not as a missing field.
    amount: int | None = Field(None, ge=1, le=MONEY_MAX)


class TechniqueVPParams(Params):
    """The end-game VP of a technique already patented (its number, from 1)."""

    number: int = Field(ge=1, le=MARKET_CARDS)
    vp: int = Field(ge=0, le=TECHNIQUE_VP_MAX)


def start_turn(state: State, action: Action, ctx: Context) -> Applied:
    """'At the beginning of each turn, each player earns income based on their token's position on the Residence
    track'; after turn 6 the game is over."""
    table = state["table"]
    if table["turn"] >= TURNS:
        raise InputErrors([FieldError("action", _("Turn %(turns)s was the last one: finish and score.", turns=TURNS))])
    table["turn"] += 1
    paid = []
    for name, seat in zip(ctx.names, state["seats"], strict=True):
        seat["money"] += income(seat, ctx.options)
        paid.append(f"{name} £{income(seat, ctx.options)}")
    said = [
        _(
            "Turn %(turn)s (period %(period)s): income paid: %(paid)s.",
            turn=table["turn"],
            period=period(table["turn"]),
            paid=", ".join(paid),
        )
    ]
    return Applied(state, tuple(said))


def bonus(state: State, action: Action, ctx: Context) -> Applied:
    """The 8 VP choice, and at once the other bonus when the player is at 20 VP already (one jump past both)."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name = state["seats"][action.seat], ctx.names[action.seat]
    if seat["vp_track"] < BONUS_STEPS[0]:
        message = _(
            "%(name)s has %(vp)s VP: the bonus comes at %(step)s.", name=name, vp=seat["vp_track"], step=BONUS_STEPS[0]
        )
        raise InputErrors([FieldError("choice", message)])
    if seat["bonus_8"] is not None:
        if seat["bonus_8"] == "worker":
            message = _("%(name)s chose the %(vp)s VP bonus already (worker).", name=name, vp=BONUS_STEPS[0])
        else:
            message = _("%(name)s chose the %(vp)s VP bonus already (money).", name=name, vp=BONUS_STEPS[0])
        raise InputErrors([FieldError("choice", message)])
    seat["bonus_8"] = action.params.choice
    said = [_take(seat, action.params.choice, name)]
    _bonuses(state, action.seat, ctx, said)
    return Applied(state, tuple(said))


def build(state: State, action: Action, ctx: Context) -> Applied:
    """'The cost to purchase a building space is equal to the number of buildings that the player has already
    built. ... A player may, instead, discard an existing building to place the newly-acquired building in its
    building space without having to pay for the space. Furthermore, if the building being discarded has an icon at
    the top that matches an icon on the newly-acquired building, the cost of the newly-acquired building is
    discounted by £3.'"""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name, params = state["seats"][action.seat], ctx.names[action.seat], action.params
    if params.vp is None:
        message = _("Tap the VP printed on %(name)s's building (or type it), then its cost.", name=name)
        raise InputErrors([FieldError("vp", message)])
    built = len(seat["building_vp"])
    if params.replace is not None and params.replace > built:
        message = ngettext(
            "%(name)s has %(num)s building: no building %(number)s to replace.",
            "%(name)s has %(num)s buildings: no building %(number)s to replace.",
            built,
            name=name,
            number=params.replace,
        )
        raise InputErrors([FieldError("replace", message)])
    if params.matching and params.replace is None:
        raise InputErrors(
            [
                FieldError(
                    "matching",
                    _(
                        "The −£%(discount)s for a matching icon is only for a building that replaces another: "
                        "choose the building it replaces, or untick the matching icon.",
                        discount=MATCHING_ICON_DISCOUNT,
                    ),
                )
            ]
        )
    card = max(0, params.cost - MATCHING_ICON_DISCOUNT) if params.matching else params.cost
    space = 0 if params.replace is not None else built
    price = card + space
    if price > seat["money"]:
        raise InputErrors(
            [
                FieldError(
                    "cost",
                    _(
                        "%(name)s has £%(money)s, and this building costs %(price)s.",
                        name=name,
                        money=seat["money"],
                        price=_price_text(params, card, space, built),
                    ),
                )
            ]
        )
    seat["money"] -= price
    if params.replace is not None:
        discarded = seat["building_vp"][params.replace - 1]
        seat["building_vp"][params.replace - 1] = params.vp
        # Counted so that a replacement changes the state even when it costs £0 and keeps the VP: it is an action
        # like any other, one undo step.
        seat["replaced"] = seat.get("replaced", 0) + 1
        said = _(
            "Building %(number)s (%(old)s VP) is discarded for a %(vp)s VP building; %(name)s pays %(price)s.",
            number=params.replace,
            old=discarded,
            vp=params.vp,
            name=name,
            price=_price_text(params, card, space, built),
        )
    else:
        seat["building_vp"].append(params.vp)
        said = _("%(name)s pays %(price)s.", name=name, price=_price_text(params, card, space, built))
    return Applied(state, (said,))


def _price_text(params: BuildParams, card: int, space: int, built: int) -> str:
    """'£3: £1 for the card and £2 for the building space' and the like: what a building costs, and why."""
    card_text = _("£%(cost)s for the card", cost=params.cost)
    if params.matching:
        card_text = _(
            "£%(cost)s − £%(discount)s for the matching icon = £%(card)s for the card",
            cost=params.cost,
            discount=MATCHING_ICON_DISCOUNT,
            card=card,
        )
    if params.replace is not None:
        return _("£%(price)s: %(card)s, no building space to pay (it replaces one)", price=card + space, card=card_text)
    if built == 0:
        return _("£%(price)s: %(card)s; the first building space is free", price=card + space, card=card_text)
    return ngettext(
        "£%(price)s: %(card)s and £%(space)s for the building space (%(num)s building built before)",
        "£%(price)s: %(card)s and £%(space)s for the building space (%(num)s buildings built before)",
        built,
        price=card + space,
        card=card_text,
        space=space,
    )


def technique(state: State, action: Action, ctx: Context) -> Applied:
    """'A technique (green background) - Pay £6 to acquire the technique card', and 'an activation cost of £1 to the
    bank for each remaining worker next to that card'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name, params = state["seats"][action.seat], ctx.names[action.seat], action.params
    if params.number is not None:
        return technique_vp(state, _with_params(action, TechniqueVPParams(number=params.number, vp=params.vp)), ctx)
    price = TECHNIQUE_PRICE + params.beside
    if seat["money"] < price:
        price_text = _technique_price_text(params.beside)
        if params.beside:
            message = _(
                "%(name)s has £%(money)s: this technique costs %(price)s.",
                name=name,
                money=seat["money"],
                price=price_text,
            )
        else:
            message = _(
                "%(name)s has £%(money)s: a technique costs %(price)s.",
                name=name,
                money=seat["money"],
                price=price_text,
            )
        raise InputErrors([FieldError("action", message)])
    seat["money"] -= price
    seat["technique_vp"].append(params.vp)
    number = len(seat["technique_vp"])
    price_text = _technique_price_text(params.beside)
    if params.vp:
        said = _(
            "%(name)s pays %(price)s for technique %(number)s, %(vp)s VP at the end.",
            name=name,
            price=price_text,
            number=number,
            vp=params.vp,
        )
    else:
        said = _(
            "%(name)s pays %(price)s for technique %(number)s; its end VP (up to %(max)s) is entered at the end.",
            name=name,
            price=price_text,
            number=number,
            max=TECHNIQUE_VP_MAX,
        )
    return Applied(state, (said,))


def _technique_price_text(beside: int) -> str:
    """'£6', or '£8 (£6 and £2 for the workers beside it)'."""
    if not beside:
        return f"£{TECHNIQUE_PRICE}"
    return ngettext(
        "£%(price)s (£%(base)s and £%(num)s for the worker beside it)",
        "£%(price)s (£%(base)s and £%(num)s for the %(num)s workers beside it)",
        beside,
        price=TECHNIQUE_PRICE + beside,
        base=TECHNIQUE_PRICE,
    )


def pay(state: State, action: Action, ctx: Context) -> Applied:
    """An amount paid to the bank in one go; refused when the player has less ('pay the cost to acquire the
    benefit': nobody pays with money they don't have)."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name, amount = state["seats"][action.seat], ctx.names[action.seat], action.params.amount
    if amount is None:
        raise InputErrors([FieldError("amount", _("Type how much %(name)s pays (£), then Pay.", name=name))])
    if amount > seat["money"]:
        message = _(
            "%(name)s has £%(money)s: %(name)s can't pay £%(amount)s. Nothing was paid.",
            name=name,
            money=seat["money"],
            amount=amount,
        )
        raise InputErrors([FieldError("amount", message)])
    seat["money"] -= amount
    return Applied(
        state, (_("%(name)s pays £%(amount)s: £%(left)s left.", name=name, amount=amount, left=seat["money"]),)
    )


def residence_vp(state: State, action: Action, ctx: Context) -> Applied:
    """Rules notes: 'A Residence action either moves one space up or scores VP equal to the current income; at the top
    (7), further Residence actions score 7 VP.' This is the scoring one (moving up is the Residence counter's +)."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name = state["seats"][action.seat], ctx.names[action.seat]
    value = income(seat, ctx.options)
    seat["vp_track"] += value
    said = [
        _(
            "%(name)s's Residence action scores %(vp)s VP (the value of the token's space): %(total)s VP "
            "on the score track.",
            name=name,
            vp=value,
            total=seat["vp_track"],
        )
    ]
    _bonuses(state, action.seat, ctx, said)
    return Applied(state, tuple(said))


def _with_params(action: Action, params: Params) -> Action:
    """The same action for the same seat with other parameters."""
    return Action(action.name, action.seat, params)


def technique_vp(state: State, action: Action, ctx: Context) -> Applied:
    """'These cards provide ... an opportunity to score bonus points (up to 7) at the end of the game.'"""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    seat, name, params = state["seats"][action.seat], ctx.names[action.seat], action.params
    held = len(seat["technique_vp"])
    if params.number > held:
        if held:
            message = ngettext(
                "%(name)s has %(num)s technique: no technique %(number)s to score.",
                "%(name)s has %(num)s techniques: no technique %(number)s to score.",
                held,
                name=name,
                number=params.number,
            )
        else:
            message = _("%(name)s has no technique: no technique %(number)s to score.", name=name, number=params.number)
        raise InputErrors([FieldError("number", message)])
    seat["technique_vp"][params.number - 1] = params.vp
    said = _(
        "%(name)s's technique %(number)s scores %(vp)s VP at the end.", name=name, number=params.number, vp=params.vp
    )
    return Applied(state, (said,))


def live_notes(standing: Standing) -> list[Note]:
    """The turn and its period, who leads, whose 8 VP choice is waiting, and the end after turn 6."""
    state, ctx, result = standing.state, standing.ctx, standing.result
    turn = state["table"]["turn"]
    if turn:
        notes = [
            Note(_("Turn %(turn)s of %(turns)s (period %(period)s).", turn=turn, turns=TURNS, period=period(turn)))
        ]
    else:
        notes = [Note(_("Before turn 1: start it to pay the first income."))]
    if any(p.total for p in result.players):
        notes.append(Note(leads_sentence(result)))
    for name, seat in zip(ctx.names, state["seats"], strict=True):
        if seat["vp_track"] >= BONUS_STEPS[0] and seat["bonus_8"] is None:
            notes.append(Note(_choose_note(name), warning=True))
    if turn >= TURNS:
        last = _(
            "Turn %(turns)s is the last: when it is over, enter each technique's end VP (At the end) and finish.",
            turns=TURNS,
        )
        notes.append(Note(last, warning=True))
    return notes


def end(standing: Standing) -> End:
    """The game ends after turn 6."""
    turn = standing.state["table"]["turn"]
    return End(turn >= TURNS, _("Turn %(turns)s is the last turn.", turns=TURNS) if turn >= TURNS else None)


def view(standing: Standing) -> dict[str, Any]:
    """What the Spyrium tracker draws: the turn and period, each seat's Residence value (its income), the next
    building space's price and a pending 8 VP choice."""
    state, options = standing.state, standing.options
    turn = state["table"]["turn"]
    return {
        "turn": turn,
        "period": period(turn) if turn else None,
        "last_turn": turn >= TURNS,
        # The value printed on each token's Residence space: what the board shows, and the income it pays.
        "income": [income(seat, options) for seat in state["seats"]],
        "space_price": [len(seat["building_vp"]) for seat in state["seats"]],
        "choosing": [seat["vp_track"] >= BONUS_STEPS[0] and seat["bonus_8"] is None for seat in state["seats"]],
        "quick": QUICK_AMOUNTS,
        "vp_chips": BUILDING_VP_CHIPS,
        "cost_chips": BUILDING_COST_CHIPS,
        "matching": REPLACE_MATCHING,
        "discount": MATCHING_ICON_DISCOUNT,
    }


def _bonus_text(action: Action, ctx: Context) -> str:
    """'Ann takes the 8 VP bonus: +1 worker', for undo and the log."""
    if action.params.choice == "worker":
        return _("%(who)s takes the %(vp)s VP bonus: +1 worker", who=ctx.who(action.seat), vp=BONUS_STEPS[0])
    return _(
        "%(who)s takes the %(vp)s VP bonus: £%(money)s", who=ctx.who(action.seat), vp=BONUS_STEPS[0], money=BONUS_MONEY
    )


def _build_text(action: Action, ctx: Context) -> str:
    """'Ann builds a 5 VP building, card £3' or 'Ann replaces building 1 with a 4 VP building, card £5 − £3 for the
    matching icon', for undo and the log."""
    params, who = action.params, ctx.who(action.seat)
    values = {"who": who, "vp": params.vp, "cost": params.cost, "number": params.replace}
    if params.replace is None:
        if params.matching:
            return _(
                "%(who)s builds a %(vp)s VP building, card £%(cost)s − £%(discount)s for the matching icon",
                discount=MATCHING_ICON_DISCOUNT,
                **values,
            )
        return _("%(who)s builds a %(vp)s VP building, card £%(cost)s", **values)
    if params.matching:
        return _(
            "%(who)s replaces building %(number)s with a %(vp)s VP building, card £%(cost)s − £%(discount)s for the "
            "matching icon",
            discount=MATCHING_ICON_DISCOUNT,
            **values,
        )
    return _("%(who)s replaces building %(number)s with a %(vp)s VP building, card £%(cost)s", **values)


def _patent_text(action: Action, ctx: Context) -> str:
    """'Ann patents a technique (−£6)', for undo and the log (the API's older forms said as they act)."""
    params, who = action.params, ctx.who(action.seat)
    if params.number is not None:
        return _(
            "%(who)s: technique %(number)s scores %(vp)s VP at the end", who=who, number=params.number, vp=params.vp
        )
    price, beside, vp = TECHNIQUE_PRICE + params.beside, params.beside, params.vp
    if beside and vp:
        return ngettext(
            "%(who)s patents a technique (−£%(price)s, %(num)s worker beside it), %(vp)s VP at the end",
            "%(who)s patents a technique (−£%(price)s, %(num)s workers beside it), %(vp)s VP at the end",
            beside,
            who=who,
            price=price,
            vp=vp,
        )
    if beside:
        return ngettext(
            "%(who)s patents a technique (−£%(price)s, %(num)s worker beside it)",
            "%(who)s patents a technique (−£%(price)s, %(num)s workers beside it)",
            beside,
            who=who,
            price=price,
        )
    if vp:
        return _("%(who)s patents a technique (−£%(price)s), %(vp)s VP at the end", who=who, price=price, vp=vp)
    return _("%(who)s patents a technique (−£%(price)s)", who=who, price=price)


def _pay_text(action: Action, ctx: Context) -> str:
    """'Ann pays £7', for undo and the log."""
    amount = action.params.amount
    if amount is None:
        return _("%(who)s pays an amount", who=ctx.who(action.seat))
    return _("%(who)s pays £%(amount)s", who=ctx.who(action.seat), amount=amount)


def _residence_vp_text(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann's Residence action scores 3 VP' (the value as it was when scored, where the state before is known)."""
    if before is None:
        return _("%(who)s's Residence action scores its value in VP", who=ctx.who(action.seat))
    return _(
        "%(who)s's Residence action scores %(vp)s VP",
        who=ctx.who(action.seat),
        vp=income(before["seats"][action.seat], ctx.options),
    )


def _technique_vp_text(action: Action, ctx: Context) -> str:
    """'Ann: technique 2 scores 5 VP at the end', for undo and the log."""
    return _(
        "%(who)s: technique %(number)s scores %(vp)s VP at the end",
        who=ctx.who(action.seat),
        number=action.params.number,
        vp=action.params.vp,
    )


# What the table plays that the tracker leaves on the table, said in the tracker's "What the tracker keeps".
UNTRACKED = (
    N_("The market: the 9 cards dealt each turn, and which of them are taken."),
    N_(
        "Placing workers between cards, taking them back, and the £1 per neighbouring worker they earn or cost: "
        "count the money on the Money counter."
    ),
    N_("The two phases of a turn (placement and activation), the turn order and passing."),
    N_("The events: the Current and Future Event cards, and who has activated the event this turn."),
    N_(
        "What buildings, techniques and characters do during the game, and using a building once a turn: "
        "enter the VP they score on the score track."
    ),
    N_("Spyrium crystals spent or gained: step the Spyrium counter."),
    N_("The icons on buildings: the tracker takes the −£3 off when you choose a replacement whose icons match."),
)


LIVE = Live(
    start_table=lambda options: {"turn": 0},
    start_seat=start_seat,
    actions={
        **counter_actions(_after_counter),
        "start_turn": ActionSpec(start_turn, describe=lambda action, ctx: _("the start of a turn, with its income")),
        "bonus": ActionSpec(bonus, BonusParams, "required", _bonus_text),
        "build": ActionSpec(build, BuildParams, "required", _build_text),
        "technique": ActionSpec(technique, PatentParams, "required", _patent_text),
        "technique_vp": ActionSpec(technique_vp, TechniqueVPParams, "required", _technique_vp_text),
        "pay": ActionSpec(pay, PayParams, "required", _pay_text),
        "residence_vp": ActionSpec(residence_vp, NoParams, "required", _residence_vp_text),
    },
    seat_counters=lambda options: SEAT_COUNTERS,
    to_input=to_input,
    notes=live_notes,
    end=end,
    view=view,
    # Every player plays in each of the six turns: the chart marks them; no seat's turn is timed.
    round_of=lambda table, count: int(table["turn"]),
    round_name=N_("Turn"),
    labels={
        "vp_track": N_("score track VP"),
        "money": N_("money (£)"),
        "workers": N_("workers"),
        "spyrium": "Spyrium",
        "residence": N_("Residence track"),
    },
    untracked=UNTRACKED,
    seat_facts=seat_facts,
)


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
    blurb=N_("Steampunk worker placement between market cards: build, patent and refine Spyrium in 6 turns."),
    setup=setup,
    reference_notes=reference_notes,
    pad=pad,
    live=LIVE,
)
