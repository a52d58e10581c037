"""Spires (1-4 players): towers, scrolls and symbol majorities, solo King's Appraisal.

Rules from the rulebook's "Scoring", "Bonus Symbols" and solo "End Game and Scoring"; the project's decisions:
docs/rules.md, "Spires".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from pydantic import Field

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
    rank_scores,
    read_path,
)
from companion.games.live import Action, Applied, Context, Live, Standing, State, counter_actions
from companion.games.wording import capital, figure, join_names, plural

SUITS = ("purple", "red", "yellow", "blue", "green", "black")
SHORT_TOWER_MAX = 3
SHORT_TOWER_POINTS = 5
TALL_TOWER_POINTS = -1
# 12 values per suit, and cards 73 and 74 may join any tower.
TOWER_MAX = 14
# Rules notes: all towers together hold at most 15 cards of one suit ("Each suit has 12 values", an Architect, and
# the 73 and 74 cards, which may join a tower of any suit).
SUIT_CARDS_MAX = 15
SCROLL_VP_MAX = 100
SYMBOLS = ("crowns", "swords", "quills")
SYMBOL_BONUS = {"quills": 10, "crowns": 15, "swords": 20}
SYMBOLS_IN_DECK = {"quills": 8, "crowns": 8, "swords": 12}
SINGULAR = {"crowns": "crown", "swords": "sword", "quills": "quill"}

# King's Appraisal: (lowest total of the band, id, what the King does); the rules notes fix 50 and 151.
APPRAISAL_BANDS = (
    (151, "jailed", "Thrown into jail for cheating: no one is more perfect than his lordship."),
    (101, "smile", "For one brief moment a smile lifts the corners of the King's lips."),
    (81, "gala", "You are unexpectedly invited to the King's next gala."),
    (66, "greeting-card", "An emissary delivers a cordial greeting card from his highness."),
    (51, "stocks", "A few days in the stocks, then back to work with a slightly higher tax."),
)
APPRAISAL_LOWEST = ("beheaded", "The King is very displeased. You are beheaded.")
# The bands in which the King is pleased: a solo game won (docs/rules.md, Spires; the others punish the player).
APPRAISAL_WON = frozenset({"greeting-card", "gala", "smile"})
# Each band in a few words, for the reference notes' list of bands.
APPRAISAL_SHORT = {
    "beheaded": "beheaded",
    "stocks": "a few days in the stocks",
    "greeting-card": "a greeting card",
    "gala": "an invitation to the King's gala",
    "smile": "a smile",
    "jailed": "jailed for cheating",
}


class Towers(Schema):
    """Cards in each of a player's six towers."""

    purple: int = Field(default=0, ge=0, le=TOWER_MAX)
    red: int = Field(default=0, ge=0, le=TOWER_MAX)
    yellow: int = Field(default=0, ge=0, le=TOWER_MAX)
    blue: int = Field(default=0, ge=0, le=TOWER_MAX)
    green: int = Field(default=0, ge=0, le=TOWER_MAX)
    black: int = Field(default=0, ge=0, le=TOWER_MAX)


class SymbolCounts(Schema):
    """Crowns, swords and quills, e.g. in the solo discard pile."""

    crowns: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["crowns"])
    swords: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["swords"])
    quills: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["quills"])


class SpiresPlayer(PlayerInput):
    """What a Spires player has at the end: towers, symbols and scroll VP."""

    towers: Towers = Towers()
    crowns: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["crowns"])
    swords: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["swords"])
    quills: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["quills"])
    scroll_vp: int = Field(default=0, ge=0, le=SCROLL_VP_MAX)


class SpiresOptions(Schema):
    """Solo mode, and in solo the symbols in the discard pile."""

    solo: bool = Field(False, title="Solo game", description="One player against the deck, then the King's Appraisal.")
    discard: SymbolCounts = SymbolCounts()


BREAKDOWN = (
    ("towers", "Towers of 1-3 cards"),
    ("tall_towers", "Towers of 4+ cards"),
    ("scrolls", "Scroll cards"),
    ("crowns", "Crowns bonus"),
    ("swords", "Swords bonus"),
    ("quills", "Quills bonus"),
)
LABELS = dict(BREAKDOWN)

TIEBREAKS = (
    TieBreak(
        "fewest negative points",
        key=lambda p: p.points("tall_towers"),
        show=lambda p: f"{figure(p.points('tall_towers'))} VP",
    ),
)


def _tower_lines(player: SpiresPlayer) -> list[Line]:
    """'5 points per Spire card in each of your Towers with 3 or less total cards', '-1 ... 4 or more'."""
    counts = player.towers.model_dump()
    short = {suit: n for suit, n in counts.items() if 0 < n <= SHORT_TOWER_MAX}
    tall = {suit: n for suit, n in counts.items() if n > SHORT_TOWER_MAX}
    short_points = SHORT_TOWER_POINTS * sum(short.values())
    tall_points = TALL_TOWER_POINTS * sum(tall.values())
    short_why = (
        _towers_text(short) + f": {plural(sum(short.values()), 'card')} × {SHORT_TOWER_POINTS} = {short_points} VP."
        if short
        else "No tower of 1 to 3 cards: 0 VP."
    )
    tall_why = (
        _towers_text(tall)
        + f": {plural(sum(tall.values()), 'card')} × {figure(TALL_TOWER_POINTS)} = {figure(tall_points)} VP."
        if tall
        else "No tower of 4 or more cards: 0 VP."
    )
    return [
        Line("towers", LABELS["towers"], short_points, short_why),
        Line("tall_towers", LABELS["tall_towers"], tall_points, tall_why),
    ]


def _towers_text(towers: dict[str, int]) -> str:
    """'Red 3, blue 3': the towers counted, the sentence's first word capitalised."""
    return capital(", ".join(f"{suit} {n}" for suit, n in towers.items()))


def _scroll_line(player: SpiresPlayer) -> Line:
    """'Points per Scroll cards you have collected.'"""
    why = f"Scroll cards show {player.scroll_vp} VP." if player.scroll_vp else "No VP on Scroll cards: 0 VP."
    return Line("scrolls", LABELS["scrolls"], player.scroll_vp, why)


def _symbol_line_multi(symbol: str, player: SpiresPlayer, players: Sequence[SpiresPlayer]) -> Line:
    """'The player with the most symbols ... is awarded a point bonus. ... all tied players receive this full bonus.'"""
    bonus = SYMBOL_BONUS[symbol]
    most = max(getattr(p, symbol) for p in players)
    mine = getattr(player, symbol)
    leaders = [p.name for p in players if getattr(p, symbol) == most]
    if most == 0:
        return Line(symbol, LABELS[symbol], 0, f"Nobody has a {SINGULAR[symbol]}, so nobody scores the bonus: 0 VP.")
    if mine < most:
        have = "has" if len(leaders) == 1 else "have"
        why = f"{plural(mine, SINGULAR[symbol]).capitalize()}; {join_names(leaders)} {have} the most ({most}): 0 VP."
        return Line(symbol, LABELS[symbol], 0, why)
    others = [name for name in leaders if name != player.name]
    tied = f", tied with {join_names(others)}; every tied player gets the full bonus" if others else ""
    return Line(symbol, LABELS[symbol], bonus, f"Most {symbol} ({mine}){tied}: {bonus} VP.")


def _symbol_line_solo(symbol: str, player: SpiresPlayer, discard: SymbolCounts) -> Line:
    """Solo: 'If you have a number equal to or greater than the amount in the discard pile, score the bonus.'"""
    bonus = SYMBOL_BONUS[symbol]
    mine = getattr(player, symbol)
    pile = getattr(discard, symbol)
    if mine == 0:
        return Line(symbol, LABELS[symbol], 0, f"No {symbol}, and a count of 0 never scores the bonus: 0 VP.")
    if mine >= pile:
        return Line(
            symbol,
            LABELS[symbol],
            bonus,
            f"{plural(mine, SINGULAR[symbol], symbol)} ≥ {pile} in the discard pile: {bonus} VP.",
        )
    return Line(
        symbol, LABELS[symbol], 0, f"{plural(mine, SINGULAR[symbol], symbol)} < {pile} in the discard pile: 0 VP."
    )


def appraisal(total: int) -> tuple[str, str]:
    """The King's Appraisal band (id, sentence) for a solo total."""
    for lowest, band, sentence in APPRAISAL_BANDS:
        if total >= lowest:
            return band, sentence
    return APPRAISAL_LOWEST


def solo_won(total: int) -> bool:
    """Whether a solo total wins: the King is pleased (a greeting card, his gala or his smile)."""
    return appraisal(total)[0] in APPRAISAL_WON


def score(players: Sequence[SpiresPlayer], options: SpiresOptions) -> Result:
    """Score a finished game of Spires, ranked by total, then fewest negative points."""
    rows: list[ScoreRow] = []
    for player in players:
        lines = [*_tower_lines(player), _scroll_line(player)]
        for symbol in SYMBOLS:
            if options.solo:
                lines.append(_symbol_line_solo(symbol, player, options.discard))
            else:
                lines.append(_symbol_line_multi(symbol, player, players))
        rows.append((player.name, lines, {}))
    result = rank_scores("spires", rows, TIEBREAKS)
    if options.solo and result.players:
        band, sentence = appraisal(result.players[0].total)
        result.extra.update({"appraisal": band, "appraisal_text": sentence})
    return result


def reference_notes(options: SpiresOptions) -> list[str]:
    """How Spires scores, its tie-break, the solo rule and the King's Appraisal bands, as the calculator shows them."""
    bonuses = ", ".join(f"{symbol} {SYMBOL_BONUS[symbol]} VP" for symbol in ("quills", "crowns", "swords"))
    lows = [(lowest, band) for lowest, band, _sentence in reversed(APPRAISAL_BANDS)]
    bands = [f"{lows[0][0] - 1} or less: {APPRAISAL_SHORT[APPRAISAL_LOWEST[0]]}"]
    for (lowest, band), (above, _next) in pairwise(lows):
        bands.append(f"{lowest} to {above - 1}: {APPRAISAL_SHORT[band]}")
    bands.append(f"{lows[-1][0]} or more: {APPRAISAL_SHORT[lows[-1][1]]}")
    return [
        (
            f"Towers: {SHORT_TOWER_POINTS} VP per card in each tower of 1 to {SHORT_TOWER_MAX} cards, "
            f"{figure(TALL_TOWER_POINTS)} VP per card in each tower of {SHORT_TOWER_MAX + 1} or more; cards 73 and "
            "74 join your tallest tower."
        ),
        (
            f"Symbol bonuses to the player with the most of each symbol: {bonuses}. Every tied player gets the "
            "full bonus; nobody scores a symbol nobody has."
        ),
        (
            "Tied totals: the fewest negative points (from towers of 4 or more cards) wins; still tied, the victory "
            "is shared."
        ),
        (
            "Solo: a symbol bonus scores when you have at least as many of that symbol as the discard pile, and "
            "never for a count of 0; then the King's Appraisal."
        ),
        f"King's Appraisal (solo), by your total: {'; '.join(bands)}.",
    ]


def pad(options: SpiresOptions) -> Pad:
    """A blank Spires pad: a row per breakdown line; solo, the symbols measured against the discard pile and the
    King's Appraisal in place of ranks."""
    rules = {
        "towers": f"{SHORT_TOWER_POINTS} VP per card in each tower of 1 to {SHORT_TOWER_MAX} cards.",
        "tall_towers": f"{figure(TALL_TOWER_POINTS)} VP per card in each tower of {SHORT_TOWER_MAX + 1} or more.",
        "scrolls": "The VP your Scroll cards score.",
    }
    for symbol in SYMBOLS:
        bonus = SYMBOL_BONUS[symbol]
        if options.solo:
            rules[symbol] = f"{bonus} VP if your {symbol} ≥ the {symbol} in the discard pile (never for 0)."
        else:
            rules[symbol] = f"{bonus} VP to each player with the most {symbol} (nobody, if nobody has one)."
    lines = tuple(PadLine(key, label, rules[key]) for key, label in BREAKDOWN)
    notes = ["Cards 73 and 74 join your tallest tower."]
    if options.solo:
        lows = [lowest for lowest, _band, _sentence in reversed(APPRAISAL_BANDS)]
        bands = [f"{lows[0] - 1} or less: {APPRAISAL_SHORT[APPRAISAL_LOWEST[0]]}"]
        for (lowest, band, _s), (above, _b, _t) in pairwise(reversed(APPRAISAL_BANDS)):
            bands.append(f"{lowest} to {above - 1}: {APPRAISAL_SHORT[band]}")
        top, band, _sentence = APPRAISAL_BANDS[0]
        bands.append(f"{top} or more: {APPRAISAL_SHORT[band]}")
        notes.append("Solo: count the crowns, swords and quills in the discard pile before scoring the bonuses.")
        notes.append(f"King's Appraisal, by your total: {'; '.join(bands)}.")
        return Pad(lines, tuple(notes), solo_rows=("King's Appraisal",))
    notes.append(
        "Tied totals: the fewest negative points (towers of 4 or more cards) wins; still tied, the victory is shared."
    )
    return Pad(lines, tuple(notes))


def player_count(count: int, options: SpiresOptions) -> str | None:
    """Solo is one player; the multiplayer game is for 2 to 4."""
    if options.solo:
        return None if count == 1 else f"Solo Spires is for exactly 1 player; {count} given."
    if 2 <= count <= 4:
        return None
    hint = " (for one player, choose solo)" if count == 1 else ""
    return f"Spires is for 2 to 4 players{hint}; {count} given."


# What the deck holds of each counter, for the whole table, and the rule's words that say so (rules notes).
DECK_HOLDS = {
    **{f"towers.{suit}": SUIT_CARDS_MAX for suit in SUITS},
    **SYMBOLS_IN_DECK,
}


def _deck_rule(path: str) -> str:
    """The rule's words behind a deck total: 'Each suit has 12 values', 'Quills: 10 points (8 symbols total)'."""
    if path in SYMBOLS_IN_DECK:
        return f"The rules: “{path.capitalize()}: {SYMBOL_BONUS[path]} points ({SYMBOLS_IN_DECK[path]} symbols total)”."
    return "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."


def _deck_what(path: str) -> str:
    """'8 quills', '15 red cards': what the deck holds of a counter."""
    if path in SYMBOLS_IN_DECK:
        return f"{DECK_HOLDS[path]} {path}"
    return f"{DECK_HOLDS[path]} {path.removeprefix('towers.')} cards"


def deck_totals(
    counts: Sequence[tuple[str, Mapping[str, Any]]], discard: Mapping[str, Any] | None
) -> dict[str, list[tuple[str, int]]]:
    """Who holds how many of each deck-bounded counter: {path: [(holder, count), ...]}, zero counts left out; the
    discard pile (solo) is a holder of symbols."""
    held: dict[str, list[tuple[str, int]]] = {}
    for path in DECK_HOLDS:
        holders = [(name, read_path(seat, path)) for name, seat in counts]
        if discard is not None and path in SYMBOLS_IN_DECK:
            holders.append(("the discard pile", discard.get(path, 0)))
        held[path] = [(name, n) for name, n in holders if isinstance(n, int) and n > 0]
    return held


def check(players: Sequence[SpiresPlayer], options: SpiresOptions) -> list[FieldError]:
    """The deck holds 15 cards of a suit, 8 quills, 8 crowns and 12 swords: more between all players (and a solo
    discard pile) is a typo; a discard pile is solo only."""
    errors = []
    if not options.solo and options.discard != SymbolCounts():
        errors.append(FieldError("options.discard", "The discard pile counts only in a solo game."))
    if not players:
        return errors
    counts = [(p.name, p.model_dump()) for p in players]
    discard = options.discard.model_dump() if options.solo else None
    for path, holders in deck_totals(counts, discard).items():
        if sum(n for _name, n in holders) > DECK_HOLDS[path]:
            # Said the same however far past the bound the counts are: a play saved before this check can then be
            # corrected one tap at a time (live.apply allows a step that adds no new refusal).
            together = "in all towers together" if path.startswith("towers.") else "in all"
            message = f"The deck has only {_deck_what(path)}; more are counted {together}. {_deck_rule(path)}"
            errors.append(FieldError(f"players[{len(players) - 1}].{path}", message))
    return errors


def deck_refusal(state: State, ctx: Context, path: str, old: int, new: int) -> FieldError | None:
    """A tap that takes a whole-table total past what the deck holds, said with every holder's count; None if it
    holds. Only a tap that raises the total: lowering one past the bound is always a correction."""
    limit = DECK_HOLDS.get(path.removeprefix("discard."))
    if limit is None or new <= old:
        return None
    own_limit = TOWER_MAX if path.startswith("towers.") else limit
    # A count past its own box's bound is said by the box's bound ('Must be at most 12.').
    if not 0 <= new <= own_limit:
        return None
    key = path.removeprefix("discard.")
    players, options = to_input(state, ctx)
    counts = [(player["name"], player) for player in players]
    holders = deck_totals(counts, options["discard"] if options["solo"] else None)[key]
    total = sum(n for _name, n in holders)
    if total <= limit:
        return None
    (first, mine), *others = holders
    who = join_names([f"{first} has {mine}", *(f"{name} {n}" for name, n in others)])
    return FieldError(
        path,
        f"The deck has only {_deck_what(key)}; {total} counted in all. {capital(who)}. {_deck_rule(key)}",
    )


def setup(count: int, options: SpiresOptions) -> list[str]:
    """The rulebook's setup steps for this player count."""
    if options.solo:
        return [
            "Use Markets I, II and III ability side up.",
            "Remove every card with 4 in the lower right corner (as in a 3-player game).",
            "Shuffle and deal one card below each Solo Market.",
            "Draw five cards for your hand; draw and place one card face up as your first tower.",
            "Put all other cards, including the player market cards, back in the box.",
            "Scroll cards are never in a hand or a starting tableau: discard one dealt there and deal again.",
        ]
    markets = "Markets I and II" if count == 2 else "Markets I, II and III"
    removed = {2: "Remove all cards marked with 3 or 4.", 3: "Remove all cards marked with 4."}.get(
        count, "Play with all cards."
    )
    return [
        f"Place {markets} in the centre.",
        "Each player takes the player cards of their colour for those Markets; put the others in the box.",
        "Give the first player the royal palace first player marker.",
        removed,
        "The first player shuffles and deals one card face up below each Market.",
        "Deal five cards face down to each player, then one card to each tableau as a first tower.",
        "Scroll cards are never in a hand or a starting tableau: discard one dealt there and deal again.",
    ]


def tracker_notes(standing: Standing) -> list[Note]:
    """Who leads each symbol now, and which towers have grown to 4 cards."""
    players, options, result = standing.players, standing.options, standing.result
    notes = []
    for symbol in SYMBOLS:
        holders = [p for p in result.players if p.points(symbol) > 0]
        if options.solo:
            mine = getattr(players[0], symbol) if players else 0
            pile = getattr(options.discard, symbol)
            state = "scores" if holders else "does not score"
            bonus = SYMBOL_BONUS[symbol]
            name = players[0].name if players else "Solo player"
            notes.append(
                Note(f"{symbol.capitalize()}: {name} {mine}, discard pile {pile}: the {bonus} VP bonus {state}.")
            )
        elif holders:
            most = max(getattr(p, symbol) for p in players)
            verb = "leads" if len(holders) == 1 else "lead"
            notes.append(Note(f"{symbol.capitalize()}: {join_names([p.name for p in holders])} {verb} with {most}."))
        else:
            notes.append(Note(f"{symbol.capitalize()}: nobody has one yet."))
    for player in players:
        for suit, n in player.towers.model_dump().items():
            if n > SHORT_TOWER_MAX:
                notes.append(
                    Note(
                        f"{player.name}'s {suit} tower has {n} cards: each card scores "
                        f"{figure(TALL_TOWER_POINTS)} VP now.",
                        warning=True,
                    )
                )
    return notes


def flagged(standing: Standing, seat: int) -> set[str]:
    """The towers the tracker marks: 4 cards or more, where every card scores -1."""
    towers = standing.players[seat].towers.model_dump()
    return {f"towers.{suit}" for suit, n in towers.items() if n > SHORT_TOWER_MAX}


def start_table(options: SpiresOptions) -> dict[str, Any]:
    """In solo, the discard pile's symbols (as given when the play started); nothing otherwise."""
    return {"discard": options.discard.model_dump()} if options.solo else {}


def to_input(state: State, ctx: Context) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each seat's counts, and the options with the discard pile as counted at the table."""
    players = [{"name": name, **seat} for name, seat in zip(ctx.names, state["seats"], strict=True)]
    options = ctx.options.model_dump(mode="json")
    if options["solo"] and "discard" in state["table"]:
        options["discard"] = state["table"]["discard"]
    return players, options


SEAT_COUNTERS = (*(f"towers.{suit}" for suit in SUITS), *SYMBOLS, "scroll_vp")

# Counted in one tap (issue 17): a tower's height or a symbol's count as the cards on the table show it, whatever
# number of cards a competition brought. Chips 1 to 6 hold every count of a usual game; − and + step past them.
COUNT_FIELDS = (*(f"towers.{suit}" for suit in SUITS), *SYMBOLS)
COUNT_TO = 6


def _count_label(path: str) -> str:
    """'Red', 'Crowns': a counted row's name, as its counter above names it."""
    return path.removeprefix("towers.").capitalize()


def view(standing: Standing) -> dict[str, Any]:
    """Each seat's rows to count in one tap (the counter, its name, its count now), in solo the discard pile's, and
    the chips to tap; a tower's chips from 4 up are marked, since every card of such a tower scores −1."""
    discard = standing.state["table"].get("discard", {}) if standing.options.solo else None
    counts = [
        [
            {
                "field": path,
                "label": _count_label(path),
                "value": read_path(seat, path),
                "tower": path.startswith("towers."),
            }
            for path in COUNT_FIELDS
        ]
        for seat in standing.state["seats"]
    ]
    piles = (
        [
            {
                "field": f"discard.{symbol}",
                "label": _count_label(symbol),
                "value": discard.get(symbol, 0),
                "tower": False,
            }
            for symbol in SYMBOLS
        ]
        if discard is not None
        else []
    )
    return {
        "counts": counts,
        "discard": piles,
        "count_to": tuple(range(1, COUNT_TO + 1)),
        "tall_from": SHORT_TOWER_MAX + 1,
    }


def _after_counter(before: State, state: State, action: Action, ctx: Context, old: int, new: int) -> Applied:
    """A tap that takes a whole-table total past what the deck holds is refused, with everyone's count."""
    refused = deck_refusal(state, ctx, action.params.field, old, new)
    if refused is not None:
        raise InputErrors([refused])
    return Applied(state)


# What the table plays that the tracker neither keeps nor checks (the rulebook's turn, deck and cards).
UNTRACKED = (
    "The deck, the Markets and everyone's hand: which cards are dealt, drawn, refilled or discarded.",
    "The Plan and Compete phases: who chose which Market and who wins a competition (suit, Architects, undercut).",
    "Which card goes to which tower: cards 73 and 74 joining the tallest tower, a Scroll that discards cards.",
    "Which cards show a symbol: tap each crown, sword and quill as its card joins a tower, or count them at once.",
    ("The cards removed for the player count, and the end: 3 cards from each hand to the towers, the rest discarded."),
    "Solo: the Solo Markets' once-a-game abilities, and the discard pile's cards (only its symbols are counted).",
)

LIVE = Live(
    start_table=start_table,
    start_seat=lambda options: SpiresPlayer(name="-").model_dump(mode="json", exclude={"name"}),
    actions=counter_actions(_after_counter),
    seat_counters=lambda options: SEAT_COUNTERS,
    table_counters=lambda options: tuple(f"discard.{symbol}" for symbol in SYMBOLS) if options.solo else (),
    to_input=to_input,
    notes=tracker_notes,
    flagged=flagged,
    view=view,
    labels={
        "scroll_vp": "scroll VP",
        **{f"towers.{suit}": f"{suit} tower" for suit in SUITS},
        **{f"discard.{symbol}": f"discard pile {symbol}" for symbol in SYMBOLS},
    },
    untracked=UNTRACKED,
)


GAME = Game(
    id="spires",
    name="Spires",
    min_players=1,
    max_players=4,
    rules_version="spires-rulebook/rules-notes-1",
    player_model=SpiresPlayer,
    options_model=SpiresOptions,
    breakdown=BREAKDOWN,
    score=score,
    colours=("blue", "red", "green", "yellow"),
    blurb="Trick-taking set collection: build towers of 1-3 cards, win symbol majorities.",
    player_count=player_count,
    check=check,
    setup=setup,
    reference_notes=reference_notes,
    pad=pad,
    live=LIVE,
)
