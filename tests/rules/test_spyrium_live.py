"""Spyrium live play (spyrium.LIVE through games/live.py), each case tied to the rule sentence or project decision
it checks.

Rule text: the Spyrium game help (start, income, periods, "Activate a card", "Maximum number of workers", "Bonuses").
Decisions: docs/rules.md, "Spyrium". Pure: no Flask, no database.

The rule text, sentence by sentence, against the live rules (what each test checks; the case ids quote the words):

- "Each player begins the game with 3 workers, 2 Spyrium crystals, and £8." test_start_state.
- "Each player also begins with a token on the 2 space of the Residence track": test_start_token_on_the_2_space_of_the
  _residence_track, test_start_on_the_2_space_of_a_custom_track, test_residence_value_is_the_printed_value (rules
  notes: "The Residence track is shown as the board shows it: the value printed on the space").
- "At the beginning of each turn, each player earns income based on their token's position on the Residence track,
  so at the beginning of turn 1, each player will gain £2.": test_income, test_income_changes_nothing_but_money_and
  _the_turn, test_residence_refused (the token stays on the track's spaces).
- "Period A takes place across turns 1, 2, and 3, Period B takes place across turns 4 and 5, and Period 6 takes place
  across turn 6.": test_periods; "The player with the most points at the end of 6 turns is the winner.": test_end,
  test_start_turn_refused_after_turn_six.
- "• A technique (green background) - Pay £6 to acquire the technique card.": test_technique, test_technique_refused;
  "... an opportunity to score bonus points (up to 7) at the end of the game.": test_technique (the end VP of each
  technique, entered by its number), test_technique_parsing_refused.
- "• A building (blue background) - Pay the cost listed in the top right corner of the card to acquire the card.",
  "The cost to purchase a building space is equal to the number of buildings that the player has already built.
  Thus, the first building space is free, the second one is £1, the third one is £2, etc.": test_build,
  test_build_refused.
- "A player may, instead, discard an existing building to place the newly-acquired building in its building space
  without having to pay for the space.": test_build (replacements), test_a_replacement_at_0_for_an_equal_building_is
  _a_change, test_build_refused.
- "Furthermore, if the building being discarded has an icon at the top that matches an icon on the newly-acquired
  building, the cost of the newly-acquired building is discounted by £3.": test_build (matching icon cases),
  test_build_refused (no discount without a discarded building), test_replace_as_a_number_or_n_matching and
  test_replace_n_matching_through_the_api_pays_the_discounted_card (the API's "replace": "<n> matching"),
  test_replace_text_refused_in_words.
- "Pay the cost to acquire the benefit listed on that card" (a character; an activation cost, a building used):
  test_pay, test_pay_refused (an amount typed once, never more than the player has). "an activation cost of £1 to the
  bank for each remaining worker next to that card": test_technique_with_workers_beside. Decision (docs/rules.md,
  "Spyrium"), "A Residence action either moves one space up or scores VP equal to the current income; at the top (7),
  further Residence actions score 7 VP": test_residence_vp, test_residence_vp_reaches_the_bonuses.
- "Maximum number of workers: 7": test_worker_cap, test_worker_lost_at_seven, test_worker_bonus_to_exactly_seven.
- "When you reach 8 VP, you can get either an extra worker or £5." and "When you reach 20 VP, you get the bonus you
  didn't pick.": test_bonuses, test_bonus_refused, test_bonus_choice_waiting_in_notes_and_view, the undo tests.
- Everything else in the text (the market and its 3x3 tableau, the event deck and activating the event, the two
  phases and passing, placing and taking back workers, gaining money or paying £1 per neighbouring worker, using a
  building once a turn, what cards do): played on the table and listed in the tracker's untracked sentences
  (test_what_the_tracker_leaves_on_the_table); their money and VP are entered on the counters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import live, spyrium
from companion.games.base import InputErrors
from companion.games.spyrium import GAME, SpyriumOptions
from tests.rules.tools import SPYRIUM_START_SEAT, Step, act_in, errors, run_steps

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
CUSTOM = (1, 2, 4, 6, 8, 10)

# Raw actions as the JSON API takes them.
TURN = {"action": "start_turn"}
WORKER = {"action": "bonus", "choice": "worker"}
MONEY = {"action": "bonus", "choice": "money"}


def add(field: str, delta: int) -> dict[str, Any]:
    """Add to (or take from) a seat's counter."""
    return {"action": "add", "field": field, "delta": delta}


def put(field: str, value: int) -> dict[str, Any]:
    """Set a seat's counter."""
    return {"action": "set", "field": field, "value": value}


def vp(delta: int) -> dict[str, Any]:
    """Score-track VP gained (or taken back)."""
    return add("vp_track", delta)


def build(vp_printed: int, cost: int = 0, replace: int | None = None, matching: bool = False) -> dict[str, Any]:
    """A building bought: printed VP, card cost, the building it replaces (from 1) if any, and whether the discarded
    building's icon matches one on the new building."""
    raw: dict[str, Any] = {"action": "build", "vp": vp_printed, "cost": cost}
    if replace is not None:
        raw["replace"] = replace
    if matching:
        raw["matching"] = True
    return raw


# A technique patented: £6, a new technique (its end VP entered later, at the end).
PATENT = {"action": "technique"}


def end_vp(number: int, vp_end: int) -> dict[str, Any]:
    """The end-game VP of technique `number` (from 1), one already patented."""
    return {"action": "technique_vp", "number": number, "vp": vp_end}


def context(count: int = 2, values: tuple[int, ...] | None = None) -> live.Context:
    """Ann, Bob, ... in turn order; the default Residence track unless values are given."""
    return live.Context(NAMES[:count], options(values), GAME.live)


def options(values: tuple[int, ...] | None = None) -> SpyriumOptions:
    """Default options, or a custom Residence track."""
    return SpyriumOptions() if values is None else SpyriumOptions(residence_values=values)


def start(count: int = 2, values: tuple[int, ...] | None = None) -> live.State:
    """The state a play of `count` players starts from."""
    return GAME.live.start(count, options(values))


def act(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> live.Applied:
    """Parse (strict, as JSON) and apply one action for a player by name, or for the table (None)."""
    return act_in(GAME, state, ctx, who, raw)


def play(
    steps: Sequence[Step], count: int = 2, values: tuple[int, ...] | None = None
) -> tuple[live.State, live.Context, list[str]]:
    """Run the steps from the start state; the final state, the context and everything said, in order."""
    return run_steps(GAME, start(count, values), context(count, values), steps)


def refusal(state: live.State, ctx: live.Context, who: str | None, raw: dict[str, Any]) -> dict[str, str]:
    """The field errors an action is refused with, as {field: message}."""
    return errors(lambda: act(state, ctx, who, raw))


def parse_refusal(raw: dict[str, Any], seat: int | None, *, strict: bool = True) -> dict[str, str]:
    """The field errors parsing refuses an action with."""
    return errors(lambda: live.parse_action(GAME, raw, seat, strict=strict))


def ann(state: live.State) -> dict[str, Any]:
    """Ann's seat."""
    return state["seats"][0]


def bonus_state(seat: dict[str, Any]) -> tuple[int, int, int, str | None, bool]:
    """(VP on the track, money, workers, the 8 VP choice, whether the 20 VP bonus was given)."""
    return seat["vp_track"], seat["money"], seat["workers"], seat["bonus_8"], seat["bonus_20"]


def turns(n: int) -> list[Step]:
    """n turn starts."""
    return [(None, TURN)] * n


# --- Start: "Each player begins the game with 3 workers, 2 Spyrium crystals, and £8 ... a token on the 2 space" ---

START_SEAT = SPYRIUM_START_SEAT


@pytest.mark.parametrize(
    "count",
    [2, 3, 4, 5],
    ids=lambda n: f"Each player begins the game with 3 workers, 2 Spyrium crystals, and £8 ({n}p)",
)
def test_start_state(count: int) -> None:
    """3 workers, 2 Spyrium, £8, 0 VP, no building or technique, no bonus yet, Residence on its first (£2) space;
    the table before turn 1 (turn 0)."""
    state = start(count)
    assert state["table"] == {"turn": 0}
    assert state["seats"] == [START_SEAT] * count
    # Each seat is its own dict and its own lists: a change to one never shows in another.
    assert len({id(seat) for seat in state["seats"]}) == count
    assert len({id(seat["building_vp"]) for seat in state["seats"]}) == count


def test_start_token_on_the_2_space_of_the_residence_track() -> None:
    """'Each player also begins with a token on the 2 space of the Residence track': on the default track
    (2, 3, 4, 5, 6, 7, docs/rules.md) that is the first space, worth £2."""
    state, ctx = start(3), context(3)
    assert [spyrium.income(seat, ctx.options) for seat in state["seats"]] == [2, 2, 2]
    view = spyrium.view(live.standing(GAME, state, ctx))
    state_keys = ("turn", "period", "last_turn", "income", "space_price", "choosing")
    assert {key: view[key] for key in state_keys} == {
        "turn": 0,
        "period": None,
        "last_turn": False,
        "income": [2, 2, 2],
        "space_price": [0, 0, 0],
        "choosing": [False, False, False],
    }


def test_start_before_turn_one() -> None:
    """Table turn 0: no income paid yet, the notes say to start turn 1; nothing scored, no leader; no end."""
    state, ctx = start(2), context(2)
    standing = live.standing(GAME, state, ctx)
    assert [note.text for note in spyrium.live_notes(standing)] == ["Before turn 1: start it to pay the first income."]
    assert spyrium.end(standing) == live.End(False, None)
    assert [p.total for p in standing.result.players] == [0, 0]


def test_start_on_the_2_space_of_a_custom_track() -> None:
    """'a token on the 2 space of the Residence track ... so at the beginning of turn 1, each player will gain £2'
    (docs/rules.md, "Spyrium": income is the Residence space's printed value): on a track read 1, 2, 4, 6, 8, 10
    the token starts on the £2 space (the second) and turn 1 pays £2, not £1."""
    state, _, said = play(turns(1), values=CUSTOM)
    assert [seat["money"] for seat in state["seats"]] == [10, 10]
    assert said == ["Turn 1 (period A): income paid: Ann £2, Bob £2."]


# --- "At the beginning of each turn, each player earns income based on their token's position on the Residence track"

INCOME = [
    # (Residence track or None for the default, steps, money per seat, what the last turn start said)
    pytest.param(
        None,
        turns(1),
        [10, 10],
        "Turn 1 (period A): income paid: Ann £2, Bob £2.",
        id="so at the beginning of turn 1, each player will gain £2",
    ),
    pytest.param(
        None,
        turns(2),
        [12, 12],
        "Turn 2 (period A): income paid: Ann £2, Bob £2.",
        id="At the beginning of EACH turn, each player earns income: turn 2 again",
    ),
    pytest.param(
        None,
        turns(6),
        [20, 20],
        "Turn 6 (period C): income paid: Ann £2, Bob £2.",
        id="At the beginning of each turn: six turns of £2",
    ),
    pytest.param(
        None,
        [("Ann", add("residence", 1)), (None, TURN)],
        [11, 10],
        "Turn 1 (period A): income paid: Ann £3, Bob £2.",
        id="income based on their token's position: Ann moved one space up (£3)",
    ),
    pytest.param(
        None,
        [("Bob", put("residence", 6)), (None, TURN)],
        [10, 15],
        "Turn 1 (period A): income paid: Ann £2, Bob £7.",
        id="income based on their token's position: Bob on the top space (£7)",
    ),
    pytest.param(
        None,
        [(None, TURN), ("Ann", add("residence", 1)), (None, TURN), ("Ann", add("residence", 1)), (None, TURN)],
        [8 + 2 + 3 + 4, 8 + 2 + 2 + 2],
        "Turn 3 (period A): income paid: Ann £4, Bob £2.",
        id="income based on their token's position: each turn pays the space the token is on then",
    ),
    pytest.param(
        None,
        [("Ann", put("residence", 4)), ("Ann", add("residence", -2)), (None, TURN)],
        [11, 10],
        "Turn 1 (period A): income paid: Ann £3, Bob £2.",
        id="income based on their token's position: a Residence correction down pays the lower space",
    ),
    pytest.param(
        CUSTOM,
        [("Ann", put("residence", 2)), ("Bob", put("residence", 1)), (None, TURN)],
        [10, 9],
        "Turn 1 (period A): income paid: Ann £2, Bob £1.",
        id="income based on their token's position: custom track 1,2,4,6,8,10, space 2 pays £2, space 1 £1",
    ),
    pytest.param(
        CUSTOM,
        [("Ann", put("residence", 3)), ("Bob", put("residence", 6)), (None, TURN)],
        [12, 18],
        "Turn 1 (period A): income paid: Ann £4, Bob £10.",
        id="income based on their token's position: custom track, spaces 3 (£4) and 6 (£10)",
    ),
    pytest.param(
        CUSTOM,
        [
            ("Ann", put("residence", 5)),
            ("Bob", put("residence", 1)),
            (None, TURN),
            ("Ann", add("residence", 1)),
            (None, TURN),
        ],
        [8 + 8 + 10, 8 + 1 + 1],
        "Turn 2 (period A): income paid: Ann £10, Bob £1.",
        id="income based on their token's position: custom track, after a move up between turns",
    ),
]


@pytest.mark.parametrize(("values", "steps", "money", "said"), INCOME)
def test_income(values: tuple[int, ...] | None, steps: list[Step], money: list[int], said: str) -> None:
    """start_turn pays each seat the value of its Residence space, read off the track in the options."""
    state, ctx, told = play(steps, values=values)
    assert [seat["money"] for seat in state["seats"]] == money
    assert told[-1] == said
    view = spyrium.view(live.standing(GAME, state, ctx))
    assert view["income"] == [spyrium.income(seat, ctx.options) for seat in state["seats"]]


def test_income_changes_nothing_but_money_and_the_turn() -> None:
    """Income is money only: VP, workers, Spyrium, buildings, techniques and the Residence token stay."""
    before, ctx, _ = play([("Ann", put("residence", 3))])
    after = act(before, ctx, None, TURN).state
    assert after["table"] == {"turn": 1}
    for old, new in zip(before["seats"], after["seats"], strict=True):
        assert {k: v for k, v in new.items() if k != "money"} == {k: v for k, v in old.items() if k != "money"}


RESIDENCE_REFUSED = [
    # (Residence track, steps, action for Ann, the message)
    pytest.param(
        None,
        [],
        add("residence", -1),
        "Ann's token is on the bottom space of the Residence track (2): it can't go lower.",
        id="Residence track: no space below the first (the 2 space), said as the board shows it",
    ),
    pytest.param(
        None,
        [("Ann", put("residence", 6))],
        add("residence", 1),
        "Ann's token is on the top space of the Residence track (7): it can't go higher.",
        id="Residence track: no space above the top (7)",
    ),
    pytest.param(
        None,
        [],
        put("residence", 0),
        "Ann's token is on the bottom space of the Residence track (2): it can't go lower.",
        id="Residence track: set to 0 refused",
    ),
    pytest.param(
        None,
        [("Ann", put("residence", 3))],
        put("residence", 0),
        "The Residence track has 6 spaces, from 2 at the bottom to 7 at the top: Ann's token stays on 4.",
        id="Residence track: set below the track from its middle, the token's own space said",
    ),
    pytest.param(
        CUSTOM,
        [],
        put("residence", 7),
        "The Residence track has 6 spaces, from 1 at the bottom to 10 at the top: Ann's token stays on 2.",
        id="Residence track: custom track, set to 7 refused, its own printed ends said",
    ),
]


@pytest.mark.parametrize(("values", "steps", "raw", "message"), RESIDENCE_REFUSED)
def test_residence_refused(
    values: tuple[int, ...] | None, steps: list[Step], raw: dict[str, Any], message: str
) -> None:
    """The token stays on the track's six spaces."""
    state, ctx, _ = play(steps, values=values)
    assert refusal(state, ctx, "Ann", raw) == {"residence": message}


# --- "Period A takes place across turns 1, 2, and 3, Period B ... turns 4 and 5, and Period 6 ... turn 6" ---------

PERIODS = [
    pytest.param(1, "A", id="Period A takes place across turns 1, 2, and 3: turn 1"),
    pytest.param(2, "A", id="Period A takes place across turns 1, 2, and 3: turn 2"),
    pytest.param(3, "A", id="Period A takes place across turns 1, 2, and 3: turn 3"),
    pytest.param(4, "B", id="Period B takes place across turns 4 and 5: turn 4"),
    pytest.param(5, "B", id="Period B takes place across turns 4 and 5: turn 5"),
    pytest.param(6, "C", id="Period 6 (C, docs/rules.md) takes place across turn 6"),
]


@pytest.mark.parametrize(("turn", "letter"), PERIODS)
def test_periods(turn: int, letter: str) -> None:
    """The turn started is said with its period, and the notes and the view show it."""
    state, ctx, said = play(turns(turn))
    assert state["table"]["turn"] == turn
    assert said[-1].startswith(f"Turn {turn} (period {letter}): ")
    assert spyrium.period(turn) == letter
    standing = live.standing(GAME, state, ctx)
    assert spyrium.live_notes(standing)[0].text == f"Turn {turn} of 6 (period {letter})."
    view = spyrium.view(standing)
    assert (view["turn"], view["period"], view["last_turn"]) == (turn, letter, turn == 6)


def test_start_turn_refused_after_turn_six() -> None:
    """'The player with the most points at the end of 6 turns is the winner': no turn 7, and no income for it."""
    state, ctx, _ = play(turns(6))
    assert refusal(state, ctx, None, TURN) == {"action": "Turn 6 was the last one: finish and score."}
    assert [seat["money"] for seat in state["seats"]] == [20, 20]


@pytest.mark.parametrize(
    ("turn", "triggered"),
    [(0, False), (5, False), (6, True)],
    ids=["end: not before turn 1", "end: not in turn 5", "end: at the end of 6 turns"],
)
def test_end(turn: int, triggered: bool) -> None:
    """The game ends with turn 6; the notes warn it is the last turn."""
    state, ctx, _ = play(turns(turn))
    standing = live.standing(GAME, state, ctx)
    assert spyrium.end(standing) == (live.End(True, "Turn 6 is the last turn.") if triggered else live.End())
    warnings = [note.text for note in spyrium.live_notes(standing) if note.warning]
    last = "Turn 6 is the last: when it is over, enter each technique's end VP (At the end) and finish."
    assert (last in warnings) is triggered


def test_start_turn_is_for_the_table() -> None:
    """Income is paid to every player at once: start_turn takes no player."""
    assert parse_refusal(TURN, 0) == {"player": "Start turn is for the whole table: give no player."}


# --- "When you reach 8 VP, you can get either an extra worker or £5. When you reach 20 VP, you get the bonus you
# didn't pick." ----------------------------------------------------------------------------------------------------

CHOOSE = "Ann reached 8 VP: choose +1 worker or £5."

BONUSES = [
    # (steps, Ann's (vp, money, workers, bonus_8, bonus_20), everything said)
    pytest.param([("Ann", vp(7))], (7, 8, 3, None, False), [], id="When you reach 8 VP: 7 VP is not yet"),
    pytest.param(
        [("Ann", vp(8))],
        (8, 8, 3, None, False),
        [CHOOSE],
        id="When you reach 8 VP, you can get either ...: the choice is asked, nothing given yet",
    ),
    pytest.param(
        [("Ann", put("vp_track", 9))],
        (9, 8, 3, None, False),
        [CHOOSE],
        id="When you reach 8 VP: set past 8 asks the choice too",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER)],
        (8, 8, 4, "worker", False),
        [CHOOSE, "Ann takes an extra worker (4)."],
        id="When you reach 8 VP, you can get either an extra worker",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", MONEY)],
        (8, 13, 3, "money", False),
        [CHOOSE, "Ann takes £5."],
        id="When you reach 8 VP, you can get either ... or £5",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER), ("Ann", vp(11))],
        (19, 8, 4, "worker", False),
        [CHOOSE, "Ann takes an extra worker (4)."],
        id="When you reach 20 VP: 19 VP is not yet",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER), ("Ann", vp(12))],
        (20, 13, 4, "worker", True),
        [CHOOSE, "Ann takes an extra worker (4).", "Ann reached 20 VP: the other bonus. Ann takes £5."],
        id="When you reach 20 VP, you get the bonus you didn't pick: worker first, then £5",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", MONEY), ("Ann", put("vp_track", 23))],
        (23, 13, 4, "money", True),
        [CHOOSE, "Ann takes £5.", "Ann reached 20 VP: the other bonus. Ann takes an extra worker (4)."],
        id="When you reach 20 VP, you get the bonus you didn't pick: £5 first, then the worker",
    ),
    pytest.param(
        [("Ann", vp(10)), ("Ann", MONEY), ("Ann", vp(12)), ("Ann", vp(5)), ("Ann", vp(-3)), ("Ann", vp(4))],
        (28, 13, 4, "money", True),
        [CHOOSE, "Ann takes £5.", "Ann reached 20 VP: the other bonus. Ann takes an extra worker (4)."],
        id="When you reach 20 VP, you get the bonus you didn't pick: once, not again on later VP",
    ),
    pytest.param(
        [("Ann", vp(25))],
        (25, 8, 3, None, False),
        [CHOOSE],
        id="one jump past 20 VP: the 8 VP choice is asked once, nothing given before it",
    ),
    pytest.param(
        [("Ann", vp(25)), ("Ann", WORKER)],
        (25, 13, 4, "worker", True),
        [CHOOSE, "Ann takes an extra worker (4).", "Ann reached 20 VP: the other bonus. Ann takes £5."],
        id="one jump past 20 VP: the bonus action gives the worker picked, then the £5 not picked",
    ),
    pytest.param(
        [("Ann", put("vp_track", 20)), ("Ann", MONEY)],
        (20, 13, 4, "money", True),
        [CHOOSE, "Ann takes £5.", "Ann reached 20 VP: the other bonus. Ann takes an extra worker (4)."],
        id="one jump to exactly 20 VP: the £5 picked, then the worker not picked",
    ),
    pytest.param(
        [("Ann", vp(25)), ("Ann", vp(2))],
        (27, 8, 3, None, False),
        [CHOOSE, CHOOSE],
        id="one jump past 20 VP: no 20 VP bonus while the 8 VP choice is still waiting",
    ),
    pytest.param(
        [("Bob", vp(20)), ("Ann", vp(3))],
        (3, 8, 3, None, False),
        ["Bob reached 8 VP: choose +1 worker or £5."],
        id="When YOU reach 8 VP: another player's VP give Ann nothing",
    ),
]


@pytest.mark.parametrize(("steps", "expected", "said"), BONUSES)
def test_bonuses(steps: list[Step], expected: tuple[int, int, int, str | None, bool], said: list[str]) -> None:
    """The 8 VP choice is asked (the bonus action), the 20 VP bonus follows by itself; said in order."""
    state, _, told = play(steps)
    assert bonus_state(ann(state)) == expected
    assert told == said


def test_bonus_choice_waiting_in_notes_and_view() -> None:
    """While Ann's 8 VP choice waits, the notes warn and the view marks her as choosing; it goes once chosen."""
    state, ctx, _ = play([("Ann", vp(9)), ("Bob", vp(3))])
    standing = live.standing(GAME, state, ctx)
    assert spyrium.live_notes(standing)[-1] == spyrium.Note(CHOOSE, warning=True)
    assert spyrium.view(standing)["choosing"] == [True, False]
    chosen = act(state, ctx, "Ann", MONEY).state
    standing = live.standing(GAME, chosen, ctx)
    assert not [note for note in spyrium.live_notes(standing) if note.warning]
    assert spyrium.view(standing)["choosing"] == [False, False]


BONUS_REFUSED = [
    # (steps, bonus action for Ann, the message)
    pytest.param([], WORKER, "Ann has 0 VP: the bonus comes at 8.", id="When you reach 8 VP: not at 0 VP"),
    pytest.param([("Ann", vp(7))], MONEY, "Ann has 7 VP: the bonus comes at 8.", id="When you reach 8 VP: not at 7"),
    pytest.param(
        [("Ann", vp(9)), ("Ann", vp(-2))],
        WORKER,
        "Ann has 7 VP: the bonus comes at 8.",
        id="When you reach 8 VP: not after a correction back below 8",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER)],
        MONEY,
        "Ann chose the 8 VP bonus already (worker).",
        id="you can get EITHER an extra worker or £5: not both at 8 VP",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", MONEY)],
        MONEY,
        "Ann chose the 8 VP bonus already (money).",
        id="you can get either ... or £5: not the same one twice",
    ),
    pytest.param(
        [("Ann", vp(21)), ("Ann", MONEY)],
        WORKER,
        "Ann chose the 8 VP bonus already (money).",
        id="When you reach 20 VP, you get the bonus: nothing more to choose after both",
    ),
]


@pytest.mark.parametrize(("steps", "raw", "message"), BONUS_REFUSED)
def test_bonus_refused(steps: list[Step], raw: dict[str, Any], message: str) -> None:
    """The bonus action is only for a player at 8 VP or more who has not chosen yet; nothing changes."""
    state, ctx, _ = play(steps)
    assert refusal(state, ctx, "Ann", raw) == {"choice": message}


def test_bonus_parsing() -> None:
    """The bonus is for a player, and is a worker or £5, nothing else."""
    assert parse_refusal(WORKER, None) == {"player": "Say which player this is for."}
    errors = parse_refusal({"action": "bonus", "choice": "vp"}, 0)
    assert set(errors) == {"choice"}
    assert set(parse_refusal({"action": "bonus"}, 0)) == {"choice"}


WORKER_LOST = [
    # (steps, Ann's (vp, money, workers, bonus_8, bonus_20), everything said after the workers were set to 7)
    pytest.param(
        [("Ann", vp(8))],
        (8, 8, 7, None, False),
        [CHOOSE, "Ann has 7 workers already: a worker chosen would be lost."],
        id="Maximum number of workers: 7 — reaching 8 VP at 7 workers warns a worker would be lost",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER)],
        (8, 8, 7, "worker", False),
        [
            CHOOSE,
            "Ann has 7 workers already: a worker chosen would be lost.",
            "Ann has 7 workers already (maximum number of workers: 7): the worker is lost.",
        ],
        id="Maximum number of workers: 7 — an extra worker chosen at 7 is lost, and said",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", WORKER), ("Ann", vp(12))],
        (20, 13, 7, "worker", True),
        [
            CHOOSE,
            "Ann has 7 workers already: a worker chosen would be lost.",
            "Ann has 7 workers already (maximum number of workers: 7): the worker is lost.",
            "Ann reached 20 VP: the other bonus. Ann takes £5.",
        ],
        id="a worker lost at 8 VP still counts as picked: the £5 follows at 20",
    ),
    pytest.param(
        [("Ann", vp(8)), ("Ann", MONEY), ("Ann", vp(12))],
        (20, 13, 7, "money", True),
        [
            CHOOSE,
            "Ann has 7 workers already: a worker chosen would be lost.",
            "Ann takes £5.",
            (
                "Ann reached 20 VP: the other bonus. Ann has 7 workers already (maximum number of workers: 7): "
                "the worker is lost."
            ),
        ],
        id="When you reach 20 VP, you get the bonus you didn't pick: the worker, lost at 7",
    ),
    pytest.param(
        [("Ann", vp(30)), ("Ann", WORKER)],
        (30, 13, 7, "worker", True),
        [
            CHOOSE,
            "Ann has 7 workers already: a worker chosen would be lost.",
            "Ann has 7 workers already (maximum number of workers: 7): the worker is lost.",
            "Ann reached 20 VP: the other bonus. Ann takes £5.",
        ],
        id="one jump past 20 VP at 7 workers: the worker lost, the £5 given",
    ),
]


@pytest.mark.parametrize(("steps", "expected", "said"), WORKER_LOST)
def test_worker_lost_at_seven(
    steps: list[Step], expected: tuple[int, int, int, str | None, bool], said: list[str]
) -> None:
    """A bonus worker beyond 7 is lost (the bonus still counts as given)."""
    state, _, told = play([("Ann", put("workers", 7)), *steps])
    assert bonus_state(ann(state)) == expected
    assert told == said


def test_worker_bonus_to_exactly_seven() -> None:
    """At 6 workers the extra worker is the seventh: taken, not lost."""
    state, _, told = play([("Ann", put("workers", 6)), ("Ann", vp(8)), ("Ann", WORKER)])
    assert ann(state)["workers"] == 7
    assert told == [CHOOSE, "Ann takes an extra worker (7)."]


# --- "Maximum number of workers: 7" ---------------------------------------------------------------------------------

WORKER_CAP = [
    # (steps, action for Ann, refused?)
    pytest.param([], add("workers", 4), False, id="Maximum number of workers: 7 — 3 + 4 = 7 allowed"),
    pytest.param([], put("workers", 7), False, id="Maximum number of workers: 7 — set to 7 allowed"),
    pytest.param([], add("workers", 5), True, id="Maximum number of workers: 7 — 3 + 5 = 8 refused"),
    pytest.param([], put("workers", 8), True, id="Maximum number of workers: 7 — set to 8 refused"),
    pytest.param(
        [("Ann", put("workers", 7))], add("workers", 1), True, id="Maximum number of workers: 7 — +1 at 7 refused"
    ),
    pytest.param(
        [("Ann", put("workers", 7))],
        add("workers", -1),
        False,
        id="Maximum number of workers: 7 — a worker lost at 7 allowed",
    ),
]


@pytest.mark.parametrize(("steps", "raw", "refused"), WORKER_CAP)
def test_worker_cap(steps: list[Step], raw: dict[str, Any], refused: bool) -> None:
    """Workers never go past 7, by add or set."""
    state, ctx, _ = play(steps)
    old = ann(state)["workers"]
    if refused:
        assert refusal(state, ctx, "Ann", raw) == {"workers": f"Maximum number of workers: 7. Ann has {old}."}
    else:
        assert 0 <= ann(act(state, ctx, "Ann", raw).state)["workers"] <= 7


# --- Buildings: "The cost to purchase a building space is equal to the number of buildings that the player has
# already built. Thus, the first building space is free, the second one is £1, the third one is £2" ---------------

BUILDS = [
    # (steps, Ann's money, Ann's building VP, what the last build said)
    pytest.param(
        [("Ann", build(3, 2))],
        6,
        [3],
        "Ann pays £2: £2 for the card; the first building space is free.",
        id="Thus, the first building space is free",
    ),
    pytest.param(
        [("Ann", build(3, 2)), ("Ann", build(4, 1))],
        4,
        [3, 4],
        "Ann pays £2: £1 for the card and £1 for the building space (1 building built before).",
        id="the second one is £1",
    ),
    pytest.param(
        [("Ann", build(3)), ("Ann", build(4)), ("Ann", build(5, 1))],
        8 - 1 - 3,
        [3, 4, 5],
        "Ann pays £3: £1 for the card and £2 for the building space (2 buildings built before).",
        id="the third one is £2",
    ),
    pytest.param(
        [("Ann", build(1)), ("Ann", build(1)), ("Ann", build(1)), ("Ann", build(2))],
        8 - 1 - 2 - 3,
        [1, 1, 1, 2],
        "Ann pays £3: £0 for the card and £3 for the building space (3 buildings built before).",
        id="equal to the number of buildings that the player has already built: the fourth one is £3",
    ),
    pytest.param(
        [("Bob", build(1)), ("Bob", build(1)), ("Ann", build(2))],
        8,
        [2],
        "Ann pays £0: £0 for the card; the first building space is free.",
        id="buildings that THE PLAYER has already built: Bob's buildings do not raise Ann's price",
    ),
    pytest.param(
        [("Ann", build(3, 1)), ("Ann", build(6, 4, replace=1))],
        8 - 1 - 4,
        [6],
        "Building 1 (3 VP) is discarded for a 6 VP building; Ann pays £4: £4 for the card, no building "
        "space to pay (it replaces one).",
        id="discard an existing building ... without having to pay for the space",
    ),
    pytest.param(
        [("Ann", build(1)), ("Ann", build(2)), ("Ann", build(5, 3, replace=1))],
        8 - 1 - 3,
        [5, 2],
        "Building 1 (1 VP) is discarded for a 5 VP building; Ann pays £3: £3 for the card, no building "
        "space to pay (it replaces one).",
        id="discard an existing building to place the newly-acquired building IN ITS building space",
    ),
    pytest.param(
        [("Ann", build(1)), ("Ann", build(2)), ("Ann", build(5, 0, replace=2)), ("Ann", build(3))],
        8 - 1 - 2,
        [1, 5, 3],
        "Ann pays £2: £0 for the card and £2 for the building space (2 buildings built before).",
        id="a replacement adds no space: the next new space still costs the number of buildings",
    ),
    pytest.param(
        [("Ann", build(2, 8))],
        0,
        [2],
        "Ann pays £8: £8 for the card; the first building space is free.",
        id="Pay the cost listed: exactly the money Ann has is enough",
    ),
    pytest.param(
        [("Ann", build(0, 1))],
        7,
        [0],
        "Ann pays £1: £1 for the card; the first building space is free.",
        id="a building printed 0 VP takes a space too",
    ),
    pytest.param(
        [("Ann", build(2, 1)), ("Ann", build(4, 5, replace=1, matching=True))],
        8 - 1 - 2,
        [4],
        "Building 1 (2 VP) is discarded for a 4 VP building; Ann pays £2: £5 − £3 for the matching icon "
        "= £2 for the card, no building space to pay (it replaces one).",
        id="if the building being discarded has an icon ... that matches ..., the cost ... is discounted by £3",
    ),
    pytest.param(
        [("Ann", build(2, 1)), ("Ann", build(3, 2, replace=1, matching=True))],
        8 - 1,
        [3],
        "Building 1 (2 VP) is discarded for a 3 VP building; Ann pays £0: £2 − £3 for the matching icon "
        "= £0 for the card, no building space to pay (it replaces one).",
        id="discounted by £3: a £2 card costs nothing, never less (docs/rules.md: the app does the subtraction)",
    ),
    pytest.param(
        [("Ann", build(2, 1)), ("Ann", build(2, 0, replace=1))],
        8 - 1,
        [2],
        "Building 1 (2 VP) is discarded for a 2 VP building; Ann pays £0: £0 for the card, no building "
        "space to pay (it replaces one).",
        id="A player may, instead, discard an existing building: at £0 for an equal building, said too",
    ),
    # Issue 15: build, build, replace building 1, then a new building as usual: a new space, nothing replaced.
    pytest.param(
        [
            ("Ann", put("money", 20)),
            ("Ann", build(5, 3)),
            ("Ann", build(2, 1)),
            ("Ann", build(4, 2, replace=1)),
            ("Ann", build(2, 1)),
        ],
        20 - 3 - 2 - 2 - 3,
        [4, 2, 2],
        "Ann pays £3: £1 for the card and £2 for the building space (2 buildings built before).",
        id="the cost to purchase a building space ...: a build after a replacement takes a new space",
    ),
]


@pytest.mark.parametrize(("steps", "money", "buildings", "said"), BUILDS)
def test_build(steps: list[Step], money: int, buildings: list[int], said: str) -> None:
    """A build pays its card's cost (less £3 for a matching icon) plus its space (none when it replaces one)."""
    state, ctx, told = play(steps)
    assert ann(state)["money"] == money
    assert ann(state)["building_vp"] == buildings
    assert told[-1] == said
    view = spyrium.view(live.standing(GAME, state, ctx))
    assert view["space_price"][0] == len(buildings)


def test_a_replacement_at_0_for_an_equal_building_is_a_change() -> None:
    """'A player may, instead, discard an existing building to place the newly-acquired building in its building
    space' (docs/rules.md: a replacement is an action like any other, also when it costs £0): the state changes
    (one more building replaced), so the records path makes it one undo step; the score stays the same."""
    before, ctx, _ = play([("Ann", build(2, 1))])
    after = act(before, ctx, "Ann", build(2, 0, replace=1)).state
    parts = live.changed_parts(before, after)
    assert parts == {"seats": {"0": ann(before)}}
    assert ann(after) == {**ann(before), "replaced": 1}
    assert live.restore(after, parts) == before
    assert live.standing(GAME, after, ctx).result.players[0].total == 2
    again = act(after, ctx, "Ann", build(2, 0, replace=1)).state
    assert ann(again)["replaced"] == 2


def test_a_replacement_on_a_seat_saved_before_replacements_were_counted() -> None:
    """A play saved before the count existed (no 'replaced' in the seat) replaces as any other."""
    state, ctx, _ = play([("Ann", build(2, 1))])
    del state["seats"][0]["replaced"]
    assert ann(act(state, ctx, "Ann", build(3, 0, replace=1)).state)["replaced"] == 1


BUILD_REFUSED = [
    # (steps, build for Ann, {field: message})
    pytest.param(
        [],
        build(2, 9),
        {"cost": "Ann has £8, and this building costs £9: £9 for the card; the first building space is free."},
        id="Pay the cost listed ... to acquire the card: not without the money",
    ),
    pytest.param(
        [("Ann", build(1, 7))],
        build(2, 1),
        {
            "cost": "Ann has £1, and this building costs £2: £1 for the card and £1 for the building space "
            "(1 building built before)."
        },
        id="The cost to purchase a building space: card affordable, card + space not",
    ),
    pytest.param(
        [("Ann", build(1)), ("Ann", build(1)), ("Ann", build(1)), ("Ann", put("money", 2))],
        build(1),
        {
            "cost": "Ann has £2, and this building costs £3: £0 for the card and £3 for the building space "
            "(3 buildings built before)."
        },
        id="the space alone (£3) more than Ann has",
    ),
    pytest.param(
        [],
        build(4, 0, replace=1),
        {"replace": "Ann has 0 buildings: no building 1 to replace."},
        id="discard an EXISTING building: none yet",
    ),
    pytest.param(
        [("Ann", build(1)), ("Ann", build(2))],
        build(4, 0, replace=3),
        {"replace": "Ann has 2 buildings: no building 3 to replace."},
        id="discard an EXISTING building: no third one",
    ),
    pytest.param(
        [("Ann", build(1, 8))],
        build(4, 1, replace=1),
        {
            "cost": "Ann has £0, and this building costs £1: £1 for the card, no building space to pay (it "
            "replaces one)."
        },
        id="without having to pay for the space, but still the card's cost",
    ),
    pytest.param(
        [("Ann", build(1, 4))],
        build(4, 8, replace=1, matching=True),
        {
            "cost": "Ann has £4, and this building costs £5: £8 − £3 for the matching icon = £5 for the card, "
            "no building space to pay (it replaces one)."
        },
        id="discounted by £3: still more than Ann has",
    ),
    pytest.param(
        [],
        build(4, 5, matching=True),
        {
            "matching": "The −£3 for a matching icon is only for a building that replaces another: choose the "
            "building it replaces, or untick the matching icon."
        },
        id="if the building being DISCARDED has an icon ...: no discount for a new building space",
    ),
]


@pytest.mark.parametrize(("steps", "raw", "errors"), BUILD_REFUSED)
def test_build_refused(steps: list[Step], raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A build Ann can't pay for, one replacing a building she doesn't have, or a discount with nothing discarded,
    changes nothing."""
    state, ctx, _ = play(steps)
    assert refusal(state, ctx, "Ann", raw) == errors


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(build(2, 0, replace=0), id="building numbers start at 1"),
        pytest.param({"action": "build", "vp": -1}, id="no negative printed VP"),
        pytest.param({"action": "build", "vp": 2, "cost": -1}, id="no negative cost"),
        pytest.param({"action": "build", "vp": 2, "matching": "yes"}, id="strict: the matching icon is true or false"),
    ],
)
def test_build_parsing_refused(raw: dict[str, Any]) -> None:
    """Build parameters out of range are refused before anything runs."""
    assert parse_refusal(raw, 0)


def test_a_building_without_its_printed_vp_is_refused_in_words() -> None:
    """'A building (blue background) ... with a number of points on it': the VP printed on it is needed; left out
    (no chip tapped, no box filled) the build is refused and says what to do, nothing paid."""
    state, ctx = start(2), context(2)
    assert refusal(state, ctx, "Ann", {"action": "build", "cost": 2}) == {
        "vp": "Tap the VP printed on Ann's building (or type it), then its cost."
    }


@pytest.mark.parametrize(
    ("raw", "params"),
    [
        pytest.param(
            {"vp": "4", "cost": ["", "8"]},
            {"vp": 4, "cost": 8},
            id="a cost button tapped with the cost box empty: the button's cost",
        ),
        pytest.param(
            {"vp": "4", "cost": ["12", "3"]},
            {"vp": 4, "cost": 3},
            id="a cost button tapped after typing: the button, the last value sent",
        ),
        pytest.param(
            {"vp": ["2", "14"], "cost": "5"},
            {"vp": 14, "cost": 5},
            id="a VP chip and a typed VP: the typed box, sent after the chips",
        ),
        pytest.param({"vp": ["", "3"], "cost": ["", ""]}, {"vp": 3, "cost": 0}, id="boxes left empty are no value"),
        pytest.param(
            {"vp": "6", "cost": "7", "replace": "1 matching"},
            {"vp": 6, "cost": 7, "replace": 1, "matching": True},
            id="the chip 'Replace 1, icons match': replace 1 with the −£3",
        ),
        pytest.param(
            {"vp": "6", "cost": "7", "replace": "2"},
            {"vp": 6, "cost": 7, "replace": 2, "matching": False},
            id="the chip 'Replace building 2': no discount",
        ),
    ],
)
def test_the_page_s_chips_and_boxes(raw: dict[str, Any], params: dict[str, Any]) -> None:
    """The build form's VP chips and box, cost box and buttons share their names: the last value sent counts; a
    replacement chip may carry the matching icon."""
    parsed = live.parse_action(GAME, {"action": "build", **raw}, 0, strict=False)
    assert parsed.params == spyrium.BuildParams(**params)


def test_a_replacement_chip_with_matching_icons_takes_3_off() -> None:
    """'if the building being discarded has an icon at the top that matches an icon on the newly-acquired building,
    the cost of the newly-acquired building is discounted by £3': one chip says both."""
    state, ctx, _ = play([("Ann", build(2, 5))])
    page_form = {"action": "build", "vp": "6", "cost": ["", "5"], "replace": "1 matching"}
    after = live.apply(GAME, state, live.parse_action(GAME, page_form, 0, strict=False), ctx)
    assert ann(after.state)["building_vp"] == [6]
    assert ann(after.state)["money"] == 8 - 5 - 2
    said = (
        "Building 1 (2 VP) is discarded for a 6 VP building; Ann pays £2: £5 − £3 for the matching icon = £2 for "
        "the card, no building space to pay (it replaces one)."
    )
    assert after.said == (said,)


def test_the_page_s_matching_box_and_empty_replace_choice() -> None:
    """The form sends the ticked box as 'true' and 'a new building space' as no replace at all (lax parsing)."""
    parsed = live.parse_action(
        GAME, {"action": "build", "vp": "4", "cost": "5", "replace": "1", "matching": "true"}, 0, strict=False
    )
    assert parsed.params == spyrium.BuildParams(vp=4, cost=5, replace=1, matching=True)
    assert live.parse_action(GAME, {"action": "build", "vp": "2"}, 0, strict=False).params.replace is None


# "Furthermore, if the building being discarded has an icon at the top that matches an icon on the newly-acquired
# building, the cost of the newly-acquired building is discounted by £3." The API's documented "replace": "<n>
# matching" says both at once, as the page's chip does: read alike from JSON (strict) and from a form (lax).
REPLACE_FORMS = [
    pytest.param({"replace": "1"}, (1, False), id="'1': replace building 1, no discount"),
    pytest.param({"replace": "1 matching"}, (1, True), id="'1 matching': replace building 1 with the −£3"),
    pytest.param({"replace": " 1  matching "}, (1, True), id="spaces around the words are no matter"),
    pytest.param({"replace": 1, "matching": True}, (1, True), id="replace 1 with matching true"),
    pytest.param({"replace": "1 matching", "matching": True}, (1, True), id="'1 matching' with matching true agree"),
    pytest.param({"replace": 1}, (1, False), id="replace 1 alone: no discount"),
]


@pytest.mark.parametrize("strict", [True, False], ids=["json", "form"])
@pytest.mark.parametrize(("raw", "parsed"), REPLACE_FORMS)
def test_replace_as_a_number_or_n_matching(raw: dict[str, Any], parsed: tuple[int, bool], strict: bool) -> None:
    """Every form of 'replace' the contract documents is the same replacement, JSON or form."""
    action = live.parse_action(GAME, {"action": "build", "vp": 6, "cost": 5, **raw}, 0, strict=strict)
    assert (action.params.replace, action.params.matching) == parsed


def test_replace_n_matching_through_the_api_pays_the_discounted_card() -> None:
    """'the cost of the newly-acquired building is discounted by £3': "1 matching" from JSON takes the £3 off, as
    "replace": 1 with "matching": true does, and is stored and said as that."""
    state, ctx, _ = play([("Ann", build(2, 5))])
    by_text = act(state, ctx, "Ann", {"action": "build", "vp": 6, "cost": 5, "replace": "1 matching"})
    by_flag = act(state, ctx, "Ann", build(6, 5, replace=1, matching=True))
    assert by_text.state == by_flag.state
    assert by_text.said == by_flag.said
    assert ann(by_text.state)["money"] == 8 - 5 - 2
    action = live.parse_action(GAME, {"action": "build", "vp": 6, "cost": 5, "replace": "1 matching"}, 0, strict=True)
    assert action.to_dict(ctx)["replace"] == 1 and action.to_dict(ctx)["matching"] is True


NOT_A_BUILDING_NUMBER = (
    "Give the number of the building it replaces (from 1), with 'matching' after it when the icons match: '2' or "
    "'2 matching'."
)


@pytest.mark.parametrize("strict", [True, False], ids=["json", "form"])
@pytest.mark.parametrize(
    ("replace", "extra", "message"),
    [
        pytest.param("two", {}, NOT_A_BUILDING_NUMBER, id="a word is no building's number"),
        pytest.param("matching", {}, NOT_A_BUILDING_NUMBER, id="'matching' without the building's number"),
        pytest.param("1 match", {}, NOT_A_BUILDING_NUMBER, id="any other word after the number"),
        pytest.param("1.5", {}, NOT_A_BUILDING_NUMBER, id="no fraction of a building"),
        pytest.param("", {}, NOT_A_BUILDING_NUMBER, id="empty text (JSON; the page sends none for a new space)"),
        pytest.param("9" * 30, {}, NOT_A_BUILDING_NUMBER, id="a run of digits past every bound"),
        pytest.param("0", {}, "Must be at least 1.", id="'0': building numbers start at 1"),
        pytest.param("0 matching", {}, "Must be at least 1.", id="'0 matching': building numbers start at 1"),
        pytest.param(
            "1 matching",
            {"matching": False},
            "'1 matching' says the icons match, but 'matching' does not: leave 'matching' out, or give the "
            "building's number alone.",
            id="'1 matching' with matching false: contradicted, never one silently chosen",
        ),
    ],
)
def test_replace_text_refused_in_words(replace: str, extra: dict[str, Any], message: str, strict: bool) -> None:
    """A 'replace' that names no building, as text, is refused on 'replace' with what to send."""
    raw = {"action": "build", "vp": 6, "cost": 5, "replace": replace, **extra}
    assert parse_refusal(raw, 0, strict=strict) == {"replace": message}


# --- Techniques: "A technique (green background) - Pay £6 to acquire the technique card. These cards provide an
# ongoing benefit during the game, as well as an opportunity to score bonus points (up to 7) at the end of the game."

TECHNIQUES = [
    # (steps, Ann's money, Ann's technique VP, what the last action said)
    pytest.param(
        [("Ann", PATENT)],
        2,
        [0],
        "Ann pays £6 for technique 1; its end VP (up to 7) is entered at the end.",
        id="Pay £6 to acquire the technique card: its end-game VP not known yet (0)",
    ),
    pytest.param(
        [("Ann", put("money", 12)), ("Ann", PATENT), ("Ann", PATENT)],
        0,
        [0, 0],
        "Ann pays £6 for technique 2; its end VP (up to 7) is entered at the end.",
        id="Pay £6 to acquire the technique card: a second one, £6 again, the first one kept",
    ),
    pytest.param(
        [("Ann", put("money", 12)), ("Ann", PATENT), ("Ann", end_vp(1, 4)), ("Ann", PATENT)],
        0,
        [4, 0],
        "Ann pays £6 for technique 2; its end VP (up to 7) is entered at the end.",
        id="Pay £6 to acquire the technique card: a new one never overwrites technique 1's end VP",
    ),
    pytest.param(
        [("Ann", PATENT), ("Ann", end_vp(1, 7))],
        2,
        [7],
        "Ann's technique 1 scores 7 VP at the end.",
        id="bonus points (up to 7): 7 allowed",
    ),
    pytest.param(
        [("Ann", put("money", 12)), ("Ann", PATENT), ("Ann", PATENT), ("Ann", end_vp(2, 5))],
        0,
        [0, 5],
        "Ann's technique 2 scores 5 VP at the end.",
        id="bonus points (up to 7) at the end of the game: entered later by number, no money paid",
    ),
    pytest.param(
        [("Ann", PATENT), ("Ann", end_vp(1, 6)), ("Ann", end_vp(1, 3))],
        2,
        [3],
        "Ann's technique 1 scores 3 VP at the end.",
        id="bonus points at the end of the game: a correction of technique 1",
    ),
    pytest.param(
        [("Ann", PATENT), ("Ann", put("money", 0)), ("Ann", end_vp(1, 7))],
        0,
        [7],
        "Ann's technique 1 scores 7 VP at the end.",
        id="bonus points at the end of the game: entering them needs no money",
    ),
]


@pytest.mark.parametrize(("steps", "money", "techniques", "said"), TECHNIQUES)
def test_technique(steps: list[Step], money: int, techniques: list[int], said: str) -> None:
    """A technique costs £6 and scores 0-7 VP at the end, entered per technique by its number."""
    state, _, told = play(steps)
    assert ann(state)["money"] == money
    assert ann(state)["technique_vp"] == techniques
    assert told[-1] == said


TECHNIQUE_REFUSED = [
    pytest.param(
        [("Ann", put("money", 5))],
        PATENT,
        {"action": "Ann has £5: a technique costs £6."},
        id="Pay £6 to acquire the technique card: not with £5",
    ),
    pytest.param(
        [],
        end_vp(1, 3),
        {"number": "Ann has no technique: no technique 1 to score."},
        id="bonus points of a technique Ann does not have: none yet",
    ),
    pytest.param(
        [("Ann", PATENT)],
        end_vp(2, 3),
        {"number": "Ann has 1 technique: no technique 2 to score."},
        id="bonus points of a technique Ann does not have: no second one",
    ),
]


@pytest.mark.parametrize(("steps", "raw", "errors"), TECHNIQUE_REFUSED)
def test_technique_refused(steps: list[Step], raw: dict[str, Any], errors: dict[str, str]) -> None:
    """A technique Ann can't pay for, or end VP for one she doesn't have, changes nothing."""
    state, ctx, _ = play(steps)
    assert refusal(state, ctx, "Ann", raw) == errors


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(end_vp(1, 8), id="bonus points (UP TO 7): 8 refused"),
        pytest.param(end_vp(1, -1), id="no negative technique VP"),
        pytest.param(end_vp(0, 3), id="technique numbers start at 1"),
        pytest.param({"action": "technique_vp", "vp": 3}, id="end VP needs the technique's number"),
        pytest.param({"action": "technique", "vp": 8}, id="the API's older patent with an end VP: up to 7 too"),
    ],
)
def test_technique_parsing_refused(raw: dict[str, Any]) -> None:
    """Technique parameters out of range are refused before anything runs."""
    assert parse_refusal(raw, 0)


OLDER_API_FORMS = [
    # (steps, Ann's money, Ann's technique VP, what the last action said): the API's contract only ever grows, so the
    # technique action still takes what it took before the page split patenting from the end VP.
    pytest.param(
        [("Ann", {"action": "technique", "vp": 4})],
        2,
        [4],
        "Ann pays £6 for technique 1, 4 VP at the end.",
        id="Pay £6 to acquire the technique card ... bonus points (up to 7): the end VP given at once",
    ),
    pytest.param(
        [("Ann", PATENT), ("Ann", {"action": "technique", "vp": 6, "number": 1})],
        2,
        [6],
        "Ann's technique 1 scores 6 VP at the end.",
        id="bonus points (up to 7) at the end of the game: by number, as technique_vp, no money paid",
    ),
]


@pytest.mark.parametrize(("steps", "money", "techniques", "said"), OLDER_API_FORMS)
def test_technique_s_older_api_forms(steps: list[Step], money: int, techniques: list[int], said: str) -> None:
    """'technique' with 'vp' patents one with that end VP; with 'number' it sets that technique's end VP."""
    state, _, told = play(steps)
    assert (ann(state)["money"], ann(state)["technique_vp"], told[-1]) == (money, techniques, said)
    ctx = context(2)
    with pytest.raises(InputErrors) as caught:
        act(start(2), ctx, "Ann", {"action": "technique", "vp": 3, "number": 1})
    assert {e.field: e.message for e in caught.value.errors} == {
        "number": "Ann has no technique: no technique 1 to score."
    }


# --- Undo: changed_parts / restore takes back everything an action caused -----------------------------------------

UNDO = [
    # (steps before, the action undone as (who, raw))
    pytest.param([], (None, TURN), id="undo: a turn start and its income"),
    pytest.param([], ("Ann", vp(8)), id="undo: reaching 8 VP (the choice waiting)"),
    pytest.param([("Ann", vp(8))], ("Ann", WORKER), id="undo: the 8 VP worker"),
    pytest.param([("Ann", vp(8))], ("Ann", MONEY), id="undo: the 8 VP £5"),
    pytest.param([("Ann", vp(8)), ("Ann", WORKER)], ("Ann", vp(12)), id="undo: reaching 20 VP and its £5"),
    pytest.param(
        [("Ann", vp(8)), ("Ann", MONEY)], ("Ann", put("vp_track", 20)), id="undo: reaching 20 VP (set) and its worker"
    ),
    pytest.param([("Ann", vp(25))], ("Ann", WORKER), id="undo: one jump past 20, both bonuses at once"),
    pytest.param([("Ann", build(1))], ("Ann", build(2, 1)), id="undo: a build and its space"),
    pytest.param([("Ann", build(1))], ("Ann", build(2, 1, replace=1)), id="undo: a replacement"),
    pytest.param([("Ann", build(1))], ("Ann", build(1, 0, replace=1)), id="undo: a replacement at £0, equal VP"),
    pytest.param(
        [("Ann", build(1, 3))],
        ("Ann", build(2, 4, replace=1, matching=True)),
        id="undo: a replacement with the matching icon's −£3",
    ),
    pytest.param([], ("Ann", PATENT), id="undo: a technique"),
    pytest.param([("Ann", PATENT)], ("Ann", end_vp(1, 6)), id="undo: a technique's end VP"),
    pytest.param([], ("Bob", add("residence", 1)), id="undo: a Residence move"),
]


@pytest.mark.parametrize(("steps", "undone"), UNDO)
def test_undo_restores_the_state_before(steps: list[Step], undone: Step) -> None:
    """restore(after, changed_parts(before, after)) == before, for every action and all it caused."""
    before, ctx, _ = play(steps)
    after = act(before, ctx, *undone).state
    assert after != before
    parts = live.changed_parts(before, after)
    assert live.restore(after, parts) == before


def test_undo_takes_the_20_vp_bonus_back() -> None:
    """The VP that took Ann to 20 gave her £5 (the bonus she didn't pick): undo takes the £5 back and the 20 VP
    bonus is owed again, so reaching 20 again gives it once more."""
    before, ctx, _ = play([("Ann", vp(8)), ("Ann", WORKER)])
    after = act(before, ctx, "Ann", vp(12)).state
    assert bonus_state(ann(after)) == (20, 13, 4, "worker", True)
    parts = live.changed_parts(before, after)
    assert set(parts) == {"seats"} and set(parts["seats"]) == {"0"}
    undone = live.restore(after, parts)
    assert bonus_state(ann(undone)) == (8, 8, 4, "worker", False)
    again = act(undone, ctx, "Ann", vp(12))
    assert bonus_state(ann(again.state)) == (20, 13, 4, "worker", True)
    assert again.said == ("Ann reached 20 VP: the other bonus. Ann takes £5.",)


def test_undo_takes_both_bonuses_of_one_jump_back() -> None:
    """The bonus action past 20 gave the worker and the £5: undo takes both back and the choice waits again."""
    before, ctx, _ = play([("Ann", vp(21))])
    after = act(before, ctx, "Ann", WORKER).state
    undone = live.restore(after, live.changed_parts(before, after))
    assert bonus_state(ann(undone)) == (21, 8, 3, None, False)
    assert spyrium.view(live.standing(GAME, undone, ctx))["choosing"] == [True, False]
    assert bonus_state(ann(act(undone, ctx, "Ann", MONEY).state)) == (21, 13, 4, "money", True)


def test_apply_does_not_change_the_state_given() -> None:
    """An action is pure: the state before is left as it was (undo keeps it), lists included."""
    before, ctx, _ = play([("Ann", put("money", 30)), ("Ann", build(1)), ("Ann", PATENT), ("Ann", vp(8))])
    snapshot = repr(before)
    for raw in (build(3, 0, replace=1), build(2), end_vp(1, 5), PATENT, WORKER, vp(20)):
        act(before, ctx, "Ann", raw)
    act(before, ctx, None, TURN)
    assert repr(before) == snapshot


# --- Scoring input: "Score = track VP + sum of building VP + sum of technique VP. Money and Spyrium score nothing." --


def test_to_input_scores_track_buildings_and_techniques() -> None:
    """Decision (docs/rules.md, "Spyrium"): final score = VP on the score track + printed VP of the buildings owned +
    end-game VP of each technique; money, Spyrium and workers score nothing."""
    steps: list[Step] = [
        ("Ann", put("money", 40)),
        ("Ann", vp(10)),
        ("Ann", MONEY),
        ("Ann", build(3)),
        ("Ann", build(5, 2)),
        ("Ann", PATENT),
        ("Ann", end_vp(1, 4)),
        ("Ann", PATENT),
        ("Ann", end_vp(2, 7)),
        ("Ann", put("spyrium", 9)),
        ("Ann", put("workers", 7)),
        ("Bob", vp(10)),
        ("Bob", WORKER),
        ("Bob", build(2)),
        ("Bob", build(4, 1, replace=1)),
    ]
    state, ctx, _ = play(steps)
    players, opts = spyrium.to_input(state, ctx)
    assert opts == {"residence_values": [2, 3, 4, 5, 6, 7]}
    assert players[0] == {
        "name": "Ann",
        "vp_track": 10,
        "building_vp": [3, 5],
        "technique_vp": [4, 7],
        "money": 40 + 5 - 0 - 3 - 12,
        "spyrium": 9,
        "workers": 7,
    }
    # Residence and the bonus marks are live-play state, not scoring input.
    assert set(players[1]) == {"name", *spyrium.SCORING_FIELDS}
    result = live.standing(GAME, state, ctx).result
    lines = {p.name: {line.key: line.points for line in p.lines} for p in result.players}
    assert lines == {
        "Ann": {"vp_track": 10, "buildings": 8, "techniques": 11},
        "Bob": {"vp_track": 10, "buildings": 4, "techniques": 0},
    }
    assert [(p.name, p.total, p.rank) for p in result.players] == [("Ann", 29, 1), ("Bob", 14, 2)]


def test_money_spyrium_and_workers_score_nothing() -> None:
    """Decision (docs/rules.md, "Spyrium"): 'Money and Spyrium score nothing' (nor workers): a rich player with the same
    VP ties."""
    state, ctx, _ = play(
        [
            ("Ann", vp(5)),
            ("Bob", vp(5)),
            ("Ann", put("money", 150)),
            ("Ann", put("spyrium", 60)),
            ("Ann", put("workers", 7)),
            ("Bob", put("money", 0)),
            ("Bob", put("workers", 0)),
            ("Bob", put("spyrium", 0)),
        ]
    )
    result = live.standing(GAME, state, ctx).result
    assert [(p.name, p.total, p.rank) for p in result.players] == [("Ann", 5, 1), ("Bob", 5, 1)]
    assert result.winners == ("Ann", "Bob")
    notes = [note.text for note in spyrium.live_notes(live.standing(GAME, state, ctx))]
    assert notes[1] == "Ann and Bob lead with 5 VP."


def test_scoring_follows_the_custom_track_in_options() -> None:
    """The Residence track is a reminder only: the scoring input carries it and the score ignores it."""
    state, ctx, _ = play([("Ann", vp(6))], values=CUSTOM)
    _, opts = spyrium.to_input(state, ctx)
    assert opts == {"residence_values": list(CUSTOM)}
    assert live.standing(GAME, state, ctx).result.players[0].total == 6


# --- Parsing: JSON is strict ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"action": "add", "field": "vp_track", "delta": "5"}, id="strict: '5' is not a delta"),
        pytest.param({"action": "set", "field": "money", "value": "5"}, id="strict: '5' is not a value"),
        pytest.param({"action": "add", "field": "workers", "delta": True}, id="strict: true is not a delta"),
        pytest.param({"action": "build", "vp": "3"}, id="strict: '3' is not printed VP"),
        pytest.param({"action": "technique_vp", "number": 1, "vp": 2.5}, id="strict: 2.5 is not technique VP"),
    ],
)
def test_strict_parsing_refuses_text_for_numbers(raw: dict[str, Any]) -> None:
    """The JSON API parses strictly: a number given as text is an error, not a number."""
    field = "delta" if "delta" in raw else "value" if "value" in raw else "vp"
    assert set(parse_refusal(raw, 0)) == {field}


def test_strict_delta_message_and_lax_form_text() -> None:
    """'5' as a delta: refused as JSON with the form's message, taken as 5 from a form (lax)."""
    assert parse_refusal(vp("5"), 0) == {"delta": "Enter a whole number."}  # type: ignore[arg-type]
    lax = live.parse_action(GAME, vp("5"), 0, strict=False)  # type: ignore[arg-type]
    assert lax == live.Action("add", 0, live.AddParams(field="vp_track", delta=5))


def test_counters_and_players() -> None:
    """Only the seat counters can be stepped; a seat's counter without a player asks whose; the table has none."""
    state, ctx = start(2), context(2)
    assert refusal(state, ctx, "Ann", add("building_vp", 1)) == {"field": "There is no such counter."}
    assert refusal(state, ctx, "Ann", add("bonus_20", 1)) == {"field": "There is no such counter."}
    assert refusal(state, ctx, None, add("turn", 1)) == {"field": "There is no such counter."}
    assert refusal(state, ctx, None, vp(1)) == {"player": "Say which player's score track VP to change."}
    for raw in (build(1), PATENT, end_vp(1, 2)):
        assert parse_refusal(raw, None) == {"player": "Say which player this is for."}


def test_negative_counts_refused() -> None:
    """Money, VP, workers and Spyrium never go below 0 (the scoring input refuses them)."""
    state, ctx = start(2), context(2)
    for raw in (add("money", -9), vp(-1), add("workers", -4), add("spyrium", -3)):
        with pytest.raises(InputErrors):
            act(state, ctx, "Ann", raw)


# --- How actions are said for undo ----------------------------------------------------------------------------------

DESCRIBE = [
    pytest.param("Ann", vp(3), "Ann, score track VP +3", id="add"),
    pytest.param("Bob", add("money", -2), "Bob, money (£) −2", id="add, negative"),
    pytest.param("Ann", put("residence", 4), "Ann, Residence track set to 4", id="set"),
    pytest.param(None, TURN, "the start of a turn, with its income", id="start_turn"),
    pytest.param("Ann", WORKER, "Ann takes the 8 VP bonus: +1 worker", id="bonus"),
    pytest.param("Ann", MONEY, "Ann takes the 8 VP bonus: £5", id="bonus money"),
    pytest.param("Ann", build(5, 3), "Ann builds a 5 VP building, card £3", id="build"),
    pytest.param(
        "Bob", build(4, 2, replace=1), "Bob replaces building 1 with a 4 VP building, card £2", id="build replacing"
    ),
    pytest.param(
        "Bob",
        build(4, 5, replace=2, matching=True),
        "Bob replaces building 2 with a 4 VP building, card £5 − £3 for the matching icon",
        id="build replacing, matching icon",
    ),
    pytest.param("Ann", PATENT, "Ann patents a technique (−£6)", id="technique"),
    pytest.param("Ann", end_vp(2, 5), "Ann: technique 2 scores 5 VP at the end", id="technique_vp"),
    pytest.param(
        "Ann",
        {"action": "technique", "vp": 4},
        "Ann patents a technique (−£6), 4 VP at the end",
        id="technique, the API's older form with an end VP",
    ),
    pytest.param(
        "Ann",
        {"action": "technique", "vp": 4, "number": 2},
        "Ann: technique 2 scores 4 VP at the end",
        id="technique, the API's older form by number",
    ),
    pytest.param(
        "Bob",
        {"action": "technique", "beside": 2},
        "Bob patents a technique (−£8, 2 workers beside it)",
        id="technique with workers beside its card",
    ),
    pytest.param("Ann", {"action": "pay", "amount": 7}, "Ann pays £7", id="pay"),
    pytest.param(
        "Ann",
        {"action": "residence_vp"},
        "Ann's Residence action scores its value in VP",
        id="residence_vp, without the state before",
    ),
]


def test_describe_residence_vp_with_the_state_before() -> None:
    """Undo and the log name the VP the Residence action scored, read off the state before it."""
    state, ctx, _ = play([("Ann", add("residence", 2))])
    action = live.parse_action(GAME, {"action": "residence_vp"}, 0, strict=True)
    assert live.describe(GAME, action, ctx, state) == "Ann's Residence action scores 4 VP"


# --- Issue 17: an amount paid at once, the scoring Residence action, a technique's activation cost ---------------

PAY = [
    pytest.param([(None, TURN)], 7, 3, "Ann pays £7: £3 left.", id="pay the cost to acquire the benefit: £7 of £10"),
    pytest.param([], 8, 0, "Ann pays £8: £0 left.", id="pay the cost: everything Ann has"),
]


@pytest.mark.parametrize(("steps", "amount", "money", "said"), PAY)
def test_pay(steps: list[Step], amount: int, money: int, said: str) -> None:
    """'Pay the cost to acquire the benefit listed on that card' (and activation costs, buildings used): an amount
    typed once comes off the money; nothing else changes."""
    state, ctx, _ = play([*steps, ("Ann", {"action": "pay", "amount": amount})])
    before, _, _ = play(steps)
    assert ann(state) == {**ann(before), "money": money}
    assert act(before, ctx, "Ann", {"action": "pay", "amount": amount}).said == (said,)


def test_pay_refused() -> None:
    """Nobody pays with money they don't have: refused, with what Ann has; 0 or less is no payment."""
    state, ctx, _ = play([])
    assert refusal(state, ctx, "Ann", {"action": "pay", "amount": 9}) == {
        "amount": "Ann has £8: Ann can't pay £9. Nothing was paid."
    }
    assert set(parse_refusal({"action": "pay", "amount": 0}, 0)) == {"amount"}
    assert set(parse_refusal({"action": "pay", "amount": "3"}, 0)) == {"amount"}
    assert parse_refusal({"action": "pay", "amount": 3}, None) == {"player": "Say which player this is for."}


RESIDENCE_VP = [
    pytest.param(
        None,
        [],
        2,
        "Ann's Residence action scores 2 VP (the value of the token's space): 2 VP on the score track.",
        id="scores VP equal to the current income: the start space, 2",
    ),
    pytest.param(
        None,
        [("Ann", add("residence", 5))],
        7,
        "Ann's Residence action scores 7 VP (the value of the token's space): 7 VP on the score track.",
        id="at the top (7), further Residence actions score 7 VP",
    ),
    pytest.param(
        CUSTOM,
        [("Ann", add("residence", 2))],
        6,
        "Ann's Residence action scores 6 VP (the value of the token's space): 6 VP on the score track.",
        id="the value printed on a custom track's space",
    ),
]


@pytest.mark.parametrize(("values", "steps", "track", "said"), RESIDENCE_VP)
def test_residence_vp(values: tuple[int, ...] | None, steps: list[Step], track: int, said: str) -> None:
    """Decision (docs/rules.md, "Spyrium"): 'A Residence action either moves one space up or scores VP equal to the
    current income; at the top (7), further Residence actions score 7 VP.' The token stays where it is; nothing is
    paid."""
    before, ctx, _ = play(steps, values=values)
    applied = act(before, ctx, "Ann", {"action": "residence_vp"})
    assert ann(applied.state) == {**ann(before), "vp_track": track}
    assert applied.said == (said,)


def test_residence_vp_reaches_the_bonuses() -> None:
    """'When you reach 8 VP ...' and 'When you reach 20 VP ...' hold for VP a Residence action scores too."""
    _state, _ctx, said = play([("Ann", vp(5)), ("Ann", add("residence", 1)), ("Ann", {"action": "residence_vp"})])
    assert said[-1] == "Ann reached 8 VP: choose +1 worker or £5."
    state, _ctx, said = play(
        [
            ("Ann", vp(8)),
            ("Ann", WORKER),
            ("Ann", vp(10)),
            ("Ann", add("residence", 1)),
            ("Ann", {"action": "residence_vp"}),
        ]
    )
    assert bonus_state(ann(state)) == (21, 13, 4, "worker", True)
    assert said[-1] == "Ann reached 20 VP: the other bonus. Ann takes £5."


TECHNIQUE_BESIDE = [
    pytest.param(
        1,
        1,
        "Ann pays £7 (£6 and £1 for the worker beside it) for technique 1; its end VP (up to 7) is entered at the end.",
        id="£1 to the bank for each remaining worker next to that card: 1",
    ),
    pytest.param(3, -1, None, id="£9 with £8: refused"),
    pytest.param(
        0, 2, "Ann pays £6 for technique 1; its end VP (up to 7) is entered at the end.", id="no worker beside: £6"
    ),
]


@pytest.mark.parametrize(("beside", "money", "said"), TECHNIQUE_BESIDE)
def test_technique_with_workers_beside(beside: int, money: int, said: str | None) -> None:
    """'Pay £6 to acquire the technique card', and 'an activation cost of £1 to the bank for each remaining worker
    next to that card, in addition to any other activation costs for the card'."""
    state, ctx, _ = play([])
    raw = {"action": "technique", "beside": beside}
    if said is None:
        assert refusal(state, ctx, "Ann", raw) == {
            "action": "Ann has £8: this technique costs £9 (£6 and £3 for the 3 workers beside it)."
        }
        return
    applied = act(state, ctx, "Ann", raw)
    assert ann(applied.state) == {**ann(state), "money": money, "technique_vp": [0]}
    assert applied.said == (said,)


@pytest.mark.parametrize(("who", "raw", "text"), DESCRIBE)
def test_describe(who: str | None, raw: dict[str, Any], text: str) -> None:
    """The text undo and the log show for an action: plain words, no parameter names."""
    ctx = context(2)
    seat = ctx.names.index(who) if who is not None else None
    assert live.describe(GAME, live.parse_action(GAME, raw, seat, strict=True), ctx) == text


# --- Properties over random play ------------------------------------------------------------------------------------

moves = st.one_of(
    st.tuples(st.integers(0, 2), st.integers(-3, 9).map(vp)),
    st.tuples(st.integers(0, 2), st.sampled_from([WORKER, MONEY])),
    st.tuples(st.integers(0, 2), st.integers(-1, 2).map(lambda d: add("workers", d))),
    st.tuples(st.integers(0, 2), st.integers(-1, 1).map(lambda d: add("residence", d))),
    st.tuples(
        st.integers(0, 2),
        st.builds(build, st.integers(0, 5), st.integers(0, 4), st.one_of(st.none(), st.integers(1, 3)), st.booleans()),
    ),
    st.tuples(st.integers(0, 2), st.just(PATENT)),
    st.tuples(st.integers(0, 2), st.integers(0, 2).map(lambda n: {"action": "technique", "beside": n})),
    st.tuples(st.integers(0, 2), st.integers(1, 9).map(lambda n: {"action": "pay", "amount": n})),
    st.tuples(st.integers(0, 2), st.just({"action": "residence_vp"})),
    st.tuples(st.integers(0, 2), st.builds(end_vp, st.integers(1, 2), st.integers(0, 7))),
    st.tuples(st.none(), st.just(TURN)),
)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(moves, max_size=40))
def test_random_play_keeps_the_rules(steps: list[tuple[int | None, dict[str, Any]]]) -> None:
    """Through any mix of actions (the refused ones skipped):
    - workers stay 0-7, the Residence token on spaces 1-6, the turn 0-6;
    - the 20 VP bonus is only ever given after the 8 VP choice, and only at 20 VP or more;
    - the 8 VP choice is only ever made by the bonus action, at 8 VP or more;
    - undo (changed_parts/restore) gives back the state before every action."""
    ctx = context(3)
    state = start(3)
    for seat, raw in steps:
        who = NAMES[seat] if seat is not None else None
        try:
            applied = act(state, ctx, who, raw)
        except InputErrors:
            continue
        before, state = state, applied.state
        assert live.restore(state, live.changed_parts(before, state)) == before
        assert 0 <= state["table"]["turn"] <= 6
        for old, new in zip(before["seats"], state["seats"], strict=True):
            assert 0 <= new["workers"] <= 7
            assert 1 <= new["residence"] <= 6
            assert new["money"] >= 0
            if new["bonus_20"]:
                assert new["bonus_8"] in ("worker", "money")
            if new["bonus_20"] and not old["bonus_20"]:
                assert new["vp_track"] >= 20
            if new["bonus_8"] is not None and old["bonus_8"] is None:
                assert raw["action"] == "bonus" and old["vp_track"] >= 8


# --- What the API says beside a seat, and what the tracker leaves on the table ------------------------------------


@pytest.mark.parametrize(
    ("values", "steps", "expected"),
    [
        pytest.param(None, [], [2, 2], id="a token on the 2 space: the start space shows 2"),
        pytest.param(
            None,
            [("Ann", add("residence", 1)), ("Bob", put("residence", 6))],
            [3, 7],
            id="one space up shows 3; the top space 7",
        ),
        pytest.param(CUSTOM, [], [2, 2], id="custom track 1, 2, 4, 6, 8, 10: the token starts on the space showing 2"),
        pytest.param(
            CUSTOM,
            [("Ann", put("residence", 1)), ("Bob", put("residence", 5))],
            [1, 8],
            id="custom track: spaces 1 and 5 show 1 and 8",
        ),
    ],
)
def test_residence_value_is_the_printed_value(
    values: tuple[int, ...] | None, steps: list[Step], expected: list[int]
) -> None:
    """Decision (docs/rules.md, "Spyrium"): 'The Residence track is shown as the board shows it: the value printed on
    the space (the start space is "2")'. seat_facts gives it as residence_value beside the space's number, which keeps
    its meaning."""
    state, ctx, _ = play(steps, values=values)
    facts = [GAME.live.seat_facts(seat, ctx.options) for seat in state["seats"]]
    assert facts == [{"residence_value": value} for value in expected]
    assert spyrium.view(live.standing(GAME, state, ctx))["income"] == expected


def test_what_the_tracker_leaves_on_the_table() -> None:
    """The rule text's actions the tracker doesn't keep are said, in plain sentences, not silently ignored."""
    untracked = GAME.live.untracked
    text = " ".join(untracked).lower()
    for part in ("market", "placing workers", "phases", "events", "spyrium", "icons"):
        assert part in text
    for sentence in untracked:
        assert sentence.endswith(".") and sentence[0].isupper()
        assert "_" not in sentence and "[" not in sentence
