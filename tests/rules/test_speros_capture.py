"""Capture by majority in Conquest of Speros, from the rule text's sentences and its two worked examples, and a
brute-force check of demonstration over every way the empty encampments could be filled."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.speros import ACHIEVE, DEMONSTRATE, capture

CASES = [
    pytest.param(
        3,
        ["Red", "Red"],
        "Red",
        DEMONSTRATE,
        id="Example 1: Red places his or her General and a Minion on a three-space Location. Red may capture",
    ),
    pytest.param(
        4,
        ["Red", "Green", "Green"],
        None,
        None,
        id="Example 2: Red could play a Unit to the last space and capture that card with the Rule of Ties",
    ),
    pytest.param(
        4,
        ["Red", "Green", "Green", "Red"],
        "Red",
        ACHIEVE,
        id="Example 2 played on: Red fills the last space and captures with the Rule of Ties",
    ),
    pytest.param(
        3,
        ["Red", "Green", "Green"],
        "Green",
        ACHIEVE,
        id="Achieve Majority: no unoccupied spaces, the player with the most Units",
    ),
    pytest.param(
        3,
        ["Red", "Green", "Blue"],
        "Blue",
        ACHIEVE,
        id="Rule of Ties with three players: the tying player to have most recently placed a Unit",
    ),
    pytest.param(
        4, ["Green", "Red", "Green", "Red"], "Red", ACHIEVE, id="Rule of Ties: Red and Green tie at 2, Red placed last"
    ),
    pytest.param(
        4,
        ["Red", "Green", "Blue", "Green"],
        "Green",
        ACHIEVE,
        id="Achieve Majority with three players: the most Units wins, no tie",
    ),
    pytest.param(
        6,
        ["Red", "Red", "Red", "Red"],
        "Red",
        DEMONSTRATE,
        id="Demonstrate Majority with two empty spaces: 4 against at most 2",
    ),
    pytest.param(
        7,
        ["Red", "Red", "Red", "Green"],
        None,
        None,
        id="Demonstrate Majority fails: Green could fill three spaces, reach 4 and win the tie",
    ),
    pytest.param(
        5,
        ["Red", "Red", "Red"],
        "Red",
        DEMONSTRATE,
        id="Demonstrate on an Artifact's 5 encampments: 3 against at most 2",
    ),
    pytest.param(
        2, ["Red"], None, None, id="One unit on a two-space Location: another player would tie and be the most recent"
    ),
    pytest.param(1, ["Red"], "Red", ACHIEVE, id="A one-space Location full: its only unit achieves majority"),
    pytest.param(4, [], None, None, id="Nobody has a unit here yet"),
    pytest.param(
        5,
        ["Red", "Green", "Red", "Green"],
        None,
        None,
        id="A tie with a space left is no capture: whoever fills it wins",
    ),
]


@pytest.mark.parametrize(("encampments", "placements", "winner", "how"), CASES)
def test_capture_by_the_rule_text(encampments: int, placements: list[str], winner: str | None, how: str | None) -> None:
    decided = capture(encampments, placements)
    assert (decided.captured_by, decided.how) == (winner, how)
    assert decided.why


def test_the_why_says_the_rule_it_used() -> None:
    assert "rule of ties" in capture(3, ["Red", "Green", "Blue"]).why
    assert "demonstrates majority" in capture(3, ["Red", "Red"]).why
    assert "win a tie as the most recent" in capture(4, ["Red", "Green", "Green"]).why


def achieves(placements: list[str]) -> str:
    """The winner of a full card by Achieve Majority and the Rule of Ties, worked out independently."""
    counts = Counter(placements)
    most = max(counts.values())
    return next(p for p in reversed(placements) if counts[p] == most)


def demonstrates_by_brute_force(encampments: int, placements: list[str], players: list[str]) -> str | None:
    """The player who wins every completion of the card by other players' units, in any order, or None."""
    empty = encampments - len(placements)
    if empty == 0:
        return achieves(placements)
    for candidate in sorted(set(placements)):
        others = [p for p in players if p != candidate] + ["Newcomer"]
        if all(achieves(placements + list(fill)) == candidate for fill in product(others, repeat=empty)):
            return candidate
    return None


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda size: st.tuples(
            st.just(size),
            st.lists(st.sampled_from(["Red", "Green", "Blue"]), max_size=size),
        )
    )
)
def test_capture_agrees_with_brute_force(card: tuple[int, list[str]]) -> None:
    """Demonstration means 'would achieve majority even if all of the remaining unoccupied spaces were occupied by
    another player's Units': checked against every way the empty encampments could be filled."""
    encampments, placements = card
    expected = demonstrates_by_brute_force(encampments, placements, ["Red", "Green", "Blue"]) if placements else None
    assert capture(encampments, placements).captured_by == expected
