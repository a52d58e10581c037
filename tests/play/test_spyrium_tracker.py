"""The Spyrium tracker routes through the test client: every page, every htmx fragment, every bad input, the API.

House style as in test_spqf_tracker.py: each htmx route as a full page and as a fragment; bad input answers 422,
says why and keeps what was saved (checked in the database, not only in the answer).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.store.models import FINISHED, IN_PROGRESS, Seat
from tests.helpers import (
    answered,
    api_act,
    bad_rosters,
    created_play,
    csrf_client,
    live,
    new_play_form,
    notice,
    oob_ids,
    oob_value,
    page_ids,
    play_form,
    player,
    post,
    post_json,
    refused_new_play,
    refused_tap,
    saved,
    seat_ids,
    sent_to_play,
    sheet_text,
    start_by_form,
    tap,
    tracker_page,
)
from tests.rules.tools import SPYRIUM_START_SEAT

DEFAULT_RESIDENCE = [2, 3, 4, 5, 6, 7]
COLOURS = ["red", "blue", "green", "yellow", "purple"]
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
START_SEAT = SPYRIUM_START_SEAT
COUNTERS = ("vp_track", "money", "workers", "spyrium", "residence")
LABELS = {"vp_track": "Score track VP", "money": "Money £", "workers": "Workers", "spyrium": "Spyrium"}


# Helpers ------------------------------------------------------------------------------------------------------


def spyrium_form(names: list[str], colours: list[str] | None = None, residence: list[object] | None = None) -> dict:
    """The new-play form as the browser sends it for Spyrium: names, colours and the six Residence boxes."""
    colours = COLOURS[: len(names)] if colours is None else colours
    residence = DEFAULT_RESIDENCE if residence is None else residence
    return play_form("spyrium", names, colours, residence_values=residence)


def start_spyrium(client, names: list[str] | None = None, **kwargs) -> int:
    """Start a Spyrium play through the new-play form; returns its id."""
    return start_by_form(client, spyrium_form(names or NAMES[:2], **kwargs))


@pytest.fixture
def play_id(client) -> int:
    """A two-player Spyrium play before turn 1: Ann (red) first, then Bob (blue), default Residence track."""
    return start_spyrium(client)


def act(client, play_id: int, htmx: bool = False, **data):
    """One of Spyrium's own actions, as its form sends it: action, slot, seat and the action's boxes.

    The slot is the one the page's form names ('start_turn', 'build-<seat id>'...) unless the test gives one.
    """
    if "slot" not in data and "action" in data:
        data["slot"] = slot_of(data)
    # A list is several values under one name, as the page's chips and their typed box send them.
    return post(
        client, htmx, f"/plays/{play_id}/actions", {k: v if isinstance(v, list) else str(v) for k, v in data.items()}
    )


def slot_of(data: dict) -> str:
    """The message slot the page's form for an action names: 'start_turn', or e.g. 'build-<seat id>'."""
    return str(data["action"]) if "seat" not in data else f"{data['action']}-{data['seat']}"


def seat_state(**changes: Any) -> dict:
    """A seat's saved state: the start state with some fields changed."""
    return {**START_SEAT, **changes}


def page_value(html: str, seat_id: int, field: str) -> str | None:
    """A counter's value as the page draws it."""
    found = re.search(rf'<output id="c-{seat_id}-{field}-value" class="value[^"]*"[^>]*>(\d+)</output>', html)
    return found.group(1) if found else None


def residence_shown(html: str, seat_id: int) -> str | None:
    """The value the seat's Residence counter shows (the one printed on the token's space), page or fragment."""
    found = re.search(rf'<output id="residence-{seat_id}" class="value"[^>]*>(\d+)</output>', html)
    return found.group(1) if found else None


def facts(html: str, seat_id: int) -> str | None:
    """The seat's facts line (Residence income, next space price, buildings, techniques), page or fragment."""
    found = re.search(rf'<p id="facts-{seat_id}" class="seat-facts muted small"[^>]*>(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


def where_choices(html: str, seat_id: int) -> list[tuple[str, str, bool]]:
    """The build form's choices of where a building goes: (value, label, checked), page or fragment."""
    block = re.search(rf'<fieldset id="where-{seat_id}" class="chips where"[^>]*>(.*?)</fieldset>', html, re.DOTALL)
    assert block, "no building choices"
    return [
        (value, label.strip(), bool(checked))
        for value, checked, label in re.findall(
            r'<label class="chip(?: wide)?"><input type="radio" name="replace" value="(\d*)"( checked)?>([^<]*)</label>',
            block.group(1),
        )
    ]


def end_block(html: str, seat_id: int) -> str:
    """The seat's At the end section (its div, nested divs and all), page or fragment."""
    start = html.find(f'<div id="end-{seat_id}" class="techniques-end"')
    assert start >= 0, "no At the end section"
    depth, at = 0, start
    for tag in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.end()
            break
    return html[start:at]


def end_forms(html: str, seat_id: int) -> list[tuple[str, str]]:
    """The seat's At the end forms: (technique number, the end VP whose chip is pressed), page or fragment."""
    forms = end_block(html, seat_id).split("</form>")
    found = []
    for form in forms:
        number = re.search(r'name="number" value="(\d+)"', form)
        if number:
            pressed = re.findall(r'name="vp" value="(\d)" aria-pressed="true"', form)
            assert len(pressed) == 1, form
            found.append((number.group(1), pressed[0]))
    return found


def said_beside(html: str, part: str, seat_id: int) -> str | None:
    """What the seat's forms say beside them ('buy' or 'end'), page or fragment."""
    found = re.search(rf'<p id="said-{part}-{seat_id}" class="notice said"[^>]*>(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


def bonus_text(html: str, seat_id: int) -> str | None:
    """The seat's 8 / 20 VP bonus line, page or fragment."""
    found = re.search(rf'<p id="bonus-{seat_id}" class="bonus-state[^"]*"[^>]*>(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


def reach(client, play_id: int, seat_id: int, vp: int, choice: str | None = None) -> None:
    """Set a seat's score track VP (saved), then take the 8 VP bonus when a choice is given."""
    assert tap(client, play_id, seat_id, field="vp_track", value=vp).status_code == 303
    if choice is not None:
        assert act(client, play_id, action="bonus", seat=seat_id, choice=choice).status_code == 303


# The new-play form --------------------------------------------------------------------------------------------


def test_new_play_form(client) -> None:
    # Each row offers the game's five colours, a different one picked in each row.
    html = new_play_form(client, "spyrium", "Spyrium", COLOURS)
    # Five rows, the most Spyrium seats: a sixth player can't be typed in.
    assert html.count('name="name-') == 5
    assert 'name="name-5"' not in html
    # The Residence track option: six boxes, bottom to top, filled with the default values, and the reminder.
    assert "Residence track income (£, bottom to top)" in html
    assert re.findall(r'name="residence_values-(\d)" value="(\d+)"', html) == [
        (str(i), str(value)) for i, value in enumerate(DEFAULT_RESIDENCE)
    ]
    assert "Check your board and reference card; a reminder only, it does not change the score." in html
    assert "Solo game" not in html and "level_vp" not in html


def test_new_play_form_offers_the_roster(client, play_id: int) -> None:
    html = client.get("/plays/new?game=spyrium").get_data(as_text=True)
    assert '<option value="Ann">' in html and '<option value="Bob">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_create_play_redirects_to_tracker(client, app, htmx: bool) -> None:
    form = spyrium_form(["  Ann ", "Bob", "Cy"], colours=["purple", "red", "yellow"], residence=[1, 3, 5, 7, 9, 11])
    play_id, html, play, seats = created_play(client, app, htmx, form)
    assert [(s.name, s.colour) for s in seats] == [("Ann", "purple"), ("Bob", "red"), ("Cy", "yellow")]
    assert (
        "Residence track income, bottom to top: £1, £3, £5, £7, £9, £11 (check your board and reference card)."
    ) in html
    # The start space pays the track's first value.
    ann = seat_ids(client, play_id)[0]
    assert facts(html, ann) == "Income £1 a turn · next building space £0"
    assert (play.game, play.status) == ("spyrium", IN_PROGRESS)
    assert play.options == {"residence_values": [1, 3, 5, 7, 9, 11]}
    assert play.extra["table"] == {"turn": 0}
    assert all(s.state == START_SEAT for s in seats)


def test_five_players_start(client, app) -> None:
    """Five is the most; the form has five rows, so a sixth player can't be asked for (the API refuses six)."""
    play = start_spyrium(client, NAMES)
    state = saved(app, play)
    assert len(state["seats"]) == 5 and all(seat == START_SEAT for seat in state["seats"])
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "Setup for 5 players" in html
    assert "Each of the 5 players takes 3 workers, 2 Spyrium crystals and £8." in html
    assert re.findall(r'<section class="card seat colour-(\w+)"', html) == COLOURS


BAD_NEW_PLAYS = [
    *bad_rosters("Spyrium", 5, "purple", ["red", "black"]),
    (
        "a Residence value out of range",
        {"names": ["Ann", "Bob"], "residence": [2, 3, 4, 5, 6, 21]},
        "Entry 6 is 21: each number must be between 0 and 20.",
    ),
    (
        "a negative Residence value",
        {"names": ["Ann", "Bob"], "residence": [-1, 3, 4, 5, 6, 7]},
        "Entry 1 is -1: each number must be between 0 and 20.",
    ),
    (
        "a Residence value left blank",
        {"names": ["Ann", "Bob"], "residence": [2, 3, "", 5, 6, 7]},
        "Enter a whole number.",
    ),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_NEW_PLAYS, ids=[b[0] for b in BAD_NEW_PLAYS])
def test_create_play_bad_input(client, app, htmx: bool, case: str, form: dict, message: str) -> None:
    refused_new_play(client, app, htmx, spyrium_form(**form), message, form["names"])


def test_refused_new_play_keeps_the_typed_residence_track(client) -> None:
    response = client.post("/plays", data=spyrium_form(["Ann"], residence=[1, 2, 4, 8, 16, ""]))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.findall(r'name="residence_values-\d" value="([^"]*)"', html) == ["1", "2", "4", "8", "16", ""]


# The tracker page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_tracker_page(client, count: int) -> None:
    play = start_spyrium(client, NAMES[:count])
    # The setup card for this player count, and the reference notes with the track in use.
    html, seats = tracker_page(client, play, count)
    assert f"Each of the {count} players takes 3 workers, 2 Spyrium crystals and £8." in html
    assert "The game ends after turn 6; the most points wins, and tied players share the victory." in html
    assert (
        "Residence track income, bottom to top: £2, £3, £4, £5, £6, £7 (check your board and reference card)." in html
    )
    assert "Reaching 8 VP: choose +1 worker or £5; reaching 20 VP: take the other (at most 7 workers)." in html
    # The table: before turn 1, and the button that starts the next turn, its message slot beside it.
    assert '<h2 id="turn-title">Before turn 1</h2>' in html
    assert "<li>Before turn 1: start it to pay the first income.</li>" in html
    table = html.split('<section id="table-state"')[1].split("</section>")[0]
    assert '<input type="hidden" name="action" value="start_turn">' in table
    assert '<button class="button primary" type="submit">Start the next turn</button>' in table
    assert '<p id="a-start_turn" class="error" role="alert"></p>' in table
    for seat, name in zip(seats, NAMES, strict=False):
        section = html.split(f'id="seat-{seat}"')[1].split("</section>")[0]
        starts = {"vp_track": 0, "money": 8, "workers": 3, "spyrium": 2, "residence": 1}
        for field, label in LABELS.items():
            assert f'aria-label="{name}: {label} plus one"' in section
            assert f'aria-label="{name}: {label} minus one"' in section
            assert page_value(section, seat, field) == str(starts[field])
            assert f'<p id="c-{seat}-{field}-error" class="error" role="alert"></p>' in section
        # The Residence counter shows the value printed on the start space (2), not the space's number (1), which
        # stays out of sight for the counters' redraw.
        assert f'aria-label="{name}: Residence up one space"' in section
        assert f'aria-label="{name}: Residence down one space"' in section
        assert residence_shown(section, seat) == "2"
        assert page_value(section, seat, "residence") == "1"
        assert f'<span hidden><output id="c-{seat}-residence-value"' in section
        assert f'<p id="c-{seat}-residence-error" class="error" role="alert"></p>' in section
        # The score track and money have one-tap amounts 2-7 under their counter: VP added, money paid (the pay
        # action) or got (the counter); the others step by one.
        for n in range(2, 8):
            assert (
                f'<button class="chip-button" type="submit" name="delta" value="{n}" aria-label="{name}: Score '
                f'track VP +{n}"'
            ) in section
            assert (
                f'<button class="chip-button" type="submit" name="amount" value="{n}" aria-label="{name}: pay '
                f'£{n}, −{n}">−{n}</button>'
            ) in section
            assert (
                f'<button class="chip-button" type="submit" name="delta" value="{n}" aria-label="{name}: get '
                f'£{n}, +{n}"'
            ) in section
        assert 'value="8"' not in section.split("Build or patent")[0].split("Score track VP")[1]
        assert "plus 5" not in section
        assert facts(section, seat) == "Income £2 a turn · next building space £0"
        # The 8 VP bonus: its state, the two buttons, the slot for its message.
        assert bonus_text(section, seat) == "At 8 VP: +1 worker or £5; at 20 VP the other."
        assert f'aria-label="{name}: 8 VP bonus, +1 worker">+1 worker</button>' in section
        assert f'aria-label="{name}: 8 VP bonus, £5">£5</button>' in section
        assert section.count('<input type="hidden" name="action" value="bonus">') == 2
        assert (
            f'<input type="hidden" name="seat" value="{seat}"><input type="hidden" name="choice" value="worker">'
            in section
        )
        assert (
            f'<input type="hidden" name="seat" value="{seat}"><input type="hidden" name="choice" value="money">'
            in section
        )
        # Build (where it goes: a new building space, the only choice before any building), and patent a technique
        # (no box: always a new one), each with its own slot; open from the start, no tap to open it.
        assert '<details class="buy" open>\n    <summary>Build or patent</summary>' in section
        build = section.split('<input type="hidden" name="action" value="build">')[1].split("</form>")[0]
        assert f'<input type="hidden" name="slot" value="build-{seat}">' in build
        # The VP as chips 0-11 then its box; the cost box and Build (the first submit button, so Enter in the box
        # builds with the typed cost) before the cost buttons £0-£11, each of which builds at once.
        names = re.findall(r'name="(vp|cost|replace|matching)"', build)
        assert names == ["replace"] + ["vp"] * 13 + ["cost"] * 13
        assert re.findall(r'type="radio" name="vp" value="(\d+)"', build) == [str(n) for n in range(12)]
        assert (
            f'<span class="visually-hidden">{name}: building </span>4<span class="visually-hidden"> VP</span>' in build
        )
        submits = re.findall(r'<button class="[^"]*" type="submit"(?: name="cost" value="(\d+)")?', build)
        assert submits == [""] + [str(n) for n in range(12)]
        assert f'aria-label="{name}: build, card £8">£8</button>' in build
        assert where_choices(build, seat) == [("", "A new building space", True)]
        # The cost box starts empty (£0): nothing to delete before typing a price.
        assert 'name="cost" placeholder="0"' in build and ">Build</button>" in build
        # No building yet: nothing to replace, so no "icons match" chip.
        assert "icons match" not in build
        technique = section.split('<input type="hidden" name="action" value="technique">')[1].split("</form>")[0]
        assert f'<input type="hidden" name="slot" value="technique-{seat}">' in technique
        assert not re.findall(r'name="(vp|number)"', technique)
        # One button per price: £6, and £1 for each worker beside the card.
        assert re.findall(r'name="beside" value="(\d)"', technique) == ["0", "1", "2", "3"]
        assert f'aria-label="{name}: patent a technique, −£6">−£6</button>' in technique
        assert f'aria-label="{name}: patent a technique, −£7, 1 beside it">−£7 <small>(1 beside)</small>' in technique
        # Money: besides the −2..−7 buttons, an amount typed once and paid with one tap (or Enter).
        pay = section.split('<input type="hidden" name="action" value="pay">')[2].split("</form>")[0]
        assert f'<input type="hidden" name="slot" value="pay-{seat}">' in pay
        assert re.findall(r'name="(amount|seat)"', pay) == ["seat", "amount"]
        assert f'<label for="pay-{seat}"><span class="visually-hidden">{name}: </span>Pay £</label>' in pay
        # The other Residence action: scores the value of the token's space, shown on the button.
        scoring = section.split('<input type="hidden" name="action" value="residence_vp">')[1].split("</form>")[0]
        assert (
            f'<span class="visually-hidden">{name}: Residence action, </span>Score <span id="res-vp-{seat}">2</span> VP'
        ) in scoring
        # At the end: each technique's end VP, none yet.
        assert "<summary>At the end: techniques' VP</summary>" in section
        assert end_forms(section, seat) == []
        assert "No technique patented yet." in section
        for slot in ("bonus", "build", "technique", "technique_vp", "pay", "residence_vp"):
            assert f'<p id="a-{slot}-{seat}" class="error" role="alert"></p>' in section
    # Nothing to enter at the end: the finish form has no boxes, only its button.
    finish = html.split('<form id="finish"')[1].split("</form>")[0]
    assert 'name="end-' not in finish and "Finish and score" in finish
    assert "Undo last tap" in html and "disabled" in html.split('id="undo"')[1].split("</form>")[0]


def test_unknown_play_is_404(client) -> None:
    assert client.get("/plays/999").status_code == 404
    assert client.post("/plays/999/actions", data={"action": "start_turn"}).status_code == 404


# Start the next turn ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_start_turn_pays_the_income(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    response = act(client, play_id, htmx, action="start_turn")
    state = saved(app, play_id)
    assert state["table"] == {"turn": 1}
    assert state["seats"] == [seat_state(money=10), seat_state(money=10)]
    assert state["changes"] == 1
    if not htmx:
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert '<h2 id="turn-title">Turn 1 of 6 · period A</h2>' in html
        assert page_value(html, ann, "money") == "10"
        return
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html
    # The action's own slot gets its message (none: it was saved); the rest comes out of band.
    assert html.lstrip().startswith("<output")
    assert notice(html) == "Turn 1 (period A): income paid: Ann £2, Bob £2."
    assert '<h2 id="turn-title" hx-swap-oob="true">Turn 1 of 6 · period A</h2>' in html
    assert oob_value(html, ann, "money") == "10" and oob_value(html, bob, "money") == "10"
    assert "<li>Turn 1 of 6 (period A).</li>" in html
    assert '<p id="a-start_turn"' not in html, "the answering slot is the swap target, not redrawn"
    assert f'<p id="a-build-{bob}" class="error" role="alert" hx-swap-oob="true"></p>' in html
    assert 'id="undo"' in html and "disabled" not in html.split('id="undo"')[1].split("</form>")[0]


def test_six_turns_through_the_periods_each_paying_the_residence_income(client, app) -> None:
    play = start_spyrium(client, ["Ann", "Bob"], residence=[1, 3, 5, 7, 9, 11])
    ann, bob = seat_ids(client, play)
    tap(client, play, bob, field="residence", delta=2)  # space 3: £5
    said = [notice(act(client, play, True, action="start_turn").get_data(as_text=True)) for _ in range(6)]
    assert said == [
        f"Turn {turn} (period {period}): income paid: Ann £1, Bob £5."
        for turn, period in zip(range(1, 7), "AAABBC", strict=True)
    ]
    state = saved(app, play)
    assert state["table"]["turn"] == 6
    assert [s["money"] for s in state["seats"]] == [8 + 6 * 1, 8 + 6 * 5]
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert '<h2 id="turn-title">Turn 6 of 6 · period C</h2>' in html
    assert (
        '<li class="warn"><strong>Warning:</strong> Turn 6 is the last: when it is over, enter each '
        "technique&#39;s end VP (At the end) and finish.</li>"
    ) in html
    assert residence_shown(html, bob) == "5" and residence_shown(html, ann) == "1"
    assert facts(html, bob) == "Income £5 a turn · next building space £0"
    assert facts(html, ann) == "Income £1 a turn · next building space £0"


# Taps on a seat's counters ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_counters_step_and_set(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    answers = [
        tap(client, play_id, ann, htmx, field="money", delta=5),
        tap(client, play_id, ann, htmx, field="spyrium", value=" 6 "),
        tap(client, play_id, ann, htmx, field="workers", delta=1),
        tap(client, play_id, bob, htmx, field="residence", delta=1),
        tap(client, play_id, bob, htmx, field="vp_track", delta=5),
    ]
    for response in answers:
        assert response.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    assert state["seats"] == [seat_state(money=13, spyrium=6, workers=4), seat_state(residence=2, vp_track=5)]
    assert state["changes"] == 5
    if htmx:
        first = answers[0].get_data(as_text=True)
        assert first.lstrip().startswith(f'<p id="c-{ann}-money-error" class="error" role="alert"></p>')
        assert oob_value(first, ann, "money") == "13"
        # A tap that triggers no rule says nothing, and clears what the notice said before.
        assert notice(first) == ""
        residence = answers[3].get_data(as_text=True)
        assert oob_value(residence, bob, "residence") == "2"
        # The counter shows the value printed on the token's new space (3), redrawn out of band.
        assert (
            f'<output id="residence-{bob}" class="value" aria-labelledby="c-{bob}-residence-label" '
            'hx-swap-oob="true">3</output>'
        ) in residence
        assert facts(residence, bob) == "Income £3 a turn · next building space £0"
        track = answers[4].get_data(as_text=True)
        assert re.search(r'Bob</span> <span class="points">5</span>\s*<span class="parts">Score track 5</span>', track)
        assert "<li>Bob leads with 5 VP.</li>" in track
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert page_value(html, ann, "spyrium") == "6" and page_value(html, bob, "residence") == "2"


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_reaching_8_vp_asks_the_choice(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    response = tap(client, play_id, ann, htmx, field="vp_track", delta=8)
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=8)
    warning = '<li class="warn"><strong>Warning:</strong> Ann reached 8 VP: choose +1 worker or £5.</li>'
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Ann reached 8 VP: choose +1 worker or £5."
        assert (
            f'<p id="bonus-{ann}" class="bonus-state warn" hx-swap-oob="true">8 VP reached: choose +1 worker or £5.</p>'
        ) in html
        assert bonus_text(html, bob) == "At 8 VP: +1 worker or £5; at 20 VP the other."
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert f'<p id="bonus-{ann}" class="bonus-state warn">8 VP reached: choose +1 worker or £5.</p>' in html
    assert warning in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    ("choice", "after", "said", "shown"),
    [
        ("worker", {"workers": 4}, "Ann takes an extra worker (4).", "8 VP bonus: the worker; at 20 VP the other."),
        ("money", {"money": 13}, "Ann takes £5.", "8 VP bonus: £5; at 20 VP the other."),
    ],
    ids=["worker", "money"],
)
def test_8_vp_bonus(client, app, play_id: int, htmx: bool, choice: str, after: dict, said: str, shown: str) -> None:
    ann, _bob = seat_ids(client, play_id)
    reach(client, play_id, ann, 9)
    response = act(client, play_id, htmx, action="bonus", seat=ann, choice=choice)
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=9, bonus_8=choice, **after)
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert html.lstrip().startswith("<output")
        assert notice(html) == said
        assert bonus_text(html, ann) == shown
        field, value = next(iter(after.items()))
        assert oob_value(html, ann, field) == str(value)
        assert "Warning:" not in html, "the choice is no longer waiting"
        assert f'<p id="a-bonus-{ann}"' not in html
    else:
        assert response.status_code == 303
        assert bonus_text(client.get(f"/plays/{play_id}").get_data(as_text=True), ann) == shown


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    ("choice", "other", "said"),
    [
        ("worker", {"workers": 4, "money": 13}, "Ann reached 20 VP: the other bonus. Ann takes £5."),
        ("money", {"workers": 4, "money": 13}, "Ann reached 20 VP: the other bonus. Ann takes an extra worker (4)."),
    ],
    ids=["worker then money", "money then worker"],
)
def test_past_20_vp_the_other_bonus_comes_by_itself(
    client, app, play_id: int, htmx: bool, choice: str, other: dict, said: str
) -> None:
    ann, _bob = seat_ids(client, play_id)
    reach(client, play_id, ann, 8, choice)
    response = tap(client, play_id, ann, htmx, field="vp_track", delta=13)
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=21, bonus_8=choice, bonus_20=True, **other)
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == said
        assert bonus_text(html, ann) == "Both VP bonuses taken."
        assert oob_value(html, ann, "workers") == "4" and oob_value(html, ann, "money") == "13"
    # Only once: further VP bring nothing more.
    changes = saved(app, play_id)["changes"]
    again = tap(client, play_id, ann, True, field="vp_track", delta=5).get_data(as_text=True)
    assert notice(again) == ""
    state = saved(app, play_id)
    assert state["seats"][0] == seat_state(vp_track=26, bonus_8=choice, bonus_20=True, **other)
    assert state["changes"] == changes + 1


def test_one_jump_past_both_bonuses_waits_for_the_choice_then_gives_both(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    html = tap(client, play_id, ann, True, field="vp_track", value=25).get_data(as_text=True)
    assert notice(html) == "Ann reached 8 VP: choose +1 worker or £5."
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=25)
    html = act(client, play_id, True, action="bonus", seat=ann, choice="money").get_data(as_text=True)
    assert notice(html) == "Ann takes £5. Ann reached 20 VP: the other bonus. Ann takes an extra worker (4)."
    assert saved(app, play_id)["seats"][0] == seat_state(
        vp_track=25, money=13, workers=4, bonus_8="money", bonus_20=True
    )


def test_a_worker_chosen_at_7_workers_is_lost(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="workers", value=7)
    html = tap(client, play_id, ann, True, field="vp_track", value=8).get_data(as_text=True)
    assert notice(html) == (
        "Ann reached 8 VP: choose +1 worker or £5. Ann has 7 workers already: a worker chosen would be lost."
    )
    html = act(client, play_id, True, action="bonus", seat=ann, choice="worker").get_data(as_text=True)
    assert notice(html) == "Ann has 7 workers already (maximum number of workers: 7): the worker is lost."
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=8, workers=7, bonus_8="worker")
    # At 20 VP the other bonus still comes.
    html = tap(client, play_id, ann, True, field="vp_track", value=20).get_data(as_text=True)
    assert notice(html) == "Ann reached 20 VP: the other bonus. Ann takes £5."


# Buildings and techniques -------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_build_pays_the_card_and_the_space(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    # The page's form sends "a new building space" as an empty replace and leaves the matching box out.
    first = act(client, play_id, htmx, action="build", seat=bob, vp=4, cost=2, replace="")
    second = act(client, play_id, htmx, action="build", seat=bob, vp=3, cost=1, replace="")
    third = act(client, play_id, htmx, action="build", seat=bob, vp=6, cost=1, replace=1)
    for response in (first, second, third):
        assert response.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    # £8 − (2 + space 0) − (1 + space 1) − (1, no space: it replaces building 1) = £3.
    assert state["seats"][1] == seat_state(building_vp=[6, 3], money=3, replaced=1)
    assert state["changes"] == 3
    if htmx:
        html = first.get_data(as_text=True)
        assert notice(html) == "Bob pays £2: £2 for the card; the first building space is free."
        # Said beside the forms too, where the player looks; the other seat's line is cleared.
        assert said_beside(html, "buy", bob) == "Bob pays £2: £2 for the card; the first building space is free."
        assert said_beside(html, "buy", _ann) == ""
        assert facts(html, bob) == "Income £2 a turn · next building space £1 · buildings 4 VP"
        assert oob_value(html, bob, "money") == "6"
        # The choices of where the next one goes come back with the new building, "a new building space" chosen.
        assert where_choices(html, bob) == [
            ("", "A new building space", True),
            ("1", "Replace building 1 (4 VP)", False),
        ]
        html = second.get_data(as_text=True)
        assert notice(html) == "Bob pays £2: £1 for the card and £1 for the building space (1 building built before)."
        assert facts(html, bob) == "Income £2 a turn · next building space £2 · buildings 4 + 3 VP"
        html = third.get_data(as_text=True)
        assert notice(html) == (
            "Building 1 (4 VP) is discarded for a 6 VP building; Bob pays £1: £1 for the card, "
            "no building space to pay (it replaces one)."
        )
        assert re.search(r'Bob</span> <span class="points">9</span>\s*<span class="parts">Buildings 9</span>', html)
        assert f'<p id="a-build-{bob}"' not in html
        assert where_choices(html, bob) == [
            ("", "A new building space", True),
            ("1", "Replace building 1 (6 VP)", False),
            ("2", "Replace building 2 (3 VP)", False),
        ]
        assert facts(html, bob) == (
            "Income £2 a turn · next building space £2 · buildings 6 + 3 VP · 1 building replaced"
        )
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert facts(html, bob) == (
            "Income £2 a turn · next building space £2 · buildings 6 + 3 VP · 1 building replaced"
        )
        assert where_choices(html, bob) == [
            ("", "A new building space", True),
            ("1", "Replace building 1 (6 VP)", False),
            ("2", "Replace building 2 (3 VP)", False),
        ]


def matching_choices(html: str, seat_id: int) -> list[tuple[str, str]]:
    """The build form's replacement chips that take the −£3 for a matching icon: (value, label)."""
    block = re.search(rf'<fieldset id="where-{seat_id}" class="chips where"[^>]*>(.*?)</fieldset>', html, re.DOTALL)
    assert block, "no building choices"
    return [
        (value, label.strip())
        for value, label in re.findall(
            r'<label class="chip"><input type="radio" name="replace" value="(\d+ matching)">([^<]*)</label>',
            block.group(1),
        )
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_build_from_the_chips_and_cost_buttons(client, app, play_id: int, htmx: bool) -> None:
    """Two taps a building: a VP chip and a cost button, which sends the cost box (empty) and its own value; a
    replacement chip carries the matching icon's −£3."""
    ann, _bob = seat_ids(client, play_id)
    # The VP chip (then the empty "Other VP" box) and the £5 button after the empty cost box.
    first = act(client, play_id, htmx, action="build", seat=ann, replace="", vp=["2", ""], cost=["", "5"])
    assert first.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(building_vp=[2], money=3)
    html = first.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert where_choices(html, ann) == [("", "A new building space", True), ("1", "Replace building 1 (2 VP)", False)]
    assert matching_choices(html, ann) == [("1 matching", "Replace 1, icons match: −£3")]
    if htmx:
        assert notice(html) == "Ann pays £5: £5 for the card; the first building space is free."
    # A typed VP off the chips (14) and the matching replacement chip: £5 − £3 = £2, no space to pay.
    second = act(client, play_id, htmx, action="build", seat=ann, replace="1 matching", vp=["", "14"], cost=["", "5"])
    assert second.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    assert state["seats"][0] == seat_state(building_vp=[14], money=1, replaced=1)
    assert state["changes"] == 2
    if htmx:
        assert notice(second.get_data(as_text=True)) == (
            "Building 1 (2 VP) is discarded for a 14 VP building; Ann pays £2: £5 − £3 for the matching icon = £2 "
            "for the card, no building space to pay (it replaces one)."
        )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_one_tap_amounts(client, app, play_id: int, htmx: bool) -> None:
    """The rows under the score track and money: +6 VP (a character), get £4 (workers beside a card) and pay £7, each
    one tap, one saved change; paying more than the player has is refused in words."""
    ann, _bob = seat_ids(client, play_id)
    for response in (
        tap(client, play_id, ann, htmx, field="vp_track", delta=6),
        tap(client, play_id, ann, htmx, field="money", delta=4),
        act(client, play_id, htmx, action="pay", seat=ann, amount=7),
    ):
        assert response.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    assert state["seats"][0] == seat_state(vp_track=6, money=5)
    assert state["changes"] == 3
    refused = act(client, play_id, htmx, action="pay", seat=ann, amount=6)
    assert refused.status_code == 422
    assert "Ann has £5: Ann can&#39;t pay £6. Nothing was paid." in refused.get_data(as_text=True)
    assert saved(app, play_id)["changes"] == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_new_building_after_a_replacement_takes_a_new_space(client, app, play_id: int, htmx: bool) -> None:
    """Issue 15: build 5 VP for £3, build, replace building 1, then a new building typed as usual (VP 2, cost 1):
    the form sends no replace, so it takes a new space; nothing replaces building 1 again."""
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="money", value=20)
    steps = [
        {"vp": 5, "cost": 3, "replace": ""},
        {"vp": 2, "cost": 1, "replace": ""},
        {"vp": 4, "cost": 2, "replace": 1},
        {"vp": 2, "cost": 1, "replace": ""},
    ]
    for step in steps:
        assert act(client, play_id, htmx, action="build", seat=ann, **step).status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    # £20 − (3 + 0) − (1 + 1) − 2 − (1 + 2) = £10.
    assert state["seats"][0] == seat_state(building_vp=[4, 2, 2], money=10, replaced=1)
    assert state["changes"] == 1 + 4


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_matching_icon_takes_3_off(client, app, play_id: int, htmx: bool) -> None:
    """'if the building being discarded has an icon at the top that matches an icon on the newly-acquired building,
    the cost of the newly-acquired building is discounted by £3': the box is ticked, the app does the subtraction."""
    ann, _bob = seat_ids(client, play_id)
    act(client, play_id, action="build", seat=ann, vp=2, cost=1, replace="")
    response = act(client, play_id, htmx, action="build", seat=ann, vp=4, cost=5, replace=1, matching="true")
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(building_vp=[4], money=8 - 1 - 2, replaced=1)
    said = (
        "Building 1 (2 VP) is discarded for a 4 VP building; Ann pays £2: £5 − £3 for the matching icon = £2 for "
        "the card, no building space to pay (it replaces one)."
    )
    if htmx:
        assert notice(response.get_data(as_text=True)) == said
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(undone) == (
        f"Took back: Ann replaces building 1 with a 4 VP building, card £5 − £3 for the "
        f"matching icon ({said.rstrip('.')})."
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_free_equal_replacement_is_one_undo_step(client, app, play_id: int, htmx: bool) -> None:
    """Decision (docs/rules.md, "Spyrium"): 'a replacement is an action like any other, also when it costs £0': said,
    one Change, and Undo takes back that replacement, not the building before it."""
    ann, _bob = seat_ids(client, play_id)
    act(client, play_id, action="build", seat=ann, vp=2, cost=1, replace="")
    response = act(client, play_id, htmx, action="build", seat=ann, vp=2, cost=0, replace=1)
    assert response.status_code == (200 if htmx else 303)
    state = saved(app, play_id)
    assert state["seats"][0] == seat_state(building_vp=[2], money=7, replaced=1)
    assert state["changes"] == 2
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "Building 1 (2 VP) is discarded for a 2 VP building; Ann pays £0: £0 for the card, no building space to "
            "pay (it replaces one)."
        )
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(undone).startswith("Took back: Ann replaces building 1 with a 2 VP building, card £0 (")
    assert saved(app, play_id)["seats"][0] == seat_state(building_vp=[2], money=7)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_technique_costs_6_and_its_end_vp_is_entered_at_the_end(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    tap(client, play_id, bob, field="money", value=14)
    first = act(client, play_id, htmx, action="technique", seat=bob)
    assert first.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][1] == seat_state(technique_vp=[0], money=8)
    # Its end VP, in the At the end section: costs nothing.
    second = act(client, play_id, htmx, action="technique_vp", seat=bob, number=1, vp=5)
    assert second.status_code == (200 if htmx else 303)
    # A second technique is a new one: technique 1 keeps its 5 VP.
    third = act(client, play_id, htmx, action="technique", seat=bob)
    assert third.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][1] == seat_state(technique_vp=[5, 0], money=2)
    if htmx:
        html = first.get_data(as_text=True)
        said = "Bob pays £6 for technique 1; its end VP (up to 7) is entered at the end."
        assert notice(html) == said and said_beside(html, "buy", bob) == said
        assert oob_value(html, bob, "money") == "8"
        assert facts(html, bob) == "Income £2 a turn · next building space £0 · techniques 0 VP"
        assert end_forms(html, bob) == [("1", "0")]
        html = second.get_data(as_text=True)
        assert notice(html) == "Bob&#39;s technique 1 scores 5 VP at the end."
        assert said_beside(html, "end", bob) == "Bob&#39;s technique 1 scores 5 VP at the end."
        assert said_beside(html, "buy", bob) == ""
        assert f'<p id="a-technique_vp-{bob}"' not in html
        assert re.search(r'Bob</span> <span class="points">5</span>\s*<span class="parts">Techniques 5</span>', html)
        assert end_forms(third.get_data(as_text=True), bob) == [("1", "5"), ("2", "0")]
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert facts(html, bob) == "Income £2 a turn · next building space £0 · techniques 5 + 0 VP"
        assert end_forms(html, bob) == [("1", "5"), ("2", "0")]
        form = html.split(f'id="end-{bob}"')[1].split("</form>")[0]
        assert f'<input type="hidden" name="slot" value="technique_vp-{bob}">' in form
        # One tap on a value sets it; each chip's name says the whole action and holds the value it shows.
        for value in range(8):
            assert f'name="vp" value="{value}"' in form
            assert f'aria-label="Bob: technique 1 scores {value} VP at the end">{value}</button>' in form


def test_choices_are_not_redrawn_by_another_device_s_change(client, app, play_id: int) -> None:
    """The regular check brings another device's building to the facts line, but leaves the form's choices as this
    device shows them: a redraw would put a building chosen for replacement back to "a new building space"."""
    ann, _bob = seat_ids(client, play_id)
    act(client, play_id, action="build", seat=ann, vp=3, cost=0, replace="")
    html = client.htmx("GET", f"/plays/{play_id}/live").get_data(as_text=True)
    assert facts(html, ann) == "Income £2 a turn · next building space £1 · buildings 3 VP"
    assert f'id="where-{ann}"' not in html and f'id="end-{ann}"' not in html and f'id="said-buy-{ann}"' not in html
    # An undo from this device redraws them.
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert where_choices(undone, ann) == [("", "A new building space", True)]
    assert said_beside(undone, "buy", ann) == ""


def test_a_refused_build_keeps_the_choice_made(client, app, play_id: int) -> None:
    """A refused build leaves the form as it was (the building chosen for replacement too): its answer redraws no
    choices, and says why beside the form."""
    ann, _bob = seat_ids(client, play_id)
    act(client, play_id, action="build", seat=ann, vp=3, cost=0, replace="")
    response = act(client, play_id, True, action="build", seat=ann, vp=4, cost=20, replace=1)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert html.lstrip().startswith(
        "Ann has £8, and this building costs £20: £20 for the card, no building space to pay (it replaces one).\n"
    )
    assert f'id="where-{ann}"' not in html and f'id="end-{ann}"' not in html


# Refusals -----------------------------------------------------------------------------------------------------


BAD_TAPS = [
    ("workers past 7", {"field": "workers", "value": "8"}, "workers", "Maximum number of workers: 7. Ann has 3."),
    (
        "workers past 7 by a delta",
        {"field": "workers", "delta": "5"},
        "workers",
        "Maximum number of workers: 7. Ann has 3.",
    ),
    (
        "Residence space 7",
        {"field": "residence", "value": "7"},
        "residence",
        "The Residence track has 6 spaces, from 2 at the bottom to 7 at the top: Ann&#39;s token stays on 2.",
    ),
    (
        "Residence below space 1",
        {"field": "residence", "delta": "-1"},
        "residence",
        "Ann&#39;s token is on the bottom space of the Residence track (2): it can&#39;t go lower.",
    ),
    ("negative money", {"field": "money", "delta": "-9"}, "money", "Must be at least 0."),
    ("negative workers", {"field": "workers", "delta": "-4"}, "workers", "Must be at least 0."),
    ("score track past the typo guard", {"field": "vp_track", "value": "201"}, "vp_track", "Must be at most 200."),
    ("not a number", {"field": "spyrium", "value": "ten"}, "spyrium", "Enter a whole number."),
    ("the bonus is no counter", {"field": "bonus_8", "value": "1"}, "bonus_8", "There is no such counter."),
    (
        "the buildings are no counter",
        {"field": "building_vp", "value": "3"},
        "building_vp",
        "There is no such counter.",
    ),
    ("no field at all", {"delta": "1"}, "", "There is no such counter."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "slot", "message"), BAD_TAPS, ids=[b[0] for b in BAD_TAPS])
def test_refused_tap_keeps_what_was_saved(
    client, app, play_id: int, htmx: bool, case: str, form: dict, slot: str, message: str
) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="vp_track", value=4)
    tap(client, play_id, bob, field="money", value=11)
    # The refusal lands in the tapped counter's slot; every value is sent again as saved.
    kept = {(ann, "vp_track"): "4", (ann, "workers"): "3", (bob, "money"): "11"}
    html = refused_tap(client, app, play_id, htmx, ann, form, slot, message, kept)
    if not htmx and slot in COUNTERS:
        # On the page the message sits beside its counter.
        assert f'<p id="c-{ann}-{slot}-error" class="error" role="alert">{message}</p>' in html


def test_residence_message_names_the_play_s_own_track(client, app) -> None:
    play = start_spyrium(client, ["Ann", "Bob"], residence=[1, 3, 5, 7, 9, 11])
    ann, _bob = seat_ids(client, play)
    tap(client, play, ann, field="residence", value=6)
    response = tap(client, play, ann, True, field="residence", delta=1)
    assert response.status_code == 422
    assert (
        response.get_data(as_text=True)
        .lstrip()
        .startswith(
            f'<p id="c-{ann}-residence-error" class="error" role="alert">Ann&#39;s token is on the top space of the '
            "Residence track (11): it can&#39;t go higher.</p>"
        )
    )
    assert saved(app, play)["seats"][0]["residence"] == 6


@pytest.fixture
def busy_play(client) -> int:
    """A play at turn 6: Ann on 5 VP; Bob on 9 VP, took £5 at 8 VP, down to £5, with no building or technique."""
    play = start_spyrium(client)
    ann, bob = seat_ids(client, play)
    for _ in range(6):
        assert act(client, play, action="start_turn").status_code == 303
    reach(client, play, ann, 5)
    reach(client, play, bob, 9, "money")
    tap(client, play, bob, field="money", value=5)
    return play


BAD_ACTIONS = [
    (
        "the bonus below 8 VP",
        {"action": "bonus", "seat": "ann", "choice": "worker"},
        "Ann has 5 VP: the bonus comes at 8.",
    ),
    (
        "the bonus a second time",
        {"action": "bonus", "seat": "bob", "choice": "worker"},
        "Bob chose the 8 VP bonus already (money).",
    ),
    ("the bonus without a choice", {"action": "bonus", "seat": "ann"}, "This field is required."),
    (
        "a bonus that is neither",
        {"action": "bonus", "seat": "ann", "choice": "spyrium"},
        "Must be one of &#39;worker&#39; or &#39;money&#39;.",
    ),
    ("the bonus for nobody", {"action": "bonus", "choice": "worker"}, "Say which player this is for."),
    (
        "a building without the money",
        {"action": "build", "seat": "bob", "vp": "4", "cost": "6", "replace": ""},
        "Bob has £5, and this building costs £6: £6 for the card; the first building space is free.",
    ),
    (
        "a matching icon for a new building space",
        {"action": "build", "seat": "bob", "vp": "4", "cost": "5", "replace": "", "matching": "true"},
        (
            "The −£3 for a matching icon is only for a building that replaces another: choose the building it replaces, "
            "or untick the matching icon."
        ),
    ),
    (
        "replacing a building not built",
        {"action": "build", "seat": "bob", "vp": "4", "cost": "1", "replace": "1"},
        "Bob has 0 buildings: no building 1 to replace.",
    ),
    (
        "a building without its VP",
        {"action": "build", "seat": "bob", "vp": "", "cost": "1"},
        "Tap the VP printed on Bob&#39;s building (or type it), then its cost.",
    ),
    ("a building past the typo guard", {"action": "build", "seat": "bob", "vp": "31"}, "Must be at most 30."),
    ("a technique at £5", {"action": "technique", "seat": "bob"}, "Bob has £5: a technique costs £6."),
    ("a technique worth 8", {"action": "technique_vp", "seat": "ann", "number": "1", "vp": "8"}, "Must be at most 7."),
    (
        "a technique's end VP left blank",
        {"action": "technique_vp", "seat": "ann", "number": "1"},
        "This field is required.",
    ),
    (
        "a technique not patented",
        {"action": "technique_vp", "seat": "ann", "vp": "3", "number": "1"},
        "Ann has no technique: no technique 1 to score.",
    ),
    ("a turn after turn 6", {"action": "start_turn"}, "Turn 6 was the last one: finish and score."),
    (
        "the next turn for a player",
        {"action": "start_turn", "seat": "ann"},
        "Start turn is for the whole table: give no player.",
    ),
    (
        "an unknown action",
        {"action": "dance"},
        (
            "Unknown action &#39;dance&#39;; Spyrium knows add, bonus, build, pay, residence_vp, set, start_turn, technique, "
            "technique_vp."
        ),
    ),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_refused_action_keeps_what_was_saved(
    client, app, busy_play: int, htmx: bool, case: str, form: dict, message: str
) -> None:
    ann, bob = seat_ids(client, busy_play)
    before = saved(app, busy_play)
    assert before["table"] == {"turn": 6}
    data = {key: {"ann": ann, "bob": bob}.get(value, value) for key, value in form.items()}
    response = act(client, busy_play, htmx, **data)
    html = answered(response, htmx, 422)
    if htmx:
        # The message comes first: it lands in the slot beside the button that was pressed, which stays as it is.
        assert html.lstrip().startswith(message + "\n")
        assert f'<p id="a-{slot_of(data)}"' not in html
        # Every value is sent again as saved.
        assert oob_value(html, ann, "vp_track") == "5"
        assert oob_value(html, bob, "money") == "5"
        assert notice(html) == ""
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
    assert saved(app, busy_play) == before


def test_action_for_a_seat_of_another_play_is_404(client, app, play_id: int) -> None:
    other = start_spyrium(client, ["Cy", "Di"])
    cy, _di = seat_ids(client, other)
    before = (saved(app, play_id), saved(app, other))
    for htmx in (False, True):
        response = act(client, play_id, htmx, action="technique", seat=cy)
        assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#flash"
    assert "That player is not in this play." in response.get_data(as_text=True)
    assert tap(client, play_id, cy, field="money", delta=1).status_code == 404
    assert (saved(app, play_id), saved(app, other)) == before


# Undo ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_a_bonus(client, app, play_id: int, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    reach(client, play_id, ann, 25, "worker")
    assert saved(app, play_id)["seats"][0] == seat_state(
        vp_track=25, workers=4, money=13, bonus_8="worker", bonus_20=True
    )
    response = post(client, htmx, f"/plays/{play_id}/undo")
    assert response.status_code == (200 if htmx else 303)
    # The choice and the bonus it brought at 20 VP go back together; the score track stays.
    assert saved(app, play_id)["seats"][0] == seat_state(vp_track=25)
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == (
            "Took back: Ann takes the 8 VP bonus: +1 worker (Ann takes an extra worker (4). Ann reached 20 VP: the "
            "other bonus. Ann takes £5)."
        )
        assert oob_value(html, ann, "workers") == "3" and oob_value(html, ann, "money") == "8"
        assert bonus_text(html, ann) == "8 VP reached: choose +1 worker or £5."
        assert "Ann reached 8 VP: choose +1 worker or £5.</li>" in html
    else:
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert bonus_text(html, ann) == "8 VP reached: choose +1 worker or £5."
    # The choice can be made again, the other way.
    act(client, play_id, action="bonus", seat=ann, choice="money")
    assert saved(app, play_id)["seats"][0] == seat_state(
        vp_track=25, workers=4, money=13, bonus_8="money", bonus_20=True
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_a_turn_and_a_building(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    act(client, play_id, action="start_turn")
    act(client, play_id, action="build", seat=bob, vp=4, cost=3)
    response = post(client, htmx, f"/plays/{play_id}/undo")
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "Took back: Bob builds a 4 VP building, card £3 (Bob pays £3: £3 for the card; the first building space "
            "is free)."
        )
    assert saved(app, play_id)["seats"][1] == seat_state(money=10)
    response = post(client, htmx, f"/plays/{play_id}/undo")
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "Took back: the start of a turn, with its income (Turn 1 (period A): income paid: Ann £2, Bob £2)."
        )
        assert '<h2 id="turn-title" hx-swap-oob="true">Before turn 1</h2>' in response.get_data(as_text=True)
    state = saved(app, play_id)
    assert state["table"] == {"turn": 0} and state["seats"] == [START_SEAT, START_SEAT]
    html = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(html) == "Nothing left to take back."
    assert "disabled" in html.split('id="undo"')[1].split("</form>")[0]


# The regular refresh ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_live_values_bring_other_devices_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    other = csrf_client(app)
    other.post(f"/plays/{play_id}/actions", data={"action": "start_turn"})
    other.post(f"/plays/{play_id}/seats/{bob}", data={"field": "vp_track", "value": "8"})
    other.post(f"/plays/{play_id}/actions", data={"action": "build", "seat": str(bob), "vp": "2", "cost": "1"})
    response = live(client, play_id, htmx)
    html = answered(response, htmx, 200)
    assert re.search(rf'<output id="c-{bob}-money-value"[^>]*>9</output>', html)
    assert re.search(rf'<output id="c-{bob}-vp_track-value"[^>]*>8</output>', html)
    assert re.search(r'<h2 id="turn-title"[^>]*>Turn 1 of 6 · period A</h2>', html)
    assert facts(html, bob) == "Income £2 a turn · next building space £1 · buildings 2 VP"
    assert bonus_text(html, bob) == "8 VP reached: choose +1 worker or £5."
    if htmx:
        # The regular refresh leaves the notice as it was.
        assert notice(html) is None
        assert oob_value(html, ann, "money") == "10"


@pytest.mark.parametrize("route", ["tap", "action", "refused action", "undo", "live"])
def test_every_out_of_band_piece_has_its_place_on_the_page(client, play_id: int, route: str) -> None:
    """htmx drops (and logs an error for) an out-of-band piece whose id the page doesn't have."""
    ann, bob = seat_ids(client, play_id)
    act(client, play_id, action="start_turn")
    ids_on_page = page_ids(client, play_id)
    if route == "tap":
        response = tap(client, play_id, ann, True, field="vp_track", value=8)
    elif route == "action":
        response = act(client, play_id, True, action="build", seat=bob, vp=3, cost=1)
    elif route == "refused action":
        response = act(client, play_id, True, action="bonus", seat=bob, choice="money")
    elif route == "undo":
        response = client.htmx("POST", f"/plays/{play_id}/undo")
    else:
        response = client.htmx("GET", f"/plays/{play_id}/live")
    assert {f"facts-{ann}", f"bonus-{bob}", "turn-title", f"a-technique-{bob}"} <= oob_ids(response, ids_on_page)


# Finish, result and score sheet -------------------------------------------------------------------------------


def play_a_short_game(client, play_id: int) -> tuple[int, int]:
    """Two turns: Ann takes the 8 VP worker, builds twice and ends on 12 VP; Bob patents a technique worth 6 and
    ends on 12 VP. Ann 12 + 3 + 5 = 20, Bob 12 + 6 = 18."""
    ann, bob = seat_ids(client, play_id)
    act(client, play_id, action="start_turn")
    reach(client, play_id, ann, 12, "worker")
    act(client, play_id, action="build", seat=ann, vp=3, cost=2)
    act(client, play_id, action="start_turn")
    act(client, play_id, action="build", seat=ann, vp=5, cost=0)
    act(client, play_id, action="technique", seat=bob)
    act(client, play_id, action="technique_vp", seat=bob, number=1, vp=6)
    tap(client, play_id, bob, field="vp_track", value=12)
    return ann, bob


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finish_scores_track_buildings_and_techniques(client, app, play_id: int, htmx: bool) -> None:
    play_a_short_game(client, play_id)
    response = post(client, htmx, f"/plays/{play_id}/finish")
    sent_to_play(response, play_id, htmx)
    state = saved(app, play_id)
    assert state["status"] == FINISHED
    # Ann: £8 + £2 + £2 income − £2 (building 1, space free) − £1 (building 2: card £0, space £1) = £9.
    assert state["seats"][0] == seat_state(vp_track=12, workers=4, money=9, building_vp=[3, 5], bonus_8="worker")
    # Bob: £8 + £2 + £2 − £6.
    assert state["seats"][1] == seat_state(vp_track=12, money=6, technique_vp=[6])
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Ann wins with 20 VP." in html
    for line in ("Score track", "Buildings", "Techniques"):
        assert html.count(f"<summary><span>{line}</span></summary>") == 1
    assert "Money (£9) and Spyrium (2) left over score nothing; the score track shows 12 VP." in html
    assert "2 buildings, the VP printed on each: 3 + 5 = 8 VP." in html
    assert "No technique: 0 VP." in html
    assert "Money (£6) and Spyrium (2) left over score nothing; the score track shows 12 VP." in html
    assert "No building: 0 VP." in html
    assert "1 technique, end-game VP (at most 7 each): 6 VP." in html
    total_row, rank_row = re.findall(r'<tr class="(?:total|rank)">(.*?)</tr>', html, re.DOTALL)
    totals = re.findall(r'<td class="num[^"]*">(\d+)</td>', total_row)
    assert list(zip(totals, re.findall(r'<td class="num[^"]*">(\w+)</td>', rank_row), strict=True)) == [
        ("20", "1st"),
        ("18", "2nd"),
    ]
    assert f'href="/plays/{play_id}/sheet.pdf"' in html and f'href="/plays/new?again={play_id}"' in html
    with Session(app.extensions["db_engine"]) as session:
        seats = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        assert [(s.total, s.rank) for s in seats] == [(20, 1), (18, 2)]
        assert [[line["key"] for line in s.breakdown] for s in seats] == [["vp_track", "buildings", "techniques"]] * 2


def test_finish_a_tie_shares_the_victory(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="vp_track", value=7)
    tap(client, play_id, bob, field="vp_track", value=7)
    assert client.post(f"/plays/{play_id}/finish").status_code == 303
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Ann and Bob tied on 7 VP; the game has no tie-break, so they share the victory." in html
    assert "Still tied" not in html


def test_score_sheet_pdf_after_finish(client, play_id: int) -> None:
    assert client.get(f"/plays/{play_id}/sheet.pdf").status_code == 404
    play_a_short_game(client, play_id)
    client.post(f"/plays/{play_id}/finish")
    text = sheet_text(client, play_id, "spyrium")
    for expected in (
        "Spyrium",
        "score sheet",
        "Players in turn order: Ann, Bob",
        "3 + 5 = 8 VP.",
        "(at most 7 each): 6 VP.",
    ):
        assert expected in text, expected
    assert text.count("Score track") == 2 and text.count("Buildings") == 2 and text.count("Techniques") == 2
    assert re.search(r"Ann\s+wins\s+with\s+20\s+VP\.", text)
    # The score pad's grid: a Total row and a Rank row, a column per player.
    assert "Total 20 18" in text.splitlines() and "Rank 1st 2nd" in text.splitlines()


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finished_play_refuses_taps_and_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    reach(client, play_id, ann, 8)
    client.post(f"/plays/{play_id}/finish")
    before = saved(app, play_id)
    assert before["status"] == FINISHED
    late = [
        tap(client, play_id, ann, htmx, field="money", delta=1),
        act(client, play_id, htmx, action="start_turn"),
        act(client, play_id, htmx, action="bonus", seat=ann, choice="money"),
        act(client, play_id, htmx, action="build", seat=bob, vp=3, cost=1),
        act(client, play_id, htmx, action="technique", seat=bob),
        act(client, play_id, htmx, action="technique_vp", seat=bob, number=1, vp=2),
        post(client, htmx, f"/plays/{play_id}/undo"),
        post(client, htmx, f"/plays/{play_id}/finish"),
    ]
    for response in late:
        sent_to_play(response, play_id, htmx)
    assert saved(app, play_id) == before
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Techniques" in html and "Start the next turn" not in html


# The same game through the JSON API ---------------------------------------------------------------------------

PAIR = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]


def api_start(client, players: list[dict[str, Any]] | None = None, **more: Any) -> dict:
    """POST /api/v1/plays with track: true for Spyrium; the play view."""
    body = {"game": "spyrium", "track": True, "players": players or PAIR, **more}
    response = post_json(client, "/api/v1/plays", body)
    assert response.status_code == 201, response.get_json()
    assert response.headers["Location"] == response.get_json()["url"]
    return response.get_json()


def test_api_starts_a_tracked_spyrium_play(client, app) -> None:
    view = api_start(client, options={"residence_values": [1, 3, 5, 7, 9, 11]})
    assert (view["game"], view["status"], view["source"]) == ("spyrium", "in_progress", "api")
    assert view["options"] == {"residence_values": [1, 3, 5, 7, 9, 11]}
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
    for entry in view["players"]:
        assert {"vp_track", "building_vp", "technique_vp", "money", "workers", "spyrium", "residence"} <= set(entry)
    # Beside the stored state, the value printed on the token's Residence space (the play's track starts on 1).
    assert player(view, "Ann") == {"name": "Ann", "colour": "red", **START_SEAT, "residence_value": 1}
    assert view["table"] == {"turn": 0}
    assert view["tracker_notes"] == [{"text": "Before turn 1: start it to pay the first income.", "warning": False}]
    assert view["end"] == {"triggered": False, "why": None}
    assert [p["total"] for p in view["live"]["players"]] == [0, 0]
    assert view["result"] is None
    assert client.get(f"/api/v1/plays/{view['id']}").get_json() == view
    # The same play on the tracker page.
    html = client.get(view["url"]).get_data(as_text=True)
    assert "Income £1 a turn · next building space £0" in html
    assert saved(app, view["id"])["table"] == {"turn": 0}


BAD_API_STARTS = [
    ("one player", {"players": [{"name": "Ann"}]}, "players", "Spyrium is for 2 to 5 players; 1 given."),
    (
        "six players",
        {"players": [{"name": name} for name in ("A", "B", "C", "D", "E", "F")]},
        "players",
        "Spyrium is for 2 to 5 players; 6 given.",
    ),
    (
        "a colour not the game's",
        {"players": [{"name": "Ann", "colour": "black"}, {"name": "Bob"}]},
        "players[0].colour",
        None,
    ),
    (
        "a counter given at the start",
        {"players": [{"name": "Ann", "money": 20}, {"name": "Bob"}]},
        "players[0].money",
        None,
    ),
    (
        "a Residence track of two spaces",
        {"players": PAIR, "options": {"residence_values": [2, 3]}},
        "options.residence_values",
        "Give exactly 6 whole numbers, the income of each Residence space; 2 given.",
    ),
]


@pytest.mark.parametrize(("case", "body", "field", "message"), BAD_API_STARTS, ids=[b[0] for b in BAD_API_STARTS])
def test_api_bad_starts_answer_422_and_save_nothing(client, case: str, body: dict, field: str, message) -> None:
    response = post_json(client, "/api/v1/plays", {"game": "spyrium", "track": True, **body})
    assert response.status_code == 422
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert field in errors, errors
    if message is not None:
        assert errors[field] == message
    assert client.get("/api/v1/plays/1").status_code == 404


def test_api_game_actions(client) -> None:
    play = api_start(client)["id"]
    view = api_act(client, play, {"action": "start_turn"})
    assert view["said"] == ["Turn 1 (period A): income paid: Ann £2, Bob £2."]
    assert view["table"] == {"turn": 1}
    assert view["tracker_notes"][0] == {"text": "Turn 1 of 6 (period A).", "warning": False}
    view = api_act(client, play, {"action": "set", "player": "Ann", "field": "vp_track", "value": 8})
    assert view["said"] == ["Ann reached 8 VP: choose +1 worker or £5."]
    assert {"text": "Ann reached 8 VP: choose +1 worker or £5.", "warning": True} in view["tracker_notes"]
    view = api_act(client, play, {"action": "bonus", "player": "Ann", "choice": "worker"})
    assert view["said"] == ["Ann takes an extra worker (4)."]
    assert (player(view, "Ann")["workers"], player(view, "Ann")["bonus_8"]) == (4, "worker")
    view = api_act(client, play, {"action": "build", "player": "Bob", "vp": 4, "cost": 2})
    assert view["said"] == ["Bob pays £2: £2 for the card; the first building space is free."]
    assert (player(view, "Bob")["building_vp"], player(view, "Bob")["money"]) == ([4], 8)
    view = api_act(client, play, {"action": "build", "player": "Bob", "vp": 4, "cost": 0, "replace": 1})
    assert view["said"] == [
        (
            "Building 1 (4 VP) is discarded for a 4 VP building; Bob pays £0: £0 for the card, no "
            "building space to pay (it replaces one)."
        )
    ]
    assert (player(view, "Bob")["building_vp"], player(view, "Bob")["replaced"]) == ([4], 1)
    view = api_act(client, play, {"action": "technique", "player": "Bob"})
    assert view["said"] == ["Bob pays £6 for technique 1; its end VP (up to 7) is entered at the end."]
    view = api_act(client, play, {"action": "technique_vp", "player": "Bob", "number": 1, "vp": 5})
    assert view["said"] == ["Bob's technique 1 scores 5 VP at the end."]
    # The contract only ever grows: the older form of "technique" (its "number" sets an end VP) still works.
    view = api_act(client, play, {"action": "technique", "player": "Bob", "number": 1, "vp": 4})
    assert view["said"] == ["Bob's technique 1 scores 4 VP at the end."]
    view = api_act(client, play, {"action": "technique", "player": "Bob", "number": 1, "vp": 5})
    view = api_act(client, play, {"action": "add", "player": "Ann", "field": "vp_track", "delta": 12})
    assert view["said"] == ["Ann reached 20 VP: the other bonus. Ann takes £5."]
    ann, bob = player(view, "Ann"), player(view, "Bob")
    assert {k: ann[k] for k in COUNTERS} == {"vp_track": 20, "money": 15, "workers": 4, "spyrium": 2, "residence": 1}
    assert (ann["bonus_20"], bob["building_vp"], bob["technique_vp"], bob["money"]) == (True, [4], [5], 2)
    assert [(p["name"], p["total"]) for p in view["live"]["players"]] == [("Ann", 20), ("Bob", 9)]
    for _ in range(5):
        view = api_act(client, play, {"action": "start_turn"})
    assert view["table"] == {"turn": 6}
    assert view["end"] == {"triggered": True, "why": "Turn 6 is the last turn."}
    refused = api_act(client, play, {"action": "start_turn"}, 422)
    assert refused["errors"] == [{"field": "action", "message": "Turn 6 was the last one: finish and score."}]


API_REFUSED = [
    (
        "workers past 7",
        {"action": "add", "player": "Ann", "field": "workers", "delta": 5},
        "workers",
        "Maximum number of workers: 7. Ann has 3.",
    ),
    (
        "Residence space 7",
        {"action": "set", "player": "Ann", "field": "residence", "value": 7},
        "residence",
        "The Residence track has 6 spaces, from 2 at the bottom to 7 at the top: Ann's token stays on 2.",
    ),
    (
        "the bonus below 8 VP",
        {"action": "bonus", "player": "Bob", "choice": "money"},
        "choice",
        "Bob has 0 VP: the bonus comes at 8.",
    ),
    ("a bonus that is neither", {"action": "bonus", "player": "Ann", "choice": "spyrium"}, "choice", None),
    (
        "a building without the money",
        {"action": "build", "player": "Bob", "vp": 4, "cost": 9},
        "cost",
        "Bob has £8, and this building costs £9: £9 for the card; the first building space is free.",
    ),
    (
        "a matching icon for a new building",
        {"action": "build", "player": "Bob", "vp": 4, "matching": True},
        "matching",
        (
            "The −£3 for a matching icon is only for a building that replaces another: choose the building it "
            "replaces, or untick the matching icon."
        ),
    ),
    (
        "replacing a building not built",
        {"action": "build", "player": "Bob", "vp": 4, "replace": 1},
        "replace",
        "Bob has 0 buildings: no building 1 to replace.",
    ),
    ("a VP as text", {"action": "build", "player": "Bob", "vp": "4"}, "vp", None),
    ("a technique at £5", {"action": "technique", "player": "Cy"}, "action", "Cy has £5: a technique costs £6."),
    (
        "a technique with 1 worker beside at £5",
        {"action": "technique", "player": "Cy", "beside": 1},
        "action",
        "Cy has £5: this technique costs £7 (£6 and £1 for the worker beside it).",
    ),
    (
        "paying more than one has",
        {"action": "pay", "player": "Cy", "amount": 7},
        "amount",
        "Cy has £5: Cy can't pay £7. Nothing was paid.",
    ),
    ("paying nothing", {"action": "pay", "player": "Cy", "amount": 0}, "amount", None),
    ("paying without an amount", {"action": "pay", "player": "Cy"}, "amount", "Type how much Cy pays (£), then Pay."),
    ("paying for nobody", {"action": "pay", "amount": 2}, "player", "Say which player this is for."),
    ("a Residence action for nobody", {"action": "residence_vp"}, "player", "Say which player this is for."),
    ("a patent's end VP past 7 (the older form)", {"action": "technique", "player": "Ann", "vp": 8}, "vp", None),
    (
        "end VP of a technique not patented",
        {"action": "technique_vp", "player": "Ann", "number": 1, "vp": 3},
        "number",
        "Ann has no technique: no technique 1 to score.",
    ),
    ("end VP past 7", {"action": "technique_vp", "player": "Ann", "number": 1, "vp": 8}, "vp", None),
    (
        "a start of turn for a player",
        {"action": "start_turn", "player": "Ann"},
        "player",
        "Start turn is for the whole table: give no player.",
    ),
    ("a building for nobody", {"action": "build", "vp": 4}, "player", "Say which player this is for."),
]


@pytest.mark.parametrize(("case", "body", "field", "message"), API_REFUSED, ids=[r[0] for r in API_REFUSED])
def test_api_refused_actions_answer_422_and_change_nothing(client, case: str, body: dict, field: str, message) -> None:
    play = api_start(client, [*PAIR, {"name": "Cy"}])["id"]
    api_act(client, play, {"action": "set", "player": "Ann", "field": "vp_track", "value": 9})
    api_act(client, play, {"action": "bonus", "player": "Ann", "choice": "money"})
    api_act(client, play, {"action": "set", "player": "Cy", "field": "money", "value": 5})
    before = client.get(f"/api/v1/plays/{play}").get_json()
    answer = api_act(client, play, body, 422)
    errors = {e["field"]: e["message"] for e in answer["errors"]}
    assert field in errors, answer
    if message is not None:
        assert errors[field] == message
    assert client.get(f"/api/v1/plays/{play}").get_json() == before


def test_api_undo_a_bonus(client) -> None:
    play = api_start(client)["id"]
    api_act(client, play, {"action": "set", "player": "Ann", "field": "vp_track", "value": 22})
    api_act(client, play, {"action": "bonus", "player": "Ann", "choice": "worker"})
    response = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert response.status_code == 200
    view = response.get_json()
    assert view["undone"] == {
        "action": {"action": "bonus", "player": "Ann", "choice": "worker"},
        "text": "Ann takes the 8 VP bonus: +1 worker (Ann takes an extra worker (4). Ann reached 20 VP: the other "
        "bonus. Ann takes £5)",
        "said": ["Ann takes an extra worker (4).", "Ann reached 20 VP: the other bonus. Ann takes £5."],
    }
    assert player(view, "Ann") == {"name": "Ann", "colour": "red", **seat_state(vp_track=22), "residence_value": 2}


def test_api_finish(client) -> None:
    play = api_start(client)["id"]
    api_act(client, play, {"action": "set", "player": "Ann", "field": "vp_track", "value": 10})
    api_act(client, play, {"action": "build", "player": "Bob", "vp": 4, "cost": 2})
    api_act(client, play, {"action": "technique", "player": "Ann"})
    api_act(client, play, {"action": "technique_vp", "player": "Ann", "number": 1, "vp": 3})
    response = post_json(client, f"/api/v1/plays/{play}/finish", {})
    assert response.status_code == 200
    view = response.get_json()
    assert view["status"] == "finished" and view["live"] is None
    result = {p["name"]: (p["total"], [line["points"] for line in p["breakdown"]]) for p in view["result"]["players"]}
    assert result == {"Ann": (13, [10, 0, 3]), "Bob": (4, [0, 4, 0])}
    assert view["result"]["winners"] == ["Ann"]
    assert post_json(client, f"/api/v1/plays/{play}/actions", {"action": "start_turn"}).status_code == 409


def test_an_action_through_the_api_and_the_same_taps_on_the_page_give_the_same_state(client) -> None:
    """The same records path: one play driven by the API, one by the tracker page, end in the same state."""
    by_api = api_start(client)["id"]
    by_page = api_start(client)["id"]
    ann, bob = seat_ids(client, by_page)
    steps = [
        ({"action": "start_turn"}, ("actions", {"action": "start_turn", "slot": "start_turn"})),
        (
            {"action": "add", "player": "Ann", "field": "vp_track", "delta": 5},
            (f"seats/{ann}", {"field": "vp_track", "delta": "5"}),
        ),
        (
            {"action": "set", "player": "Ann", "field": "vp_track", "value": 9},
            (f"seats/{ann}", {"field": "vp_track", "value": "9"}),
        ),
        (
            {"action": "bonus", "player": "Ann", "choice": "worker"},
            ("actions", {"action": "bonus", "slot": f"bonus-{ann}", "seat": str(ann), "choice": "worker"}),
        ),
        (
            {"action": "build", "player": "Bob", "vp": 4, "cost": 2},
            (
                "actions",
                {"action": "build", "slot": f"build-{bob}", "seat": str(bob), "vp": "4", "cost": "2", "replace": ""},
            ),
        ),
        (
            {"action": "build", "player": "Bob", "vp": 2, "cost": 1},
            (
                "actions",
                {"action": "build", "slot": f"build-{bob}", "seat": str(bob), "vp": "2", "cost": "1", "replace": ""},
            ),
        ),
        (
            {"action": "build", "player": "Bob", "vp": 3, "cost": 4, "replace": 2, "matching": True},
            (
                "actions",
                {
                    "action": "build",
                    "slot": f"build-{bob}",
                    "seat": str(bob),
                    "vp": "3",
                    "cost": "4",
                    "replace": "2",
                    "matching": "true",
                },
            ),
        ),
        (
            {"action": "technique", "player": "Ann"},
            ("actions", {"action": "technique", "slot": f"technique-{ann}", "seat": str(ann)}),
        ),
        (
            {"action": "technique_vp", "player": "Ann", "number": 1, "vp": 4},
            (
                "actions",
                {"action": "technique_vp", "slot": f"technique_vp-{ann}", "seat": str(ann), "number": "1", "vp": "4"},
            ),
        ),
        (
            {"action": "add", "player": "Bob", "field": "residence", "delta": 1},
            (f"seats/{bob}", {"field": "residence", "delta": "1"}),
        ),
        ({"action": "start_turn"}, ("actions", {"action": "start_turn", "slot": "start_turn"})),
        (
            {"action": "add", "player": "Ann", "field": "vp_track", "delta": 11},
            (f"seats/{ann}", {"field": "vp_track", "delta": "11"}),
        ),
    ]
    for body, (path, form) in steps:
        said = api_act(client, by_api, body)["said"]
        html = client.htmx("POST", f"/plays/{by_page}/{path}", data=form).get_data(as_text=True)
        assert notice(html) == " ".join(said).replace("'", "&#39;"), body
    api_view = client.get(f"/api/v1/plays/{by_api}").get_json()
    page_view = client.get(f"/api/v1/plays/{by_page}").get_json()
    for key in ("players", "table", "live", "tracker_notes", "end"):
        assert api_view[key] == page_view[key], key
    assert api_view["table"] == {"turn": 2}
    ann_state, bob_state = player(api_view, "Ann"), player(api_view, "Bob")
    # Ann: £8 + 2 + 2 − 6 + 5 (the 20 VP bonus); Bob: £8 + 2 − 2 − (1 + 1) − (4 − 3) + 3 (space 2 pays £3).
    assert (ann_state["vp_track"], ann_state["workers"], ann_state["money"], ann_state["technique_vp"]) == (
        20,
        4,
        11,
        [4],
    )
    assert (bob_state["money"], bob_state["building_vp"], bob_state["residence"]) == (8, [4, 3], 2)
    assert (bob_state["replaced"], bob_state["residence_value"], ann_state["residence_value"]) == (1, 3, 2)


def test_api_residence_value_is_the_printed_value_beside_the_space(client) -> None:
    """The play view gives each player the value printed on their Residence space (`residence_value`) beside the
    space's number (`residence`, from 1, unchanged in meaning), on the play's own track; worked out, never stored."""
    view = api_start(client, options={"residence_values": [1, 2, 4, 6, 8, 10]})
    play = view["id"]
    # "a token on the 2 space": on this track that is the second space, which shows 2.
    assert [(p["residence"], p["residence_value"]) for p in view["players"]] == [(2, 2), (2, 2)]
    view = api_act(client, play, {"action": "add", "player": "Ann", "field": "residence", "delta": 1})
    assert (player(view, "Ann")["residence"], player(view, "Ann")["residence_value"]) == (3, 4)
    view = api_act(client, play, {"action": "set", "player": "Bob", "field": "residence", "value": 6})
    assert (player(view, "Bob")["residence"], player(view, "Bob")["residence_value"]) == (6, 10)
    read = client.get(f"/api/v1/plays/{play}").get_json()
    assert [(p["residence"], p["residence_value"]) for p in read["players"]] == [(3, 4), (6, 10)]
    # The next turn pays exactly that value.
    said = api_act(client, play, {"action": "start_turn"})["said"]
    assert said == ["Turn 1 (period A): income paid: Ann £4, Bob £10."]
    with Session(client.application.extensions["db_engine"]) as session:
        assert all("residence_value" not in seat.state for seat in session.exec(select(Seat)).all())
    undone = post_json(client, f"/api/v1/plays/{play}/undo", {}).get_json()
    assert player(undone, "Bob")["residence_value"] == 10


def test_tracker_says_what_it_leaves_on_the_table(client, play_id: int) -> None:
    """The rule text's parts the tracker doesn't keep (market, workers' placement, phases, events...) are said."""
    from markupsafe import escape

    from companion.games.spyrium import UNTRACKED

    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    panel = html.split("<summary>What the tracker keeps</summary>")[1].split("</details>")[0]
    assert [str(escape(text)) for text in UNTRACKED] == re.findall(r"<li>(.*?)</li>", panel)


# Issue 17: the larger steps a whole game needs. Each is one action (one undo step), saved at once, said in plain
# words, refused when the rules forbid it; every route as a full page and as a fragment.


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_money_steps_by_five_both_ways(client, app, play_id: int, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    down = tap(client, play_id, ann, htmx, field="money", delta=-5)
    assert down.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0]["money"] == 3
    if htmx:
        assert oob_value(down.get_data(as_text=True), ann, "money") == "3"
    # £3 can't lose £5: refused beside the counter, nothing changes.
    refused = tap(client, play_id, ann, htmx, field="money", delta=-5)
    assert refused.status_code == 422
    assert saved(app, play_id)["seats"][0]["money"] == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_pay_an_amount_typed_once(client, app, play_id: int, htmx: bool) -> None:
    """'Pay the cost to acquire the benefit': £7 typed once and paid in one tap; more than Ann has is refused."""
    ann, _bob = seat_ids(client, play_id)
    act(client, play_id, action="start_turn")
    paid = act(client, play_id, htmx, action="pay", seat=ann, amount=7)
    assert paid.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(money=3)
    if htmx:
        html = paid.get_data(as_text=True)
        assert notice(html) == "Ann pays £7: £3 left."
        assert oob_value(html, ann, "money") == "3"
        assert html.startswith("\n") or not html.split("<")[0].strip()  # nothing in the pay slot: it was saved
    else:
        page = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert page_value(page, ann, "money") == "3"
    refused = act(client, play_id, htmx, action="pay", seat=ann, amount=4)
    assert refused.status_code == 422
    assert saved(app, play_id)["seats"][0] == seat_state(money=3)
    text = refused.get_data(as_text=True)
    assert "Ann has £3: Ann can&#39;t pay £4. Nothing was paid." in text
    if htmx:
        # The message lands in the pay slot (the response's own content), and the typed £4 stays in the box.
        assert text.lstrip().startswith("Ann has £3: Ann can&#39;t pay £4. Nothing was paid.")
    # One undo step: the £7 comes back whole.
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(undone).startswith("Took back: Ann pays £7")
    assert saved(app, play_id)["seats"][0] == seat_state(money=10)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_residence_action_scores_the_value_of_the_token_s_space(client, app, play_id: int, htmx: bool) -> None:
    """Decision (docs/rules.md, "Spyrium"): 'A Residence action either moves one space up or scores VP equal to the
    current income'."""
    ann, _bob = seat_ids(client, play_id)
    tap(client, play_id, ann, field="residence", delta=1)
    tap(client, play_id, ann, field="vp_track", value=5)
    scored = act(client, play_id, htmx, action="residence_vp", seat=ann)
    assert scored.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0] == seat_state(residence=2, vp_track=8)
    if htmx:
        html = scored.get_data(as_text=True)
        assert notice(html) == (
            "Ann&#39;s Residence action scores 3 VP (the value of the token&#39;s space): 8 VP on "
            "the score track. Ann reached 8 VP: choose +1 worker or £5."
        )
        assert oob_value(html, ann, "vp_track") == "8"
        assert f'<span id="res-vp-{ann}" hx-swap-oob="true">3</span>' in html
    else:
        page = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert f'Score <span id="res-vp-{ann}">3</span> VP' in page
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(undone).startswith("Took back: Ann&#39;s Residence action scores 3 VP")
    assert saved(app, play_id)["seats"][0] == seat_state(residence=2, vp_track=5)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_patent_pays_for_the_workers_beside_the_card(client, app, play_id: int, htmx: bool) -> None:
    """'an activation cost of £1 to the bank for each remaining worker next to that card', on top of the £6."""
    _ann, bob = seat_ids(client, play_id)
    patented = act(client, play_id, htmx, action="technique", seat=bob, beside=2)
    assert patented.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][1] == seat_state(technique_vp=[0], money=0)
    if htmx:
        said = (
            "Bob pays £8 (£6 and £2 for the 2 workers beside it) for technique 1; its end VP (up to 7) is entered "
            "at the end."
        )
        html = patented.get_data(as_text=True)
        assert notice(html) == said and said_beside(html, "buy", bob) == said
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(undone).startswith("Took back: Bob patents a technique (−£8, 2 workers beside it)")


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_last_turn_opens_the_techniques_end_vp(client, app, play_id: int, htmx: bool) -> None:
    """Turn 6 is the last: its start opens every seat's At the end section, drawn again whole; before it stays
    closed and is not redrawn (a section someone opened stays open)."""
    ann, bob = seat_ids(client, play_id)
    act(client, play_id, action="technique", seat=ann)
    for _ in range(5):
        fifth = act(client, play_id, htmx, action="start_turn")
    if htmx:
        assert f'id="at-end-{ann}"' not in fifth.get_data(as_text=True)
    sixth = act(client, play_id, htmx, action="start_turn")
    html = sixth.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    for seat in (ann, bob):
        assert re.search(rf'<details id="at-end-{seat}" class="at-end" open', html)
        # Its slot and said line come once, inside it.
        assert html.count(f'id="a-technique_vp-{seat}"') == 1 and html.count(f'id="said-end-{seat}"') == 1
    assert end_forms(html, ann) == [("1", "0")]
    chosen = act(client, play_id, htmx, action="technique_vp", seat=ann, number=1, vp=6)
    assert saved(app, play_id)["seats"][0]["technique_vp"] == [6]
    if htmx:
        assert end_forms(chosen.get_data(as_text=True), ann) == [("1", "6")]


def test_api_pay_and_residence_vp(client) -> None:
    """The JSON API takes the new actions as the page does (same records path)."""
    play = api_start(client, list(PAIR))["id"]
    api_act(client, play, {"action": "pay", "player": "Ann", "amount": 8})
    view = api_act(client, play, {"action": "residence_vp", "player": "Bob"})
    assert player(view, "Ann")["money"] == 0 and player(view, "Bob")["vp_track"] == 2
    view = api_act(client, play, {"action": "technique", "player": "Bob", "beside": 1})
    assert player(view, "Bob")["money"] == 1 and player(view, "Bob")["technique_vp"] == [0]


def test_pay_with_an_empty_box_is_refused_in_words(client, app, play_id: int) -> None:
    """Pay tapped before typing an amount: refused beside the box, nothing paid."""
    ann, _bob = seat_ids(client, play_id)
    refused = act(client, play_id, True, action="pay", seat=ann, amount="")
    assert refused.status_code == 422
    assert refused.get_data(as_text=True).lstrip().startswith("Type how much Ann pays (£), then Pay.")
    assert saved(app, play_id)["seats"][0] == seat_state()
