"""Spyrium scoring, shared ties and input checks, each case tied to the rule sentence or project decision.

Rule text: the Spyrium game help. Decisions: docs/rules.md, "Spyrium".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.games.spyrium import (
    BREAKDOWN,
    BUILDING_VP_MAX,
    GAME,
    MARKET_CARDS,
    VP_TRACK_MAX,
    SpyriumOptions,
    SpyriumPlayer,
    reference_notes,
    score,
    setup,
)
from tests.rules.tools import bad_count, bad_option, field_errors, player, points

KEYS = [key for key, _ in BREAKDOWN]


def errors_of(players: Any, options: Any = None) -> dict[str, str]:
    """The field errors score_raw raises, as {field: message}."""
    return field_errors(GAME, players, options)


# --- Scoring ----------------------------------------------------------------------------------------------------

SCORING = [
    pytest.param(
        player("Ann", vp_track=34),
        {"vp_track": 34, "buildings": 0, "techniques": 0},
        ("vp_track", "The score track shows 34 VP."),
        id="notes: Score = track VP + ...: the score track",
    ),
    pytest.param(
        player("Ann", building_vp=[2, 4, 0]),
        {"vp_track": 0, "buildings": 6, "techniques": 0},
        ("buildings", "3 buildings, the VP printed on each: 2 + 4 + 0 = 6 VP."),
        id="notes: ... + sum of building VP (entered per building)",
    ),
    pytest.param(
        player("Ann", building_vp=[5]),
        {"vp_track": 0, "buildings": 5, "techniques": 0},
        ("buildings", "1 building, the VP printed on it: 5 VP."),
        id="notes: printed VP of the buildings you own: one building",
    ),
    pytest.param(
        player("Ann", technique_vp=[5, 7]),
        {"vp_track": 0, "buildings": 0, "techniques": 12},
        ("techniques", "2 techniques, end-game VP (at most 7 each): 5 + 7 = 12 VP."),
        id="notes: ... + sum of technique VP (entered per technique, each 0..7)",
    ),
    pytest.param(
        player("Ann", vp_track=41, building_vp=[3, 6], technique_vp=[7, 0, 2]),
        {"vp_track": 41, "buildings": 9, "techniques": 9},
        ("buildings", "2 buildings, the VP printed on each: 3 + 6 = 9 VP."),
        id="notes: Score = track VP + sum of building VP + sum of technique VP",
    ),
    pytest.param(
        player("Ann", vp_track=20, money=37, spyrium=9, workers=7),
        {"vp_track": 20, "buildings": 0, "techniques": 0},
        ("vp_track", "Money (£37) and Spyrium (9) left over score nothing; the score track shows 20 VP."),
        id="notes: Money and Spyrium score nothing",
    ),
    pytest.param(
        player("Ann"),
        {"vp_track": 0, "buildings": 0, "techniques": 0},
        ("vp_track", "The score track shows 0 VP."),
        id="every breakdown key is present, 0 when nothing scored",
    ),
]


@pytest.mark.parametrize(("ann", "expected", "key_and_why"), SCORING)
def test_scoring(ann: dict, expected: dict[str, int], key_and_why: tuple[str, str]) -> None:
    """Each part of the score lands on its line, through the API and the pure score()."""
    players = [ann, player("Bob")]
    result = GAME.score_raw(players)
    assert points(result, "Ann") == expected
    assert result.players[0].total == sum(expected.values())
    key, why = key_and_why
    assert next(ln.why for ln in result.players[0].lines if ln.key == key) == why
    models = [SpyriumPlayer.model_validate(p) for p in players]
    assert points(score(models, SpyriumOptions()), "Ann") == expected


def test_empty_lines_say_so() -> None:
    """No building or technique still gets a line, saying 0 VP."""
    result = GAME.score_raw([player("Ann"), player("Bob")])
    for scored in result.players:
        assert [ln.key for ln in scored.lines] == KEYS == ["vp_track", "buildings", "techniques"]
        whys = {ln.key: ln.why for ln in scored.lines}
        assert whys["buildings"] == "No building: 0 VP."
        assert whys["techniques"] == "No technique: 0 VP."


# --- Ranking: no tie-break --------------------------------------------------------------------------------------

RANKING = [
    pytest.param(
        [player("Ann", vp_track=30), player("Bob", vp_track=25)],
        [1, 2],
        ["Ann"],
        id="The player with the most points at the end of 6 turns is the winner",
    ),
    pytest.param(
        [player("Ann", vp_track=30), player("Bob", vp_track=20, building_vp=[4], technique_vp=[6])],
        [1, 1],
        ["Ann", "Bob"],
        id="notes: no tie-break is published; tied players share the victory",
    ),
    pytest.param(
        [player("Ann", vp_track=30, workers=7, money=20), player("Bob", vp_track=30), player("Cy", vp_track=12)],
        [1, 1, 3],
        ["Ann", "Bob"],
        id="notes: tied players share the victory: more workers or money break nothing, the next rank skips",
    ),
    pytest.param(
        [player("Ann", vp_track=40), player("Bob", vp_track=30), player("Cy", vp_track=30), player("Dee")],
        [1, 2, 2, 4],
        ["Ann"],
        id="notes: tied players share (rank 2, 2, then 4)",
    ),
    pytest.param(
        [player(f"P{i}") for i in range(5)],
        [1, 1, 1, 1, 1],
        [f"P{i}" for i in range(5)],
        id="notes: tied players share the victory: 5 players all at 0",
    ),
]


@pytest.mark.parametrize(("players", "ranks", "winners"), RANKING)
def test_ranking(players: list[dict], ranks: list[int], winners: list[str]) -> None:
    """Ranks by total only; tied players share a rank and the next rank skips."""
    result = GAME.score_raw(players)
    assert [p.rank for p in result.players] == ranks
    assert list(result.winners) == winners


def test_tie_sentence() -> None:
    """'No tie-break is published: tied players share the victory' (docs/rules.md): said once, never 'still tied'."""
    result = GAME.score_raw([player("Ann", vp_track=9), player("Bob", building_vp=[9]), player("Cy")])
    assert result.tiebreak == "Ann and Bob tied on 9 VP; the game has no tie-break, so they share the victory."


# --- Options, notes, setup, declaration -------------------------------------------------------------------------


def test_residence_values_are_shown_and_never_scored() -> None:
    """notes: 'Residence track values are a setting, default 2, 3, 4, 5, 6, 7 (flagged "check your board")'."""
    players = [player("Ann", vp_track=12, building_vp=[3]), player("Bob", technique_vp=[4])]
    default = GAME.score_raw(players)
    custom = GAME.score_raw(players, {"residence_values": [1, 2, 3, 4, 5, 8]})
    assert default == custom
    notes = reference_notes(SpyriumOptions())
    assert "£2, £3, £4, £5, £6, £7" in notes[0] and "check your board" in notes[0]
    assert "£1, £2, £3, £4, £5, £8" in reference_notes(SpyriumOptions(residence_values=(1, 2, 3, 4, 5, 8)))[0]
    assert "Money and Spyrium left at the end score nothing." in notes


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_setup_steps(count: int) -> None:
    """'Each player begins the game with 3 workers, 2 Spyrium crystals, and £8 ... on the 2 space'."""
    text = " ".join(setup(count, SpyriumOptions()))
    assert f"{count} players takes 3 workers, 2 Spyrium crystals and £8" in text
    assert "2 space of the Residence track" in text and "after turn 6" in text


def test_game_declaration() -> None:
    """The declaration the registry and the JSON API rely on."""
    assert (GAME.id, GAME.name, GAME.min_players, GAME.max_players) == ("spyrium", "Spyrium", 2, 5)
    assert [key for key, _ in GAME.breakdown] == KEYS
    assert GAME.check is None
    assert 4 <= len(GAME.colours) <= 5 and GAME.blurb and GAME.rules_version
    assert GAME.player_model.model_validate({"name": "Ann"}).model_dump(exclude={"name"}) == {
        "vp_track": 0,
        "building_vp": [],
        "technique_vp": [],
        "money": 0,
        "spyrium": 0,
        "workers": 0,
    }


# --- Bad input --------------------------------------------------------------------------------------------------

BAD_INPUT = [
    bad_count("technique_vp", [3, 8], "Must be at most 7.", "notes: each technique at most 7", seat=1, where="[1]"),
    bad_count("technique_vp", [-1], "Must be at least 0.", "notes: technique VP 0..7: negative refused", where="[0]"),
    bad_count(
        "building_vp",
        [BUILDING_VP_MAX + 1],
        f"Must be at most {BUILDING_VP_MAX}.",
        "printed VP of the buildings you own: a typo-sized building VP is refused",
        where="[0]",
    ),
    bad_count(
        "building_vp",
        [2, -3],
        "Must be at least 0.",
        "printed VP of the buildings you own: negative refused",
        where="[1]",
    ),
    bad_count(
        "building_vp",
        [1] * (MARKET_CARDS + 1),
        f"Give at most {MARKET_CARDS} entries.",
        "9 cards from that turn's period are dealt out: no more buildings than 6 markets hold",
    ),
    bad_count("workers", 8, "Must be at most 7.", "Maximum number of workers: 7"),
    bad_count(
        "vp_track", VP_TRACK_MAX + 1, f"Must be at most {VP_TRACK_MAX}.", "score track: a typo-sized score is refused"
    ),
    bad_count("money", -1, "Must be at least 0.", "money is never negative"),
    bad_count("vp_track", "30", "Enter a whole number.", "wrong type: '30' as text for an integer"),
    bad_count("spyrium", True, "Enter a whole number.", "wrong type: true for an integer", seat=1),
    bad_count(
        "building_vp", [1, "2"], "Enter a whole number.", "wrong type: text inside the building list", where="[1]"
    ),
    bad_count(
        "technique_vp", [False], "Enter a whole number.", "wrong type: false inside the technique list", where="[0]"
    ),
    bad_count("building_vp", 6, "Give a list.", "wrong type: building VP is one entry per building, not a sum"),
    bad_count(
        "characters",
        4,
        "Unknown field.",
        "notes: Characters score on the track during play, nothing at the end: no such field",
    ),
    pytest.param(
        [player("Ann"), player("ANN")],
        {},
        "players[1].name",
        "ANN is already playing.",
        id="duplicate names (case-insensitive) are refused",
    ),
    pytest.param(
        [player("Ann")],
        {},
        "players",
        "Spyrium is for 2 to 5 players; 1 given.",
        id="notes: Spyrium (2-5 players): 1 player is refused",
    ),
    pytest.param(
        [player(f"P{i}") for i in range(6)],
        {},
        "players",
        "Spyrium is for 2 to 5 players; 6 given.",
        id="notes: Spyrium (2-5 players): 6 players are refused",
    ),
    bad_option(
        {"residence_values": [2, 3, 4, 5, 6]},
        "Give exactly 6 whole numbers, the income of each Residence space; 5 given.",
        "notes: Residence track values 2, 3, 4, 5, 6, 7: six of them",
    ),
    bad_option(
        {"residence_values": [2, 3, 4, 5, 6, "7"]},
        "Entry 6 is not a whole number: give 6 whole numbers, the income of each Residence space.",
        "notes: Residence track values: text refused",
    ),
    bad_option(
        {"residence_values": [2, 3, -4, 5, 6, 7]},
        "Entry 3 is -4: each number must be between 0 and 20.",
        "notes: Residence track values: negative refused",
    ),
    bad_option(
        {"residence_values": "2-7"},
        "Give a list of 6 whole numbers, the income of each Residence space.",
        "notes: Residence track values: a list, not text",
    ),
    bad_option({"level_vp": [0, 3, 6, 9, 12, 15]}, "Unknown field.", "unknown option is refused"),
]


@pytest.mark.parametrize(("players", "options", "field", "message"), BAD_INPUT)
def test_bad_input(players: Any, options: dict, field: str, message: str) -> None:
    """Bad input raises InputErrors with the message beside the right field."""
    assert errors_of(players, options).get(field) == message


# --- Properties -------------------------------------------------------------------------------------------------

states = st.fixed_dictionaries(
    {
        "vp_track": st.integers(0, 80),
        "building_vp": st.lists(st.integers(0, 12), max_size=8),
        "technique_vp": st.lists(st.integers(0, 7), max_size=5),
        "money": st.integers(0, 40),
        "spyrium": st.integers(0, 12),
        "workers": st.integers(0, 7),
    }
)


def named(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give generated rows unique names."""
    return [{"name": f"P{i}", **row} for i, row in enumerate(rows)]


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(states, min_size=2, max_size=5))
def test_total_is_the_sum_of_the_breakdown(rows: list[dict[str, Any]]) -> None:
    """Total == sum of the lines == track + buildings + techniques; money, Spyrium and workers add nothing."""
    result = GAME.score_raw(named(rows))
    for scored, row in zip(result.players, rows, strict=True):
        assert [ln.key for ln in scored.lines] == KEYS
        assert scored.total == sum(ln.points for ln in scored.lines)
        assert scored.total == row["vp_track"] + sum(row["building_vp"]) + sum(row["technique_vp"])


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(states, min_size=2, max_size=5), data=st.data())
def test_reordering_players_changes_no_total_or_rank(rows: list[dict[str, Any]], data: st.DataObject) -> None:
    """Turn order plays no part in scoring: a permutation keeps every player's total and rank."""
    players = named(rows)
    shuffled = data.draw(st.permutations(players))
    before = {p.name: (p.total, p.rank) for p in GAME.score_raw(players).players}
    after = {p.name: (p.total, p.rank) for p in GAME.score_raw(shuffled).players}
    assert before == after


@settings(max_examples=120, deadline=None)
@given(
    rows=st.lists(states, min_size=2, max_size=5),
    change=st.sampled_from(["vp_track", "add building", "raise building", "add technique", "money", "spyrium"]),
    data=st.data(),
)
def test_more_never_scores_less(rows: list[dict[str, Any]], change: str, data: st.DataObject) -> None:
    """More track VP, another building or technique, a higher building VP: never less; money and Spyrium: no change."""
    players = named(rows)
    who = data.draw(st.integers(0, len(players) - 1))
    more = [{**p, "building_vp": list(p["building_vp"]), "technique_vp": list(p["technique_vp"])} for p in players]
    mine = more[who]
    if change == "vp_track":
        mine["vp_track"] += data.draw(st.integers(1, 20))
    elif change == "add building":
        mine["building_vp"].append(data.draw(st.integers(0, BUILDING_VP_MAX)))
    elif change == "raise building":
        assume(mine["building_vp"])
        index = data.draw(st.integers(0, len(mine["building_vp"]) - 1))
        mine["building_vp"][index] += data.draw(st.integers(1, 10))
    elif change == "add technique":
        mine["technique_vp"].append(data.draw(st.integers(0, 7)))
    else:
        mine[change] += data.draw(st.integers(1, 10))
    before = GAME.score_raw(players).players[who].total
    after = GAME.score_raw(more).players[who].total
    if change in ("money", "spyrium"):
        assert after == before
    else:
        assert after >= before


@settings(max_examples=50, deadline=None)
@given(rows=st.lists(states, min_size=2, max_size=5))
def test_pure_score_matches_score_raw(rows: list[dict[str, Any]]) -> None:
    """The pure score() on validated models gives the same result as score_raw."""
    players = named(rows)
    models = [SpyriumPlayer(**p) for p in players]
    assert score(models, SpyriumOptions()) == GAME.score_raw(players)
