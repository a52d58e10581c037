"""The Conquest of Speros tracker routes through the test client: every page, every htmx fragment, every bad input,
the API, and the taps it takes to enter a captured card.

House style as in test_spyrium_tracker.py: each htmx route as a full page and as a fragment; bad input answers 422,
says why and keeps what was saved (checked in the database, not only in the answer). The page's forms send several
boxes under one name (a card's resources, a Mastery Objective's leaders): they go as a werkzeug MultiDict.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.store.models import FINISHED, IN_PROGRESS, Play, Seat
from tests.helpers import (
    SLOTS,
    SPEROS_COLOURS,
    answered,
    api_act,
    bad_rosters,
    button_form,
    card_item,
    created_play,
    csrf_client,
    form_data,
    forms,
    hidden_fields,
    live,
    new_play_form,
    notice,
    oob_ids,
    page_ids,
    player,
    post_json,
    post_speros,
    put_card_defaults,
    refused_finish,
    refused_new_play,
    saved,
    seat_ids,
    selects,
    sent_to_play,
    sheet_text,
    skirmish,
    speros_act,
    speros_form,
    start_speros,
    tracker_page,
)

NAMES = ["Ann", "Bob", "Cy", "Di"]
TERRAINS = ["forest", "mountain", "ocean", "swamp", "artifact"]
START_TABLE = {"turn": 1, "cards": [], "next_card": 1, "last_drawn": None, "mastery": [], "ended": None}
START_SEAT = {"bonus_1": 0, "bonus_2": 0, "bonus_3": 0}
# Said with every refusal once the game is over.
AFTER_THE_END = "Only the Bonus Objectives and the Mastery Objectives can still be entered; then finish and score."
PAIR = [{"name": "Ann", "colour": "green"}, {"name": "Bob", "colour": "red"}]
LINES = [
    "Captured cards",
    "Resource sets",
    "Deployed Minions",
    "Deployed General",
    "Bonus Objective",
    "Mastery Objectives",
]


# Helpers ------------------------------------------------------------------------------------------------------


@pytest.fixture
def play_id(client) -> int:
    """A two-player play at Ann's first turn: Ann (green, Forest is familiar) first, then Bob (red, Mountain)."""
    return start_speros(client)


def put_card(
    client,
    play_id: int,
    htmx: bool = False,
    *,
    seat: int | str = "",
    terrain: str = "mountain",
    encampments: int | None = None,
    resources: list[str] | None = None,
    vp: int = 1,
):
    """The "Put a card into play" form: terrain chip, encampment chip, resource chips, VP stepper, explorer.

    Encampments not given: 3 for a Location; for an Artifact no chip is tapped (it has 5)."""
    data: dict[str, Any] = {
        "terrain": terrain,
        "resources": ["iron"] if resources is None else resources,
        "vp": vp,
        "seat": seat,
    }
    if encampments is not None or terrain != "artifact":
        data["encampments"] = 3 if encampments is None else encampments
    return speros_act(client, play_id, htmx, action="explore", **data)


def objectives(table: dict) -> list[dict]:
    """The table's Mastery Objective slots as VP and leaders (a slot may also carry the objective's name)."""
    return [{"vp": slot["vp"], "leaders": slot["leaders"]} for slot in table["mastery"]]


def card(app, play_id: int, number: int) -> dict:
    """A card of the table as stored."""
    return next(c for c in saved(app, play_id)["table"]["cards"] if c["id"] == number)


def facts(html: str, seat_id: int) -> str:
    """A seat's facts (Base Camp, familiar terrain, captured cards), page or fragment."""
    return re.search(rf'<div id="facts-{seat_id}" class="seat-facts"[^>]*>(.*?)</div>', html, re.DOTALL).group(1)


def capture_buttons(html: str) -> list[str]:
    """Who the Skirmish Area offers a capture to: the names on the "X captures it" buttons."""
    return re.findall(r'<button id="capture-\d+" class="button primary" type="submit">(\w+) captures it</button>', html)


def swapped_into_put_card(page: str, fragment: str) -> dict[str, str]:
    """The selects of the put-card form that a fragment redraws out of band (an element of the form, by its id)."""
    form = page.split('<form id="put-card"')[1].split("</form>")[0]
    values = {}
    for _tag, element_id, body in re.findall(
        r'<(\w+)[^>]*\bid="([^"]+)"[^>]*hx-swap-oob="true"[^>]*>(.*?)</\1>', fragment, re.DOTALL
    ):
        if f'id="{element_id}"' in form:
            values |= selects(body)
    return values


def api_start(client, players: list[dict[str, Any]] | None = None, **more: Any) -> dict:
    """POST /api/v1/plays with track: true for Conquest of Speros; the play view."""
    body = {"game": "speros", "track": True, "players": players or PAIR, **more}
    response = post_json(client, "/api/v1/plays", body)
    assert response.status_code == 201, response.get_json()
    assert response.headers["Location"] == response.get_json()["url"]
    return response.get_json()


# The new-play form --------------------------------------------------------------------------------------------


def test_new_play_form(client) -> None:
    # Each row offers the game's four colours, a different one picked in each row.
    html = new_play_form(client, "speros", "Conquest of Speros", SPEROS_COLOURS)
    # Four rows, the most Speros seats: a fifth player can't be typed in.
    assert html.count('name="name-') == 4 and 'name="name-4"' not in html
    # The Mastery Objectives are entered on the tracker, not as an option before the game.
    assert "Options" not in html and "mastery" not in html


def test_new_play_form_offers_the_roster(client, play_id: int) -> None:
    html = client.get("/plays/new?game=speros").get_data(as_text=True)
    assert '<option value="Ann">' in html and '<option value="Bob">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    ("names", "colours"),
    [
        (["  Ann ", "Bob"], ["black", "blue"]),
        (["Ann", "Bob", "Cy"], ["red", "green", "blue"]),
        (["Ann", "Bob", "Cy", "Di"], ["blue", "black", "green", "red"]),
    ],
    ids=["2 players", "3 players", "4 players"],
)
def test_create_play_redirects_to_tracker(client, app, htmx: bool, names: list[str], colours: list[str]) -> None:
    _play_id, html, play, seats = created_play(client, app, htmx, speros_form(names, colours))
    count = len(names)
    assert f"deal 3 to each player ({3 * count} in all)" in html
    assert (play.game, play.status, play.options) == ("speros", IN_PROGRESS, {"mastery": []})
    assert play.extra["table"] == START_TABLE
    assert all(s.state == START_SEAT for s in seats)


def test_a_fifth_row_is_never_read(client, app) -> None:
    """Four is the most; the form has four rows, so a fifth player can't be asked for (the API refuses five)."""
    form = speros_form(NAMES) | {"name-4": "Ed", "colour-4": "green"}
    response = client.post("/plays", data=form)
    assert response.status_code == 303
    play = int(response.headers["Location"].rsplit("/", 1)[1])
    with Session(app.extensions["db_engine"]) as session:
        seats = session.exec(select(Seat).where(Seat.play_id == play)).all()
        assert sorted(s.name for s in seats) == sorted(NAMES)


BAD_NEW_PLAYS = [
    *bad_rosters("Conquest of Speros", 4, "green", ["green", "yellow"]),
    (
        "a colour left out",
        {"names": ["Ann", "Bob"], "colours": ["green", None]},
        "Must be one of &#39;green&#39;, &#39;red&#39;, &#39;blue&#39; or &#39;black&#39;.",
    ),
    (
        "a colour left blank",
        {"names": ["Ann", "Bob"], "colours": ["", "red"]},
        "Must be one of &#39;green&#39;, &#39;red&#39;, &#39;blue&#39; or &#39;black&#39;.",
    ),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_NEW_PLAYS, ids=[b[0] for b in BAD_NEW_PLAYS])
def test_create_play_bad_input(client, app, htmx: bool, case: str, form: dict, message: str) -> None:
    refused_new_play(client, app, htmx, speros_form(**form), message, form["names"])


def test_the_same_colour_twice_is_said_beside_the_second_row(client) -> None:
    html = client.post("/plays", data=speros_form(["Ann", "Bob"], ["red", "red"])).get_data(as_text=True)
    assert '<p class="error" id="colour-1-error" role="alert">Red is taken by an earlier player.</p>' in html
    assert re.search(r'<select name="colour-1"[^>]*aria-invalid="true" aria-describedby="colour-1-error"', html)


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        (["red", "red"], "Red is taken by an earlier player."),
        (["green", None], "Must be one of &#39;green&#39;, &#39;red&#39;, &#39;blue&#39; or &#39;black&#39;."),
    ],
    ids=["the same colour twice", "a colour left out"],
)
def test_a_colour_problem_is_said_once_beside_its_row(client, colours: list, message: str) -> None:
    html = client.post("/plays", data=speros_form(["Ann", "Bob"], colours)).get_data(as_text=True)
    assert re.findall(r'<p class="error"[^>]*>(.*?)</p>', html) == [message]
    assert f'<p class="error" id="colour-1-error" role="alert">{message}</p>' in html


# The tracker page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_tracker_page(client, count: int) -> None:
    play = start_speros(client, NAMES[:count])
    html, seats = tracker_page(client, play, count)
    assert f"place {count} in the Skirmish Area" in html
    # The turn card: whose turn, the table's two buttons and their message slots.
    assert '<h2 id="turn-title">Ann\'s turn</h2>' in html
    assert '<p id="countdown" class="end-note"></p>' in html
    assert '<button class="button primary" type="submit">Next turn</button>' in html
    assert (
        '<input type="hidden" name="drawn" value="true"><button class="button" type="submit">Last Location card '
        "drawn</button>"
    ) in html
    assert '<p id="a-next_turn" class="error" role="alert"></p>' in html
    assert '<p id="a-last_drawn" class="error" role="alert"></p>' in html
    # Put a card into play: terrain, encampment and resource chips, the explorer, the VP buttons. Collapsed once
    # a card is in play (so that the board comes first on a phone); open at the start, for the setup's cards.
    put = html.split('<form id="put-card"')[1].split("</form>")[0]
    assert '<details class="card put-card" open>\n  <summary>Put a card into play</summary>' in html
    assert re.findall(r'<input type="radio" name="terrain" value="(\w+)"', put) == TERRAINS
    # Nothing is ticked for a new card: the player taps its terrain, encampments and resources.
    assert " checked" not in put
    assert re.findall(r'<input type="radio" name="encampments" value="(\d)"', put) == ["1", "2", "3", "4", "5", "6"]
    assert "<legend>Encampments (an Artifact has 5: no need to tap)</legend>" in put
    assert re.findall(r'<input type="checkbox" name="resources" value="(\w+)">', put) == ["crystal", "iron", "gold"]
    # The printed VP: a button for each of 0 to 7, whose tap puts the card in; any other VP typed, then Put.
    assert "<legend>Printed VP: a tap puts the card into play</legend>" in put
    assert re.findall(
        r'<button id="put-card-vp-(\d)" class="chip vp" type="submit" name="vp" value="\1">\1</button>', put
    ) == [str(n) for n in range(8)]
    assert re.search(
        r'<input id="put-card-vp-typed" type="number" inputmode="text" name="vp_typed" step="1" '
        r'min="-10" max="20">',
        put,
    )
    assert '<button class="button" type="submit">Put into play</button>' in put
    assert '<input type="hidden" name="end_turn" value="true">' in put
    explorer = put.split('<select name="seat">')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\d*)"', explorer) == [""] + [str(s) for s in seats]
    # The setup's cards go in first, by nobody: the explorer is nobody until they are in.
    assert '<option value="" selected>nobody (setup or an ability)</option>' in explorer
    for seat, name in zip(seats, NAMES, strict=False):
        assert f'<option value="{seat}">{name}</option>' in explorer
    assert (
        f"Setup: {2 * count} more cards (a Location from each player and an Artifact per player), put in by nobody."
    ) in put
    # Untouched, the form sends no terrain, no encampments, no resource and no VP (each is asked for, see
    # test_an_untouched_card_form_is_asked_about), only the explorer proposed (nobody) and end_turn.
    defaults = put_card_defaults(html)
    assert defaults == {"action": "explore", "slot": "explore", "resources": [], "seat": "", "end_turn": "true"}
    # The Skirmish Area, empty, with its message slot.
    assert '<p id="a-skirmish" class="error" role="alert"></p>' in html
    assert "No card in play: put the Locations and Artifacts of the setup into play." in skirmish(html)
    # Mastery Objectives: one form fewer than the players, each with a VP select and a box per player.
    assert f"<summary>Mastery Objectives ({count - 1}, optional)</summary>" in html
    assert re.findall(r'<form id="mastery-(\d)"', html) == [str(n) for n in range(1, count)]
    for number in range(1, count):
        form = html.split(f'<form id="mastery-{number}"')[1].split("</form>")[0]
        assert f'<input type="hidden" name="number" value="{number}">' in form
        assert '<input type="hidden" name="slot" value="mastery">' in form
        # Its VP: a button for each of 1 to 10, whose tap saves it; another VP typed, then Save.
        assert re.findall(
            r'<button id="mastery-\d-vp-(\d+)" class="chip vp" type="submit" name="vp" value="\1" '
            r'aria-pressed="false">\1</button>',
            form,
        ) == [str(n) for n in range(1, 11)]
        assert 'name="vp_typed" min="0" max="20" step="1">' in form
        assert '<button class="button small" type="submit" name="vp_saved" value="0">Save</button>' in form
        assert re.findall(r'<input type="checkbox" name="leaders" value="(\w+)">', form) == NAMES[:count]
    assert f'<form id="mastery-{count}"' not in html
    # Each seat: its Base Camp and familiar terrain.
    for seat, colour in zip(seats, SPEROS_COLOURS, strict=False):
        terrain = {"green": "forest", "red": "mountain", "blue": "ocean", "black": "swamp"}[colour]
        assert f"Base Camp: 10 Minions and the General. Familiar terrain: {terrain}." in facts(html, seat)
        assert "No card captured yet." in facts(html, seat)
    # The finish form: the three Bonus Objective boxes per player, nothing else to count at the end.
    for seat in seats:
        for n in (1, 2, 3):
            assert re.search(
                rf'<label for="end-{seat}-bonus_{n}">Bonus Objective {n} VP</label>\s*<input '
                rf'id="end-{seat}-bonus_{n}" type="number"[^>]*name="end-{seat}-bonus_{n}"\s+value="0"',
                html,
            )
    assert html.count('<label for="end-') == 3 * count
    assert "<h2>At the end</h2>" in html and "Finish and score" in html
    assert "disabled" in html.split('id="undo"')[1].split("</form>")[0]


def test_unknown_play_is_404(client) -> None:
    assert client.get("/plays/999").status_code == 404
    assert client.post("/plays/999/actions", data={"action": "next_turn"}).status_code == 404


# Put a card into play -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_explore_deploys_a_minion_off_the_explorers_colour(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    # Two resource chips ticked: the same name twice.
    response = put_card(
        client, play_id, htmx, seat=ann, terrain="mountain", encampments=3, resources=["iron", "gold"], vp=4
    )
    state = saved(app, play_id)
    assert state["table"] == START_TABLE | {
        "next_card": 2,
        "cards": [
            {
                "id": 1,
                "terrain": "mountain",
                "encampments": 3,
                "vp": 4,
                "resources": ["iron", "gold"],
                "units": [[0, "minion"]],
                "captured_by": None,
            }
        ],
    }
    assert state["seats"] == [START_SEAT, START_SEAT] and state["changes"] == 1
    if not htmx:
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/plays/{play_id}")
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    else:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "<html" not in html
        # The action's own slot gets its message (none: it was saved); the rest comes out of band.
        assert html.split('<section id="scoreboard"')[0].strip() == ""
        assert notice(html) == (
            "Mountain card 1 (4 VP, iron and gold) is in the Skirmish Area. Ann deploys a Minion there."
        )
        assert '<section id="skirmish" class="card skirmish" hx-swap-oob="true">' in html
        assert '<p id="a-explore"' not in html, "the answering slot is the swap target, not redrawn"
        for slot in ("next_turn", "last_drawn", "skirmish", "mastery"):
            assert f'<p id="a-{slot}" class="error" role="alert" hx-swap-oob="true"></p>' in html
        assert 'id="put-card"' not in html, "the form a tap may be queued on is never redrawn"
        assert "disabled" not in html.split('id="undo"')[1].split("</form>")[0]
    item = card_item(html, 1)
    assert '<h3>Mountain card 1 <span class="muted small">4 VP · iron, gold · 3 encampments</span></h3>' in item
    assert (
        '<span class="dots" role="img" aria-label="1 of 3 encampments occupied"><span class="dot colour-green" '
        'title="Ann minion"></span><span class="dot empty"></span><span class="dot empty"></span></span>'
    ) in item
    assert (
        "Ann has the most units (1), but another player could fill the 2 empty encampments and reach 2, then win "
        "a tie as the most recent to place: no capture yet."
    ) in item
    assert capture_buttons(html) == []
    assert "Base Camp: 9 Minions and the General." in facts(html, ann)
    assert "Base Camp: 10 Minions and the General." in facts(html, bob)
    # A Minion on unfamiliar terrain: 1 VP now.
    assert re.search(r'Ann</span> <span class="points">1</span>\s*<span class="parts">Deployed Minions 1</span>', html)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_explore_on_the_explorers_own_colour_deploys_nothing(client, app, play_id: int, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    response = put_card(client, play_id, htmx, seat=ann, terrain="forest", encampments=2, resources=["crystal"], vp=2)
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1)["units"] == []
    if htmx:
        assert notice(response.get_data(as_text=True)) == (
            "Forest card 1 (2 VP, crystal) is in the Skirmish Area. It is Ann&#39;s own colour: no Minion is deployed."
        )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_explore_without_an_explorer(client, app, play_id: int, htmx: bool) -> None:
    """Setup or an ability: "nobody" in the explorer select sends an empty box, so no player and no Minion."""
    ann, _bob = seat_ids(client, play_id)
    response = put_card(client, play_id, htmx, seat="", terrain="ocean", encampments=4, resources=["gold"], vp=0)
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1) == {
        "id": 1,
        "terrain": "ocean",
        "encampments": 4,
        "vp": 0,
        "resources": ["gold"],
        "units": [],
        "captured_by": None,
    }
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    if htmx:
        assert notice(html) == "Ocean card 1 (0 VP, gold) is in the Skirmish Area."
    assert '<span class="dots" role="img" aria-label="0 of 4 encampments occupied">' in card_item(html, 1)
    assert "Base Camp: 10 Minions and the General." in facts(html, ann)
    # With nobody on it, the card says nothing about a capture.
    assert '<p class="small' not in card_item(html, 1)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_an_artifact_has_5_encampments_and_no_explorer_minion(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    # No encampment chip tapped, all three resources ticked, and Bob chosen: an Artifact is no Location.
    response = put_card(
        client, play_id, htmx, seat=bob, terrain="artifact", resources=["crystal", "iron", "gold"], vp=-3
    )
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1) == {
        "id": 1,
        "terrain": "artifact",
        "encampments": 5,
        "vp": -3,
        "resources": ["crystal", "iron", "gold"],
        "units": [],
        "captured_by": None,
    }
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert '<h3>Artifact 1 <span class="muted small">−3 VP · crystal, iron, gold · 5 encampments</span></h3>' in html
    assert '<li class="play-card terrain-artifact" id="card-1">' in html


REFUSED_CARDS = [
    pytest.param(
        {"terrain": "artifact", "encampments": 4, "resources": ["gold"], "vp": 2},
        "Every Artifact card features 5 Encampments, not 4.",
        id="a 4-encampment Artifact",
    ),
    pytest.param(
        {"terrain": "ocean", "encampments": 3, "resources": ["gold"], "vp": -1},
        "A Location&#39;s printed VP is 0 or more; only an Artifact&#39;s can be negative.",
        id="a Location with negative VP",
    ),
    pytest.param(
        {"encampments": 3, "resources": ["gold"], "vp": 1},
        "Which terrain does this card show (or is it an Artifact)?",
        id="no terrain tapped",
    ),
    pytest.param(
        {"terrain": "swamp", "resources": ["gold"], "vp": 1},
        "How many encampments does this Location show?",
        id="no encampments tapped",
    ),
    pytest.param(
        {"terrain": "swamp", "encampments": 2, "resources": [], "vp": 1},
        "Which resource does this card show?",
        id="no resource tapped",
    ),
    pytest.param(
        {"terrain": "swamp", "encampments": 2, "resources": ["gold"], "vp": ""},
        "What VP does this card show?",
        id="the VP box emptied",
    ),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("fields", "message"), REFUSED_CARDS)
def test_a_card_the_rules_refuse_is_asked_about(
    client, app, play_id: int, htmx: bool, fields: dict[str, Any], message: str
) -> None:
    """'Every Artifact card features 5 Encampments'; a chip not tapped is asked for, never guessed: 422, the
    message in the put-card form's slot (htmx) or at the top of the page, nothing saved."""
    _ann, bob = seat_ids(client, play_id)
    response = speros_act(client, play_id, htmx, action="explore", seat=bob, **fields)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if htmx:
        assert html.split("\n", 1)[0] == message
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
        # The page drawn again keeps the form as drawn: nothing ticked for the next try.
        assert " checked" not in html.split('<form id="put-card"')[1].split("</form>")[0]
    assert saved(app, play_id)["table"] == START_TABLE


def test_cards_are_numbered_in_the_order_they_come_into_play(client, app, play_id: int) -> None:
    for terrain in ("swamp", "artifact", "forest"):
        put_card(client, play_id, terrain=terrain)
    table = saved(app, play_id)["table"]
    assert [(c["id"], c["terrain"]) for c in table["cards"]] == [(1, "swamp"), (2, "artifact"), (3, "forest")]
    assert table["next_card"] == 4
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert re.findall(r"<h3>(\w+(?: card)? \d)", html) == ["Swamp card 1", "Artifact 2", "Forest card 3"]


# Units: deploy, remove, move ----------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_deploy_a_minion_and_the_general_from_the_buttons(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="forest", encampments=4, resources=["iron"], vp=3)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    # Every player has + Minion and + General on a card with room; nobody has − yet.
    for name in ("Ann", "Bob"):
        assert f'aria-label="{name}: deploy a Minion to Forest card 1">+ Minion</button>' in page
        assert f'aria-label="{name}: deploy the General to Forest card 1">+ General</button>' in page
    assert "− Minion" not in page
    minion = button_form(page, "Ann: deploy a Minion to Forest card 1")
    assert minion == {"action": "deploy", "slot": "skirmish", "seat": str(ann), "card": "1"}
    general = button_form(page, "Ann: deploy the General to Forest card 1")
    assert general == {"action": "deploy", "slot": "skirmish", "seat": str(ann), "card": "1", "kind": "general"}
    first = post_speros(client, htmx, f"/plays/{play_id}/actions", minion)
    second = post_speros(client, htmx, f"/plays/{play_id}/actions", general)
    third = post_speros(
        client, htmx, f"/plays/{play_id}/actions", button_form(page, "Bob: deploy a Minion to Forest card 1")
    )
    for response in (first, second, third):
        assert response.status_code == (200 if htmx else 303)
    # Units in the order they were placed, each as [seat, kind].
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [0, "general"], [1, "minion"]]
    assert saved(app, play_id)["changes"] == 4
    if htmx:
        assert notice(first.get_data(as_text=True)) == "Ann deploys a Minion to Forest card 1."
        html = second.get_data(as_text=True)
        # Two units of four: another player filling the two empty encampments would win the tie.
        assert notice(html) == "Ann deploys a General to Forest card 1."
        html = third.get_data(as_text=True)
        assert notice(html) == "Bob deploys a Minion to Forest card 1."
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    item = card_item(html, 1)
    assert (
        '<span class="dot colour-green" title="Ann minion"></span><span class="dot colour-green general" '
        'title="Ann general"></span><span class="dot colour-red" title="Bob minion"></span><span class="dot '
        'empty"></span>'
    ) in item
    # Ann's General is out: no + General for her any more, but − General and − Minion.
    assert 'aria-label="Ann: deploy the General to Forest card 1"' not in item
    assert 'aria-label="Ann: a general from Forest card 1 back to Base Camp">− General</button>' in item
    assert 'aria-label="Ann: a minion from Forest card 1 back to Base Camp">− Minion</button>' in item
    assert "Base Camp: 9 Minions. Familiar terrain: forest." in facts(html, ann)
    assert "Base Camp: 9 Minions and the General." in facts(html, bob)
    # Ann: Minion 2 + General 3 on familiar Forest; Bob: 1 on unfamiliar terrain.
    assert re.search(
        r'Ann</span> <span class="points">5</span>\s*<span class="parts">Deployed Minions 2 · Deployed '
        r"General 3</span>",
        html,
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_full_card_offers_no_deploy(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="swamp", encampments=2)
    speros_act(client, play_id, action="deploy", seat=ann, card=1)
    response = speros_act(client, play_id, htmx, action="deploy", seat=bob, card=1)
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    item = card_item(html, 1)
    assert "+ Minion" not in item and "+ General" not in item
    assert (
        "All 2 encampments are occupied and Ann and Bob tie with 1 unit each: Bob placed a unit there most "
        "recently and captures it (rule of ties)."
    ) in item
    assert capture_buttons(html) == ["Bob"]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_remove_sends_a_unit_back_to_base_camp(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="ocean", encampments=5)
    for seat, kind in ((ann, "minion"), (bob, "minion"), (ann, "general"), (ann, "minion")):
        speros_act(client, play_id, action="deploy", seat=seat, card=1, kind=kind)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    tap = button_form(page, "Ann: a minion from Ocean card 1 back to Base Camp")
    assert tap == {"action": "remove", "slot": "skirmish", "seat": str(ann), "card": "1", "kind": "minion"}
    response = post_speros(client, htmx, f"/plays/{play_id}/actions", tap)
    assert response.status_code == (200 if htmx else 303)
    # Ann's most recent Minion goes; the others keep their order.
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [1, "minion"], [0, "general"]]
    general = button_form(page, "Ann: a general from Ocean card 1 back to Base Camp")
    response = post_speros(client, htmx, f"/plays/{play_id}/actions", general)
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [1, "minion"]]
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Ann&#39;s General leaves Ocean card 1 for the Base Camp."
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Base Camp: 9 Minions and the General." in facts(html, ann)
    assert 'aria-label="Ann: deploy the General to Ocean card 1">+ General</button>' in card_item(html, 1)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_move_a_unit_to_another_card(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=bob, terrain="forest", encampments=3)  # Bob's Minion on it
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Move a unit (an ability)" not in page, "one card: nowhere to move to"
    put_card(client, play_id, terrain="mountain", encampments=2)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    item = card_item(page, 1)
    assert "<summary>Move a unit (an ability)</summary>" in item
    assert "Move a unit" not in card_item(page, 2), "no unit on card 2 to move"
    move = item.split('<details class="move">')[1]
    assert '<input type="hidden" name="card" value="1">' in move
    assert re.findall(r'<select name="seat">(.*?)</select>', move, re.DOTALL)[0].count("<option") == 2
    assert '<select name="to"><option value="2">Mountain card 2</option></select>' in move
    response = speros_act(client, play_id, htmx, action="move", seat=bob, card=1, kind="minion", to=2)
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1)["units"] == [] and card(app, play_id, 2)["units"] == [[1, "minion"]]
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Bob moves a Minion from Forest card 1 to Mountain card 2."
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    # Bob's Minion now stands on his own colour: 2 VP.
    assert re.search(r'Bob</span> <span class="points">2</span>\s*<span class="parts">Deployed Minions 2</span>', html)


# Captures -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_capture_button_only_for_the_player_who_may(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=ann, terrain="mountain", encampments=3, resources=["iron"], vp=4)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert capture_buttons(html) == []
    # A second unit: Ann demonstrates majority on 3 encampments; the button is hers alone.
    response = speros_act(client, play_id, True, action="deploy", seat=ann, card=1)
    assert notice(response.get_data(as_text=True)) == (
        "Ann deploys a Minion to Mountain card 1. Ann may capture Mountain card 1: Ann has 2 units; even if the 1 "
        "empty encampment were filled by another player, they could reach only 1: Ann demonstrates majority."
    )
    assert capture_buttons(response.get_data(as_text=True)) == ["Ann"]
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert capture_buttons(page) == ["Ann"]
    assert (
        '<p class="small capturable">Ann has 2 units; even if the 1 empty encampment were filled by another player,'
        " they could reach only 1: Ann demonstrates majority.</p>"
    ) in card_item(page, 1)
    assert (
        "<li>Ann may capture Mountain card 1: Ann has 2 units; even if the 1 empty encampment were filled by "
        "another player, they could reach only 1: Ann demonstrates majority.</li>"
    ) in page
    tap = button_form(page, "Ann captures it")
    assert tap == {"action": "capture", "slot": "skirmish", "seat": str(ann), "card": "1"}
    response = post_speros(client, htmx, f"/plays/{play_id}/actions", tap)
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1) == {
        "id": 1,
        "terrain": "mountain",
        "encampments": 3,
        "vp": 4,
        "resources": ["iron"],
        "units": [[0, "minion"], [0, "minion"]],
        "captured_by": 0,
    }
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Ann captures Mountain card 1 (demonstrate majority)."
    else:
        html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    # Out of the Skirmish Area, into Ann's Captured Area: units stay on it and still score.
    assert card_item(html, 1) is None
    assert "No card in play" in skirmish(html)
    assert capture_buttons(html) == []
    assert (
        '<ul class="captured small"><li id="captured-1">Mountain card 1: 4 VP, iron · <span class="dots" '
        'role="img" aria-label="2 of 3 '
        'encampments occupied">'
    ) in facts(html, ann)
    assert "No card captured yet." in facts(html, bob)
    assert re.search(
        r'Ann</span> <span class="points">6</span>\s*<span class="parts">Captured cards 4 · Deployed '
        r"Minions 2</span>",
        html,
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_capturing_an_artifact_sends_the_others_home_and_locks_the_capturers_units(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    ann, bob, cy = seat_ids(client, play)
    put_card(client, play, terrain="artifact", resources=["gold"], vp=5)
    for seat in (bob, ann, ann, cy):
        speros_act(client, play, action="deploy", seat=seat, card=1)
    speros_act(client, play, action="deploy", seat=ann, card=1, kind="general")
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    assert capture_buttons(page) == ["Ann"]
    response = post_speros(client, htmx, f"/plays/{play}/actions", button_form(page, "Ann captures it"))
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play, 1) == {
        "id": 1,
        "terrain": "artifact",
        "encampments": 5,
        "vp": 5,
        "resources": ["gold"],
        "units": [[0, "minion"], [0, "minion"], [0, "general"]],
        "captured_by": 0,
        "locked": True,
    }
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == (
            "Ann captures Artifact 1 (achieve majority). Ann&#39;s units on it are locked on; Bob "
            "and Cy&#39;s go back to their Base Camp."
        )
    else:
        html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "Base Camp: 10 Minions and the General." in facts(html, bob)
    assert "Base Camp: 10 Minions and the General." in facts(html, cy)
    assert "Base Camp: 8 Minions. Familiar terrain: forest." in facts(html, ann)
    assert " · units locked on</li>" in facts(html, ann)
    # Units on an Artifact are unfamiliar: 2 × 1 + General 2.
    assert re.search(
        r'Ann</span> <span class="points">9</span>\s*<span class="parts">Captured cards 5 · Deployed '
        r"Minions 2 · Deployed General 2</span>",
        html,
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_no_more_artifacts_come_into_play_than_there_are_players(client, app, play_id: int, htmx: bool) -> None:
    """Setup step 4: as many Artifacts as players in the Skirmish Area; the rest go back in the box."""
    put_card(client, play_id, terrain="artifact")
    put_card(client, play_id, terrain="artifact")
    before = saved(app, play_id)
    response = put_card(client, play_id, htmx, terrain="artifact")
    html = response.get_data(as_text=True)
    message = "Setup places 2 Artifacts, one per player; the rest stay in the box."
    assert response.status_code == 422
    if htmx:
        assert html.lstrip().startswith(message + "\n")
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
    assert saved(app, play_id) == before
    # A Location still comes into play.
    assert put_card(client, play_id, terrain="swamp").status_code == 303


# The turn -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_next_turn(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    response = speros_act(client, play, htmx, action="next_turn")
    assert saved(app, play)["table"]["turn"] == 2
    assert saved(app, play)["changes"] == 1
    turns = ("Cy&#39;s turn.", "Ann&#39;s turn.")
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert notice(html) == "Bob&#39;s turn."
        assert '<h2 id="turn-title" hx-swap-oob="true">Bob\'s turn</h2>' in html
        assert '<p id="a-next_turn"' not in html
        assert '<p id="a-explore" class="error" role="alert" hx-swap-oob="true"></p>' in html
    else:
        assert response.status_code == 303
        html = client.get(f"/plays/{play}").get_data(as_text=True)
        assert '<h2 id="turn-title">Bob\'s turn</h2>' in html
        # The put-card form of a fresh page explores for the player whose turn it is: Bob, on a Forest card he taps.
        # His Explore is his turn's action: the turn passes to Cy.
        form = put_card_defaults(html) | {"terrain": "forest", "encampments": "3", "resources": ["iron"], "vp": "1"}
        assert notice(post_speros(client, True, f"/plays/{play}/actions", form).get_data(as_text=True)) == (
            "Forest card 1 (1 VP, iron) is in the Skirmish Area. Bob deploys a Minion there. Cy&#39;s turn."
        )
        turns = ("Ann&#39;s turn.",)
    for expected in turns:
        assert notice(speros_act(client, play, True, action="next_turn").get_data(as_text=True)) == expected
    assert saved(app, play)["table"]["turn"] == 4


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_last_location_card_drawn_then_the_last_turns(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    speros_act(client, play, action="next_turn")  # Bob draws the last Location card during his turn
    response = speros_act(client, play, htmx, action="last_drawn", drawn="true")
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play)["table"]["last_drawn"] == 2
    warning = (
        '<li class="warn"><strong>Warning:</strong> The last Location card is drawn. Bob finishes, then Cy and '
        "Ann take one more turn each.</li>"
    )
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "The last Location card is drawn. Bob finishes, then Cy and Ann take one more turn each."
        assert (
            '<p id="countdown" class="end-note" hx-swap-oob="true"><strong>Last card drawn:</strong> Bob finishes, '
            "then Cy and Ann take one more turn each.</p>"
        ) in html
    else:
        html = client.get(f"/plays/{play}").get_data(as_text=True)
        assert (
            '<p id="countdown" class="end-note"><strong>Last card drawn:</strong> Bob finishes, then Cy and Ann '
            "take one more turn each.</p>"
        ) in html
    assert warning in html
    html = speros_act(client, play, True, action="next_turn").get_data(as_text=True)
    assert "Cy finishes, then Ann takes one more turn." in html
    html = speros_act(client, play, True, action="next_turn").get_data(as_text=True)
    assert notice(html) == "Ann&#39;s turn."
    assert "<strong>Last card drawn:</strong> Ann takes the last turn; then score." in html
    # Ann's Next turn ends her final turn and the game: the countdown gives way to the end.
    response = speros_act(client, play, htmx, action="next_turn")
    assert response.status_code == (200 if htmx else 303)
    reason = (
        "Ann&#39;s final turn is over: the last Location card was drawn and each other player has taken one "
        "final turn. The game has ended."
    )
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play}").get_data(as_text=True)
    oob = ' hx-swap-oob="true"' if htmx else ""
    if htmx:
        assert notice(html) == reason
    assert f'<h2 id="turn-title"{oob}>The game is over</h2>' in html
    assert (
        f'<p id="countdown" class="end-note over"{oob}><strong>Game over:</strong> {reason} Enter the Bonus '
        "Objectives, then finish and score.</p>"
    ) in html
    assert "Last card drawn:" not in html and "takes one more turn" not in html
    assert f'<li class="warn"><strong>Warning:</strong> {reason}</li>' in html
    assert saved(app, play)["table"]["turn"] == 4
    # Another Next turn is refused, with why.
    before = saved(app, play)
    response = speros_act(client, play, htmx, action="next_turn")
    html = response.get_data(as_text=True)
    message = f"{reason} {AFTER_THE_END}"
    assert response.status_code == 422
    assert ("<html" in html) is not htmx
    if htmx:
        assert html.lstrip().startswith(message + "\n")
        assert '<p id="a-next_turn"' not in html
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
    assert saved(app, play) == before


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_last_card_is_drawn_once(client, app, htmx: bool) -> None:
    """'When a player draws the last card from the shared Location deck, that player finishes his or her turn and
    then each other player takes one final turn': a second tap (another device, a turn later) is refused, and the
    countdown goes on as it was."""
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    speros_act(client, play, action="last_drawn", drawn="true")
    speros_act(client, play, action="next_turn")
    before = saved(app, play)
    response = speros_act(client, play, htmx, action="last_drawn", drawn="true")
    assert response.status_code == 422
    message = (
        "The last Location card was already drawn, in turn 1 (Ann&#39;s): the deck has one last card, and the "
        "final turns go on as counted from there."
    )
    html = response.get_data(as_text=True)
    if htmx:
        assert html.split("\n", 1)[0] == message
        assert '<p id="a-last_drawn"' not in html
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
    assert "<strong>Last card drawn:</strong> Bob finishes, then Cy takes one more turn." in html
    assert saved(app, play) == before


def test_the_last_card_mark_can_be_taken_off(client, app, play_id: int) -> None:
    speros_act(client, play_id, action="last_drawn", drawn="true")
    html = speros_act(client, play_id, True, action="last_drawn", drawn="false").get_data(as_text=True)
    assert notice(html) == "The last-card mark is taken off."
    assert '<p id="countdown" class="end-note" hx-swap-oob="true"></p>' in html
    assert saved(app, play_id)["table"]["last_drawn"] is None


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_turn_started_with_an_empty_base_camp_ends_the_game(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    # Bob's eleven units go out on Ann's turn (abilities, say): his own turn starts with none in Base Camp.
    for _ in (1, 2):
        put_card(client, play_id, terrain="swamp", encampments=6)
    for n in range(10):
        speros_act(client, play_id, action="deploy", seat=bob, card=1 + n // 6)
    speros_act(client, play_id, action="deploy", seat=bob, card=2, kind="general")
    html = speros_act(client, play_id, True, action="next_turn").get_data(as_text=True)
    reason = "Bob starts the turn with no units in Base Camp: the game ends at once."
    assert notice(html) == f"Bob&#39;s turn. {reason.replace(chr(39), '&#39;')}"
    assert f'<li class="warn"><strong>Warning:</strong> {reason.replace(chr(39), "&#39;")}</li>' in html
    before = saved(app, play_id)
    response = speros_act(client, play_id, htmx, action="next_turn")
    assert response.status_code == 422
    assert f"{reason} {AFTER_THE_END}".replace("'", "&#39;") in response.get_data(as_text=True)
    assert saved(app, play_id) == before


def ended_at_once(client, play_id: int) -> tuple[int, int]:
    """Ann captures a 2-space Forest with a Minion of Bob's on it; Bob's other 10 units go out on Swamp cards; his
    turn starts with an empty Base Camp and the game ends at once. Ann's and Bob's seat ids."""
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="forest", encampments=3)
    for seat in (ann, ann, bob):
        speros_act(client, play_id, action="deploy", seat=seat, card=1)
    assert speros_act(client, play_id, action="capture", seat=ann, card=1).status_code == 303
    for _ in (2, 3):
        put_card(client, play_id, terrain="swamp", encampments=6)
    for n in range(9):
        speros_act(client, play_id, action="deploy", seat=bob, card=2 + n // 6)
    speros_act(client, play_id, action="deploy", seat=bob, card=3, kind="general")
    assert notice(speros_act(client, play_id, True, action="next_turn").get_data(as_text=True)).endswith(
        "the game ends at once."
    )
    return ann, bob


STRAY_TAPS = [
    pytest.param(
        {"action": "explore", "terrain": "ocean", "encampments": 3, "resources": ["iron"], "vp": 2},
        "explore",
        id="Put a card into play",
    ),
    pytest.param({"action": "deploy", "card": 2, "who": "ann"}, "skirmish", id="+ Minion"),
    pytest.param({"action": "deploy", "card": 2, "kind": "general", "who": "ann"}, "skirmish", id="+ General"),
    pytest.param({"action": "remove", "card": 2, "who": "bob"}, "skirmish", id="− Minion"),
    pytest.param({"action": "move", "card": 1, "to": 2, "who": "bob"}, "captured", id="Move a unit"),
    pytest.param({"action": "capture", "card": 2, "who": "bob"}, "skirmish", id="X captures it"),
    pytest.param({"action": "last_drawn", "drawn": "true"}, "last_drawn", id="Last Location card drawn"),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("fields", "slot"), STRAY_TAPS)
def test_a_stray_tap_after_the_end_is_refused(
    client, app, play_id: int, htmx: bool, fields: dict[str, Any], slot: str
) -> None:
    """'If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends': a tap
    on the board afterwards is a 422 with why, beside the button it came from, and the final score stays."""
    ann, bob = ended_at_once(client, play_id)
    fields = dict(fields)
    who = fields.pop("who", None)
    if who:
        fields["seat"] = ann if who == "ann" else bob
    if slot == "captured":
        slot = f"captured-{ann}"
    before = saved(app, play_id)
    response = speros_act(client, play_id, htmx, slot=slot, **fields)
    assert response.status_code == 422
    reason = "Bob starts the turn with no units in Base Camp: the game ends at once."
    message = f"{reason} {AFTER_THE_END}"
    html = response.get_data(as_text=True)
    if htmx:
        assert html.split("\n", 1)[0] == message
        assert f'<p id="a-{slot}"' not in html
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
    assert saved(app, play_id) == before


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_after_the_end_the_board_offers_no_taps_but_scoring_goes_on(client, app, play_id: int, htmx: bool) -> None:
    """Once over, the Skirmish Area and the Captured Areas show the units as they stand, without their buttons; the
    Bonus Objectives and the Mastery Objectives are still taken, and Finish scores."""
    ann, bob = ended_at_once(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert '<h2 id="turn-title">The game is over</h2>' in html
    for marker in ("deploy-", "remove-", "capture-", 'class="move"'):
        assert marker not in skirmish(html) and marker not in facts(html, ann), marker
    assert '<span class="dots" role="img" aria-label="3 of 3 encampments occupied">' in facts(html, ann)
    response = post_speros(client, htmx, f"/plays/{play_id}/seats/{bob}", {"field": "bonus_2", "delta": "4"})
    assert response.status_code == (200 if htmx else 303), response.get_data(as_text=True)
    response = speros_act(client, play_id, htmx, action="mastery", number=1, vp=5, leaders=["Bob"])
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][1]["bonus_2"] == 4
    assert objectives(saved(app, play_id)["table"]) == [{"vp": 5, "leaders": ["Bob"]}]
    response = client.post(f"/plays/{play_id}/finish", data={})
    assert response.status_code in (200, 303), response.get_data(as_text=True)
    assert saved(app, play_id)["status"] == FINISHED


def test_emptying_your_base_camp_during_your_turn_does_not_end_the_game(client, app, play_id: int) -> None:
    """'If a player starts his or her turn with no Units in his or her Base Camp, the game immediately ends.'"""
    ann, _bob = seat_ids(client, play_id)
    for _ in (1, 2):
        put_card(client, play_id, terrain="swamp", encampments=6)
    for n in range(10):
        speros_act(client, play_id, action="deploy", seat=ann, card=1 + n // 6)
    # Ann's last unit goes out during her turn: Bob still plays, and the game ends only if Ann starts a turn so.
    speros_act(client, play_id, action="deploy", seat=ann, card=2, kind="general")
    assert "the game ends at once" not in client.get(f"/plays/{play_id}").get_data(as_text=True)
    response = speros_act(client, play_id, True, action="next_turn")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert notice(response.get_data(as_text=True)) == "Bob&#39;s turn."
    # Nothing comes back to Ann's Base Camp: her next turn starts with none, and the game ends there.
    html = speros_act(client, play_id, True, action="next_turn").get_data(as_text=True)
    assert notice(html) == "Ann&#39;s turn. Ann starts the turn with no units in Base Camp: the game ends at once."
    ended = "Ann starts the turn with no units in Base Camp: the game ends at once."
    assert saved(app, play_id)["table"]["ended"] == ended


def test_after_an_htmx_next_turn_the_put_card_form_explores_for_the_new_player(client, app, play_id: int) -> None:
    """The form as the browser holds it: loaded once, then only changed by out-of-band swaps."""
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    form = put_card_defaults(page)
    fragment = speros_act(client, play_id, True, action="next_turn").get_data(as_text=True)
    assert 'id="put-card"' not in fragment, "the form a tap may be queued on is never redrawn whole"
    form |= swapped_into_put_card(page, fragment)
    # Bob's turn: he puts a Mountain card, his own colour, into play with the form as it stands.
    form |= {"terrain": "mountain", "encampments": "3", "resources": ["gold"], "vp": "1"}
    assert post_speros(client, True, f"/plays/{play_id}/actions", form).status_code == 200
    assert card(app, play_id, 1)["units"] == [], "Bob's own colour: no Minion, and surely not Ann's"


# Mastery Objectives -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_mastery_objective_with_several_leaders(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    response = speros_act(client, play, htmx, action="mastery", number=2, vp=7, leaders=["Ann", "Cy"])
    assert response.status_code == (200 if htmx else 303)
    # Slot 1 is kept empty (0 VP, nobody) so the second is the second.
    assert objectives(saved(app, play)["table"]) == [{"vp": 0, "leaders": []}, {"vp": 7, "leaders": ["Ann", "Cy"]}]
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == "Mastery Objective 2: 7 VP, best met by Ann and Cy."
        assert '<p id="a-mastery"' not in html
        assert 'id="mastery-2"' not in html, "the forms are never redrawn"
    else:
        html = client.get(f"/plays/{play}").get_data(as_text=True)
        # The page draws the saved objective back into its form.
        form = html.split('<form id="mastery-2"')[1].split("</form>")[0]
        assert 'name="vp" value="7" aria-pressed="true">7</button>' in form
        assert re.findall(r'name="leaders" value="(\w+)" checked', form) == ["Ann", "Cy"]
    # Split evenly, rounded down: 3 each.
    assert re.search(
        r'Ann</span> <span class="points">3</span>\s*<span class="parts">Mastery Objectives 3</span>', html
    )
    assert re.search(r'Cy</span> <span class="points">3</span>', html)
    # Corrected: one box ticked comes as a single value; none ticked, nobody.
    speros_act(client, play, action="mastery", number=2, vp=7, leaders="Bob")
    assert objectives(saved(app, play)["table"])[1] == {"vp": 7, "leaders": ["Bob"]}
    html = speros_act(client, play, True, action="mastery", number=1, vp=4).get_data(as_text=True)
    assert notice(html) == "Mastery Objective 1: 4 VP, best met by nobody."


# Refusals -----------------------------------------------------------------------------------------------------


@pytest.fixture
def busy_play(client) -> int:
    """Ann's first turn, five cards in play (set up through the API, the same records path):

    1 Mountain, 2 encampments: Ann's Minion and General, captured by Ann.
    2 Forest, 2 encampments: full of Bob's Minions; Bob may capture it.
    3 Swamp and 4 Ocean, 8 encampments each (the API takes up to 12): 4 of Bob's Minions on each, no capture yet.
    Bob has no Minion left, only his General.
    5 Artifact: 3 of Ann's Minions, captured by Ann, locked. Ann has 6 Minions left and no General.
    """
    play = api_start(client)["id"]
    cards = [
        ("mountain", 2, "crystal", 3),
        ("forest", 2, "iron", 2),
        ("swamp", 8, "gold", 1),
        ("ocean", 8, "gold", 1),
        ("artifact", 5, "iron", 4),
    ]
    for terrain, encampments, resource, vp in cards:
        api_act(
            client,
            play,
            {"action": "explore", "terrain": terrain, "encampments": encampments, "vp": vp, "resources": [resource]},
        )
    deploys = [
        ("Ann", 1, "minion"),
        ("Ann", 1, "general"),
        *[("Bob", 2, "minion")] * 2,
        *[("Bob", 3, "minion")] * 4,
        *[("Bob", 4, "minion")] * 4,
        *[("Ann", 5, "minion")] * 3,
    ]
    for name, number, kind in deploys:
        api_act(client, play, {"action": "deploy", "player": name, "card": number, "kind": kind})
    api_act(client, play, {"action": "capture", "player": "Ann", "card": 1})
    api_act(client, play, {"action": "capture", "player": "Ann", "card": 5})
    return play


BAD_ACTIONS = [
    (
        "no resource ticked",
        {"action": "explore", "terrain": "mountain", "encampments": "3", "vp": "2", "seat": "ann"},
        "Which resource does this card show?",
    ),
    (
        "the same resource twice",
        {"action": "explore", "terrain": "mountain", "encampments": "3", "vp": "2", "resources": ["iron", "iron"]},
        "List each resource at most once.",
    ),
    (
        "a terrain not the game's",
        {"action": "explore", "terrain": "desert", "encampments": "3", "vp": "2", "resources": "iron"},
        "Must be one of &#39;forest&#39;, &#39;mountain&#39;, &#39;ocean&#39;, &#39;swamp&#39; or &#39;artifact&#39;.",
    ),
    (
        "a VP past the select",
        {"action": "explore", "terrain": "swamp", "encampments": "3", "vp": "21", "resources": "iron"},
        "Must be at most 20.",
    ),
    ("a full card", {"action": "deploy", "seat": "ann", "card": "2"}, "Forest card 2 has no unoccupied encampment."),
    (
        "a captured card",
        {"action": "deploy", "seat": "bob", "card": "1", "kind": "general"},
        "Mountain card 1 is in Ann&#39;s Captured Area: no unit can be deployed there.",
    ),
    (
        "a captured card captured again",
        {"action": "capture", "seat": "ann", "card": "1"},
        "Ann can&#39;t capture Mountain card 1: Captured by Ann.",
    ),
    (
        "the wrong capturer",
        {"action": "capture", "seat": "ann", "card": "2"},
        (
            "Ann can&#39;t capture Forest card 2: All 2 encampments are occupied and Bob has the most units (2): Bob "
            "achieves majority."
        ),
    ),
    (
        "a capture nobody may make yet",
        {"action": "capture", "seat": "bob", "card": "4"},
        (
            "Bob can&#39;t capture Ocean card 4: Bob has the most units (4), but another player could fill the 4 empty "
            "encampments and reach 4, then win a tie as the most recent to place: no capture yet."
        ),
    ),
    (
        "no Minion left in Base Camp",
        {"action": "deploy", "seat": "bob", "card": "3"},
        "Bob has no Minion left in Base Camp.",
    ),
    (
        "the General already out",
        {"action": "deploy", "seat": "ann", "card": "3", "kind": "general"},
        "Ann has no General left in Base Camp.",
    ),
    (
        "a unit that is not there",
        {"action": "remove", "seat": "ann", "card": "2"},
        "Ann has no Minion on Forest card 2.",
    ),
    (
        "a unit locked on a captured Artifact",
        {"action": "remove", "seat": "ann", "card": "5"},
        "The units on Artifact 5 are locked on: it is a captured Artifact.",
    ),
    (
        "a move off a captured Artifact",
        {"action": "move", "seat": "ann", "card": "5", "to": "3"},
        "The units on Artifact 5 are locked on: it is a captured Artifact.",
    ),
    (
        "a move to a full card",
        {"action": "move", "seat": "bob", "card": "3", "to": "2"},
        "Forest card 2 has no unoccupied encampment.",
    ),
    (
        "a move onto a captured Artifact",
        {"action": "move", "seat": "bob", "card": "3", "to": "5"},
        "Artifact 5 is a captured Artifact: its units are locked on and no unit may be added.",
    ),
    (
        "a card not in play",
        {"action": "deploy", "seat": "bob", "card": "9", "kind": "general"},
        "There is no card 9 in play.",
    ),
    (
        "a unit that is neither",
        {"action": "deploy", "seat": "bob", "card": "3", "kind": "dragon"},
        "Must be one of &#39;minion&#39; or &#39;general&#39;.",
    ),
    ("a deploy for nobody", {"action": "deploy", "card": "3"}, "Say which player this is for."),
    (
        "the next turn for a player",
        {"action": "next_turn", "seat": "ann"},
        "Next turn is for the whole table: give no player.",
    ),
    (
        "a Mastery leader not playing",
        {"action": "mastery", "number": "1", "vp": "5", "leaders": ["Ann", "Zed"]},
        "Zed is not playing.",
    ),
    ("a Mastery Objective worth 21", {"action": "mastery", "number": "1", "vp": "21"}, "Must be at most 20."),
    (
        "a second Mastery Objective with two players",
        {"action": "mastery", "number": "2", "vp": "3"},
        "With 2 players, 1 Mastery Objective is dealt.",
    ),
    (
        "an unknown action",
        {"action": "dance"},
        (
            "Unknown action &#39;dance&#39;; Conquest of Speros knows add, attack, capture, deploy, explore, last_drawn, "
            "lead, mastery, move, next_turn, remove, set."
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
    assert before["changes"] == 22
    data = {
        key: {"ann": ann, "bob": bob}.get(value, value) if isinstance(value, str) else value
        for key, value in form.items()
    }
    response = speros_act(client, busy_play, htmx, **data)
    html = answered(response, htmx, 422)
    if htmx:
        # The message comes first: it lands in the slot beside the button that was pressed, which stays as it is.
        assert html.lstrip().startswith(message + "\n")
        slot = SLOTS.get(data["action"], data["action"])
        assert f'<p id="a-{slot}"' not in html
        # Everything live is sent again as saved.
        assert notice(html) == ""
        assert "Base Camp: 6 Minions. Familiar terrain: forest." in facts(html, ann)
        assert "Base Camp: 0 Minions and the General." in facts(html, bob)
    else:
        assert f'<p class="error" role="alert">{message}</p>' in html
        assert "Base Camp: 0 Minions and the General." in facts(html, bob)
    assert saved(app, busy_play) == before


def test_busy_play_as_the_page_draws_it(client, busy_play: int) -> None:
    ann, _bob = seat_ids(client, busy_play)
    html = client.get(f"/plays/{busy_play}").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'<li class="play-card terrain-\w+" id="card-(\d)">', html)] == [2, 3, 4]
    # Only Bob may capture, only card 2; Bob's rows have no + Minion (none left) but + General where there's room.
    assert capture_buttons(html) == ["Bob"]
    assert "Bob: deploy a Minion" not in html
    assert 'aria-label="Bob: deploy the General to Swamp card 3"' in html
    assert 'aria-label="Ann: deploy a Minion to Swamp card 3"' in html and "Ann: deploy the General" not in html
    assert '<li id="captured-1">Mountain card 1: 3 VP, crystal · ' in facts(html, ann)
    assert '<li id="captured-5">Artifact 5: 4 VP, iron · ' in facts(html, ann)
    assert " · units locked on</li>" in facts(html, ann)


def test_action_for_a_seat_of_another_play_is_404(client, app, play_id: int) -> None:
    other = start_speros(client, ["Cy", "Di"])
    cy, _di = seat_ids(client, other)
    put_card(client, play_id)
    before = (saved(app, play_id), saved(app, other))
    for htmx in (False, True):
        response = speros_act(client, play_id, htmx, action="deploy", seat=cy, card=1)
        assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#flash"
    assert "That player is not in this play." in response.get_data(as_text=True)
    assert (saved(app, play_id), saved(app, other)) == before


# Undo ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_a_capture(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    ann, bob, cy = seat_ids(client, play)
    put_card(client, play, terrain="artifact", resources=["crystal"], vp=3)
    for seat in (bob, ann, ann, cy, ann):
        speros_act(client, play, action="deploy", seat=seat, card=1)
    before_capture = saved(app, play)
    speros_act(client, play, action="capture", seat=ann, card=1)
    assert card(app, play, 1)["locked"] is True
    response = post_speros(client, htmx, f"/plays/{play}/undo")
    assert response.status_code == (200 if htmx else 303)
    # The capture and all it caused go back together: the card in play, unlocked, Bob's and Cy's units on it again.
    after = saved(app, play)
    assert after["table"] == before_capture["table"]
    assert after["changes"] == before_capture["changes"] + 2  # the capture and its undo, both out of the next undo
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == (
            "Took back: Ann captures Artifact 1 (achieve majority) (Ann&#39;s units on it are "
            "locked on; Bob and Cy&#39;s go back to their Base Camp)."
        )
    else:
        assert response.headers["Location"].endswith(f"/plays/{play}")
        html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert capture_buttons(html) == ["Ann"]
    assert "Base Camp: 9 Minions and the General." in facts(html, bob)
    assert "No card captured yet." in facts(html, ann)
    # The capture can be made again.
    assert speros_act(client, play, action="capture", seat=ann, card=1).status_code == 303
    assert card(app, play, 1)["captured_by"] == 0


def test_undo_goes_back_one_action_at_a_time(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=ann, terrain="mountain")
    speros_act(client, play_id, action="next_turn")
    html = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(html) == "Took back: Next turn (Bob&#39;s turn)."
    assert '<h2 id="turn-title" hx-swap-oob="true">Ann\'s turn</h2>' in html
    html = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(html) == (
        "Took back: Ann puts Mountain card 1 into play (3 encampments, iron, 1 VP) (Mountain card 1 (1 VP, iron) is in "
        "the Skirmish Area. Ann deploys a Minion there)."
    )
    assert saved(app, play_id)["table"] == START_TABLE
    html = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert notice(html) == "Nothing left to take back."
    assert "disabled" in html.split('id="undo"')[1].split("</form>")[0]


# The regular refresh ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_live_values_bring_other_devices_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    other = csrf_client(app)
    other.post(
        f"/plays/{play_id}/actions",
        data=form_data(
            {"action": "explore", "terrain": "ocean", "encampments": "2", "vp": "3", "resources": ["gold"], "seat": ann}
        ),
    )
    other.post(f"/plays/{play_id}/actions", data={"action": "deploy", "seat": str(ann), "card": "1"})
    other.post(f"/plays/{play_id}/actions", data={"action": "next_turn"})
    response = live(client, play_id, htmx)
    html = answered(response, htmx, 200)
    assert re.search(r'<h2 id="turn-title"[^>]*>Bob\'s turn</h2>', html)
    assert capture_buttons(html) == ["Ann"]
    assert "Base Camp: 8 Minions and the General." in facts(html, ann)
    assert "Base Camp: 10 Minions and the General." in facts(html, bob)
    if htmx:
        # The regular refresh leaves the notice as it was.
        assert notice(html) is None


@pytest.mark.parametrize(
    "route", ["explore", "deploy", "capture", "refused action", "next turn", "mastery", "undo", "live"]
)
def test_every_out_of_band_piece_has_its_place_on_the_page(client, play_id: int, route: str) -> None:
    """htmx drops (and logs an error for) an out-of-band piece whose id the page doesn't have."""
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=ann, terrain="mountain", encampments=2)
    ids_on_page = page_ids(client, play_id)
    if route == "explore":
        response = put_card(client, play_id, True, seat=bob, terrain="forest")
    elif route == "deploy":
        response = speros_act(client, play_id, True, action="deploy", seat=ann, card=1)
    elif route == "capture":
        speros_act(client, play_id, action="deploy", seat=ann, card=1)
        ids_on_page = page_ids(client, play_id)
        response = speros_act(client, play_id, True, action="capture", seat=ann, card=1)
    elif route == "refused action":
        response = speros_act(client, play_id, True, action="capture", seat=bob, card=1)
    elif route == "next turn":
        response = speros_act(client, play_id, True, action="next_turn")
    elif route == "mastery":
        response = speros_act(client, play_id, True, action="mastery", number=1, vp=3, leaders=["Ann", "Bob"])
    elif route == "undo":
        response = client.htmx("POST", f"/plays/{play_id}/undo")
    else:
        response = client.htmx("GET", f"/plays/{play_id}/live")
    pieces = oob_ids(response, ids_on_page)
    assert {"skirmish", "turn-title", "countdown", f"facts-{ann}", f"facts-{bob}", "scoreboard", "undo"} <= pieces


# Finish, result and score sheet -------------------------------------------------------------------------------


def end_form(seats: list[int], bonus: list[list[object]]) -> dict:
    """The finish form's boxes: end-<seat id>-bonus_<n>, three per player."""
    return {
        f"end-{seat}-bonus_{n}": str(value)
        for seat, values in zip(seats, bonus, strict=True)
        for n, value in enumerate(values, start=1)
    }


def play_a_short_game(client, play_id: int) -> tuple[int, int]:
    """Two turns: Ann captures a 5 VP Forest card (her own colour) showing iron and gold, with a Minion and her
    General on it; Bob captures a 3 VP Mountain card (his own colour) showing crystal, with two Minions on it; then
    Ann captures a 2 VP Ocean card showing crystal with two Minions, Bob's Minion staying on it. Both best meet a
    5 VP Mastery Objective."""
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=ann, terrain="forest", encampments=2, resources=["iron", "gold"], vp=5)
    speros_act(client, play_id, action="deploy", seat=ann, card=1)
    speros_act(client, play_id, action="deploy", seat=ann, card=1, kind="general")
    speros_act(client, play_id, action="capture", seat=ann, card=1)
    speros_act(client, play_id, action="next_turn")
    put_card(client, play_id, seat=bob, terrain="mountain", encampments=2, resources=["crystal"], vp=3)
    speros_act(client, play_id, action="deploy", seat=bob, card=2)
    speros_act(client, play_id, action="deploy", seat=bob, card=2)
    speros_act(client, play_id, action="capture", seat=bob, card=2)
    put_card(client, play_id, seat="", terrain="ocean", encampments=3, resources=["crystal"], vp=2)
    speros_act(client, play_id, action="deploy", seat=bob, card=3)
    speros_act(client, play_id, action="deploy", seat=ann, card=3)
    speros_act(client, play_id, action="deploy", seat=ann, card=3)
    speros_act(client, play_id, action="capture", seat=ann, card=3)
    speros_act(client, play_id, action="mastery", number=1, vp=5, leaders=["Ann", "Bob"])
    return ann, bob


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finish_with_bonus_objectives_scores_every_line(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = play_a_short_game(client, play_id)
    response = post_speros(client, htmx, f"/plays/{play_id}/finish", end_form([ann, bob], [[4, 7, 0], [3, 3, 9]]))
    sent_to_play(response, play_id, htmx)
    state = saved(app, play_id)
    assert state["status"] == FINISHED
    assert state["seats"] == [{"bonus_1": 4, "bonus_2": 7, "bonus_3": 0}, {"bonus_1": 3, "bonus_2": 3, "bonus_3": 9}]
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    for line in LINES:
        assert html.count(f"<summary><span>{line}</span></summary>") == 1, line
    # The grid opens each line's reasons player by player; read them back as each player's lines.
    by_player: dict[str, list[tuple[str, str, str]]] = {"Ann": [], "Bob": []}
    for label, reasons in re.findall(r"<summary><span>([\w ]+)</span></summary>(.*?)</ul>", html, re.DOTALL):
        item = r'<li><strong>(\w+)</strong> <span class="num">([+−]?\d+)</span> <span class="why">(.*?)</span></li>'
        for name, points, why in re.findall(item, reasons):
            by_player[name].append((label, points, why))
    rows = by_player["Ann"] + by_player["Bob"]
    assert rows == [
        # Ann: Forest 5 + Ocean 2; iron/gold and crystal from 2 cards make no set (a set needs 3 cards);
        # her Minion and General on her own Forest, two Minions on the Ocean; best Bonus Objective 7; 5 // 2.
        ("Captured cards", "+7", "2 Locations: 5 + 2 = 7 VP."),
        ("Resource sets", "0", "No set, as only 2 cards show a resource and a set needs 3: 0 VP."),
        ("Deployed Minions", "+4", "1 familiar × 2 + 2 unfamiliar × 1 = 4 VP."),
        ("Deployed General", "+3", "General on familiar terrain: 3 VP."),
        ("Bonus Objective", "+7", "The best of 4, 7 and 0: 7 VP."),
        ("Mastery Objectives", "+2", "Mastery &#39;Mastery Objective 1&#39;: 5 VP split 2 ways, rounded down, 2 VP."),
        # Bob: Mountain 3; two Minions on his own Mountain, one on the Ocean; best Bonus Objective 9; 5 // 2.
        ("Captured cards", "+3", "1 Location: 3 VP."),
        ("Resource sets", "0", "No set, as no captured card shows iron or gold: 0 VP."),
        ("Deployed Minions", "+5", "2 familiar × 2 + 1 unfamiliar × 1 = 5 VP."),
        ("Deployed General", "0", "General in Base Camp: 0 VP."),
        ("Bonus Objective", "+9", "The best of 3, 3 and 9: 9 VP."),
        ("Mastery Objectives", "+2", "Mastery &#39;Mastery Objective 1&#39;: 5 VP split 2 ways, rounded down, 2 VP."),
    ]
    total_row, rank_row = re.findall(r'<tr class="(?:total|rank)">(.*?)</tr>', html, re.DOTALL)
    totals = re.findall(r'<td class="num[^"]*">(\d+)</td>', total_row)
    assert list(zip(totals, re.findall(r'<td class="num[^"]*">(\w+)</td>', rank_row), strict=True)) == [
        ("23", "1st"),
        ("19", "2nd"),
    ]
    assert "Ann wins with 23 VP." in html
    assert f'href="/plays/{play_id}/sheet.pdf"' in html and f'href="/plays/new?again={play_id}"' in html
    with Session(app.extensions["db_engine"]) as session:
        seats = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        assert [(s.total, s.rank) for s in seats] == [(23, 1), (19, 2)]
        assert [[line["key"] for line in s.breakdown] for s in seats] == [
            ["captured", "resource_sets", "minions", "general", "bonus_objective", "mastery"]
        ] * 2


def test_a_resource_set_from_three_captured_cards(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    for resources in (["crystal"], ["iron", "gold"], ["gold"]):
        put_card(client, play_id, terrain="forest", encampments=1, resources=resources, vp=1)
    for number in (1, 2, 3):
        speros_act(client, play_id, action="deploy", seat=ann, card=number)
        speros_act(client, play_id, action="capture", seat=ann, card=number)
    client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [[0, 0, 0], [0, 0, 0]]))
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert (
        "Crystal, iron and gold from 3 of your 3 cards (3 cards with a resource allow at most 1 set): 1 set × 3 = 3 VP."
    ) in html
    assert "3 Locations: 1 + 1 + 1 = 3 VP." in html


def test_score_sheet_pdf_after_finish(client, play_id: int) -> None:
    assert client.get(f"/plays/{play_id}/sheet.pdf").status_code == 404
    ann, bob = play_a_short_game(client, play_id)
    client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [[4, 7, 0], [3, 3, 9]]))
    text = sheet_text(client, play_id, "speros")
    for expected in (
        "Conquest of Speros",
        "score sheet",
        "Players in turn order: Ann, Bob",
        "2 Locations: 5 + 2 = 7 VP.",
        "The best of 3, 3 and 9: 9 VP.",
    ):
        assert expected in text, expected
    for line in LINES:
        assert text.count(line) == 2, line
    assert re.search(r"Ann\s+wins\s+with\s+23\s+VP\.", text)
    # The score pad's grid: a Total row and a Rank row, a column per player.
    assert "Total 23 19" in text.splitlines() and "Rank 1st 2nd" in text.splitlines()


BAD_FINISHES = [
    ("not a number", [["four", 1, 0], [0, 0, 0]], (0, 1), "Enter a whole number."),
    ("a blank box", [[4, 1, 0], [0, "", 0]], (1, 2), "Enter a whole number."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "bonus", "box", "message"), BAD_FINISHES, ids=[b[0] for b in BAD_FINISHES])
def test_refused_finish_saves_nothing(
    client, app, play_id: int, htmx: bool, case: str, bonus: list, box: tuple[int, int], message: str
) -> None:
    seats = seat_ids(client, play_id)
    put_card(client, play_id, seat=seats[0])
    form = end_form(seats, bonus)
    refused_finish(client, app, play_id, htmx, form, f"end-{seats[box[0]]}-bonus_{box[1]}", message)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    ("value", "message"), [(101, "Must be at most 100."), (-1, "Must be at least 0.")], ids=["over 100", "negative"]
)
def test_a_bonus_objective_out_of_range_is_refused_beside_its_box(
    client, app, play_id: int, htmx: bool, value: int, message: str
) -> None:
    ann, bob = seat_ids(client, play_id)
    before = saved(app, play_id)
    response = post_speros(client, htmx, f"/plays/{play_id}/finish", end_form([ann, bob], [[4, 1, 0], [0, value, 0]]))
    html = answered(response, htmx, 422)
    # Not even Ann's good boxes are saved.
    assert saved(app, play_id) == before
    name = f"end-{bob}-bonus_2"
    assert f'<p class="error" id="{name}-error">{message}</p>' in html
    assert html.count('<p class="error"') == 1
    assert re.search(rf'<input id="{name}"[^>]*aria-invalid="true" aria-describedby="{name}-error"', html, re.DOTALL)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finished_play_refuses_actions(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, seat=ann)
    client.post(f"/plays/{play_id}/finish", data=end_form([ann, bob], [[1, 2, 3], [0, 0, 0]]))
    before = saved(app, play_id)
    assert before["status"] == FINISHED
    late = [
        put_card(client, play_id, htmx, seat=bob),
        speros_act(client, play_id, htmx, action="deploy", seat=bob, card=1),
        speros_act(client, play_id, htmx, action="next_turn"),
        speros_act(client, play_id, htmx, action="mastery", number=1, vp=3, leaders="Ann"),
        post_speros(client, htmx, f"/plays/{play_id}/seats/{ann}", {"field": "bonus_1", "value": "9"}),
        post_speros(client, htmx, f"/plays/{play_id}/undo"),
        post_speros(client, htmx, f"/plays/{play_id}/finish", end_form([ann, bob], [[9, 9, 9], [9, 9, 9]])),
    ]
    for response in late:
        sent_to_play(response, play_id, htmx)
    assert saved(app, play_id) == before
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Bonus Objective" in html and "Put into play" not in html


# The taps to enter a captured card ----------------------------------------------------------------------------


def test_taps_to_enter_a_captured_card(client, app, play_id: int) -> None:
    """A browser's path through the page, every tap counted: the put-card form's chips and select as drawn, then the
    buttons the answers draw in the Skirmish Area.

    After the setup's four cards, Ann (green) puts a 2-encampment Mountain card showing iron, worth 4 VP, into play on
    her turn: the explore deploys one of her Minions and passes the turn; a + Minion of hers (an ability's) fills the
    card, 2 to 0, and she captures it.
    """
    ann, _bob = seat_ids(client, play_id)
    for terrain in ("forest", "ocean", "artifact", "artifact"):
        setup = {"terrain": terrain, "resources": ["gold"], "vp": 1} | (
            {} if terrain == "artifact" else {"encampments": 3}
        )
        api_act(client, play_id, {"action": "explore", **setup})
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    form = put_card_defaults(page)
    taps = 0
    for field, value in (("terrain", "mountain"), ("encampments", "2"), ("resources", ["iron"])):
        assert form.get(field) != value, f"{field} needs no tap"
        form[field] = value
        taps += 1  # a terrain chip, an encampment chip, a resource chip
    # The explorer needs no tap: once the setup's cards are in, the form explores for Ann, whose turn it is.
    assert form["seat"] == str(ann)
    # The tap on the printed VP puts the card in.
    assert 'name="vp" value="4">4</button>' in page.split('<form id="put-card"')[1]
    fragment = post_speros(client, True, f"/plays/{play_id}/actions", form | {"vp": "4"}).get_data(as_text=True)
    taps += 1  # VP 4
    assert notice(fragment) == (
        "Mountain card 5 (4 VP, iron) is in the Skirmish Area. Ann deploys a Minion there. Bob&#39;s turn."
    )
    fragment = post_speros(
        client, True, f"/plays/{play_id}/actions", button_form(fragment, "Ann: deploy a Minion to Mountain card 5")
    ).get_data(as_text=True)
    taps += 1  # + Minion
    assert capture_buttons(fragment) == ["Ann"]
    fragment = post_speros(
        client, True, f"/plays/{play_id}/actions", button_form(fragment, "Ann captures it")
    ).get_data(as_text=True)
    taps += 1  # Ann captures it
    assert notice(fragment) == "Ann captures Mountain card 5 (achieve majority)."
    assert card(app, play_id, 5)["captured_by"] == 0
    assert '<li id="captured-5">Mountain card 5: 4 VP, iron · ' in facts(fragment, ann)
    # Terrain, encampments, resource, VP (which puts it in and passes the turn), + Minion, capture.
    assert taps == 6
    assert saved(app, play_id)["changes"] == 7, "seven actions, seven undo steps"


# The same game through the JSON API ---------------------------------------------------------------------------


def test_api_starts_a_tracked_speros_play(client, app) -> None:
    view = api_start(client)
    assert (view["game"], view["status"], view["source"]) == ("speros", "in_progress", "api")
    assert view["options"] == {"mastery": []}
    assert view["players"] == [
        {"name": "Ann", "colour": "green", **START_SEAT},
        {"name": "Bob", "colour": "red", **START_SEAT},
    ]
    assert view["table"] == START_TABLE
    assert view["tracker_notes"] == []
    assert view["end"] == {"triggered": False, "why": None}
    assert [(p["name"], p["total"]) for p in view["live"]["players"]] == [("Ann", 0), ("Bob", 0)]
    assert [line["label"] for line in view["live"]["players"][0]["breakdown"]] == LINES
    assert view["result"] is None
    assert client.get(f"/api/v1/plays/{view['id']}").get_json() == view
    assert saved(app, view["id"])["table"] == START_TABLE
    html = client.get(view["url"]).get_data(as_text=True)
    assert '<h2 id="turn-title">Ann\'s turn</h2>' in html


BAD_API_STARTS = [
    (
        "one player",
        {"players": [{"name": "Ann", "colour": "green"}]},
        "players",
        "Conquest of Speros is for 2 to 4 players; 1 given.",
    ),
    (
        "five players",
        {"players": [{"name": n, "colour": c} for n, c in zip("ABCDE", [*SPEROS_COLOURS, "green"], strict=True)]},
        "players",
        "Conquest of Speros is for 2 to 4 players; 5 given.",
    ),
    ("a colour left out", {"players": [{"name": "Ann", "colour": "green"}, {"name": "Bob"}]}, "players[1]", None),
    ("no colours at all", {"players": [{"name": "Ann"}, {"name": "Bob"}]}, "players[0]", None),
    (
        "a colour not the game's",
        {"players": [{"name": "Ann", "colour": "purple"}, {"name": "Bob", "colour": "red"}]},
        "players[0].colour",
        None,
    ),
    (
        "a colour twice",
        {"players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "red"}]},
        "players[1].colour",
        None,
    ),
    (
        "a counter given at the start",
        {"players": [{"name": "Ann", "colour": "green", "bonus_1": 4}, PAIR[1]]},
        "players[0].bonus_1",
        None,
    ),
    ("an unknown option", {"players": PAIR, "options": {"dragons": 1}}, "options.dragons", "Unknown field."),
]


@pytest.mark.parametrize(("case", "body", "field", "message"), BAD_API_STARTS, ids=[b[0] for b in BAD_API_STARTS])
def test_api_bad_starts_answer_422_and_save_nothing(client, app, case: str, body: dict, field: str, message) -> None:
    response = post_json(client, "/api/v1/plays", {"game": "speros", "track": True, **body})
    assert response.status_code == 422
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert any(key.startswith(field) for key in errors), errors
    if message is not None:
        assert errors[field] == message
    assert client.get("/api/v1/plays/1").status_code == 404
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Play)).all() == []


@pytest.mark.parametrize(
    ("players", "errors"),
    [
        (
            [{"name": "Ann", "colour": "green"}, {"name": "Bob"}],
            [{"field": "players[1].colour", "message": "Must be one of 'green', 'red', 'blue' or 'black'."}],
        ),
        (
            [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "red"}],
            [{"field": "players[1].colour", "message": "Ann already plays red."}],
        ),
        (
            [{"name": "Ann", "colour": "pink"}, {"name": "Bob", "colour": "red"}],
            [{"field": "players[0].colour", "message": "Must be one of 'green', 'red', 'blue' or 'black'."}],
        ),
    ],
    ids=["a colour left out", "a colour twice", "a colour not the game's"],
)
def test_api_colour_errors_name_the_colour_field_sent(client, players: list, errors: list) -> None:
    """One message, on the field the body has: 'colour' (a body sending 'color' is refused: 'Unknown field.')."""
    response = post_json(client, "/api/v1/plays", {"game": "speros", "track": True, "players": players})
    assert response.status_code == 422
    assert response.get_json()["errors"] == errors


def test_api_mastery_objectives_given_at_the_start_are_in_play(client, app) -> None:
    options = {"mastery": [{"name": "Explorer", "vp": 6, "leaders": ["Ann"]}]}
    view = api_start(client, options=options)
    assert view["options"] == options
    assert objectives(view["table"]) == [{"vp": 6, "leaders": ["Ann"]}]
    ann = next(p for p in view["live"]["players"] if p["name"] == "Ann")
    assert ann["breakdown"][5] == {
        "key": "mastery",
        "label": "Mastery Objectives",
        "points": 6,
        "why": "Mastery 'Explorer': you best meet it, 6 VP.",
    }
    # The tracker's form shows it, and a correction through it keeps the objective's name.
    html = client.get(view["url"]).get_data(as_text=True)
    form = html.split('<form id="mastery-1"')[1].split("</form>")[0]
    assert 'name="vp" value="6" aria-pressed="true">6</button>' in form
    assert re.findall(r'name="leaders" value="(\w+)" checked', form) == ["Ann"]
    view = api_act(client, view["id"], {"action": "mastery", "number": 1, "vp": 6, "leaders": ["Ann", "Bob"]})
    ann = next(p for p in view["live"]["players"] if p["name"] == "Ann")
    assert ann["breakdown"][5]["why"] == "Mastery 'Explorer': 6 VP split 2 ways, rounded down, 3 VP."


@pytest.mark.parametrize(
    ("mastery", "field", "message"),
    [
        ([{"name": "Explorer", "vp": 6, "leaders": ["Zed"]}], "options.mastery[0].leaders[0]", "Zed is not playing."),
        ([{"name": "Explorer", "vp": 21, "leaders": []}], "options.mastery[0].vp", "Must be at most 20."),
    ],
    ids=["a leader not playing", "21 VP"],
)
def test_api_bad_mastery_objectives_at_the_start(client, app, mastery: list, field: str, message: str) -> None:
    response = post_json(
        client, "/api/v1/plays", {"game": "speros", "track": True, "players": PAIR, "options": {"mastery": mastery}}
    )
    assert response.status_code == 422
    assert {"field": field, "message": message} in response.get_json()["errors"]
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Play)).all() == []


def test_api_two_mastery_objectives_with_two_players_are_refused_in_good_english(client) -> None:
    mastery = [{"name": "A", "vp": 3, "leaders": []}, {"name": "B", "vp": 3, "leaders": []}]
    response = post_json(
        client, "/api/v1/plays", {"game": "speros", "track": True, "players": PAIR, "options": {"mastery": mastery}}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"field": "options.mastery", "message": "With 2 players, 1 Mastery Objective is dealt; 2 given."}
    ]


def test_api_game_actions_and_the_table_they_leave(client) -> None:
    play = api_start(client)["id"]
    view = api_act(
        client,
        play,
        {"action": "explore", "player": "Ann", "terrain": "mountain", "encampments": 3, "vp": 4, "resources": ["iron"]},
    )
    assert view["said"] == ["Mountain card 1 (4 VP, iron) is in the Skirmish Area.", "Ann deploys a Minion there."]
    view = api_act(
        client,
        play,
        {"action": "explore", "terrain": "forest", "encampments": 3, "vp": 2, "resources": ["gold", "crystal"]},
    )
    assert view["said"] == ["Forest card 2 (2 VP, gold and crystal) is in the Skirmish Area."]
    view = api_act(client, play, {"action": "deploy", "player": "Bob", "card": 1, "kind": "general"})
    assert view["said"] == ["Bob deploys a General to Mountain card 1."]
    api_act(client, play, {"action": "deploy", "player": "Ann", "card": 2})
    view = api_act(client, play, {"action": "deploy", "player": "Ann", "card": 2, "kind": "general"})
    assert view["said"][-1] == (
        "Ann may capture Forest card 2: Ann has 2 units; even if the 1 empty encampment were "
        "filled by another player, they could reach only 1: Ann demonstrates majority."
    )
    assert {"text": view["said"][-1], "warning": False} in view["tracker_notes"]
    view = api_act(client, play, {"action": "capture", "player": "Ann", "card": 2})
    assert view["said"] == ["Ann captures Forest card 2 (demonstrate majority)."]
    # An ability may still move units onto a captured Location; it stays captured.
    view = api_act(client, play, {"action": "move", "player": "Bob", "card": 1, "kind": "general", "to": 2})
    assert view["said"] == ["Bob moves a General from Mountain card 1 to Forest card 2."]
    view = api_act(client, play, {"action": "remove", "player": "Bob", "card": 2, "kind": "general"})
    assert view["said"] == ["Bob's General leaves Forest card 2 for the Base Camp."]
    view = api_act(client, play, {"action": "next_turn"})
    assert view["said"] == ["Bob's turn."] and view["table"]["turn"] == 2
    view = api_act(client, play, {"action": "last_drawn", "drawn": True})
    assert view["said"] == ["The last Location card is drawn. Bob finishes, then Ann takes one more turn."]
    assert view["end"] == {
        "triggered": True,
        "why": "The last Location card is drawn: Bob finishes, then Ann takes one more turn.",
    }
    view = api_act(client, play, {"action": "mastery", "number": 1, "vp": 4, "leaders": ["ann"]})
    assert view["said"] == ["Mastery Objective 1: 4 VP, best met by Ann."]
    view = api_act(client, play, {"action": "set", "player": "Bob", "field": "bonus_2", "value": 6})
    assert view["said"] == []
    # The table: cards with their units as [seat, kind] pairs (a seat is a player's index in "players").
    assert view["table"] == {
        "turn": 2,
        "next_card": 3,
        "last_drawn": 2,
        "mastery": view["table"]["mastery"],
        "ended": None,
        "cards": [
            {
                "id": 1,
                "terrain": "mountain",
                "encampments": 3,
                "vp": 4,
                "resources": ["iron"],
                "units": [[0, "minion"]],
                "captured_by": None,
            },
            {
                "id": 2,
                "terrain": "forest",
                "encampments": 3,
                "vp": 2,
                "resources": ["gold", "crystal"],
                "units": [[0, "minion"], [0, "general"]],
                "captured_by": 0,
            },
        ],
    }
    assert objectives(view["table"]) == [{"vp": 4, "leaders": ["Ann"]}]
    assert player(view, "Bob") == {"name": "Bob", "colour": "red", "bonus_1": 0, "bonus_2": 6, "bonus_3": 0}
    # The live score: Ann 2 captured + Minion 2 (Forest) + 1 (Mountain) + General 3 (Forest) + 4 Mastery = 12.
    ann = next(p for p in view["live"]["players"] if p["name"] == "Ann")
    assert ann["total"] == 12
    assert {line["key"]: line["points"] for line in ann["breakdown"]} == {
        "captured": 2,
        "resource_sets": 0,
        "minions": 3,
        "general": 3,
        "bonus_objective": 0,
        "mastery": 4,
    }
    bob = next(p for p in view["live"]["players"] if p["name"] == "Bob")
    assert (bob["total"], bob["breakdown"][4]["why"]) == (6, "The best of 0, 6 and 0: 6 VP.")
    assert client.get(f"/api/v1/plays/{play}").get_json() == {k: v for k, v in view.items() if k != "said"}


API_REFUSED = [
    (
        "no resource",
        {"action": "explore", "terrain": "swamp", "encampments": 2, "vp": 1},
        "resources",
        "Which resource does this card show?",
    ),
    (
        "an empty resource list",
        {"action": "explore", "terrain": "swamp", "encampments": 2, "vp": 1, "resources": []},
        "resources",
        "Which resource does this card show?",
    ),
    (
        "encampments as text",
        {"action": "explore", "terrain": "swamp", "encampments": "2", "vp": 1, "resources": ["iron"]},
        "encampments",
        None,
    ),
    (
        "13 encampments",
        {"action": "explore", "terrain": "swamp", "encampments": 13, "vp": 1, "resources": ["iron"]},
        "encampments",
        "Must be at most 12.",
    ),
    (
        "a full card",
        {"action": "deploy", "player": "Ann", "card": 2},
        "card",
        "Forest card 2 has no unoccupied encampment.",
    ),
    (
        "a captured card",
        {"action": "deploy", "player": "Bob", "card": 1, "kind": "general"},
        "card",
        "Mountain card 1 is in Ann's Captured Area: no unit can be deployed there.",
    ),
    ("the wrong capturer", {"action": "capture", "player": "Ann", "card": 2}, "card", None),
    (
        "an empty Base Camp",
        {"action": "deploy", "player": "Bob", "card": 3},
        "kind",
        "Bob has no Minion left in Base Camp.",
    ),
    (
        "a locked Artifact",
        {"action": "remove", "player": "Ann", "card": 5},
        "card",
        "The units on Artifact 5 are locked on: it is a captured Artifact.",
    ),
    ("a card not in play", {"action": "capture", "player": "Bob", "card": 6}, "card", "There is no card 6 in play."),
    ("a card as text", {"action": "deploy", "player": "Bob", "card": "3", "kind": "general"}, "card", None),
    ("a move with no target", {"action": "move", "player": "Bob", "card": 3}, "to", None),
    ("a capture for nobody", {"action": "capture", "card": 2}, "player", "Say which player this is for."),
    ("a player not playing", {"action": "capture", "player": "Zed", "card": 2}, "player", None),
    ("a Mastery Objective 2 of 1", {"action": "mastery", "number": 2, "vp": 3}, "number", None),
    ("a last card that is neither", {"action": "last_drawn", "drawn": "yes"}, "drawn", None),
]


@pytest.mark.parametrize(("case", "body", "field", "message"), API_REFUSED, ids=[r[0] for r in API_REFUSED])
def test_api_refused_actions_answer_422_and_change_nothing(
    client, busy_play: int, case: str, body: dict, field: str, message
) -> None:
    before = client.get(f"/api/v1/plays/{busy_play}").get_json()
    answer = api_act(client, busy_play, body, 422)
    errors = {e["field"]: e["message"] for e in answer["errors"]}
    assert field in errors, answer
    if message is not None:
        assert errors[field] == message
    assert client.get(f"/api/v1/plays/{busy_play}").get_json() == before


def test_api_undo_a_capture(client) -> None:
    play = api_start(client, [*PAIR, {"name": "Cy", "colour": "blue"}])["id"]
    api_act(
        client, play, {"action": "explore", "terrain": "artifact", "encampments": 5, "vp": 6, "resources": ["gold"]}
    )
    for name in ("Cy", "Bob", "Bob", "Ann", "Bob"):
        api_act(client, play, {"action": "deploy", "player": name, "card": 1})
    before = client.get(f"/api/v1/plays/{play}").get_json()
    view = api_act(client, play, {"action": "capture", "player": "Bob", "card": 1})
    assert view["table"]["cards"][0]["units"] == [[1, "minion"], [1, "minion"], [1, "minion"]]
    assert view["table"]["cards"][0]["captured_by"] == 1 and view["table"]["cards"][0]["locked"] is True
    response = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert response.status_code == 200
    view = response.get_json()
    assert view["undone"] == {
        "action": {"action": "capture", "player": "Bob", "card": 1},
        "text": "Bob captures Artifact 1 (achieve majority) (Bob's units on it are locked on; "
        "Ann and Cy's go back to their Base Camp)",
        "said": [
            "Bob captures Artifact 1 (achieve majority).",
            "Bob's units on it are locked on; Ann and Cy's go back to their Base Camp.",
        ],
    }
    for key in ("players", "table", "live", "tracker_notes", "end"):
        assert view[key] == before[key], key


def test_api_finish(client) -> None:
    play = api_start(client)["id"]
    api_act(
        client,
        play,
        {"action": "explore", "player": "Bob", "terrain": "swamp", "encampments": 1, "vp": 5, "resources": ["iron"]},
    )
    api_act(client, play, {"action": "capture", "player": "Bob", "card": 1})
    api_act(client, play, {"action": "set", "player": "Ann", "field": "bonus_3", "value": 8})
    response = post_json(client, f"/api/v1/plays/{play}/finish", {})
    assert response.status_code == 200
    view = response.get_json()
    assert view["status"] == "finished" and view["live"] is None
    result = {p["name"]: (p["total"], [line["points"] for line in p["breakdown"]]) for p in view["result"]["players"]}
    # Bob: the Swamp card's 5 VP and his Minion on it, unfamiliar (he plays red): 1.
    assert result == {"Ann": (8, [0, 0, 0, 0, 8, 0]), "Bob": (6, [5, 0, 1, 0, 0, 0])}
    assert view["result"]["winners"] == ["Ann"]
    assert post_json(client, f"/api/v1/plays/{play}/actions", {"action": "next_turn"}).status_code == 409


def test_the_same_actions_through_the_api_and_the_page_give_the_same_state(client) -> None:
    """The same records path: one play driven by the API, one by the tracker page's forms, end in the same state."""
    by_api = api_start(client)["id"]
    by_page = api_start(client)["id"]
    ann, bob = seat_ids(client, by_page)
    steps = [
        (
            {
                "action": "explore",
                "player": "Ann",
                "terrain": "mountain",
                "encampments": 3,
                "vp": 4,
                "resources": ["iron", "gold"],
            },
            {
                "action": "explore",
                "slot": "explore",
                "terrain": "mountain",
                "encampments": "3",
                "resources": ["iron", "gold"],
                "vp": "4",
                "seat": str(ann),
            },
        ),
        (
            {"action": "explore", "terrain": "artifact", "encampments": 5, "vp": -1, "resources": ["crystal"]},
            {
                "action": "explore",
                "slot": "explore",
                "terrain": "artifact",
                "resources": ["crystal"],
                "vp": "-1",
                "seat": "",
            },
        ),
        (
            {"action": "deploy", "player": "Ann", "card": 1},
            {"action": "deploy", "slot": "skirmish", "seat": str(ann), "card": "1"},
        ),
        (
            {"action": "deploy", "player": "Bob", "card": 2, "kind": "general"},
            {"action": "deploy", "slot": "skirmish", "seat": str(bob), "card": "2", "kind": "general"},
        ),
        (
            {"action": "capture", "player": "Ann", "card": 1},
            {"action": "capture", "slot": "skirmish", "seat": str(ann), "card": "1"},
        ),
        (
            {"action": "move", "player": "Ann", "card": 1, "kind": "minion", "to": 2},
            {"action": "move", "slot": "skirmish", "card": "1", "seat": str(ann), "kind": "minion", "to": "2"},
        ),
        (
            {"action": "remove", "player": "Bob", "card": 2, "kind": "general"},
            {"action": "remove", "slot": "skirmish", "seat": str(bob), "card": "2", "kind": "general"},
        ),
        ({"action": "next_turn"}, {"action": "next_turn", "slot": "next_turn"}),
        ({"action": "last_drawn", "drawn": True}, {"action": "last_drawn", "slot": "last_drawn", "drawn": "true"}),
        (
            {"action": "mastery", "number": 1, "vp": 5, "leaders": ["Ann", "Bob"]},
            {"action": "mastery", "slot": "mastery", "number": "1", "vp": "5", "leaders": ["Ann", "Bob"]},
        ),
    ]
    for body, form in steps:
        said = api_act(client, by_api, body)["said"]
        html = post_speros(client, True, f"/plays/{by_page}/actions", form).get_data(as_text=True)
        assert notice(html) == " ".join(said).replace("'", "&#39;"), body
    api_view = client.get(f"/api/v1/plays/{by_api}").get_json()
    page_view = client.get(f"/api/v1/plays/{by_page}").get_json()
    for key in ("players", "table", "live", "tracker_notes", "end"):
        assert api_view[key] == page_view[key], key
    assert [c["captured_by"] for c in api_view["table"]["cards"]] == [0, None]
    assert api_view["table"]["cards"][1]["units"] == [[0, "minion"]]


# Units on a captured Location, from the page ------------------------------------------------------------------


def captured_forest(client, play_id: int) -> tuple[int, int]:
    """Ann captures a 3-space Forest (her Minion, Bob's Minion, her General); an Ocean card with room stays in play.
    Ann's and Bob's seat ids."""
    ann, bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="forest", encampments=3)
    put_card(client, play_id, terrain="ocean", encampments=4)
    for seat, kind in ((ann, "minion"), (bob, "minion"), (ann, "general")):
        speros_act(client, play_id, action="deploy", seat=seat, card=1, kind=kind)
    assert speros_act(client, play_id, action="capture", seat=ann, card=1).status_code == 303
    return ann, bob


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_units_on_a_captured_location_are_removed_from_the_page(client, app, play_id: int, htmx: bool) -> None:
    """'Units in that zone may still be affected by card abilities': the Captured Area has − buttons for each player's
    units there; the tap's message lands in that seat's slot, and 'a captured Location cannot become uncaptured'."""
    ann, bob = captured_forest(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert 'aria-label="Bob: a minion from Forest card 1 back to Base Camp">− Minion</button>' in facts(html, ann)
    assert 'aria-label="Ann: a general from Forest card 1 back to Base Camp">− General</button>' in facts(html, ann)
    assert f'<p id="a-captured-{ann}" class="error" role="alert"></p>' in html
    tap = button_form(facts(html, ann), "Bob: a minion from Forest card 1 back to Base Camp")
    assert tap == {"action": "remove", "slot": f"captured-{ann}", "seat": str(bob), "card": "1", "kind": "minion"}
    response = post_speros(client, htmx, f"/plays/{play_id}/actions", tap)
    assert response.status_code == (200 if htmx else 303)
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [0, "general"]]
    assert card(app, play_id, 1)["captured_by"] == 0
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    if htmx:
        assert notice(html) == "Bob&#39;s Minion leaves Forest card 1 for the Base Camp."
        assert f'<p id="a-captured-{ann}"' not in html, "the answered slot is filled, not emptied"
        assert '<p id="a-skirmish" class="error" role="alert" hx-swap-oob="true"></p>' in html
    assert "Bob: a minion from Forest card 1" not in facts(html, ann)
    assert '<span class="dots" role="img" aria-label="2 of 3 encampments occupied">' in facts(html, ann)
    assert "Forest card 1" not in skirmish(html)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_units_on_a_captured_location_are_moved_from_the_page(client, app, play_id: int, htmx: bool) -> None:
    """'Regardless of the Units moved onto or off its encampments, a captured Location cannot become uncaptured':
    the Captured Area's move form takes a unit to a card with room, and a unit can be moved back onto it."""
    ann, bob = captured_forest(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    mine = facts(html, ann)
    assert "<summary>Move a unit (an ability)</summary>" in mine
    move_form = next(form for form in forms(mine) if 'name="action" value="move"' in form)
    assert re.findall(r'<select name="to"><option value="(\d+)">Ocean card 2</option></select>', move_form) == ["2"]
    tap = hidden_fields(move_form) | {"seat": str(ann), "kind": "general", "to": "2"}
    response = post_speros(client, htmx, f"/plays/{play_id}/actions", tap)
    assert response.status_code == (200 if htmx else 303), response.get_data(as_text=True)
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [1, "minion"]]
    assert card(app, play_id, 2)["units"] == [[0, "general"]]
    assert card(app, play_id, 1)["captured_by"] == 0
    if htmx:
        assert notice(response.get_data(as_text=True)) == "Ann moves a General from Forest card 1 to Ocean card 2."
    # And back onto the captured Forest, from the Skirmish Area's move form: the Forest is a target there.
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    ocean_moves = next(form for form in forms(card_item(html, 2)) if 'name="action" value="move"' in form)
    assert '<option value="1">Forest card 1</option>' in ocean_moves
    back = hidden_fields(ocean_moves) | {"seat": str(ann), "kind": "general", "to": "1"}
    assert post_speros(client, htmx, f"/plays/{play_id}/actions", back).status_code == (200 if htmx else 303)
    assert card(app, play_id, 1)["units"] == [[0, "minion"], [1, "minion"], [0, "general"]]
    assert card(app, play_id, 1)["captured_by"] == 0
    assert bob


def test_a_captured_artifact_offers_no_unit_buttons_and_no_moves_onto_it(client, app, play_id: int) -> None:
    """'Units on a captured Ancient Artifact are locked. They cannot be moved, destroyed, or obliterated. In addition,
    new units may not be added.'"""
    ann, _bob = seat_ids(client, play_id)
    put_card(client, play_id, terrain="forest", encampments=4)
    put_card(client, play_id, terrain="artifact", resources=["gold"], vp=3)
    for _ in range(3):
        speros_act(client, play_id, action="deploy", seat=ann, card=2)
    speros_act(client, play_id, action="deploy", seat=ann, card=1)
    assert speros_act(client, play_id, action="capture", seat=ann, card=2).status_code == 303
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert " · units locked on</li>" in facts(html, ann)
    assert "remove-2-" not in html and "Artifact 2" not in card_item(html, 1).split("<details")[-1]


# Mastery Objectives keep what was saved once their form is reset ---------------------------------------------------


def test_a_saved_mastery_objective_redraws_its_fields_with_what_was_saved(client, app, play_id: int) -> None:
    """The tracker resets a form once its action is saved: the answer to a Mastery Objective's Save redraws that
    objective's VP and leaders as saved, so the reset shows them (not the page's first drawing); a refusal doesn't."""
    response = speros_act(client, play_id, True, action="mastery", number=1, vp=6, leaders=["Bob"])
    html = response.get_data(as_text=True)
    fields = html.split('<span id="mastery-fields-1" class="mastery-fields" hx-swap-oob="true">')[1].split("</span>\n")
    assert 'name="vp" value="6" aria-pressed="true">6</button>' in fields[0]
    assert '<input type="checkbox" name="leaders" value="Bob" checked> Bob' in html
    assert '<input type="checkbox" name="leaders" value="Ann"> Ann' in html
    refused = speros_act(client, play_id, True, action="mastery", number=1, vp=6, leaders=["Zed"]).get_data(
        as_text=True
    )
    assert refused.split("\n", 1)[0] == "Zed is not playing."
    assert "mastery-fields-1" not in refused
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert '<span id="mastery-fields-1" class="mastery-fields">' in page


def test_what_the_tracker_keeps_is_said_on_the_page(client, play_id: int) -> None:
    """The hand, the deck and the abilities stay on the table: the tracker says so in its help panel."""
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    panel = html.split("<summary>What the tracker keeps</summary>")[1].split("</details>")[0]
    assert "The cards in each hand, the Location deck and the discard pile" in panel
    assert len(re.findall("<li>", panel)) == 5


# The API refuses what no card shows, never with a 500 -------------------------------------------------------------

NESTED = [
    pytest.param([["iron"]], {"resources[0]": "Must be one of 'crystal', 'iron' or 'gold'."}, id="a list in the list"),
    pytest.param([[]], {"resources[0]": "Must be one of 'crystal', 'iron' or 'gold'."}, id="an empty list in it"),
    pytest.param([{"iron": True}], {"resources[0]": "Must be one of 'crystal', 'iron' or 'gold'."}, id="an object"),
    pytest.param(
        ["iron", ["gold"]],
        {"resources[1]": "Must be one of 'crystal', 'iron' or 'gold'."},
        id="a resource, then a list",
    ),
    pytest.param({"iron": 1}, {"resources": "Give a list."}, id="an object for the list"),
    pytest.param(3, {"resources": "Give a list."}, id="a number for the list"),
]


@pytest.mark.parametrize(("resources", "errors"), NESTED)
def test_api_explore_with_resources_that_are_no_resources_is_a_422(
    client, app, resources: Any, errors: dict[str, str]
) -> None:
    """POST /api/v1/plays/<id>/actions with {"resources": [["iron"]]} was a 500: a 422 with the field and a clear
    message, and nothing changed."""
    play = api_start(client)["id"]
    before = saved(app, play)
    body = {
        "action": "explore",
        "player": "Ann",
        "terrain": "forest",
        "encampments": 3,
        "vp": 1,
        "resources": resources,
    }
    answer = api_act(client, play, body, status=422)
    assert {e["field"]: e["message"] for e in answer["errors"]} == errors
    assert saved(app, play) == before


def test_api_refuses_a_four_encampment_artifact_and_a_second_last_card(client, app) -> None:
    """'Every Artifact card features 5 Encampments'; the last Location card is drawn once."""
    play = api_start(client)["id"]
    answer = api_act(
        client,
        play,
        {"action": "explore", "terrain": "artifact", "encampments": 4, "vp": 1, "resources": ["gold"]},
        status=422,
    )
    assert answer["errors"] == [
        {"field": "encampments", "message": "Every Artifact card features 5 Encampments, not 4."}
    ]
    api_act(client, play, {"action": "last_drawn", "drawn": True})
    before = saved(app, play)
    answer = api_act(client, play, {"action": "last_drawn", "drawn": True}, status=422)
    assert answer["errors"][0]["field"] == "drawn"
    assert saved(app, play) == before


def test_api_undo_says_the_action_in_plain_words(client) -> None:
    """The undone action's text is said as players would say it: no brackets, quotes or field names."""
    play = api_start(client)["id"]
    api_act(
        client,
        play,
        {
            "action": "explore",
            "player": "Ann",
            "terrain": "forest",
            "encampments": 4,
            "vp": 2,
            "resources": ["iron", "gold"],
        },
    )
    undone = post_json(client, f"/api/v1/plays/{play}/undo", {}).get_json()["undone"]
    assert undone["text"].startswith("Ann puts Forest card 1 into play (4 encampments, iron and gold, 2 VP)")
    assert not any(mark in undone["text"] for mark in "[]{}_")
