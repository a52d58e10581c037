"""Blank score pads (/games/<id>/pad.pdf?players=N): the game's lines from its pad hook, empty boxes, its rules."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from companion.games import GAMES
from companion.printing import pdf
from tests.helpers import SPEROS, SPEROS_OPTIONS, SPIRES, SPIRES_SOLO, SPQF, SPYRIUM

COUNTS = [(game, count) for game in ("spires", "spqf", "speros") for count in (2, 3, 4)]
COUNTS += [("spyrium", count) for count in (2, 3, 4, 5)]

# A real result of each game, to hold the pad's rows against the lines score() gives.
RESULTS = {
    "spires": (SPIRES, None),
    "spires-solo": (SPIRES_SOLO, {"solo": True, "discard": {"crowns": 1}}),
    "spqf": (SPQF, None),
    "spyrium": (SPYRIUM, None),
    "speros": (SPEROS, SPEROS_OPTIONS),
}


def pdf_text(data: bytes) -> str:
    """Every page's text, pages joined by newlines."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def squeezed(text: str) -> str:
    """The text with every run of white space one space: a rule wrapped over lines reads as one sentence."""
    return " ".join(text.split())


@pytest.mark.parametrize("case", RESULTS)
def test_the_pad_rows_are_the_lines_score_gives(case: str) -> None:
    game = GAMES[case.removesuffix("-solo")]
    players, options = RESULTS[case]
    models, opts = game.validate(players, options)
    result = game.score(models, opts)
    pad = game.pad(opts)
    for player in result.players:
        assert [(line.key, line.label) for line in player.lines] == [(line.key, line.label) for line in pad.lines]
    # The rows are the game's breakdown, every row says how to count it, in a sentence.
    assert [(line.key, line.label) for line in pad.lines] == list(game.breakdown)
    assert all(len(line.rule) > 10 and line.rule.endswith(".") for line in pad.lines)


@pytest.mark.parametrize(("game_id", "count"), COUNTS)
def test_a_blank_pad_for_each_game_and_player_count(client, game_id: str, count: int) -> None:
    game = GAMES[game_id]
    response = client.get(f"/games/{game_id}/pad.pdf?players={count}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == f'inline; filename="{game_id}-pad-{count}-players.pdf"'
    text = pdf_text(response.data)
    flat = squeezed(text)
    assert f"{game.name} score pad · {count} players" in flat
    pad = game.pad(game.options_model())
    for line in pad.lines:
        assert line.label in text.splitlines(), line.label
        assert squeezed(line.rule) in flat, line.rule
    for note in pad.notes:
        assert squeezed(note) in flat, note
    lines = text.splitlines()
    assert "Total" in lines and "Rank" in lines
    # A box for each player's name (and colour, in a game with colours); no figure in any box.
    assert text.count("name") == count
    assert text.count("colour") >= (count if game.colours else 0)
    assert not [line for line in lines if re.fullmatch(r"(Total|Rank)?[ +−\d]+", line)]


def test_a_solo_spires_pad(client) -> None:
    text = pdf_text(client.get("/games/spires/pad.pdf?players=1").data)
    flat = squeezed(text)
    assert "Spires score pad · solo" in flat
    assert "15 VP if your crowns ≥ the crowns in the discard pile (never for 0)." in flat
    assert "King's Appraisal" in text.splitlines() and "Rank" not in text.splitlines()
    assert "50 or less: beheaded" in flat and "151 or more: jailed for cheating" in flat
    # Alone there is no first player, and no colour to tell players apart.
    assert "First player" not in text and "colour" not in text and text.count("name") == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/games/spqf/pad.pdf?players=1", "SPQF is for 2 to 4 players; 1 given."),
        ("/games/spyrium/pad.pdf?players=6", "Spyrium is for 2 to 5 players; 6 given."),
        ("/games/spires/pad.pdf?players=5", "Spires is for 2 to 4 players; 5 given."),
        ("/games/speros/pad.pdf?players=0", "is for 2 to 4 players; 0 given."),
        ("/games/spqf/pad.pdf?players=three", "Say how many players the pad is for: players=2 to 4."),
        ("/games/spqf/pad.pdf", "Say how many players the pad is for: players=2 to 4."),
        ("/games/spires/pad.pdf?players=99999999999999999999", "Spires is for 2 to 4 players"),
    ],
)
def test_a_player_count_the_game_does_not_allow_is_refused(client, url: str, message: str) -> None:
    response = client.get(url)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)


def test_an_unknown_game_has_no_pad(client) -> None:
    assert client.get("/games/chess/pad.pdf?players=2").status_code == 404


def test_a_pad_is_rendered_once_and_printed_on_the_paper_set(app, client, monkeypatch) -> None:
    renders: list[str] = []
    real = pdf._render

    def counted(html: str):
        renders.append(html)
        return real(html)

    monkeypatch.setattr(pdf, "_render", counted)
    first = client.get("/games/spqf/pad.pdf?players=3")
    again = client.get("/games/spqf/pad.pdf?players=3")
    assert again.data == first.data and len(renders) == 1
    assert (
        client.get("/games/spqf/pad.pdf?players=3", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    )
    box = PdfReader(io.BytesIO(first.data)).pages[0].mediabox
    assert abs(float(box.width) - 210 / 25.4 * 72) < 0.5
    app.config["PAPER_SIZE"] = "Letter"
    letter = client.get("/games/spqf/pad.pdf?players=3")
    box = PdfReader(io.BytesIO(letter.data)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


PAD_LINK = re.compile(r'<a class="button small" href="/games/(\w+)/pad\.pdf\?players=(\d)"')


@pytest.mark.parametrize(
    ("game", "counts"),
    [
        ("spires", ["1", "2", "3", "4"]),
        ("spqf", ["2", "3", "4"]),
        ("spyrium", ["2", "3", "4", "5"]),
        ("speros", ["2", "3", "4"]),
    ],
)
def test_the_calculator_and_the_game_page_offer_each_blank_pad(client, game: str, counts: list[str]) -> None:
    """Solo (players=1) only where the game has a solo pad; each link gives a PDF."""
    for url in (f"/calculator/{game}", f"/games/{game}"):
        links = PAD_LINK.findall(client.get(url).get_data(as_text=True))
        assert links == [(game, count) for count in counts], url
    for count in counts:
        assert client.get(f"/games/{game}/pad.pdf?players={count}").status_code == 200
