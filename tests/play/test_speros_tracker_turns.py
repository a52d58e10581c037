"""Conquest of Speros tracker: the turn's action in one tap (Attack, Lead, the Explore of the player whose turn it
is), as a page and as a fragment, through the same records path as the JSON API; the VP buttons; the setup's cards
put in by nobody. The rules are in tests/rules/test_speros_turn_actions.py.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers import (
    api_act,
    button_form,
    card_item,
    notice,
    post_speros,
    put_card_defaults,
    saved,
    seat_ids,
    skirmish,
    speros_act,
    start_speros,
)

SLOT = "skirmish"


def setup_cards(client, play_id: int, count: int = 2) -> None:
    """The setup's cards through the API: a Location of each player (3 encampments) and an Artifact per player."""
    for n in range(count):
        api_act(
            client,
            play_id,
            {
                "action": "explore",
                "terrain": ("forest", "ocean", "swamp", "mountain")[n],
                "encampments": 3,
                "vp": 1,
                "resources": ["gold"],
            },
        )
    for _ in range(count):
        api_act(client, play_id, {"action": "explore", "terrain": "artifact", "vp": 2, "resources": ["iron"]})


@pytest.fixture
def play_id(client) -> int:
    """Ann (green) and Bob (red), the setup's four cards in, Ann's first turn."""
    play = start_speros(client)
    setup_cards(client, play)
    return play


def turn_actions(html: str, card: int) -> list[str]:
    """The turn's action buttons a card offers, by their text."""
    return re.findall(
        r'class="button small turn-action" type="submit" aria-label="[^"]*">(\w+)</button>', card_item(html, card) or ""
    )


def test_only_the_player_whose_turn_it_is_has_attack_and_lead(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert turn_actions(html, 1) == ["Attack", "Lead"]
    item = card_item(html, 1)
    assert '<input type="hidden" name="action" value="attack">' in item
    assert (
        f'<button id="attack-1-{ann}" class="button small turn-action" type="submit" aria-label="Ann: attack '
        'Forest card 1 (a Minion; the turn passes)">Attack</button>'
    ) in item
    assert (
        f'<button id="lead-1-{ann}" class="button small turn-action" type="submit" aria-label="Ann: lead to '
        'Forest card 1 (the General and a Minion; the turn passes)">Lead</button>'
    ) in item
    assert f"attack-1-{bob}" not in item
    # The + Minion and + General of abilities stay for everyone.
    assert "Ann: deploy a Minion to Forest card 1" in item and "Bob: deploy a Minion to Forest card 1" in item
    assert "Attack and Lead are the turn's action" in skirmish(html)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_attack_deploys_a_minion_and_passes_the_turn(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    response = speros_act(client, play_id, htmx, action="attack", seat=ann, card=1)
    state = saved(app, play_id)
    assert state["table"]["cards"][0]["units"] == [[0, "minion"]]
    assert state["table"]["turn"] == 2
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play_id}").get_data(as_text=True)
    if htmx:
        assert response.status_code == 200
        assert notice(html) == "Ann attacks Forest card 1 with a Minion. Bob&#39;s turn."
        assert '<h2 id="turn-title" hx-swap-oob="true">Bob\'s turn</h2>' in html
    else:
        assert response.status_code == 303
        assert '<h2 id="turn-title">Bob\'s turn</h2>' in html
    # Bob's turn: his Attack and Lead now, on every card with room.
    assert f"attack-1-{bob}" in skirmish(html) and f"attack-1-{ann}" not in skirmish(html)
    # One action, one undo step, said in plain words.
    undone = client.htmx("POST", f"/plays/{play_id}/undo").get_data(as_text=True)
    assert "Took back: Ann attacks Forest card 1" in undone
    assert saved(app, play_id)["table"]["turn"] == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_lead_that_allows_a_capture_waits_for_it(client, app, htmx: bool) -> None:
    """Lead to a 2-encampment Location: the General and a Minion fill it, the turn waits for the capture, which
    passes it."""
    play = start_speros(client)
    setup_cards(client, play)
    api_act(client, play, {"action": "explore", "terrain": "ocean", "encampments": 2, "vp": 3, "resources": ["gold"]})
    ann, _bob = seat_ids(client, play)
    response = speros_act(client, play, htmx, action="lead", seat=ann, card=5)
    assert saved(app, play)["table"]["cards"][4]["units"] == [[0, "general"], [0, "minion"]]
    assert saved(app, play)["table"]["turn"] == 1
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play}").get_data(as_text=True)
    if htmx:
        assert notice(html).startswith(
            "Ann leads the General to Ocean card 5, with a Minion. Ann may capture Ocean card 5:"
        )
        assert notice(html).endswith("The turn passes with its capture (or Next turn).")
    # The turn card says what the turn waits for; no more turn actions are offered meanwhile.
    assert "<strong>Action taken:</strong> the turn passes once Ocean card 5 is captured (or with Next turn)." in html
    assert "turn-action" not in skirmish(html)
    fragment = post_speros(client, True, f"/plays/{play}/actions", button_form(html, "Ann captures it")).get_data(
        as_text=True
    )
    assert notice(fragment) == "Ann captures Ocean card 5 (achieve majority). Bob&#39;s turn."
    assert saved(app, play)["table"]["turn"] == 2


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_attack_out_of_turn_is_refused_beside_the_board(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    response = speros_act(client, play_id, htmx, action="attack", seat=bob, card=1)
    assert response.status_code == 422
    message = (
        "It is Ann&#39;s turn: Attack is the action of the player whose turn it is. A unit an ability deploys "
        "is added with + Minion or + General."
    )
    html = response.get_data(as_text=True)
    assert message in html
    if htmx:
        assert html.split("\n", 1)[0] == message
    assert saved(app, play_id)["changes"] == 4, "nothing saved but the setup"


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_put_card_form_explores_for_the_active_player_and_passes_the_turn(
    client, app, play_id: int, htmx: bool
) -> None:
    ann, _bob = seat_ids(client, play_id)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    # The setup is in: the form proposes Ann, whose turn it is, and is collapsed (the board comes first).
    assert '<details class="card put-card">' in page
    form = put_card_defaults(page)
    assert form == {"action": "explore", "slot": "explore", "resources": [], "seat": str(ann), "end_turn": "true"}
    # The tap on the printed VP 4 puts a Mountain (2 encampments, iron) in.
    response = post_speros(
        client,
        htmx,
        f"/plays/{play_id}/actions",
        form | {"terrain": "mountain", "encampments": "2", "resources": ["iron"], "vp": "4"},
    )
    state = saved(app, play_id)
    assert state["table"]["cards"][4] == {
        "id": 5,
        "terrain": "mountain",
        "encampments": 2,
        "vp": 4,
        "resources": ["iron"],
        "units": [[0, "minion"]],
        "captured_by": None,
    }
    assert state["table"]["turn"] == 2
    if htmx:
        html = response.get_data(as_text=True)
        assert notice(html) == (
            "Mountain card 5 (4 VP, iron) is in the Skirmish Area. Ann deploys a Minion there. Bob&#39;s turn."
        )
        # The explorer proposed is redrawn for Bob.
        explorer = html.split('<div id="explorer" class="explorer" hx-swap-oob="true">')[1].split("</div>")[0]
        assert re.search(r'<option value="(\d+)" selected>Bob</option>', explorer)
    else:
        assert response.status_code == 303


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_vp_without_a_button_is_typed(client, app, htmx: bool) -> None:
    play = start_speros(client)
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    form = put_card_defaults(page) | {"terrain": "artifact", "resources": ["crystal"], "vp_typed": "-2"}
    response = post_speros(client, htmx, f"/plays/{play}/actions", form)
    assert response.status_code == (200 if htmx else 303)
    card = saved(app, play)["table"]["cards"][0]
    assert (card["vp"], card["units"]) == (-2, []), "put in by nobody: the setup's first card"
    assert saved(app, play)["table"]["turn"] == 1


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_an_untouched_vp_is_asked_for(client, app, htmx: bool) -> None:
    play = start_speros(client)
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    form = put_card_defaults(page) | {"terrain": "ocean", "encampments": "3", "resources": ["crystal"]}
    response = post_speros(client, htmx, f"/plays/{play}/actions", form)
    assert response.status_code == 422
    assert "What VP does this card show?" in response.get_data(as_text=True)
    assert saved(app, play)["table"]["cards"] == []


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_mastery_objective_saved_by_the_tap_on_its_vp(client, app, htmx: bool) -> None:
    play = start_speros(client, ["Ann", "Bob", "Cy"])
    response = speros_act(client, play, htmx, action="mastery", number=1, leaders=["Cy"], vp=4, slot="mastery")
    assert response.status_code == (200 if htmx else 303)
    assert saved(app, play)["table"]["mastery"][0]["vp"] == 4
    html = response.get_data(as_text=True) if htmx else client.get(f"/plays/{play}").get_data(as_text=True)
    assert (
        '<button id="mastery-1-vp-4" class="chip vp pressed" type="submit" name="vp" value="4" '
        'aria-pressed="true">4</button>'
    ) in html
    # Save with the leaders changed keeps the VP saved (the Save button carries it), unless another is typed.
    speros_act(client, play, True, action="mastery", number=1, leaders=["Cy", "Ann"], vp_saved=4, slot="mastery")
    assert saved(app, play)["table"]["mastery"][0] == {"name": "Mastery Objective 1", "vp": 4, "leaders": ["Ann", "Cy"]}
    speros_act(client, play, True, action="mastery", number=1, leaders=["Cy"], vp_saved=4, vp_typed=12, slot="mastery")
    assert saved(app, play)["table"]["mastery"][0]["vp"] == 12


def test_the_api_takes_attack_lead_and_end_turn(client) -> None:
    play = start_speros(client)
    setup_cards(client, play)
    view = api_act(client, play, {"action": "attack", "player": "Ann", "card": 1})
    assert view["said"] == ["Ann attacks Forest card 1 with a Minion.", "Bob's turn."]
    view = api_act(client, play, {"action": "lead", "player": "Bob", "card": 2, "minion": False})
    assert view["said"] == ["Bob leads the General to Ocean card 2.", "Ann's turn."]
    view = api_act(
        client,
        play,
        {
            "action": "explore",
            "player": "Ann",
            "terrain": "swamp",
            "encampments": 2,
            "vp": 1,
            "resources": ["iron"],
            "end_turn": True,
        },
    )
    assert view["said"][-1] == "Bob's turn."
    assert view["table"]["turn"] == 4
