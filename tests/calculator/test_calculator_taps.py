"""The calculator's captured cards entered by taps: chips for terrain and resources, a VP stepper, an Add button that
writes the same line the text syntax reads, and a Remove button per card (issue 9)."""

from __future__ import annotations

import re

import pytest

from companion.calculator.forms import player_inputs
from companion.calculator.line_entry import compose_line, line_items, with_line, without_line
from companion.games import get_game

from .test_calculator import FormState, flat

URL = "/calculator/speros/line"


def captured_field():
    """The calculator's captured-cards list of a Conquest of Speros player."""
    return next(f for g in player_inputs(get_game("speros")) for f in g.fields if f.path == "captured")


def taps(text: str = "", **parts: object) -> dict[str, object]:
    """The first player's captured-cards list with the builder's chips and stepper as given."""
    data: dict[str, object] = {"line": "captured-0", "captured-0": text, "name-0": "Ann", "color-0": "green"}
    data.update({f"captured-0:{part}": value for part, value in parts.items()})
    return data


def textarea(response) -> str:
    """The captured-cards text the answer holds, as a browser reads it."""
    return FormState(response.get_data(as_text=True)).values["captured-0"]


# --- the pure pieces ---


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        ({"terrain": "forest", "resources": ["crystal", "iron"], "vp": 5}, "5 crystal+iron forest"),
        ({"terrain": "artifact", "resources": ["gold"], "vp": -2}, "-2 gold artifact"),
    ],
)
def test_a_tapped_card_is_written_as_the_text_syntax_reads_it(raw, line) -> None:
    from companion.calculator.forms import parse_line

    spec = captured_field().line
    assert compose_line(spec, raw) == line
    assert parse_line(spec, line) == raw


def test_the_list_reads_its_own_text_back_as_cards() -> None:
    items = line_items(captured_field(), "3 gold ocean\n\nnot a card\n5 crystal+iron forest")
    assert [(i.number, i.label, i.tags) for i in items] == [
        (1, "Ocean · gold · 3 VP", ("terrain-ocean",)),
        (4, "Forest · crystal, iron · 5 VP", ("terrain-forest",)),
    ]


def test_lines_are_added_at_the_end_and_taken_out_by_number() -> None:
    assert with_line("", "3 gold ocean") == "3 gold ocean"
    assert with_line("3 gold ocean\n", "1 iron forest") == "3 gold ocean\n1 iron forest"
    assert without_line("a\nb\nc", 2) == "a\nc"
    assert without_line("a\nb", 9) == "a\nb"


# --- the form ---


def test_the_form_offers_chips_a_stepper_and_keeps_the_text_as_a_fast_path(client) -> None:
    html = flat(client.get("/calculator/speros"))
    for row in range(4):
        assert f'name="captured-{row}:terrain" value="forest"' in html
        assert f'name="captured-{row}:resources" value="gold"' in html
        assert f'id="captured-{row}-vp" name="captured-{row}:vp" value="1" step="1"' in html
        assert f'hx-vals=\'{{"line": "captured-{row}"}}\'' in html
    assert 'data-step="1" aria-controls="captured-0-vp"' in html
    assert 'min="-10" max="20"' in html
    assert "Or type them, one per line" in html and 'name="captured-0"' in html
    # The Mastery Objectives name their leaders: typed, so no taps are offered for them.
    assert "mastery:" not in html


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_add_appends_the_tapped_card_to_the_list(client, htmx) -> None:
    data = taps("3 gold ocean", terrain="forest", resources=["crystal", "iron"], vp="5")
    response = client.htmx("POST", URL, data=data) if htmx else client.post(URL, data=data)
    assert response.status_code == 200
    html = flat(response)
    assert textarea(response) == "3 gold ocean\n5 crystal+iron forest"
    assert "Ocean · gold · 3 VP" in html and "Forest · crystal, iron · 5 VP" in html
    assert ("<html" in html) is not htmx
    if htmx:
        assert html.strip().startswith('<div class="calc-field kind-lines key-captured')
    # The next card keeps its terrain and VP; its resources are tapped afresh.
    assert 'name="captured-0:terrain" value="forest" checked' in html
    assert 'value="5"' in html and "checked> Crystal" not in html
    # Nothing else typed in the form is lost on the page.
    assert ('value="Ann"' in html) is not htmx


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_remove_takes_that_card_out(client, htmx) -> None:
    data = {**taps("3 gold ocean\n\n5 crystal+iron forest"), "remove": "1"}
    response = client.htmx("POST", URL, data=data) if htmx else client.post(URL, data=data)
    assert response.status_code == 200
    assert textarea(response) == "\n5 crystal+iron forest"
    assert "Ocean · gold" not in flat(response)


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"terrain": "forest", "vp": "5"}, "Which resource does this card show?"),
        ({"resources": "gold", "vp": "5"}, "Tap the terrain."),
        ({"terrain": "ocean", "resources": "gold", "vp": "21"}, "VP: Must be at most 20."),
        ({"terrain": "ocean", "resources": ["gold", "gold"], "vp": "2"}, "Resources: List each resource at most once."),
        ({"terrain": "ocean", "resources": "gold", "vp": "two"}, "VP: Enter a whole number."),
        ({"terrain": "lake", "resources": "gold", "vp": "2"}, "Terrain: Must be one of"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_an_incomplete_card_is_refused_beside_the_add_button(client, parts, message, htmx) -> None:
    data = taps("3 gold ocean", **parts)
    response = client.htmx("POST", URL, data=data) if htmx else client.post(URL, data=data)
    assert response.status_code == 422
    html = flat(response)
    error = re.search(r'<p class="error" id="captured-0-add-error">([^<]*)</p>', html)
    assert error and message in error.group(1)
    assert 'aria-invalid="true" aria-describedby="captured-0-add-error"' in html
    # What was entered stays.
    assert textarea(response) == "3 gold ocean"


@pytest.mark.parametrize(
    "data",
    [
        {"line": "captured-7"},  # no such row
        {"line": "mastery"},  # a list of typed names, not tappable
        {"line": "name-0"},
        {},
    ],
)
def test_a_list_that_cannot_be_tapped_is_the_404(client, data) -> None:
    assert client.htmx("POST", URL, data=data).status_code == 404


def test_a_remove_that_is_not_a_line_number_is_a_400(client) -> None:
    assert client.htmx("POST", URL, data={**taps("3 gold ocean"), "remove": "x"}).status_code == 400


def test_other_games_have_no_tappable_list(client) -> None:
    assert client.htmx("POST", "/calculator/spires/line", data={"line": "captured-0"}).status_code == 404


def test_the_tap_route_needs_the_csrf_token(client) -> None:
    assert client.post(URL, data=taps("", terrain="forest", resources="gold", vp="1"), csrf=False).status_code == 400


def test_tapped_cards_score_like_typed_ones(client) -> None:
    text = ""
    for terrain, resources, vp in [("forest", ["crystal", "iron"], "5"), ("ocean", ["gold"], "3")]:
        response = client.htmx("POST", URL, data=taps(text, terrain=terrain, resources=resources, vp=vp))
        text = textarea(response)
    assert text == "5 crystal+iron forest\n3 gold ocean"
    two = {"name-0": "Ann", "color-0": "green", "name-1": "Bob", "color-1": "red", "captured-1": "1 iron swamp"}
    tapped = client.htmx("POST", "/calculator/speros", data={**two, "captured-0": text})
    typed = client.htmx("POST", "/calculator/speros", data={**two, "captured-0": "5 iron+crystal forest\n3 gold ocean"})
    assert tapped.status_code == typed.status_code == 200
    # 5 + 3 printed VP, and resources counted card by card, as the typed lines give.
    for response in (tapped, typed):
        assert "5 + 3 = 8 VP" in flat(response) and "only 2 cards show a resource" in flat(response)
