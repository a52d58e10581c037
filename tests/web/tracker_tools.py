"""Helpers the tracker route tests share: reading the tracker page, its fragments and the stored play."""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session, select

from companion.models import Change, Play, Seat
from tests.web.test_api import post_json


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
