"""Conquest of Speros live play (speros.LIVE through games/live.py), each case tied to the rule sentence or
project decision it checks.

Rule text: the Conquest of Speros rulebook ("Turn Structure", "Additional Notes", "Scoring",
"Ancient Artifacts"). Decisions: docs/rules.md, "Conquest of Speros". Pure: no Flask, no database.
RULE_SENTENCES, at the end, lists the rule text's sentences one by one with the tests that check each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import live, speros, turns
from companion.games.base import InputErrors, Note
from companion.games.speros import GAME, SperosOptions
from tests.rules.tools import (
    LAST,
    NAMES,
    NEXT,
    SPEROS_COLOURS,
    Step,
    act,
    camp,
    capture,
    card_of,
    context,
    explore,
    play,
    points,
    refusal,
    units,
)

# "Forest (green), Mountain (red), Ocean (blue), Swamp (black)": written out here, not taken from speros.
HOME = {"green": "forest", "red": "mountain", "blue": "ocean", "black": "swamp"}
TERRAINS = ("forest", "mountain", "ocean", "swamp")

# Raw actions as the JSON API takes them (NEXT, LAST and the other helpers: tests/rules/tools.py).
UNLAST = {"action": "last_drawn", "drawn": False}
# Said with every refusal once the game is over (written out here, not taken from speros).
AFTER_THE_END = "Only the Bonus Objectives and the Mastery Objectives can still be entered; then finish and score."


def deploy(card: int, kind: str = "minion") -> dict[str, Any]:
    """Attack (a Minion) or Lead (the General) to a card."""
    return {"action": "deploy", "card": card, "kind": kind}


def move(card: int, to: int, kind: str = "minion") -> dict[str, Any]:
    """An ability moves a unit from one card to another."""
    return {"action": "move", "card": card, "to": to, "kind": kind}


def remove(card: int, kind: str = "minion") -> dict[str, Any]:
    """An ability destroys (returns) a unit to its Base Camp."""
    return {"action": "remove", "card": card, "kind": kind}


def bonus(number: int, value: int) -> dict[str, Any]:
    """What one of a player's three Bonus Objectives would score."""
    return {"action": "set", "field": f"bonus_{number}", "value": value}


def mastery(number: int, vp: int, *leaders: str) -> dict[str, Any]:
    """A Mastery Objective in play, its VP and who best meets it."""
    return {"action": "mastery", "number": number, "vp": vp, "leaders": list(leaders)}


def scored(state: live.State, ctx: live.Context) -> dict[str, dict[str, int]]:
    """Every player's breakdown as it stands, {name: {key: points}}."""
    result = live.standing(GAME, state, ctx).result
    return {name: points(result, name) for name in ctx.names}


def everything(who: str, card: int) -> list[Step]:
    """All of a player's 11 units (10 Minions and the General) deployed to one card."""
    return [(who, deploy(card))] * 10 + [(who, deploy(card, "general"))]


# --- Explore: "If the Location's color does not match your Units' color, deploy one of your Minions" ------------

EXPLORE = [
    pytest.param(
        seat,
        terrain,
        HOME[SPEROS_COLOURS[seat]] != terrain,
        id=(
            f"Explore: {NAMES[seat]} ({SPEROS_COLOURS[seat]}) explores a {terrain} Location: "
            + (
                "does not match your Units' color, deploy one of your Minions"
                if HOME[SPEROS_COLOURS[seat]] != terrain
                else "If the Location's color does match your Units' color, do not deploy a Minion"
            )
        ),
    )
    for seat in range(4)
    for terrain in TERRAINS
]


@pytest.mark.parametrize(("seat", "terrain", "deployed"), EXPLORE)
def test_explore_deploys_a_minion_unless_the_colour_matches(seat: int, terrain: str, deployed: bool) -> None:
    """The card goes into the Skirmish Area; a Minion of the explorer's follows it unless it is their colour."""
    ctx = context(4)
    who = NAMES[seat]
    state, _, said = play(4, [(who, explore(terrain, encampments=3, vp=2, resources=["iron"]))], ctx)
    card = card_of(state, 1)
    assert (card["terrain"], card["encampments"], card["vp"], card["resources"], card["captured_by"]) == (
        terrain,
        3,
        2,
        ["iron"],
        None,
    )
    name = f"{terrain.capitalize()} card 1"
    if deployed:
        assert units(state, ctx, 1) == [(who, "minion")]
        assert camp(state, ctx, who) == {"minion": 9, "general": 1}
        assert said == [f"{name} (2 VP, iron) is in the Skirmish Area.", f"{who} deploys a Minion there."]
    else:
        assert units(state, ctx, 1) == []
        assert camp(state, ctx, who) == {"minion": 10, "general": 1}
        assert said == [
            f"{name} (2 VP, iron) is in the Skirmish Area.",
            f"It is {who}'s own colour: no Minion is deployed.",
        ]


@pytest.mark.parametrize(
    "terrain",
    [*TERRAINS, "artifact"],
    ids=lambda t: (
        f"Setup 3. Each player simultaneously puts one Location into the Skirmish Area ({t}): nobody "
        "explores, no Minion"
    ),
)
def test_a_card_put_in_by_nobody_deploys_nothing(terrain: str) -> None:
    """A card put into play at setup (or by an ability), with no player: no unit is deployed for anyone."""
    encampments = None if terrain == "artifact" else 2
    state, ctx, said = play(3, [(None, explore(terrain, encampments=encampments, vp=1, resources=["gold", "crystal"]))])
    assert units(state, ctx, 1) == []
    assert all(camp(state, ctx, name) == {"minion": 10, "general": 1} for name in ctx.names)
    assert len(said) == 1 and said[0].endswith("(1 VP, gold and crystal) is in the Skirmish Area.")


def test_explore_with_no_minion_left_still_puts_the_card_in_play() -> None:
    """'deploy one of your Minions': with all 10 deployed there is none to deploy; the card still goes in."""
    steps = [(None, explore("ocean", encampments=12))] + [("Ann", deploy(1))] * 10
    state, ctx, _ = play(2, steps)
    applied = act(state, ctx, "Ann", explore("mountain", encampments=3))
    assert units(applied.state, ctx, 2) == []
    assert applied.said == (
        "Mountain card 2 (1 VP, gold) is in the Skirmish Area.",
        "Ann has no Minion left in Base Camp to deploy there.",
    )


def test_explore_onto_a_one_space_location_says_it_may_be_captured() -> None:
    """'Achieve Majority: When a Location has no unoccupied spaces remaining': the explorer's Minion fills it."""
    _, _, said = play(2, [("Bob", explore("forest", encampments=1))])
    assert said[-1] == (
        "Bob may capture Forest card 1: The 1 encampment is occupied and Bob has the most units (1): "
        "Bob achieves majority."
    )


def test_cards_are_numbered_in_the_order_they_come_into_play() -> None:
    """The tracker numbers cards 1, 2, 3 as they enter the Skirmish Area, whoever puts them there."""
    state, _, _ = play(2, [(None, explore("forest")), ("Bob", explore("swamp")), (None, explore("artifact"))])
    assert [(c["id"], c["terrain"]) for c in state["table"]["cards"]] == [(1, "forest"), (2, "swamp"), (3, "artifact")]
    assert state["table"]["next_card"] == 4


EXPLORE_REFUSED = [
    pytest.param(
        {**explore(), "resources": []},
        {"resources": "Which resource does this card show?"},
        id="Each Location also features one of three Resources: none ticked asks Which resource does this card show?",
    ),
    pytest.param(
        {key: value for key, value in explore().items() if key != "resources"},
        {"resources": "Which resource does this card show?"},
        id="Each Location also features one of three Resources: none given asks Which resource does this card show?",
    ),
    pytest.param(
        explore("artifact", resources=[]),
        {"resources": "Which resource does this card show?"},
        id="Artifact cards also feature resources: an Artifact without one is asked too",
    ),
    pytest.param(
        explore(resources=["gold", "gold"]),
        {"resources": "List each resource at most once."},
        id="one of three Resources: Crystal, Iron and Gold; the same one twice is a typo",
    ),
    pytest.param(
        explore(resources=["silver"]),
        {"resources[0]": "Must be one of 'crystal', 'iron' or 'gold'."},
        id="one of three Resources: Crystal, Iron and Gold, nothing else",
    ),
    pytest.param(
        explore("plains"),
        {"terrain": "Must be one of 'forest', 'mountain', 'ocean', 'swamp' or 'artifact'."},
        id="Each Location has one of four types: Forest, Mountain, Ocean and Swamp (or an Artifact)",
    ),
]


@pytest.mark.parametrize(("raw", "errors"), EXPLORE_REFUSED)
def test_explore_refused(raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A card with no resource, a repeated or unknown resource, an unknown terrain: refused beside its field."""
    state, ctx, _ = play(2, [])
    assert refusal(state, ctx, "Bob", raw) == errors


def test_one_resource_from_a_form_is_text() -> None:
    """A form sends one ticked resource as text: lax parsing takes it as a list of one."""
    ctx = context(2)
    raw = {**explore("swamp"), "resources": "crystal"}
    action = live.parse_action(GAME, raw, 0, strict=False)
    state = live.apply(GAME, GAME.live.start(2, SperosOptions()), action, ctx).state
    assert card_of(state, 1)["resources"] == ["crystal"]


# --- Deploy: "a player moves it from his or her Base Camp into an unoccupied encampment" ---------------------------

# Ann captures Forest card 1 with her General and a Minion on it.
FOREST_CAPTURED = [
    (None, explore("forest", encampments=3)),
    ("Ann", deploy(1, "general")),
    ("Ann", deploy(1)),
    ("Ann", capture(1)),
]

DEPLOY_REFUSED = [
    # (steps before, who, action, {field: message})
    pytest.param(
        [(None, explore("forest", encampments=1)), ("Ann", deploy(1))],
        "Bob",
        deploy(1),
        {"card": "Forest card 1 has no unoccupied encampment."},
        id="To deploy a Unit, a player moves it ... into an UNOCCUPIED encampment: a full card is refused",
    ),
    pytest.param(
        [(None, explore("forest", encampments=1)), ("Ann", deploy(1))],
        "Bob",
        deploy(1, "general"),
        {"card": "Forest card 1 has no unoccupied encampment."},
        id="Lead: Deploy your General ... into an unoccupied encampment: a full card is refused",
    ),
    pytest.param(
        FOREST_CAPTURED,
        "Bob",
        deploy(1),
        {"card": "Forest card 1 is in Ann's Captured Area: no unit can be deployed there."},
        id="Players cannot perform the Attack or Lead actions on Locations in a player's Captured Area: Attack",
    ),
    pytest.param(
        FOREST_CAPTURED,
        "Ann",
        deploy(1),
        {"card": "Forest card 1 is in Ann's Captured Area: no unit can be deployed there."},
        id="Players cannot perform the Attack or Lead actions on Locations in a player's Captured Area: nor its owner",
    ),
    pytest.param(
        [(None, explore("ocean", encampments=3)), ("Ann", deploy(1)), ("Ann", deploy(1)), ("Ann", capture(1))],
        "Bob",
        deploy(1, "general"),
        {"card": "Ocean card 1 is in Ann's Captured Area: no unit can be deployed there."},
        id="Players cannot perform the Attack or Lead actions on Locations in a player's Captured Area: Lead",
    ),
    pytest.param(
        [(None, explore("artifact")), ("Ann", deploy(1)), ("Ann", deploy(1)), ("Ann", deploy(1)), ("Ann", capture(1))],
        "Bob",
        deploy(1),
        {"card": "Artifact 1 is in Ann's Captured Area: no unit can be deployed there."},
        id="Units on a captured Ancient Artifact are locked ... In addition, new units may not be added",
    ),
    pytest.param(
        [(None, explore("ocean", encampments=12))] + [("Bob", deploy(1))] * 10,
        "Bob",
        deploy(1),
        {"kind": "Bob has no Minion left in Base Camp."},
        id="10 small meeples of each color: an 11th Minion is refused",
    ),
    pytest.param(
        [(None, explore("ocean", encampments=3)), (None, explore("swamp", encampments=9))]
        + [("Bob", deploy(1))] * 3
        + [("Bob", deploy(2))] * 7,
        "Bob",
        deploy(2),
        {"kind": "Bob has no Minion left in Base Camp."},
        id="10 small meeples of each color: counted over every card",
    ),
    pytest.param(
        [(None, explore("ocean", encampments=3)), ("Cy", deploy(1, "general"))],
        "Cy",
        deploy(1, "general"),
        {"kind": "Cy has no General left in Base Camp."},
        id="1 large meeple of each color: a second General is refused",
    ),
    pytest.param(
        [(None, explore("ocean", encampments=12)), *everything("Cy", 1)],
        "Cy",
        deploy(1, "general"),
        {"kind": "Cy has no General left in Base Camp."},
        id="Base Camp: A player's gameplay area consisting of his or her undeployed Units: empty",
    ),
    pytest.param(
        [(None, explore())],
        "Ann",
        deploy(2),
        {"card": "There is no card 2 in play."},
        id="Attack: Deploy one of your Minions to any Location IN THE SKIRMISH AREA: not a card never played",
    ),
    pytest.param(
        [(None, explore())],
        None,
        deploy(1),
        {"player": "Say which player this is for."},
        id="deploy needs a player",
    ),
    pytest.param(
        [(None, explore())],
        "Ann",
        deploy(1, "captain"),
        {"kind": "Must be one of 'minion' or 'general'."},
        id="Units are Minions and the General",
    ),
]


@pytest.mark.parametrize(("steps", "who", "raw", "errors"), DEPLOY_REFUSED)
def test_deploy_refused(steps: list[Step], who: str | None, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A full card, a captured card, an empty Base Camp: refused beside the right field."""
    state, ctx, _ = play(3, steps)
    assert refusal(state, ctx, who, raw) == errors


def test_ten_minions_and_the_general_can_all_be_deployed() -> None:
    """'takes the eleven wooden unit pieces': 10 Minions and the General, all deployable, Base Camp then empty."""
    state, ctx, said = play(2, [(None, explore("swamp", encampments=12)), *everything("Bob", 1)])
    assert camp(state, ctx, "Bob") == {"minion": 0, "general": 0}
    assert units(state, ctx, 1) == [("Bob", "minion")] * 10 + [("Bob", "general")]
    assert "Bob deploys a General to Swamp card 1." in said


def test_remove_returns_the_unit_to_base_camp() -> None:
    """'Exile: To exile a Minion, remove it from a card, and return it to its player's Base Camp.'"""
    state, ctx, _ = play(2, [(None, explore("ocean", encampments=12))] + [("Bob", deploy(1))] * 10)
    applied = act(state, ctx, "Bob", remove(1))
    assert camp(applied.state, ctx, "Bob") == {"minion": 1, "general": 1}
    assert applied.said[0] == "Bob's Minion leaves Ocean card 1 for the Base Camp."
    # ... and can be deployed again.
    assert camp(act(applied.state, ctx, "Bob", deploy(1)).state, ctx, "Bob") == {"minion": 0, "general": 1}


MOVE_REMOVE_REFUSED = [
    pytest.param(
        [
            (None, explore("forest", encampments=2)),
            (None, explore("ocean", encampments=1)),
            ("Ann", deploy(1)),
            ("Bob", deploy(2)),
        ],
        "Ann",
        move(1, 2),
        {"to": "Ocean card 2 has no unoccupied encampment."},
        id="an ability moves a unit into an unoccupied encampment only",
    ),
    pytest.param(
        [(None, explore("forest")), ("Ann", deploy(1))],
        "Bob",
        remove(1),
        {"kind": "Bob has no Minion on Forest card 1."},
        id="Exile: remove it from a card: a unit that is not there",
    ),
    pytest.param(
        [(None, explore("forest")), ("Ann", deploy(1))],
        "Ann",
        remove(1, "general"),
        {"kind": "Ann has no General on Forest card 1."},
        id="Exile: remove a General that is not on the card",
    ),
]


@pytest.mark.parametrize(("steps", "who", "raw", "errors"), MOVE_REMOVE_REFUSED)
def test_move_and_remove_refused(steps: list[Step], who: str, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A move to a full card, a unit that isn't there."""
    state, ctx, _ = play(2, steps)
    assert refusal(state, ctx, who, raw) == errors


# --- Capture: the rule text's two worked examples, played through actions ----------------------------------------

RED_GREEN = context(2, names=("Red", "Green"), colours=("red", "green"))


def test_example_1_general_and_minion_on_a_three_space_location() -> None:
    """'Example 1: Red places his or her General and a Minion on a three-space Location. Red may capture this card
    because even if another player deployed a Unit to the unoccupied space, Red would still have majority.'"""
    ctx = RED_GREEN
    state, _, _ = play(2, [(None, explore("ocean", encampments=3)), ("Red", deploy(1, "general"))], ctx)
    # The General alone is not enough: two empty spaces could give Green 2.
    assert refusal(state, ctx, "Red", capture(1)) == {
        "card": "Red can't capture Ocean card 1: Red has the most units (1), but another player could fill the "
        "2 empty encampments and reach 2, then win a tie as the most recent to place: no capture yet."
    }
    # Lead: 'If that Location has a remaining unoccupied encampment, you may also deploy one of your Minions'.
    applied = act(state, ctx, "Red", deploy(1))
    assert applied.said == (
        "Red deploys a Minion to Ocean card 1.",
        (
            "Red may capture Ocean card 1: Red has 2 units; even if the 1 empty encampment were filled by another "
            "player, they could reach only 1: Red demonstrates majority."
        ),
    )
    assert refusal(applied.state, ctx, "Green", capture(1)) == {
        "card": "Green can't capture Ocean card 1: Red has 2 units; even if the 1 empty encampment were filled by "
        "another player, they could reach only 1: Red demonstrates majority."
    }
    captured = act(applied.state, ctx, "Red", capture(1))
    assert captured.said == ("Red captures Ocean card 1 (demonstrate majority).",)
    assert card_of(captured.state, 1)["captured_by"] == 0
    # 'No player's Units are removed from the Location when it's captured.'
    assert units(captured.state, ctx, 1) == [("Red", "general"), ("Red", "minion")]


def test_example_2_the_rule_of_ties_decides() -> None:
    """'Example 2: Red places a Unit on a four-space Location. On the next turn, Green places his or her General and a
    Minion to the same card. Green may not capture this card. Though Green currently holds majority, Red could play a
    Unit to the last space and capture that card with the Rule of Ties.'"""
    ctx = RED_GREEN
    # Red explores a Forest (green, not Red's colour): the Explore deploys Red's Minion there.
    steps = [
        ("Red", explore("forest", encampments=4)),
        (None, NEXT),
        ("Green", deploy(1, "general")),
        ("Green", deploy(1)),
    ]
    state, _, said = play(2, steps, ctx)
    assert said[1] == "Red deploys a Minion there."
    why = (
        "Green has the most units (2), but another player could fill the 1 empty encampment and reach 2, then win "
        "a tie as the most recent to place: no capture yet."
    )
    assert refusal(state, ctx, "Green", capture(1)) == {"card": f"Green can't capture Forest card 1: {why}"}
    assert refusal(state, ctx, "Red", capture(1)) == {"card": f"Red can't capture Forest card 1: {why}"}
    # Red's next turn: a Unit to the last space.
    state = act(state, ctx, None, NEXT).state
    applied = act(state, ctx, "Red", deploy(1))
    tie = (
        "All 4 encampments are occupied and Red and Green tie with 2 units each: Red placed a unit there most "
        "recently and captures it (rule of ties)."
    )
    assert applied.said == ("Red deploys a Minion to Forest card 1.", f"Red may capture Forest card 1: {tie}")
    assert refusal(applied.state, ctx, "Green", capture(1)) == {"card": f"Green can't capture Forest card 1: {tie}"}
    captured = act(applied.state, ctx, "Red", capture(1))
    assert captured.said == ("Red captures Forest card 1 (achieve majority).",)
    assert card_of(captured.state, 1)["captured_by"] == 0
    # 'a deployed Unit earns VP whether it's on an uncaptured Location or a captured Location, regardless of who
    # captured it': Green's General (3) and Minion (2) on a Forest, Green's colour, in Red's Captured Area.
    score = scored(captured.state, ctx)
    assert (score["Green"]["general"], score["Green"]["minions"]) == (3, 2)
    assert (score["Red"]["captured"], score["Red"]["minions"], score["Red"]["general"]) == (1, 2, 0)


TIES = [
    # (encampments, placements as steps after the card is in play, the capturer)
    pytest.param(
        3,
        [("Ann", deploy(1)), ("Bob", deploy(1)), ("Cy", deploy(1))],
        "Cy",
        id="Rule of Ties: all encampments occupied, a three-way tie: the tying player to have most recently placed",
    ),
    pytest.param(
        5,
        [("Ann", deploy(1)), ("Bob", deploy(1)), ("Ann", deploy(1)), ("Bob", deploy(1)), ("Cy", deploy(1))],
        "Bob",
        id="Rule of Ties: the TYING player to have most recently placed: Cy placed last but does not tie",
    ),
    pytest.param(
        6,
        [
            ("Ann", deploy(1)),
            ("Bob", deploy(1)),
            ("Cy", deploy(1)),
            ("Cy", deploy(1)),
            ("Bob", deploy(1)),
            ("Ann", deploy(1, "general")),
        ],
        "Ann",
        id="Rule of Ties: 2 each for three players, Ann's General placed last (a General counts as one unit)",
    ),
    pytest.param(
        3,
        [("Ann", deploy(1)), ("Bob", deploy(1)), ("Cy", deploy(1)), ("Bob", remove(1)), ("Bob", deploy(1))],
        "Bob",
        id="Rule of Ties: most RECENTLY placed: Bob's Minion destroyed and placed again is the latest",
    ),
    pytest.param(
        4,
        [("Ann", deploy(1)), ("Bob", deploy(1)), ("Cy", deploy(1)), ("Ann", deploy(1))],
        "Ann",
        id="Achieve Majority with three players: the player with the most Units, no tie",
    ),
]


@pytest.mark.parametrize(("encampments", "steps", "winner"), TIES)
def test_rule_of_ties_with_three_players(encampments: int, steps: list[Step], winner: str) -> None:
    """'In the event that all of a Location's encampments are occupied and there is a tie for majority, the tying
    player to have most recently placed a Unit to that Location captures the card': only that player may."""
    state, ctx, said = play(3, [(None, explore("swamp", encampments=encampments)), *steps])
    assert said[-1].startswith(f"{winner} may capture Swamp card 1: All {encampments} encampments are occupied")
    for loser in ctx.names:
        if loser != winner:
            assert refusal(state, ctx, loser, capture(1))["card"].startswith(f"{loser} can't capture Swamp card 1: ")
    captured = act(state, ctx, winner, capture(1))
    assert captured.said == (f"{winner} captures Swamp card 1 (achieve majority).",)
    assert card_of(captured.state, 1)["captured_by"] == ctx.names.index(winner)


CAPTURE_REFUSED = [
    pytest.param(
        [(None, explore("forest"))],
        "Ann",
        capture(1),
        {"card": "Ann can't capture Forest card 1: Nobody has a unit here yet."},
        id="There are two ways for a player to capture a Location: neither on an empty card",
    ),
    pytest.param(
        [(None, explore("forest", encampments=2)), ("Ann", deploy(1)), ("Bob", deploy(1))],
        "Ann",
        capture(1),
        {
            "card": "Ann can't capture Forest card 1: All 2 encampments are occupied and Ann and Bob tie with 1 unit "
            "each: Bob placed a unit there most recently and captures it (rule of ties)."
        },
        id="Rule of Ties: the tying player who placed EARLIER may not capture",
    ),
    pytest.param(
        [(None, explore("forest", encampments=3)), ("Ann", deploy(1)), ("Ann", deploy(1))],
        "Bob",
        capture(1),
        {
            "card": "Bob can't capture Forest card 1: Ann has 2 units; even if the 1 empty encampment were filled by "
            "another player, they could reach only 1: Ann demonstrates majority."
        },
        id="Demonstrate Majority is the demonstrating player's: not another player's",
    ),
    pytest.param(
        [(None, explore("forest", encampments=3)), ("Ann", deploy(1)), ("Ann", deploy(1)), ("Ann", capture(1))],
        "Ann",
        capture(1),
        {"card": "Ann can't capture Forest card 1: Captured by Ann."},
        id="Capture: Move a Location from the Skirmish Area to a Captured Area: not twice",
    ),
    pytest.param(
        [(None, explore("forest"))],
        "Ann",
        capture(2),
        {"card": "There is no card 2 in play."},
        id="capture: a card that is not in play",
    ),
    pytest.param(
        [(None, explore("forest", encampments=1)), ("Ann", deploy(1))],
        None,
        capture(1),
        {"player": "Say which player this is for."},
        id="capture needs a player",
    ),
]


@pytest.mark.parametrize(("steps", "who", "raw", "errors"), CAPTURE_REFUSED)
def test_capture_refused(steps: list[Step], who: str | None, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """Only the player who achieves or demonstrates majority captures, and only a card still in the Skirmish Area."""
    state, ctx, _ = play(3, steps)
    assert refusal(state, ctx, who, raw) == errors


def test_a_captured_location_is_never_uncaptured() -> None:
    """'Regardless of the Units moved onto or off its encampments, a captured Location cannot become uncaptured';
    'Units in that zone may still be affected by card abilities'; its units still score."""
    steps = [
        (None, explore("forest", encampments=3)),
        (None, explore("ocean", encampments=4)),
        ("Ann", deploy(1)),
        ("Ann", deploy(1)),
        ("Bob", deploy(1)),
        ("Ann", capture(1)),
        ("Bob", deploy(2)),
        ("Bob", deploy(2)),
    ]
    state, ctx, said = play(2, steps)
    assert said[-3] == "Ann captures Forest card 1 (achieve majority)."
    # 'No player's Units are removed from the Location when it's captured.'
    assert units(state, ctx, 1) == [("Ann", "minion"), ("Ann", "minion"), ("Bob", "minion")]
    # Abilities take both of Ann's Minions off and move two of Bob's onto it: Bob now has every unit there.
    for who, raw in [("Ann", remove(1)), ("Ann", remove(1)), ("Bob", move(2, 1)), ("Bob", move(2, 1))]:
        state = act(state, ctx, who, raw).state
        assert card_of(state, 1)["captured_by"] == 0
    assert units(state, ctx, 1) == [("Bob", "minion")] * 3
    assert refusal(state, ctx, "Bob", capture(1)) == {"card": "Bob can't capture Forest card 1: Captured by Ann."}
    standing = live.standing(GAME, state, ctx)
    view = speros.view(standing)
    assert [c["id"] for c in view["captured"][0]] == [1]
    assert [c["id"] for c in view["in_play"]] == [2]
    assert view["cards"][0]["capturer"] is None and view["cards"][0]["why"] == "Captured by Ann."
    assert not any("capture Forest card 1" in note.text for note in speros.live_notes(standing))
    # Bob's 3 Minions on Ann's captured Forest score 1 each (Forest is not red); Ann keeps the card's VP.
    score = scored(state, ctx)
    assert (score["Ann"]["captured"], score["Ann"]["minions"]) == (1, 0)
    assert score["Bob"]["minions"] == 3


# --- Ancient Artifacts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", [None, 5], ids=lambda n: f"Every Artifact card features 5 Encampments ({n} given)")
def test_an_artifact_has_five_encampments(typed: int | None) -> None:
    """'Every Artifact card features 5 Encampments': left out or given as 5, an Artifact comes in with 5."""
    state, _, _ = play(2, [(None, explore("artifact", encampments=typed))])
    assert card_of(state, 1)["encampments"] == speros.ARTIFACT_ENCAMPMENTS == 5


@pytest.mark.parametrize(
    "typed", [1, 3, 4, 6, 12], ids=lambda n: f"Every Artifact card features 5 Encampments: {n} is refused"
)
def test_an_artifact_with_other_than_five_encampments_is_refused(typed: int) -> None:
    """'Every Artifact card features 5 Encampments': any other number is a slip, refused beside the encampments
    (never silently made 5), and nothing comes into play."""
    state, ctx, _ = play(2, [])
    assert refusal(state, ctx, "Ann", explore("artifact", encampments=typed)) == {
        "encampments": f"Every Artifact card features 5 Encampments, not {typed}."
    }


def artifact_taken() -> tuple[live.State, live.State, live.Context, live.Applied]:
    """An Artifact next to a Forest: Ann 3 Minions, Bob a Minion and his General, Cy a Minion; Ann captures it.

    The state before the capture, the state after it, the context and what the capture said."""
    steps = [
        (None, explore("forest", encampments=4)),
        (None, explore("artifact", vp=4, resources=["crystal"])),
        ("Ann", deploy(2)),
        ("Bob", deploy(2, "general")),
        ("Ann", deploy(2)),
        ("Ann", deploy(2)),
        ("Ann", deploy(1)),
        ("Cy", deploy(2)),
    ]
    before, ctx, _ = play(3, steps)
    applied = act(before, ctx, "Ann", capture(2))
    return before, applied.state, ctx, applied


def test_artifact_capture_sends_the_others_home_and_locks_the_capturer() -> None:
    """'When a player captures an Ancient Artifact, all other players return their Units deployed to that card to
    their Base Camps, then that player places the Artifact into their Captured Area.'"""
    before, after, ctx, applied = artifact_taken()
    assert units(before, ctx, 2) == [
        ("Ann", "minion"),
        ("Bob", "general"),
        ("Ann", "minion"),
        ("Ann", "minion"),
        ("Cy", "minion"),
    ]
    assert applied.said == (
        "Ann captures Artifact 2 (achieve majority).",
        "Ann's units on it are locked on; Bob and Cy's go back to their Base Camp.",
    )
    card = card_of(after, 2)
    assert card["captured_by"] == 0 and card["locked"] is True
    assert units(after, ctx, 2) == [("Ann", "minion")] * 3
    assert camp(after, ctx, "Bob") == {"minion": 10, "general": 1}
    assert camp(after, ctx, "Cy") == {"minion": 10, "general": 1}
    assert camp(after, ctx, "Ann") == {"minion": 6, "general": 1}
    # Nothing else moved: Ann's Minion on the Forest stays.
    assert units(after, ctx, 1) == [("Ann", "minion")]


def test_artifact_demonstrated_with_nobody_else_there() -> None:
    """'Treat Ancient Artifacts as Locations in every way': 3 of 5 is Demonstrate Majority; nobody to send home."""
    steps = [(None, explore("artifact")), ("Bob", deploy(1)), ("Bob", deploy(1)), ("Bob", deploy(1, "general"))]
    state, ctx, said = play(2, steps)
    assert said[-1].startswith("Bob may capture Artifact 1: Bob has 3 units;")
    applied = act(state, ctx, "Bob", capture(1))
    assert applied.said == ("Bob captures Artifact 1 (demonstrate majority).", "Bob's units on it are locked on.")
    assert units(applied.state, ctx, 1) == [("Bob", "minion"), ("Bob", "minion"), ("Bob", "general")]


LOCKED = [
    pytest.param(
        "Ann",
        remove(2),
        {"card": "The units on Artifact 2 are locked on: it is a captured Artifact."},
        id="Units on a captured Ancient Artifact are locked. They cannot be ... destroyed",
    ),
    pytest.param(
        "Ann",
        move(2, 1),
        {"card": "The units on Artifact 2 are locked on: it is a captured Artifact."},
        id="Units on a captured Ancient Artifact are locked. They cannot be moved",
    ),
    pytest.param(
        "Ann",
        deploy(2),
        {"card": "Artifact 2 is in Ann's Captured Area: no unit can be deployed there."},
        id="Units on a captured Ancient Artifact are locked ... new units may not be added: deploy",
    ),
    pytest.param(
        "Bob",
        deploy(2, "general"),
        {"card": "Artifact 2 is in Ann's Captured Area: no unit can be deployed there."},
        id="Units on a captured Ancient Artifact are locked ... new units may not be added: another's Lead",
    ),
]


@pytest.mark.parametrize(("who", "raw", "errors"), LOCKED)
def test_units_on_a_captured_artifact_are_locked(who: str, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """The capturer's units stay on the captured Artifact; nothing new joins them."""
    _, after, ctx, _ = artifact_taken()
    assert refusal(after, ctx, who, raw) == errors


@pytest.mark.parametrize("who", ["Ann", "Bob"], ids=lambda w: f"new units may not be added: {w} moves one onto it")
def test_no_unit_is_moved_onto_a_captured_artifact(who: str) -> None:
    """'Units on a captured Ancient Artifact are locked. ... In addition, new units may not be added.' The Artifact
    has 2 free encampments once Bob's and Cy's units went home: a move there is refused like a deploy."""
    _, after, ctx, _ = artifact_taken()
    after = act(after, ctx, "Bob", deploy(1)).state
    assert len(card_of(after, 2)["units"]) == 3  # two encampments free
    with pytest.raises(InputErrors) as caught:
        act(after, ctx, who, move(1, 2))
    assert [(e.field, "captured Artifact" in e.message) for e in caught.value.errors] == [("to", True)]


def test_units_on_a_captured_artifact_score_as_unfamiliar() -> None:
    """Decision (docs/rules.md, "Conquest of Speros"): 'Artifacts have no terrain colour: units on them score as
    unfamiliar'; the card's VP and resource count like any captured card."""
    _, after, ctx, _ = artifact_taken()
    score = scored(after, ctx)
    # Ann: 3 Minions on the Artifact (1 each) + 1 Minion on the Forest, green's own colour (2); the Artifact's 4 VP.
    assert (score["Ann"]["minions"], score["Ann"]["general"], score["Ann"]["captured"]) == (5, 0, 4)
    assert score["Bob"]["general"] == 0 and score["Cy"]["minions"] == 0
    # Bob's General on an uncaptured Artifact would score 2 (unfamiliar), the same as on another colour.
    state, ctx, _ = play(2, [(None, explore("artifact")), ("Bob", deploy(1, "general"))])
    assert scored(state, ctx)["Bob"]["general"] == 2


# --- The end: "If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends" --

EMPTY_CAMP = [
    pytest.param(
        count,
        seat,
        id=f"If a player starts his or her turn with no Units in his or her Base Camp, the game "
        f"immediately ends: {count}p, {NAMES[seat]}'s turn",
    )
    for count in (2, 3, 4)
    for seat in range(count)
]


@pytest.mark.parametrize(("count", "seat"), EMPTY_CAMP)
def test_a_turn_started_with_an_empty_base_camp_ends_the_game(count: int, seat: int) -> None:
    """A player whose 11 units were all deployed before their turn: the turn begins, the game ends at once."""
    who = NAMES[seat]
    before_turn = (seat - 1) % count  # the seat whose turn it is while the units go out
    steps = [(None, NEXT)] * before_turn + [(None, explore("forest", encampments=12))] + everything(who, 1)
    state, ctx, _ = play(count, steps)
    assert speros.end(live.standing(GAME, state, ctx)) == live.End()
    applied = act(state, ctx, None, NEXT)
    reason = f"{who} starts the turn with no units in Base Camp: the game ends at once."
    assert applied.said == (f"{who}'s turn.", reason)
    standing = live.standing(GAME, applied.state, ctx)
    assert speros.end(standing) == live.End(True, reason)
    assert speros.live_notes(standing)[-1] == Note(reason, warning=True)
    assert refusal(applied.state, ctx, None, NEXT) == {"action": f"{reason} {AFTER_THE_END}"}


@pytest.mark.parametrize(
    "kept",
    ["minion", "general"],
    ids=lambda k: f"starts his or her turn with NO Units in his or her Base Camp: one {k} left, play goes on",
)
def test_one_unit_left_in_base_camp_is_not_the_end(kept: str) -> None:
    """A single Minion or the General still in Base Camp: the turn is played, the game goes on."""
    steps = [(None, explore("forest", encampments=12)), *everything("Bob", 1), ("Bob", remove(1, kept))]
    state, ctx, _ = play(2, steps)
    applied = act(state, ctx, None, NEXT)
    assert applied.said == ("Bob's turn.",)
    assert speros.end(live.standing(GAME, applied.state, ctx)) == live.End()
    assert act(applied.state, ctx, None, NEXT).said == ("Ann's turn.",)


@pytest.mark.parametrize(
    "returned",
    [False, True],
    ids=[
        "If a player STARTS his or her turn with no Units: emptied during Ann's own turn, Bob still plays",
        "If a player STARTS his or her turn with no Units: an Artifact capture sends Ann's unit home first",
    ],
)
def test_emptying_base_camp_during_ones_own_turn_is_not_yet_the_end(returned: bool) -> None:
    """Ann deploys her last unit in her own turn (Lead): she did not START that turn with an empty Base Camp. Bob takes
    his turn; the game ends when Ann's next turn starts with none, unless a unit came back in between (Bob captures an
    Artifact where Ann had one: 'all other players return their Units deployed to that card to their Base Camps')."""
    steps = [(None, explore("forest", encampments=12)), (None, explore("artifact"))]
    steps += [("Ann", deploy(1))] * 9 + [("Ann", deploy(2)), ("Ann", deploy(1, "general"))]
    state, ctx, _ = play(2, steps)
    assert camp(state, ctx, "Ann") == {"minion": 0, "general": 0}
    assert speros.end(live.standing(GAME, state, ctx)) == live.End()
    state = act(state, ctx, None, NEXT).state  # Bob's turn
    if returned:
        for raw in (deploy(2), deploy(2), deploy(2, "general"), capture(2)):
            state = act(state, ctx, "Bob", raw).state
        assert camp(state, ctx, "Ann") == {"minion": 1, "general": 0}
    applied = act(state, ctx, None, NEXT)  # Ann's turn
    standing = live.standing(GAME, applied.state, ctx)
    if returned:
        assert applied.said == ("Ann's turn.",)
        assert speros.end(standing) == live.End()
    else:
        reason = "Ann starts the turn with no units in Base Camp: the game ends at once."
        assert applied.said == ("Ann's turn.", reason)
        assert speros.end(standing) == live.End(True, reason)


# --- The end: "that player finishes his or her turn and then each other player takes one final turn" --------------

LAST_CARD = [
    pytest.param(
        count,
        turn,
        id=f"When a player draws the last card ... each other player takes one final turn: "
        f"{count}p, drawn in turn {turn} ({NAMES[(turn - 1) % count]})",
    )
    for count in (2, 3, 4)
    for turn in range(1, count + 2)
]


@pytest.mark.parametrize(("count", "turn"), LAST_CARD)
def test_after_the_last_card_every_other_player_takes_one_more_turn(count: int, turn: int) -> None:
    """The drawer finishes; next_turn goes round once to each other player in clockwise order, then is refused."""
    state, ctx, _ = play(count, [(None, NEXT)] * (turn - 1))
    drawer = (turn - 1) % count
    # Independently of speros: the other seats, clockwise from the drawer.
    others = [NAMES[(drawer + step) % count] for step in range(1, count)]
    applied = act(state, ctx, None, LAST)
    if count == 2:
        text = f"{NAMES[drawer]} finishes, then {others[0]} takes one more turn."
    else:
        text = f"{NAMES[drawer]} finishes, then {', '.join(others[:-1])} and {others[-1]} take one more turn each."
    assert applied.said == ("The last Location card is drawn. " + text,)
    state = applied.state
    standing = live.standing(GAME, state, ctx)
    assert speros.end(standing) == live.End(True, "The last Location card is drawn: " + text)
    assert speros.view(standing)["countdown"] == text and speros.view(standing)["last_drawn"] is True
    assert speros.live_notes(standing)[-1] == Note("The last Location card is drawn. " + text, warning=True)
    played = []
    for _ in range(count - 1):
        applied = act(state, ctx, None, NEXT)
        state = applied.state
        played.append(NAMES[turns.active_seat(state["table"], count)])
        assert applied.said == (f"{played[-1]}'s turn.",)
    assert played == others
    assert speros.countdown(state, ctx) == f"{others[-1]} takes the last turn; then score."
    assert state["table"]["turn"] == turn + count - 1
    # The last player's Next turn ends that final turn, and the game: no countdown any more, only scoring.
    applied = act(state, ctx, None, NEXT)
    reason = (
        f"{others[-1]}'s final turn is over: the last Location card was drawn and each other player has taken "
        "one final turn. The game has ended."
    )
    assert applied.said == (reason,)
    state = applied.state
    assert state["table"]["turn"] == turn + count - 1
    standing = live.standing(GAME, state, ctx)
    assert speros.end(standing) == live.End(True, reason)
    assert speros.countdown(state, ctx) is None and speros.view(standing)["countdown"] is None
    assert speros.live_notes(standing)[-1] == Note(reason, warning=True)
    assert refusal(state, ctx, None, NEXT) == {"action": f"{reason} {AFTER_THE_END}"}


def test_countdown_in_the_middle_of_the_final_turns() -> None:
    """4 players, Bob draws the last card: during Cy's final turn, Dee and Ann are still to play."""
    state, ctx, _ = play(4, [(None, NEXT), (None, LAST), (None, NEXT)])
    assert speros.countdown(state, ctx) == "Cy finishes, then Dee and Ann take one more turn each."


def test_the_last_card_mark_can_be_taken_off() -> None:
    """A mistaken mark is corrected: no countdown, no end, turns go on."""
    state, ctx, _ = play(2, [(None, LAST), (None, NEXT)])
    assert speros.countdown(state, ctx) == "Bob takes the last turn; then score."
    applied = act(state, ctx, None, UNLAST)
    assert applied.said == ("The last-card mark is taken off.",)
    assert speros.countdown(applied.state, ctx) is None
    assert speros.end(live.standing(GAME, applied.state, ctx)) == live.End()
    assert act(applied.state, ctx, None, NEXT).said == ("Ann's turn.",)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_turns_go_clockwise_from_the_first_player(count: int) -> None:
    """'Starting with the first player and rotating clockwise': no end, no limit on turns."""
    state, ctx, said = play(count, [(None, NEXT)] * (3 * count))
    assert said == [f"{NAMES[turn % count]}'s turn." for turn in range(1, 3 * count + 1)]
    assert speros.end(live.standing(GAME, state, ctx)) == live.End()


# --- Scoring from the board ---------------------------------------------------------------------------------------

TERRAIN_SCORING = [
    pytest.param(
        seat,
        terrain,
        kind,
        id=(
            f"Deployed {'Minions' if kind == 'minion' else 'Generals'} on "
            f"{'familiar' if HOME[SPEROS_COLOURS[seat]] == terrain else 'unfamiliar'} terrain: "
            f"{SPEROS_COLOURS[seat]} {kind} on {terrain}"
        ),
    )
    for seat in range(4)
    for terrain in (*TERRAINS, "artifact")
    for kind in ("minion", "general")
]


@pytest.mark.parametrize(("seat", "terrain", "kind"), TERRAIN_SCORING)
def test_units_score_by_the_terrain_they_stand_on(seat: int, terrain: str, kind: str) -> None:
    """'Deployed Minions on familiar terrain (a Location matching its color): 2 VP each; ... unfamiliar terrain: 1 VP
    each; Deployed Generals on familiar terrain: 3 VP; ... unfamiliar terrain: 2 VP'; an Artifact is unfamiliar."""
    who = NAMES[seat]
    state, ctx, _ = play(4, [(None, explore(terrain)), (who, deploy(1, kind))])
    familiar = HOME[SPEROS_COLOURS[seat]] == terrain
    expected = {
        ("minion", True): (2, 0),
        ("minion", False): (1, 0),
        ("general", True): (0, 3),
        ("general", False): (0, 2),
    }[(kind, familiar)]
    score = scored(state, ctx)
    assert (score[who]["minions"], score[who]["general"]) == expected
    assert all(sum(score[name].values()) == 0 for name in ctx.names if name != who)


def test_units_in_base_camp_score_nothing() -> None:
    """'Units still on the Base Camp card at end of game are worth 0 VP.'"""
    state, ctx, _ = play(3, [])
    result = live.standing(GAME, state, ctx).result
    assert [p.total for p in result.players] == [0, 0, 0]
    ann = {line.key: line.why for line in result.players[0].lines}
    assert ann["general"] == "General in Base Camp: 0 VP."
    assert ann["minions"] == "No Minion deployed, and units in Base Camp score nothing: 0 VP."


def test_a_board_scored_line_by_line() -> None:
    """Minions and the General on several terrains at once, summed: Bob (red) 2 Minions on a Mountain (2 each),
    one on an Ocean (1), one on an Artifact (1), his General on a Swamp (2)."""
    steps = [
        (None, explore("mountain", encampments=4)),
        (None, explore("ocean", encampments=4)),
        (None, explore("artifact")),
        (None, explore("swamp", encampments=4)),
        ("Bob", deploy(1)),
        ("Bob", deploy(1)),
        ("Bob", deploy(2)),
        ("Bob", deploy(3)),
        ("Bob", deploy(4, "general")),
        ("Ann", deploy(1)),
    ]
    state, ctx, _ = play(2, steps)
    score = scored(state, ctx)
    assert (score["Bob"]["minions"], score["Bob"]["general"]) == (6, 2)
    assert (score["Ann"]["minions"], score["Ann"]["general"]) == (1, 0)


def captured_cards(who: str, cards: Sequence[tuple[str, int, Sequence[str]]], first: int = 1) -> list[Step]:
    """Steps by which a player captures each (terrain, vp, resources): a one-space card, filled and captured."""
    steps: list[Step] = []
    for offset, (terrain, vp, resources) in enumerate(cards):
        number = first + offset
        # A one-space Location is filled by one Minion; an Artifact's 5 encampments are demonstrated with 3.
        fill = 3 if terrain == "artifact" else 1
        steps += [
            (None, explore(terrain, encampments=None if terrain == "artifact" else 1, vp=vp, resources=resources))
        ]
        steps += [(who, deploy(number))] * fill + [(who, capture(number))]
    return steps


C, I, G = "crystal", "iron", "gold"  # noqa: E741  (the resources' initials: I is iron, beside C and G)

RESOURCE_SETS = [
    # (cards Ann captures as (terrain, vp, resources), captured VP, resource sets VP)
    pytest.param(
        [("forest", 2, [C]), ("ocean", 3, [I]), ("swamp", 1, [G])],
        6,
        3,
        id="Resource sets: 3 VP each: a Crystal, an Iron and a Gold",
    ),
    pytest.param(
        [("forest", 2, [C]), ("ocean", 3, [C]), ("swamp", 1, [G])],
        6,
        0,
        id="each of which displaying a DIFFERENT one of the game's three resources: no Iron, no set",
    ),
    pytest.param(
        [("forest", 2, [C, I]), ("ocean", 1, [I]), ("mountain", 4, [G])],
        7,
        3,
        id="each displaying a different one (OR MORE) of the resources: Crystal-Iron fills the Crystal",
    ),
    pytest.param(
        [
            ("forest", 1, [C]),
            ("ocean", 1, [I]),
            ("swamp", 1, [G]),
            ("mountain", 1, [C, I, G]),
            ("forest", 1, [G]),
            ("ocean", 1, [I]),
        ],
        6,
        6,
        id="A player can collect any number of sets: two, the three-resource card filling a Crystal",
    ),
    pytest.param(
        [("forest", 2, [C, I, G]), ("ocean", 2, [C, I, G])],
        4,
        0,
        id="no card can count toward more than one set: two cards are never a set",
    ),
    pytest.param(
        [("forest", 0, [C]), ("artifact", -3, [I]), ("swamp", 5, [G])],
        2,
        3,
        id="Captured card is worth whatever value is written on the card (Artifacts can be negative)",
    ),
]


@pytest.mark.parametrize(("cards", "captured", "sets"), RESOURCE_SETS)
def test_captured_cards_and_resource_sets_from_the_board(
    cards: list[tuple[str, int, list[str]]], captured: int, sets: int
) -> None:
    """'Captured card is worth whatever value is written on the card'; 'Resource sets: 3 VP each', from the cards in
    the player's Captured Area (and nobody else's)."""
    steps = captured_cards("Ann", cards) + captured_cards("Bob", [("mountain", 5, [C, I, G])], first=len(cards) + 1)
    state, ctx, _ = play(2, steps)
    score = scored(state, ctx)
    assert (score["Ann"]["captured"], score["Ann"]["resource_sets"]) == (captured, sets)
    assert (score["Bob"]["captured"], score["Bob"]["resource_sets"]) == (5, 0)


def test_uncaptured_cards_score_no_card_vp_or_sets() -> None:
    """Only 'captured' cards are worth their value: a card in the Skirmish Area is nobody's."""
    state, ctx, _ = play(
        2,
        [
            (None, explore("forest", vp=5, resources=[C])),
            (None, explore("ocean", resources=[I])),
            (None, explore("swamp", resources=[G])),
            ("Ann", deploy(1)),
        ],
    )
    score = scored(state, ctx)
    assert (score["Ann"]["captured"], score["Ann"]["resource_sets"]) == (0, 0)


BONUS = [
    pytest.param([4], 4, id="A player's selected Bonus Objective: one entered"),
    pytest.param([3, 7, 5], 7, id="each player chooses one of his or her Bonus Objectives: the best of three"),
    pytest.param([6, 6, 0], 6, id="chooses ONE of his or her Bonus Objectives: two equal ones count once"),
    pytest.param([], 0, id="no Bonus Objective entered: nothing"),
]


@pytest.mark.parametrize(("values", "best"), BONUS)
def test_bonus_objectives_best_of_three(values: list[int], best: int) -> None:
    """Decision (docs/rules.md, "Conquest of Speros"): 'The best of the three Bonus Objectives is chosen automatically',
    from bonus_1..bonus_3."""
    steps = [("Cy", bonus(n, value)) for n, value in enumerate(values, start=1)]
    state, ctx, _ = play(3, steps)
    assert scored(state, ctx)["Cy"]["bonus_objective"] == best
    assert scored(state, ctx)["Ann"]["bonus_objective"] == 0


def test_bonus_counter_add_and_refused_below_zero() -> None:
    """The counters step like any tracker counter; what an objective scores is never negative."""
    state, ctx, _ = play(
        2,
        [
            ("Ann", {"action": "add", "field": "bonus_2", "delta": 4}),
            ("Ann", {"action": "add", "field": "bonus_2", "delta": 1}),
        ],
    )
    assert scored(state, ctx)["Ann"]["bonus_objective"] == 5
    assert refusal(state, ctx, "Bob", bonus(1, -1)) == {"bonus_1": "Must be at least 0."}
    assert refusal(state, ctx, None, bonus(1, 3)) == {"player": "Say which player's Bonus Objective 1 VP to change."}


MASTERY = [
    # (players, the objectives as raw actions, VP each player gets)
    pytest.param(
        3,
        [mastery(1, 5, "Bob")],
        [0, 5, 0],
        id="The player who best meets the condition on a Mastery card will be awarded the points",
    ),
    pytest.param(
        3,
        [mastery(1, 5, "Ann", "Bob")],
        [2, 2, 0],
        id="the points will be divided evenly amongst the tied players, rounded down: 5 / 2",
    ),
    pytest.param(
        4, [mastery(1, 7, "Ann", "Cy", "Dee")], [2, 0, 2, 2], id="tied players share the points (rounded down): 7 / 3"
    ),
    pytest.param(
        4,
        [mastery(1, 6, "Ann", "Bob", "Cy", "Dee")],
        [1, 1, 1, 1],
        id="tied players share the points (rounded down): 6 / 4",
    ),
    pytest.param(3, [mastery(1, 4)], [0, 0, 0], id="If the objective is met: nobody meets it, nobody scores"),
    pytest.param(
        4,
        [mastery(1, 4, "Dee"), mastery(2, 3, "Dee", "Bob"), mastery(3, 6, "Ann")],
        [6, 1, 0, 5],
        id="deal one fewer card than the number of players: three objectives with 4 players",
    ),
    pytest.param(
        3,
        [mastery(1, 4, "Ann"), mastery(1, 9, "Bob")],
        [0, 9, 0],
        id="a Mastery Objective entered again is corrected, not added",
    ),
]


@pytest.mark.parametrize(("count", "objectives", "vp"), MASTERY)
def test_mastery_objectives(count: int, objectives: list[dict[str, Any]], vp: list[int]) -> None:
    """'In the event of a tie, all tied players share the points (rounded down).'"""
    state, ctx, _ = play(count, [(None, raw) for raw in objectives])
    score = scored(state, ctx)
    assert [score[name]["mastery"] for name in ctx.names] == vp


def test_mastery_said() -> None:
    """The table hears the objective, its VP and who best meets it: each once, spelled and ordered as seated."""
    _, _, said = play(3, [(None, mastery(2, 5, "cy", "Ann", "ANN"))])
    assert said == ["Mastery Objective 2: 5 VP, best met by Ann and Cy."]


MASTERY_REFUSED = [
    pytest.param(
        2,
        None,
        mastery(2, 4, "Ann"),
        {"number": "With 2 players, 1 Mastery Objective is dealt."},
        id="deal one fewer card than the number of players: 2 players, 1 objective",
    ),
    pytest.param(
        3,
        None,
        mastery(3, 4, "Ann"),
        {"number": "With 3 players, 2 Mastery Objectives are dealt."},
        id="deal one fewer card than the number of players: 3 players, 2 objectives",
    ),
    pytest.param(
        3,
        None,
        mastery(1, 4, "Dee"),
        {"leaders": "Dee is not playing."},
        id="The player who best meets the condition: a player at the table",
    ),
    pytest.param(
        4,
        "Ann",
        mastery(1, 4, "Ann"),
        {"player": "Mastery is for the whole table: give no player."},
        id="Mastery Objectives are made public: for the whole table, not one player",
    ),
]


@pytest.mark.parametrize(("count", "who", "raw", "errors"), MASTERY_REFUSED)
def test_mastery_refused(count: int, who: str | None, raw: dict[str, Any], errors: dict[str, str]) -> None:
    """More objectives than dealt, a leader who isn't playing, or a player given: refused."""
    state, ctx, _ = play(count, [])
    assert refusal(state, ctx, who, raw) == errors


def test_tie_break_most_captured_lands_of_their_own_colour() -> None:
    """'In the event of a tie, the player with the most captured lands of their own color wins': Ann (green) holds
    a Forest, Bob (red) an Ocean, level on points; Ann's Forest is her own colour."""
    steps = captured_cards("Ann", [("forest", 3, [C])]) + captured_cards("Bob", [("ocean", 3, [C])], first=2)
    steps.append(("Bob", bonus(1, 1)))
    state, ctx, _ = play(2, steps)
    result = live.standing(GAME, state, ctx).result
    # Ann: 3 + Minion on Forest 2 = 5; Bob: 3 + Minion on Ocean 1 + Bonus 1 = 5.
    assert [p.total for p in result.players] == [5, 5]
    assert result.winners == ("Ann",)
    assert [p.rank for p in result.players] == [1, 2]


# --- Undo: changed_parts / restore takes back everything an action caused ------------------------------------------

ARTIFACT_READY = [
    (None, explore("forest", encampments=4)),
    (None, explore("artifact", vp=4, resources=["crystal"])),
    ("Ann", deploy(2)),
    ("Bob", deploy(2, "general")),
    ("Ann", deploy(2)),
    ("Ann", deploy(2)),
    ("Cy", deploy(2)),
]

UNDO = [
    # (players, steps before, the action undone as (who, raw))
    pytest.param(3, [], ("Bob", explore("forest")), id="undo: Explore and the Minion it deployed"),
    pytest.param(3, [], (None, explore("artifact")), id="undo: a card put in by nobody"),
    pytest.param(
        3,
        [(None, explore("forest", encampments=3)), ("Ann", deploy(1))],
        ("Ann", deploy(1)),
        id="undo: the deploy that made a Location capturable",
    ),
    pytest.param(
        3,
        [(None, explore("forest", encampments=3)), ("Ann", deploy(1)), ("Ann", deploy(1))],
        ("Ann", capture(1)),
        id="undo: a Location's capture",
    ),
    pytest.param(
        3, ARTIFACT_READY, ("Ann", capture(2)), id="undo: an Artifact's capture, the units it sent home and the lock"
    ),
    pytest.param(
        3,
        [(None, explore("forest")), (None, explore("ocean")), ("Ann", deploy(1))],
        ("Ann", move(1, 2)),
        id="undo: a move",
    ),
    pytest.param(3, [(None, explore("forest")), ("Ann", deploy(1))], ("Ann", remove(1)), id="undo: a remove"),
    pytest.param(3, [], (None, NEXT), id="undo: next turn"),
    pytest.param(3, [(None, NEXT)], (None, LAST), id="undo: the last card mark"),
    pytest.param(3, [], (None, mastery(2, 6, "Bob", "Cy")), id="undo: a Mastery Objective"),
    pytest.param(3, [], ("Cy", bonus(3, 8)), id="undo: a Bonus Objective"),
]


@pytest.mark.parametrize(("count", "steps", "undone"), UNDO)
def test_undo_restores_the_state_before(count: int, steps: list[Step], undone: Step) -> None:
    """restore(after, changed_parts(before, after)) == before, for every action and all it caused."""
    before, ctx, _ = play(count, steps)
    after = act(before, ctx, *undone).state
    assert after != before
    assert live.restore(after, live.changed_parts(before, after)) == before


def test_undo_of_an_artifact_capture_brings_the_units_back_and_unlocks() -> None:
    """Undo of Ann's capture: Bob's General and Cy's Minion are back on the Artifact (out of their Base Camps), the
    lock is gone, the card is in the Skirmish Area again and Ann's units can be moved once more."""
    before, after, ctx, _ = artifact_taken()
    parts = live.changed_parts(before, after)
    # Only the table changed: the cards (and the Base Camps counted from them) live there.
    assert set(parts) == {"table"}
    undone = live.restore(after, parts)
    assert undone == before
    card = card_of(undone, 2)
    assert card["captured_by"] is None and not card.get("locked")
    assert units(undone, ctx, 2) == [
        ("Ann", "minion"),
        ("Bob", "general"),
        ("Ann", "minion"),
        ("Ann", "minion"),
        ("Cy", "minion"),
    ]
    assert camp(undone, ctx, "Bob") == {"minion": 10, "general": 0}
    assert camp(undone, ctx, "Cy") == {"minion": 9, "general": 1}
    moved = act(undone, ctx, "Ann", remove(2)).state
    assert units(moved, ctx, 2)[-1] == ("Cy", "minion")
    assert speros.view(live.standing(GAME, undone, ctx))["captured"][0] == []


def test_apply_does_not_change_the_state_given() -> None:
    """An action is pure: the state before is left as it was (undo keeps it)."""
    before, after, _, _ = artifact_taken()
    assert card_of(before, 2)["captured_by"] is None and "locked" not in card_of(before, 2)
    assert len(card_of(before, 2)["units"]) == 5 and len(card_of(after, 2)["units"]) == 3


# --- Properties over random play ----------------------------------------------------------------------------------

moves = st.one_of(
    st.tuples(
        st.sampled_from([None, 0, 1, 2]),
        st.builds(explore, st.sampled_from([*TERRAINS, "artifact"]), st.one_of(st.none(), st.integers(1, 4))),
    ),
    st.tuples(st.integers(0, 2), st.builds(deploy, st.integers(1, 6), st.sampled_from(["minion", "general"]))),
    st.tuples(st.integers(0, 2), st.builds(move, st.integers(1, 6), st.integers(1, 6))),
    st.tuples(st.integers(0, 2), st.builds(remove, st.integers(1, 6))),
    st.tuples(st.integers(0, 2), st.integers(1, 6).map(capture)),
    st.tuples(st.none(), st.sampled_from([NEXT, LAST, UNLAST])),
)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(moves, max_size=40))
def test_random_play_keeps_the_board_straight(steps: list[tuple[int | None, dict[str, Any]]]) -> None:
    """Through any explores, deploys, moves, removes, captures and turns (3 players):
    - a card never holds more units than it has encampments, and a Base Camp is never below 0 or above 10 + 1;
    - 'a captured Location cannot become uncaptured', and stays its capturer's;
    - undo (changed_parts/restore) gives back the state before every action."""
    ctx = context(3)
    state = GAME.live.start(3, SperosOptions())
    for seat, raw in steps:
        who = NAMES[seat] if seat is not None else None
        try:
            applied = act(state, ctx, who, raw)
        except InputErrors:
            continue
        before, state = state, applied.state
        assert live.restore(state, live.changed_parts(before, state)) == before
        for card in state["table"]["cards"]:
            assert len(card["units"]) <= card["encampments"]
        for seat_no in range(3):
            left = speros.base_camp(state["table"], seat_no)
            assert 0 <= left["minion"] <= 10 and 0 <= left["general"] <= 1
        for old in before["table"]["cards"]:
            if old["captured_by"] is not None:
                assert card_of(state, old["id"])["captured_by"] == old["captured_by"]
        # 'the game immediately ends': once over, nothing on the board changes any more.
        if before["table"]["ended"]:
            assert state["table"]["cards"] == before["table"]["cards"]
            assert state["table"]["turn"] == before["table"]["turn"]


# --- A card into play: nothing is assumed for a card ------------------------------------------------------------------

CARD_ASKED = [
    pytest.param(
        {key: value for key, value in explore().items() if key != "terrain"},
        {"terrain": "Which terrain does this card show (or is it an Artifact)?"},
        id="Each Location has one of four types: no terrain tapped is asked, never taken as Forest",
    ),
    pytest.param(
        {key: value for key, value in explore().items() if key != "encampments"},
        {"encampments": "How many encampments does this Location show?"},
        id="The number of Encampments can vary from one Location card to the next: none tapped is asked",
    ),
    pytest.param(
        {key: value for key, value in explore().items() if key != "vp"},
        {"vp": "What VP does this card show?"},
        id="Resource Victory Point Value: This value will tell you how many Victory Points: none given is asked",
    ),
    pytest.param(
        {"action": "explore"},
        {
            "terrain": "Which terrain does this card show (or is it an Artifact)?",
            "vp": "What VP does this card show?",
            "resources": "Which resource does this card show?",
        },
        id="nothing tapped: every question at once",
    ),
    pytest.param(
        explore("ocean", vp=-1),
        {"vp": "A Location's printed VP is 0 or more; only an Artifact's can be negative."},
        id="Victory Point values on Artifact vary from card to card (and in rare cases can even be negative): "
        "a Location's cannot (docs/rules.md)",
    ),
    pytest.param(
        {**explore(), "resources": [["iron"]]},
        {"resources[0]": "Must be one of 'crystal', 'iron' or 'gold'."},
        id="one of three Resources: a list inside the list is no resource (refused, never an error of the app)",
    ),
    pytest.param(
        {**explore(), "resources": [{"iron": 1}, ["gold"]]},
        {
            "resources[0]": "Must be one of 'crystal', 'iron' or 'gold'.",
            "resources[1]": "Must be one of 'crystal', 'iron' or 'gold'.",
        },
        id="one of three Resources: objects inside the list are no resources either",
    ),
]


@pytest.mark.parametrize(("raw", "errors"), CARD_ASKED)
def test_a_card_is_never_guessed(raw: dict[str, Any], errors: dict[str, str]) -> None:
    """What the player did not tap is asked for beside its field, and nothing comes into play."""
    state, ctx, _ = play(2, [])
    assert refusal(state, ctx, "Ann", raw) == errors
    with pytest.raises(InputErrors):
        act(state, ctx, "Ann", raw)
    assert state == GAME.live.start(2, SperosOptions())


def test_a_zero_vp_location_and_a_negative_artifact_are_taken() -> None:
    """'Victory Point values on Artifact vary from card to card (and in rare cases can even be negative)'."""
    state, _, said = play(2, [(None, explore("swamp", vp=0)), (None, explore("artifact", vp=-2))])
    assert [(c["terrain"], c["vp"], c["encampments"]) for c in state["table"]["cards"]] == [
        ("swamp", 0, 3),
        ("artifact", -2, 5),
    ]
    assert said == [
        "Swamp card 1 (0 VP, gold) is in the Skirmish Area.",
        "Artifact 2 (−2 VP, gold) is in the Skirmish Area.",
    ]


def test_nine_cards_each_keep_what_was_given_for_them() -> None:
    """Each card put into play is what was given for that card alone: nothing carries over to the next."""
    cards = [
        ("forest", 4, 2, ["iron", "gold"]),
        ("mountain", 1, 0, ["crystal"]),
        ("ocean", 6, 5, ["gold"]),
        ("swamp", 2, 1, ["crystal", "iron", "gold"]),
        ("artifact", None, -1, ["iron"]),
        ("forest", 3, 3, ["crystal"]),
        ("ocean", 5, 0, ["iron"]),
        ("artifact", 5, 4, ["crystal", "gold"]),
        ("mountain", 2, 7, ["gold", "iron"]),
    ]
    steps: list[Step] = [(None, explore(t, encampments=e, vp=vp, resources=r)) for t, e, vp, r in cards]
    state, _, _ = play(2, steps)
    assert [(c["id"], c["terrain"], c["encampments"], c["vp"], c["resources"]) for c in state["table"]["cards"]] == [
        (n, t, 5 if t == "artifact" else e, vp, r) for n, (t, e, vp, r) in enumerate(cards, start=1)
    ]


# --- Once the game is over, only what scoring needs ----------------------------------------------------------------


def ended_at_once() -> tuple[live.State, live.Context, str]:
    """3 players; Bob's 11 units all on an Ocean card, another Forest card with a unit each, a Mountain card Ann
    captured with Bob on it; Bob's turn starts: the game ends at once."""
    steps = [
        (None, explore("ocean", encampments=12)),
        (None, explore("forest", encampments=4)),
        (None, explore("mountain", encampments=3)),
        ("Ann", deploy(2)),
        ("Cy", deploy(2)),
        ("Ann", deploy(3)),
        ("Ann", deploy(3)),
        ("Ann", capture(3)),
    ]
    steps += [("Bob", deploy(1))] * 10 + [("Bob", deploy(1, "general"))]
    state, ctx, _ = play(3, steps)
    applied = act(state, ctx, None, NEXT)
    return applied.state, ctx, "Bob starts the turn with no units in Base Camp: the game ends at once."


def ended_after_the_final_turns() -> tuple[live.State, live.Context, str]:
    """3 players, the same cards; Ann draws the last Location card in turn 1, Bob and Cy take one final turn each,
    and Cy's Next turn ends it."""
    steps = [
        (None, explore("ocean", encampments=12)),
        (None, explore("forest", encampments=4)),
        (None, explore("mountain", encampments=3)),
        ("Ann", deploy(2)),
        ("Cy", deploy(2)),
        ("Ann", deploy(3)),
        ("Ann", deploy(3)),
        ("Ann", capture(3)),
        ("Bob", deploy(1)),
        (None, LAST),
        (None, NEXT),
        (None, NEXT),
        (None, NEXT),
    ]
    state, ctx, _ = play(3, steps)
    return (
        state,
        ctx,
        (
            "Cy's final turn is over: the last Location card was drawn and each other player has taken "
            "one final turn. The game has ended."
        ),
    )


ENDINGS = {
    "If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends": ended_at_once,
    "that player finishes his or her turn and then each other player takes one final turn": ended_after_the_final_turns,
}

AFTER_END_REFUSED = [
    pytest.param(rule, who, raw, id=f"{rule}: then {what} is refused")
    for rule in ENDINGS
    for who, raw, what in [
        ("Cy", explore("swamp"), "Explore"),
        (None, explore("artifact"), "a card put in by an ability"),
        ("Cy", deploy(2), "Attack"),
        ("Cy", deploy(2, "general"), "Lead"),
        ("Ann", remove(2), "an ability removing a unit"),
        ("Cy", move(2, 1), "an ability moving a unit"),
        ("Bob", remove(3), "an ability removing a unit from a captured Location"),
        ("Ann", deploy(2), "the deploy that would make a card capturable"),
        (None, NEXT, "Next turn"),
        (None, LAST, "the last Location card drawn"),
        (None, UNLAST, "taking the last-card mark off"),
    ]
]


@pytest.mark.parametrize(("rule", "who", "raw"), AFTER_END_REFUSED)
def test_after_the_end_the_game_itself_is_refused(rule: str, who: str | None, raw: dict[str, Any]) -> None:
    """Decision (docs/rules.md, "Conquest of Speros"): 'Once the game has ended ..., the tracker accepts only what
    scoring needs: Bonus Objectives, Mastery Objectives and Finish.' A stray tap is refused with why the game ended, and
    changes nothing."""
    state, ctx, reason = ENDINGS[rule]()
    if raw == UNLAST and state["table"]["last_drawn"] is None:
        state = {**state, "table": {**state["table"], "last_drawn": 1}}
    assert refusal(state, ctx, who, raw) == {"action": f"{reason} {AFTER_THE_END}"}


def test_a_capture_after_the_end_is_refused() -> None:
    """'the game immediately ends': a card that became capturable is not captured after the end."""
    state, ctx, reason = ended_at_once()
    # Bob has all 11 units on the 12-space Ocean card: he demonstrates majority there, but the game is over.
    assert speros.capture_now(card_of(state, 1), ctx.names).captured_by == "Bob"
    assert refusal(state, ctx, "Bob", capture(1)) == {"action": f"{reason} {AFTER_THE_END}"}


@pytest.mark.parametrize("rule", list(ENDINGS), ids=lambda rule: f"{rule}: scoring is still entered")
def test_after_the_end_what_scoring_needs_is_taken(rule: str) -> None:
    """'Once the scoring phase at the end of the game begins, you will reveal your Bonus cards and choose one'; the
    Mastery Objectives are scored then too. Their entries are accepted; the board is scored as it stood."""
    state, ctx, reason = ENDINGS[rule]()
    board = scored(state, ctx)
    for who, raw in [
        ("Ann", bonus(1, 4)),
        ("Cy", bonus(3, 7)),
        ("Ann", {"action": "add", "field": "bonus_1", "delta": 1}),
        (None, mastery(1, 6, "Bob")),
        (None, mastery(2, 4, "Ann", "Cy")),
    ]:
        state = act(state, ctx, who, raw).state
    after = scored(state, ctx)
    assert (after["Ann"]["bonus_objective"], after["Cy"]["bonus_objective"]) == (5, 7)
    assert (after["Bob"]["mastery"], after["Ann"]["mastery"], after["Cy"]["mastery"]) == (6, 2, 2)
    for name in ctx.names:
        assert {k: v for k, v in after[name].items() if k not in ("bonus_objective", "mastery")} == {
            k: v for k, v in board[name].items() if k not in ("bonus_objective", "mastery")
        }
    standing = live.standing(GAME, state, ctx)
    assert speros.end(standing) == live.End(True, reason)
    view = speros.view(standing)
    assert view["over"] == reason and view["countdown"] is None


def test_an_end_at_once_during_the_final_turns_says_no_countdown() -> None:
    """The empty Base Camp ends the game at once, even while the final turns are counted: the countdown ('Cy takes
    one more turn') is no longer said in a game that is over."""
    steps = [(None, explore("ocean", encampments=12)), *everything("Bob", 1), (None, LAST)]
    state, ctx, _ = play(3, steps)
    assert speros.countdown(state, ctx) == "Ann finishes, then Bob and Cy take one more turn each."
    applied = act(state, ctx, None, NEXT)
    reason = "Bob starts the turn with no units in Base Camp: the game ends at once."
    assert applied.said == ("Bob's turn.", reason)
    standing = live.standing(GAME, applied.state, ctx)
    assert speros.countdown(applied.state, ctx) is None
    assert [note.text for note in speros.live_notes(standing) if note.warning] == [reason]
    assert speros.end(standing) == live.End(True, reason)


def test_undo_of_the_last_next_turn_reopens_the_final_turn() -> None:
    """The Next turn that ended the game is one step for undo: taken back, the last turn is being played again."""
    before, ctx, _ = play(2, [(None, LAST), (None, NEXT)])
    after = act(before, ctx, None, NEXT).state
    assert after["table"]["ended"] and not before["table"]["ended"]
    assert live.restore(after, live.changed_parts(before, after)) == before
    assert act(before, ctx, "Bob", explore("forest")).said[-1] == "Bob deploys a Minion there."


# --- "When a player draws the last card from the shared Location deck": once per game ---------------------------


@pytest.mark.parametrize("later", [0, 1], ids=["the same turn (a second device)", "a turn later"])
def test_the_last_card_is_drawn_once(later: int) -> None:
    """'When a player draws the last card from the shared Location deck, that player finishes his or her turn and
    then each other player takes one final turn': the deck has one last card. A second mark is refused and the
    countdown goes on from the first."""
    state, ctx, _ = play(3, [(None, NEXT), (None, LAST)] + [(None, NEXT)] * later)
    countdown = speros.countdown(state, ctx)
    assert refusal(state, ctx, None, LAST) == {
        "drawn": "The last Location card was already drawn, in turn 2 (Bob's): the deck has one last card, and the "
        "final turns go on as counted from there."
    }
    assert state["table"]["last_drawn"] == 2 and speros.countdown(state, ctx) == countdown


def test_the_last_card_mark_off_when_there_is_none_is_refused() -> None:
    """A mark taken off that was never put on changes nothing and says so."""
    state, ctx, _ = play(2, [])
    assert refusal(state, ctx, None, UNLAST) == {"drawn": "The last Location card is not marked drawn."}


def test_after_a_mark_taken_off_the_last_card_can_be_marked_again() -> None:
    """A mistaken mark taken off (a correction) leaves the deck's last card still to come: marked later, the countdown
    starts from that turn."""
    state, ctx, _ = play(2, [(None, LAST), (None, UNLAST), (None, NEXT), (None, LAST)])
    assert state["table"]["last_drawn"] == 2
    assert speros.countdown(state, ctx) == "Bob finishes, then Ann takes one more turn."


# --- Units on a captured Location: abilities may still move and remove them ---------------------------------------


def location_taken() -> tuple[live.State, live.Context]:
    """Ann captured a 3-space Forest (Ann 2, Bob 1); an Ocean card with one of Bob's Minions; an empty Swamp."""
    steps = [
        (None, explore("forest")),
        (None, explore("ocean", encampments=4)),
        (None, explore("swamp")),
        ("Ann", deploy(1)),
        ("Bob", deploy(1)),
        ("Ann", deploy(1, "general")),
        ("Ann", capture(1)),
        ("Bob", deploy(2)),
    ]
    state, ctx, _ = play(2, steps)
    return state, ctx


CAPTURED_UNITS = [
    pytest.param(
        "Ann",
        remove(1),
        [("Bob", "minion"), ("Ann", "general")],
        id="Units in that zone may still be affected by card abilities: the capturer's Minion is removed",
    ),
    pytest.param(
        "Ann",
        remove(1, "general"),
        [("Ann", "minion"), ("Bob", "minion")],
        id="Units in that zone may still be affected by card abilities: the capturer's General is removed",
    ),
    pytest.param(
        "Bob",
        remove(1),
        [("Ann", "minion"), ("Ann", "general")],
        id="Units in that zone may still be affected by card abilities: another player's unit is removed",
    ),
    pytest.param(
        "Ann",
        move(1, 3),
        [("Bob", "minion"), ("Ann", "general")],
        id="Regardless of the Units moved onto or off its encampments: a unit moved off",
    ),
    pytest.param(
        "Bob",
        move(1, 2),
        [("Ann", "minion"), ("Ann", "general")],
        id="Regardless of the Units moved onto or off its encampments: another player's unit moved off",
    ),
]


@pytest.mark.parametrize(("who", "raw", "left"), CAPTURED_UNITS)
def test_units_on_a_captured_location_move_and_the_location_stays_captured(
    who: str, raw: dict[str, Any], left: list[tuple[str, str]]
) -> None:
    """'Note: Regardless of the Units moved onto or off its encampments, a captured Location cannot become
    uncaptured.' The unit leaves; the Forest stays Ann's, and a unit can be moved back onto it."""
    state, ctx = location_taken()
    state = act(state, ctx, who, raw).state
    assert units(state, ctx, 1) == left and card_of(state, 1)["captured_by"] == 0
    assert speros.capture_now(card_of(state, 1), ctx.names).why == "Captured by Ann."
    # 'moved onto': Bob's Minion on the Ocean card moved onto the free encampment of Ann's Forest.
    state = act(state, ctx, "Bob", move(2, 1)).state
    assert units(state, ctx, 1)[-1] == ("Bob", "minion") and card_of(state, 1)["captured_by"] == 0


def test_the_page_offers_moves_to_captured_locations_but_never_a_locked_artifact() -> None:
    """The move targets the tracker draws for each card: every other card with an unoccupied encampment, a captured
    Location too ('moved onto ... its encampments'), never a full card or a captured Artifact ('new units may not
    be added')."""
    state, ctx = location_taken()
    state = act(state, ctx, "Ann", remove(1)).state  # the Forest has a free encampment again
    for raw in (explore("artifact"), deploy(4), deploy(4), deploy(4)):
        state = act(state, ctx, "Bob" if raw["action"] == "deploy" else None, raw).state
    state = act(state, ctx, "Bob", capture(4)).state
    view = speros.view(live.standing(GAME, state, ctx))
    targets = {card["id"]: [t["id"] for t in card["targets"]] for card in view["cards"]}
    assert targets == {1: [2, 3], 2: [1, 3], 3: [1, 2], 4: [1, 2, 3]}
    assert [card["locked"] for card in view["cards"]] == [False, False, False, True]


# --- What undo and the log say ---------------------------------------------------------------------------------

DESCRIBED = [
    pytest.param(
        "Ann",
        explore("forest", encampments=4, vp=2, resources=["iron", "gold"]),
        "Ann puts a Forest card into play (4 encampments, iron and gold, 2 VP)",
        "Ann puts Forest card 3 into play (4 encampments, iron and gold, 2 VP)",
        id="Explore",
    ),
    pytest.param(
        None,
        explore("artifact", vp=-1, resources=["crystal"]),
        "An Artifact is put into play (5 encampments, crystal, −1 VP)",
        "Artifact 3 is put into play (5 encampments, crystal, −1 VP)",
        id="a card put in by nobody",
    ),
    pytest.param(
        "Ann", deploy(1), "Ann deploys a Minion to card 1", "Ann deploys a Minion to Forest card 1", id="Attack"
    ),
    pytest.param(
        "Bob",
        deploy(2, "general"),
        "Bob deploys the General to card 2",
        "Bob deploys the General to Ocean card 2",
        id="Lead",
    ),
    pytest.param(
        "Ann",
        move(1, 2),
        "Ann moves a Minion from card 1 to card 2 (an ability)",
        "Ann moves a Minion from Forest card 1 to Ocean card 2 (an ability)",
        id="move",
    ),
    pytest.param(
        "Ann",
        remove(1),
        "Ann returns a Minion from card 1 to Base Camp (an ability)",
        "Ann returns a Minion from Forest card 1 to Base Camp (an ability)",
        id="remove",
    ),
    pytest.param("Ann", capture(1), "Ann captures card 1", "Ann captures Forest card 1", id="capture"),
    pytest.param(None, NEXT, "Next turn", "Next turn", id="next turn"),
    pytest.param(None, LAST, "The last Location card is drawn", "The last Location card is drawn", id="last card"),
    pytest.param(
        None,
        mastery(1, 6, "ann", "Bob"),
        "Mastery Objective 1: 6 VP, best met by Ann and Bob",
        "Mastery Objective 1: 6 VP, best met by Ann and Bob",
        id="Mastery Objective",
    ),
    pytest.param(
        None,
        mastery(2, 0),
        "Mastery Objective 2: 0 VP, best met by nobody",
        "Mastery Objective 2: 0 VP, best met by nobody",
        id="Mastery Objective met by nobody",
    ),
]


@pytest.mark.parametrize(("who", "raw", "text", "knowing_the_cards"), DESCRIBED)
def test_actions_are_said_in_plain_words(
    who: str | None, raw: dict[str, Any], text: str, knowing_the_cards: str
) -> None:
    """Undo and the log say each action as players would, never Python's brackets, quotes or field names; with the
    state before the action, a card is named as the tracker shows it."""
    before, ctx, _ = play(
        2, [(None, explore("forest")), (None, explore("ocean", encampments=4)), ("Ann", deploy(1)), ("Ann", deploy(1))]
    )
    action = live.parse_action(GAME, raw, ctx.names.index(who) if who else None, strict=True)
    assert live.describe(GAME, action, ctx) == text
    assert GAME.live.actions[action.name].describe(action, ctx, before) == knowing_the_cards
    for said in (text, knowing_the_cards):
        assert not any(mark in said for mark in "[]{}_'\"")


def test_what_the_tracker_does_not_keep_is_said() -> None:
    """The hand, the deck, the turn's action and the abilities stay on the table: the tracker says so, in sentences."""
    untracked = GAME.live.untracked
    assert len(untracked) >= 4
    assert any("hand" in text and "deck" in text for text in untracked)
    assert any("abilities" in text for text in untracked)
    for text in untracked:
        assert text[0].isupper() and text.endswith(".") and "_" not in text and "[" not in text


# --- Which rule sentence each live test checks -----------------------------------------------------------------

RULE_SENTENCES = [
    (
        (
            "Explore: Put a Location card from your hand into the Skirmish Area. If the Location's color does not match "
            "your Units' color, deploy one of your Minions to that Location."
        ),
        [
            "test_explore_deploys_a_minion_unless_the_colour_matches",
            "test_explore_with_no_minion_left_still_puts_the_card_in_play",
        ],
    ),
    (
        "Each player simultaneously puts one Location from his or her hand into the Skirmish Area.",
        ["test_a_card_put_in_by_nobody_deploys_nothing", "test_cards_are_numbered_in_the_order_they_come_into_play"],
    ),
    (
        "Each Location has one of four types: Forest, Mountain, Ocean and Swamp.",
        ["test_explore_refused", "test_a_card_is_never_guessed"],
    ),
    (
        (
            "Each Location also features one of three Resources: Crystal, Iron and Gold. Some Locations can have multiple"
            " Resources assigned to them."
        ),
        ["test_explore_refused", "test_one_resource_from_a_form_is_text", "test_a_card_is_never_guessed"],
    ),
    (
        (
            "Encampments: Place your Unit on one of these spaces. The number of Encampments can vary from one Location "
            "card to the next."
        ),
        ["test_a_card_is_never_guessed", "test_nine_cards_each_keep_what_was_given_for_them"],
    ),
    (
        "Every Artifact card features 5 Encampments.",
        ["test_an_artifact_has_five_encampments", "test_an_artifact_with_other_than_five_encampments_is_refused"],
    ),
    (
        (
            "Victory Points: Victory Point values on Artifact vary from card to card (and in rare cases can even be "
            "negative)."
        ),
        ["test_a_zero_vp_location_and_a_negative_artifact_are_taken", "test_a_card_is_never_guessed"],
    ),
    (
        (
            "To deploy a Unit, a player moves it from his or her Base Camp into an unoccupied encampment (which appears "
            "as a circle)."
        ),
        ["test_deploy_refused", "test_ten_minions_and_the_general_can_all_be_deployed"],
    ),
    ("Attack: Deploy one of your Minions to any Location in the Skirmish Area.", ["test_deploy_refused"]),
    ("Lead: Deploy your General to any Location in the Skirmish Area.", ["test_deploy_refused"]),
    (
        (
            "Players cannot perform the Attack or Lead actions on Locations in a player's Captured Area, Units in that "
            "zone may still be affected by card abilities."
        ),
        ["test_deploy_refused", "test_units_on_a_captured_location_move_and_the_location_stays_captured"],
    ),
    (
        (
            "Note: Regardless of the Units moved onto or off its encampments, a captured Location cannot become "
            "uncaptured."
        ),
        [
            "test_a_captured_location_is_never_uncaptured",
            "test_units_on_a_captured_location_move_and_the_location_stays_captured",
            "test_the_page_offers_moves_to_captured_locations_but_never_a_locked_artifact",
        ],
    ),
    (
        "No player's Units are removed from the Location when it's captured.",
        ["test_a_captured_location_is_never_uncaptured"],
    ),
    (
        "Exile: To exile a Minion, remove it from a card, and return it to its player's Base Camp.",
        ["test_remove_returns_the_unit_to_base_camp", "test_move_and_remove_refused"],
    ),
    (
        (
            "Achieve Majority: When a Location has no unoccupied spaces remaining, the player with the most Units "
            "deployed to that Location has achieved majority."
        ),
        ["test_explore_onto_a_one_space_location_says_it_may_be_captured", "test_capture_refused"],
    ),
    (
        (
            "Rule of Ties: In the event that all of a Location's encampments are occupied and there is a tie for "
            "majority, the tying player to have most recently placed a Unit to that Location captures the card."
        ),
        ["test_example_2_the_rule_of_ties_decides", "test_rule_of_ties_with_three_players"],
    ),
    (
        (
            "Demonstrate Majority: A player demonstrates majority when he or she would achieve majority even if all of "
            "the Location's remaining unoccupied spaces were occupied by another player's Units."
        ),
        [
            "test_example_1_general_and_minion_on_a_three_space_location",
            "test_artifact_demonstrated_with_nobody_else_there",
        ],
    ),
    (
        (
            "When a player captures an Ancient Artifact, all other players return their Units deployed to that card to "
            "their Base Camps, then that player places the Artifact into their Captured Area."
        ),
        [
            "test_artifact_capture_sends_the_others_home_and_locks_the_capturer",
            "test_undo_of_an_artifact_capture_brings_the_units_back_and_unlocks",
        ],
    ),
    (
        (
            "Units on a captured Ancient Artifact are locked. They cannot be moved, destroyed, or obliterated. In "
            "addition, new units may not be added."
        ),
        [
            "test_units_on_a_captured_artifact_are_locked",
            "test_no_unit_is_moved_onto_a_captured_artifact",
            "test_the_page_offers_moves_to_captured_locations_but_never_a_locked_artifact",
        ],
    ),
    (
        "If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends.",
        [
            "test_a_turn_started_with_an_empty_base_camp_ends_the_game",
            "test_one_unit_left_in_base_camp_is_not_the_end",
            "test_emptying_base_camp_during_ones_own_turn_is_not_yet_the_end",
            "test_after_the_end_the_game_itself_is_refused",
            "test_a_capture_after_the_end_is_refused",
            "test_an_end_at_once_during_the_final_turns_says_no_countdown",
        ],
    ),
    (
        (
            "When a player draws the last card from the shared Location deck, that player finishes his or her turn and "
            "then each other player takes one final turn."
        ),
        [
            "test_after_the_last_card_every_other_player_takes_one_more_turn",
            "test_countdown_in_the_middle_of_the_final_turns",
            "test_the_last_card_is_drawn_once",
            "test_after_the_end_the_game_itself_is_refused",
            "test_undo_of_the_last_next_turn_reopens_the_final_turn",
        ],
    ),
    (
        (
            "Starting with the first player and rotating clockwise, a player must complete the following 3 steps, in "
            "order, on their turn."
        ),
        ["test_turns_go_clockwise_from_the_first_player"],
    ),
    (
        (
            "Deployed Minions on familiar terrain (a Location matching its color): 2 VP each; Deployed Minions on "
            "unfamiliar terrain: 1 VP each; Deployed Generals on familiar terrain: 3 VP; Deployed Generals on unfamiliar "
            "terrain: 2 VP."
        ),
        ["test_units_score_by_the_terrain_they_stand_on", "test_units_on_a_captured_artifact_score_as_unfamiliar"],
    ),
    (
        (
            "Units still on the Base Camp card at end of game are worth 0 VP, but a deployed Unit earns VP whether it's "
            "on an uncaptured Location or a captured Location, regardless of who captured it."
        ),
        ["test_units_in_base_camp_score_nothing", "test_a_captured_location_is_never_uncaptured"],
    ),
    (
        "Captured card is worth whatever value is written on the card; Resource sets: 3 VP each.",
        ["test_captured_cards_and_resource_sets_from_the_board", "test_uncaptured_cards_score_no_card_vp_or_sets"],
    ),
    (
        (
            "Once the scoring phase at the end of the game begins, you will reveal your Bonus cards and choose one to "
            "earn extra points."
        ),
        ["test_bonus_objectives_best_of_three", "test_after_the_end_what_scoring_needs_is_taken"],
    ),
    (
        (
            "The player who best meets the condition on a Mastery card will be awarded the points listed on it (in the "
            "case of a tie, the points will be divided evenly amongst the tied players, rounded down)."
        ),
        ["test_mastery_objectives", "test_mastery_refused", "test_after_the_end_what_scoring_needs_is_taken"],
    ),
    (
        "In the event of a tie, the player with the most captured lands of their own color wins.",
        ["test_tie_break_most_captured_lands_of_their_own_colour"],
    ),
]


def test_every_rule_sentence_names_live_tests_that_exist() -> None:
    """The list above names tests of this file only, and every rule test of this file is listed under a sentence."""
    named = {name for _sentence, names in RULE_SENTENCES for name in names}
    defined = {name for name in globals() if name.startswith("test_")}
    assert named <= defined, named - defined
    # Tests of the machinery rather than of a rule sentence (undo, purity, plain words, random play).
    machinery = {
        "test_undo_restores_the_state_before",
        "test_apply_does_not_change_the_state_given",
        "test_random_play_keeps_the_board_straight",
        "test_actions_are_said_in_plain_words",
        "test_what_the_tracker_does_not_keep_is_said",
        "test_every_rule_sentence_names_live_tests_that_exist",
        "test_mastery_said",
        "test_bonus_counter_add_and_refused_below_zero",
        "test_a_board_scored_line_by_line",
        "test_the_last_card_mark_can_be_taken_off",
        "test_the_last_card_mark_off_when_there_is_none_is_refused",
        "test_after_a_mark_taken_off_the_last_card_can_be_marked_again",
    }
    assert defined - named - machinery == set()
