"""Spires scoring, table-driven from the Spires rulebook ("Scoring", solo "End Game and Scoring") and docs/rules.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import InputErrors
from companion.games.spires import GAME, SUITS, appraisal, solo_won


def player(name: str, towers: dict | None = None, **counts: int) -> dict:
    """A raw Spires player as the API takes it."""
    return {"name": name, "towers": towers or {}, **counts}


def points(result, name: str, key: str) -> int:
    """One breakdown line's points for one player."""
    return next(p for p in result.players if p.name == name).points(key)


SCORING = [
    # (rule sentence, towers, breakdown key, expected points)
    ("5 points per Spire card in each of your Towers with 3 or less total cards.", {"red": 3}, "towers", 15),
    ("5 points per Spire card in each of your Towers with 3 or less total cards.", {"red": 1, "blue": 2}, "towers", 15),
    (
        "5 points per Spire card in each of your Towers with 3 or less total cards.",
        dict.fromkeys(SUITS, 3),
        "towers",
        90,
    ),
    ("-1 point per Spire card in each of your Towers with 4 or more total cards.", {"blue": 4}, "tall_towers", -4),
    ("-1 point per Spire card in each of your Towers with 4 or more total cards.", {"blue": 4}, "towers", 0),
    (
        "-1 point per Spire card in each of your Towers with 4 or more total cards.",
        {"blue": 4, "black": 9},
        "tall_towers",
        -13,
    ),
    ("-1 point per Spire card in each of your Towers with 4 or more total cards.", {"green": 14}, "tall_towers", -14),
    ("A tower of 0 cards scores nothing either way.", {}, "towers", 0),
    ("A tower of 0 cards scores nothing either way.", {}, "tall_towers", 0),
]


@pytest.mark.parametrize(("rule", "towers", "key", "expected"), SCORING)
def test_tower_scoring(rule: str, towers: dict, key: str, expected: int) -> None:
    result = GAME.score_raw([player("Ann", towers), player("Bob")])
    assert points(result, "Ann", key) == expected


@pytest.mark.parametrize("scroll_vp", [0, 3, 10, 100])
def test_scroll_points(scroll_vp: int) -> None:
    """'Points per Scroll cards you have collected.'"""
    result = GAME.score_raw([player("Ann", scroll_vp=scroll_vp), player("Bob")])
    assert points(result, "Ann", "scrolls") == scroll_vp


BONUS = [
    # (rule, Ann's counts, Bob's counts, Cy's counts, {name: points on the symbol line})
    (
        "The player with the most symbols of each type is awarded a point bonus. Quills: 10 points",
        {"quills": 3},
        {"quills": 1},
        {},
        "quills",
        {"Ann": 10, "Bob": 0, "Cy": 0},
    ),
    ("Crowns: 15 points", {"crowns": 2}, {"crowns": 5}, {}, "crowns", {"Ann": 0, "Bob": 15, "Cy": 0}),
    ("Swords: 20 points", {"swords": 1}, {}, {}, "swords", {"Ann": 20, "Bob": 0, "Cy": 0}),
    (
        "In the case of a tie, all tied players receive this full bonus.",
        {"crowns": 2},
        {"crowns": 2},
        {"crowns": 1},
        "crowns",
        {"Ann": 15, "Bob": 15, "Cy": 0},
    ),
    (
        "In the case of a tie, all tied players receive this full bonus.",
        {"swords": 4},
        {"swords": 4},
        {"swords": 4},
        "swords",
        {"Ann": 20, "Bob": 20, "Cy": 20},
    ),
    (
        "docs/rules.md: a symbol bonus needs at least one symbol; when nobody has one, nobody scores it.",
        {},
        {},
        {},
        "quills",
        {"Ann": 0, "Bob": 0, "Cy": 0},
    ),
]


@pytest.mark.parametrize(("rule", "ann", "bob", "cy", "symbol", "expected"), BONUS)
def test_symbol_bonus(rule: str, ann: dict, bob: dict, cy: dict, symbol: str, expected: dict) -> None:
    result = GAME.score_raw([player("Ann", **ann), player("Bob", **bob), player("Cy", **cy)])
    assert {p.name: p.points(symbol) for p in result.players} == expected


def test_rulebook_example() -> None:
    """'a player scores 45 points for Spires with three or less cards, -4 points for a blue Spire with four cards,
    10 points for a Scroll Card, and 20 points for being tied for most Crowns.' (Crowns are worth 15 in the list;
    the example's 20 matches Swords, so the tie is on Swords here.)"""
    ann = player("Ann", {"purple": 3, "red": 3, "yellow": 3, "blue": 4}, scroll_vp=10, swords=2)
    bob = player("Bob", {"green": 1}, swords=2)
    result = GAME.score_raw([ann, bob])
    lines = {line.key: line.points for line in result.players[0].lines}
    assert lines == {"towers": 45, "tall_towers": -4, "scrolls": 10, "swords": 20, "crowns": 0, "quills": 0}
    assert result.players[0].total == 71


TIES = [
    # (rule, Ann, Bob, winners, ranks, tie-break sentence fragment)
    (
        "In the case of a tie, the player with the least negative points wins.",
        player("Ann", {"red": 3, "blue": 4}, scroll_vp=4),
        player("Bob", {"red": 3}),
        ["Bob"],
        [2, 1],
        "fewest negative points",
    ),
    (
        "In the case of a tie, the player with the least negative points wins.",
        player("Ann", {"red": 3, "blue": 4, "black": 5}, scroll_vp=9),
        player("Bob", {"red": 3, "blue": 4}, scroll_vp=4),
        ["Bob"],
        [2, 1],
        "Tie-break, fewest negative points: Bob −4 VP, Ann −9 VP.",
    ),
    (
        "docs/rules.md: still tied after the fewest negative points: shared victory.",
        player("Ann", {"red": 2}),
        player("Bob", {"blue": 2}),
        ["Ann", "Bob"],
        [1, 1],
        "share the victory",
    ),
    ("A clear winner needs no tie-break.", player("Ann", {"red": 3}), player("Bob", {"red": 1}), ["Ann"], [1, 2], None),
]


@pytest.mark.parametrize(("rule", "ann", "bob", "winners", "ranks", "sentence"), TIES)
def test_tie_break(rule: str, ann: dict, bob: dict, winners: list, ranks: list, sentence: str | None) -> None:
    result = GAME.score_raw([ann, bob])
    assert list(result.winners) == winners
    assert [p.rank for p in result.players] == ranks
    if sentence is None:
        assert result.tiebreak is None
    else:
        assert sentence in result.tiebreak


def test_all_tied_share_rank_and_next_rank_skips() -> None:
    """Players still tied after every tie-break share a rank and the next rank skips (1, 1, 3)."""
    result = GAME.score_raw(
        [player("Ann", {"red": 2}), player("Bob", {"blue": 2}), player("Cy", {"red": 1}), player("Di", {"red": 1})]
    )
    assert [p.rank for p in result.players] == [1, 1, 3, 3]
    assert "share rank 3" in result.tiebreak


def test_all_zero() -> None:
    """Nobody built anything: everyone 0, a shared victory, every line present."""
    result = GAME.score_raw([player("Ann"), player("Bob")])
    assert [p.total for p in result.players] == [0, 0]
    assert list(result.winners) == ["Ann", "Bob"]
    assert [line.key for line in result.players[0].lines] == [k for k, _ in GAME.breakdown]


SOLO = [
    # (rule, your counts, discard pile, symbol, points)
    (
        "If you have a number equal to or greater than the amount in the discard pile, score the bonus for that symbol.",
        {"crowns": 2},
        {"crowns": 2},
        "crowns",
        15,
    ),
    (
        "If you have a number equal to or greater than the amount in the discard pile, score the bonus for that symbol.",
        {"swords": 5},
        {"swords": 3},
        "swords",
        20,
    ),
    (
        "compare the amount of symbols in your buildings compared to the amount in the discard pile.",
        {"quills": 1},
        {"quills": 2},
        "quills",
        0,
    ),
    ("docs/rules.md: in solo, a count of 0 never scores the bonus.", {}, {}, "quills", 0),
    ("docs/rules.md: in solo, a count of 0 never scores the bonus.", {}, {"crowns": 0}, "crowns", 0),
]


@pytest.mark.parametrize(("rule", "mine", "discard", "symbol", "expected"), SOLO)
def test_solo_symbols(rule: str, mine: dict, discard: dict, symbol: str, expected: int) -> None:
    result = GAME.score_raw([player("Ann", **mine)], {"solo": True, "discard": discard})
    assert result.players[0].points(symbol) == expected


APPRAISAL = [
    # (rule, total, band) — docs/rules.md, "Spires" (the chart leaves 50 and 151 out): 0-50 beheaded, 51-65
    # stocks, 66-80 greeting card, 81-100 gala, 101-150 smile, 151 and more jailed; negative totals in the first band.
    ("Less than 50 — You are beheaded.", -7, "beheaded"),
    ("Less than 50 — You are beheaded.", 0, "beheaded"),
    ("docs/rules.md: 50 is in the first band (the text leaves it out).", 50, "beheaded"),
    ("51-65 — After a few days in the stocks", 51, "stocks"),
    ("51-65", 65, "stocks"),
    ("66-80 — an emissary delivers a cordial greeting card", 66, "greeting-card"),
    ("66-80", 80, "greeting-card"),
    ("81-100 — you are unexpectedly invited to his next gala", 81, "gala"),
    ("81-100", 100, "gala"),
    ("101-150 — a smile lifts the corners of his lips", 101, "smile"),
    ("101-150", 150, "smile"),
    ("docs/rules.md: 151 and more: jailed for cheating (the text says 'More than 151').", 151, "jailed"),
    ("More than 151 — You are immediately thrown into jail for cheating.", 152, "jailed"),
]


@pytest.mark.parametrize(("rule", "total", "band"), APPRAISAL)
def test_kings_appraisal_bands(rule: str, total: int, band: str) -> None:
    assert appraisal(total)[0] == band


@pytest.mark.parametrize(("rule", "total", "band"), APPRAISAL)
def test_a_solo_game_is_won_where_the_king_is_pleased(rule: str, total: int, band: str) -> None:
    """docs/rules.md, Spires, "A solo game won": 66 to 150 wins; beheaded, stocks and jail do not."""
    assert solo_won(total) is (band in {"greeting-card", "gala", "smile"})


def test_solo_result_carries_appraisal() -> None:
    """'Then compare your score to the chart below': the solo answer adds the appraisal."""
    result = GAME.score_raw([player("Ann", dict.fromkeys(SUITS[:4], 3), crowns=1)], {"solo": True})
    assert result.players[0].total == 75
    assert result.to_dict()["appraisal"] == "greeting-card"


BAD = [
    ("five players", [player(n) for n in "ABCDE"], {}, "players"),
    ("one player without solo", [player("Ann")], {}, "players"),
    ("two players in solo", [player("Ann"), player("Bob")], {"solo": True}, "players"),
    ("tower above 14", [player("Ann", {"red": 15}), player("Bob")], {}, "players[0].towers.red"),
    ("negative count", [player("Ann"), player("Bob", crowns=-1)], {}, "players[1].crowns"),
    ("a string for a number", [player("Ann", {"red": "3"}), player("Bob")], {}, "players[0].towers.red"),
    ("true for a number", [player("Ann", swords=True), player("Bob")], {}, "players[0].swords"),
    ("unknown suit", [player("Ann", {"pink": 1}), player("Bob")], {}, "players[0].towers.pink"),
    ("unknown field", [player("Ann", gold=1), player("Bob")], {}, "players[0].gold"),
    ("empty name", [player("  "), player("Bob")], {}, "players[0].name"),
    ("duplicate name", [player("Ann"), player(" ann ")], {}, "players[1].name"),
    ("more crowns than the deck's 8", [player("Ann", crowns=5), player("Bob", crowns=4)], {}, "players[1].crowns"),
    (
        "more red cards than the deck's 15",
        [player("Ann", {"red": 9}), player("Bob", {"red": 8})],
        {},
        "players[1].towers.red",
    ),
    ("unknown option", [player("Ann"), player("Bob")], {"undercut": True}, "options.undercut"),
    ("a discard pile outside solo", [player("Ann"), player("Bob")], {"discard": {"crowns": 1}}, "options.discard"),
    ("discard beyond the deck", [player("Ann")], {"solo": True, "discard": {"swords": 13}}, "options.discard.swords"),
]


@pytest.mark.parametrize(("case", "players", "options", "field"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(case: str, players: list, options: dict, field: str) -> None:
    with pytest.raises(InputErrors) as caught:
        GAME.score_raw(players, options)
    assert field in [e.field for e in caught.value.errors]


# The whole-table bounds (docs/rules.md, "Spires"): what the deck holds, and the rule's words each refusal quotes.
SUIT_RULE = "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."
DECK_CHECK = [
    # (players, options, {field: message}); the id quotes the rule sentence
    pytest.param(
        [player("Ann", {"red": 9}), player("Bob", {"red": 8})],
        {},
        {
            "players[1].towers.red": f"The deck has only 15 red cards; more are counted in all towers together. "
            f"{SUIT_RULE}"
        },
        id="Each suit has 12 values (notes: 15 cards of one suit in all towers together): 17 red between two",
    ),
    pytest.param(
        [player("Ann", {"blue": 4}), player("Bob", {"blue": 4}), player("Cy", {"blue": 4}), player("Dee", {"blue": 4})],
        {},
        {
            "players[3].towers.blue": f"The deck has only 15 blue cards; more are counted in all towers together. "
            f"{SUIT_RULE}"
        },
        id="Each suit has 12 values (notes): four towers of 4 blue, said on the last player",
    ),
    pytest.param(
        [player("Ann", crowns=5), player("Bob", crowns=4)],
        {},
        {
            "players[1].crowns": "The deck has only 8 crowns; more are counted in all. The rules: “Crowns: 15 "
            "points (8 symbols total)”."
        },
        id="Crowns: 15 points (8 symbols total)",
    ),
    pytest.param(
        [player("Ann", quills=3), player("Bob", quills=3), player("Cy", quills=3)],
        {},
        {
            "players[2].quills": "The deck has only 8 quills; more are counted in all. The rules: “Quills: 10 "
            "points (8 symbols total)”."
        },
        id="Quills: 10 points (8 symbols total)",
    ),
    pytest.param(
        [player("Ann", swords=7), player("Bob", swords=6)],
        {},
        {
            "players[1].swords": "The deck has only 12 swords; more are counted in all. The rules: “Swords: 20 "
            "points (12 symbols total)”."
        },
        id="Swords: 20 points (12 symbols total)",
    ),
    pytest.param(
        [player("Ann", quills=5)],
        {"solo": True, "discard": {"quills": 4}},
        {
            "players[0].quills": "The deck has only 8 quills; more are counted in all. The rules: “Quills: 10 "
            "points (8 symbols total)”."
        },
        id="solo: the amount in the discard pile counts towards the deck's 8 quills",
    ),
    pytest.param(
        [player("Ann", {"green": 9}, crowns=5), player("Bob", {"green": 9}, crowns=4)],
        {},
        {
            "players[1].towers.green": f"The deck has only 15 green cards; more are counted in all towers together. "
            f"{SUIT_RULE}",
            "players[1].crowns": "The deck has only 8 crowns; more are counted in all. The rules: “Crowns: 15 "
            "points (8 symbols total)”.",
        },
        id="every total past the deck is said at once",
    ),
]


@pytest.mark.parametrize(("players", "options", "expected"), DECK_CHECK)
def test_totals_past_the_deck_are_refused(players: list, options: dict, expected: dict) -> None:
    """What the calculator, a correction and the API refuse: the same message however far past the bound, so a
    play saved before the check can be corrected one count at a time."""
    with pytest.raises(InputErrors) as caught:
        GAME.score_raw(players, options)
    assert {e.field: e.message for e in caught.value.errors} == expected


DECK_HOLDS = [
    pytest.param([player("Ann", {"red": 8}), player("Bob", {"red": 7})], {}, id="15 red cards in all"),
    pytest.param([player("Ann", {"red": 14}), player("Bob", {"red": 1})], {}, id="14 in one tower and 1"),
    pytest.param([player("Ann", crowns=8), player("Bob", swords=12, quills=8)], {}, id="every symbol of the deck"),
    pytest.param(
        [player("Ann", quills=4)], {"solo": True, "discard": {"quills": 4}}, id="solo: 8 quills with the pile"
    ),
]


@pytest.mark.parametrize(("players", "options"), DECK_HOLDS)
def test_every_card_of_the_deck_may_be_in_play(players: list, options: dict) -> None:
    """The deck check refuses only what no deck holds."""
    assert GAME.score_raw(players, options).players


def within_deck(raw: list[dict]) -> list[dict]:
    """The players with each suit cut back, in turn order, to the 15 cards the deck holds in all towers."""
    left = dict.fromkeys(SUITS, 15)
    kept = []
    for counts in raw:
        towers = {}
        for suit, n in counts["towers"].items():
            towers[suit] = min(n, left[suit])
            left[suit] -= towers[suit]
        kept.append({**counts, "towers": towers})
    return kept


spires_player = st.builds(
    dict,
    towers=st.fixed_dictionaries({s: st.integers(0, 14) for s in SUITS}),
    # Small enough that one more never passes the deck's 8 crowns, 12 swords or 8 quills between 4 players.
    crowns=st.integers(0, 1),
    swords=st.integers(0, 2),
    quills=st.integers(0, 1),
    scroll_vp=st.integers(0, 99),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(spires_player, min_size=2, max_size=4).map(within_deck))
def test_total_is_sum_of_breakdown_and_order_free(raw: list[dict]) -> None:
    """Property: total = sum of the lines; reordering the players changes nobody's total."""
    players = [{"name": f"P{i}", **p} for i, p in enumerate(raw)]
    result = GAME.score_raw(players)
    for scored in result.players:
        assert scored.total == sum(line.points for line in scored.lines)
    reordered = GAME.score_raw(list(reversed(players)))
    assert {p.name: p.total for p in reordered.players} == {p.name: p.total for p in result.players}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(spires_player, min_size=2, max_size=4).map(within_deck),
    st.sampled_from(["crowns", "swords", "quills", "scroll_vp"]),
)
def test_more_of_a_positive_thing_never_scores_less(raw: list[dict], what: str) -> None:
    """Property: symbols and scroll VP only ever score positively, so one more never lowers your score."""
    players = [{"name": f"P{i}", **p} for i, p in enumerate(raw)]
    before = GAME.score_raw(players).players[0].total
    players[0] = {**players[0], what: players[0][what] + 1}
    after = GAME.score_raw(players).players[0].total
    assert after >= before
