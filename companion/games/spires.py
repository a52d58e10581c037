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
from companion.games.wording import capital, figure, join_names
from companion.language import N_, _, ngettext

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
    (151, "jailed", N_("Thrown into jail for cheating: no one is more perfect than his lordship.")),
    (101, "smile", N_("For one brief moment a smile lifts the corners of the King's lips.")),
    (81, "gala", N_("You are unexpectedly invited to the King's next gala.")),
    (66, "greeting-card", N_("An emissary delivers a cordial greeting card from his highness.")),
    (51, "stocks", N_("A few days in the stocks, then back to work with a slightly higher tax.")),
)
APPRAISAL_LOWEST = ("beheaded", N_("The King is very displeased. You are beheaded."))
# The bands in which the King is pleased: a solo game won (docs/rules.md, Spires; the others punish the player).
APPRAISAL_WON = frozenset({"greeting-card", "gala", "smile"})
# Each band in a few words, for the reference notes' list of bands.
APPRAISAL_SHORT = {
    "beheaded": N_("beheaded"),
    "stocks": N_("a few days in the stocks"),
    "greeting-card": N_("a greeting card"),
    "gala": N_("an invitation to the King's gala"),
    "smile": N_("a smile"),
    "jailed": N_("jailed for cheating"),
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

    towers: Towers = Field(default=Towers(), title=N_("Towers"))
    crowns: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["crowns"])
    swords: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["swords"])
    quills: int = Field(default=0, ge=0, le=SYMBOLS_IN_DECK["quills"])
    scroll_vp: int = Field(default=0, ge=0, le=SCROLL_VP_MAX)


class SpiresOptions(Schema):
    """Solo mode, and in solo the symbols in the discard pile."""

    solo: bool = Field(
        False, title=N_("Solo game"), description=N_("One player against the deck, then the King's Appraisal.")
    )
    discard: SymbolCounts = Field(
        default=SymbolCounts(),
        title=N_("Discard"),
        description=N_("Crowns, swords and quills, e.g. in the solo discard pile."),
    )


BREAKDOWN = (
    ("towers", N_("Towers of 1-3 cards")),
    ("tall_towers", N_("Towers of 4+ cards")),
    ("scrolls", N_("Scroll cards")),
    ("crowns", N_("Crowns bonus")),
    ("swords", N_("Swords bonus")),
    ("quills", N_("Quills bonus")),
)
LABELS = dict(BREAKDOWN)

TIEBREAKS = (
    TieBreak(
        N_("fewest negative points"),
        key=lambda p: p.points("tall_towers"),
        show=lambda p: _("%(points)s VP", points=figure(p.points("tall_towers"))),
    ),
)


def _symbol_count(symbol: str, count: int) -> str:
    """'1 crown', '3 swords': a count of a symbol, the symbol's name (a game term) in English."""
    if symbol == "crowns":
        return ngettext("%(num)s crown", "%(num)s crowns", count)
    if symbol == "swords":
        return ngettext("%(num)s sword", "%(num)s swords", count)
    return ngettext("%(num)s quill", "%(num)s quills", count)


def _names(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy', with the reader's 'and'."""
    return join_names(names, _("and"))


def _tower_lines(player: SpiresPlayer) -> list[Line]:
    """'5 points per Spire card in each of your Towers with 3 or less total cards', '-1 ... 4 or more'."""
    counts = player.towers.model_dump()
    short = {suit: n for suit, n in counts.items() if 0 < n <= SHORT_TOWER_MAX}
    tall = {suit: n for suit, n in counts.items() if n > SHORT_TOWER_MAX}
    short_points = SHORT_TOWER_POINTS * sum(short.values())
    tall_points = TALL_TOWER_POINTS * sum(tall.values())
    short_why = _towers_why(short, SHORT_TOWER_POINTS) if short else _("No tower of 1 to 3 cards: 0 VP.")
    tall_why = _towers_why(tall, TALL_TOWER_POINTS) if tall else _("No tower of 4 or more cards: 0 VP.")
    return [
        Line("towers", _(LABELS["towers"]), short_points, short_why),
        Line("tall_towers", _(LABELS["tall_towers"]), tall_points, tall_why),
    ]


def _towers_why(towers: dict[str, int], each: int) -> str:
    """'Red 3, blue 2: 5 cards × 5 = 25 VP.': how a set of towers scores at `each` VP a card."""
    cards = sum(towers.values())
    return ngettext(
        "%(towers)s: %(num)s card × %(each)s = %(points)s VP.",
        "%(towers)s: %(num)s cards × %(each)s = %(points)s VP.",
        cards,
        towers=_towers_text(towers),
        each=figure(each),
        points=figure(each * cards),
    )


def _towers_text(towers: dict[str, int]) -> str:
    """'Red 3, blue 3': the towers counted (suits are game terms, in English), the first word capitalised."""
    return capital(", ".join(f"{suit} {n}" for suit, n in towers.items()))


def _scroll_line(player: SpiresPlayer) -> Line:
    """'Points per Scroll cards you have collected.'"""
    why = (
        _("Scroll cards show %(vp)s VP.", vp=player.scroll_vp)
        if player.scroll_vp
        else _("No VP on Scroll cards: 0 VP.")
    )
    return Line("scrolls", _(LABELS["scrolls"]), player.scroll_vp, why)


def _symbol_line_multi(symbol: str, player: SpiresPlayer, players: Sequence[SpiresPlayer]) -> Line:
    """'The player with the most symbols ... is awarded a point bonus. ... all tied players receive this full bonus.'"""
    bonus = SYMBOL_BONUS[symbol]
    most = max(getattr(p, symbol) for p in players)
    mine = getattr(player, symbol)
    leaders = [p.name for p in players if getattr(p, symbol) == most]
    label = _(LABELS[symbol])
    if most == 0:
        why = _("Nobody has a %(symbol)s, so nobody scores the bonus: 0 VP.", symbol=SINGULAR[symbol])
        return Line(symbol, label, 0, why)
    if mine < most:
        why = ngettext(
            "%(count)s; %(names)s has the most (%(most)s): 0 VP.",
            "%(count)s; %(names)s have the most (%(most)s): 0 VP.",
            len(leaders),
            count=_symbol_count(symbol, mine),
            names=_names(leaders),
            most=most,
        )
        return Line(symbol, label, 0, why)
    others = [name for name in leaders if name != player.name]
    if others:
        why = _(
            "Most %(symbol)s (%(count)s), tied with %(names)s; every tied player gets the full bonus: %(bonus)s VP.",
            symbol=symbol,
            count=mine,
            names=_names(others),
            bonus=bonus,
        )
    else:
        why = _("Most %(symbol)s (%(count)s): %(bonus)s VP.", symbol=symbol, count=mine, bonus=bonus)
    return Line(symbol, label, bonus, why)


def _symbol_line_solo(symbol: str, player: SpiresPlayer, discard: SymbolCounts) -> Line:
    """Solo: 'If you have a number equal to or greater than the amount in the discard pile, score the bonus.'"""
    bonus = SYMBOL_BONUS[symbol]
    mine = getattr(player, symbol)
    pile = getattr(discard, symbol)
    label = _(LABELS[symbol])
    if mine == 0:
        return Line(symbol, label, 0, _("No %(symbol)s, and a count of 0 never scores the bonus: 0 VP.", symbol=symbol))
    if mine >= pile:
        why = _(
            "%(count)s ≥ %(pile)s in the discard pile: %(bonus)s VP.",
            count=_symbol_count(symbol, mine),
            pile=pile,
            bonus=bonus,
        )
        return Line(symbol, label, bonus, why)
    why = _("%(count)s < %(pile)s in the discard pile: 0 VP.", count=_symbol_count(symbol, mine), pile=pile)
    return Line(symbol, label, 0, why)


def appraisal(total: int) -> tuple[str, str]:
    """The King's Appraisal band (id, sentence in the reader's language) for a solo total."""
    for lowest, band, sentence in APPRAISAL_BANDS:
        if total >= lowest:
            return band, _(sentence)
    band, sentence = APPRAISAL_LOWEST
    return band, _(sentence)


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


def _appraisal_bands() -> str:
    """'50 or less: beheaded; 51 to 65: a few days in the stocks; ...; 151 or more: jailed for cheating'."""
    lows = [(lowest, band) for lowest, band, _sentence in reversed(APPRAISAL_BANDS)]
    bands = [_("%(total)s or less: %(band)s", total=lows[0][0] - 1, band=_(APPRAISAL_SHORT[APPRAISAL_LOWEST[0]]))]
    for (lowest, band), (above, _next) in pairwise(lows):
        bands.append(_("%(low)s to %(high)s: %(band)s", low=lowest, high=above - 1, band=_(APPRAISAL_SHORT[band])))
    bands.append(_("%(total)s or more: %(band)s", total=lows[-1][0], band=_(APPRAISAL_SHORT[lows[-1][1]])))
    return "; ".join(bands)


def reference_notes(options: SpiresOptions) -> list[str]:
    """How Spires scores, its tie-break, the solo rule and the King's Appraisal bands, as the calculator shows them."""
    bonuses = ", ".join(
        _("%(symbol)s %(bonus)s VP", symbol=symbol, bonus=SYMBOL_BONUS[symbol])
        for symbol in ("quills", "crowns", "swords")
    )
    return [
        _(
            "Towers: %(short_points)s VP per card in each tower of 1 to %(short_max)s cards, %(tall_points)s VP per "
            "card in each tower of %(tall_min)s or more; cards 73 and 74 join your tallest tower.",
            short_points=figure(SHORT_TOWER_POINTS),
            short_max=SHORT_TOWER_MAX,
            tall_points=figure(TALL_TOWER_POINTS),
            tall_min=SHORT_TOWER_MAX + 1,
        ),
        _(
            "Symbol bonuses to the player with the most of each symbol: %(bonuses)s. Every tied player gets the "
            "full bonus; nobody scores a symbol nobody has.",
            bonuses=bonuses,
        ),
        _(
            "Tied totals: the fewest negative points (from towers of 4 or more cards) wins; still tied, the victory "
            "is shared."
        ),
        _(
            "Solo: a symbol bonus scores when you have at least as many of that symbol as the discard pile, and "
            "never for a count of 0; then the King's Appraisal."
        ),
        _("King's Appraisal (solo), by your total: %(bands)s.", bands=_appraisal_bands()),
    ]


def pad(options: SpiresOptions) -> Pad:
    """A blank Spires pad: a row per breakdown line; solo, the symbols measured against the discard pile and the
    King's Appraisal in place of ranks."""
    rules = {
        "towers": _(
            "%(points)s VP per card in each tower of 1 to %(max)s cards.",
            points=figure(SHORT_TOWER_POINTS),
            max=SHORT_TOWER_MAX,
        ),
        "tall_towers": _(
            "%(points)s VP per card in each tower of %(min)s or more.",
            points=figure(TALL_TOWER_POINTS),
            min=SHORT_TOWER_MAX + 1,
        ),
        "scrolls": _("The VP your Scroll cards score."),
    }
    for symbol in SYMBOLS:
        bonus = SYMBOL_BONUS[symbol]
        if options.solo:
            rules[symbol] = _(
                "%(bonus)s VP if your %(symbol)s ≥ the %(symbol)s in the discard pile (never for 0).",
                bonus=bonus,
                symbol=symbol,
            )
        else:
            rules[symbol] = _(
                "%(bonus)s VP to each player with the most %(symbol)s (nobody, if nobody has one).",
                bonus=bonus,
                symbol=symbol,
            )
    lines = tuple(PadLine(key, _(label), rules[key]) for key, label in BREAKDOWN)
    notes = [_("Cards 73 and 74 join your tallest tower.")]
    if options.solo:
        notes.append(_("Solo: count the crowns, swords and quills in the discard pile before scoring the bonuses."))
        notes.append(_("King's Appraisal, by your total: %(bands)s.", bands=_appraisal_bands()))
        return Pad(lines, tuple(notes), solo_rows=(_("King's Appraisal"),))
    notes.append(
        _(
            "Tied totals: the fewest negative points (towers of 4 or more cards) wins; still tied, the victory is shared."
        )
    )
    return Pad(lines, tuple(notes))


def player_count(count: int, options: SpiresOptions) -> str | None:
    """Solo is one player; the multiplayer game is for 2 to 4."""
    if options.solo:
        return None if count == 1 else _("Solo Spires is for exactly 1 player; %(count)s given.", count=count)
    if 2 <= count <= 4:
        return None
    if count == 1:
        return _("Spires is for 2 to 4 players (for one player, choose solo); %(count)s given.", count=count)
    return _("Spires is for 2 to 4 players; %(count)s given.", count=count)


# What the deck holds of each counter, for the whole table, and the rule's words that say so (rules notes).
DECK_HOLDS = {
    **{f"towers.{suit}": SUIT_CARDS_MAX for suit in SUITS},
    **SYMBOLS_IN_DECK,
}


def _deck_rule(path: str) -> str:
    """The rule's words behind a deck total: 'Each suit has 12 values', 'Quills: 10 points (8 symbols total)'."""
    if path in SYMBOLS_IN_DECK:
        return _(
            "The rules: “%(symbol)s: %(bonus)s points (%(count)s symbols total)”.",
            symbol=path.capitalize(),
            bonus=SYMBOL_BONUS[path],
            count=SYMBOLS_IN_DECK[path],
        )
    return _("The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74.")


def _deck_what(path: str) -> str:
    """'8 quills', '15 red cards': what the deck holds of a counter."""
    if path in SYMBOLS_IN_DECK:
        return _symbol_count(path, DECK_HOLDS[path])
    return ngettext(
        "%(num)s %(suit)s card", "%(num)s %(suit)s cards", DECK_HOLDS[path], suit=path.removeprefix("towers.")
    )


def deck_totals(
    counts: Sequence[tuple[str, Mapping[str, Any]]], discard: Mapping[str, Any] | None
) -> dict[str, list[tuple[str, int]]]:
    """Who holds how many of each deck-bounded counter: {path: [(holder, count), ...]}, zero counts left out; the
    discard pile (solo) is a holder of symbols."""
    held: dict[str, list[tuple[str, int]]] = {}
    for path in DECK_HOLDS:
        holders = [(name, read_path(seat, path)) for name, seat in counts]
        if discard is not None and path in SYMBOLS_IN_DECK:
            holders.append((_("the discard pile"), discard.get(path, 0)))
        held[path] = [(name, n) for name, n in holders if isinstance(n, int) and n > 0]
    return held


def check(players: Sequence[SpiresPlayer], options: SpiresOptions) -> list[FieldError]:
    """The deck holds 15 cards of a suit, 8 quills, 8 crowns and 12 swords: more between all players (and a solo
    discard pile) is a typo; a discard pile is solo only."""
    errors = []
    if not options.solo and options.discard != SymbolCounts():
        errors.append(FieldError("options.discard", _("The discard pile counts only in a solo game.")))
    if not players:
        return errors
    counts = [(p.name, p.model_dump()) for p in players]
    discard = options.discard.model_dump() if options.solo else None
    for path, holders in deck_totals(counts, discard).items():
        if sum(n for _name, n in holders) > DECK_HOLDS[path]:
            # Said the same however far past the bound the counts are: a play saved before this check can then be
            # corrected one tap at a time (live.apply allows a step that adds no new refusal).
            if path.startswith("towers."):
                message = _(
                    "The deck has only %(what)s; more are counted in all towers together. %(rule)s",
                    what=_deck_what(path),
                    rule=_deck_rule(path),
                )
            else:
                message = _(
                    "The deck has only %(what)s; more are counted in all. %(rule)s",
                    what=_deck_what(path),
                    rule=_deck_rule(path),
                )
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
    who = _names([_("%(name)s has %(count)s", name=first, count=mine), *(f"{name} {n}" for name, n in others)])
    message = _(
        "The deck has only %(what)s; %(total)s counted in all. %(who)s. %(rule)s",
        what=_deck_what(key),
        total=total,
        who=capital(who),
        rule=_deck_rule(key),
    )
    return FieldError(path, message)


def setup(count: int, options: SpiresOptions) -> list[str]:
    """The rulebook's setup steps for this player count."""
    if options.solo:
        return [
            _("Use Markets I, II and III ability side up."),
            _("Remove every card with 4 in the lower right corner (as in a 3-player game)."),
            _("Shuffle and deal one card below each Solo Market."),
            _("Draw five cards for your hand; draw and place one card face up as your first tower."),
            _("Put all other cards, including the player market cards, back in the box."),
            _("Scroll cards are never in a hand or a starting tableau: discard one dealt there and deal again."),
        ]
    if count == 2:
        markets = _("Place Markets I and II in the centre.")
        removed = _("Remove all cards marked with 3 or 4.")
    elif count == 3:
        markets = _("Place Markets I, II and III in the centre.")
        removed = _("Remove all cards marked with 4.")
    else:
        markets = _("Place Markets I, II and III in the centre.")
        removed = _("Play with all cards.")
    return [
        markets,
        _("Each player takes the player cards of their colour for those Markets; put the others in the box."),
        _("Give the first player the royal palace first player marker."),
        removed,
        _("The first player shuffles and deals one card face up below each Market."),
        _("Deal five cards face down to each player, then one card to each tableau as a first tower."),
        _("Scroll cards are never in a hand or a starting tableau: discard one dealt there and deal again."),
    ]


def tracker_notes(standing: Standing) -> list[Note]:
    """Who leads each symbol now, and which towers have grown to 4 cards."""
    players, options, result = standing.players, standing.options, standing.result
    notes = []
    for symbol in SYMBOLS:
        holders = [p for p in result.players if p.points(symbol) > 0]
        if options.solo:
            values = {
                "symbol": symbol.capitalize(),
                "name": players[0].name if players else _("Solo player"),
                "count": getattr(players[0], symbol) if players else 0,
                "pile": getattr(options.discard, symbol),
                "bonus": SYMBOL_BONUS[symbol],
            }
            if holders:
                text = _(
                    "%(symbol)s: %(name)s %(count)s, discard pile %(pile)s: the %(bonus)s VP bonus scores.", **values
                )
            else:
                text = _(
                    "%(symbol)s: %(name)s %(count)s, discard pile %(pile)s: the %(bonus)s VP bonus does not score.",
                    **values,
                )
            notes.append(Note(text))
        elif holders:
            text = ngettext(
                "%(symbol)s: %(names)s leads with %(most)s.",
                "%(symbol)s: %(names)s lead with %(most)s.",
                len(holders),
                symbol=symbol.capitalize(),
                names=_names([p.name for p in holders]),
                most=max(getattr(p, symbol) for p in players),
            )
            notes.append(Note(text))
        else:
            notes.append(Note(_("%(symbol)s: nobody has one yet.", symbol=symbol.capitalize())))
    for player in players:
        for suit, n in player.towers.model_dump().items():
            if n > SHORT_TOWER_MAX:
                text = _(
                    "%(name)s's %(suit)s tower has %(count)s cards: each card scores %(points)s VP now.",
                    name=player.name,
                    suit=suit,
                    count=n,
                    points=figure(TALL_TOWER_POINTS),
                )
                notes.append(Note(text, warning=True))
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
    N_("The deck, the Markets and everyone's hand: which cards are dealt, drawn, refilled or discarded."),
    N_("The Plan and Compete phases: who chose which Market and who wins a competition (suit, Architects, undercut)."),
    N_("Which card goes to which tower: cards 73 and 74 joining the tallest tower, a Scroll that discards cards."),
    N_("Which cards show a symbol: tap each crown, sword and quill as its card joins a tower, or count them at once."),
    N_(
        "The cards removed for the player count, and the end: 3 cards from each hand to the towers, the rest discarded."
    ),
    N_("Solo: the Solo Markets' once-a-game abilities, and the discard pile's cards (only its symbols are counted)."),
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
    # Each written out, for the catalogue (a suit's and a symbol's name are game terms, kept in English).
    labels={
        "scroll_vp": N_("scroll VP"),
        "towers.purple": N_("purple tower"),
        "towers.red": N_("red tower"),
        "towers.yellow": N_("yellow tower"),
        "towers.blue": N_("blue tower"),
        "towers.green": N_("green tower"),
        "towers.black": N_("black tower"),
        "discard.crowns": N_("discard pile crowns"),
        "discard.swords": N_("discard pile swords"),
        "discard.quills": N_("discard pile quills"),
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
    blurb=N_("Trick-taking set collection: build towers of 1-3 cards, win symbol majorities."),
    player_count=player_count,
    check=check,
    setup=setup,
    reference_notes=reference_notes,
    pad=pad,
    live=LIVE,
)
