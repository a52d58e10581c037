"""The same play on SQLite and on PostgreSQL (DATABASE_URL), and taps from two devices at once."""

from __future__ import annotations

import re
import threading

from tests.helpers import TOKEN, csrf_client, start_play


def test_whole_play_on_each_database(db_client) -> None:
    client, _app = db_client
    play = start_play(client, ["Ann", "Bob"])
    ann, bob = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))
    tapped = client.htmx("POST", f"/plays/{play}/seats/{ann}", data={"field": "towers.red", "delta": "1"})
    assert tapped.status_code == 200
    client.post(f"/plays/{play}/seats/{bob}", data={"field": "swords", "value": "1"})
    client.post(f"/plays/{play}/undo")
    client.post(f"/plays/{play}/seats/{bob}", data={"field": "quills", "value": "1"})
    assert client.post(f"/plays/{play}/finish").status_code == 303
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "Bob wins with 10 VP." in html  # quills 10 against one red card's 5
    assert f"/plays/{play}" in client.get("/history").get_data(as_text=True)
    assert client.get(f"/plays/{play}/sheet.pdf").status_code == 200


def test_two_devices_tapping_at_once_lose_no_tap(db_client) -> None:
    """Each tap is a read-modify-write; the seat's version makes a lost update retry instead."""
    client, app = db_client
    play = start_play(client, ["Ann", "Bob"])
    ann = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))[0]
    taps_each = 10
    statuses: list[int] = []

    def device() -> None:
        other = csrf_client(app)
        for _ in range(taps_each):
            response = other.post(
                f"/plays/{play}/seats/{ann}",
                data={"field": "scroll_vp", "delta": "1"},
                headers={"X-CSRF-Token": TOKEN, "HX-Request": "true"},
            )
            statuses.append(response.status_code)

    threads = [threading.Thread(target=device) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * (2 * taps_each)
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    scroll_vp = re.search(rf'id="c-{ann}-scroll_vp-value"[^>]*>(\d+)<', html).group(1)
    assert int(scroll_vp) == 2 * taps_each


def test_two_devices_never_break_a_rule_that_spans_seats(db_client) -> None:
    """Ann's and Bob's devices add crowns at once: together they stop at the deck's 8, never 9."""
    client, app = db_client
    play = start_play(client, ["Ann", "Bob"])
    seats = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))
    statuses: list[int] = []

    def device(seat: str) -> None:
        other = csrf_client(app)
        for _ in range(6):
            response = other.post(
                f"/plays/{play}/seats/{seat}",
                data={"field": "crowns", "delta": "1"},
                headers={"X-CSRF-Token": TOKEN, "HX-Request": "true"},
            )
            statuses.append(response.status_code)

    threads = [threading.Thread(target=device, args=(seat,)) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] * 8 + [422] * 4
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    crowns = [int(n) for n in re.findall(r'id="c-\d+-crowns-value" class="value"[^>]*>(\d+)<', html)]
    assert sum(crowns) == 8
    assert client.post(f"/plays/{play}/finish").status_code == 303


def test_finish_and_taps_at_once_keep_the_result_as_scored(db_client) -> None:
    """Taps racing a finish either land before it (and are scored) or are refused; none changes a result."""
    client, app = db_client
    play = start_play(client, ["Ann", "Bob"])
    ann = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))[0]

    def tapper() -> None:
        other = csrf_client(app)
        for _ in range(15):
            other.post(
                f"/plays/{play}/seats/{ann}",
                data={"field": "scroll_vp", "delta": "1"},
                headers={"X-CSRF-Token": TOKEN, "HX-Request": "true"},
            )

    thread = threading.Thread(target=tapper)
    thread.start()
    assert client.post(f"/plays/{play}/finish").status_code == 303
    thread.join()
    result = client.get(f"/api/v1/plays/{play}").get_json()
    ann_input = result["players"][0]["scroll_vp"]
    ann_scored = next(line for line in result["result"]["players"][0]["breakdown"] if line["key"] == "scrolls")
    assert ann_scored["points"] == ann_input


def test_several_api_clients_acting_on_one_spqf_play_lose_no_action(db_client) -> None:
    """Four programs send actions to one SPQF play at once: every one is applied and logged, none is lost."""
    client, app = db_client
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    started = client.post("/api/v1/plays", json={"game": "spqf", "track": True, "players": players}, csrf=False)
    play = started.get_json()["id"]
    clients, each = 4, 12
    statuses: list[int] = []

    def program(number: int) -> None:
        other = app.test_client()
        for step in range(each):
            body = {"action": "add", "player": players[(number + step) % 3]["name"], "field": "vp_tokens", "delta": 1}
            statuses.append(other.post(f"/api/v1/plays/{play}/actions", json=body).status_code)

    threads = [threading.Thread(target=program, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * (clients * each)
    view = client.get(f"/api/v1/plays/{play}").get_json()
    assert sum(p["vp_tokens"] for p in view["players"]) == clients * each
    from sqlmodel import Session, select

    from companion.store.models import Change

    with Session(app.extensions["db_engine"]) as session:
        logged = session.exec(select(Change).where(Change.play_id == play)).all()
    assert len(logged) == clients * each
