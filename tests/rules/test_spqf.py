"""SPQF scoring, tie-breaks and input checks, each case tied to the rule sentence or project decision it checks.

Rule text: the SPQF game rules. Decisions: docs/rules.md, "SPQF".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.games.spqf import (
    BREAKDOWN,
    DEFAULT_LEVEL_VP,
    GAME,
    MONUMENT_MODIFIERS_MAX,
    PLAYER_CARDS_MAX,
    VP_TOKENS_MAX,
    SpqfOptions,
    SpqfPlayer,
    reference_notes,
    score,
    setup,
)
from tests.rules.tools import bad_count, bad_option, field_errors, player, points

KEYS = [key for key, _ in BREAKDOWN]


def errors_of(players: Any, options: Any = None) -> dict[str, str]:
    """The field errors score_raw raises, as {field: message}."""
    return field_errors(GAME, players, options)


# --- Scoring sentences ----------------------------------------------------------------------------------------

SCORING = [
    pytest.param(
        [player("Ann", vp_tokens=12), player("Bob")],
        {},
        "Ann",
        {"vp_tokens": 12, "civ_level": 0, "monument": 0, "monument_bonus": 0, "vp_cards": 0},
        id="1. VP tokens collected",
    ),
    pytest.param(
        [player("Ann", civ_level=3), player("Bob")],
        {},
        "Ann",
        {"vp_tokens": 0, "civ_level": 9, "monument": 0, "monument_bonus": 0, "vp_cards": 0},
        id="2. Civilization Level (Ex: Level 3 awards 9VP)",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=7), player("Bob", monument_modifiers=2)],
        {},
        "Ann",
        {"vp_tokens": 0, "civ_level": 0, "monument": 7, "monument_bonus": 3, "vp_cards": 0},
        id="3. Monuments: Score 1 VP per indicated modifier on cards in your deck (or stored). Don't count oak leaves!",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=7), player("Bob", monument_modifiers=2)],
        {},
        "Bob",
        {"vp_tokens": 0, "civ_level": 0, "monument": 2, "monument_bonus": 0, "vp_cards": 0},
        id="3. Monuments: 1 VP per indicated modifier, also for a player without the bonus",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=4), player("Bob", monument_modifiers=6), player("Cy", monument_modifiers=5)],
        {},
        "Bob",
        {"vp_tokens": 0, "civ_level": 0, "monument": 6, "monument_bonus": 3, "vp_cards": 0},
        id="4. The player who earned the most VP for their Monument scores a 3VP bonus",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=6), player("Bob", monument_modifiers=6), player("Cy", monument_modifiers=5)],
        {},
        "Ann",
        {"vp_tokens": 0, "civ_level": 0, "monument": 6, "monument_bonus": 0, "vp_cards": 0},
        id="4. If players are tied, no bonus is awarded",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=6), player("Bob", monument_modifiers=6), player("Cy", monument_modifiers=5)],
        {},
        "Cy",
        {"vp_tokens": 0, "civ_level": 0, "monument": 5, "monument_bonus": 0, "vp_cards": 0},
        id="4. If players are tied, no bonus is awarded: not to the next best either",
    ),
    pytest.param(
        [player("Ann", monument_modifiers=6), player("Bob", monument_modifiers=3), player("Cy", monument_modifiers=3)],
        {},
        "Ann",
        {"vp_tokens": 0, "civ_level": 0, "monument": 6, "monument_bonus": 3, "vp_cards": 0},
        id="4. The player who earned the most scores a 3VP bonus: a tie below the most does not matter",
    ),
    pytest.param(
        [player("Ann", vp_cards=4), player("Bob")],
        {},
        "Ann",
        {"vp_tokens": 0, "civ_level": 0, "monument": 0, "monument_bonus": 0, "vp_cards": 4},
        id="5. 1 VP from each card with 1 VP in top right corner",
    ),
    pytest.param(
        [
            player("Ann", vp_tokens=14, civ_level=4, monument_modifiers=8, vp_cards=3),
            player("Bob", monument_modifiers=1),
        ],
        {},
        "Ann",
        {"vp_tokens": 14, "civ_level": 12, "monument": 8, "monument_bonus": 3, "vp_cards": 3},
        id="Then, add up VP: every way points are earned together",
    ),
    pytest.param(
        [player("Ann", civ_level=3), player("Bob")],
        {"level_vp": [0, 1, 3, 6, 10, 15]},
        "Ann",
        {"vp_tokens": 0, "civ_level": 6, "monument": 0, "monument_bonus": 0, "vp_cards": 0},
        id="notes: Civilization Level VP is a per-level table, a setting (options.level_vp)",
    ),
]


@pytest.mark.parametrize(("players", "options", "name", "expected"), SCORING)
def test_scoring_sentence(players: list[dict], options: dict, name: str, expected: dict[str, int]) -> None:
    """Each scoring sentence gives the expected points on the expected line, through the API and pure score()."""
    result = GAME.score_raw(players, options)
    assert points(result, name) == expected
    models = [SpqfPlayer.model_validate(p) for p in players]
    assert points(score(models, SpqfOptions.model_validate(options)), name) == expected
    scored = next(p for p in result.players if p.name == name)
    assert scored.total == sum(expected.values())


@pytest.mark.parametrize(
    ("level", "vp"),
    list(enumerate(DEFAULT_LEVEL_VP)),
    ids=[f"notes: default table for levels 0..5: 0, 3, 6, 9, 12, 15 (level {n})" for n in range(6)],
)
def test_default_level_table(level: int, vp: int) -> None:
    """Every level of the default table, with the reference-card wording in the why."""
    result = GAME.score_raw([player("Ann", civ_level=level), player("Bob")])
    line = next(ln for ln in result.players[0].lines if ln.key == "civ_level")
    assert line.points == vp
    assert line.why == f"Civilization Level {level} of 5, from the level table (check your reference card): {vp} VP."


MONUMENT_BONUS_WHO = [
    pytest.param([0, 0], [], id="If players are tied, no bonus is awarded: everyone at 0 is a tie for the most"),
    pytest.param([0, 0, 0, 0], [], id="If players are tied, no bonus is awarded: 4 players all at 0"),
    pytest.param([1, 0], ["P0"], id="The player who earned the most VP scores a 3VP bonus: 1 against 0"),
    pytest.param([5, 5, 5], [], id="If players are tied, no bonus is awarded: all tied"),
    pytest.param([2, 9, 9, 1], [], id="If players are tied, no bonus is awarded: two of four tie"),
    pytest.param([2, 9, 8, 9], [], id="If players are tied, no bonus is awarded: not first in turn order"),
    pytest.param([2, 9, 8, 1], ["P1"], id="The player who earned the most VP for their Monument scores a 3VP bonus"),
]


@pytest.mark.parametrize(("modifiers", "bonus_to"), MONUMENT_BONUS_WHO)
def test_monument_bonus_goes_to_the_single_most(modifiers: list[int], bonus_to: list[str]) -> None:
    """At most one player gets +3, only when nobody ties their Monument VP."""
    players = [player(f"P{i}", monument_modifiers=n) for i, n in enumerate(modifiers)]
    result = GAME.score_raw(players)
    assert [p.name for p in result.players if p.points("monument_bonus") == 3] == bonus_to
    assert all(p.points("monument_bonus") in (0, 3) for p in result.players)


def test_monument_bonus_whys_say_why() -> None:
    """Each bonus line explains itself: the winner, the tie, the all-zero tie, the player behind."""
    result = GAME.score_raw([player("Ann", monument_modifiers=6), player("Bob", monument_modifiers=2)])
    whys = {p.name: next(ln.why for ln in p.lines if ln.key == "monument_bonus") for p in result.players}
    assert whys["Ann"] == "The most Monument VP (6; next best 2): 3 VP."
    assert whys["Bob"] == "2 Monument VP; Ann has the most (6) and takes the 3 VP bonus: 0 VP."
    tied = GAME.score_raw([player("Ann", monument_modifiers=6), player("Bob", monument_modifiers=6), player("Cy")])
    tied_whys = {p.name: next(ln.why for ln in p.lines if ln.key == "monument_bonus") for p in tied.players}
    assert tied_whys["Ann"] == "Tied with Bob for the most Monument VP (6), and a tie awards the bonus to nobody: 0 VP."
    assert tied_whys["Cy"] == "0 Monument VP; Ann and Bob tie for the most (6), so nobody gets the bonus: 0 VP."
    zero = GAME.score_raw([player("Ann"), player("Bob")])
    zero_whys = [ln.why for p in zero.players for ln in p.lines if ln.key == "monument_bonus"]
    assert zero_whys == ["Everyone has 0 Monument VP, a tie for the most, so nobody gets the bonus: 0 VP."] * 2


def test_every_breakdown_key_is_always_present_in_order() -> None:
    """'Every breakdown key is always present (0 when nothing scored)', in the declared order."""
    result = GAME.score_raw([player("Ann"), player("Bob")])
    for scored in result.players:
        assert [ln.key for ln in scored.lines] == KEYS
        assert KEYS == ["vp_tokens", "civ_level", "monument", "monument_bonus", "vp_cards"]
        assert all(ln.points == 0 and ln.why for ln in scored.lines)
        assert scored.total == 0


# --- Ranking and tie-breaks -----------------------------------------------------------------------------------

RANKING = [
    pytest.param(
        [player("Ann", vp_tokens=20), player("Bob", vp_tokens=10)],
        {},
        [1, 2],
        ["Ann"],
        id="Then, add up VP, with the highest score determining the winner",
    ),
    pytest.param(
        # Ann 3 + 9 = 12, Bob 6 + 6 = 12: Ann's level 3 beats Bob's level 2.
        [player("Ann", vp_tokens=3, civ_level=3), player("Bob", vp_tokens=6, civ_level=2)],
        {},
        [1, 2],
        ["Ann"],
        id="If there is a tie, the player with the highest Civilization Level wins",
    ),
    pytest.param(
        [player("Ann", vp_tokens=6, civ_level=2), player("Bob", vp_tokens=6, civ_level=2)],
        {},
        [1, 1],
        ["Ann", "Bob"],
        id="If still tied, share the victory",
    ),
    pytest.param(
        [player("Ann", vp_tokens=6, civ_level=2), player("Bob", vp_tokens=6, civ_level=2), player("Cy", vp_tokens=1)],
        {},
        [1, 1, 3],
        ["Ann", "Bob"],
        id="If still tied, share the victory: the next rank skips (1, 1, 3)",
    ),
    pytest.param(
        # All four on 15 VP: levels 3, 3, 2, 2.
        [
            player("Ann", vp_tokens=6, civ_level=3),
            player("Bob", vp_tokens=6, civ_level=3),
            player("Cy", vp_tokens=9, civ_level=2),
            player("Dee", vp_tokens=9, civ_level=2),
        ],
        {},
        [1, 1, 3, 3],
        ["Ann", "Bob"],
        id="If there is a tie, the highest Civilization Level wins. If still tied, share the victory: 1, 1, 3, 3",
    ),
    pytest.param(
        # All four on 15 VP: levels 0, 3, 2, 2.
        [
            player("Ann", vp_tokens=15, civ_level=0),
            player("Bob", vp_tokens=6, civ_level=3),
            player("Cy", vp_tokens=9, civ_level=2),
            player("Dee", vp_tokens=9, civ_level=2),
        ],
        {},
        [4, 1, 2, 2],
        ["Bob"],
        id="If there is a tie, the highest Civilization Level wins: level 0 with the most tokens comes last",
    ),
    pytest.param(
        # All on 15: levels 4, 3, 3 -> Ann first, Bob and Cy share second.
        [
            player("Ann", vp_tokens=3, civ_level=4),
            player("Bob", vp_tokens=6, civ_level=3),
            player("Cy", vp_tokens=6, civ_level=3),
        ],
        {},
        [1, 2, 2],
        ["Ann"],
        id="If there is a tie, the highest Civilization Level wins; If still tied, share (rank 2)",
    ),
    pytest.param(
        [player("Ann"), player("Bob"), player("Cy"), player("Dee")],
        {},
        [1, 1, 1, 1],
        ["Ann", "Bob", "Cy", "Dee"],
        id="If still tied, share the victory: all at 0",
    ),
    pytest.param(
        # A table giving levels 2 and 3 the same VP: the level, not its VP, breaks the tie.
        [player("Ann", civ_level=3), player("Bob", civ_level=2)],
        {"level_vp": [0, 3, 6, 6, 12, 15]},
        [1, 2],
        ["Ann"],
        id="If there is a tie, the player with the highest Civilization Level wins: the level, not its VP",
    ),
]


@pytest.mark.parametrize(("players", "options", "ranks", "winners"), RANKING)
def test_ranking(players: list[dict], options: dict, ranks: list[int], winners: list[str]) -> None:
    """Ranks by total, then highest Civilization Level; players still tied share a rank and the next one skips."""
    result = GAME.score_raw(players, options)
    assert [p.rank for p in result.players] == ranks
    assert list(result.winners) == winners


def test_tie_break_sentences() -> None:
    """The tie-break is explained: decided by level, or still tied and shared."""
    decided = GAME.score_raw([player("Ann", vp_tokens=3, civ_level=3), player("Bob", vp_tokens=6, civ_level=2)])
    assert decided.tiebreak == (
        "Ann and Bob tied on 12 VP. Tie-break, highest Civilization Level: Ann level 3, Bob level 2."
    )
    shared = GAME.score_raw([player("Ann", civ_level=2), player("Bob", civ_level=2), player("Cy", vp_tokens=1)])
    assert shared.tiebreak is not None
    assert "Highest Civilization Level is equal too: level 2 each." in shared.tiebreak
    assert shared.tiebreak.endswith("Still tied, Ann and Bob share the victory.")
    assert GAME.score_raw([player("Ann", vp_tokens=1), player("Bob")]).tiebreak is None


# --- Options, notes, setup, declaration -----------------------------------------------------------------------


def test_level_table_option_changes_the_score_and_the_notes() -> None:
    """notes: 'An API caller may pass its own table as options.level_vp (6 integers, levels 0..5)'."""
    players = [player("Ann", civ_level=5), player("Bob", civ_level=1)]
    default = GAME.score_raw(players)
    custom = GAME.score_raw(players, {"level_vp": [1, 2, 4, 8, 16, 32]})
    assert [p.points("civ_level") for p in default.players] == [15, 3]
    assert [p.points("civ_level") for p in custom.players] == [32, 2]
    notes = reference_notes(SpqfOptions.model_validate({"level_vp": [1, 2, 4, 8, 16, 32]}))
    assert "level 5: 32" in notes[0] and "check your reference card" in notes[0] and "your own" in notes[0]
    default_notes = reference_notes(SpqfOptions())
    assert "level 0: 0, level 1: 3, level 2: 6, level 3: 9, level 4: 12, level 5: 15" in default_notes[0]
    assert "check your reference card" in default_notes[0]
    assert any("oak leaves never count" in note for note in default_notes)


def test_level_table_accepts_a_tuple_from_python() -> None:
    """The pure path: a Python caller may give the table as a tuple."""
    options = SpqfOptions(level_vp=(0, 1, 2, 3, 4, 5))
    assert options.level_vp == (0, 1, 2, 3, 4, 5)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_setup_steps(count: int) -> None:
    """'Shuffle the Civilization cards and deal 5 to each player', the end conditions, for each player count."""
    steps = setup(count, SpqfOptions())
    text = " ".join(steps)
    assert f"{5 * count} for {count} players" in text
    assert "25 or more VP tokens" in text and "level 5" in text and "central trade row" in text


def test_game_declaration() -> None:
    """The declaration the registry and the JSON API rely on."""
    assert (GAME.id, GAME.name, GAME.min_players, GAME.max_players) == ("spqf", "SPQF", 2, 4)
    assert [key for key, _ in GAME.breakdown] == KEYS
    assert 4 <= len(GAME.colours) <= 5 and GAME.blurb and GAME.rules_version
    blank = GAME.player_model.model_validate({"name": "Ann"}).model_dump(exclude={"name"})
    assert blank == {"vp_tokens": 0, "civ_level": 0, "monument_modifiers": 0, "vp_cards": 0}


# --- Bad input ------------------------------------------------------------------------------------------------

BAD_INPUT = [
    bad_count("civ_level", 6, "Must be at most 5.", "There are 5 Civilization Levels: level 6 is refused", seat=1),
    bad_count("civ_level", -1, "Must be at least 0.", "Levels are earned from 0: a negative level is refused"),
    bad_count(
        "vp_tokens",
        VP_TOKENS_MAX + 1,
        f"Must be at most {VP_TOKENS_MAX}.",
        "notes: tokens are refused only above 150, as a typo guard (the 40 acorns are no limit)",
    ),
    bad_count(
        "vp_cards",
        PLAYER_CARDS_MAX + 1,
        f"Must be at most {PLAYER_CARDS_MAX}.",
        "notes: 48 Civilization cards + 5 starters of your own: more cards is refused",
    ),
    bad_count(
        "monument_modifiers",
        MONUMENT_MODIFIERS_MAX + 1,
        f"Must be at most {MONUMENT_MODIFIERS_MAX}.",
        "a card with two modifiers, on every card you can own, is the most",
    ),
    bad_count("vp_tokens", -2, "Must be at least 0.", "VP tokens collected: a count is never negative"),
    bad_count("vp_tokens", "3", "Enter a whole number.", "wrong type: '3' as text for an integer"),
    bad_count("civ_level", True, "Enter a whole number.", "wrong type: true for an integer", seat=1),
    bad_count("monument_modifiers", 2.0, "Enter a whole number.", "wrong type: 2.0 for an integer"),
    bad_count(
        "oak_leaves",
        3,
        "Unknown field.",
        "Don't count oak leaves!: there is no oak leaf field, unknown fields are refused",
    ),
    pytest.param(
        [{"vp_tokens": 3}, player("Bob")],
        {},
        "players[0].name",
        "This field is required.",
        id="every player has a name",
    ),
    pytest.param(
        [player("Ann"), player("ann")],
        {},
        "players[1].name",
        "ann is already playing.",
        id="duplicate names (case-insensitive) are refused",
    ),
    pytest.param(
        [player("Ann")],
        {},
        "players",
        "SPQF is for 2 to 4 players; 1 given.",
        id="A deck-building game for 2-4 players: 1 player is refused",
    ),
    pytest.param(
        [player(f"P{i}") for i in range(5)],
        {},
        "players",
        "SPQF is for 2 to 4 players; 5 given.",
        id="A deck-building game for 2-4 players: 5 players are refused",
    ),
    pytest.param(
        {"Ann": {}},
        {},
        "players",
        "Give the players as a list.",
        id="players must be a list",
    ),
    bad_option(
        {"level_vp": [0, 3, 6, 9, 12]},
        "Give exactly 6 whole numbers, the VP for levels 0 to 5; 5 given.",
        "notes: options.level_vp is 6 integers: 5 are refused",
    ),
    bad_option(
        {"level_vp": [0, 3, 6, 9, 12, 15, 18]},
        "Give exactly 6 whole numbers, the VP for levels 0 to 5; 7 given.",
        "notes: options.level_vp is 6 integers: 7 are refused",
    ),
    bad_option(
        {"level_vp": [0, 3, 6, -9, 12, 15]},
        "Entry 4 is -9: each number must be between 0 and 99.",
        "notes: options.level_vp: a negative entry is refused",
    ),
    bad_option(
        {"level_vp": [0, 3, 6, "9", 12, 15]},
        "Entry 4 is not a whole number: give 6 whole numbers, the VP for levels 0 to 5.",
        "notes: options.level_vp: text in the table is refused",
    ),
    bad_option(
        {"level_vp": [0, 3, 6, 9, 12, True]},
        "Entry 6 is not a whole number: give 6 whole numbers, the VP for levels 0 to 5.",
        "notes: options.level_vp: true in the table is refused",
    ),
    bad_option(
        {"level_vp": 9},
        "Give a list of 6 whole numbers, the VP for levels 0 to 5.",
        "notes: options.level_vp: a single number is refused",
    ),
    bad_option({"solo": True}, "Unknown field.", "unknown option is refused"),
    pytest.param(
        [player("Ann", vp_cards=40), player("Bob", vp_cards=19)],
        {},
        "players[1].vp_cards",
        "Only 58 cards are in play with 2 players (48 Civilization + 5 starters each); "
        "59 cards with a 1 VP corner counted in all.",
        id="notes: 48 Civilization cards, 5 starters a player: more 1 VP cards in all than are in play",
    ),
]


@pytest.mark.parametrize(("players", "options", "field", "message"), BAD_INPUT)
def test_bad_input(players: Any, options: dict, field: str, message: str) -> None:
    """Bad input raises InputErrors with the message beside the right field."""
    assert errors_of(players, options).get(field) == message


def test_every_card_in_play_is_still_accepted() -> None:
    """The cross-player card check refuses only impossible counts: exactly all cards in play is fine."""
    result = GAME.score_raw([player("Ann", vp_cards=40), player("Bob", vp_cards=18)])
    assert [p.total for p in result.players] == [40, 18]


# --- Properties -----------------------------------------------------------------------------------------------

counts = st.fixed_dictionaries(
    {
        "vp_tokens": st.integers(0, VP_TOKENS_MAX),
        "civ_level": st.integers(0, 5),
        "monument_modifiers": st.integers(0, 12),
        "vp_cards": st.integers(0, 14),
    }
)
tables = st.lists(st.integers(0, 99), min_size=6, max_size=6)


def named(rows: list[dict[str, int]]) -> list[dict[str, Any]]:
    """Give generated rows unique names."""
    return [{"name": f"P{i}", **row} for i, row in enumerate(rows)]


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(counts, min_size=2, max_size=4), table=tables)
def test_total_is_the_sum_of_the_breakdown(rows: list[dict[str, int]], table: list[int]) -> None:
    """Total == sum of the lines; every key present in order; at most one Monument bonus."""
    result = GAME.score_raw(named(rows), {"level_vp": table})
    for scored, row in zip(result.players, rows, strict=True):
        assert [ln.key for ln in scored.lines] == KEYS
        assert scored.total == sum(ln.points for ln in scored.lines)
        assert scored.total == (
            row["vp_tokens"]
            + table[row["civ_level"]]
            + row["monument_modifiers"]
            + scored.points("monument_bonus")
            + row["vp_cards"]
        )
    assert sum(1 for p in result.players if p.points("monument_bonus")) <= 1


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(counts, min_size=2, max_size=4), data=st.data())
def test_reordering_players_changes_no_total_or_rank(rows: list[dict[str, int]], data: st.DataObject) -> None:
    """Turn order plays no part in scoring: a permutation keeps every player's total and rank."""
    players = named(rows)
    shuffled = data.draw(st.permutations(players))
    before = {p.name: (p.total, p.rank) for p in GAME.score_raw(players).players}
    after = {p.name: (p.total, p.rank) for p in GAME.score_raw(shuffled).players}
    assert before == after


@settings(max_examples=120, deadline=None)
@given(
    rows=st.lists(counts, min_size=2, max_size=4),
    field=st.sampled_from(["vp_tokens", "vp_cards", "monument_modifiers", "civ_level"]),
    data=st.data(),
)
def test_more_never_scores_less(rows: list[dict[str, int]], field: str, data: st.DataObject) -> None:
    """More tokens, 1 VP cards, Monument modifiers or (default table) levels never lower your own score.

    Monument modifiers too: going up can only move you from behind to tied (no bonus either way) or from tied
    to alone at the top (+3), and you keep a bonus you already had.
    """
    players = named(rows)
    who = data.draw(st.integers(0, len(players) - 1))
    upper = {"vp_tokens": VP_TOKENS_MAX, "vp_cards": 14, "monument_modifiers": 12, "civ_level": 5}[field]
    assume(players[who][field] < upper)
    more = [dict(p) for p in players]
    more[who][field] = data.draw(st.integers(players[who][field] + 1, upper))
    assert GAME.score_raw(more).players[who].total > GAME.score_raw(players).players[who].total


@settings(max_examples=50, deadline=None)
@given(rows=st.lists(counts, min_size=2, max_size=4))
def test_pure_score_matches_score_raw(rows: list[dict[str, int]]) -> None:
    """The pure score() on validated models gives the same result as score_raw."""
    players = named(rows)
    models = [SpqfPlayer(**p) for p in players]
    assert score(models, SpqfOptions()) == GAME.score_raw(players)
