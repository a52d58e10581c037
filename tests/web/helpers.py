"""Helpers the web tests share: starting a play by its form, posting as htmx or as a page, reading the tracker
page, its fragments and the stored play, the JSON API, and a fresh PostgreSQL database."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from sqlmodel import Session, select

from companion.store.models import Change, Play, Seat

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg")
    name = f"companion_test_{secrets.token_hex(4)}"
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def post_json(client, url: str, body: Any):
    """POST a JSON body to the API the way another tool would: no CSRF token."""
    return client.post(url, json=body, csrf=False)


def play_form(game: str, names: list[str], colours: list[str | None], **boxes: list[object]) -> dict:
    """The new-play form as the browser sends it: the game, names, colours (None: not sent) and numbered boxes."""
    form = {"game": game}
    form |= {f"name-{i}": name for i, name in enumerate(names)}
    form |= {f"colour-{i}": colour for i, colour in enumerate(colours) if colour is not None}
    for box, values in boxes.items():
        form |= {f"{box}-{i}": str(value) for i, value in enumerate(values)}
    return form


def start_by_form(client, form: dict) -> int:
    """Send the new-play form; checks it redirects to the tracker and returns the new play's id."""
    response = client.post("/plays", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(re.search(r"/plays/(\d+)$", response.headers["Location"]).group(1))


def post(client, htmx: bool, url: str, data: Any = None):
    """POST as htmx sends it (a fragment) or as the plain form does (a page)."""
    return client.htmx("POST", url, data=data or {}) if htmx else client.post(url, data=data or {})


def tap(client, play_id: int, seat_id: int | str, htmx: bool = False, **data):
    """One tap on a seat's counter (or, seat 'table', the table's): field=..., delta=... or value=..."""
    url = f"/plays/{play_id}/table" if seat_id == "table" else f"/plays/{play_id}/seats/{seat_id}"
    return post(client, htmx, url, {k: str(v) for k, v in data.items()})


def seat_ids(client, play_id: int) -> list[int]:
    """The seat ids in turn order, read off the tracker page."""
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    return [int(i) for i in re.findall(r'id="seat-(\d+)"', html)]


def saved(app, play_id: int) -> dict:
    """The play as stored: status, the table's live state, every seat's state, and how many Change rows it has."""
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        seats = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        changes = session.exec(select(Change).where(Change.play_id == play_id)).all()
        return {
            "status": play.status,
            "table": dict(play.extra.get("table", {})),
            "seats": [dict(seat.state) for seat in seats],
            "changes": len(changes),
        }


def oob_value(html: str, seat_id: int, field: str) -> str | None:
    """A counter's value as an out-of-band <output> in a fragment."""
    pattern = rf'<output id="c-{seat_id}-{field}-value" class="value[^"]*"[^>]*hx-swap-oob="true">(\d+)</output>'
    found = re.search(pattern, html)
    return found.group(1) if found else None


def notice(html: str) -> str | None:
    """The text of the out-of-band #notice in a fragment."""
    found = re.search(r'<p id="notice" class="notice" role="status" hx-swap-oob="true">(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


def api_act(client, play: int, body: dict[str, Any], status: int = 200) -> dict:
    """POST an action; the answer, checked for its status."""
    response = post_json(client, f"/api/v1/plays/{play}/actions", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def player(view: dict, name: str) -> dict:
    """A player's entry in the play view."""
    return next(p for p in view["players"] if p["name"] == name)


def created(client, htmx: bool, form: dict) -> tuple[int, str]:
    """Send the new-play form as htmx or as a page; checks the redirect, returns the play's id and tracker URL."""
    response = post(client, htmx, "/plays", form)
    if htmx:
        assert response.status_code == 204
        target = response.headers["HX-Redirect"]
    else:
        assert response.status_code == 303
        target = response.headers["Location"]
    return int(re.search(r"/plays/(\d+)$", target).group(1)), target


def refused_new_play(client, app, htmx: bool, form: dict, message: str, names: list[str]) -> str:
    """Send a bad new-play form; checks it is refused with the message, keeps the names typed and saves nothing."""
    response = post(client, htmx, "/plays", form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in html
    assert ("<html" in html) is not htmx
    if htmx:
        assert html.lstrip().startswith('<form id="new-play"')
    for name in names:
        assert f'value="{name}"' in html, "what was typed stays in the form"
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Play)).all() == []
    return html


def refused_finish(client, app, play_id: int, htmx: bool, form: dict, name: str, message: str) -> dict:
    """Send a bad finish form; checks the message beside box `name`, every box kept and nothing saved.

    Returns the play as saved before (and still after) the refused finish."""
    before = saved(app, play_id)
    response = post(client, htmx, f"/plays/{play_id}/finish", form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert ("<html" in html) is not htmx
    if htmx:
        assert html.lstrip().startswith(
            f'<form id="finish" class="finish card" method="post" action="/plays/{play_id}/finish"'
        )
    # The message sits beside the box it is about, the box flagged; what was typed stays in every box.
    assert f'<p class="error" id="{name}-error">{message}</p>' in html
    assert html.count('<p class="error" id="end-') == 1
    assert re.search(rf'<input id="{name}"[^>]*aria-invalid="true" aria-describedby="{name}-error"', html, re.DOTALL)
    for box, value in form.items():
        assert re.search(rf'name="{box}"\s+value="{re.escape(value)}"', html), box
    # Nothing saved, not even the good boxes; the play goes on.
    assert saved(app, play_id) == before
    assert "Finish and score" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    return before
