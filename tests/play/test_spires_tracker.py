"""The Spires tracker's whole-table bounds through the test client: what the deck holds, refused beside the tapped
counter as a full page and as an htmx fragment (and through the API), with nothing saved; counting a tower or a symbol
in one tap (the count chips), saved and refused, page and fragment; undo's plain words; the "What the tracker keeps"
panel. The rest of the Spires routes is in test_plays.py.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape
from sqlmodel import Session

from companion.games import spires
from companion.store.models import Play
from tests.helpers import answered, api_act, notice, oob_value, post, saved, seat_ids, start_play, tap

SUIT_RULE = "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."
QUILLS_RULE = "The rules: “Quills: 10 points (8 symbols total)”."


def slot(scope: int | str, field: str, message: str) -> str:
    """A counter's message slot holding a message, as the page and the fragment draw it."""
    return f'<p id="c-{scope}-{field.replace(".", "-")}-error" class="error" role="alert">{escape(message)}</p>'


@pytest.fixture
def two(client) -> tuple[int, int, int]:
    """Ann and Bob's play in progress: its id and the two seat ids."""
    play = start_play(client, ["Ann", "Bob"])
    return (play, *seat_ids(client, play))


# The deck's totals, refused beside the tapped counter ----------------------------------------------------------

REFUSED = [
    # (case: taps before as (seat index, field, value), the refused tap as (seat index, field, form), message)
    pytest.param(
        [(0, "towers.red", 10)],
        (1, "towers.red", {"value": 7}),
        f"The deck has only 15 red cards; 17 counted in all. Ann has 10 and Bob 7. {SUIT_RULE}",
        id="Each suit has 12 values (notes: 15 in all towers): 17 red cards between two players",
    ),
    pytest.param(
        [(0, "towers.red", 8), (1, "towers.red", 7)],
        (1, "towers.red", {"delta": 1}),
        f"The deck has only 15 red cards; 16 counted in all. Ann has 8 and Bob 8. {SUIT_RULE}",
        id="Each suit has 12 values (notes: 15 in all towers): the 16th red card, one + tap",
    ),
    pytest.param(
        [(0, "quills", 5)],
        (1, "quills", {"value": 4}),
        f"The deck has only 8 quills; 9 counted in all. Ann has 5 and Bob 4. {QUILLS_RULE}",
        id="Quills: 10 points (8 symbols total)",
    ),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("before", "refused", "message"), REFUSED)
def test_deck_totals_refused_beside_the_tapped_counter(
    client, app, two, htmx: bool, before: list, refused: tuple, message: str
) -> None:
    play, *seats = two
    for index, field, value in before:
        tap(client, play, seats[index], field=field, value=value)
    stored = saved(app, play)
    index, field, form = refused
    response = tap(client, play, seats[index], htmx, field=field, **form)
    html = answered(response, htmx, 422)
    if htmx:
        # The refusal lands in the tapped counter's slot; the value is sent again as saved.
        assert html.lstrip().startswith(slot(seats[index], field, message))
        kept = stored["seats"][index]
        for part in field.split("."):
            kept = kept[part]
        assert oob_value(html, seats[index], field.replace(".", "-")) == str(kept)
    else:
        assert slot(seats[index], field, message) in html
    assert saved(app, play) == stored


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_exactly_what_the_deck_holds_is_taken(client, app, two, htmx: bool) -> None:
    play, ann, bob = two
    tap(client, play, ann, field="towers.red", value=8)
    tap(client, play, ann, field="quills", value=4)
    assert tap(client, play, bob, htmx, field="towers.red", value=7).status_code == (200 if htmx else 303)
    assert tap(client, play, bob, htmx, field="quills", delta=4).status_code == (200 if htmx else 303)
    state = saved(app, play)
    assert [s["towers"]["red"] for s in state["seats"]] == [8, 7]
    assert [s["quills"] for s in state["seats"]] == [4, 4]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_solo_discard_pile_counts_towards_the_deck(client, app, htmx: bool) -> None:
    play = start_play(client, ["Ann"], solo=True)
    (ann,) = seat_ids(client, play)
    tap(client, play, ann, field="quills", value=5)
    tap(client, play, "table", field="discard.quills", value=3)
    stored = saved(app, play)
    # The discard pile's own counter, tapped past the deck.
    response = tap(client, play, "table", htmx, field="discard.quills", delta=1)
    message = f"The deck has only 8 quills; 9 counted in all. Ann has 5 and the discard pile 4. {QUILLS_RULE}"
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert slot("table", "discard.quills", message) in html
    if htmx:
        assert html.lstrip().startswith(slot("table", "discard.quills", message))
    # The player's quills, tapped past the deck with the pile's.
    response = tap(client, play, ann, htmx, field="quills", delta=1)
    message = f"The deck has only 8 quills; 9 counted in all. Ann has 6 and the discard pile 3. {QUILLS_RULE}"
    assert response.status_code == 422
    assert slot(ann, "quills", message) in response.get_data(as_text=True)
    assert saved(app, play) == stored


def test_api_refuses_the_same_totals(client, app, two) -> None:
    play, _ann, _bob = two
    api_act(client, play, {"action": "set", "player": "Ann", "field": "towers.red", "value": 10})
    stored = saved(app, play)
    refused = api_act(client, play, {"action": "set", "player": "Bob", "field": "towers.red", "value": 7}, 422)
    assert refused == {
        "errors": [
            {
                "field": "towers.red",
                "message": f"The deck has only 15 red cards; 17 counted in all. Ann has 10 and Bob 7. {SUIT_RULE}",
            }
        ]
    }
    assert saved(app, play) == stored


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_play_saved_past_the_deck_is_corrected_tap_by_tap(client, app, two, htmx: bool) -> None:
    """A play saved before the suits were bounded (17 red between Ann and Bob): its page still opens, a tap that
    adds a red card is refused, one that takes a card away is taken."""
    play, ann, bob = two
    with Session(app.extensions["db_engine"]) as session:
        stored = session.get(Play, play)
        for seat, red in zip(stored.seats, (10, 7), strict=True):
            seat.state = {**seat.state, "towers": {**seat.state["towers"], "red": red}}
            session.add(seat)
        session.commit()
    assert client.get(f"/plays/{play}").status_code == 200
    assert tap(client, play, ann, htmx, field="towers.red", delta=1).status_code == 422
    assert tap(client, play, bob, htmx, field="towers.red", delta=-1).status_code == (200 if htmx else 303)
    assert [s["towers"]["red"] for s in saved(app, play)["seats"]] == [10, 6]


# Counting in one tap: a tower's height, a symbol's count ------------------------------------------------------


def count(client, play_id: int, seat_id: int, field: str, value: int, htmx: bool = False):
    """One tap on a count chip, as its form posts it (the game's 'set' action, its message in the seat's count slot)."""
    data = {"action": "set", "seat": str(seat_id), "field": field, "value": str(value), "slot": f"count-{seat_id}"}
    return post(client, htmx, f"/plays/{play_id}/actions", data)


def count_now(html: str, seat_id: int, field: str, oob: bool = False) -> str | None:
    """What a counted row holds now, as the page or (out of band) a fragment draws it."""
    rid = f"n-{seat_id}-{field.replace('.', '-')}"
    swap = ' hx-swap-oob="true"' if oob else ""
    found = re.search(rf'<output id="{rid}" class="count-now" data-n="(\d+)"{swap}>(\d+)</output>', html)
    assert found is None or found.group(1) == found.group(2)
    return found.group(1) if found else None


def test_each_seat_counts_its_cards_in_one_tap_each(client, two) -> None:
    """Each seat's count panel: its six towers and three symbols, each with chips 1 to 6 that post the 'set' action
    for that seat and counter; a tower's chips from 4 up are marked (each card of such a tower scores -1)."""
    play, ann, bob = two
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    for seat, name in ((ann, "Ann"), (bob, "Bob")):
        found = re.search(rf'<details class="count-tableau setup" id="count-{seat}">(.*?)</details>', html, re.DOTALL)
        panel = found.group(1)
        assert f"Count {name}'s cards in one tap each" in panel
        fields = re.findall(r'<input type="hidden" name="field" value="([a-z.]+)">', panel)
        assert fields == [*(f"towers.{suit}" for suit in spires.SUITS), "crowns", "swords", "quills"]
        for field in fields:
            assert count_now(panel, seat, field) == "0"
        chips = re.findall(
            r'<button class="button step count-chip( tall)?" type="submit" name="value" value="(\d)"\s+'
            r'aria-label="([^"]+)" hx-post="([^"]+)" hx-target="#a-count-(\d+)"',
            panel,
        )
        assert len(chips) == 9 * 6
        assert {post_to for *_rest, post_to, _slot in chips} == {f"/plays/{play}/actions"}
        assert {int(slot) for *_rest, slot in chips} == {seat}
        assert chips[2][1:3] == ("3", f"{name}: Purple 3")
        assert [value for tall, value, *_rest in chips[:6] if tall] == ["4", "5", "6"]
        assert [value for tall, value, *_rest in chips[-6:] if tall] == []  # quills: no tower to go over
        assert f'<p id="a-count-{seat}" class="error" role="alert"></p>' in panel
        assert f'<input type="hidden" name="seat" value="{seat}">' in panel


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_tower_counted_in_one_tap_is_saved(client, app, two, htmx: bool) -> None:
    """'The winning player gains the card(s) below the Market AND all cards played': Ann's red tower goes from 1 to
    4 in one tap: one Change (undo's plain words), the live values and the row's count sent again."""
    play, ann, _bob = two
    tap(client, play, ann, field="towers.red", delta=1)
    response = count(client, play, ann, "towers.red", 4, htmx)
    assert response.status_code == (200 if htmx else 303)
    state = saved(app, play)
    assert state["seats"][0]["towers"]["red"] == 4 and state["changes"] == 2
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play}").get_data(as_text=True)
    if htmx:
        # The answer's own text (for its slot) is empty: saved, like a counter's tap.
        assert html.lstrip().startswith("<")
        assert oob_value(html, ann, "towers-red") == "4"
        assert count_now(html, ann, "towers.red", oob=True) == "4"
        # The tower of 4 is flagged on its counter, and the scoreboard says why.
        assert re.search(rf'<output id="c-{ann}-towers-red-value" class="value flagged"', html)
    else:
        assert count_now(html, ann, "towers.red") == "4"
    assert "Ann&#39;s red tower has 4 cards" in html or "Ann's red tower has 4 cards" in html
    undone = client.htmx("POST", f"/plays/{play}/undo").get_data(as_text=True)
    assert notice(undone) == "Took back: Ann, red tower set to 4."
    assert count_now(undone, ann, "towers.red", oob=True) == "1"
    assert saved(app, play)["seats"][0]["towers"]["red"] == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_count_past_the_deck_is_refused_beside_the_chips(client, app, two, htmx: bool) -> None:
    """Decision (docs/rules.md, "Spires"): at most 15 cards of one suit in all towers ("Each suit has 12 values"). Ann
    has 10 red cards; Bob's red tower counted at 6 is refused in his count slot (htmx) or on the page, with both counts,
    and nothing is saved."""
    play, ann, bob = two
    count(client, play, ann, "towers.red", 10)
    stored = saved(app, play)
    response = count(client, play, bob, "towers.red", 6, htmx)
    html = response.get_data(as_text=True)
    message = f"The deck has only 15 red cards; 16 counted in all. Ann has 10 and Bob 6. {SUIT_RULE}"
    assert response.status_code == 422
    assert saved(app, play) == stored
    if htmx:
        # The message is the answer's own text, swapped into the count slot the chip targets; the row keeps 0.
        assert html.lstrip().startswith(str(escape(message)))
        assert count_now(html, bob, "towers.red", oob=True) == "0"
        # Ann's slot is cleared; Bob's, the one this answer fills, is left to it.
        assert f'<p id="a-count-{ann}" class="error" role="alert" hx-swap-oob="true"></p>' in html
        assert f'<p id="a-count-{bob}" class="error" role="alert" hx-swap-oob="true">' not in html
    else:
        assert "<html" in html and str(escape(message)) in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_solo_discard_pile_counted_in_one_tap(client, app, htmx: bool) -> None:
    """Solo: 'compare the amount of symbols in your buildings compared to the amount in the discard pile': the pile's
    quills counted in one tap (no player: the table's), then a count past the deck's 8 quills refused beside its
    chips ('Quills: 10 points (8 symbols total)'), nothing saved."""
    play = start_play(client, ["Ann"], solo=True)
    (ann,) = seat_ids(client, play)
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    found = re.search(r'<details class="count-tableau setup" id="count-table">(.*?)</details>', page, re.DOTALL)
    panel = found.group(1)
    assert 'aria-label="Discard pile: Quills 3"' in panel and 'name="seat"' not in panel
    data = {"action": "set", "field": "discard.quills", "value": "3", "slot": "count-table"}
    response = post(client, htmx, f"/plays/{play}/actions", data)
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play)["table"]["discard"]["quills"] == 3
    if htmx:
        assert count_now(response.get_data(as_text=True), "table", "discard.quills", oob=True) == "3"
    tap(client, play, ann, field="quills", value=5)
    stored = saved(app, play)
    response = post(client, htmx, f"/plays/{play}/actions", {**data, "value": "4"})
    message = f"The deck has only 8 quills; 9 counted in all. Ann has 5 and the discard pile 4. {QUILLS_RULE}"
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith(str(escape(message))) if htmx else str(escape(message)) in html
    assert saved(app, play) == stored


def test_the_same_count_again_changes_nothing(client, app, two) -> None:
    """A chip tapped again on the count a row holds is no step for undo."""
    play, ann, _bob = two
    count(client, play, ann, "crowns", 2)
    stored = saved(app, play)
    assert count(client, play, ann, "crowns", 2, htmx=True).status_code == 200
    assert saved(app, play) == stored


# Undo says a tap in plain words -------------------------------------------------------------------------------


def test_undo_says_the_tower_by_its_colour(client, two) -> None:
    play, ann, _bob = two
    tap(client, play, ann, field="towers.red", delta=1)
    html = client.htmx("POST", f"/plays/{play}/undo").get_data(as_text=True)
    assert notice(html) == "Took back: Ann, red tower +1."


def test_undo_says_the_discard_pile_by_its_name(client) -> None:
    play = start_play(client, ["Ann"], solo=True)
    tap(client, play, "table", field="discard.crowns", delta=1)
    html = client.htmx("POST", f"/plays/{play}/undo").get_data(as_text=True)
    assert notice(html) == "Took back: Discard pile crowns +1."


# What the tracker keeps ---------------------------------------------------------------------------------------


def test_tracker_says_what_stays_on_the_table(client, two) -> None:
    play, _ann, _bob = two
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    panel = re.search(r'<details class="card setup tracker-help">(.*?)</details>', html, re.DOTALL).group(1)
    assert "What the tracker keeps" in panel
    assert re.findall(r"<li>(.*?)</li>", panel) == [str(escape(line)) for line in spires.UNTRACKED]
