"""A tap sent twice with one Idempotency-Key (a retry after an answer lost on the Wi-Fi, a device's queue sent again)
is applied once and answered as the first time, on the tracker and in the API; its Companion-Action-Age dates it,
bounded by the server's clock (issue 34)."""

from __future__ import annotations

import html
import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from companion import create_app
from companion.store.models import Change, Play, utcnow
from tests.helpers import csrf_client, notice, oob_value, post_json, saved, seat_ids, start_play, start_spqf, tap

KEY = "Idempotency-Key"
AGE = "Companion-Action-Age"


def changes(app, play_id: int) -> list[Change]:
    """The play's Change rows in the order saved."""
    with Session(app.extensions["db_engine"]) as session:
        return list(session.exec(select(Change).where(Change.play_id == play_id).order_by(Change.id)).all())


def keyed_tap(client, play_id: int, seat: int, key: str, htmx: bool = True, **data):
    """A tap with an Idempotency-Key (and any other header given as headers=)."""
    headers = {KEY: key, **data.pop("headers", {})}
    url = f"/plays/{play_id}/seats/{seat}"
    form = {k: str(v) for k, v in data.items()}
    if htmx:
        return client.htmx("POST", url, data=form, headers=headers)
    return client.post(url, data=form, headers=headers)


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_the_same_key_twice_on_the_tracker_is_one_tap(app, client, play_id, htmx) -> None:
    ann, _ = seat_ids(client, play_id)
    first = keyed_tap(client, play_id, ann, "tap-1", htmx=htmx, field="crowns", delta=1)
    again = keyed_tap(client, play_id, ann, "tap-1", htmx=htmx, field="crowns", delta=1)
    assert first.status_code == again.status_code == (200 if htmx else 303)
    assert saved(app, play_id)["seats"][0]["crowns"] == 1
    assert [c.client_id for c in changes(app, play_id)] == ["tap-1"]
    if htmx:
        assert oob_value(again.get_data(as_text=True), ann, "crowns") in (None, "1")
        page = client.get(f"/plays/{play_id}").get_data(as_text=True)
        assert f'id="c-{ann}-crowns-value"' in page


def test_the_retry_is_answered_with_what_the_first_said(client) -> None:
    spqf = start_spqf(client, ["Ann", "Bob"])
    ann, _ = seat_ids(client, spqf)
    url = f"/plays/{spqf}/seats/{ann}"
    first = client.htmx("POST", url, data={"field": "civ_level", "delta": "1"}, headers={KEY: "lvl-1"})
    again = client.htmx("POST", url, data={"field": "civ_level", "delta": "1"}, headers={KEY: "lvl-1"})
    said = notice(first.get_data(as_text=True))
    assert said and "first to level 1" in said
    assert notice(again.get_data(as_text=True)) == said


def test_another_key_is_another_tap(app, client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    keyed_tap(client, play_id, ann, "a", field="crowns", delta=1)
    keyed_tap(client, play_id, bob, "b", field="crowns", delta=1)
    keyed_tap(client, play_id, ann, "c", field="crowns", delta=1)
    assert [s["crowns"] for s in saved(app, play_id)["seats"]] == [2, 1]


def test_a_key_is_per_play(app, client, play_id) -> None:
    other = start_play(client, ["Cy", "Di"])
    keyed_tap(client, play_id, seat_ids(client, play_id)[0], "same", field="crowns", delta=1)
    keyed_tap(client, other, seat_ids(client, other)[0], "same", field="crowns", delta=1)
    assert saved(app, play_id)["seats"][0]["crowns"] == saved(app, other)["seats"][0]["crowns"] == 1


def test_an_undo_sent_twice_takes_back_one_action(app, client, play_id) -> None:
    ann, _ = seat_ids(client, play_id)
    tap(client, play_id, ann, field="crowns", delta=1)
    tap(client, play_id, ann, field="crowns", delta=1)
    first = client.htmx("POST", f"/plays/{play_id}/undo", headers={KEY: "undo-1"})
    again = client.htmx("POST", f"/plays/{play_id}/undo", headers={KEY: "undo-1"})
    assert saved(app, play_id)["seats"][0]["crowns"] == 1
    assert notice(first.get_data(as_text=True)) == notice(again.get_data(as_text=True))
    assert notice(again.get_data(as_text=True)).startswith("Took back: Ann")


def test_a_refused_tap_is_not_kept_so_its_retry_is_checked_again(app, client, play_id) -> None:
    ann, _ = seat_ids(client, play_id)
    refused = keyed_tap(client, play_id, ann, "low", field="crowns", delta=-1)
    assert refused.status_code == 422
    assert changes(app, play_id) == []
    again = keyed_tap(client, play_id, ann, "low", field="crowns", delta=-1)
    assert again.status_code == 422


MALFORMED = [
    (KEY, "", "The action's id is 1 to 64 visible characters"),
    (KEY, "x" * 65, "The action's id is 1 to 64 visible characters"),
    (KEY, "has space", "The action's id is 1 to 64 visible characters"),
    (AGE, "-5", "How long ago the action was made is a whole number of milliseconds."),
    (AGE, "soon", "How long ago the action was made is a whole number of milliseconds."),
    (AGE, "9" * 20, "How long ago the action was made is a whole number of milliseconds."),
]


@pytest.mark.parametrize(("header", "value", "message"), MALFORMED)
def test_a_malformed_header_is_refused_beside_the_counter(app, client, play_id, header, value, message) -> None:
    ann, _ = seat_ids(client, play_id)
    response = client.htmx(
        "POST", f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"}, headers={header: value}
    )
    assert response.status_code == 422
    assert message in html.unescape(response.get_data(as_text=True))
    assert saved(app, play_id)["seats"][0]["crowns"] == 0


def test_an_age_dates_the_tap_within_the_server_s_clock(app, client, play_id) -> None:
    ann, _ = seat_ids(client, play_id)
    tap(client, play_id, ann, field="crowns", delta=1)
    before = changes(app, play_id)[0].at
    # Made five seconds ago, before the newest action in the log: dated with it, so the log stays in order.
    keyed_tap(client, play_id, ann, "late", field="crowns", delta=1, headers={AGE: "5000"})
    late = changes(app, play_id)[-1].at
    assert late.replace(tzinfo=None) == before.replace(tzinfo=None)
    # Made a tenth of a second ago, after the newest: dated then, not now.
    sent = utcnow()
    keyed_tap(client, play_id, ann, "soon", field="crowns", delta=1, headers={AGE: "0"})
    assert changes(app, play_id)[-1].at.replace(tzinfo=None) >= sent.replace(tzinfo=None) - timedelta(seconds=1)


def test_an_age_in_the_past_dates_the_tap_then(app, client) -> None:
    play_id = start_play(client, ["Ann", "Bob"])
    ann, _ = seat_ids(client, play_id)
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        play.created_at = utcnow() - timedelta(minutes=10)
        session.add(play)
        session.commit()
    keyed_tap(client, play_id, ann, "made-earlier", field="crowns", delta=1, headers={AGE: "120000"})
    age = utcnow().replace(tzinfo=None) - changes(app, play_id)[0].at.replace(tzinfo=None)
    assert timedelta(seconds=115) < age < timedelta(seconds=130)


# --- The API.


def api_start(client) -> int:
    """A tracked two-player Spires play started through the API."""
    answer = post_json(
        client, "/api/v1/plays", {"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert answer.status_code == 201
    return answer.get_json()["id"]


def api_post(client, url: str, body: dict, key: str | None = None):
    """A JSON POST, with an Idempotency-Key when given."""
    return client.post(url, json=body, csrf=False, headers={KEY: key} if key else {})


def test_the_same_key_twice_in_the_api_is_one_action_answered_the_same(app, client) -> None:
    play_id = api_start(client)
    body = {"action": "add", "player": "Ann", "field": "swords", "delta": 2}
    first = api_post(client, f"/api/v1/plays/{play_id}/actions", body, "api-1")
    again = api_post(client, f"/api/v1/plays/{play_id}/actions", body, "api-1")
    assert first.status_code == again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert first.get_json() == again.get_json()
    assert again.get_json()["players"][0]["swords"] == 2
    log = client.get(f"/api/v1/plays/{play_id}/log").get_json()["log"]
    assert len(log) == 1


def test_an_undo_retried_in_the_api_says_what_it_took_back(app, client) -> None:
    play_id = api_start(client)
    api_post(
        client, f"/api/v1/plays/{play_id}/actions", {"action": "add", "player": "Ann", "field": "swords", "delta": 1}
    )
    api_post(
        client, f"/api/v1/plays/{play_id}/actions", {"action": "add", "player": "Bob", "field": "swords", "delta": 1}
    )
    first = api_post(client, f"/api/v1/plays/{play_id}/undo", {}, "u-1")
    again = api_post(client, f"/api/v1/plays/{play_id}/undo", {}, "u-1")
    assert first.get_json() == again.get_json()
    assert again.get_json()["undone"]["text"].startswith("Bob")
    assert [p["swords"] for p in again.get_json()["players"]] == [1, 0]


def test_a_malformed_key_in_the_api_answers_422_naming_it(app, client) -> None:
    play_id = api_start(client)
    body = {"action": "add", "player": "Ann", "field": "swords", "delta": 1}
    answer = client.post(f"/api/v1/plays/{play_id}/actions", json=body, csrf=False, headers={KEY: "é" * 3})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == KEY


def test_the_same_key_from_many_devices_at_once_is_applied_once(database_url) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url})
    client = csrf_client(app)
    play_id = api_start(client)
    body = {"action": "add", "player": "Ann", "field": "swords", "delta": 1}
    statuses: list[int] = []

    def send() -> None:
        with app.test_client() as device:
            statuses.append(
                device.post(f"/api/v1/plays/{play_id}/actions", json=body, headers={KEY: "burst"}).status_code
            )

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    assert saved(app, play_id)["seats"][0]["swords"] == 1
    app.extensions["db_engine"].dispose()
