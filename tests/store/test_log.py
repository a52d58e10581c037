"""The log of a game (issue 15, "Trust at the table"): the tracker's *What happened* panel (full page, a tap's
answer, an undo's and the sync check's, each adding only what the device has not shown), an undo made on another
device said in the sync check's notice, the result page's log, and GET /api/v1/plays/<id>/log on SQLite and
PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import event
from sqlmodel import Session, select

from companion.store.models import Change, Play
from tests.helpers import SPIRES, api_act, notice, post_json, seat_ids, start_play

ENTRY = re.compile(
    r'<li id="log-(\d+)" class="log-entry([^"]*)"( hx-swap-oob="true")?>\s*<time datetime="([^"]+)" data-local-time>'
    r'(\d\d:\d\d)</time>\s*<span class="log-said">(.*?)</span>( <span class="taken-back">\(taken back\)</span>)?</li>'
)
LOG_AFTER = re.compile(
    r'<input type="hidden" id="log-after" name="(?:log_after|log_waiting)" value="(\d+)"( hx-swap-oob="true")?>'
)
VERSION = re.compile(r'id="play-version" name="since" value="(\d+)"')


def entries(html: str) -> list[tuple[str, bool]]:
    """The log entries drawn in a page or fragment: (what it said, taken back), in order."""
    return [(found.group(6), bool(found.group(7))) for found in ENTRY.finditer(html)]


def shown(client, play_id: int) -> tuple[int, int, str]:
    """What a device shows once it loaded the tracker: the play's version, the newest log entry, and the page."""
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    return int(VERSION.search(html).group(1)), int(LOG_AFTER.search(html).group(1)), html


def tap(client, play_id: int, seat: int, field: str, delta: int, since: int | None, log_after: int | None):
    """A counter tap as htmx sends it, with what the device shows."""
    data = {"field": field, "delta": str(delta)}
    if since is not None:
        data["since"] = str(since)
    if log_after is not None:
        data["log_after"] = str(log_after)
    return client.htmx("POST", f"/plays/{play_id}/seats/{seat}", data=data)


def the_log(client, play_id: int, htmx: bool = True) -> str:
    """The whole log as the tracker's panel loads it once opened (htmx), or as its own page."""
    if htmx:
        return client.htmx("GET", f"/plays/{play_id}/log").get_data(as_text=True)
    return client.get(f"/plays/{play_id}/log").get_data(as_text=True)


def appended(html: str) -> str:
    """The entries a fragment adds at the end of the device's list (out of band, beforeend)."""
    found = re.search(r'<div hx-swap-oob="beforeend:#log-list">(.*?)</div>', html, re.DOTALL)
    return found.group(1) if found else ""


# --- The tracker's panel ------------------------------------------------------------------------------------------


EVERY_TAP = [("Bob, swords +1", False), ("Ann, crowns +2", True), ("Took back: Ann, crowns +2.", False)]


def test_the_tracker_page_has_the_panel_collapsed_after_the_seats(client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "swords", "delta": "1"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "2"})
    client.post(f"/plays/{play_id}/undo")
    _version, newest, html = shown(client, play_id)
    assert '<details id="log" class="card log">' in html  # collapsed: no "open"
    # After every seat, before the finish form: growing, it moves nothing a finger is on.
    assert html.index(f'id="seat-{bob}"') < html.index('id="log"') < html.index('id="finish"')
    # Its entries are read once it is opened (the page costs the same however long the game); it knows the newest.
    assert entries(html) == []
    assert re.search(
        rf'<summary hx-get="/plays/{play_id}/log" hx-target="#log-body" hx-swap="innerHTML" '
        r'hx-trigger="click once"\s+hx-sync="closest .tracker:queue all">What happened</summary>',
        html,
    )
    assert f'<a href="/plays/{play_id}/log">Show every tap so far</a>' in html
    assert newest == max_change_id(client, play_id)
    assert f'name="log_waiting" value="{newest}">' in html
    assert 'hx-include="#play-version, #log-after"' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_opened_panel_gets_every_entry_in_order(client, play_id, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "swords", "delta": "1"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "2"})
    client.post(f"/plays/{play_id}/undo")
    html = the_log(client, play_id, htmx)
    assert entries(html) == EVERY_TAP
    if htmx:
        # From now on the panel shows the entries: answers add to them.
        assert f'name="log_after" value="{max_change_id(client, play_id)}" hx-swap-oob="true">' in html
        assert "<html" not in html
    else:
        assert "<html" in html and f'href="/plays/{play_id}"' in html


def test_a_new_play_shows_an_empty_log_that_says_so(client, play_id) -> None:
    _version, newest, _html = shown(client, play_id)
    html = the_log(client, play_id)
    assert newest == 0 and entries(html) == []
    assert "Nothing yet: the first tap shows here." in html


def test_the_log_of_a_play_that_is_not_there_is_404(client) -> None:
    assert client.get("/plays/999/log").status_code == 404
    assert client.htmx("GET", "/plays/999/log").status_code == 404


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_tap_adds_only_its_entry(client, play_id, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    version, newest, _html = shown(client, play_id)
    if not htmx:
        response = client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "swords", "delta": "1"})
        assert response.status_code == 303
        assert entries(the_log(client, play_id, htmx=False)) == [("Ann, crowns +1", False), ("Ann, swords +1", False)]
        return
    html = tap(client, play_id, ann, "swords", 1, version, newest).get_data(as_text=True)
    # Only the new entry, added at the end of what the device shows; never the whole list again.
    assert entries(appended(html)) == [("Ann, swords +1", False)]
    assert 'id="log-list"' not in html and entries(html) == [("Ann, swords +1", False)]
    after = LOG_AFTER.search(html)
    assert after and int(after.group(1)) == max_change_id(client, play_id) and after.group(2)


def test_a_refused_tap_adds_nothing_and_keeps_the_newest_entry(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    version, newest, _html = shown(client, play_id)
    response = tap(client, play_id, ann, "swords", -1, version, newest)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert entries(html) == [] and int(LOG_AFTER.search(html).group(1)) == newest


def test_a_tap_from_a_device_behind_adds_what_it_missed_too(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    version, newest, _html = shown(client, play_id)
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "quills", "delta": 2})
    html = tap(client, play_id, ann, "crowns", 1, version, newest).get_data(as_text=True)
    assert entries(appended(html)) == [("Bob, quills +2", False), ("Ann, crowns +1", False)]


def test_a_panel_never_opened_gets_no_entries_but_follows_the_newest(client, play_id) -> None:
    """Nothing is drawn into a list that isn't there (htmx would call that an error); the device's position moves
    on, so that the panel, once opened, and every answer after it start from there."""
    ann, _bob = seat_ids(client, play_id)
    version, newest, _html = shown(client, play_id)
    data = {"field": "crowns", "delta": "1", "since": str(version), "log_waiting": str(newest)}
    html = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data=data).get_data(as_text=True)
    assert entries(html) == [] and "log-list" not in html
    assert f'name="log_waiting" value="{max_change_id(client, play_id)}" hx-swap-oob="true">' in html


def test_a_request_that_does_not_say_what_it_shows_gets_no_entries(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    html = tap(client, play_id, ann, "crowns", 1, None, None).get_data(as_text=True)
    assert entries(html) == []
    assert f'name="log_waiting" value="{max_change_id(client, play_id)}" hx-swap-oob="true">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_adds_its_entry_and_marks_the_one_it_took_back(client, play_id, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "swords", "delta": "1"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    version, newest, _html = shown(client, play_id)
    if not htmx:
        response = client.post(f"/plays/{play_id}/undo")
        assert response.status_code == 303
        page = the_log(client, play_id, htmx=False)
        assert entries(page)[1:] == [("Ann, crowns +1", True), ("Took back: Ann, crowns +1.", False)]
        return
    html = client.htmx("POST", f"/plays/{play_id}/undo", data={"since": version, "log_after": newest}).get_data(
        as_text=True
    )
    assert entries(appended(html)) == [("Took back: Ann, crowns +1.", False)]
    # The entry the device shows already is redrawn alone, marked, out of band.
    marked = [m for m in ENTRY.finditer(html) if m.group(3)]
    assert [(m.group(1), m.group(6), bool(m.group(7))) for m in marked] == [(str(newest), "Ann, crowns +1", True)]
    assert notice(html) == "Took back: Ann, crowns +1."


# --- Other devices: the sync check ---------------------------------------------------------------------------------


def test_the_sync_check_brings_another_devices_taps_without_a_notice(client, play_id) -> None:
    version, newest, _html = shown(client, play_id)
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "swords", "delta": 1})
    html = client.htmx("GET", f"/plays/{play_id}/live?since={version}&log_after={newest}").get_data(as_text=True)
    assert entries(appended(html)) == [("Bob, swords +1", False)]
    # A tap elsewhere leaves this device's notice be (it may still say this device's own undo).
    assert notice(html) is None


def test_an_undo_on_another_device_is_said_by_the_sync_check(client) -> None:
    play_id = start_play(client, ["Ann", "Bob", "Cy"])
    api_act(client, play_id, {"action": "add", "player": "Cy", "field": "swords", "delta": 1})
    version, newest, _html = shown(client, play_id)
    assert post_json(client, f"/api/v1/plays/{play_id}/undo", {}).status_code == 200
    html = client.htmx("GET", f"/plays/{play_id}/live?since={version}&log_after={newest}").get_data(as_text=True)
    assert notice(html) == "Took back: Cy, swords +1."
    assert entries(appended(html)) == [("Took back: Cy, swords +1.", False)]
    assert ("Cy, swords +1", True) in entries(html)
    # Heard once: the next check, from where this one left the device, is "nothing new".
    after = int(LOG_AFTER.search(html).group(1))
    again = client.htmx("GET", f"/plays/{play_id}/live?since={int(VERSION.search(html).group(1))}&log_after={after}")
    assert (again.status_code, again.data) == (200, b"")


def test_the_sync_check_as_a_whole_page_has_the_panel(client, play_id) -> None:
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "swords", "delta": 1})
    html = client.get(f"/plays/{play_id}/live").get_data(as_text=True)
    assert '<details id="log" class="card log">' in html
    assert f'name="log_waiting" value="{max_change_id(client, play_id)}">' in html


def test_an_undo_elsewhere_is_said_even_while_the_panel_was_never_opened(client, play_id) -> None:
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "swords", "delta": 1})
    version, newest, _html = shown(client, play_id)
    assert post_json(client, f"/api/v1/plays/{play_id}/undo", {}).status_code == 200
    html = client.htmx("GET", f"/plays/{play_id}/live?since={version}&log_waiting={newest}").get_data(as_text=True)
    assert notice(html) == "Took back: Bob, swords +1."
    assert entries(html) == []


def test_nothing_new_is_still_one_small_query(client, app, play_id) -> None:
    """The log adds nothing to "nothing new": the sync check reads the play's version and status, nothing else.

    Counted as the database ran them (SQLite's trace of every connection), as the check asks past SQLAlchemy's
    events."""
    version, newest, _html = shown(client, play_id)
    statements: list[str] = []
    engine = app.extensions["db_engine"]

    def trace(dbapi_connection, _record) -> None:
        """Note every statement the database runs on this connection."""
        dbapi_connection.set_trace_callback(statements.append)

    engine.dispose()
    event.listen(engine, "connect", trace)
    try:
        response = client.htmx("GET", f"/plays/{play_id}/live?since={version}&log_after={newest}")
    finally:
        event.remove(engine, "connect", trace)
        engine.dispose()
    assert (response.status_code, response.data) == (200, b"")
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1 and "play.version" in selects[0], statements


# --- The result page -------------------------------------------------------------------------------------------------


def test_the_result_page_keeps_the_log_at_the_end(client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "swords", "delta": "1"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "quills", "delta": "2"})
    client.post(f"/plays/{play_id}/undo")
    client.post(f"/plays/{play_id}/finish")
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert '<details id="log" class="card log">' in html and "<summary>What happened</summary>" in html
    assert html.index('id="result"') < html.index('id="log"')
    assert entries(html) == [("Bob, swords +1", False), ("Ann, quills +2", True), ("Took back: Ann, quills +2.", False)]
    # The finished play's page asks no device for its state: no version, no log position.
    assert LOG_AFTER.search(html) is None


def test_a_play_scored_at_the_end_has_no_log_panel(client) -> None:
    response = post_json(client, "/api/v1/plays", {"game": "spires", "players": SPIRES})
    html = client.get(response.get_json()["url"]).get_data(as_text=True)
    assert 'id="log"' not in html


def test_taps_saved_before_actions_existed_read_in_plain_words(client, app) -> None:
    """A Change of one counter, from before actions: its counter by the game's own name, old value to new."""
    play_id = start_play(client, ["Ann"], solo=True)
    with Session(app.extensions["db_engine"]) as session:
        seat_id = session.get(Play, play_id).seats[0].id
        session.add(Change(play_id=play_id, seat_id=seat_id, field="scroll_vp", old=1, new=4))
        session.add(Change(play_id=play_id, seat_id=None, field="options.discard.quills", old=0, new=2))
        session.commit()
    said = [entry["said"] for entry in client.get(f"/api/v1/plays/{play_id}/log").get_json()["log"]]
    assert said[0] == "Ann, scroll VP 1 → 4"
    assert said[1].endswith(" 0 → 2") and "quills" in said[1]
    for text in said:
        assert not set("[]{}_'") & set(text) and "table" not in text


# --- The API --------------------------------------------------------------------------------------------------------


def test_api_log_on_each_database(db_client) -> None:
    client, _app = db_client
    view = post_json(
        client, "/api/v1/plays", {"game": "spqf", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    play_id = view.get_json()["id"]
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "civ_level", "delta": 1})
    api_act(client, play_id, {"action": "next_turn"})
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 2})
    assert post_json(client, f"/api/v1/plays/{play_id}/undo", {}).status_code == 200
    before_finish = client.get(f"/api/v1/plays/{play_id}/log")
    assert before_finish.status_code == 200
    log = before_finish.get_json()["log"]
    assert [(e["seq"], e["player"], e["action"], e["undone"], e["undoes"]) for e in log] == [
        (1, "Ann", "add", False, None),
        (2, None, "next_turn", False, None),
        (3, "Bob", "add", True, None),
        (4, None, "undo", False, 3),
    ]
    assert log[0]["said"] == "Ann, Civilization Level +1 (Ann is first to level 1: +1 VP token)"
    assert log[2]["said"] == "Bob, VP tokens +2"
    assert log[3]["said"] == "Took back: Bob, VP tokens +2."
    times = [datetime.fromisoformat(e["at"]) for e in log]
    assert all(t.utcoffset() == UTC.utcoffset(None) for t in times) and times == sorted(times)
    assert set(log[0]) == {"seq", "at", "player", "action", "said", "undone", "undoes"}
    # Finished, the play keeps its log: the end counts set at Finish come last.
    assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 200
    finished = client.get(f"/api/v1/plays/{play_id}/log").get_json()["log"]
    assert finished[:4] == log


def test_api_log_of_a_play_that_is_not_there_is_404(client) -> None:
    response = client.get("/api/v1/plays/999/log")
    assert response.status_code == 404
    assert response.get_json() == {"errors": [{"field": "id", "message": "There is no play 999."}]}


def test_api_log_of_a_play_scored_at_the_end_is_empty(client) -> None:
    play_id = post_json(client, "/api/v1/plays", {"game": "spires", "players": SPIRES}).get_json()["id"]
    assert client.get(f"/api/v1/plays/{play_id}/log").get_json() == {"log": []}


def test_api_log_names_the_table_wide_counter_by_its_own_name(client) -> None:
    play_id = start_play(client, ["Ann"], solo=True)
    api_act(client, play_id, {"action": "add", "player": None, "field": "discard.crowns", "delta": 1})
    (entry,) = client.get(f"/api/v1/plays/{play_id}/log").get_json()["log"]
    assert entry["player"] is None and entry["action"] == "add"
    assert entry["said"].endswith("crowns +1") and entry["said"][0].isupper() and "table" not in entry["said"]


def max_change_id(client, play_id: int) -> int:
    """The id of the play's newest Change, as stored."""
    app = client.application
    with Session(app.extensions["db_engine"]) as session:
        ids = list(session.exec(select(Change.id).where(Change.play_id == play_id)))
    return max(ids, default=0)
