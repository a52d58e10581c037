"""The generic parts of live play (games/live.py), through Spires' LIVE: parsing, the counter actions, undo's
changed_parts/restore, and the whole-play check every action runs. Spires declares only the generic 'add' and
'set'; the checks on actions that need a player or refuse one use SPQF's next_turn and first_token.

Spires' own live rules (the deck's totals, notes, undo words), each cited by its rule sentence, are in
test_spires_live.py. Pure: no Flask, no database.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import GAMES, live, spqf
from companion.games.spires import GAME, SpiresOptions
from tests.rules.tools import errors

NAMES = ("Ann", "Bob", "Cy")


def context(count: int = 2, **options: Any) -> live.Context:
    """Ann, Bob, ... in turn order with Spires options."""
    return live.Context(NAMES[:count], SpiresOptions(**options), GAME.live)


def start(count: int = 2, **options: Any) -> live.State:
    """The state a Spires play starts from."""
    return GAME.live.start(count, SpiresOptions(**options))


def add(path: str, delta: Any) -> dict[str, Any]:
    """The generic 'add' action."""
    return {"action": "add", "field": path, "delta": delta}


def set_to(path: str, value: Any) -> dict[str, Any]:
    """The generic 'set' action."""
    return {"action": "set", "field": path, "value": value}


def act(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any], strict: bool = True) -> live.State:
    """Parse and apply one action for a player by name, or the table (None); the new state."""
    seat = ctx.names.index(who) if who is not None else None
    return live.apply(GAME, state, live.parse_action(GAME, raw, seat, strict=strict), ctx).state


def parse_errors(game: Any, raw: dict[str, Any], seat: int | None, strict: bool = True) -> dict[str, str]:
    """The field errors parse_action raises."""
    return errors(lambda: live.parse_action(game, raw, seat, strict=strict))


# --- Parsing: action names, players, parameters -------------------------------------------------------------------

PARSE_REFUSED = [
    # (game, raw action, seat, strict, {field: message})
    pytest.param(
        GAME,
        {"action": "fly"},
        0,
        True,
        {"action": "Unknown action 'fly'; Spires knows add, set."},
        id="unknown action",
    ),
    pytest.param(
        GAME,
        {"field": "scroll_vp", "delta": 1},
        0,
        True,
        {"action": "Unknown action None; Spires knows add, set."},
        id="no action at all",
    ),
    pytest.param(
        GAME,
        {"action": 3},
        0,
        True,
        {"action": "Unknown action 3; Spires knows add, set."},
        id="an action name that is not text",
    ),
    pytest.param(
        GAME,
        {"action": "ADD", "field": "scroll_vp", "delta": 1},
        0,
        True,
        {"action": "Unknown action 'ADD'; Spires knows add, set."},
        id="action names are exact",
    ),
    pytest.param(
        spqf.GAME,
        {"action": "undo"},
        None,
        True,
        {"action": "Unknown action 'undo'; SPQF knows add, first_token, last_card, next_turn, set."},
        id="unknown action lists the game's actions, sorted",
    ),
    pytest.param(
        spqf.GAME,
        {"action": "first_token", "level": 1},
        None,
        True,
        {"player": "Say which player this is for."},
        id="a player-less table action on a seat-only action",
    ),
    pytest.param(
        spqf.GAME,
        {"action": "next_turn"},
        1,
        True,
        {"player": "Next turn is for the whole table: give no player."},
        id="a player on a table-only action",
    ),
    pytest.param(
        spqf.GAME,
        {"action": "next_turn", "skip": 2},
        None,
        True,
        {"skip": "Unknown field."},
        id="a parameter an action does not take",
    ),
    pytest.param(
        GAME,
        add("scroll_vp", 1) | {"value": 2},
        0,
        True,
        {"value": "Unknown field."},
        id="add takes field and delta, not value",
    ),
    pytest.param(
        GAME, {"action": "add", "delta": 1}, 0, True, {"field": "This field is required."}, id="add without a field"
    ),
    pytest.param(
        GAME,
        {"action": "set", "field": "scroll_vp"},
        0,
        True,
        {"value": "This field is required."},
        id="set without a value",
    ),
    pytest.param(
        GAME,
        add("scroll_vp", "3"),
        0,
        True,
        {"delta": "Enter a whole number."},
        id="strict (JSON): '3' as text is refused",
    ),
    pytest.param(
        GAME, add("scroll_vp", 3.0), 0, True, {"delta": "Enter a whole number."}, id="strict (JSON): 3.0 is refused"
    ),
    pytest.param(
        GAME, add("scroll_vp", True), 0, True, {"delta": "Enter a whole number."}, id="strict (JSON): true is refused"
    ),
    pytest.param(
        GAME,
        set_to("scroll_vp", "5"),
        0,
        True,
        {"value": "Enter a whole number."},
        id="strict (JSON): set to '5' as text is refused",
    ),
    pytest.param(
        GAME,
        add("scroll_vp", "three"),
        0,
        False,
        {"delta": "Enter a whole number."},
        id="lax (form text): 'three' is still refused",
    ),
    pytest.param(
        GAME,
        add("scroll_vp", "2.5"),
        0,
        False,
        {"delta": "Enter a whole number."},
        id="lax (form text): '2.5' is still refused",
    ),
    pytest.param(
        GAME,
        add("scroll_vp", ""),
        0,
        False,
        {"delta": "Enter a whole number."},
        id="lax (form text): an empty box is refused",
    ),
    pytest.param(
        GAME,
        {"action": "add", "field": 3, "delta": 1},
        0,
        True,
        {"field": "Give text."},
        id="the counter's path is text",
    ),
]


@pytest.mark.parametrize(("game", "raw", "seat", "strict", "expected"), PARSE_REFUSED)
def test_parse_refused(
    game: Any, raw: dict[str, Any], seat: int | None, strict: bool, expected: dict[str, str]
) -> None:
    """A bad action is refused beside the field it is about, before anything runs."""
    assert parse_errors(game, raw, seat, strict) == expected


PARSE_LAX = [
    # (raw action, parsed parameters)
    pytest.param(add("scroll_vp", "3"), {"field": "scroll_vp", "delta": 3}, id="lax takes '3' as 3"),
    pytest.param(add("scroll_vp", "-2"), {"field": "scroll_vp", "delta": -2}, id="lax takes '-2' as -2"),
    pytest.param(add("scroll_vp", " 4 "), {"field": "scroll_vp", "delta": 4}, id="lax takes ' 4 ' as 4"),
    pytest.param(set_to("towers.red", "7"), {"field": "towers.red", "value": 7}, id="lax set takes '7' as 7"),
    pytest.param(add("scroll_vp", 3), {"field": "scroll_vp", "delta": 3}, id="lax takes a number too"),
]


@pytest.mark.parametrize(("raw", "params"), PARSE_LAX)
def test_parse_lax(raw: dict[str, Any], params: dict[str, Any]) -> None:
    """Form text is parsed lax: digits typed in a box are the number."""
    action = live.parse_action(GAME, raw, 0, strict=False)
    assert (action.name, action.seat, action.params.model_dump()) == (raw["action"], 0, params)


def test_parse_strict_and_lax_agree_on_numbers() -> None:
    """A JSON number is the same action strict or lax, and applying the lax '3' is the same as the strict 3."""
    strict = live.parse_action(GAME, add("towers.blue", 3), 1, strict=True)
    lax = live.parse_action(GAME, add("towers.blue", "3"), 1, strict=False)
    assert strict == lax
    ctx = context()
    assert act(start(), ctx, "Bob", add("towers.blue", "3"), strict=False) == act(
        start(), ctx, "Bob", add("towers.blue", 3)
    )


def test_parse_ignores_the_player_key() -> None:
    """The seat is given apart (the API resolves "player" by name): the raw "player" is not a parameter."""
    action = live.parse_action(GAME, add("scroll_vp", 2) | {"player": "Bob"}, 0, strict=True)
    assert action == live.Action("add", 0, live.AddParams(field="scroll_vp", delta=2))


def test_action_to_dict() -> None:
    """The action as the API takes it back: name, player by name (None for the table), parameters."""
    ctx = context()
    assert live.parse_action(GAME, add("towers.red", 2), 1, strict=True).to_dict(ctx) == {
        "action": "add",
        "player": "Bob",
        "field": "towers.red",
        "delta": 2,
    }
    next_turn = live.parse_action(spqf.GAME, {"action": "next_turn"}, None, strict=True)
    assert next_turn.to_dict(live.Context(NAMES[:2], spqf.SpqfOptions(), spqf.GAME.live)) == {
        "action": "next_turn",
        "player": None,
    }


def test_every_game_has_a_tracker() -> None:
    """Every game is tracked at the table: its Live is declared, never left out (Game.live is required)."""
    assert all(isinstance(game.live, live.Live) for game in GAMES.values())


# --- The generic counters -----------------------------------------------------------------------------------------


def test_start_state() -> None:
    """Every seat starts at the player model's defaults (without the name); the table holds nothing but in solo."""
    assert start(2) == {
        "table": {},
        "seats": [
            {
                "towers": dict.fromkeys(("purple", "red", "yellow", "blue", "green", "black"), 0),
                "crowns": 0,
                "swords": 0,
                "quills": 0,
                "scroll_vp": 0,
            }
        ]
        * 2,
    }
    assert start(1, solo=True)["table"] == {"discard": {"crowns": 0, "swords": 0, "quills": 0}}


COUNTERS = [
    # (players, options, steps as (who, raw), the seats' or table's part expected after)
    pytest.param(
        2,
        {},
        [("Ann", add("towers.red", 2)), ("Ann", add("towers.red", 1))],
        ("seats", 0, "towers", {"red": 3}),
        id="add steps a nested counter",
    ),
    pytest.param(
        2,
        {},
        [("Bob", add("scroll_vp", 10)), ("Bob", add("scroll_vp", -4))],
        ("seats", 1, "scroll_vp", 6),
        id="add takes a negative delta",
    ),
    pytest.param(
        2,
        {},
        [("Bob", set_to("swords", 5)), ("Bob", set_to("swords", 2))],
        ("seats", 1, "swords", 2),
        id="set replaces the value",
    ),
    pytest.param(
        1,
        {"solo": True},
        [(None, add("discard.crowns", 2))],
        ("table", None, "discard", {"crowns": 2, "swords": 0, "quills": 0}),
        id="solo: the table's discard pile counters, without a player",
    ),
]


@pytest.mark.parametrize(("count", "options", "steps", "where"), COUNTERS)
def test_counter_actions(count: int, options: dict, steps: list, where: tuple) -> None:
    """'add' and 'set' change exactly the counter named, in the seat named (or the table)."""
    ctx = context(count, **options)
    state = before = start(count, **options)
    for who, raw in steps:
        state = act(state, ctx, who, raw)
    scope, seat, key, expected = where
    part = state["table"] if scope == "table" else state["seats"][seat]
    if isinstance(expected, dict):
        assert {k: part[key][k] for k in expected} == expected
        untouched = {k: v for k, v in part[key].items() if k not in expected}
        assert all(v == 0 for v in untouched.values())
    else:
        assert part[key] == expected
    others = [i for i in range(count) if i != seat]
    assert [state["seats"][i] for i in others] == [before["seats"][i] for i in others]


NO_SUCH_COUNTER = [
    # (players, options, who, raw, {field: message})
    pytest.param(
        2,
        {},
        "Ann",
        add("towers.pink", 1),
        {"field": "There is no such counter."},
        id="a tower colour Spires does not have",
    ),
    pytest.param(
        2, {}, "Ann", add("towers", 1), {"field": "There is no such counter."}, id="a group of counters, not a counter"
    ),
    pytest.param(
        2, {}, "Ann", add("towers.red.top", 1), {"field": "There is no such counter."}, id="a path below a counter"
    ),
    pytest.param(
        2, {}, "Ann", set_to("name", 1), {"field": "There is no such counter."}, id="the player's name is no counter"
    ),
    pytest.param(2, {}, "Ann", add("", 1), {"field": "There is no such counter."}, id="an empty path"),
    pytest.param(
        2,
        {},
        "Ann",
        add("discard.crowns", 1),
        {"field": "There is no such counter."},
        id="a table counter given a player",
    ),
    pytest.param(
        1,
        {"solo": True},
        "Ann",
        add("discard.crowns", 1),
        {"field": "There is no such counter."},
        id="solo: the discard pile is the table's, not the player's",
    ),
    pytest.param(
        2,
        {},
        None,
        add("discard.crowns", 1),
        {"field": "There is no such counter."},
        id="multiplayer: the table has no discard pile counters",
    ),
    pytest.param(
        2,
        {},
        None,
        add("towers.red", 1),
        {"player": "Say which player's red tower to change."},
        id="a seat's counter without a player asks whose",
    ),
]


@pytest.mark.parametrize(("count", "options", "who", "raw", "expected"), NO_SUCH_COUNTER)
def test_no_such_counter(count: int, options: dict, who: str | None, raw: dict, expected: dict[str, str]) -> None:
    """Only the counters the game declares for a seat (or the table) can be stepped."""
    assert errors(lambda: act(start(count, **options), context(count, **options), who, raw)) == expected


DESCRIBE = [
    pytest.param("Ann", add("towers.red", 2), "Ann, red tower +2", id="add"),
    pytest.param("Bob", add("towers.red", -1), "Bob, red tower −1", id="add, negative with a minus sign"),
    pytest.param("Ann", add("towers.red", 0), "Ann, red tower +0", id="add 0"),
    pytest.param("Bob", set_to("scroll_vp", 5), "Bob, scroll VP set to 5", id="set, with the game's label"),
    pytest.param(None, add("discard.crowns", 1), "Discard pile crowns +1", id="the table's counter, by its own name"),
]


@pytest.mark.parametrize(("who", "raw", "text"), DESCRIBE)
def test_describe(who: str | None, raw: dict[str, Any], text: str) -> None:
    """How undo names a counter action."""
    ctx = context(1, solo=True) if who is None else context()
    seat = ctx.names.index(who) if who is not None else None
    assert live.describe(GAME, live.parse_action(GAME, raw, seat, strict=True), ctx) == text


# --- apply checks the whole play --------------------------------------------------------------------------------
# Spires' own bounds (what the deck holds, cited sentence by sentence) are in test_spires_live.py; here only that
# apply() runs the game's validation and cross-player check on the state after the action.

WHOLE_PLAY = [
    # (players, options, steps before, the refused step, fields refused)
    pytest.param(
        2,
        {},
        [("Ann", set_to("crowns", 5))],
        ("Bob", add("crowns", 4)),
        {"crowns"},
        id="a bound across two seats (the game's own after-tap check)",
    ),
    pytest.param(
        2,
        {},
        [],
        ("Ann", set_to("crowns", 9)),
        {"players[0].crowns"},
        id="a seat's own bound (the game's validation after the action)",
    ),
    pytest.param(
        1,
        {"solo": True},
        [],
        (None, add("discard.swords", -1)),
        {"options.discard.swords"},
        id="a table counter checked as part of the options the game scores with",
    ),
]


@pytest.mark.parametrize(("count", "options", "steps", "refused", "fields"), WHOLE_PLAY)
def test_apply_checks_the_whole_play(count: int, options: dict, steps: list, refused: tuple, fields: set) -> None:
    """apply runs the game's validation and cross-player check on the state after the action: InputErrors if not."""
    ctx = context(count, **options)
    state = start(count, **options)
    for who, raw in steps:
        state = act(state, ctx, who, raw)
    assert set(errors(lambda: act(state, ctx, *refused))) == fields


def test_apply_does_not_change_the_state_given() -> None:
    """An action is pure: state in, new state out; the state given is untouched, also when refused."""
    ctx = context()
    before = act(start(), ctx, "Ann", set_to("crowns", 5))
    snapshot = repr(before)
    act(before, ctx, "Ann", add("towers.red", 2))
    errors(lambda: act(before, ctx, "Bob", add("crowns", 4)))
    assert repr(before) == snapshot


# --- Undo: changed_parts and restore ----------------------------------------------------------------------------

UNDO = [
    # (players, options, steps before, the action undone, the parts expected in changed_parts)
    pytest.param(2, {}, [], ("Ann", add("towers.red", 2)), {"seats": {"0"}}, id="one seat's counter"),
    pytest.param(
        3,
        {},
        [("Cy", set_to("scroll_vp", 7))],
        ("Cy", set_to("scroll_vp", 9)),
        {"seats": {"2"}},
        id="set on the last seat",
    ),
    pytest.param(1, {"solo": True}, [], (None, add("discard.quills", 2)), {"table": None}, id="the table's counter"),
]


@pytest.mark.parametrize(("count", "options", "steps", "undone", "parts"), UNDO)
def test_changed_parts_and_restore(count: int, options: dict, steps: list, undone: tuple, parts: dict) -> None:
    """changed_parts holds the parts as they were before, only those that changed; restore puts them back."""
    ctx = context(count, **options)
    before = start(count, **options)
    for who, raw in steps:
        before = act(before, ctx, who, raw)
    after = act(before, ctx, *undone)
    changed = live.changed_parts(before, after)
    assert set(changed) == set(parts)
    if "seats" in parts:
        assert set(changed["seats"]) == parts["seats"]
        assert all(changed["seats"][i] == before["seats"][int(i)] for i in changed["seats"])
    if "table" in parts:
        assert changed["table"] == before["table"]
    snapshot = repr(after)
    assert live.restore(after, changed) == before
    assert repr(after) == snapshot  # restore builds a new state: the one given stays as it was


def test_changed_parts_of_nothing() -> None:
    """The same number typed again changes nothing: no parts, no step for undo; restore of no parts is the state."""
    ctx = context()
    state = act(start(), ctx, "Ann", set_to("scroll_vp", 4))
    same = act(state, ctx, "Ann", set_to("scroll_vp", 4))
    assert live.changed_parts(state, same) == {}
    assert live.restore(same, {}) == state


def test_changed_parts_of_table_and_seats() -> None:
    """An action that changes the table and two seats (an SPQF token handed over) gives back all three."""
    ctx = live.Context(NAMES, spqf.SpqfOptions(), spqf.GAME.live)

    def up(seat: int) -> live.Action:
        """One Civilization Level up for a seat."""
        return live.parse_action(spqf.GAME, {"action": "add", "field": "civ_level", "delta": 1}, seat, strict=True)

    # Bob first to level 1, then Ann reaches it too; the group hands Ann the token: Bob gives it back.
    before = spqf.GAME.live.start(3, spqf.SpqfOptions())
    for seat in (1, 0):
        before = live.apply(spqf.GAME, before, up(seat), ctx).state
    handover = live.parse_action(spqf.GAME, {"action": "first_token", "level": 1}, 0, strict=True)
    after = live.apply(spqf.GAME, before, handover, ctx).state
    changed = live.changed_parts(before, after)
    assert changed == {"table": before["table"], "seats": {"0": before["seats"][0], "1": before["seats"][1]}}
    assert live.restore(after, changed) == before


def test_undo_in_a_row() -> None:
    """Undo twice, newest first: each restore goes one action further back."""
    ctx = context()
    s0 = start()
    s1 = act(s0, ctx, "Ann", add("towers.red", 2))
    s2 = act(s1, ctx, "Bob", add("crowns", 3))
    s3 = act(s2, ctx, "Ann", add("towers.red", 1))
    parts = [live.changed_parts(s0, s1), live.changed_parts(s1, s2), live.changed_parts(s2, s3)]
    back = live.restore(s3, parts[2])
    assert back == s2
    back = live.restore(back, parts[1])
    assert back == s1
    assert live.restore(back, parts[0]) == s0


def test_standing_scores_the_state() -> None:
    """standing() scores the live state as the calculator would the same counts."""
    ctx = context()
    state = act(act(start(), ctx, "Ann", add("towers.red", 3)), ctx, "Bob", add("crowns", 1))
    standing = live.standing(GAME, state, ctx)
    expected = GAME.score_raw([{"name": "Ann", "towers": {"red": 3}}, {"name": "Bob", "crowns": 1}], {})
    assert standing.result == expected
    assert [p.name for p in standing.players] == ["Ann", "Bob"]
