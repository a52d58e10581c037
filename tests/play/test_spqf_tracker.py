"""The SPQF tracker routes through the test client: every page, every htmx fragment, every bad input.

House style as in test_plays.py: each htmx route as a full page and as a fragment; bad input answers 422, says why
and keeps what was saved (checked in the database, not only in the answer).
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape
from sqlmodel import Session, select

from companion.games import spqf
from companion.store.models import FINISHED, IN_PROGRESS, Seat
from tests.helpers import (
    DEFAULT_LEVEL_VP,
    SPQF_COLOURS,
    answered,
    bad_rosters,
    created_play,
    csrf_client,
    live,
    new_play_form,
    notice,
    oob_ids,
    oob_value,
    page_ids,
    post,
    refused_finish,
    refused_new_play,
    refused_tap,
    saved,
    seat_ids,
    sent_to_play,
    sheet_text,
    spqf_act,
    spqf_form,
    start_spqf,
    tap,
    tracker_page,
)

NAMES = ["Ann", "Bob", "Cy", "Di"]


# Helpers ------------------------------------------------------------------------------------------------------


@pytest.fixture
def play_id(client) -> int:
    """A two-player SPQF play in progress: Ann (red) first, then Bob (blue)."""
    return start_spqf(client)


# The new-play form --------------------------------------------------------------------------------------------


def test_new_play_form(client) -> None:
    # Each row offers the game's four colours, a different one picked in each row.
    html = new_play_form(client, "spqf", "SPQF", SPQF_COLOURS)
    assert html.count('name="name-') == 4
    # The level VP option: six boxes, levels 0 to 5, filled with the default table, and the warning to check it.
    assert "Civilization Level VP (levels 0 to 5)" in html
    assert re.findall(r'name="level_vp-(\d)" value="(\d+)"', html) == [
        (str(i), str(vp)) for i, vp in enumerate(DEFAULT_LEVEL_VP)
    ]
    assert "Only level 3 = 9 VP is printed in the rules: check your reference card." in html
    assert "Solo game" not in html


def test_new_play_form_offers_the_roster(client, play_id: int) -> None:
    html = client.get("/plays/new?game=spqf").get_data(as_text=True)
    assert '<option value="Ann">' in html and '<option value="Bob">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_create_play_redirects_to_tracker(client, app, htmx: bool) -> None:
    form = spqf_form(["  Ann ", "Bob", "Cy"], colours=["green", "red", "yellow"], level_vp=[0, 4, 8, 9, 14, 20])
    _play_id, html, play, seats = created_play(client, app, htmx, form)
    assert [(s.name, s.colour) for s in seats] == [("Ann", "green"), ("Bob", "red"), ("Cy", "yellow")]
    assert (
        "Civilization Level VP (your own table): level 0: 0, level 1: 4, level 2: 8, level 3: 9, "
        "level 4: 14, level 5: 20 VP."
    ) in html
    assert (play.game, play.status, play.options) == ("spqf", IN_PROGRESS, {"level_vp": [0, 4, 8, 9, 14, 20]})
    assert play.extra["table"] == {"turn": 1, "first": {}, "last_card": False, "end_round": None}
    assert all(s.state == {"vp_tokens": 0, "civ_level": 0, "monument_modifiers": 0, "vp_cards": 0} for s in seats)


BAD_NEW_PLAYS = [
    *bad_rosters("SPQF", 4, "green", ["red", "purple"]),
    (
        "a level VP out of range",
        {"names": ["Ann", "Bob"], "level_vp": [0, 3, 6, 100, 12, 15]},
        "Entry 4 is 100: each number must be between 0 and 99.",
    ),
    ("a level VP left blank", {"names": ["Ann", "Bob"], "level_vp": [0, 3, 6, 9, 12, ""]}, "Enter a whole number."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_NEW_PLAYS, ids=[b[0] for b in BAD_NEW_PLAYS])
def test_create_play_bad_input(client, app, htmx: bool, case: str, form: dict, message: str) -> None:
    refused_new_play(client, app, htmx, spqf_form(**form), message, form["names"])


def test_refused_new_play_keeps_the_typed_level_table(client) -> None:
    form = spqf_form(["Ann", "Bob"], level_vp=[0, 4, 8, 12, 16, ""])
    response = client.post("/plays", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.findall(r'name="level_vp-\d" value="([^"]*)"', html) == ["0", "4", "8", "12", "16", ""]


# The tracker page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_tracker_page(client, count: int) -> None:
    play = start_spqf(client, NAMES[:count])
    # The setup card for this player count, and the level table in use.
    html, seats = tracker_page(client, play, count)
    assert f"deal 5 to each player ({5 * count} for {count} players)" in html
    assert "Civilization Level VP (default table): level 0: 0, level 1: 3, level 2: 6, level 3: 9" in html
    # Whose turn, the table's actions, the first to each level.
    assert '<h2 id="turn-title">Round 1: Ann\'s turn</h2>' in html
    assert ">Next turn</button>" in html
    assert ">Last Civilization card placed</button>" in html
    assert "<summary>First to each level</summary>" in html
    assert html.count("<li>Level ") == 5 and html.count('<span class="muted">nobody yet</span>') == 5
    assert "First to each level: nobody has expanded yet." in html
    assert f'<span id="turn-{seats[0]}" class="turn-badge"><span class="badge active">their turn</span></span>' in html
    for seat, name in zip(seats, NAMES, strict=False):
        for label in ("VP tokens", "Civilization Level", "1 VP cards"):
            assert f'aria-label="{name}: {label} plus one"' in html
            assert f'aria-label="{name}: {label} minus one"' in html
        # A Score action's VP tokens in one tap: +2 to +5 beside the counter's +1, each a tap on the VP token
        # counter, its message in that counter's slot.
        for step in (2, 3, 4, 5):
            assert re.search(
                rf'<button class="step chip" type="submit" name="delta" value="{step}" '
                rf'aria-label="{name}: VP tokens plus {step}" hx-post="/plays/{play}/seats/{seat}" '
                rf'hx-target="#c-{seat}-vp_tokens-error"[^>]*>\+{step}</button>',
                html,
            )
        for field in ("vp_tokens", "civ_level", "vp_cards"):
            assert re.search(rf'<output id="c-{seat}-{field}-value" class="value"[^>]*>0</output>', html)
        assert f'<p id="facts-{seat}" class="seat-facts muted small">Level 0 is worth 0 VP</p>' in html
        # The finish form: a Monument modifiers box per player. 1 VP cards have their live counter above, so the
        # finish form has no box for them (a box drawn at page load would go stale as the counter is tapped).
        assert re.search(
            rf'<input id="end-{seat}-monument_modifiers" type="number"[^>]*'
            rf'name="end-{seat}-monument_modifiers"\s+value="0"',
            html,
        )
        assert f'name="end-{seat}-vp_cards"' not in html
    assert html.count('<label for="end-') == count
    assert html.count(">Monument modifiers</label>") == count
    assert "<h2>At the end</h2>" in html and "Finish and score" in html
    assert "Undo last tap" in html and "disabled" in html.split('id="undo"')[1].split("</form>")[0]


def test_unknown_play_is_404(client) -> None:
    assert client.get("/plays/999").status_code == 404
    assert client.post("/plays/999/actions", data={"action": "next_turn"}).status_code == 404


# Taps on a seat's counters ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_first_to_a_level_takes_a_token(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    response = tap(client, play_id, ann, htmx, field="civ_level", delta=1)
    state = saved(app, play_id)
    assert state["seats"][0] == {"vp_tokens": 1, "civ_level": 1, "monument_modifiers": 0, "vp_cards": 0}
    assert state["table"]["first"] == {"1": {"seat": 0, "turn": 1}}
    assert state["changes"] == 1
    if not htmx:
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
        html = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "<li>Level 1: <strong>Ann</strong></li>" in html
        assert re.search(rf'<output id="c-{ann}-vp_tokens-value" class="value"[^>]*>1</output>', html)
        return
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html
    # The tapped counter's message slot is the swap target; the values come out of band, the token included.
    assert html.lstrip().startswith(f'<p id="c-{ann}-civ_level-error" class="error" role="alert"></p>')
    assert notice(html) == "Ann is first to level 1: +1 VP token."
    assert oob_value(html, ann, "civ_level") == "1"
    assert oob_value(html, ann, "vp_tokens") == "1"
    assert oob_value(html, bob, "vp_tokens") == "0"
    assert "<button" not in html.split('<section id="scoreboard"')[0]
    assert re.search(r'Ann</span> <span class="points">4<', html)  # 1 token + level 1 (3 VP)
    assert "First to each level: level 1 Ann." in html
    assert '<ul id="levels" class="levels-list" hx-swap-oob="true">' in html
    assert 'id="give-token"' not in html, "the form a tap may be queued on is never redrawn"
    assert "<li>Level 1: <strong>Ann</strong></li>" in html
    assert (
        f'<p id="facts-{ann}" class="seat-facts muted small" hx-swap-oob="true">Level 1 is worth 3 VP · first to '
        f"level 1</p>"
    ) in html
    assert 'id="undo"' in html and 'hx-swap-oob="innerHTML"' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_tokens_by_fives_and_typed(client, app, play_id: int, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    first = tap(client, play_id, ann, htmx, field="vp_tokens", delta=5)
    second = tap(client, play_id, ann, htmx, field="vp_tokens", value=" 12 ")
    third = tap(client, play_id, ann, htmx, field="vp_cards", delta=1)
    for response in (first, second, third):
        assert response.status_code == (200 if htmx else 303)
    if htmx:
        assert oob_value(first.get_data(as_text=True), ann, "vp_tokens") == "5"
        assert oob_value(second.get_data(as_text=True), ann, "vp_tokens") == "12"
        assert oob_value(third.get_data(as_text=True), ann, "vp_cards") == "1"
        # A tap that triggers no rule says nothing, and clears what the notice said before.
        assert notice(third.get_data(as_text=True)) == ""
    state = saved(app, play_id)
    assert (state["seats"][0]["vp_tokens"], state["seats"][0]["vp_cards"]) == (12, 1)
    assert state["changes"] == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_score_of_several_tokens_is_one_tap(client, app, play_id: int, htmx: bool) -> None:
    """'A Score: Take the indicated VP tokens from the supply.': a chip's tap takes them all, one undo step."""
    ann, bob = seat_ids(client, play_id)
    response = tap(client, play_id, ann, htmx, field="vp_tokens", delta=4)
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [4, 0]
    assert state["changes"] == 1
    if not htmx:
        assert response.status_code == 303
        html = client.get(response.headers["Location"]).get_data(as_text=True)
        assert re.search(rf'<output id="c-{ann}-vp_tokens-value" class="value"[^>]*>4</output>', html)
        assert 'aria-label="Ann: VP tokens plus 4"' in html
    else:
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "<html" not in html
        assert html.lstrip().startswith(f'<p id="c-{ann}-vp_tokens-error" class="error" role="alert"></p>')
        assert oob_value(html, ann, "vp_tokens") == "4" and oob_value(html, bob, "vp_tokens") == "0"
        # The chips are never redrawn: a tap queued on one is always sent.
        assert 'class="gains"' not in html
    undone = post(client, htmx, f"/plays/{play_id}/undo")
    assert undone.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0]["vp_tokens"] == 0


def test_second_to_a_level_takes_no_token(client, app, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    html = tap(client, play_id, bob, True, field="civ_level", delta=1).get_data(as_text=True)
    assert notice(html) == "Bob reaches level 1; Ann was first to it."
    assert oob_value(html, bob, "vp_tokens") == "0"
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [1, 0]
    assert state["table"]["first"] == {"1": {"seat": 0, "turn": 1}}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_same_turn_tie_goes_in_turn_order_once_turns_are_followed(client, app, play_id: int, htmx: bool) -> None:
    """'If multiple players are expanding, break ties in turn order beginning with the active player.': after Next
    turn (Bob's turn 2), Ann taps her level first, then Bob, the active player: the token moves to Bob."""
    ann, bob = seat_ids(client, play_id)
    spqf_act(client, play_id, action="next_turn")
    tap(client, play_id, ann, field="civ_level", delta=1)
    response = tap(client, play_id, bob, htmx, field="civ_level", delta=1)
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "<html" not in html
        assert notice(html) == (
            "Bob and Ann both reached level 1 this turn; in turn order from the active player (Bob) Bob comes first: "
            "the level 1 token moves to Bob (+1 VP token), Ann gives it back (−1 VP token). If they expanded in "
            "different actions, give it back under First to each level."
        )
        assert oob_value(html, ann, "vp_tokens") == "0" and oob_value(html, bob, "vp_tokens") == "1"
        assert "<li>Level 1: <strong>Bob</strong></li>" in html
    else:
        assert response.status_code == 303
        html = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "<li>Level 1: <strong>Bob</strong></li>" in html
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [0, 1]
    assert state["table"]["first"] == {"1": {"seat": 1, "turn": 2}}


def test_level_corrected_down_gives_the_token_back(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    html = tap(client, play_id, ann, True, field="civ_level", delta=-1).get_data(as_text=True)
    assert notice(html) == (
        "Ann&#39;s Civilization Level corrected from 1 down to 0. The level 1 token goes back (−1 VP token): "
        "nobody holds it now; if someone else reached it first, hand it to them."
    )
    state = saved(app, play_id)
    assert state["seats"][0]["vp_tokens"] == 0 and state["table"]["first"] == {}


BAD_TAPS = [
    (
        "a level skipped",
        {"field": "civ_level", "value": "3"},
        "civ_level",
        "Levels are earned one at a time, in ascending order: Ann is on level 1, so the next is level 2.",
    ),
    (
        "a level skipped by a delta",
        {"field": "civ_level", "delta": "2"},
        "civ_level",
        "Levels are earned one at a time, in ascending order: Ann is on level 1, so the next is level 2.",
    ),
    (
        "level 6",
        {"field": "civ_level", "value": "6"},
        "civ_level",
        "There are 5 Civilization Levels: Ann can&#39;t go past level 5.",
    ),
    ("a negative level", {"field": "civ_level", "value": "-1"}, "civ_level", "Must be at least 0."),
    ("negative tokens", {"field": "vp_tokens", "delta": "-4"}, "vp_tokens", "Must be at least 0."),
    ("tokens past the typo guard", {"field": "vp_tokens", "value": "151"}, "vp_tokens", "Must be at most 150."),
    ("more 1 VP cards than a player can hold", {"field": "vp_cards", "value": "54"}, "vp_cards", "Must be at most 53."),
    ("not a number", {"field": "vp_tokens", "value": "ten"}, "vp_tokens", "Enter a whole number."),
    ("a delta that is not a number", {"field": "civ_level", "delta": "x"}, "civ_level", "Enter a whole number."),
    ("an unknown field", {"field": "monument", "delta": "1"}, "monument", "There is no such counter."),
    ("the name is no counter", {"field": "name", "value": "3"}, "name", "There is no such counter."),
    ("no field at all", {"delta": "1"}, "", "There is no such counter."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "slot", "message"), BAD_TAPS, ids=[b[0] for b in BAD_TAPS])
def test_refused_tap_keeps_what_was_saved(
    client, app, play_id: int, htmx: bool, case: str, form: dict, slot: str, message: str
) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)  # level 1 and its token
    tap(client, play_id, ann, field="vp_tokens", delta=2)  # 3 tokens
    tap(client, play_id, bob, field="vp_cards", value=4)
    # The refusal lands in the tapped counter's slot; every value is sent again as saved.
    kept = {(ann, "vp_tokens"): "3", (ann, "civ_level"): "1", (bob, "vp_cards"): "4"}
    refused_tap(client, app, play_id, htmx, ann, form, slot, message, kept)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_1_vp_cards_between_players_stay_within_the_cards_in_play(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="vp_cards", value=30)
    before = saved(app, play_id)
    response = tap(client, play_id, bob, htmx, field="vp_cards", value=29)
    html = response.get_data(as_text=True)
    message = (
        "Only 58 cards are in play with 2 players (48 Civilization + 5 starters each); 59 cards with a 1 VP "
        "corner counted in all."
    )
    assert response.status_code == 422
    assert f'<p id="c-{bob}-vp_cards-error" class="error" role="alert">{message}</p>' in html
    assert ("<html" in html) is not htmx
    assert saved(app, play_id) == before
    assert tap(client, play_id, bob, htmx, field="vp_cards", value=28).status_code == (200 if htmx else 303)


def test_refused_tap_message_sits_beside_its_counter_on_the_page(client, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    html = tap(client, play_id, ann, field="civ_level", value=2).get_data(as_text=True)
    assert (
        f'<p id="c-{ann}-civ_level-error" class="error" role="alert">Levels are earned one at a time, in '
        "ascending order: Ann is on level 0, so the next is level 1.</p>"
    ) in html


def test_tap_on_a_seat_of_another_play_is_404(client, app, play_id: int) -> None:
    other = start_spqf(client, ["Cy", "Di"])
    cy, _di = seat_ids(client, other)
    before = saved(app, other)
    assert tap(client, play_id, cy, field="vp_tokens", delta=1).status_code == 404
    response = tap(client, play_id, cy, True, field="vp_tokens", delta=1)
    assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#flash"
    assert "That player is not in this play." in response.get_data(as_text=True)
    assert saved(app, other) == before


# The table's actions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_next_turn(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    response = spqf_act(client, play_id, htmx, action="next_turn")
    assert saved(app, play_id)["table"]["turn"] == 2
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "<html" not in html
        # The action's own slot gets its message (none: it was saved); the rest comes out of band.
        assert html.lstrip().startswith("<output")
        assert notice(html) == "Round 1: Bob&#39;s turn."
        assert '<h2 id="turn-title" hx-swap-oob="true">Round 1: Bob\'s turn</h2>' in html
        assert f'<span id="turn-{ann}" class="turn-badge" hx-swap-oob="true"></span>' in html
        assert (
            f'<span id="turn-{bob}" class="turn-badge" hx-swap-oob="true"><span class="badge active">their turn'
            "</span></span>"
        ) in html
    else:
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
        assert "Round 1: Bob's turn" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    html = spqf_act(client, play_id, True, action="next_turn").get_data(as_text=True)
    assert notice(html) == "Round 2: Ann&#39;s turn."
    assert saved(app, play_id)["table"]["turn"] == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_last_card_placed_and_taken_off(client, app, play_id: int, htmx: bool) -> None:
    response = spqf_act(client, play_id, htmx, action="last_card", placed="true")
    assert response.status_code == (200 if htmx else 303)
    table = saved(app, play_id)["table"]
    assert (table["last_card"], table["end_round"]) == (True, 1)
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == (
            "The last Civilization card is in the central trade row. The end of the game begins: the last "
            "Civilization card is in the central trade row. Finish the round up to Bob&#39;s turn, the last in turn "
            "order; then enter the Monuments and finish."
        )
        assert (
            '<li class="warn"><strong>Warning:</strong> The end of the game has begun: the last Civilization card is '
            "in the central trade row. Finish the round up to Bob&#39;s turn, the last in turn order; then enter the "
            "Monuments and finish.</li>"
        ) in html
        assert (
            '<p id="deck-state" class="muted small" hx-swap-oob="true">The last Civilization card is in the central '
            "trade row.</p>"
        ) in html
    else:
        page = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert "Correction: the Civilization deck is not empty" in page
        assert "The end of the game has begun: the last Civilization card is in the central trade row." in page
    response = spqf_act(client, play_id, htmx, action="last_card", placed="false")
    assert response.status_code == (200 if htmx else 303)
    table = saved(app, play_id)["table"]
    assert (table["last_card"], table["end_round"]) == (False, None)
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "The last-card mark is taken off: the Civilization deck is not empty. "
            "The end of the game is no longer triggered."
        )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_first_token_handed_to_the_right_player(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    tap(client, play_id, bob, field="civ_level", delta=1)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert 'id="give-token"' in page and f'<option value="{bob}">Bob</option>' in page
    response = spqf_act(client, play_id, htmx, action="first_token", seat=bob, level=1)
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [0, 1]
    assert state["table"]["first"] == {"1": {"seat": 1, "turn": 1}}
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert notice(html) == "The level 1 token goes to Bob (+1 VP token), Ann gives it back (−1 VP token)."
        assert oob_value(html, ann, "vp_tokens") == "0" and oob_value(html, bob, "vp_tokens") == "1"
        assert "<li>Level 1: <strong>Bob</strong></li>" in html
    else:
        assert response.status_code == 303
        assert "<li>Level 1: <strong>Bob</strong></li>" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    # Giving it to the player who holds it already changes nothing and is no undo step.
    changes = saved(app, play_id)["changes"]
    again = spqf_act(client, play_id, htmx, action="first_token", seat=bob, level=1)
    assert again.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["changes"] == changes


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_token_handed_over_after_a_correction_keeps_the_turn_it_was_reached(client, app, htmx: bool) -> None:
    """Decision (docs/rules.md, "SPQF"): 'A first-to-level token handed over by the group ... keeps the turn on which
    its level was reached: a player who expands later in the same turn does not take it.'"""
    play_id = start_spqf(client, NAMES[:3])
    ann, bob, cy = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)  # turn 1: a tap on the wrong seat, Ann takes the token
    tap(client, play_id, bob, field="civ_level", delta=1)  # Bob really expanded in turn 1
    spqf_act(client, play_id, action="next_turn")
    spqf_act(client, play_id, action="next_turn")  # turn 3, Cy's
    corrected = tap(client, play_id, ann, True, field="civ_level", delta=-1).get_data(as_text=True)
    assert notice(corrected) == (
        "Ann&#39;s Civilization Level corrected from 1 down to 0. The level 1 token goes back (−1 VP token): "
        "nobody holds it now; Bob has reached it too: hand it to whoever was first under First to each level."
    )
    response = spqf_act(client, play_id, htmx, action="first_token", seat=bob, level=1)
    assert response.status_code == (200 if htmx else 303)
    # Cy expands in turn 3, before Bob in turn order from Cy; Bob reached level 1 in turn 1, so he keeps it.
    html = tap(client, play_id, cy, htmx, field="civ_level", delta=1).get_data(as_text=True)
    if htmx:
        assert notice(html) == "Cy reaches level 1; Bob was first to it."
        assert "<li>Level 1: <strong>Bob</strong></li>" in html
    else:
        assert "<li>Level 1: <strong>Bob</strong></li>" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [0, 1, 0]
    assert state["table"]["first"] == {"1": {"seat": 1, "turn": 1}}
    assert state["table"]["reached"] == {"1": {"1": 1, "2": 3}}


def test_tracker_says_what_stays_on_the_table(client, play_id: int) -> None:
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    panel = re.search(r'<details class="card setup tracker-help">(.*?)</details>', html, re.DOTALL).group(1)
    assert "What the tracker keeps" in panel
    assert re.findall(r"<li>(.*?)</li>", panel) == [str(escape(line)) for line in spqf.UNTRACKED]


BAD_ACTIONS = [
    (
        "an unknown action",
        {"action": "dance"},
        ("Unknown action &#39;dance&#39;; SPQF knows add, first_token, last_card, next_turn, set."),
    ),
    (
        "a token to a player below the level",
        {"action": "first_token", "seat": "bob", "level": "2"},
        "Bob has not reached level 2: only a player who has earned a level can be first to it.",
    ),
    ("a token for level 6", {"action": "first_token", "seat": "bob", "level": "6"}, "The levels are 1 to 5."),
    ("a token for nobody", {"action": "first_token", "level": "1"}, "Say which player this is for."),
    ("a level that is not a number", {"action": "first_token", "seat": "bob", "level": "x"}, "Enter a whole number."),
    (
        "next turn for a player",
        {"action": "next_turn", "seat": "bob"},
        "Next turn is for the whole table: give no player.",
    ),
    ("last card neither placed nor not", {"action": "last_card", "placed": "maybe"}, "Input should be a valid boolean"),
    ("a parameter next turn doesn't take", {"action": "next_turn", "turn": "9"}, "Unknown field."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_refused_action_keeps_what_was_saved(
    client, app, play_id: int, htmx: bool, case: str, form: dict, message: str
) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    tap(client, play_id, bob, field="civ_level", delta=1)
    before = saved(app, play_id)
    data = {key: (str(bob) if value == "bob" else value) for key, value in form.items()}
    response = spqf_act(client, play_id, htmx, **data)
    html = answered(response, htmx, 422)
    if htmx:
        # The message comes first: it lands in the slot beside the button that was pressed.
        assert html.lstrip().startswith(message)
        assert oob_value(html, ann, "vp_tokens") == "1"
    assert saved(app, play_id) == before


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"action": "dance"}, "Unknown action &#39;dance&#39;"),
        ({"action": "first_token", "seat": "bob", "level": "6"}, "The levels are 1 to 5."),
    ],
    ids=["unknown action", "token for level 6"],
)
def test_refused_action_page_says_why(client, play_id: int, form: dict, message: str) -> None:
    _ann, bob = seat_ids(client, play_id)
    data = {key: (str(bob) if value == "bob" else value) for key, value in form.items()}
    response = spqf_act(client, play_id, **data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_end_of_game_round_then_next_turn_refused(client, app, htmx: bool) -> None:
    play = start_spqf(client, ["Ann", "Bob", "Cy"])
    _ann, bob, _cy = seat_ids(client, play)
    spqf_act(client, play, action="next_turn")  # Bob's turn: Bob reaches level 5 during it
    for _ in range(4):
        tap(client, play, bob, field="civ_level", delta=1)
    html = tap(client, play, bob, True, field="civ_level", delta=1).get_data(as_text=True)
    assert notice(html) == (
        "Bob is first to level 5: +1 VP token. The end of the game begins: Bob reached Civilization Level 5. "
        "Finish the round: after Bob&#39;s turn, Cy still plays."
    )
    assert saved(app, play)["table"]["end_round"] == 1
    # No sixth level.
    refused = tap(client, play, bob, htmx, field="civ_level", delta=1)
    assert refused.status_code == 422
    assert "There are 5 Civilization Levels: Bob can&#39;t go past level 5." in refused.get_data(as_text=True)
    # Cy still plays; then the round that ends the game is over.
    last = spqf_act(client, play, True, action="next_turn").get_data(as_text=True)
    assert notice(last) == "Round 1: Cy&#39;s turn."
    assert "Cy&#39;s turn is the last one: then enter the Monuments and finish." in last
    before = saved(app, play)
    response = spqf_act(client, play, htmx, action="next_turn")
    html = answered(response, htmx, 422)
    if htmx:
        assert html.lstrip().startswith(
            "The round is finished and the end of the game has begun: enter the Monuments and finish."
        )
    assert saved(app, play) == before
    assert before["table"]["turn"] == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_action_for_a_seat_of_another_play_is_404(client, app, play_id: int, htmx: bool) -> None:
    other = start_spqf(client, ["Cy", "Di"])
    cy, _di = seat_ids(client, other)
    tap(client, other, cy, field="civ_level", delta=1)
    before = (saved(app, play_id), saved(app, other))
    response = spqf_act(client, play_id, htmx, action="first_token", seat=cy, level=1)
    assert response.status_code == 404
    if htmx:
        assert response.headers["HX-Retarget"] == "#flash"
        assert "That player is not in this play." in response.get_data(as_text=True)
    assert (saved(app, play_id), saved(app, other)) == before


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_action_for_a_seat_that_is_not_a_number(client, app, play_id: int, htmx: bool) -> None:
    before = saved(app, play_id)
    response = spqf_act(client, play_id, htmx, action="first_token", seat="abc", level=1)
    assert response.status_code in (404, 422)
    assert saved(app, play_id) == before


# Undo ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_takes_back_the_token_a_tap_caused(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, bob, field="vp_cards", delta=1)
    tap(client, play_id, ann, field="civ_level", delta=1)
    assert saved(app, play_id)["seats"][0]["vp_tokens"] == 1
    response = post(client, htmx, f"/plays/{play_id}/undo")
    assert response.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    assert state["seats"][0] == {"vp_tokens": 0, "civ_level": 0, "monument_modifiers": 0, "vp_cards": 0}
    assert state["seats"][1]["vp_cards"] == 1
    assert state["table"]["first"] == {}
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Took back: Ann, Civilization Level +1 (Ann is first to level 1: +1 VP token)."
        assert oob_value(html, ann, "vp_tokens") == "0" and oob_value(html, ann, "civ_level") == "0"
        assert '<li>Level 1: <span class="muted">nobody yet</span></li>' in html
    else:
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
    # The next undo goes one action further back, then there is nothing left.
    post(client, htmx, f"/plays/{play_id}/undo")
    assert saved(app, play_id)["seats"][1]["vp_cards"] == 0
    html = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(html) == "Nothing left to take back."
    assert "disabled" in html.split('id="undo"')[1].split("</form>")[0]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_a_token_handed_over_and_a_turn(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    tap(client, play_id, bob, field="civ_level", delta=1)
    spqf_act(client, play_id, action="first_token", seat=bob, level=1)
    spqf_act(client, play_id, action="next_turn")
    response = post(client, htmx, f"/plays/{play_id}/undo")
    assert response.status_code == (200 if htmx else 303)
    if htmx:
        assert notice(response.get_data(as_text=True)) == "Took back: next turn (Round 1: Bob&#39;s turn)."
    assert saved(app, play_id)["table"]["turn"] == 1
    response = post(client, htmx, f"/plays/{play_id}/undo")
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "Took back: the level 1 token handed to Bob (The level 1 token goes to Bob (+1 VP token), Ann gives it "
            "back (−1 VP token))."
        )
    state = saved(app, play_id)
    assert [s["vp_tokens"] for s in state["seats"]] == [1, 0]
    assert state["table"]["first"] == {"1": {"seat": 0, "turn": 1}}


# The regular refresh ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_live_values_bring_other_devices_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    other = csrf_client(app)
    other.post(f"/plays/{play_id}/seats/{bob}", data={"field": "civ_level", "delta": "1"})
    other.post(f"/plays/{play_id}/actions", data={"action": "next_turn"})
    response = live(client, play_id, htmx)
    html = answered(response, htmx, 200)
    assert re.search(rf'<output id="c-{bob}-vp_tokens-value"[^>]*>1</output>', html)
    assert re.search(rf'<output id="c-{bob}-civ_level-value"[^>]*>1</output>', html)
    assert re.search(r'<h2 id="turn-title"[^>]*>Round 1: Bob\'s turn</h2>', html)
    assert "<li>Level 1: <strong>Bob</strong></li>" in html
    assert "First to each level: level 1 Bob." in html
    if htmx:
        # The regular refresh leaves the notice as it was.
        assert notice(html) is None
        assert oob_value(html, ann, "vp_tokens") == "0"


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_live_values_of_a_finished_play_go_to_the_result(client, play_id: int, htmx: bool) -> None:
    client.post(f"/plays/{play_id}/finish")
    sent_to_play(live(client, play_id, htmx), play_id, htmx)


@pytest.mark.parametrize("route", ["tap", "action", "undo", "live"])
def test_every_out_of_band_piece_has_its_place_on_the_page(client, play_id: int, route: str) -> None:
    """htmx drops (and logs an error for) an out-of-band piece whose id the page doesn't have."""
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    ids_on_page = page_ids(client, play_id)
    if route == "tap":
        response = tap(client, play_id, ann, True, field="vp_tokens", delta=1)
    elif route == "action":
        response = spqf_act(client, play_id, True, action="next_turn")
    elif route == "undo":
        response = client.htmx("POST", f"/plays/{play_id}/undo")
    else:
        response = client.htmx("GET", f"/plays/{play_id}/live")
    oob_ids(response, ids_on_page)
    assert "monument_modifiers-value" not in response.get_data(as_text=True)


# Finish, result and score sheet -------------------------------------------------------------------------------


def end_form(seats: list[int], monument: list[object]) -> dict:
    """The finish form's boxes: end-<seat id>-monument_modifiers."""
    return {f"end-{seat}-monument_modifiers": str(value) for seat, value in zip(seats, monument, strict=True)}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finish_scores_with_the_monument_bonus(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="vp_tokens", value=7)
    tap(client, play_id, ann, field="civ_level", delta=1)  # +1 token: 8 tokens, level 1 = 3 VP
    tap(client, play_id, ann, field="vp_cards", value=2)
    tap(client, play_id, bob, field="vp_tokens", value=10)
    response = post(client, htmx, f"/plays/{play_id}/finish", end_form([ann, bob], [4, 1]))
    sent_to_play(response, play_id, htmx)
    state = saved(app, play_id)
    assert state["status"] == FINISHED
    assert state["seats"][0] == {"vp_tokens": 8, "civ_level": 1, "monument_modifiers": 4, "vp_cards": 2}
    assert state["seats"][1] == {"vp_tokens": 10, "civ_level": 0, "monument_modifiers": 1, "vp_cards": 0}
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Ann wins with 20 VP." in html
    for line in ("VP tokens", "Civilization Level", "Monument", "Monument bonus", "1 VP cards"):
        assert html.count(f"<summary><span>{line}</span></summary>") == 1
    assert "4 modifiers matching your Monument (oak leaves never count): 4 × 1 = 4 VP." in html
    assert "The most Monument VP (4; next best 1): 3 VP." in html
    assert "1 Monument VP; Ann has the most (4) and takes the 3 VP bonus: 0 VP." in html
    assert "2 cards with 1 VP in the top right corner: 2 × 1 = 2 VP." in html
    total_row = re.search(r'<tr class="total">(.*?)</tr>', html, re.DOTALL).group(1)
    assert re.findall(r'<td class="num[^"]*">(\d+)</td>', total_row) == ["20", "11"]
    with Session(app.extensions["db_engine"]) as session:
        seats = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        assert [(s.total, s.rank) for s in seats] == [(20, 1), (11, 2)]


def test_finish_with_a_monument_tie_awards_no_bonus(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    assert client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [3, 3])).status_code == 303
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Tied with Bob for the most Monument VP (3), and a tie awards the bonus to nobody: 0 VP." in html
    assert "Tied with Ann for the most Monument VP (3), and a tie awards the bonus to nobody: 0 VP." in html
    assert "Ann and Bob tied on 3 VP." in html and "share the victory" in html


def test_score_sheet_pdf_after_finish(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    assert client.get(f"/plays/{play_id}/sheet.pdf").status_code == 404
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "vp_tokens", "value": "5"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "vp_cards", "value": "1"})
    client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [2, 0]))
    text = sheet_text(client, play_id, "spqf")
    for expected in (
        "SPQF",
        "score sheet",
        "Players in turn order: Ann, Bob",
        "1 VP cards",
        "The most Monument VP (2; next best 0): 3 VP.",
    ):
        assert expected in text, expected
    # Narrow columns wrap the longer line labels.
    assert len(re.findall(r"Monument\s+bonus", text)) == 2
    assert re.search(r"Ann\s+wins\s+with\s+11\s+VP\.", text)
    # The score pad's grid: a Total row and a Rank row, a column per player.
    assert "Total 11 0" in text.splitlines() and "Rank 1st 2nd" in text.splitlines()


BAD_FINISHES = [
    ("not a number", ["four", 1], 0, "Enter a whole number."),
    ("a blank box", [4, ""], 1, "Enter a whole number."),
    ("negative modifiers", [4, -1], 1, "Must be at least 0."),
    ("more modifiers than the cards carry", [107, 1], 0, "Must be at most 106."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "monument", "seat", "message"), BAD_FINISHES, ids=[b[0] for b in BAD_FINISHES])
def test_refused_finish_saves_nothing(
    client, app, play_id: int, htmx: bool, case: str, monument: list, seat: int, message: str
) -> None:
    seats = seat_ids(client, play_id)
    tap(client, play_id, seats[0], field="vp_tokens", value=6)
    tap(client, play_id, seats[1], field="vp_cards", value=3)
    form = end_form(seats, monument)
    before = refused_finish(client, app, play_id, htmx, form, f"end-{seats[seat]}-monument_modifiers", message)
    assert before["status"] == IN_PROGRESS


def test_finish_without_end_boxes_keeps_the_tapped_counts(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="vp_cards", value=3)
    tap(client, play_id, ann, field="monument_modifiers", value=2)
    assert client.post(f"/plays/{play_id}/finish").status_code == 303
    assert saved(app, play_id)["seats"][0] == {"vp_tokens": 0, "civ_level": 0, "monument_modifiers": 2, "vp_cards": 3}


def test_finish_after_htmx_taps_keeps_the_tapped_1_vp_cards(client, app, play_id: int) -> None:
    """The finish form as the browser holds it: loaded once, then only changed by out-of-band swaps."""
    ann, _bob = seat_ids(client, play_id)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)

    def finish_boxes(html: str) -> dict[str, str]:
        """Every finish form field (end-...) with its value, as drawn in a page or fragment."""
        return dict(re.findall(r'name="(end-[^"]+)"\s+value="([^"]*)"', html))

    boxes = finish_boxes(page)
    for _ in range(3):
        fragment = tap(client, play_id, ann, True, field="vp_cards", delta=1).get_data(as_text=True)
        boxes |= finish_boxes(fragment)
    boxes[f"end-{ann}-monument_modifiers"] = "2"
    response = client.htmx("POST", f"/plays/{play_id}/finish", data=boxes)
    assert response.status_code == 204
    assert saved(app, play_id)["seats"][0]["vp_cards"] == 3
    assert saved(app, play_id)["seats"][0]["monument_modifiers"] == 2


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finished_play_refuses_taps_and_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="civ_level", delta=1)
    client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [2, 1]))
    before = saved(app, play_id)
    assert before["status"] == FINISHED
    late = [
        tap(client, play_id, ann, htmx, field="vp_tokens", delta=1),
        tap(client, play_id, bob, htmx, field="civ_level", delta=1),
        spqf_act(client, play_id, htmx, action="next_turn"),
        spqf_act(client, play_id, htmx, action="last_card", placed="true"),
        spqf_act(client, play_id, htmx, action="first_token", seat=bob, level=1),
        spqf_act(client, play_id, htmx, action="dance"),
        post(client, htmx, f"/plays/{play_id}/undo"),
        post(client, htmx, f"/plays/{play_id}/finish", end_form([ann, bob], [0, 9])),
    ]
    for response in late:
        sent_to_play(response, play_id, htmx)
    assert saved(app, play_id) == before
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Monument bonus" in html and "Next turn" not in html
