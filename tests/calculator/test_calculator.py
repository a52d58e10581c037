"""The end-game calculator: the form drawn from each game's schema, results, 422s beside the field, saving."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from companion.calculator.forms import line_spec, model_inputs, parse_line, parse_numbers, player_inputs
from companion.games import GAMES
from companion.games.base import InputErrors
from tests.helpers import FormState, answered

needs_speros = pytest.mark.skipif("speros" not in GAMES, reason="Conquest of Speros is not registered yet")


def flat(response) -> str:
    """The response body with runs of whitespace made single spaces."""
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


SPQF_FORM = {
    "name-0": "Ann", "vp_tokens-0": "10", "civ_level-0": "3", "monument_modifiers-0": "4", "vp_cards-0": "2",
    "name-1": "Bob", "vp_tokens-1": "12", "civ_level-1": "2", "monument_modifiers-1": "1",
    **{f"level_vp-{i}": str(v) for i, v in enumerate((0, 3, 6, 9, 12, 15))},
}  # fmt: skip
SPIRES_FORM = {
    "name-0": "Ann", "towers.red-0": "3", "towers.blue-0": "2", "towers.green-0": "5", "crowns-0": "3",
    "scroll_vp-0": "8",
    "name-1": "Bob", "towers.purple-1": "3", "towers.black-1": "1", "swords-1": "4", "quills-1": "2",
    "scroll_vp-1": "12",
}  # fmt: skip
SPYRIUM_FORM = {
    "name-0": "Ann", "vp_track-0": "30", "building_vp-0": "3, 5 2", "technique_vp-0": "4 2",
    "name-1": "Bob", "vp_track-1": "35", "building_vp-1": "4",
}  # fmt: skip
SPEROS_FORM = {
    "name-0": "Ann", "color-0": "green", "captured-0": "5 crystal+iron forest\n3 gold ocean\n\n2 iron swamp",
    "minions_familiar-0": "2", "general-0": "familiar", "bonus_objectives-0": "5, 2",
    "name-1": "Bob", "color-1": "red", "captured-1": "4 crystal mountain", "minions_unfamiliar-1": "3",
    "mastery": "Explorer 6: Ann, Bob",
}  # fmt: skip

# (game, form, winner, winning total): the same plays as the API payloads of tests/helpers.py, typed into the form.
FILLED = {
    "spqf": ("spqf", SPQF_FORM, "Ann", 28),
    "spires": ("spires", SPIRES_FORM, "Bob", 62),
    "spyrium": ("spyrium", SPYRIUM_FORM, "Ann", 46),
    "speros": pytest.param("speros", SPEROS_FORM, "Ann", 28, marks=needs_speros, id="speros"),
}


def post(client, url: str, data: dict[str, str], htmx: bool):
    """POST the form as a browser does, or as htmx does."""
    return client.htmx("POST", url, data=data) if htmx else client.post(url, data=data)


# --- the form ---


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_form_page_for_every_game(client, game_id: str) -> None:
    game = GAMES[game_id]
    response = client.get(f"/calculator/{game_id}")
    assert response.status_code == 200
    html = flat(response)
    assert "<html" in html and f"{game.name} end-game calculator" in html
    form = FormState(html)
    assert form.values["csrf_token"]
    assert [n for n in form.values if n.startswith("name-")] == [f"name-{i}" for i in range(game.max_players)]
    # Every input of the schema, in every row.
    for row in range(game.max_players):
        for group in player_inputs(game):
            for field in group.fields:
                assert field.form_name(row) in form.values
    assert 'hx-post="/calculator/' + game_id + '"' in html
    assert "Save to history" not in html and not form.errors


def test_every_form_name_is_unique(client) -> None:
    for game_id in GAMES:
        html = client.get(f"/calculator/{game_id}").get_data(as_text=True)
        # The page's own form: the language switch at the foot is a form of its own.
        html = html[html.index("<main") : html.index("</main>")]
        fields = re.findall(r"<(?:input|select|textarea)\b[^>]*>", html)
        names = [re.search(r'\bname="([^"]+)"', field).group(1) for field in fields]
        # The chips of one choice ('captured-0:terrain') share a name, as radio buttons do; no other field does.
        names = [name for name in names if ":" not in name]
        assert len(names) == len(set(names)), game_id


def test_number_inputs_carry_the_schema_bounds(client) -> None:
    spqf = FormState(client.get("/calculator/spqf").get_data(as_text=True))
    assert spqf.types["civ_level-0"] == "number"
    assert (spqf.attrs["civ_level-0"]["min"], spqf.attrs["civ_level-0"]["max"]) == ("0", "5")
    spires = FormState(client.get("/calculator/spires").get_data(as_text=True))
    assert spires.attrs["towers.red-3"]["max"] == "14"
    assert spires.attrs["swords-0"]["max"] == "12"


def test_spires_form_has_towers_symbols_solo_and_discard(client) -> None:
    html = client.get("/calculator/spires").get_data(as_text=True)
    form = FormState(html)
    for suit in ("purple", "red", "yellow", "blue", "green", "black"):
        assert form.types[f"towers.{suit}-0"] == "number"
    assert form.types["solo"] == "checkbox" and form.values["solo"] is False
    assert {"discard.crowns", "discard.swords", "discard.quills"} <= set(form.types)
    assert "<legend>Towers</legend>" in html


def test_spqf_form_shows_the_level_table_and_the_reference_notes(client) -> None:
    response = client.get("/calculator/spqf")
    form = FormState(response.get_data(as_text=True))
    assert [form.values[f"level_vp-{i}"] for i in range(6)] == ["0", "3", "6", "9", "12", "15"]
    html = flat(response)
    assert "Check your reference card" in html
    assert "level 3: 9" in html


def test_spyrium_lists_are_text_inputs(client) -> None:
    form = FormState(client.get("/calculator/spyrium").get_data(as_text=True))
    assert form.types["building_vp-0"] == "text" and form.types["technique_vp-4"] == "text"
    assert form.values["residence_values-0"] == "2"


@needs_speros
def test_speros_form_has_selects_and_textareas(client) -> None:
    html = client.get("/calculator/speros").get_data(as_text=True)
    form = FormState(html)
    # A different colour preset in each row, the General in Base Camp.
    assert [form.values[f"color-{i}"] for i in range(4)] == ["green", "red", "blue", "black"]
    assert form.values["general-0"] == "base"
    assert form.types["captured-0"] == "textarea" and form.types["mastery"] == "textarea"
    assert "5 crystal+iron forest" in html


def test_unknown_game_is_the_404_page(client) -> None:
    response = client.get("/calculator/monopoly")
    assert response.status_code == 404
    assert "There is no calculator for that game." in response.get_data(as_text=True)
    assert client.post("/calculator/monopoly", data={}).status_code == 404
    assert client.post("/calculator/monopoly/save", data={}).status_code == 404


def test_index_links_every_game(client) -> None:
    html = client.get("/calculator/").get_data(as_text=True)
    for game_id in GAMES:
        assert f'href="/calculator/{game_id}"' in html


# --- calculating ---


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("game_id", "data", "winner", "total"), FILLED.values(), ids=FILLED.keys())
def test_calculate_shows_the_explained_result(client, game_id, data, winner, total, htmx) -> None:
    response = post(client, f"/calculator/{game_id}", data, htmx)
    assert response.status_code == 200, FormState(response.get_data(as_text=True)).errors
    html = flat(response)
    assert ("<html" in html) is not htmx
    if htmx:
        assert html.startswith('<div id="calculator"')
    assert f"{winner} wins with {total} VP." in html
    for _key, label in GAMES[game_id].breakdown:
        assert label in html
    assert 'formaction="/calculator/' + game_id + '/save"' in html
    form = FormState(response.get_data(as_text=True))
    for name, value in data.items():
        assert form.values[name].strip() == value.strip(), name


def test_spires_solo_shows_the_kings_appraisal(client) -> None:
    data = {
        "name-0": "Ann",
        "towers.red-0": "3",
        "crowns-0": "2",
        "scroll_vp-0": "30",
        "solo": "on",
        "discard.crowns": "1",
    }
    response = client.post("/calculator/spires", data=data)
    assert response.status_code == 200
    html = flat(response)
    assert "King's Appraisal" in html and "stocks" in html
    assert FormState(response.get_data(as_text=True)).values["solo"] is True


def test_spyrium_numbers_may_be_separated_by_spaces_or_commas(client) -> None:
    response = client.post("/calculator/spyrium", data=SPYRIUM_FORM)
    html = flat(response)
    assert "3 buildings, the VP printed on each: 3 + 5 + 2 = 10 VP." in html
    assert "2 techniques, end-game VP (at most 7 each): 4 + 2 = 6 VP." in html


def test_lists_of_numbers_get_the_number_pad_and_its_dot_separates(client) -> None:
    """Issue 10: list fields (building VP, technique VP, bonus objectives) get a numeric keyboard; a phone's number
    pad may offer only a dot between digits."""
    form = FormState(client.get("/calculator/spyrium").get_data(as_text=True))
    assert form.attrs["building_vp-0"]["inputmode"] == "decimal"
    assert form.attrs["technique_vp-0"]["inputmode"] == "decimal"
    speros = FormState(client.get("/calculator/speros").get_data(as_text=True))
    assert speros.attrs["bonus_objectives-0"]["inputmode"] == "decimal"
    assert "inputmode" not in FormState(client.get("/calculator/speros").get_data(as_text=True)).attrs["name-0"]
    response = client.post("/calculator/spyrium", data={**SPYRIUM_FORM, "building_vp-0": "3.5.2"})
    assert "3 buildings, the VP printed on each: 3 + 5 + 2 = 10 VP." in flat(response)


def test_clear_the_form_asks_first(client) -> None:
    html = flat(client.get("/calculator/spires"))
    link = re.search(r'<a class="button" href="/calculator/spires"[^>]*>Clear the form</a>', html)
    assert link and 'hx-confirm="Clear the form? Everything typed in it is lost."' in link.group(0)
    assert 'hx-select="#calculator" hx-target="#calculator"' in link.group(0)


def test_blank_rows_are_ignored_and_rows_keep_their_place(client) -> None:
    data = {"name-0": "Ann", "towers.red-0": "2", "name-2": "Cy", "towers.blue-2": "1"}
    response = client.post("/calculator/spires", data=data)
    assert response.status_code == 200
    html = flat(response)
    assert "Ann wins with 10 VP." in html
    assert "Cy" in html


def test_an_option_table_not_sent_means_the_printed_defaults(client) -> None:
    data = {k: v for k, v in SPQF_FORM.items() if not k.startswith("level_vp")}
    assert "with 28 VP" in flat(client.post("/calculator/spqf", data=data))


def test_a_custom_level_table_is_used_and_kept(client) -> None:
    data = {**SPQF_FORM, "level_vp-3": "8"}
    response = client.post("/calculator/spqf", data=data)
    assert "with 27 VP" in flat(response)
    assert FormState(response.get_data(as_text=True)).values["level_vp-3"] == "8"


# --- mistakes: 422, the message beside the field, nothing typed lost ---


def speros_mistake(changes: dict[str, str], field: str, message: str) -> Any:
    """A mistake typed into the Conquest of Speros form, its field and the message beside it."""
    return pytest.param("speros", {**SPEROS_FORM, **changes}, field, message, marks=needs_speros)


MISTAKES = {
    "out of range": ("spqf", {**SPQF_FORM, "civ_level-1": "9"}, "civ_level-1", "Must be at most 5."),
    "not a number": ("spqf", {**SPQF_FORM, "vp_tokens-0": "ten"}, "vp_tokens-0", "Enter a whole number."),
    "duplicate name": ("spqf", {**SPQF_FORM, "name-1": "ann"}, "name-1", "ann is already playing."),
    "numbers but no name": ("spqf", {**SPQF_FORM, "name-1": ""}, "name-1", "Must not be empty."),
    "one player": ("spqf", {"name-0": "Ann", "vp_tokens-0": "3"}, "players", "2 to 4 players"),
    "no players": ("spqf", {}, "players", "2 to 4 players"),
    "level table typo": ("spqf", {**SPQF_FORM, "level_vp-2": "x"}, "level_vp", "Number 3: Enter a whole number."),
    "level table blank": ("spqf", {**SPQF_FORM, "level_vp-5": ""}, "level_vp", "Number 6: Enter a whole number."),
    "level table too big": ("spqf", {**SPQF_FORM, "level_vp-4": "100"}, "level_vp", "between 0 and 99"),
    "tower too tall": ("spires", {**SPIRES_FORM, "towers.red-1": "15"}, "towers.red-1", "Must be at most 14."),
    "crowns beyond the deck": (
        "spires",
        {"name-0": "Ann", "crowns-0": "5", "name-2": "Cy", "crowns-2": "4"},
        "crowns-2",
        "The deck has only 8 crowns",
    ),
    "solo with two players": ("spires", {**SPIRES_FORM, "solo": "on"}, "players", "exactly 1 player"),
    "discard out of range": (
        "spires",
        {"name-0": "Ann", "solo": "on", "discard.crowns": "9"},
        "discard.crowns",
        "Must be at most 8.",
    ),
    "word in a number list": (
        "spyrium",
        {**SPYRIUM_FORM, "building_vp-0": "3 x"},
        "building_vp-0",
        "“x” is not a whole number: write numbers separated by spaces, commas or dots.",
    ),
    "list item out of range": (
        "spyrium",
        {**SPYRIUM_FORM, "technique_vp-0": "4 9"},
        "technique_vp-0",
        "Number 2: Must be at most 7.",
    ),
    "speros bad line": speros_mistake(
        {"captured-0": "5 crystal forest\nfive gold forest"}, "captured-0", "Line 2: I can't read “five”"
    ),
    "speros card out of range": speros_mistake(
        {"captured-0": "5 crystal forest\n\n99 gold ocean"}, "captured-0", "Line 3 (vp): Must be at most 20."
    ),
    # Decision (docs/rules.md, "Conquest of Speros"): every captured card shows at least one resource; one typed without
    # is refused with a question.
    "speros card without a resource": speros_mistake(
        {"captured-0": "5 crystal+iron forest\n\n3 ocean\n2 iron swamp"},
        "captured-0",
        "Line 3 (resources): Which resource does this card show?",
    ),
    "speros same colour": speros_mistake({"color-1": "green"}, "color-1", "Ann already plays green."),
    "speros leader not playing": speros_mistake(
        {"mastery": "Explorer 6: Ann, Zed"}, "mastery", "Line 1 (leaders): Zed is not playing."
    ),
}


@pytest.mark.parametrize("url_end", ["", "/save"], ids=["calculate", "save"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("game_id", "data", "field", "message"), MISTAKES.values(), ids=MISTAKES.keys())
def test_mistakes_are_422_beside_the_field(client, game_id, data, field, message, htmx, url_end) -> None:
    response = post(client, f"/calculator/{game_id}{url_end}", data, htmx)
    html = answered(response, htmx, 422)
    form = FormState(html)
    assert message in form.errors.get(field, ""), form.errors
    if field in form.types:
        assert field in form.invalid
    for name, value in data.items():
        typed = form.values[name]
        assert (typed is True) if value == "on" else typed.strip() == value.strip(), name
    assert 'id="calc-result"' not in html and "Nothing was scored." in html
    assert "/plays/" not in client.get("/history").get_data(as_text=True)


def test_several_mistakes_are_all_shown(client) -> None:
    data = {**SPQF_FORM, "vp_tokens-0": "x", "civ_level-1": "7", "level_vp-0": "?"}
    form = FormState(client.post("/calculator/spqf", data=data).get_data(as_text=True))
    assert set(form.errors) == {"vp_tokens-0", "civ_level-1", "level_vp"}


def test_the_form_needs_the_csrf_token(client) -> None:
    assert client.post("/calculator/spqf", data=SPQF_FORM, csrf=False).status_code == 400
    assert client.post("/calculator/spqf/save", data=SPQF_FORM, csrf=False).status_code == 400
    assert (
        client.post("/calculator/spqf", data={**SPQF_FORM, "csrf_token": "test-csrf-token"}, csrf=False).status_code
        == 200
    )


# --- saving ---


@pytest.mark.parametrize(("game_id", "data", "winner", "total"), FILLED.values(), ids=FILLED.keys())
def test_save_creates_a_finished_play(client, game_id, data, winner, total) -> None:
    response = client.post(f"/calculator/{game_id}/save", data={**data, "notes": "Game night"})
    assert response.status_code == 303
    url = response.headers["Location"]
    assert re.fullmatch(r"/plays/\d+", url)

    page = flat(client.get(url))
    assert f"{winner} wins with {total} VP." in page and "Game night" in page
    history = client.get("/history").get_data(as_text=True)
    assert f'href="{url}"' in history

    saved = client.get(f"/api/v1{url}").get_json()
    assert saved["status"] == "finished" and saved["source"] == "calculator"
    assert saved["notes"] == "Game night"
    assert saved["result"]["winners"] == [winner]
    assert max(p["total"] for p in saved["result"]["players"]) == total


def test_save_from_htmx_redirects_the_client(client) -> None:
    response = client.htmx("POST", "/calculator/spqf/save", data=SPQF_FORM)
    assert response.status_code == 204
    assert re.fullmatch(r"/plays/\d+", response.headers["HX-Redirect"])
    assert client.get(response.headers["HX-Redirect"]).status_code == 200


def test_saved_play_has_a_score_sheet(client) -> None:
    url = client.post("/calculator/spyrium/save", data=SPYRIUM_FORM).headers["Location"]
    sheet = client.get(f"{url}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"


def test_saved_players_are_what_was_typed(client) -> None:
    url = client.post("/calculator/spires/save", data=SPIRES_FORM).headers["Location"]
    ann, bob = client.get(f"/api/v1{url}").get_json()["players"]
    assert ann["name"] == "Ann" and ann["towers"]["green"] == 5 and ann["scroll_vp"] == 8
    assert bob["swords"] == 4 and bob["towers"]["purple"] == 3


def test_line_numbers_count_blank_lines_as_typed(client) -> None:
    """'Line 4' is the fourth line the person sees, leading blank lines included, and the text comes back whole."""
    form = {
        "name-0": "Ann",
        "color-0": "green",
        "captured-0": "\n\n5 crystal forest\nfive gold ocean",
        "name-1": "Bob",
        "color-1": "red",
    }
    response = client.post("/calculator/speros", data=form)
    assert response.status_code == 422
    state = FormState(response.get_data(as_text=True))
    assert state.errors["captured-0"].startswith("Line 4:")
    assert state.values["captured-0"] == "\n\n5 crystal forest\nfive gold ocean"


def test_notes_too_long_are_refused_beside_the_notes(client) -> None:
    response = client.post("/calculator/spqf/save", data={**SPQF_FORM, "notes": "n" * 2001})
    assert response.status_code == 422
    form = FormState(response.get_data(as_text=True))
    assert "at most 2000 characters" in form.errors["notes"]
    assert form.values["notes"] == "n" * 2001


# --- reading the form (calculator_forms.py helpers) ---


class Card(BaseModel):
    """A captured card, as a line of text."""

    terrain: Literal["forest", "ocean", "artifact"]
    resources: list[Literal["crystal", "iron", "gold"]] = []
    vp: int


class Objective(BaseModel):
    """A public objective with a free-text name and the players who lead it."""

    name: str
    vp: int
    leaders: list[str] = []


@pytest.mark.parametrize(
    ("line", "raw"),
    [
        ("5 crystal+iron forest", {"vp": 5, "resources": ["crystal", "iron"], "terrain": "forest"}),
        ("forest 5 crystal iron", {"vp": 5, "resources": ["crystal", "iron"], "terrain": "forest"}),
        ("−2 Artifact", {"vp": -2, "terrain": "artifact"}),
        ("ocean", {"terrain": "ocean"}),
    ],
)
def test_a_card_line_reads_in_any_order(line: str, raw: dict[str, Any]) -> None:
    assert parse_line(line_spec(Card), line) == raw


@pytest.mark.parametrize("line", ["5 6 forest", "5 forest ocean", "5 lava"])
def test_a_card_line_that_does_not_fit_says_so(line: str) -> None:
    with pytest.raises(ValueError, match="write a line like “5 crystal\\+iron forest”"):
        parse_line(line_spec(Card), line)


@pytest.mark.parametrize(
    ("line", "raw"),
    [
        ("Explorer 6: Ann, Bob", {"name": "Explorer", "vp": 6, "leaders": ["Ann", "Bob"]}),
        ("Top 3 armies 4:", {"name": "Top 3 armies", "vp": 4, "leaders": []}),
        ("Explorer 6", {"name": "Explorer", "vp": 6}),
    ],
)
def test_an_objective_line_reads_name_points_and_leaders(line: str, raw: dict[str, Any]) -> None:
    assert parse_line(line_spec(Objective), line) == raw


def test_number_lists_accept_spaces_commas_and_a_true_minus() -> None:
    assert parse_numbers("3, 5 2;1", "f") == [3, 5, 2, 1]
    assert parse_numbers("−2 +4", "f") == [-2, 4]
    with pytest.raises(InputErrors) as caught:
        parse_numbers("3 x", "players[0].building_vp")
    assert caught.value.errors[0].field == "players[0].building_vp"


def test_a_field_the_form_cannot_draw_fails_loudly() -> None:
    class Odd(BaseModel):
        """A schema with a float, which no game uses."""

        ratio: float

    with pytest.raises(TypeError, match="ratio"):
        model_inputs(Odd)


def test_a_nul_character_is_refused_beside_the_field(client) -> None:
    response = client.post("/calculator/spqf/save", data={**SPQF_FORM, "name-0": "A\x00n", "notes": "x\x00"})
    assert response.status_code == 422
    form = FormState(response.get_data(as_text=True))
    assert "NUL" in form.errors["name-0"] and "NUL" in form.errors["notes"]


def test_a_message_about_a_whole_option_group_stands_beside_it(client) -> None:
    """A discard pile counted outside solo is refused beside the discard inputs, not lost at the top."""
    response = client.post("/calculator/spires", data={**SPIRES_FORM, "discard.crowns": "2"})
    assert response.status_code == 422
    state = FormState(response.get_data(as_text=True))
    assert "The discard pile counts only in a solo game." in state.errors["discard.crowns"]
    assert state.values["discard.crowns"] == "2"
