"""The Spires tracker's whole-table bounds through the test client: what the deck holds, refused beside the tapped
counter as a full page and as an htmx fragment (and through the API), with nothing saved; undo's plain words; the
"What the tracker keeps" panel. The rest of the Spires routes is in test_plays.py.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape
from sqlmodel import Session

from companion.games import spires
from companion.models import Play
from tests.conftest import start_play
from tests.web.tracker_tools import api_act, notice, oob_value, saved, seat_ids

SUIT_RULE = "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."
QUILLS_RULE = "The rules: “Quills: 10 points (8 symbols total)”."


def post(client, htmx: bool, url: str, data: dict | None = None):
    """POST as htmx sends it (a fragment) or as the plain form does (a page)."""
    return client.htmx("POST", url, data=data or {}) if htmx else client.post(url, data=data or {})


def tap(client, play_id: int, seat_id: int | str, htmx: bool = False, **data):
    """One tap on a seat's counter (or, seat 'table', the table's): field=..., delta=... or value=..."""
    url = f"/plays/{play_id}/table" if seat_id == "table" else f"/plays/{play_id}/seats/{seat_id}"
    return post(client, htmx, url, {k: str(v) for k, v in data.items()})


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
        [(0, "towers.red", 10)], (1, "towers.red", {"value": 7}),
        f"The deck has only 15 red cards; 17 counted in all. Ann has 10 and Bob 7. {SUIT_RULE}",
        id="Each suit has 12 values (notes: 15 in all towers): 17 red cards between two players",
    ),
    pytest.param(
        [(0, "towers.red", 8), (1, "towers.red", 7)], (1, "towers.red", {"delta": 1}),
        f"The deck has only 15 red cards; 16 counted in all. Ann has 8 and Bob 8. {SUIT_RULE}",
        id="Each suit has 12 values (notes: 15 in all towers): the 16th red card, one + tap",
    ),
    pytest.param(
        [(0, "quills", 5)], (1, "quills", {"value": 4}),
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
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert ("<html" in html) is not htmx
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
    assert refused == {"errors": [{"field": "towers.red", "message": "The deck has only 15 red cards; 17 counted in "
                                   f"all. Ann has 10 and Bob 7. {SUIT_RULE}"}]}
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
    panel = re.search(r'<details class="card setup tracker-help">(.*?)</details>', html, re.S).group(1)
    assert "What the tracker keeps" in panel
    assert re.findall(r"<li>(.*?)</li>", panel) == [str(escape(line)) for line in spires.UNTRACKED]
