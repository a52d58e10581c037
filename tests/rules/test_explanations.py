"""The house style of explanations, checked across all four games (games/base.py, the comment block at its top).

Every "why" is a sentence that ends with its result in VP; minus signs are the true minus; names are the seats';
the winners' sentence is one string on the page, the score sheet and in the API; a game without a tie-break never
says "still tied"; Conquest of Speros names each tied player's own colour. Decisions: docs/rules.md.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from companion.games import GAMES, live, speros, spires
from companion.games.base import InputErrors, Result, winners_sentence
from companion.games.wording import figure

# A hyphen-minus written before a number ("-3"), where the sentences use the true minus ("−3").
HYPHEN_MINUS = re.compile(r"-\d")


def card(vp: int, *resources: str, terrain: str = "forest") -> dict[str, Any]:
    """A captured Conquest of Speros card as the API takes it."""
    return {"vp": vp, "resources": list(resources), "terrain": terrain}


# (game, players, options): every line of every game, scoring and not, negative lines, ties, solo, Mastery.
SAMPLES = [
    pytest.param(
        "spires",
        [
            {"name": "Ann", "towers": {"red": 3, "blue": 3, "black": 5}, "crowns": 4, "swords": 2, "scroll_vp": 7},
            {"name": "Bob", "towers": {"green": 1, "purple": 4}, "crowns": 4, "quills": 2},
            {"name": "Cleo", "swords": 2},
        ],
        {},
        id="spires: majorities, a tie for the most, tall towers",
    ),
    pytest.param(
        "spires",
        [{"name": "Ann", "towers": {"red": 2}}, {"name": "Bob", "towers": {"blue": 2}}],
        {},
        id="spires: nobody has a symbol, a shared victory",
    ),
    pytest.param(
        "spires",
        [{"name": "Ann", "towers": {"green": 14}}, {"name": "Bob", "towers": {"red": 4}}],
        {},
        id="spires: negative totals",
    ),
    pytest.param(
        "spires",
        [{"name": "Ann", "towers": {"red": 3}, "crowns": 2, "quills": 1}],
        {"solo": True, "discard": {"crowns": 1, "swords": 2, "quills": 3}},
        id="spires: solo",
    ),
    pytest.param(
        "spqf",
        [
            {"name": "Ann", "vp_tokens": 10, "civ_level": 3, "monument_modifiers": 4, "vp_cards": 2},
            {"name": "Bob", "vp_tokens": 1, "civ_level": 2, "monument_modifiers": 2},
            {"name": "Cy"},
        ],
        {},
        id="spqf: the Monument bonus to one player",
    ),
    pytest.param(
        "spqf",
        [
            {"name": "Ann", "vp_tokens": 5, "civ_level": 2, "monument_modifiers": 3},
            {"name": "Bob", "vp_tokens": 8, "civ_level": 1, "monument_modifiers": 3},
            {"name": "Cy", "vp_tokens": 1, "monument_modifiers": 1},
        ],
        {},
        id="spqf: a Monument tie, a tie broken by the level",
    ),
    pytest.param(
        "spqf",
        [{"name": "Ann", "vp_tokens": 5, "civ_level": 2}, {"name": "Bob", "vp_tokens": 5, "civ_level": 2}],
        {},
        id="spqf: still tied after the level",
    ),
    pytest.param(
        "spyrium",
        [
            {"name": "Ann", "vp_track": 20, "building_vp": [2, 4], "technique_vp": [3], "money": 4, "spyrium": 1},
            {"name": "Bob", "vp_track": 25, "building_vp": [4]},
            {"name": "Cy", "vp_track": 25, "technique_vp": [4, 0]},
        ],
        {},
        id="spyrium: three share the victory",
    ),
    pytest.param(
        "spyrium",
        [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 10}, {"name": "Cy", "vp_track": 10}],
        {},
        id="spyrium: two share rank 2",
    ),
    pytest.param(
        "speros",
        [
            {
                "name": "Ann",
                "color": "green",
                "captured": [
                    card(3, "crystal"),
                    card(2, "iron", terrain="ocean"),
                    card(-1, "gold", terrain="artifact"),
                ],
                "minions_familiar": 2,
                "minions_unfamiliar": 1,
                "general": "familiar",
                "bonus_objectives": [3, 5, 1],
            },
            {
                "name": "Bob",
                "color": "blue",
                "captured": [card(3, "crystal", terrain="ocean")],
                "general": "unfamiliar",
                "bonus_objectives": [4],
            },
            {"name": "Cy", "color": "red", "captured": [card(-4, "gold", terrain="artifact")]},
        ],
        {
            "mastery": [
                {"name": "Most forests", "vp": 5, "leaders": ["ann", "BOB"]},
                {"name": "Gold", "vp": 4, "leaders": ["cy"]},
            ]
        },
        id="speros: every line, Mastery leaders typed in another case, a negative total",
    ),
    pytest.param(
        "speros",
        [
            {"name": "Ann", "color": "green", "captured": [card(1, "crystal"), card(1, "iron"), card(1, "gold")]},
            {
                "name": "Bob",
                "color": "black",
                "captured": [card(1, resource, terrain="swamp") for resource in ("crystal", "iron", "gold")],
            },
        ],
        {},
        id="speros: resource sets, still tied on own-colour Locations",
    ),
]


def scored(game_id: str, players: list[dict[str, Any]], options: dict[str, Any]) -> Result:
    """Score raw input through the game's public entry point."""
    return GAMES[game_id].score_raw(players, options)


def lines(result: Result) -> list[tuple[str, str, int, str]]:
    """Every line of a result as (player, key, points, why)."""
    return [(p.name, line.key, line.points, line.why) for p in result.players for line in p.lines]


@pytest.mark.parametrize(("game_id", "players", "options"), SAMPLES)
def test_every_why_is_a_sentence_ending_with_its_result(game_id: str, players: list, options: dict) -> None:
    """House style: sentence case, a full stop, and the line's points in VP last ('... = 30 VP.', 'No ...: 0 VP.')."""
    for name, key, points, why in lines(scored(game_id, players, options)):
        assert why.endswith("."), (name, key, why)
        assert why[0].isupper() or why[0].isdigit(), (name, key, why)
        assert why.endswith(f"{figure(points)} VP."), (name, key, points, why)


@pytest.mark.parametrize(("game_id", "players", "options"), SAMPLES)
def test_every_line_with_points_says_vp(game_id: str, players: list, options: dict) -> None:
    """'VP' on every line that gives points, never 'points'."""
    for name, key, points, why in lines(scored(game_id, players, options)):
        if points:
            assert "VP" in why, (name, key, why)
        assert " points" not in why, (name, key, why)


@pytest.mark.parametrize(("game_id", "players", "options"), SAMPLES)
def test_minus_signs_are_true_minus_signs(game_id: str, players: list, options: dict) -> None:
    """One way of writing a negative number: the true minus (as the `signed` filter writes it), never '-3'."""
    result = scored(game_id, players, options)
    texts = [why for *_, why in lines(result)] + [result.tiebreak or "", result.to_dict()["winners_text"]]
    for text in texts:
        assert not HYPHEN_MINUS.search(text), text


def test_a_negative_line_and_total_read_with_the_true_minus() -> None:
    """'-1 point per Spire card in each of your Towers with 4 or more total cards'; an Artifact may be negative."""
    result = scored("spires", [{"name": "Ann", "towers": {"green": 14}}, {"name": "Bob", "towers": {"red": 4}}], {})
    assert result.players[0].lines[1].why == "Green 14: 14 cards × −1 = −14 VP."
    assert result.to_dict()["winners_text"] == "Bob wins with −4 VP."
    cy = scored(
        "speros",
        [
            {"name": "Ann", "color": "green"},
            {"name": "Cy", "color": "red", "captured": [card(2, "gold"), card(-4, "gold", terrain="artifact")]},
        ],
        {},
    ).players[1]
    assert cy.lines[0].why == "1 Location: 2 VP; 1 Artifact: −4 VP; together 2 − 4 = −2 VP."


TOWERS = [
    pytest.param(
        {"red": 3, "blue": 3},
        "towers",
        "Red 3, blue 3: 6 cards × 5 = 30 VP.",
        id="5 points per Spire card in each of your Towers with 3 or less total cards",
    ),
    pytest.param(
        {"blue": 4},
        "tall_towers",
        "Blue 4: 4 cards × −1 = −4 VP.",
        id="-1 point per Spire card in each of your Towers with 4 or more total cards",
    ),
    pytest.param({}, "towers", "No tower of 1 to 3 cards: 0 VP.", id="a tower of 0 cards scores nothing"),
]


@pytest.mark.parametrize(("towers", "key", "why"), TOWERS)
def test_the_arithmetic_then_the_points(towers: dict, key: str, why: str) -> None:
    """The issue's example: what was counted, the arithmetic, then the points."""
    result = scored("spires", [{"name": "Ann", "towers": towers}, {"name": "Bob"}], {})
    assert next(line.why for line in result.players[0].lines if line.key == key) == why


# --- the winners' sentence: one function, the same string everywhere -----------------------------------------

WINNERS = [
    pytest.param(
        "spyrium",
        [{"name": "Ann", "vp_track": 42}, {"name": "Bob", "vp_track": 10}],
        {},
        "Ann wins with 42 VP.",
        id="one winner",
    ),
    pytest.param(
        "spyrium",
        [{"name": "Ann", "vp_track": 40}, {"name": "Bob", "vp_track": 40}, {"name": "Cy", "vp_track": 3}],
        {},
        "Ann and Bob share the victory with 40 VP.",
        id="two share the victory",
    ),
    pytest.param(
        "spyrium",
        [{"name": "Ann", "vp_track": 40}, {"name": "Bob", "vp_track": 40}, {"name": "Cy", "vp_track": 40}],
        {},
        "Ann, Bob and Cy share the victory with 40 VP.",
        id="three share the victory",
    ),
    pytest.param(
        "spires",
        [{"name": "Ann", "towers": {"red": 3}}],
        {"solo": True},
        "Ann scores 15 VP.",
        id="a solo player scores",
    ),
    pytest.param(
        "spqf",
        [{"name": "Ann", "vp_tokens": 3, "civ_level": 3}, {"name": "Bob", "vp_tokens": 6, "civ_level": 2}],
        {},
        "Ann wins with 12 VP.",
        id="a tie broken by the rules has one winner",
    ),
]


@pytest.mark.parametrize(("game_id", "players", "options", "sentence"), WINNERS)
def test_winners_sentence(game_id: str, players: list, options: dict, sentence: str) -> None:
    """The result dict carries the sentence winners_sentence() makes, from the dict alone (a stored result too)."""
    answer = scored(game_id, players, options).to_dict()
    assert answer["winners_text"] == sentence
    stored_shape = {key: value for key, value in answer.items() if key != "winners_text"}
    assert winners_sentence(stored_shape) == sentence


def pdf_text(data: bytes) -> str:
    """A PDF's text with every run of white space as one space (the sheet wraps long lines)."""
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


@pytest.mark.parametrize(("game_id", "players", "options", "sentence"), WINNERS)
def test_winners_sentence_is_the_same_on_the_page_the_sheet_and_the_api(
    client, game_id: str, players: list, options: dict, sentence: str
) -> None:
    """One sentence for the result dict, the API's answers, the result page and the A4 score sheet."""
    assert scored(game_id, players, options).to_dict()["winners_text"] == sentence
    answer = client.post(f"/api/v1/score/{game_id}", json={"players": players, "options": options}).get_json()
    assert answer["winners_text"] == sentence
    created = client.post("/api/v1/plays", json={"game": game_id, "players": players, "options": options})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["result"]["winners_text"] == sentence
    url = created.get_json()["url"]
    assert client.get(f"/api/v1{url}").get_json()["result"]["winners_text"] == sentence
    page = client.get(url).get_data(as_text=True)
    assert f'<p class="winners"><strong>{sentence}</strong></p>' in page
    sheet = client.get(f"{url}/sheet.pdf")
    assert sheet.status_code == 200
    assert sentence in pdf_text(sheet.data)


def test_calculator_result_says_the_same_sentence(client) -> None:
    """The calculator's result under its form says the sentence of the result it shows."""
    form = {
        "name-0": "Ann",
        "vp_track-0": "40",
        "name-1": "Bob",
        "vp_track-1": "40",
        "name-2": "Cy",
        "vp_track-2": "40",
    }
    html = client.post("/calculator/spyrium", data=form).get_data(as_text=True)
    assert '<p class="winners"><strong>Ann, Bob and Cy share the victory with 40 VP.</strong></p>' in html


# --- names as the seats spell them ---------------------------------------------------------------------------

MASTERY_NAMES = [
    pytest.param(
        ["ann", "BOB"],
        "Cy",
        "Mastery 'Explorer': Ann and Bob share it, 0 VP.",
        id="leaders typed in lower and upper case are said as seated",
    ),
    pytest.param(["  bob "], "Ann", "Mastery 'Explorer': Bob takes it, 0 VP.", id="a leader typed with spaces"),
    pytest.param(["ANN"], "Ann", "Mastery 'Explorer': you best meet it, 6 VP.", id="the player's own line"),
]


@pytest.mark.parametrize(("leaders", "whose", "why"), MASTERY_NAMES)
def test_mastery_leaders_are_said_as_their_seats_spell_them(leaders: list[str], whose: str, why: str) -> None:
    """'The player who best meets the condition on a Mastery card': typed again later, still the seat's name."""
    players = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}, {"name": "Cy", "color": "blue"}]
    result = scored("speros", players, {"mastery": [{"name": "Explorer", "vp": 6, "leaders": leaders}]})
    line = next(p for p in result.players if p.name == whose).lines[-1]
    assert line.why == why


def test_a_leader_listed_twice_is_named_as_seated() -> None:
    """The refusal names the seat, however the second spelling was typed."""
    players = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]
    with pytest.raises(InputErrors) as caught:
        scored("speros", players, {"mastery": [{"name": "Explorer", "vp": 5, "leaders": ["ann", "ANN"]}]})
    errors = {e.field: e.message for e in caught.value.errors}
    assert errors == {"options.mastery[0].leaders[1]": "Ann is listed twice."}


def test_tracker_ticks_mastery_leaders_given_at_the_start_by_their_seat() -> None:
    """Leaders typed when the play started ('ann') are the tracker's Ann: ticked and scored as Ann."""
    options = speros.SperosOptions.model_validate({"mastery": [{"name": "Explorer", "vp": 6, "leaders": ["ann"]}]})
    ctx = live.Context(("Ann", "Bob", "Cy"), options, speros.LIVE, ("green", "red", "blue"))
    standing = live.standing(speros.GAME, speros.LIVE.start(3, options), ctx)
    assert speros.LIVE.view(standing)["mastery"][0]["leaders"] == ["Ann"]
    assert standing.result.players[0].lines[-1].why == "Mastery 'Explorer': you best meet it, 6 VP."


# --- tie-breaks -------------------------------------------------------------------------------------------------

SPYRIUM_TIES = [
    pytest.param(
        [10, 10],
        "Ann and Bob tied on 10 VP; the game has no tie-break, so they share the victory.",
        id="two share the victory",
    ),
    pytest.param(
        [10, 10, 10],
        "Ann, Bob and Cy tied on 10 VP; the game has no tie-break, so they share the victory.",
        id="three share the victory",
    ),
    pytest.param(
        [12, 5, 5], "Bob and Cy tied on 5 VP; the game has no tie-break, so they share rank 2.", id="two share rank 2"
    ),
    pytest.param(
        [0, 0], "Ann and Bob tied on 0 VP; the game has no tie-break, so they share the victory.", id="nobody scored"
    ),
]


@pytest.mark.parametrize(("track", "sentence"), SPYRIUM_TIES)
def test_spyrium_never_says_still_tied(track: list[int], sentence: str) -> None:
    """Decision (docs/rules.md, "Spyrium"): 'No tie-break is published; tied players share the victory': said once, no
    'still tied'."""
    names = ["Ann", "Bob", "Cy"][: len(track)]
    result = scored("spyrium", [{"name": n, "vp_track": vp} for n, vp in zip(names, track, strict=True)], {})
    assert result.tiebreak == sentence
    assert "still tied" not in result.tiebreak.casefold()


SPEROS_TIES = [
    pytest.param(
        [
            {"name": "Ann", "color": "green", "captured": [card(5, "gold")]},
            {"name": "Bob", "color": "blue", "captured": [card(5, "gold", terrain="ocean")]},
        ],
        "Ann and Bob tied on 5 VP. Most captured Locations of their own colour is equal too: Ann 1 green (Forest), "
        "Bob 1 blue (Ocean). Still tied, Ann and Bob share the victory.",
        id="still tied: each tied player's own colour named",
    ),
    pytest.param(
        [
            {"name": "Ann", "color": "red", "captured": [card(5, "gold", terrain="mountain")]},
            {"name": "Bob", "color": "black", "captured": [card(5, "gold", terrain="artifact")]},
        ],
        "Ann and Bob tied on 5 VP. Tie-break, most captured Locations of their own colour: Ann 1 red (Mountain), "
        "Bob 0 black (Swamp).",
        id="In the event of a tie, the player with the most captured lands of their own color wins",
    ),
]


@pytest.mark.parametrize(("players", "sentence"), SPEROS_TIES)
def test_speros_tie_names_each_players_own_colour(players: list, sentence: str) -> None:
    """'the player with the most captured lands of their own color wins': each player's colour, not the first's."""
    assert scored("speros", players, {}).tiebreak == sentence


def test_spires_and_spqf_tie_breaks_say_vp_and_each_value() -> None:
    """Tied on VP, then each tied player's value, or the one value they share."""
    spires_tie = scored(
        "spires",
        [{"name": "Ann", "towers": {"red": 3, "blue": 4}, "scroll_vp": 4}, {"name": "Bob", "towers": {"red": 3}}],
        {},
    )
    assert spires_tie.tiebreak == "Ann and Bob tied on 15 VP. Tie-break, fewest negative points: Bob 0 VP, Ann −4 VP."
    spqf_tie = scored(
        "spqf", [{"name": "Ann", "vp_tokens": 5, "civ_level": 2}, {"name": "Bob", "vp_tokens": 5, "civ_level": 2}], {}
    )
    assert spqf_tie.tiebreak == (
        "Ann and Bob tied on 11 VP. Highest Civilization Level is equal too: level 2 each. "
        "Still tied, Ann and Bob share the victory."
    )


# --- tracker notes ----------------------------------------------------------------------------------------------


def spires_notes(**seats: dict[str, Any]) -> list[str]:
    """The Spires tracker's notes for seats given by name with their counts."""
    names = tuple(seats)
    options = spires.SpiresOptions()
    ctx = live.Context(names, options, spires.LIVE)
    state = spires.LIVE.start(len(names), options)
    state["seats"] = [{**seat, **counts} for seat, counts in zip(state["seats"], seats.values(), strict=True)]
    return [note.text for note in spires.LIVE.notes(live.standing(spires.GAME, state, ctx))]


def test_spires_symbol_leader_grammar() -> None:
    """'Crowns: Cleo leads with 4.' for one player, 'lead' for several."""
    notes = spires_notes(Ann={"crowns": 1}, Bob={"swords": 2}, Cleo={"crowns": 4, "swords": 2})
    assert "Crowns: Cleo leads with 4." in notes
    assert "Swords: Bob and Cleo lead with 2." in notes
    assert "Quills: nobody has one yet." in notes


def test_tracker_notes_keep_the_house_style() -> None:
    """Notes are sentences with the true minus: 'each card scores −1 VP now'."""
    notes = spires_notes(Ann={"towers": {**spires.Towers().model_dump(), "blue": 5}}, Bob={})
    assert "Ann's blue tower has 5 cards: each card scores −1 VP now." in notes
    for text in notes:
        assert text.endswith(".") and not HYPHEN_MINUS.search(text), text


# --- the Spires calculator's reference notes ----------------------------------------------------------------------


def test_spires_has_reference_notes_like_the_other_games() -> None:
    """The tie-break, the solo rule and the King's Appraisal bands, from the rule text and docs/rules.md."""
    assert all(game.reference_notes is not None for game in GAMES.values())
    notes = spires.reference_notes(spires.SpiresOptions())
    text = " ".join(notes)
    assert "Tied totals: the fewest negative points" in text
    assert "Solo: a symbol bonus scores when you have at least as many" in text
    assert (
        "50 or less: beheaded; 51 to 65: a few days in the stocks; 66 to 80: a greeting card; 81 to 100: an "
        "invitation to the King's gala; 101 to 150: a smile; 151 or more: jailed for cheating."
    ) in text
    assert not any(HYPHEN_MINUS.search(note) for note in notes)


def test_spires_calculator_shows_its_reference_notes(client) -> None:
    """The calculator shows game.reference_notes(options) for Spires as it does for the others."""
    html = client.get("/calculator/spires").get_data(as_text=True)
    for note in spires.reference_notes(spires.SpiresOptions()):
        assert note.replace("'", "&#39;") in html
