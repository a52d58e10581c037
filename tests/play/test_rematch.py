"""Play again (issue 10): from a result, the same game with the same players and colours, the first player passed to
the left, in one tap; or the new-play form filled the same way, to change something first."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from companion.store.models import Play, Seat


def start(client, game: str, rows: list[tuple[str, str]], **options: str) -> int:
    """Start a play through the new-play form with (name, colour) rows; its id."""
    form = {"game": game, **options}
    for i, (name, colour) in enumerate(rows):
        form |= {f"name-{i}": name, f"colour-{i}": colour}
    response = client.post("/plays", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def finish(client, play_id: int) -> str:
    """Finish the play (nothing counted at the end) and return its result page."""
    assert client.post(f"/plays/{play_id}/finish", data={}).status_code == 303
    return client.get(f"/plays/{play_id}").get_data(as_text=True)


def again_fields(html: str) -> list[tuple[str, str]]:
    """The hidden fields of the result page's Play again form, in order."""
    form = re.search(r'<form class="play-again" method="post" action="/plays">(.*?)</form>', html, re.DOTALL)
    assert form, "no Play again form"
    return [
        (n, v)
        for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(1))
        if n != "csrf_token"
    ]


def seats(app, play_id: int) -> list[tuple[str, str]]:
    """The stored seats of a play in turn order: (name, colour)."""
    with Session(app.extensions["db_engine"]) as session:
        rows = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        return [(seat.name, seat.colour) for seat in rows]


def test_play_again_passes_the_first_player_to_the_left_in_one_tap(app, client) -> None:
    first = start(client, "spires", [("Ann", "red"), ("Bob", "blue"), ("Cy", "green")])
    html = finish(client, first)
    fields = again_fields(html)
    assert fields == [
        ("game", "spires"),
        ("name-0", "Bob"),
        ("colour-0", "blue"),
        ("name-1", "Cy"),
        ("colour-1", "green"),
        ("name-2", "Ann"),
        ("colour-2", "red"),
    ]
    assert '<button class="button primary" type="submit">Play again: Bob starts</button>' in html
    response = client.post("/plays", data=dict(fields))
    assert response.status_code == 303
    second = int(response.headers["Location"].rsplit("/", 1)[1])
    assert second != first
    assert seats(app, second) == [("Bob", "blue"), ("Cy", "green"), ("Ann", "red")]


def test_play_again_keeps_the_options(app, client) -> None:
    solo = start(client, "spires", [("Ann", "yellow")], solo="on")
    fields = again_fields(finish(client, solo))
    assert ("solo", "on") in fields
    table = {f"level_vp-{i}": str(v) for i, v in enumerate((0, 2, 5, 9, 12, 16))}
    spqf = start(client, "spqf", [("Ann", "red"), ("Bob", "blue")], **table)
    fields = again_fields(finish(client, spqf))
    assert [v for n, v in fields if n.startswith("level_vp-")] == ["0", "2", "5", "9", "12", "16"]
    with Session(app.extensions["db_engine"]) as session:
        response = client.post("/plays", data=dict(fields))
        again = session.get(Play, int(response.headers["Location"].rsplit("/", 1)[1]))
        assert again.options["level_vp"] == [0, 2, 5, 9, 12, 16]


@pytest.mark.parametrize("game", ["spires", "spqf", "spyrium", "speros"])
def test_every_game_offers_play_again(client, game) -> None:
    colours = {
        "spires": ("blue", "red"),
        "spqf": ("red", "blue"),
        "spyrium": ("red", "blue"),
        "speros": ("green", "red"),
    }
    play = start(client, game, [("Ann", colours[game][0]), ("Bob", colours[game][1])])
    html = finish(client, play)
    assert again_fields(html)[:3] == [("game", game), ("name-0", "Bob"), ("colour-0", colours[game][1])]
    assert f'<a class="button" href="/plays/new?again={play}">Change players or colours</a>' in html


def test_change_players_first_fills_the_new_play_form(client) -> None:
    play = start(client, "spyrium", [("Ann", "red"), ("Bob", "purple"), ("Cy", "green")])
    finish(client, play)
    html = client.get(f"/plays/new?again={play}").get_data(as_text=True)
    names = re.findall(r'<input type="text" name="name-(\d)" value="([^"]*)"', html)
    assert names[:4] == [("0", "Bob"), ("1", "Cy"), ("2", "Ann"), ("3", "")]
    selected = re.findall(r'<select name="colour-(\d)".*?<option value="(\w+)" selected>', html, re.DOTALL)
    # The players keep their colours; the empty rows offer the colours nobody has, in the game's order.
    assert selected == [("0", "purple"), ("1", "green"), ("2", "red"), ("3", "blue"), ("4", "yellow")]
    assert '<input type="hidden" name="game" value="spyrium">' in html


@pytest.mark.parametrize("again", ["999", "soon", ""])
def test_change_players_of_a_play_that_is_not_there_is_an_empty_form(client, again) -> None:
    html = client.get(f"/plays/new?game=spqf&again={again}").get_data(as_text=True)
    assert re.findall(r'<input type="text" name="name-0" value="([^"]*)"', html) == [""]
