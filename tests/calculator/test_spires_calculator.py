"""The Spires calculator (end-game score form) refuses the totals the deck cannot hold, as the tracker does: 422,
the message beside the last player's box of that count, what was typed kept, nothing scored or saved.
"""

from __future__ import annotations

import pytest

from tests.helpers import FormState, answered

SUIT_RULE = "The rules: “Each suit has 12 values”, plus an Architect and cards 73 and 74."

PAST_THE_DECK = [
    # (form, the field beside which the message stands, message); the id quotes the rule sentence
    pytest.param(
        {"name-0": "Ann", "towers.red-0": "9", "name-1": "Bob", "towers.red-1": "8"},
        "towers.red-1",
        f"The deck has only 15 red cards; more are counted in all towers together. {SUIT_RULE}",
        id="Each suit has 12 values (notes: 15 in all towers): 17 red cards between two players",
    ),
    pytest.param(
        {"name-0": "Ann", "quills-0": "5", "name-1": "Bob", "quills-1": "2", "name-2": "Cy", "quills-2": "2"},
        "quills-2",
        "The deck has only 8 quills; more are counted in all. The rules: “Quills: 10 points (8 symbols total)”.",
        id="Quills: 10 points (8 symbols total): 9 quills between three players",
    ),
    pytest.param(
        {"name-0": "Ann", "quills-0": "5", "solo": "on", "discard.quills": "4"},
        "quills-0",
        "The deck has only 8 quills; more are counted in all. The rules: “Quills: 10 points (8 symbols total)”.",
        id="solo: the amount in the discard pile counts towards the deck's 8 quills",
    ),
]


@pytest.mark.parametrize("url_end", ["", "/save"], ids=["calculate", "save"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("data", "field", "message"), PAST_THE_DECK)
def test_totals_past_the_deck_are_refused(
    client, data: dict, field: str, message: str, htmx: bool, url_end: str
) -> None:
    url = f"/calculator/spires{url_end}"
    response = client.htmx("POST", url, data=data) if htmx else client.post(url, data=data)
    html = answered(response, htmx, 422)
    form = FormState(html)
    assert form.errors.get(field) == message, form.errors
    assert field in form.invalid
    for name, value in data.items():
        typed = form.values[name]
        assert (typed is True) if value == "on" else typed == value, name
    assert 'id="calc-result"' not in html
    assert "/plays/" not in client.get("/history").get_data(as_text=True)


def test_exactly_what_the_deck_holds_is_scored(client) -> None:
    data = {
        "name-0": "Ann",
        "towers.red-0": "8",
        "quills-0": "4",
        "name-1": "Bob",
        "towers.red-1": "7",
        "quills-1": "4",
    }
    response = client.post("/calculator/spires", data=data)
    assert response.status_code == 200, FormState(response.get_data(as_text=True)).errors
    assert 'id="calc-result"' in response.get_data(as_text=True)
