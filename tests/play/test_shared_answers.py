"""The sync check's "something new" drawn once per play version and log position, each device given a copy with
its own CSRF token (companion/play/shared_answers.py, issue 21)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from flask import Flask, template_rendered

from companion.play.shared_answers import KEPT, SharedAnswers, shared_answers
from tests.helpers import api_act, csrf_client, shown_version, start_play


@pytest.fixture
def drawn(app: Flask) -> Iterator[list[str]]:
    """The templates the app draws, in order."""
    names: list[str] = []

    def record(_sender, template, **_extra) -> None:
        names.append(template.name)

    template_rendered.connect(record, app)
    yield names
    template_rendered.disconnect(record, app)


def device(app: Flask, token: str):
    """Another device: a client whose session holds a CSRF token of its own."""
    client = csrf_client(app)
    with client.session_transaction() as session:
        session["csrf_token"] = token
    return client


def check(client, play_id: int, since: int, log: str = "log_waiting=0"):
    """The tracker's sync check as htmx sends it."""
    return client.htmx("GET", f"/plays/{play_id}/live?since={since}&{log}")


def undo_token(html: str) -> str:
    """The CSRF token of the Undo form an answer redraws."""
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_devices_that_ask_the_same_get_one_drawing_each_with_its_own_token(app, client, drawn) -> None:
    ann, bob, cy = client, device(app, "token-of-bob"), device(app, "token-of-cy")
    play_id = start_play(ann, ["Ann", "Bob"])
    version = shown_version(ann.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    api_act(ann, play_id, {"action": "add", "player": "Bob", "field": "crowns", "delta": 2})
    drawn.clear()
    answers = [check(client, play_id, version) for client in (bob, cy, bob)]
    assert drawn.count("play/_live.html") == 1
    texts = [answer.get_data(as_text=True) for answer in answers]
    assert [undo_token(text) for text in texts] == ["token-of-bob", "token-of-cy", "token-of-bob"]
    assert texts[0].replace("token-of-bob", "") == texts[1].replace("token-of-cy", "")
    assert all(shown_version(text) == (version + 1, True) for text in texts)
    assert {answer.headers["Content-Type"] for answer in answers} == {"text/html; charset=utf-8"}
    # The copy's token is the device's own: its Undo is taken.
    undone = cy.post(f"/plays/{play_id}/undo", data={"csrf_token": undo_token(texts[1])}, csrf=False)
    assert undone.status_code == 303


def test_another_log_position_or_version_is_drawn_anew(app, client, play_id, drawn) -> None:
    version = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    drawn.clear()
    check(client, play_id, version, "log_waiting=0")
    check(client, play_id, version, "log_after=0")
    assert drawn.count("play/_live.html") == 2
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    html = check(client, play_id, version, "log_waiting=0").get_data(as_text=True)
    assert drawn.count("play/_live.html") == 3 and shown_version(html)[0] == version + 2


def test_the_whole_page_and_a_finished_play_are_never_kept(app, client, play_id, drawn) -> None:
    version = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    drawn.clear()
    page = client.get(f"/plays/{play_id}/live?since={version}")
    assert "<html" in page.get_data(as_text=True) and "play/_live.html" not in drawn
    assert len(shared_answers(app)._answers) == 0
    client.post(f"/plays/{play_id}/finish", data={})
    assert check(client, play_id, version).headers.get("HX-Redirect") == f"/plays/{play_id}"


def test_a_server_keeps_at_most_its_share(app, client, play_id) -> None:
    version = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    for shown in range(KEPT + 5):
        check(client, play_id, version, f"log_waiting={shown}")
    assert len(shared_answers(app)._answers) == KEPT


def test_a_copy_is_answered_before_the_app_a_device_without_a_session_by_the_app(app, client, play_id) -> None:
    from flask import request

    reached: list[str] = []
    app.before_request_funcs.setdefault(None, []).insert(0, lambda: reached.append(request.path) and None)
    version = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))[0]
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})
    first, other = device(app, "token-one"), device(app, "token-two")
    reached.clear()
    drawn_for_first = check(first, play_id, version).get_data(as_text=True)
    assert reached == [f"/plays/{play_id}/live"]
    copy = check(other, play_id, version)
    assert reached == [f"/plays/{play_id}/live"], "the copy went through the app"
    assert copy.get_data(as_text=True) == drawn_for_first.replace("token-one", "token-two")
    assert copy.headers["Content-Length"] == str(len(copy.data)) and copy.headers["X-Frame-Options"] == "DENY"
    # No session yet (no cookie, so no token of its own): the app answers it, and gives it one.
    stranger = app.test_client()
    answer = check(stranger, play_id, version)
    assert reached[-1] == f"/plays/{play_id}/live" and len(reached) == 2
    assert undo_token(answer.get_data(as_text=True)) not in ("token-one", "token-two", "")


def test_a_device_that_asks_while_another_draws_waits_for_that_drawing() -> None:
    """Devices of a table ask within moments of each other: the first draws, the one that comes meanwhile waits for
    that drawing and takes its copy instead of drawing another."""
    answers = SharedAnswers()
    key = (7, 3, 12, True)
    steps: list[str] = []
    inside, finish = threading.Event(), threading.Event()

    def first() -> None:
        with answers.drawing(key) as draws:
            steps.append(f"first draws: {draws}")
            inside.set()
            finish.wait(5)
            steps.append("first done")

    def second() -> None:
        with answers.drawing(key) as draws:
            steps.append(f"second draws: {draws}")

    one = threading.Thread(target=first)
    one.start()
    assert inside.wait(5)
    two = threading.Thread(target=second)
    two.start()
    two.join(0.2)
    assert two.is_alive(), "the second device waits while the first draws"
    finish.set()
    one.join(5)
    two.join(5)
    assert steps == ["first draws: True", "first done", "second draws: False"]
    # The drawing is over: the next to come (the answer not kept, say) draws again.
    with answers.drawing(key) as draws:
        assert draws


def test_a_drawing_that_fails_lets_the_next_device_draw() -> None:
    answers = SharedAnswers()
    key = (7, 3, None, False)
    with pytest.raises(RuntimeError), answers.drawing(key):
        raise RuntimeError("the database went away")
    with answers.drawing(key) as draws:
        assert draws
