"""Conquest of Speros scoring: each case quotes the rule sentence or project decision it checks.

Rule text: the Conquest of Speros rulebook. Decisions: docs/rules.md, "Conquest of Speros".
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import InputErrors, Result
from companion.games.speros import (
    BREAKDOWN,
    CAPTURED_MAX,
    GAME,
    RESOURCES,
    SperosOptions,
    mastery_share,
    resource_mix,
    resource_sets,
    set_limit,
)
from tests.rules.tools import matching_sets

KEYS = [key for key, _ in BREAKDOWN]
# Set properties are cheap, so they get many examples; whole games cost more to generate than to score.
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

C, I, G = "crystal", "iron", "gold"  # noqa: E741  (the resources' initials: I is iron, beside C and G)


def card(vp: int = 0, *resources: str, terrain: str = "forest") -> dict[str, Any]:
    """A captured card as the JSON API takes it."""
    return {"vp": vp, "resources": list(resources), "terrain": terrain}


def player(name: str, color: str, **more: Any) -> dict[str, Any]:
    """A player as the JSON API takes it."""
    return {"name": name, "color": color, **more}


def run(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Result:
    """Score raw input through the game's public entry point."""
    return GAME.score_raw(players, options or {})


def by_name(result: Result) -> dict[str, Any]:
    """The result's players keyed by name."""
    return {p.name: p for p in result.players}


# --- independent brute forces -------------------------------------------------------------------------------


def exhaustive_sets(cards: Sequence[Sequence[str]]) -> int:
    """Try every way of choosing the one resource each card fills; k sets need k of each resource."""
    shown = [sorted(set(c)) for c in cards if c]
    best = 0
    for choice in itertools.product(*shown):
        best = max(best, min(choice.count(r) for r in RESOURCES))
    return best


def greedy_scarcest(cards: Sequence[Sequence[str]]) -> int:
    """Count single-resource cards, then give each multi-resource card, in order, to its scarcest resource."""
    counts = dict.fromkeys(RESOURCES, 0)
    for c in cards:
        if len(c) == 1:
            counts[c[0]] += 1
    for c in cards:
        if len(c) > 1:
            counts[min(c, key=lambda r: (counts[r], RESOURCES.index(r)))] += 1
    return min(counts.values())


def greedy_input_order(cards: Sequence[Sequence[str]]) -> int:
    """Build sets in input order: each card takes its first listed resource still missing in the first open set."""
    open_sets: list[set[str]] = []
    for c in cards:
        for filled in open_sets:
            free = [r for r in c if r not in filled]
            if free and len(filled) < 3:
                filled.add(free[0])
                break
        else:
            if c:
                open_sets.append({c[0]})
    return sum(1 for filled in open_sets if len(filled) == 3)


resource_lists = st.lists(
    st.lists(st.sampled_from(RESOURCES), unique=True, max_size=3),
    max_size=8,
)


# --- scoring, one sentence per case -------------------------------------------------------------------------

SCORING = [
    pytest.param(
        [player("Ann", "green", captured=[card(3, C), card(2, C, terrain="ocean"), card(0, C, terrain="swamp")])],
        {},
        {"Ann": {"captured": 5}},
        "3 + 2 + 0 = 5 VP",
        id="Captured card is worth whatever value is written on the card",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(4, C), card(-3, C, terrain="artifact")])],
        {},
        {"Ann": {"captured": 1}},
        "1 Location: 4 VP; 1 Artifact: −3 VP; together 4 − 3 = 1 VP.",
        id="Victory Point values on Artifact vary from card to card (and in rare cases can even be negative)",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C), card(0, I), card(0, G)])],
        {},
        {"Ann": {"resource_sets": 3}},
        "Crystal, iron and gold from 3 of your 3 cards (3 cards with a resource allow at most 1 set): "
        "1 set × 3 = 3 VP.",
        id="Resource sets: 3 VP each",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, r) for r in RESOURCES * 4] + [card(0, C), card(0, I)])],
        {},
        {"Ann": {"resource_sets": 12}},
        "Crystal, iron and gold from 12 of your 14 cards (14 cards with a resource allow at most 4 sets): "
        "4 sets × 3 = 12 VP.",
        id="A player can collect any number of sets",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C, I, G), card(0, C, I, G), card(0, C)])],
        {},
        {"Ann": {"resource_sets": 3}},
        "1 set",
        id="no card can count toward more than one set",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C, I, G), card(0, C, I, G)])],
        {},
        {"Ann": {"resource_sets": 0}},
        "No set, as only 2 cards show a resource and a set needs 3: 0 VP.",
        id="notes: a resource set is 3 captured cards (two all-resource cards are not a set)",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C, I), card(0, I, G), card(0, G, C)])],
        {},
        {"Ann": {"resource_sets": 3}},
        "1 set",
        id="notes: a card that shows several resources fills one slot of its owner's choice",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C, I), card(0, G), card(0, G)])],
        {},
        {"Ann": {"resource_sets": 0}},
        "No set, as only 1 card can be crystal or iron, and each set needs 2 of those: 0 VP.",
        id="each of which displaying a different one (or more) of the three resources: one card, one slot",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C), card(0, I), card(2, G, terrain="artifact")])],
        {},
        {"Ann": {"resource_sets": 3, "captured": 2}},
        "1 set",
        id="notes: a resource set is 3 captured cards (Locations or Artifacts)",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C), card(0, I), card(0, C)])],
        {},
        {"Ann": {"resource_sets": 0}},
        "No set, as no captured card shows gold: 0 VP.",
        id="Crystal, Gold, and Iron: a set needs all three",
    ),
    pytest.param(
        [player("Ann", "green", minions_familiar=3)],
        {},
        {"Ann": {"minions": 6}},
        "3 familiar × 2 + 0 unfamiliar × 1 = 6 VP.",
        id="Deployed Minions on familiar terrain (a Location matching its color): 2 VP each",
    ),
    pytest.param(
        [player("Ann", "green", minions_familiar=3, minions_unfamiliar=2)],
        {},
        {"Ann": {"minions": 8}},
        "3 familiar × 2 + 2 unfamiliar × 1 = 8 VP.",
        id="Deployed Minions on unfamiliar terrain: 1 VP each",
    ),
    pytest.param(
        [player("Ann", "green", general="familiar")],
        {},
        {"Ann": {"general": 3}},
        "General on familiar terrain: 3 VP.",
        id="Deployed Generals on familiar terrain: 3 VP",
    ),
    pytest.param(
        [player("Ann", "green", general="unfamiliar")],
        {},
        {"Ann": {"general": 2}},
        "General on unfamiliar terrain (or an Artifact): 2 VP.",
        id="Deployed Generals on unfamiliar terrain: 2 VP",
    ),
    pytest.param(
        [player("Ann", "green", general="unfamiliar", minions_unfamiliar=2, captured=[card(1, C, terrain="artifact")])],
        {},
        {"Ann": {"general": 2, "minions": 2}},
        "(or an Artifact)",
        id="notes: Artifacts have no terrain colour: units on them score as unfamiliar",
    ),
    pytest.param(
        [player("Ann", "green")],
        {},
        {"Ann": {"minions": 0, "general": 0}},
        "General in Base Camp: 0 VP.",
        id="Units still on the Base Camp card at end of game are worth 0 VP",
    ),
    pytest.param(
        [player("Ann", "green", bonus_objectives=[4, 9, 2])],
        {},
        {"Ann": {"bonus_objective": 9}},
        "The best of 4, 9 and 2: 9 VP.",
        id="notes: The best of the three Bonus Objectives is chosen automatically",
    ),
    pytest.param(
        [player("Ann", "green", bonus_objectives=[5])],
        {},
        {"Ann": {"bonus_objective": 5}},
        "One Bonus Objective: 5 VP.",
        id="each player chooses one of his or her Bonus Objectives to earn additional Victory Points",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red"), player("Cy", "blue")],
        {"mastery": [{"name": "Explorer", "vp": 5, "leaders": ["Bob"]}]},
        {"Ann": {"mastery": 0}, "Bob": {"mastery": 5}, "Cy": {"mastery": 0}},
        "Mastery 'Explorer': Bob takes it, 0 VP.",
        id="The player who best meets the condition on a Mastery card will be awarded the points listed on it",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red"), player("Cy", "blue"), player("Di", "black")],
        {"mastery": [{"name": "Explorer", "vp": 7, "leaders": ["Ann", "Bob", "Cy"]}]},
        {"Ann": {"mastery": 2}, "Bob": {"mastery": 2}, "Cy": {"mastery": 2}, "Di": {"mastery": 0}},
        "Mastery 'Explorer': 7 VP split 3 ways, rounded down, 2 VP.",
        id="in the case of a tie, the points will be divided evenly amongst the tied players, rounded down",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red"), player("Cy", "blue")],
        {
            "mastery": [
                {"name": "Explorer", "vp": 6, "leaders": ["Ann", "Bob"]},
                {"name": "Hoard", "vp": 4, "leaders": ["Ann"]},
            ]
        },
        {"Ann": {"mastery": 7}, "Bob": {"mastery": 3}, "Cy": {"mastery": 0}},
        "Mastery 'Explorer': 6 VP split 2 ways, rounded down, 3 VP; Mastery 'Hoard': you best meet it, 4 VP; together "
        "3 + 4 = 7 VP.",
        id="Mastery Objectives are simply common objectives shared by all players (each card scored apart)",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red")],
        {"mastery": [{"name": "Explorer", "vp": 5, "leaders": []}]},
        {"Ann": {"mastery": 0}, "Bob": {"mastery": 0}},
        "Mastery 'Explorer': nobody meets it, 0 VP.",
        id="If the objective is met, the player who meets it gets the points (no leader: nobody scores)",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red")],
        {"mastery": [{"name": "Explorer", "vp": 5, "leaders": ["ann"]}]},
        {"Ann": {"mastery": 5}, "Bob": {"mastery": 0}},
        "you best meet it",
        id="Mastery leaders are matched by name, like player names, ignoring case",
    ),
]


@pytest.mark.parametrize(("players", "options", "expected", "why"), SCORING)
def test_scoring_rule(players: list[dict], options: dict, expected: dict[str, dict[str, int]], why: str) -> None:
    """Each scoring sentence gives the expected points and says the arithmetic."""
    if len(players) == 1:
        players = [*players, player("Zed", "black")]
    scored = by_name(run(players, options))
    for name, lines in expected.items():
        for key, points in lines.items():
            assert scored[name].points(key) == points, (name, key)
    first = next(iter(expected))
    whys = " ".join(line.why for line in scored[first].lines)
    assert why in whys


def test_breakdown_keys_always_present_in_order_and_zero_when_nothing_scored() -> None:
    """Breakdown keys: captured, resource_sets, minions, general, bonus_objective, mastery, 0 when unscored."""
    answer = run([player("Ann", "green"), player("Bob", "red")]).to_dict()
    for p in answer["players"]:
        assert [line["key"] for line in p["breakdown"]] == KEYS
        assert all(line["points"] == 0 and line["why"] for line in p["breakdown"])
        assert p["total"] == 0


def test_negative_total() -> None:
    """'(and in rare cases can even be negative)': a player's total may end below zero."""
    result = run([player("Ann", "green", captured=[card(-10, C, terrain="artifact")]), player("Bob", "red")])
    ann, bob = result.players
    assert (ann.total, ann.rank, bob.rank) == (-10, 2, 1)


def test_forty_captured_cards() -> None:
    """40 captured cards: 10 of each single resource plus 10 showing all three make 13 sets (40 // 3)."""
    # Spread over terrains: the game has only 20 Locations of each.
    terrains = ("forest", "mountain", "swamp")
    cards = [card(1, r, terrain=t) for r, t in zip(RESOURCES, terrains, strict=True) for _ in range(10)]
    cards += [card(2, C, I, G, terrain="ocean") for _ in range(10)]
    result = run([player("Ann", "green", captured=cards), player("Bob", "red")])
    ann = result.players[0]
    assert ann.points("captured") == 30 + 20
    assert ann.points("resource_sets") == 13 * 3
    assert matching_sets([c["resources"] for c in cards]) == 13
    assert ann.lines[0].why == "40 Locations: 50 VP in all."
    assert ann.extra["own_color_locations"] == 10


def test_forty_skewed_cards_match_brute_force() -> None:
    """40 cards where two-resource cards are the bottleneck, checked against matching."""
    rng = random.Random(3)
    lists = [rng.choice([[C, I], [I], [C], [I, C], [G, C]]) for _ in range(40)]
    assert resource_sets(lists) == matching_sets(lists)


# --- the greedy traps ---------------------------------------------------------------------------------------


GREEDY_TRAP = [[C], [I], [I], [C, G], [G, I], [G, I]]


def test_scarcest_first_greedy_is_not_optimal() -> None:
    """Scarcest-first fails here without any tie: after singles (crystal 1, iron 2, gold 0) the crystal/gold card
    goes to gold (0 < 1), so crystal stays at 1; the best use is crystal/gold as crystal, both gold/iron as gold.

    A search over every mix of up to 10 cards found the greedy's failure depends on the order it meets the
    multi-resource cards (for each mix some order reaches the optimum), so the app never relies on an order.
    """
    assert greedy_scarcest(GREEDY_TRAP) == 1
    assert exhaustive_sets(GREEDY_TRAP) == matching_sets(GREEDY_TRAP) == 2
    assert resource_sets(GREEDY_TRAP) == 2
    result = run([player("Ann", "green", captured=[card(0, *c) for c in GREEDY_TRAP]), player("Bob", "red")])
    assert result.players[0].points("resource_sets") == 6


def test_input_order_greedy_is_not_optimal() -> None:
    """Filling sets in input order puts the crystal/iron card on crystal, leaving no iron: 0 sets instead of 1."""
    cards = [[C, I], [C], [G]]
    assert greedy_input_order(cards) == 0
    assert resource_sets(cards) == exhaustive_sets(cards) == 1


def test_brute_forces_agree_on_the_greedy_trap_in_every_order() -> None:
    """The optimum doesn't depend on the order cards are entered."""
    for order in itertools.permutations(GREEDY_TRAP):
        assert resource_sets(order) == 2


# --- tie-breaks ---------------------------------------------------------------------------------------------

TIEBREAK = [
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C), card(0, C)]),
            player("Bob", "red", captured=[card(0, C, terrain="mountain")]),
        ],
        [1, 2],
        ["Ann"],
        "Tie-break, most captured Locations of their own colour: Ann 2 green (Forest), Bob 1 red (Mountain).",
        id="In the event of a tie, the player with the most captured lands of their own color wins",
    ),
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C, terrain="ocean")] * 3),
            player("Bob", "red", captured=[card(0, C, terrain="mountain")]),
        ],
        [2, 1],
        ["Bob"],
        "Ann 0 green (Forest)",
        id="lands of their own color: Locations of another colour don't count",
    ),
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C, terrain="artifact")] * 2),
            player("Bob", "red", captured=[card(0, C, terrain="mountain")]),
        ],
        [2, 1],
        ["Bob"],
        "Bob 1 red (Mountain), Ann 0 green (Forest)",
        id="notes: Artifacts have no terrain colour and never count for the tie-break",
    ),
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C)], general="familiar"),
            player("Bob", "red", captured=[card(0, C, terrain="mountain")], general="familiar"),
            player("Cy", "blue", minions_unfamiliar=1),
        ],
        [1, 1, 3],
        ["Ann", "Bob"],
        "Still tied, Ann and Bob share the victory.",
        id="If there is still a tie then the game is a draw (ranks 1, 1, 3)",
    ),
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C)]),
            player("Bob", "red", captured=[card(0, C, terrain="mountain")]),
            player("Cy", "blue", general="familiar"),
            player("Di", "black"),
        ],
        [2, 2, 1, 4],
        ["Cy"],
        "Still tied, Ann and Bob share rank 2.",
        id="tied players below the top share a rank and the next rank skips (2, 2, 4)",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "red"), player("Cy", "blue"), player("Di", "black")],
        [1, 1, 1, 1],
        ["Ann", "Bob", "Cy", "Di"],
        "Ann, Bob, Cy and Di tied on 0 VP.",
        id="all tied on everything: the game is a draw for everyone",
    ),
]


@pytest.mark.parametrize(("players", "ranks", "winners", "text"), TIEBREAK)
def test_tie_break(players: list[dict], ranks: list[int], winners: list[str], text: str) -> None:
    """Ties on total go to own-colour Locations, then to a shared victory."""
    result = run(players)
    assert [p.rank for p in result.players] == ranks
    assert list(result.winners) == winners
    assert result.tiebreak is not None and text in result.tiebreak


@pytest.mark.parametrize(
    ("colour", "terrain"),
    [
        pytest.param("green", "forest", id="Forest (green)"),
        pytest.param("red", "mountain", id="Mountain (red)"),
        pytest.param("blue", "ocean", id="Ocean (blue)"),
        pytest.param("black", "swamp", id="Swamp (black)"),
    ],
)
def test_own_colour_terrain(colour: str, terrain: str) -> None:
    """'Each type corresponds to one of the four colors': only that terrain counts as the player's own."""
    other = "green" if colour != "green" else "red"
    captured = [card(0, C, terrain=t) for t in ("forest", "mountain", "ocean", "swamp")]
    captured += [card(0, C, terrain=terrain), card(0, C, terrain="artifact")]
    result = run([player("Ann", colour, captured=captured), player("Bob", other)])
    assert result.players[0].extra == {"color": colour, "own_color_locations": 2}
    assert f"Ann 2 {colour} ({terrain.capitalize()})" in (result.tiebreak or "")


# --- input errors -------------------------------------------------------------------------------------------

TWO = [player("Ann", "green"), player("Bob", "red")]


def with_ann(**more: Any) -> list[dict[str, Any]]:
    """Two players, Ann's input changed."""
    return [player("Ann", "green", **more), player("Bob", "red")]


INVALID = [
    pytest.param(
        with_ann(minions_familiar=6, minions_unfamiliar=5),
        {},
        "players[0].minions_unfamiliar",
        "Each player has 10 Minions: 6 familiar + 5 unfamiliar = 11 deployed.",
        id="40 Minion Unit pieces: 10 small meeples of each color (familiar + unfamiliar over 10)",
    ),
    pytest.param(
        with_ann(minions_familiar=11),
        {},
        "players[0].minions_familiar",
        "Must be at most 10.",
        id="10 small meeples of each color (one count over 10)",
    ),
    pytest.param(
        with_ann(minions_unfamiliar=-1),
        {},
        "players[0].minions_unfamiliar",
        "Must be at least 0.",
        id="a negative number of Minions",
    ),
    pytest.param(
        with_ann(captured=[card(1, C, terrain="desert")]),
        {},
        "players[0].captured[0].terrain",
        "Must be one of",
        id="Each Location has one of four types: Forest, Mountain, Ocean and Swamp",
    ),
    pytest.param(
        with_ann(captured=[card(1, "wood")]),
        {},
        "players[0].captured[0].resources[0]",
        "Must be one of",
        id="one of three Resources: Crystal, Iron and Gold",
    ),
    pytest.param(
        with_ann(captured=[card(1, C, C)]),
        {},
        "players[0].captured[0].resources",
        "List each resource at most once.",
        id="a card shows each resource at most once",
    ),
    pytest.param(
        with_ann(captured=[card(1, C), card(2)]),
        {},
        "players[0].captured[1].resources",
        "Which resource does this card show?",
        id="notes: every captured card shows at least one resource (none: refused with a question)",
    ),
    pytest.param(
        with_ann(captured=[{"vp": 2, "terrain": "artifact"}]),
        {},
        "players[0].captured[0].resources",
        "Which resource does this card show?",
        id="Artifact cards also feature resources (resources left out: refused with a question)",
    ),
    pytest.param(
        with_ann(captured=[card(21, C)]),
        {},
        "players[0].captured[0].vp",
        "Must be at most 20.",
        id="card VP above the bound is a typo",
    ),
    pytest.param(
        with_ann(captured=[card(-11, C, terrain="artifact")]),
        {},
        "players[0].captured[0].vp",
        "Must be at least -10.",
        id="card VP below the bound is a typo",
    ),
    pytest.param(
        with_ann(captured=[{"vp": "3", "resources": [C], "terrain": "forest"}]),
        {},
        "players[0].captured[0].vp",
        "Enter a whole number.",
        id="strict input: VP as text is an error, not a guess",
    ),
    pytest.param(
        with_ann(captured=[{"resources": [C], "terrain": "forest"}]),
        {},
        "players[0].captured[0].vp",
        "This field is required.",
        id="the app never invents card values: VP is required",
    ),
    pytest.param(
        with_ann(captured=[card(0, C)] * (CAPTURED_MAX + 1)),
        {},
        "players[0].captured",
        "at most 84",
        id="80 Location cards plus one Artifact per player",
    ),
    pytest.param(with_ann(towers=3), {}, "players[0].towers", "Unknown field.", id="unknown fields are errors"),
    pytest.param(
        [player("Ann", "purple"), player("Bob", "red")],
        {},
        "players[0].color",
        "Must be one of",
        id="4 General cards: 1 of each color: green, red, blue, and black",
    ),
    pytest.param(
        [{"name": "Ann"}, player("Bob", "red")],
        {},
        "players[0].color",
        "This field is required.",
        id="Each player chooses a color",
    ),
    pytest.param(
        with_ann(general="skirmish"),
        {},
        "players[0].general",
        "Must be one of",
        id="the General is in Base Camp, on familiar or on unfamiliar terrain",
    ),
    pytest.param(
        [player("Ann", "green"), player("Bob", "green")],
        {},
        "players[1].color",
        "Ann already plays green.",
        id="Each player chooses a color (colours are distinct)",
    ),
    pytest.param(
        with_ann(bonus_objectives=[1, 2, 3, 4]),
        {},
        "players[0].bonus_objectives",
        "at most 3",
        id="Shuffle the seventeen Bonus Objective cards, and deal three to each player",
    ),
    pytest.param(
        with_ann(bonus_objectives=[-1]),
        {},
        "players[0].bonus_objectives[0]",
        "Must be at least 0.",
        id="Bonus Objectives can offer additional VP (never negative)",
    ),
    pytest.param(
        TWO,
        {"mastery": [{"name": "Explorer", "vp": 5, "leaders": ["Ann", "Zed"]}]},
        "options.mastery[0].leaders[1]",
        "Zed is not playing.",
        id="The player who best meets the condition: a leader must be a player",
    ),
    pytest.param(
        TWO,
        {"mastery": [{"name": "Explorer", "vp": 5, "leaders": ["Ann", "ann"]}]},
        "options.mastery[0].leaders[1]",
        "Ann is listed twice.",
        id="a leader is listed once",
    ),
    pytest.param(
        TWO,
        {"mastery": [{"name": "A", "vp": 5}, {"name": "B", "vp": 5}]},
        "options.mastery",
        "With 2 players, 1 Mastery Objective is dealt; 2 given.",
        id="deal one fewer card than the number of players to the center of the table",
    ),
    pytest.param(
        TWO,
        {"mastery": [{"name": "A", "vp": -1}]},
        "options.mastery[0].vp",
        "Must be at least 0.",
        id="the points listed on a Mastery card are not negative",
    ),
    pytest.param(
        [player("Ann", "green", captured=[card(0, C)] * 15), player("Bob", "red", captured=[card(0, C)] * 6)],
        {},
        "players[1].captured",
        "The game has only 20 Forest Locations in play; 21 captured so far.",
        id="80 Location cards: 20 of each terrain type",
    ),
    pytest.param(
        [
            player("Ann", "green", captured=[card(0, C, terrain="artifact")] * 2),
            player("Bob", "red", captured=[card(0, C, terrain="artifact")]),
        ],
        {},
        "players[1].captured",
        "The game has only 2 Artifacts in play; 3 captured so far.",
        id="place a number of cards equal to the number of players to the Skirmish area",
    ),
    pytest.param([player("Ann", "green")], {}, "players", "2 to 4 players", id="2-4 players: one is too few"),
    pytest.param(
        [player(n, c) for n, c in zip("ABCDE", ("green", "red", "blue", "black", "green"), strict=True)],
        {},
        "players",
        "2 to 4 players",
        id="2-4 players: five is too many",
    ),
]


@pytest.mark.parametrize(("players", "options", "field", "message"), INVALID)
def test_invalid_input(players: list[dict], options: dict, field: str, message: str) -> None:
    """Bad input raises InputErrors with a message on the field to fix."""
    with pytest.raises(InputErrors) as caught:
        run(players, options)
    got = caught.value.for_field(field)
    assert got is not None, caught.value.to_dict()
    assert message in got


def test_a_forgotten_resource_is_asked_for_not_scored_as_no_set() -> None:
    """notes: 'a card entered without one is refused with a question', so a forgotten resource never silently
    costs a set: crystal, iron and a card whose gold was left out are refused, not scored as no set."""
    for forgotten in (card(2, terrain="ocean"), {"vp": 2, "terrain": "ocean"}):
        with pytest.raises(InputErrors) as caught:
            run(with_ann(captured=[card(0, C), card(0, I), forgotten]))
        assert caught.value.to_dict() == {
            "errors": [{"field": "players[0].captured[2].resources", "message": "Which resource does this card show?"}]
        }


# --- pure functions -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vp", "leaders", "share"),
    [
        pytest.param(7, 1, 7, id="a single leader gets the points listed"),
        pytest.param(7, 2, 3, id="7 split 2 ways, rounded down: 3"),
        pytest.param(7, 3, 2, id="7 split 3 ways, rounded down: 2"),
        pytest.param(3, 4, 0, id="3 split 4 ways, rounded down: 0"),
        pytest.param(8, 4, 2, id="8 split 4 ways evenly: 2"),
        pytest.param(5, 0, 0, id="If the objective is met: no leader, nobody scores"),
    ],
)
def test_mastery_share(vp: int, leaders: int, share: int) -> None:
    """'the points will be divided evenly amongst the tied players, rounded down'."""
    assert mastery_share(vp, leaders) == share


@pytest.mark.parametrize(
    ("cards", "sets", "binding"),
    [
        pytest.param([], 0, {C, I, G}, id="no cards, no sets"),
        pytest.param([[C], [C], [I], [I]], 0, {G}, id="gold missing binds on gold"),
        pytest.param([[C, I], [G], [G], [G]], 0, {C, I}, id="one card for crystal and iron binds on the pair"),
        pytest.param([[C], [I], [G]] * 2 + [[C]], 2, {C, I, G}, id="7 cards allow 2 sets"),
        pytest.param([[C, I, G]] * 9 + [[I]] * 3, 4, {C, I, G}, id="12 cards, 4 sets"),
        pytest.param([[C, I]] * 6 + [[G]] * 6, 3, {C, I}, id="6 crystal-or-iron cards fill 3 sets"),
    ],
)
def test_set_limit(cards: list[list[str]], sets: int, binding: set[str]) -> None:
    """The count of sets and the resource subset that bounds it, for the explanation."""
    assert set_limit(resource_mix(cards)) == (sets, frozenset(binding))
    assert exhaustive_sets(cards) == sets


def test_resource_mix_ignores_order_duplicates_and_blank_cards() -> None:
    """Cards are counted by the set of resources they show; a card showing none joins no set."""
    mix = resource_mix([[C, I], [I, C], [], [G]])
    assert mix == {frozenset({C, I}): 2, frozenset({G}): 1}


# --- properties ---------------------------------------------------------------------------------------------


@FAST
@given(resource_lists)
def test_sets_equal_exhaustive_search(cards: list[list[str]]) -> None:
    """Hall's formula equals trying every resource choice, for every small mix."""
    assert resource_sets(cards) == exhaustive_sets(cards)


@FAST
@given(st.lists(st.lists(st.sampled_from(RESOURCES), unique=True, min_size=1, max_size=3), max_size=40))
def test_sets_equal_matching_up_to_forty_cards(cards: list[list[str]]) -> None:
    """Hall's formula equals maximum bipartite matching, up to 40 cards."""
    assert resource_sets(cards) == matching_sets(cards)


@FAST
@given(resource_lists)
def test_sets_never_beat_the_card_count(cards: list[list[str]]) -> None:
    """Each set takes 3 different cards."""
    assert 3 * resource_sets(cards) <= sum(1 for c in cards if c)


NAMES = ("Ann", "Bob", "Cy", "Di")
LOCATION_TERRAINS = ("forest", "mountain", "ocean", "swamp")


# Every resource combination a card can show (at least one resource: docs/rules.md): one draw per card keeps
# generation quick.
SHOWN = [list(c) for n in range(1, 4) for c in itertools.combinations(RESOURCES, n)]
LOCATION_CARDS = st.tuples(st.integers(0, 20), st.sampled_from(SHOWN), st.sampled_from(LOCATION_TERRAINS))
ARTIFACT_CARDS = st.tuples(st.integers(-10, 20), st.sampled_from(SHOWN), st.just("artifact"))


@st.composite
def games(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A valid game: 2-4 players in distinct colours, at most 4 Locations and 1 Artifact each, Mastery cards."""
    count = draw(st.integers(2, 4))
    colours = draw(st.permutations(["green", "red", "blue", "black"]))
    players = []
    for name, colour in zip(NAMES[:count], colours, strict=False):  # the first `count` of the four colours
        # At most 4 Locations each keeps any terrain under its 20 cards, even after one more is added.
        drawn = draw(st.lists(LOCATION_CARDS, max_size=4)) + draw(st.lists(ARTIFACT_CARDS, max_size=1))
        familiar = draw(st.integers(0, 10))
        players.append(
            player(
                name,
                colour,
                captured=[card(vp, *shown, terrain=terrain) for vp, shown, terrain in drawn],
                minions_familiar=familiar,
                minions_unfamiliar=draw(st.integers(0, 10 - familiar)),
                general=draw(st.sampled_from(["base", "familiar", "unfamiliar"])),
                bonus_objectives=draw(st.lists(st.integers(0, 30), max_size=3)),
            )
        )
    names = [p["name"] for p in players]
    leaders = st.lists(st.sampled_from(names), unique=True)
    mastery = draw(st.lists(st.tuples(st.integers(0, 20), leaders), max_size=count - 1))
    return players, {"mastery": [{"name": f"M{i}", "vp": vp, "leaders": who} for i, (vp, who) in enumerate(mastery)]}


@GAMES
@given(games())
def test_total_is_the_sum_of_the_breakdown(game: tuple[list[dict], dict]) -> None:
    """The total is the sum of the lines, and every line is present in order."""
    answer = run(*game).to_dict()
    for p in answer["players"]:
        assert [line["key"] for line in p["breakdown"]] == KEYS
        assert p["total"] == sum(line["points"] for line in p["breakdown"])


@GAMES
@given(games(), st.randoms(use_true_random=False))
def test_reordering_players_changes_no_total_or_rank(game: tuple[list[dict], dict], rng: random.Random) -> None:
    """Turn order plays no part in the final score or the ranking."""
    players, options = game
    shuffled = players[:]
    rng.shuffle(shuffled)
    before = {p.name: (p.total, p.rank) for p in run(players, options).players}
    after = {p.name: (p.total, p.rank) for p in run(shuffled, options).players}
    assert before == after


@GAMES
@given(
    games(),
    st.data(),
    st.integers(0, 20),
    st.lists(st.sampled_from(RESOURCES), unique=True, min_size=1, max_size=3),
    st.sampled_from(LOCATION_TERRAINS),
)
def test_another_card_never_lowers_a_score(
    game: tuple[list[dict], dict], data: st.DataObject, vp: int, resources: list[str], terrain: str
) -> None:
    """Capturing one more card worth 0 or more VP never lowers the player's total."""
    players, options = game
    i = data.draw(st.integers(0, len(players) - 1))
    before = run(players, options).players[i].total
    grown = [dict(p) for p in players]
    grown[i]["captured"] = grown[i]["captured"] + [card(vp, *resources, terrain=terrain)]
    assert run(grown, options).players[i].total >= before + vp


@GAMES
@given(games(), st.data())
def test_more_familiar_minions_never_lower_a_score(game: tuple[list[dict], dict], data: st.DataObject) -> None:
    """One more Minion on familiar terrain, or one moved there from unfamiliar, never lowers the total."""
    players, options = game
    i = data.draw(st.integers(0, len(players) - 1))
    p = players[i]
    before = run(players, options).players[i].total
    changed = dict(p)
    if p["minions_familiar"] + p["minions_unfamiliar"] < 10:
        changed["minions_familiar"] += 1
    elif p["minions_unfamiliar"]:
        changed["minions_familiar"] += 1
        changed["minions_unfamiliar"] -= 1
    after = run([*players[:i], changed, *players[i + 1 :]], options).players[i].total
    assert after >= before


# --- setup, notes and declaration ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_setup_follows_the_rulebook(count: int) -> None:
    """Setup: 3 Bonus Objectives each, 8 Locations each, Artifacts = players, Mastery = players - 1."""
    steps = GAME.setup(count, SperosOptions())
    text = " ".join(steps)
    assert len(steps) == 6
    assert f"({3 * count} in all)" in text
    assert "deal 8 to each player" in text
    assert f"place {count} in the Skirmish Area" in text
    assert f"Optional: deal {count - 1} Mastery Objectives" in text
    assert steps[-1] == "Randomly choose the starting player."


def test_setup_with_mastery_deals_them() -> None:
    """'If playing with the optional Mastery Objectives, deal one fewer card than the number of players'."""
    options = SperosOptions.model_validate({"mastery": [{"name": "Explorer", "vp": 5}]})
    assert GAME.setup(3, options)[4].startswith("Deal 2 Mastery Objectives")


def test_reference_notes_remind_without_card_data() -> None:
    """Notes remind how Artifacts and objectives are entered, and name no printed card value."""
    notes = GAME.reference_notes(SperosOptions()) if GAME.reference_notes else []
    assert any("Artifact count as unfamiliar" in note for note in notes)
    assert not any(ch.isdigit() for note in notes for ch in note)


def test_game_declaration() -> None:
    """The registry contract: id, name, player counts, colours, breakdown."""
    assert (GAME.id, GAME.name, GAME.min_players, GAME.max_players) == ("speros", "Conquest of Speros", 2, 4)
    assert GAME.colours == ("green", "red", "blue", "black")
    assert (
        [key for key, _ in GAME.breakdown]
        == KEYS
        == [
            "captured",
            "resource_sets",
            "minions",
            "general",
            "bonus_objective",
            "mastery",
        ]
    )
    assert GAME.check is not None and GAME.setup is not None


def test_a_location_showing_negative_vp_scores_what_it_shows() -> None:
    """The app never invents card data: a card's printed VP is taken as entered, negative included."""
    result = GAME.score_raw(
        [
            {"name": "Ann", "color": "green", "captured": [{"vp": -2, "resources": ["crystal"], "terrain": "forest"}]},
            {"name": "Bob", "color": "red"},
        ]
    )
    assert result.players[0].points("captured") == -2
