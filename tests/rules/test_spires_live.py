"""Spires live play (spires.LIVE through games/live.py), each case tied to the rule sentence or project decision it
checks. The generic engine (parsing, counters, undo) is tested through Spires in test_live.py.

Rule text: the Spires rulebook ("Card Anatomy", "Building Spires", "Scoring", "Bonus Symbols", solo "End Game and
Scoring"); decisions: docs/rules.md, "Spires". Pure: no Flask, no database.

The rule text, sentence by sentence, against the live rules (what the tracker keeps; the rest is in
spires.UNTRACKED, checked by test_untracked_says_what_stays_on_the_table):
- "Each suit has 12 values." with docs/rules.md's "15 cards of a suit in all towers together": DECK_REFUSED,
  DECK_ALLOWED, test_a_play_saved_past_the_deck_is_corrected_one_tap_at_a_time.
- "A player will never have more than six Spires (one of each suit).": test_six_towers_a_seat.
- "Quills: 10 points (8 symbols total). Crowns: 15 points (8 symbols total). Swords: 20 points (12 symbols
  total).": DECK_REFUSED, DECK_ALLOWED.
- Solo, "compare the amount of symbols in your buildings compared to the amount in the discard pile": DECK_REFUSED
  (the discard pile counts towards the deck), NOTES.
- "5 points per Spire card in each of your Towers with 3 or less total cards." and "-1 point per Spire card in each
  of your Towers with 4 or more total cards.": NOTES, test_flagged_towers.
- "The player with the most symbols of each type is awarded a point bonus. In the case of a tie, all tied players
  receive this full bonus.": NOTES.
- "When a player adds a card to a Spire, they must add it to a Spire of the same suit." and "The winning player gains
  the card(s) below the Market AND all cards played": test_each_seat_counts_its_towers_and_symbols_in_one_tap,
  COUNTED (a tower's or a symbol's count set in one action, however many cards a competition brought).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import live, spires
from companion.games.spires import GAME, SpiresOptions
from tests.rules.tools import counter_values, errors

NAMES = ("Ann", "Bob", "Cy", "Dee")
CROWNS_RULE = "The rules: “Crowns: 15 points (8 symbols total)”."
QUILLS_RULE = "The rules: “Quills: 10 points (8 symbols total)”."
SWORDS_RULE = "The rules: “Swords: 20 points (12 symbols total)”."
SUIT_RULE = "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."


def context(count: int = 2, **options: Any) -> live.Context:
    """Ann, Bob, ... in turn order with Spires options."""
    return live.Context(NAMES[:count], SpiresOptions(**options), GAME.live)


def start(count: int = 2, **options: Any) -> live.State:
    """The state a Spires play starts from."""
    return GAME.live.start(count, SpiresOptions(**options))


def add(path: str, delta: int) -> dict[str, Any]:
    """The generic 'add' action."""
    return {"action": "add", "field": path, "delta": delta}


def set_to(path: str, value: int) -> dict[str, Any]:
    """The generic 'set' action."""
    return {"action": "set", "field": path, "value": value}


def act(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> live.State:
    """Parse (strict, as JSON) and apply one action for a player by name, or the table (None); the new state."""
    seat = ctx.names.index(who) if who is not None else None
    return live.apply(GAME, state, live.parse_action(GAME, raw, seat, strict=True), ctx).state


def play(count: int, steps: list, **options: Any) -> tuple[live.State, live.Context]:
    """Run the steps from the start state; the final state and the context."""
    ctx = context(count, **options)
    state = start(count, **options)
    for who, raw in steps:
        state = act(state, ctx, who, raw)
    return state, ctx


# --- What the deck holds, for the whole table ----------------------------------------------------------------------

DECK_REFUSED = [
    # (players, options, steps before, the refused step, {field: message})
    pytest.param(
        2,
        {},
        [("Ann", set_to("towers.red", 10))],
        ("Bob", set_to("towers.red", 7)),
        {"towers.red": f"The deck has only 15 red cards; 17 counted in all. Ann has 10 and Bob 7. {SUIT_RULE}"},
        id="Each suit has 12 values (notes: 15 in all towers): 17 red cards between two players",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("towers.black", 8)), ("Bob", set_to("towers.black", 7))],
        ("Bob", add("towers.black", 1)),
        {"towers.black": f"The deck has only 15 black cards; 16 counted in all. Ann has 8 and Bob 8. {SUIT_RULE}"},
        id="Each suit has 12 values (notes: 15 in all towers): the 16th black card, one tap",
    ),
    pytest.param(
        4,
        {},
        [("Ann", set_to("towers.green", 4)), ("Bob", set_to("towers.green", 4)), ("Cy", set_to("towers.green", 4))],
        ("Dee", set_to("towers.green", 4)),
        {
            "towers.green": f"The deck has only 15 green cards; 16 counted in all. Ann has 4, Bob 4, Cy 4 and Dee 4. "
            f"{SUIT_RULE}"
        },
        id="Each suit has 12 values (notes: 15 in all towers): four towers of 4, every holder named",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("crowns", 5))],
        ("Bob", add("crowns", 4)),
        {"crowns": f"The deck has only 8 crowns; 9 counted in all. Ann has 5 and Bob 4. {CROWNS_RULE}"},
        id="Crowns: 15 points (8 symbols total): an add spanning two seats",
    ),
    pytest.param(
        3,
        {},
        [("Bob", set_to("crowns", 5))],
        ("Ann", add("crowns", 4)),
        {"crowns": f"The deck has only 8 crowns; 9 counted in all. Ann has 4 and Bob 5. {CROWNS_RULE}"},
        id="Crowns: 15 points (8 symbols total): the holders in turn order, whoever tapped",
    ),
    pytest.param(
        3,
        {},
        [("Ann", set_to("quills", 3)), ("Bob", set_to("quills", 3))],
        ("Cy", set_to("quills", 3)),
        {"quills": f"The deck has only 8 quills; 9 counted in all. Ann has 3, Bob 3 and Cy 3. {QUILLS_RULE}"},
        id="Quills: 10 points (8 symbols total): spread over three seats",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("swords", 12))],
        ("Bob", add("swords", 1)),
        {"swords": f"The deck has only 12 swords; 13 counted in all. Ann has 12 and Bob 1. {SWORDS_RULE}"},
        id="Swords: 20 points (12 symbols total)",
    ),
    pytest.param(
        1,
        {"solo": True},
        [(None, set_to("discard.crowns", 6))],
        ("Ann", add("crowns", 3)),
        {"crowns": f"The deck has only 8 crowns; 9 counted in all. Ann has 3 and the discard pile 6. {CROWNS_RULE}"},
        id="solo: compare ... the amount in the discard pile: the pile counts towards the deck's 8 crowns",
    ),
    pytest.param(
        1,
        {"solo": True},
        [("Ann", set_to("quills", 5))],
        (None, add("discard.quills", 4)),
        {
            "discard.quills": f"The deck has only 8 quills; 9 counted in all. Ann has 5 and the discard pile 4. "
            f"{QUILLS_RULE}"
        },
        id="solo: the discard pile's own counter is bounded by the deck too",
    ),
    pytest.param(
        2,
        {},
        [],
        ("Ann", set_to("crowns", 9)),
        {"players[0].crowns": "Must be at most 8."},
        id="Crowns (8 symbols total): one seat past the deck is said by its own box",
    ),
    pytest.param(
        2,
        {},
        [],
        ("Bob", set_to("towers.red", 15)),
        {"players[1].towers.red": "Must be at most 14."},
        id="12 values per suit, and cards 73 and 74: 14 cards in one tower at most",
    ),
    pytest.param(
        1,
        {"solo": True},
        [],
        (None, set_to("discard.swords", 13)),
        {"options.discard.swords": "Must be at most 12."},
        id="solo: Swords (12 symbols total) in the discard pile alone",
    ),
    pytest.param(
        2,
        {},
        [],
        ("Ann", add("towers.red", -1)),
        {"players[0].towers.red": "Must be at least 0."},
        id="a tower never has fewer than 0 cards",
    ),
    pytest.param(
        1,
        {"solo": True},
        [],
        (None, add("discard.swords", -1)),
        {"options.discard.swords": "Must be at least 0."},
        id="solo: the discard pile is never negative",
    ),
]


@pytest.mark.parametrize(("count", "options", "steps", "refused", "expected"), DECK_REFUSED)
def test_deck_refused(count: int, options: dict, steps: list, refused: tuple, expected: dict) -> None:
    """A tap that takes the table past what the deck holds is refused with the rule's words and everyone's count;
    the state given stays as it was."""
    state, ctx = play(count, steps, **options)
    snapshot = repr(state)
    assert errors(lambda: act(state, ctx, *refused)) == expected
    assert repr(state) == snapshot


DECK_ALLOWED = [
    # (players, options, steps)
    pytest.param(
        2,
        {},
        [("Ann", set_to("crowns", 5)), ("Bob", add("crowns", 3))],
        id="Crowns (8 symbols total): exactly the deck's 8",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("swords", 6)), ("Bob", set_to("swords", 6))],
        id="Swords (12 symbols total): exactly the deck's 12",
    ),
    pytest.param(
        3,
        {},
        [("Ann", set_to("crowns", 8)), ("Ann", add("crowns", -3)), ("Cy", add("crowns", 3))],
        id="Crowns (8 symbols total): moved between seats, never more than 8 in all",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("towers.red", 8)), ("Bob", set_to("towers.red", 7))],
        id="Each suit has 12 values (notes: 15 in all towers): exactly 15 red between two",
    ),
    pytest.param(
        4,
        {},
        [
            ("Ann", set_to("towers.purple", 4)),
            ("Bob", set_to("towers.purple", 4)),
            ("Cy", set_to("towers.purple", 4)),
            ("Dee", set_to("towers.purple", 3)),
        ],
        id="Each suit has 12 values (notes: 15 in all towers): 15 purple over four seats",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("towers.red", 14)), ("Bob", set_to("towers.blue", 14))],
        id="Each suit has 12 values: the bound is per suit, not for all cards",
    ),
    pytest.param(
        1,
        {"solo": True},
        [("Ann", set_to("quills", 4)), (None, set_to("discard.quills", 4))],
        id="solo: the player's and the discard pile's quills, exactly 8",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("crowns", 8)), ("Ann", set_to("crowns", 8))],
        id="the same count typed again on a full deck",
    ),
]


@pytest.mark.parametrize(("count", "options", "steps"), DECK_ALLOWED)
def test_deck_allows_every_card_in_play(count: int, options: dict, steps: list) -> None:
    """The deck check refuses only impossible totals: every card of the deck can be in play."""
    state, ctx = play(count, steps, **options)
    assert live.standing(GAME, state, ctx).result.players


def test_a_play_saved_past_the_deck_is_corrected_one_tap_at_a_time() -> None:
    """A play saved before the deck bounded the suits (17 red between Ann and Bob): it can't be scored, says why,
    and is corrected one tap at a time; a tap that raises the total further is refused."""
    state, ctx = play(2, [])
    state["seats"][0]["towers"]["red"] = 10
    state["seats"][1]["towers"]["red"] = 7
    assert errors(lambda: live.standing(GAME, state, ctx)) == {
        "players[1].towers.red": f"The deck has only 15 red cards; more are counted in all towers together. {SUIT_RULE}"
    }
    assert "towers.red" in errors(lambda: act(state, ctx, "Ann", add("towers.red", 1)))
    state = act(state, ctx, "Bob", add("crowns", 1))  # another counter may still be tapped
    state = act(state, ctx, "Ann", add("towers.red", -1))
    state = act(state, ctx, "Bob", add("towers.red", -1))
    assert [seat["towers"]["red"] for seat in state["seats"]] == [9, 6]
    assert live.standing(GAME, state, ctx).result.players


def test_six_towers_a_seat() -> None:
    """'A player will never have more than six Spires (one of each suit)': each seat counts six towers, one a suit."""
    assert [path for path in GAME.live.seat_counters(SpiresOptions()) if path.startswith("towers.")] == [
        f"towers.{suit}" for suit in ("purple", "red", "yellow", "blue", "green", "black")
    ]
    assert errors(lambda: act(start(), context(), "Ann", add("towers.pink", 1))) == {
        "field": "There is no such counter."
    }


# --- Counting in one tap: a tower's height, a symbol's count ---------------------------------------------------------


def test_each_seat_counts_its_towers_and_symbols_in_one_tap() -> None:
    """'When a player adds a card to a Spire, they must add it to a Spire of the same suit': each seat counts its six
    towers and three symbols, each set in one tap by chips 1 to 6, a tower's from 4 marked ('-1 point per Spire card
    in each of your Towers with 4 or more total cards')."""
    state, ctx = play(2, [("Ann", set_to("towers.red", 3)), ("Bob", set_to("swords", 2))])
    view = spires.view(live.standing(GAME, state, ctx))
    assert view["count_to"] == (1, 2, 3, 4, 5, 6)
    assert view["tall_from"] == 4
    ann, bob = view["counts"]
    assert [row["field"] for row in ann] == [*(f"towers.{suit}" for suit in spires.SUITS), "crowns", "swords", "quills"]
    assert [row["label"] for row in ann] == [
        "Purple",
        "Red",
        "Yellow",
        "Blue",
        "Green",
        "Black",
        "Crowns",
        "Swords",
        "Quills",
    ]
    assert [row["tower"] for row in ann] == [True] * 6 + [False] * 3
    assert {row["field"]: row["value"] for row in ann}["towers.red"] == 3
    assert {row["field"]: row["value"] for row in bob}["swords"] == 2
    assert sum(row["value"] for row in ann + bob) == 5


def test_solo_counts_the_discard_pile_in_one_tap() -> None:
    """Solo, 'compare the amount of symbols in your buildings compared to the amount in the discard pile': the discard
    pile's crowns, swords and quills are counted in one tap too; a multiplayer game has no pile to count."""
    state, ctx = play(1, [(None, set_to("discard.swords", 3))], solo=True)
    view = spires.view(live.standing(GAME, state, ctx))
    assert [(row["field"], row["label"], row["value"]) for row in view["discard"]] == [
        ("discard.crowns", "Crowns", 0),
        ("discard.swords", "Swords", 3),
        ("discard.quills", "Quills", 0),
    ]
    state, ctx = play(2, [])
    assert spires.view(live.standing(GAME, state, ctx))["discard"] == []


COUNTED = [
    # (steps before, the count tapped as (player, field, value), what every seat holds after)
    pytest.param(
        [],
        ("Ann", "towers.red", 3),
        [{"towers.red": 3}, {}],
        id="The winning player gains the card(s) below the Market AND all cards played: 3 red cards in one tap",
    ),
    pytest.param(
        [("Ann", set_to("towers.purple", 4))],
        ("Ann", "towers.purple", 3),
        [{"towers.purple": 3}, {}],
        id="Scroll cards featuring a card and arrow allow the player to discard 1-2 cards: counted down",
    ),
    pytest.param(
        [("Ann", set_to("towers.red", 10))],
        ("Bob", "towers.red", 5),
        [{"towers.red": 10}, {"towers.red": 5}],
        id="Each suit has 12 values (notes: 15 in all towers): exactly what the deck holds",
    ),
    pytest.param(
        [("Ann", set_to("crowns", 1))],
        ("Ann", "crowns", 3),
        [{"crowns": 3}, {}],
        id="a symbol's count, however many joined",
    ),
]


@pytest.mark.parametrize(("steps", "tapped", "after"), COUNTED)
def test_a_count_sets_the_tower_or_symbol_whole(steps: list, tapped: tuple, after: list) -> None:
    """One count (the 'set' action the chips send, parsed as the page's form is: text) sets the count whole, and
    leaves every other count as it was."""
    state, ctx = play(2, steps)
    who, field, value = tapped
    raw = {"action": "set", "field": field, "value": str(value)}
    action = live.parse_action(GAME, raw, ctx.names.index(who), strict=False)
    state = live.apply(GAME, state, action, ctx).state
    for seat, expected in zip(state["seats"], after, strict=True):
        counts = dict(counter_values(seat))
        assert {path: n for path, n in counts.items() if n} == expected


def test_a_count_past_the_deck_is_refused_with_everyones_count() -> None:
    """'Each suit has 12 values' (docs/rules.md, "Spires": at most 15 of a suit in all towers): Bob's red tower
    counted at 6 while Ann's holds 10 is refused, with both counts and the rule's words; 'Crowns: 15 points (8 symbols
    total)' too."""
    state, ctx = play(2, [("Ann", set_to("towers.red", 10)), ("Ann", set_to("crowns", 5))])
    raw = {"action": "set", "field": "towers.red", "value": "6"}
    assert errors(lambda: live.apply(GAME, state, live.parse_action(GAME, raw, 1, strict=False), ctx)) == {
        "towers.red": f"The deck has only 15 red cards; 16 counted in all. Ann has 10 and Bob 6. {SUIT_RULE}"
    }
    raw = {"action": "set", "field": "crowns", "value": "4"}
    assert errors(lambda: live.apply(GAME, state, live.parse_action(GAME, raw, 1, strict=False), ctx)) == {
        "crowns": f"The deck has only 8 crowns; 9 counted in all. Ann has 5 and Bob 4. {CROWNS_RULE}"
    }


# --- What the tracker says as the game stands -----------------------------------------------------------------------

NOTES = [
    # (players, options, steps, notes said, in order)
    pytest.param(
        2,
        {},
        [],
        ["Crowns: nobody has one yet.", "Swords: nobody has one yet.", "Quills: nobody has one yet."],
        id="notes: a symbol bonus needs at least one symbol",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("crowns", 2)), ("Bob", set_to("crowns", 2)), ("Bob", add("swords", 1))],
        ["Crowns: Ann and Bob lead with 2.", "Swords: Bob leads with 1.", "Quills: nobody has one yet."],
        id="The player with the most symbols ... In the case of a tie, all tied players receive this full bonus",
    ),
    pytest.param(
        2,
        {},
        [("Ann", set_to("towers.blue", 4))],
        [
            "Crowns: nobody has one yet.",
            "Swords: nobody has one yet.",
            "Quills: nobody has one yet.",
            "Ann's blue tower has 4 cards: each card scores −1 VP now.",
        ],
        id="-1 point per Spire card in each of your Towers with 4 or more total cards",
    ),
    pytest.param(
        1,
        {"solo": True},
        [("Ann", set_to("crowns", 2)), (None, set_to("discard.crowns", 2)), (None, set_to("discard.quills", 1))],
        [
            "Crowns: Ann 2, discard pile 2: the 15 VP bonus scores.",
            "Swords: Ann 0, discard pile 0: the 20 VP bonus does not score.",
            "Quills: Ann 0, discard pile 1: the 10 VP bonus does not score.",
        ],
        id="solo: If you have a number equal to or greater than the amount in the discard pile, score the bonus",
    ),
]


@pytest.mark.parametrize(("count", "options", "steps", "said"), NOTES)
def test_notes(count: int, options: dict, steps: list, said: list[str]) -> None:
    """Who leads each symbol (or scores it against the discard pile), and the towers grown to 4 cards."""
    state, ctx = play(count, steps, **options)
    notes = spires.tracker_notes(live.standing(GAME, state, ctx))
    assert [note.text for note in notes] == said
    assert [note.warning for note in notes] == ["tower has" in text for text in said]


def test_flagged_towers() -> None:
    """'-1 point per Spire card in each of your Towers with 4 or more total cards': those towers are marked, per
    seat, a tower of 3 is not."""
    state, ctx = play(
        2, [("Ann", set_to("towers.blue", 4)), ("Ann", set_to("towers.red", 3)), ("Bob", set_to("towers.green", 9))]
    )
    standing = live.standing(GAME, state, ctx)
    assert spires.flagged(standing, 0) == {"towers.blue"}
    assert spires.flagged(standing, 1) == {"towers.green"}


# --- How the table hears a tap, and what the tracker does not keep ------------------------------------------------

DESCRIBE = [
    pytest.param("Ann", add("towers.red", 2), "Ann, red tower +2", id="a tower by its colour"),
    pytest.param("Bob", add("towers.black", -1), "Bob, black tower −1", id="a tower, with the true minus"),
    pytest.param("Ann", add("crowns", 1), "Ann, crowns +1", id="a symbol"),
    pytest.param("Bob", set_to("scroll_vp", 6), "Bob, scroll VP set to 6", id="scroll VP, set"),
    pytest.param("Ann", set_to("towers.red", 3), "Ann, red tower set to 3", id="a tower counted in one tap"),
    pytest.param(None, add("discard.quills", 1), "Discard pile quills +1", id="solo: the discard pile, no player"),
]


@pytest.mark.parametrize(("who", "raw", "text"), DESCRIBE)
def test_describe(who: str | None, raw: dict[str, Any], text: str) -> None:
    """Undo's words for a Spires tap: plain names, never a counter's internal path or 'table'."""
    ctx = context(1, solo=True) if who is None else context()
    seat = ctx.names.index(who) if who is not None else None
    described = live.describe(GAME, live.parse_action(GAME, raw, seat, strict=True), ctx)
    assert described == text
    assert not any(mark in described for mark in ("towers.", "discard.", "_", "table"))


def test_untracked_says_what_stays_on_the_table() -> None:
    """What players do that the tracker neither keeps nor checks, in plain sentences for the tracker's help: the deck,
    Markets and hands, the phases and competitions, which tower a card joins, the symbols on cards, the end, solo."""
    untracked = GAME.live.untracked
    text = " ".join(untracked)
    for words in (
        "deck",
        "Markets",
        "hand",
        "Plan and Compete",
        "cards 73 and 74",
        "Scroll",
        "symbol",
        "player count",
        "3 cards from each hand",
        "Solo Markets",
        "discard pile",
    ):
        assert words in text, words
    assert all(line[:1].isupper() and line.endswith(".") for line in untracked)
    assert not any(mark in text for mark in ("_", "[", "{", "towers."))
