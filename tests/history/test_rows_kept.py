"""The history's rows drawn once per history version on each server (companion/history/rows.py, issue 21): read
again they are not drawn again; a correction, a deletion or an import draws them anew; a proxy's prefix has rows
of its own."""

from __future__ import annotations

import re

from companion.store import history_version
from tests.helpers import SPIRES, post_json


def save(client) -> int:
    """A finished Spires play through the API; its id."""
    response = post_json(client, "/api/v1/plays", {"game": "spires", "players": SPIRES})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def row_links(html: str) -> list[str]:
    """Each row's link to its play."""
    return re.findall(r'<a class="row-link" href="([^"]+)"', html)


def test_rows_are_drawn_once_per_version(app, client) -> None:
    plays = [save(client) for _ in range(3)]
    kept = history_version.kept_by(app)
    first = client.get("/history").get_data(as_text=True)
    counted = kept.counted
    assert client.get("/history").get_data(as_text=True) == first
    assert client.htmx("GET", "/history").status_code == 200
    assert kept.counted == counted  # nothing counted nor drawn again
    assert row_links(first) == [f"/plays/{play}" for play in reversed(plays)]
    # A deletion moves the version on: the page is counted and its rows drawn again, without the deleted one.
    assert client.post(f"/history/{plays[0]}/delete").status_code == 303
    after = client.get("/history").get_data(as_text=True)
    assert kept.counted > counted and row_links(after) == [f"/plays/{play}" for play in reversed(plays[1:])]


def test_a_proxy_prefix_has_rows_of_its_own(app, client) -> None:
    play = save(client)
    assert row_links(client.get("/history").get_data(as_text=True)) == [f"/plays/{play}"]
    prefixed = client.get("/history", base_url="http://localhost/club").get_data(as_text=True)
    assert row_links(prefixed) == [f"/club/plays/{play}"]
    home = client.get("/", base_url="http://localhost/club").get_data(as_text=True)
    assert row_links(home) == [f"/club/plays/{play}"]
