"""SPQF (2-4 players): VP tokens, Civilization Level, Monument and its bonus, cards with a 1 VP corner.

Rules from the rulebook's "Setup", "Civilization Level" and "End of the Game"; the project's decisions:
docs/rules.md, "SPQF".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field, field_validator

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
    TieBreak,
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
    Params,
    Standing,
    State,
    counter_actions,
)
from companion.games.turns import FIRST_SEAT, active_seat, round_number, turn_order_from, turns_left
from companion.games.wording import capital, join_names, signed
from companion.language import N_, _, ngettext

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
# VP tokens count VP: the box's 40 acorns are no limit on anyone's VP (rules notes); above 150 is a typo.
VP_TOKENS_MAX = 150
# A player's cards are at most every Civilization card plus their own 5 starters: starters are discarded,
# never put in a trade row, so no opponent can recruit them.
PLAYER_CARDS_MAX = CIVILIZATION_CARDS + STARTERS_PER_PLAYER
# The rule text speaks of cards "with two modifiers", never more; 2 per card is a generous ceiling.
MODIFIERS_PER_CARD_MAX = 2
MONUMENT_MODIFIERS_MAX = PLAYER_CARDS_MAX * MODIFIERS_PER_CARD_MAX


class SpqfPlayer(PlayerInput):
    """What an SPQF player has at the end: tokens, level, Monument modifiers and 1 VP cards."""

    vp_tokens: int = Field(default=0, ge=0, le=VP_TOKENS_MAX)
    civ_level: int = Field(default=0, ge=0, le=LEVEL_MAX)
    monument_modifiers: int = Field(default=0, ge=0, le=MONUMENT_MODIFIERS_MAX)
    vp_cards: int = Field(default=0, ge=0, le=PLAYER_CARDS_MAX, title=N_("VP cards"))


class SpqfOptions(Schema):
    """The Civilization Level VP table, levels 0 to 5, read off the reference card."""

    level_vp: tuple[int, int, int, int, int, int] = Field(
        DEFAULT_LEVEL_VP,
        title=N_("Civilization Level VP (levels 0 to 5)"),
        description=N_("Only level 3 = 9 VP is printed in the rules: check your reference card."),
    )

    @field_validator("level_vp", mode="before")
    @classmethod
    def _six_levels(cls, value: Any) -> tuple[int, ...]:
        """One clear message for the whole table instead of pydantic's per-item tuple errors."""
        return number_table(value, LEVELS, _("the VP for levels 0 to 5"), LEVEL_VP_MAX)


BREAKDOWN = (
    ("vp_tokens", N_("VP tokens")),
    ("civ_level", N_("Civilization Level")),
    ("monument", N_("Monument")),
    ("monument_bonus", N_("Monument bonus")),
    ("vp_cards", N_("1 VP cards")),
)
LABELS = dict(BREAKDOWN)


def _names(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy', with the reader's 'and'."""
    return join_names(names, _("and"))


def _tokens_line(player: SpqfPlayer) -> Line:
    """'VP tokens collected' (including the 1 VP token for being first to a level)."""
    count = player.vp_tokens
    why = (
        ngettext("%(num)s VP token collected: %(num)s VP.", "%(num)s VP tokens collected: %(num)s VP.", count)
        if count
        else _("No VP tokens: 0 VP.")
    )
    return Line("vp_tokens", _(LABELS["vp_tokens"]), count, why)


def _level_line(player: SpqfPlayer, options: SpqfOptions) -> Line:
    """'Civilization Level (Ex: Level 3 awards 9VP)', from the level table in use."""
    vp = options.level_vp[player.civ_level]
    why = _(
        "Civilization Level %(level)s of %(max)s, from the level table (check your reference card): %(vp)s VP.",
        level=player.civ_level,
        max=LEVEL_MAX,
        vp=vp,
    )
    return Line("civ_level", _(LABELS["civ_level"]), vp, why)


def _monument_line(player: SpqfPlayer) -> Line:
    """'Score 1 VP per indicated modifier on cards in your deck (or stored). Don't count oak leaves!'"""
    count = player.monument_modifiers
    why = (
        ngettext(
            "%(num)s modifier matching your Monument (oak leaves never count): %(num)s × 1 = %(num)s VP.",
            "%(num)s modifiers matching your Monument (oak leaves never count): %(num)s × 1 = %(num)s VP.",
            count,
        )
        if count
        else _("No modifier matching your Monument (oak leaves never count): 0 VP.")
    )
    return Line("monument", _(LABELS["monument"]), count, why)


def _bonus_line(player: SpqfPlayer, players: Sequence[SpqfPlayer]) -> Line:
    """'The player who earned the most VP for their Monument scores a 3VP bonus. If players are tied, no bonus.'"""
    mine = player.monument_modifiers
    most = max(p.monument_modifiers for p in players)
    leaders = [p.name for p in players if p.monument_modifiers == most]
    label = _(LABELS["monument_bonus"])
    if len(leaders) == 1 and leaders[0] == player.name:
        runner_up = max((p.monument_modifiers for p in players if p is not player), default=0)
        why = _(
            "The most Monument VP (%(mine)s; next best %(next)s): %(bonus)s VP.",
            mine=mine,
            next=runner_up,
            bonus=MONUMENT_BONUS,
        )
        return Line("monument_bonus", label, MONUMENT_BONUS, why)
    if len(leaders) == 1:
        why = _(
            "%(mine)s Monument VP; %(name)s has the most (%(most)s) and takes the %(bonus)s VP bonus: 0 VP.",
            mine=mine,
            name=leaders[0],
            most=most,
            bonus=MONUMENT_BONUS,
        )
    elif most == 0:
        # With 2+ players a most of 0 always means everyone is tied at 0, so the tie rule already says no bonus.
        why = _("Everyone has 0 Monument VP, a tie for the most, so nobody gets the bonus: 0 VP.")
    elif mine == most:
        why = _(
            "Tied with %(names)s for the most Monument VP (%(most)s), and a tie awards the bonus to nobody: 0 VP.",
            names=_names([name for name in leaders if name != player.name]),
            most=most,
        )
    else:
        why = _(
            "%(mine)s Monument VP; %(names)s tie for the most (%(most)s), so nobody gets the bonus: 0 VP.",
            mine=mine,
            names=_names(leaders),
            most=most,
        )
    return Line("monument_bonus", label, 0, why)


def _cards_line(player: SpqfPlayer) -> Line:
    """'1 VP from each card with 1 VP in top right corner.'"""
    count = player.vp_cards
    why = (
        ngettext(
            "%(num)s card with 1 VP in the top right corner: %(num)s × 1 = %(num)s VP.",
            "%(num)s cards with 1 VP in the top right corner: %(num)s × 1 = %(num)s VP.",
            count,
        )
        if count
        else _("No card with 1 VP in the top right corner: 0 VP.")
    )
    return Line("vp_cards", _(LABELS["vp_cards"]), count, why)


def score(players: Sequence[SpqfPlayer], options: SpqfOptions) -> Result:
    """Score a finished game of SPQF, ranked by total, then highest Civilization Level, then shared."""
    rows: list[ScoreRow] = []
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
            _("highest Civilization Level"),
            key=lambda p: level_of[p.name],
            show=lambda p: _("level %(level)s", level=level_of[p.name]),
        ),
    )
    return rank_scores("spqf", rows, tiebreaks)


def check(players: Sequence[SpqfPlayer], options: SpqfOptions) -> list[FieldError]:
    """Between them, players can't hold more cards than are in play: 48 Civilization cards + 5 starters each."""
    in_play = CIVILIZATION_CARDS + STARTERS_PER_PLAYER * len(players)
    counted = sum(p.vp_cards for p in players)
    if players and counted > in_play:
        message = _(
            "Only %(in_play)s cards are in play with %(players)s players (%(civilization)s Civilization + "
            "%(starters)s starters each); %(counted)s cards with a 1 VP corner counted in all.",
            in_play=in_play,
            players=len(players),
            civilization=CIVILIZATION_CARDS,
            starters=STARTERS_PER_PLAYER,
            counted=counted,
        )
        return [FieldError(f"players[{len(players) - 1}].vp_cards", message)]
    return []


def level_table_text(level_vp: Sequence[int]) -> str:
    """'level 0: 0, level 1: 3, ...' for a level VP table."""
    return ", ".join(_("level %(level)s: %(vp)s", level=level, vp=vp) for level, vp in enumerate(level_vp))


def reference_notes(options: SpqfOptions) -> list[str]:
    """The level VP table in use, flagged to check against the printed reference card, and scoring reminders."""
    table = level_table_text(options.level_vp)
    if tuple(options.level_vp) == DEFAULT_LEVEL_VP:
        levels = _(
            "Civilization Level VP (default table): %(table)s VP. The rules print only level %(level)s = %(vp)s VP: "
            "check your reference card.",
            table=table,
            level=PRINTED_LEVEL,
            vp=PRINTED_LEVEL_VP,
        )
    else:
        levels = _(
            "Civilization Level VP (your own table): %(table)s VP. The rules print only level %(level)s = %(vp)s "
            "VP: check your reference card.",
            table=table,
            level=PRINTED_LEVEL,
            vp=PRINTED_LEVEL_VP,
        )
    return [
        levels,
        _("The first player to reach each Civilization Level takes a 1 VP token: count it with the VP tokens."),
        _(
            "Monument: 1 VP per modifier matching your Monument on all your cards (deck, discard pile, hand and "
            "stored); oak leaves never count."
        ),
        _(
            "Monument bonus: %(bonus)s VP to the single player with the most Monument VP; a tie for the most "
            "(everyone at 0 included) awards it to nobody.",
            bonus=signed(MONUMENT_BONUS),
        ),
        _("Tied totals: the highest Civilization Level wins; still tied, the victory is shared."),
    ]


def pad(options: SpqfOptions) -> Pad:
    """A blank SPQF pad: a row per breakdown line, the level table in use and the tie-break below."""
    rules = {
        "vp_tokens": _("1 VP per VP token, with each 1 VP token for being first to a Civilization Level."),
        "civ_level": _("Your level's VP: %(table)s.", table=level_table_text(options.level_vp)),
        "monument": _("1 VP per modifier matching your Monument on all your cards; oak leaves never count."),
        "monument_bonus": _(
            "%(bonus)s VP to the single player with the most Monument VP; a tie: nobody.", bonus=MONUMENT_BONUS
        ),
        "vp_cards": _("1 VP per card with 1 VP in its top right corner."),
    }
    lines = tuple(PadLine(key, _(label), rules[key]) for key, label in BREAKDOWN)
    notes = (
        _(
            "The rules print only level %(level)s = %(vp)s VP: check the level table against your reference card.",
            level=PRINTED_LEVEL,
            vp=PRINTED_LEVEL_VP,
        ),
        _("Tied totals: the highest Civilization Level wins; still tied, the victory is shared."),
    )
    return Pad(lines, notes)


def setup(count: int, options: SpqfOptions) -> list[str]:
    """The rule text's setup steps for this player count, and when the game ends."""
    return [
        _("Each player takes a reference card; give the first player token to a random player."),
        _("Form a supply with the VP acorns and the resource cubes."),
        _("Each player takes a tableau and puts their Civilization Level marker on 0."),
        _("Shuffle the Monuments and deal one face down to each player, who may look at it and keeps it secret."),
        ngettext(
            "Each player takes their %(starters)s different starter cards. Shuffle the Civilization cards and deal 5 "
            "to each player (%(cards)s for %(num)s player); each player shuffles them with their starters to form "
            "their deck.",
            "Each player takes their %(starters)s different starter cards. Shuffle the Civilization cards and deal 5 "
            "to each player (%(cards)s for %(num)s players); each player shuffles them with their starters to form "
            "their deck.",
            count,
            starters=STARTERS_PER_PLAYER,
            cards=5 * count,
        ),
        _("Advanced: draft the 5 Civilization cards instead (keep one, pass the rest to your left, repeat)."),
        _("Put the remaining Civilization cards face down as a deck and deal 3 face up as the central trade row."),
        _("Each player draws the first 5 cards of their deck."),
        _(
            "The end begins when a player has %(tokens)s or more VP tokens, a player reaches level %(level)s, or the "
            "last Civilization card is placed in the central trade row; finish the round so everyone has had the "
            "same number of turns, then score.",
            tokens=END_VP_TOKENS,
            level=LEVEL_MAX,
        ),
    ]


# Live play at the table: whose turn it is, the first player to each level, and the end of the game.

LEVEL_FIELD = "civ_level"
# The table's record of the turn each seat reached each level on: {level: {seat: turn}}, kept from a seat's first
# expansion on (plays begun before it have none, and the start table stays as the API documents it).
REACHED = "reached"
TOKENS_FIELD = "vp_tokens"
SEAT_COUNTERS = ("vp_tokens", "civ_level", "monument_modifiers", "vp_cards")


def start_table(options: SpqfOptions) -> dict[str, Any]:
    """Turn 1 (the first player's), no level taken yet, the Civilization deck not yet empty, the end not begun."""
    return {"turn": 1, "first": {}, "last_card": False, "end_round": None}


def end_reasons(state: State, ctx: Context) -> list[str]:
    """'At least 1 of 3 occurs': 25+ VP tokens, the fifth level, or the last Civilization card in the trade row."""
    reasons = []
    for name, seat in zip(ctx.names, state["seats"], strict=True):
        if seat[TOKENS_FIELD] >= END_VP_TOKENS:
            reasons.append(
                _(
                    "%(name)s has %(tokens)s VP tokens (%(end)s or more)",
                    name=name,
                    tokens=seat[TOKENS_FIELD],
                    end=END_VP_TOKENS,
                )
            )
        if seat[LEVEL_FIELD] >= LEVEL_MAX:
            reasons.append(_("%(name)s reached Civilization Level %(level)s", name=name, level=LEVEL_MAX))
    if state["table"]["last_card"]:
        reasons.append(_("the last Civilization card is in the central trade row"))
    return reasons


def turns_followed(table: dict[str, Any]) -> bool:
    """Whether the tracker knows whose turn it is: Next turn is optional, and a play still on turn 1 can't tell the
    first player's first turn from a group that never taps it, so only from the first Next turn on is it followed
    (the end can't begin in the first player's very first turn, and the in-turn tie-break waits for it too)."""
    return int(table["turn"]) > 1


def countdown(state: State, ctx: Context) -> str:
    """'Finish the round: after Ann's turn, Bob and Cy still play.' Without turns followed, the round's end is said
    by the rule alone: it ends with the last player in turn order."""
    count = len(ctx.names)
    table = state["table"]
    if not turns_followed(table):
        last = ctx.names[turn_order_from(FIRST_SEAT, count)[-1]]
        return _(
            "Finish the round up to %(name)s's turn, the last in turn order; then enter the Monuments and finish.",
            name=last,
        )
    active = active_seat(table, count)
    left = turns_left(active, FIRST_SEAT, count)
    if not left:
        return _("%(name)s's turn is the last one: then enter the Monuments and finish.", name=ctx.names[active])
    return ngettext(
        "Finish the round: after %(name)s's turn, %(names)s still plays.",
        "Finish the round: after %(name)s's turn, %(names)s still play.",
        len(left),
        name=ctx.names[active],
        names=_names([ctx.names[seat] for seat in left]),
    )


def _track_end(state: State, ctx: Context, said: list[str]) -> State:
    """Mark the round in which the end began (or unmark it when a correction undoes the trigger) and say so."""
    table = state["table"]
    reasons = end_reasons(state, ctx)
    if reasons and table["end_round"] is None:
        table["end_round"] = round_number(table, len(ctx.names))
        said.append(
            _(
                "The end of the game begins: %(reasons)s. %(countdown)s",
                reasons=_names(reasons),
                countdown=countdown(state, ctx),
            )
        )
    elif not reasons and table["end_round"] is not None:
        table["end_round"] = None
        said.append(_("The end of the game is no longer triggered."))
    return state


def reached_turn(table: dict[str, Any], seat: int, level: int) -> int | None:
    """The turn on which a seat reached a level, as the tracker saw it (None: not known, e.g. reached before the
    tracker kept it)."""
    turn: int | None = table.get(REACHED, {}).get(str(level), {}).get(str(seat))
    return turn


def _mark_reached(table: dict[str, Any], seat: int, level: int) -> None:
    """Keep the turn on which a seat reached a level: a token handed to it later is dated to that turn."""
    table.setdefault(REACHED, {}).setdefault(str(level), {})[str(seat)] = table["turn"]


def _unmark_reached(table: dict[str, Any], seat: int, level: int) -> None:
    """Forget that a seat reached the levels above `level` (a correction down): reaching one again is a new turn."""
    reached = table.get(REACHED, {})
    for key in [key for key in reached if int(key) > level]:
        reached[key].pop(str(seat), None)
        if not reached[key]:
            del reached[key]


def _give_token(state: State, level: int, seat: int, turn: int) -> int | None:
    """Hand the level's first-player token to a seat: +1 VP token to it, −1 to the seat that held it (returned)."""
    first = state["table"]["first"]
    holder: int | None = first.get(str(level), {}).get("seat")
    if holder is not None:
        state["seats"][holder][TOKENS_FIELD] = max(0, state["seats"][holder][TOKENS_FIELD] - 1)
    state["seats"][seat][TOKENS_FIELD] += 1
    first[str(level)] = {"seat": seat, "turn": turn}
    return holder


def _reached_level(state: State, seat: int, level: int, ctx: Context, said: list[str]) -> None:
    """'The first player who earns each Civilization Level earns 1VP. If multiple players are expanding, break ties
    in turn order beginning with the active player.' With turns followed (Next turn tapped at least once), a player
    earlier in turn order from the active player who reaches the level in the same turn takes the token from the
    one who tapped first. Without (still turn 1: the first player's first turn, or a group that never taps Next
    turn), the first tap takes it: 'The active player resolves the action card. Following players resolve in turn
    order.', so the taps come in the tie-break's order; taps in another order are put right under First to each
    level."""
    table = state["table"]
    count = len(ctx.names)
    name = ctx.names[seat]
    _mark_reached(table, seat, level)
    taken = table["first"].get(str(level))
    if taken is None:
        _give_token(state, level, seat, table["turn"])
        said.append(_("%(name)s is first to level %(level)s: +1 VP token.", name=name, level=level))
        return
    holder = taken["seat"]
    order = turn_order_from(active_seat(table, count), count)
    if turns_followed(table) and taken["turn"] == table["turn"] and order.index(seat) < order.index(holder):
        _give_token(state, level, seat, table["turn"])
        active = ctx.names[order[0]]
        said.append(
            _(
                "%(name)s and %(holder)s both reached level %(level)s this turn; in turn order from the active player "
                "(%(active)s) %(name)s comes first: the level %(level)s token moves to %(name)s (+1 VP token), "
                "%(holder)s gives it back (−1 VP token). If they expanded in different actions, give it back under "
                "First to each level.",
                name=name,
                holder=ctx.names[holder],
                level=level,
                active=active,
            )
        )
    else:
        said.append(
            _(
                "%(name)s reaches level %(level)s; %(holder)s was first to it.",
                name=name,
                level=level,
                holder=ctx.names[holder],
            )
        )


def _level_down(state: State, seat: int, old: int, new: int, ctx: Context, said: list[str]) -> None:
    """A correction downwards: allowed, said, and a first-to-level token for a level no longer held goes back."""
    name = ctx.names[seat]
    said.append(_("%(name)s's Civilization Level corrected from %(old)s down to %(new)s.", name=name, old=old, new=new))
    first = state["table"]["first"]
    _unmark_reached(state["table"], seat, new)
    for level in range(new + 1, old + 1):
        if first.get(str(level), {}).get("seat") == seat:
            del first[str(level)]
            state["seats"][seat][TOKENS_FIELD] = max(0, state["seats"][seat][TOKENS_FIELD] - 1)
            others = [
                other
                for index, other in enumerate(ctx.names)
                if index != seat and state["seats"][index][LEVEL_FIELD] >= level
            ]
            if others:
                hint = ngettext(
                    "%(names)s has reached it too: hand it to whoever was first under First to each level.",
                    "%(names)s have reached it too: hand it to whoever was first under First to each level.",
                    len(others),
                    names=_names(others),
                )
            else:
                hint = _("if someone else reached it first, hand it to them.")
            said.append(
                _(
                    "The level %(level)s token goes back (−1 VP token): nobody holds it now; %(hint)s",
                    level=level,
                    hint=hint,
                )
            )


def _after_counter(before: State, state: State, action: Action, ctx: Context, old: int, new: int) -> Applied:
    """The rules a counter tap triggers: levels one at a time, first-to-level tokens, the end of the game."""
    said: list[str] = []
    if action.seat is not None and action.params.field == LEVEL_FIELD and new != old:
        name = ctx.names[action.seat]
        if new > LEVEL_MAX:
            raise InputErrors(
                [
                    FieldError(
                        LEVEL_FIELD,
                        _(
                            "There are %(max)s Civilization Levels: %(name)s can't go past level %(max)s.",
                            max=LEVEL_MAX,
                            name=name,
                        ),
                    )
                ]
            )
        if new > old + 1:
            raise InputErrors(
                [
                    FieldError(
                        LEVEL_FIELD,
                        _(
                            "Levels are earned one at a time, in ascending order: %(name)s is on level %(level)s, so "
                            "the next is level %(next)s.",
                            name=name,
                            level=old,
                            next=old + 1,
                        ),
                    )
                ]
            )
        if new == old + 1:
            _reached_level(state, action.seat, new, ctx, said)
        elif new >= 0:
            _level_down(state, action.seat, old, new, ctx, said)
    return Applied(_track_end(state, ctx, said), tuple(said))


class LastCardParams(Params):
    """Whether the last Civilization card has been placed in the central trade row."""

    placed: bool = True


class TokenParams(Params):
    """The level whose first-player token is handed to the action's player."""

    level: int


def next_turn(state: State, action: Action, ctx: Context) -> Applied:
    """The next player clockwise takes their turn; refused once the round that ends the game is over."""
    table = state["table"]
    count = len(ctx.names)
    active = active_seat(table, count)
    if table["end_round"] is not None and not turns_left(active, FIRST_SEAT, count):
        raise InputErrors(
            [
                FieldError(
                    "action",
                    _("The round is finished and the end of the game has begun: enter the Monuments and finish."),
                )
            ]
        )
    table["turn"] += 1
    nxt = active_seat(table, count)
    said = [_("Round %(round)s: %(name)s's turn.", round=round_number(table, count), name=ctx.names[nxt])]
    return Applied(_track_end(state, ctx, said), tuple(said))


def last_card(state: State, action: Action, ctx: Context) -> Applied:
    """Mark (or unmark, as a correction) the last Civilization card placed in the central trade row."""
    state["table"]["last_card"] = action.params.placed
    said = [
        _("The last Civilization card is in the central trade row.")
        if action.params.placed
        else _("The last-card mark is taken off: the Civilization deck is not empty.")
    ]
    return Applied(_track_end(state, ctx, said), tuple(said))


def first_token(state: State, action: Action, ctx: Context) -> Applied:
    """Hand a level's first-player token to the right player when the taps came in another order."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    level = action.params.level
    seat = action.seat
    name = ctx.names[seat]
    if not 1 <= level <= LEVEL_MAX:
        raise InputErrors([FieldError("level", _("The levels are 1 to %(max)s.", max=LEVEL_MAX))])
    if state["seats"][seat][LEVEL_FIELD] < level:
        raise InputErrors(
            [
                FieldError(
                    "level",
                    _(
                        "%(name)s has not reached level %(level)s: only a player who has earned a level can be first "
                        "to it.",
                        name=name,
                        level=level,
                    ),
                )
            ]
        )
    table = state["table"]
    taken = table["first"].get(str(level))
    if taken is not None and taken["seat"] == seat:
        return Applied(state)
    # Rules notes: a token handed over keeps the turn on which its level was reached, so a player who expands
    # later in the current turn can't take it from someone who got there a turn earlier. The one who really was
    # first got there no later than their own tap and no later than the one who held the token.
    known = [turn for turn in (reached_turn(table, seat, level), taken["turn"] if taken else None) if turn is not None]
    holder = _give_token(state, level, seat, min(known, default=table["turn"]))
    if holder is not None:
        given = _(
            "The level %(level)s token goes to %(name)s (+1 VP token), %(holder)s gives it back (−1 VP token).",
            level=level,
            name=name,
            holder=ctx.names[holder],
        )
    else:
        given = _("The level %(level)s token goes to %(name)s (+1 VP token).", level=level, name=name)
    said = [given]
    return Applied(_track_end(state, ctx, said), tuple(said))


def end(standing: Standing) -> End:
    """Whether one of the three end conditions holds now, and which."""
    reasons = end_reasons(standing.state, standing.ctx)
    text = _names(reasons)
    return End(bool(reasons), f"{capital(text)}." if reasons else None)


def live_notes(standing: Standing) -> list[Note]:
    """Who leads (with the tie-break as it stands), who was first to each level, and the end with its countdown."""
    state, ctx, result = standing.state, standing.ctx, standing.result
    table = state["table"]
    notes = []
    if sum(p.rank == 1 for p in result.players) == 1:
        notes.append(Note(leads_sentence(result)))
    # Before anyone scores, everyone is tied on 0: saying so is noise.
    if result.tiebreak and any(p.total for p in result.players):
        notes.append(Note(_("As it stands: %(tiebreak)s", tiebreak=result.tiebreak)))
    taken = [
        _("level %(level)s %(name)s", level=level, name=ctx.names[table["first"][str(level)]["seat"]])
        for level in range(1, LEVEL_MAX + 1)
        if str(level) in table["first"]
    ]
    firsts = ", ".join(taken) if taken else _("nobody has expanded yet")
    notes.append(Note(_("First to each level: %(firsts)s.", firsts=firsts)))
    reasons = end_reasons(state, ctx)
    if reasons:
        ended = _(
            "The end of the game has begun: %(reasons)s. %(countdown)s",
            reasons=_names(reasons),
            countdown=countdown(state, ctx),
        )
        notes.append(Note(ended, warning=True))
    return notes


def view(standing: Standing) -> dict[str, Any]:
    """What the SPQF tracker draws: the turn, each seat's level VP and the levels it was first to, each level's
    holder."""
    state, ctx, options = standing.state, standing.ctx, standing.options
    table = state["table"]
    count = len(ctx.names)
    holders = {level: table["first"].get(str(level), {}).get("seat") for level in range(1, LEVEL_MAX + 1)}
    return {
        "round": round_number(table, count),
        "active": active_seat(table, count),
        "level_vp": [options.level_vp[seat[LEVEL_FIELD]] for seat in state["seats"]],
        "held": [[level for level, holder in holders.items() if holder == seat] for seat in range(count)],
        "levels": [{"level": level, "holder": holder} for level, holder in holders.items()],
        "last_card": table["last_card"],
    }


def _token_text(action: Action, ctx: Context) -> str:
    """Undo's words for a handover: 'the level 3 token handed to Bob'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    return _("the level %(level)s token handed to %(name)s", level=action.params.level, name=ctx.names[action.seat])


# What the table plays that the tracker neither keeps nor checks (the rule text's cards, cubes and phases).
UNTRACKED = (
    N_("The Civilization deck, the central trade row and everyone's deck, hand, trade row and discard pile."),
    N_("The phases of a turn (Action, Recruit, Discard, Draw), modifiers and who follows which action."),
    N_("Resource cubes, stored cards and stored resources, and what each level lets a player store."),
    N_("What an expansion costs: tap the level once it is paid for."),
    N_(
        "VP tokens from Score actions and trashed cards: tap them as they are taken (the first-to-level tokens come "
        "by themselves)."
    ),
    N_("The last Civilization card: tap Last Civilization card placed when it goes into the central trade row."),
    N_("The Monuments, secret until the end: their modifiers are counted at Finish."),
)


LIVE = Live(
    start_table=start_table,
    start_seat=lambda options: SpqfPlayer(name="-").model_dump(mode="json", exclude={"name"}),
    actions={
        **counter_actions(_after_counter),
        "next_turn": ActionSpec(next_turn, describe=lambda action, ctx: _("next turn")),
        "last_card": ActionSpec(
            last_card,
            LastCardParams,
            describe=lambda action, ctx: (
                _("last Civilization card placed")
                if action.params.placed
                else _("last Civilization card mark taken off")
            ),
        ),
        "first_token": ActionSpec(first_token, TokenParams, "required", _token_text),
    },
    seat_counters=lambda options: SEAT_COUNTERS,
    notes=live_notes,
    end=end,
    view=view,
    turn_seat=active_seat,
    round_of=round_number,
    end_fields=("monument_modifiers",),
    labels={
        "vp_tokens": N_("VP tokens"),
        "civ_level": N_("Civilization Level"),
        "monument_modifiers": N_("Monument modifiers"),
        "vp_cards": N_("1 VP cards"),
    },
    untracked=UNTRACKED,
)


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
    blurb=N_("Deck-building civilizations: follow each other's actions, expand, build toward your Monument."),
    check=check,
    setup=setup,
    reference_notes=reference_notes,
    pad=pad,
    live=LIVE,
)
