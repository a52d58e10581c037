"""A tap reads and writes its play once (issue 10: a tap within 3x of a minimal commit): the view claims the play,
reads it with its seats in one query, and the action writes under that same claim, without a second claim, a second
read or a query for Undo. Counted in SQL statements, not timed; bench/taps.py has the times."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from companion.store import play_version
from companion.store.db import get_session
from tests.helpers import seat_ids, shown_version, tap_since


@contextmanager
def statements(app) -> Iterator[list[str]]:
    """The SQL statements the app runs inside the block, each as its first word and table."""
    seen: list[str] = []

    def record(_conn, _cursor, statement: str, *_args) -> None:
        """Keep the statement's verb and the table it names first."""
        found = re.match(
            r"\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM)\s.*?\b(?:FROM\s+)?(play|seat|change)\b", statement, re.DOTALL
        )
        seen.append(" ".join(found.groups()) if found else statement.split()[0])

    engine = app.extensions["db_engine"]
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_a_saved_tap_claims_reads_and_writes_its_play_once(app, client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    version, _ = shown_version(page)
    # The tracker sends where its log stands with every tap (hx-include), as it sends its version.
    log_field = re.search(r'id="log-after" name="(log_\w+)" value="(\d+)"', page).groups()
    with statements(app) as seen:
        data = {"field": "crowns", "delta": "1", "since": str(version), log_field[0]: log_field[1]}
        response = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data=data)
    assert response.status_code == 200
    assert seen == ["UPDATE play", "SELECT play", "UPDATE seat", "INSERT INTO change"]
    # Undo is offered without asking the database: the tap just saved is there to take back.
    assert 'id="undo-button"' in response.get_data(as_text=True)
    assert shown_version(response.get_data(as_text=True))[0] == version + 1


def version_of(app, play_id: int) -> tuple[int, str] | None:
    """The play's version and status as stored."""
    with app.test_request_context():
        return play_version.play_version(get_session().connection(), play_id)


def test_a_tap_on_a_play_put_aside_leaves_it_as_it_was(app, client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    assert client.post(f"/plays/{play_id}/abandon").status_code in (200, 303)
    before = version_of(app, play_id)
    response = tap_since(client, play_id, ann, "crowns", 1, since=None)
    assert response.headers["HX-Redirect"].endswith(f"/plays/{play_id}")
    # The claim taken for the tap is let go with nothing written: no device sees news that isn't there.
    assert version_of(app, play_id) == before


def test_a_tap_on_a_play_that_is_not_there_is_a_404(client) -> None:
    assert tap_since(client, 999, 1, "crowns", 1, since=None).status_code == 404
    assert client.post("/api/v1/plays/999/actions", json={"action": "add", "field": "crowns"}).status_code == 404


UNDO_BUTTON = re.compile(r'<button id="undo-button" class="button" type="submit" ?(disabled)?>')


def test_undo_is_offered_once_there_is_something_to_take_back(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    refused = tap_since(client, play_id, ann, "crowns", -1, since=None)
    assert refused.status_code == 422
    assert UNDO_BUTTON.search(refused.get_data(as_text=True)).group(1) == "disabled"
    saved = tap_since(client, play_id, ann, "crowns", 1, since=None)
    assert UNDO_BUTTON.search(saved.get_data(as_text=True)).group(1) is None
    # Refused after a saved tap: the saved one is still there to take back.
    refused = tap_since(client, play_id, ann, "crowns", -5, since=None)
    assert refused.status_code == 422
    assert UNDO_BUTTON.search(refused.get_data(as_text=True)).group(1) is None


def test_a_follower_finds_another_tap_in_three_reads(app, client, play_id, monkeypatch) -> None:
    """A device one tap behind reads the play's version once (the check in front of the app asks it past
    SQLAlchemy's execution layer and hands it on), the play with its seats in one query and the log's news in one
    more; Undo and what the news said come with the news."""
    ann, _bob = seat_ids(client, play_id)
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    version, _ = shown_version(page)
    log_field = re.search(r'id="log-after" name="(log_\w+)" value="(\d+)"', page).groups()
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    asked: list[int] = []
    ask = play_version.ask_play_version
    monkeypatch.setattr(
        play_version, "ask_play_version", lambda engine, asked_id: asked.append(asked_id) or ask(engine, asked_id)
    )
    with statements(app) as seen:
        response = client.htmx("GET", f"/plays/{play_id}/live?since={version}&{log_field[0]}={log_field[1]}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert asked == [play_id] and seen == ["SELECT play", "SELECT change"]
    assert re.search(rf'id="c-{ann}-crowns-value"[^>]*>1<', html)
    assert 'id="undo-button"' in html and "disabled" not in html.split('id="undo-button"')[1].split(">")[0]
    assert shown_version(html)[0] == version + 1
