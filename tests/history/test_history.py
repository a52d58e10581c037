"""The history (issue 11): filters by game, player and days, pages that keep them, correcting and deleting a play,
restoring it for RESTORE_DAYS days and the purge after, on SQLite and (the queries) on PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from urllib.parse import quote

import pytest
from sqlalchemy import event, func
from sqlmodel import Session, select

from companion.games.base import name_key
from companion.history import views as history
from companion.store.history_filter import HistoryFilter, count_filtered, filtered_plays
from companion.store.models import Change, Play, Player, Seat
from tests.helpers import save, start_play


def listed(html: str) -> list[int]:
    """The ids of the plays a history page lists, in order."""
    assert '<div id="history-results"' in html, "no history results on the page"
    results = html.split('<div id="history-results"', 1)[1].split("<h2>Put aside</h2>", 1)[0]
    return [int(n) for n in re.findall(r'<a class="row-link" href="/plays/(\d+)"', results)]


def count_said(html: str) -> str:
    """The count line: '3 plays'."""
    return re.search(r'<p id="history-count"[^>]*>\s*<strong>([^<]*)</strong>', html).group(1)


def message_for(html: str, field_id: str) -> str:
    """The message shown beside a field (its id + '-error'), tags removed."""
    found = re.search(rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else ""


@pytest.fixture
def group(client) -> dict[str, int]:
    """Five plays over three days and three games, players named in several alphabets."""
    return {
        "spires_ann": save(client, "spires", [{"name": "Ann", "crowns": 1}, {"name": "Óscar"}], "2026-11-01T09:00:00Z"),
        "spyrium_greek": save(
            client,
            "spyrium",
            [{"name": "Γιώργος", "vp_track": 40}, {"name": "Ann", "vp_track": 30}],
            "2026-11-02T23:59:00Z",
        ),
        "spqf_bob": save(client, "spqf", [{"name": "Bob", "vp_tokens": 5}, {"name": "Cleo"}], "2026-11-03T00:00:00Z"),
        "spires_oscar": save(
            client, "spires", [{"name": "ÓSCAR", "quills": 1}, {"name": "Bob"}], "2026-11-03T18:30:00Z"
        ),
        "spyrium_late": save(
            client, "spyrium", [{"name": "Cleo", "vp_track": 9}, {"name": "Bob"}], "2026-11-05T12:00:00Z"
        ),
    }


# The filter on its own


def test_filter_reads_every_field_and_gives_it_back_for_links() -> None:
    flt, errors = HistoryFilter.from_args(
        {"game": "spires", "player": "  Ann  ", "date_from": "2026-11-01", "date_to": "2026-11-30", "page": "2"}
    )
    assert errors == {}
    assert flt.to_args() == {"game": "spires", "player": "Ann", "date_from": "2026-11-01", "date_to": "2026-11-30"}
    assert flt.describe() == "Spires, with Ann, 1 Nov 2026 to 30 Nov 2026"
    assert HistoryFilter.from_args(flt.to_args())[0] == flt
    assert HistoryFilter.from_args({"game": "", "player": " "}) == (HistoryFilter(), {})
    assert not HistoryFilter().active


def test_filter_says_what_is_wrong_per_field_and_keeps_the_good_fields() -> None:
    flt, errors = HistoryFilter.from_args({"game": "chess", "player": "Ann", "date_from": "30/11/2026"})
    assert set(errors) == {"game", "date_from"}
    assert "no game “chess”" in errors["game"]
    assert "year-month-day" in errors["date_from"]
    assert flt == HistoryFilter(player="Ann")
    flt, errors = HistoryFilter.from_args({"date_from": "2026-11-05", "date_to": "2026-11-01"})
    assert errors == {"date_to": "The end date comes before the start date."}
    assert flt == HistoryFilter(date_from=date(2026, 11, 5))
    assert "at most 40" in HistoryFilter.from_args({"player": "x" * 41})[1]["player"]
    # The last day there is: no overflow working out the day after it.
    assert HistoryFilter.from_args({"date_to": "9999-12-31"})[1] == {}


# The page, full and as the fragment htmx swaps


def test_history_lists_newest_first_with_the_count(client, group) -> None:
    html = client.get("/history").get_data(as_text=True)
    assert listed(html) == [
        group["spyrium_late"],
        group["spires_oscar"],
        group["spqf_bob"],
        group["spyrium_greek"],
        group["spires_ann"],
    ]
    assert count_said(html) == "5 plays"
    assert 'role="search"' in html and 'hx-push-url="true"' in html


def test_filter_by_game_player_and_days_full_page_and_fragment(client, group) -> None:
    cases = {
        "game=spires": [group["spires_oscar"], group["spires_ann"]],
        # Any spelling, any alphabet: the roster's name_key.
        "player=" + quote("óscar"): [group["spires_oscar"], group["spires_ann"]],
        "player=" + quote("ΓΙΏΡΓΟΣ"): [group["spyrium_greek"]],
        "player=ann&game=spyrium": [group["spyrium_greek"]],
        # Whole days in UTC, both ends included: 23:59 on the 2nd and 00:00 on the 3rd are both in.
        "date_from=2026-11-02&date_to=2026-11-03": [group["spires_oscar"], group["spqf_bob"], group["spyrium_greek"]],
        "date_to=2026-11-02": [group["spyrium_greek"], group["spires_ann"]],
        "date_from=2026-11-04": [group["spyrium_late"]],
        "player=Nobody": [],
    }
    for query, expected in cases.items():
        page = client.get(f"/history?{query}")
        fragment = client.htmx("GET", f"/history?{query}")
        assert page.status_code == fragment.status_code == 200, query
        assert listed(page.get_data(as_text=True)) == expected, query
        text = fragment.get_data(as_text=True)
        assert not text.lstrip().startswith("<!doctype") and "<h1>" not in text, query
        assert text.lstrip().startswith('<div id="history-results"'), query
        assert listed(text) == expected, query
        assert count_said(text) == f"{len(expected)} play{'s' if len(expected) != 1 else ''}", query
    assert "No finished play matches." in client.get("/history?player=Nobody").get_data(as_text=True)


def test_htmx_gets_the_filters_own_address_to_show(client, group) -> None:
    response = client.htmx("GET", "/history?game=spires&player=&date_from=&date_to=")
    assert response.headers["HX-Push-Url"] == "/history?game=spires"
    assert client.htmx("GET", "/history?page=2&player=Ann&game=").headers["HX-Push-Url"] == "/history?page=2&player=Ann"
    assert client.htmx("GET", "/history?game=chess").headers["HX-Push-Url"] == "false"


def test_the_form_shows_the_filter_it_applied(client, group) -> None:
    html = client.get("/history?game=spires&player=Ann&date_from=2026-11-01").get_data(as_text=True)
    assert '<option value="spires" selected>' in html
    assert 'name="player" value="Ann"' in html
    assert 'name="date_from" value="2026-11-01"' in html
    assert "Spires, with Ann, from 1 Nov 2026" in html
    # The printed report of the same filter.
    assert 'href="/history/report.pdf?game=spires&amp;player=Ann&amp;date_from=2026-11-01"' in html
    assert ">Clear</a>" in html


def test_bad_filters_answer_422_with_the_message_beside_the_field(client, group) -> None:
    for response in (
        client.get("/history?game=chess&date_from=2026-11-05&date_to=2026-11-01"),
        client.htmx("GET", "/history?game=chess&date_from=2026-11-05&date_to=2026-11-01"),
    ):
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        assert "no game “chess”" in message_for(html, "filter-game")
        assert message_for(html, "filter-to") == "The end date comes before the start date."
        assert 'aria-describedby="filter-to-error"' in html and 'aria-invalid="true"' in html
        # The fields that could be read still apply: from the 5th on.
        assert listed(html) == [group["spyrium_late"]]


def test_pages_keep_the_filter(client, monkeypatch) -> None:
    monkeypatch.setattr(history, "HISTORY_PAGE", 2)
    ids = [
        save(client, "spyrium", [{"name": "Ann", "vp_track": n}, {"name": "Bob"}], f"2026-10-{n:02d}T12:00:00Z")
        for n in range(1, 6)
    ]
    save(client, "spires", [{"name": "Ann"}, {"name": "Bob"}], "2026-10-09T12:00:00Z")
    html = client.get("/history?game=spyrium").get_data(as_text=True)
    assert listed(html) == ids[:-3:-1]
    assert "page 1 of 3" in html
    older = re.search(r'<a class="button" href="([^"]+)" hx-get="[^"]+"[^>]*>Older</a>', html).group(1)
    assert older.replace("&amp;", "&") == "/history?page=2&game=spyrium"
    for get in (client.get, lambda url: client.htmx("GET", url)):
        page2 = get("/history?page=2&game=spyrium").get_data(as_text=True)
        assert listed(page2) == [ids[2], ids[1]]
        assert "Newer</a>" in page2 and "Older</a>" in page2
    assert listed(client.get("/history?page=3&game=spyrium").get_data(as_text=True)) == [ids[0]]
    last = client.get("/history?page=9&game=spyrium").get_data(as_text=True)
    assert listed(last) == [] and "Back to the newest" in last


def test_a_page_is_a_few_queries_however_many_plays_it_lists(app, client, monkeypatch) -> None:
    """No query per row: the plays, their seats (one query for all) and the count, whatever the page's length."""

    def statements(url: str) -> int:
        seen: list[str] = []
        engine = app.extensions["db_engine"]

        def note(_conn, _cursor, statement, *_args) -> None:
            seen.append(statement)

        event.listen(engine, "before_cursor_execute", note)
        try:
            assert client.get(url).status_code == 200
        finally:
            event.remove(engine, "before_cursor_execute", note)
        return len(seen)

    # Pages of 3 rows: a full first page, so that the count is made at both sizes.
    monkeypatch.setattr(history, "HISTORY_PAGE", 3)
    for n in range(4):
        save(client, "spyrium", [{"name": "Ann", "vp_track": n}, {"name": "Bob"}])
    few = statements("/history?player=Ann"), statements("/history")
    for n in range(12):
        save(client, "spyrium", [{"name": f"P{n}", "vp_track": n}, {"name": "Ann"}, {"name": "Bob"}])
    assert (statements("/history?player=Ann"), statements("/history")) == few
    # A later page: the same, less what only the first page shows (the newest put aside, the games in progress).
    assert statements("/history?player=Ann&page=4") == few[0]
    assert statements("/history?page=5") <= few[1]


# Deleted plays


def test_deleted_plays_are_left_out_of_every_list(client, group) -> None:
    tracked = start_play(client, ["Ann", "Bob"])
    gone = group["spires_ann"]
    with client.application.app_context():
        from companion.store.db import get_session

        session = get_session()
        for play_id in (gone, tracked):
            play = session.get(Play, play_id)
            play.deleted_at = datetime.now(UTC)
            session.add(play)
        session.commit()
    assert gone not in listed(client.get("/history").get_data(as_text=True))
    assert count_said(client.get("/history").get_data(as_text=True)) == "4 plays"
    assert f'/plays/{gone}"' not in client.get("/").get_data(as_text=True)
    assert f'/plays/{tracked}"' not in client.get("/").get_data(as_text=True)
    assert f'/plays/{tracked}"' not in client.get("/history/in-progress").get_data(as_text=True)
    assert "in progress" not in client.get("/history").get_data(as_text=True)


def test_delete_asks_first_then_restore_brings_it_back(client, group) -> None:
    play = group["spires_oscar"]
    result = client.get(f"/plays/{play}").get_data(as_text=True)
    assert f'href="/history/{play}/delete"' in result and f'href="/history/{play}/correct"' in result
    confirm = client.get(f"/history/{play}/delete").get_data(as_text=True)
    assert "Delete this play?" in confirm and "ÓSCAR" in confirm and "30 days" in confirm
    assert f'action="/history/{play}/delete"' in confirm
    # Nothing is deleted by looking at the question.
    assert play in listed(client.get("/history").get_data(as_text=True))

    response = client.post(f"/history/{play}/delete")
    assert response.status_code == 303 and response.headers["Location"] == f"/history?deleted={play}"
    after = client.get(response.headers["Location"]).get_data(as_text=True)
    assert play not in listed(after)
    assert "was deleted on" in after and f'action="/history/{play}/restore"' in after
    assert "Recently deleted (1)" in after
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "was deleted on" in page and "can be restored until" in page and "Delete…" not in page
    deleted = client.get("/history/deleted").get_data(as_text=True)
    assert f'action="/history/{play}/restore"' in deleted
    # The API says so too (the play view grows "deleted_at"; null for a play in the history).
    assert client.get(f"/api/v1/plays/{play}").get_json()["deleted_at"].startswith("20")
    # A deleted play can't be deleted or corrected again.
    assert client.post(f"/history/{play}/delete").status_code == 404
    assert client.get(f"/history/{play}/correct").status_code == 404

    restored = client.post(f"/history/{play}/restore")
    assert restored.status_code == 303 and restored.headers["Location"] == f"/plays/{play}"
    assert play in listed(client.get("/history").get_data(as_text=True))
    assert "Nothing deleted" in client.get("/history/deleted").get_data(as_text=True)
    assert client.get(f"/api/v1/plays/{play}").get_json()["deleted_at"] is None
    assert client.post(f"/history/{play}/restore").status_code == 404


def test_delete_and_restore_from_htmx_redirect_the_page(client, group) -> None:
    play = group["spqf_bob"]
    response = client.htmx("POST", f"/history/{play}/delete")
    assert response.status_code == 204 and response.headers["HX-Redirect"] == f"/history?deleted={play}"
    response = client.htmx("POST", f"/history/{play}/restore")
    assert response.status_code == 204 and response.headers["HX-Redirect"] == f"/plays/{play}"


def test_only_finished_plays_are_deleted_here(client) -> None:
    tracked = start_play(client, ["Ann", "Bob"])
    assert client.get(f"/history/{tracked}/delete").status_code == 404
    assert client.post(f"/history/{tracked}/delete").status_code == 404
    assert client.post("/history/999999/delete").status_code == 404


def test_purged_after_restore_days_with_seats_and_changes(client, monkeypatch) -> None:
    """With the clock moved on: restorable until the 30th day, then gone for good at the next listing."""
    tracked = start_play(client, ["Ann", "Bob"])
    seat = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{tracked}").get_data(as_text=True))[0]
    client.post(f"/plays/{tracked}/seats/{seat}", data={"field": "crowns", "delta": "1"})
    assert client.post(f"/plays/{tracked}/finish").status_code == 303
    kept = save(client, "spyrium", [{"name": "Ann", "vp_track": 3}, {"name": "Bob"}])
    deleted_on = datetime(2026, 11, 1, 12, tzinfo=UTC)
    monkeypatch.setattr(history, "utcnow", lambda: deleted_on)
    assert client.post(f"/history/{tracked}/delete").status_code == 303
    assert client.post(f"/history/{kept}/delete").status_code == 303
    assert client.post(f"/history/{kept}/restore").status_code == 303

    monkeypatch.setattr(history, "utcnow", lambda: deleted_on + timedelta(days=history.RESTORE_DAYS, hours=-1))
    assert "Restore" in client.get("/history/deleted").get_data(as_text=True)
    assert "until 1 Dec 2026" in client.get(f"/plays/{tracked}").get_data(as_text=True)

    monkeypatch.setattr(history, "utcnow", lambda: deleted_on + timedelta(days=history.RESTORE_DAYS, hours=1))
    assert client.post(f"/history/{tracked}/restore").status_code == 404
    with client.application.app_context():
        from companion.store.db import get_session

        session = get_session()
        assert session.get(Play, tracked) is not None  # not yet: a listing purges
    assert client.get("/history").status_code == 200
    with client.application.app_context():
        session = get_session()
        assert session.get(Play, tracked) is None
        assert session.exec(select(func.count()).select_from(Seat).where(Seat.play_id == tracked)).one() == 0
        assert session.exec(select(func.count()).select_from(Change).where(Change.play_id == tracked)).one() == 0
        assert session.get(Play, kept) is not None
    assert client.get(f"/plays/{tracked}").status_code == 404
    assert kept in listed(client.get("/history").get_data(as_text=True))


# Correcting a play


def test_correct_form_is_filled_with_the_play(client) -> None:
    play = save(
        client,
        "spyrium",
        [{"name": "Ann", "vp_track": 30, "building_vp": [5, 7]}, {"name": "Bob", "vp_track": 20}],
        "2026-11-02T20:15:00Z",
        notes="Long evening",
    )
    html = client.get(f"/history/{play}/correct").get_data(as_text=True)
    assert 'name="played_on" value="2026-11-02"' in html
    assert ">\nLong evening</textarea>" in html
    assert 'name="name-0" value="Ann"' in html and 'name="name-1" value="Bob"' in html
    assert 'name="vp_track-0" value="30"' in html and 'name="building_vp-0" value="5 7"' in html
    assert 'name="name-2"' not in html  # the play's own players, no spare rows


def test_correct_rescores_renames_and_redates(client) -> None:
    play = save(
        client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}], "2026-11-02T20:15:00Z"
    )
    form = {
        "played_on": "2026-10-30",
        "notes": "Bob was Robert",
        "name-0": "Ann",
        "vp_track-0": "30",
        "name-1": "Роберт",
        "vp_track-1": "45",
    }
    response = client.post(f"/history/{play}/correct", data=form)
    assert response.status_code == 303 and response.headers["Location"] == f"/plays/{play}"
    view = client.get(f"/api/v1/plays/{play}").get_json()
    assert view["played_at"].startswith("2026-10-30T20:15")
    assert view["notes"] == "Bob was Robert"
    assert [(p["name"], p["total"], p["rank"]) for p in view["result"]["players"]] == [
        ("Ann", 30, 2),
        ("Роберт", 45, 1),
    ]
    assert view["result"]["winners"] == ["Роберт"]
    # The seat's roster entry follows the name, so the player filter finds the new one.
    assert listed(client.get("/history?player=" + quote("роберт")).get_data(as_text=True)) == [play]
    assert listed(client.get("/history?player=Bob").get_data(as_text=True)) == []
    with client.application.app_context():
        from companion.store.db import get_session

        seat = get_session().exec(select(Seat).where(Seat.play_id == play, Seat.position == 1)).one()
        assert get_session().get(Player, seat.player_id).key == name_key("РОБЕРТ")
    assert client.htmx("POST", f"/history/{play}/correct", data=form).headers["HX-Redirect"] == f"/plays/{play}"


def test_a_refused_correction_changes_nothing_and_says_why_beside_the_field(client) -> None:
    play = save(
        client,
        "spyrium",
        [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}],
        "2026-11-02T20:15:00Z",
        notes="kept",
    )
    before = client.get(f"/api/v1/plays/{play}").get_json()
    bad = {
        "played_on": "02/11/2026",
        "notes": "x" * 2001,
        "name-0": "Ann",
        "vp_track-0": "999",
        "name-1": "Bob",
        "vp_track-1": "twelve",
    }
    for response in (
        client.post(f"/history/{play}/correct", data=bad),
        client.htmx("POST", f"/history/{play}/correct", data=bad),
    ):
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        assert "year-month-day" in message_for(html, "played_on")
        assert "at most 2000" in message_for(html, "notes")
        assert message_for(html, "vp_track-0") and message_for(html, "vp_track-1")
        assert 'value="twelve"' in html  # what was typed stays
        assert "Nothing was changed." in html
    assert response.get_data(as_text=True).lstrip().startswith('<div id="correct-play"')
    # A player left out: a correction keeps every seat.
    fewer = {"played_on": "2026-11-02", "name-0": "Ann", "vp_track-0": "30"}
    refused = client.post(f"/history/{play}/correct", data=fewer)
    assert refused.status_code == 422 and "a correction keeps each of them" in refused.get_data(as_text=True)
    assert client.get(f"/api/v1/plays/{play}").get_json() == before


def test_a_correction_of_a_play_deleted_meanwhile_says_so_and_saves_nothing(client) -> None:
    """Another device deleted the play after this one opened its correction: 409, the form as typed, the reason."""
    play = save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}], notes="kept")
    form = {
        "played_on": "2026-11-02",
        "notes": "fixed",
        "name-0": "Ann",
        "vp_track-0": "31",
        "name-1": "Bob",
        "vp_track-1": "20",
    }
    assert client.get(f"/history/{play}/correct").status_code == 200
    assert client.post(f"/history/{play}/delete").status_code == 303
    before = client.get(f"/api/v1/plays/{play}").get_json()
    for response in (
        client.post(f"/history/{play}/correct", data=form),
        client.htmx("POST", f"/history/{play}/correct", data=form),
    ):
        assert response.status_code == 409
        html = response.get_data(as_text=True)
        summary = html.split('id="calc-errors"', 1)[1].split("</div>", 1)[0]
        assert "Nothing was changed." in summary and "deleted from the history on another device" in summary
        assert "restore it from Recently deleted" in summary
        assert 'value="31"' in html and ">\nfixed</textarea>" in html  # what was typed stays
    assert html.lstrip().startswith('<div id="correct-play"')
    assert client.get(f"/api/v1/plays/{play}").get_json() == before
    # A play that is not there at all is still no play to correct.
    assert client.post("/history/9999/correct", data=form).status_code == 404


def test_correct_a_tracked_play_from_its_live_state(client) -> None:
    """A tracked play's inputs come from its live state (the game's Live to_input); once corrected it keeps the
    typed inputs, like a play scored at the end."""
    play = start_play(client, ["Ann", "Bob"])
    ann = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{play}").get_data(as_text=True))[0]
    client.post(f"/plays/{play}/seats/{ann}", data={"field": "towers.red", "delta": "2"})
    assert client.post(f"/plays/{play}/finish").status_code == 303
    html = client.get(f"/history/{play}/correct").get_data(as_text=True)
    assert 'name="towers.red-0" value="2"' in html and 'name="name-1" value="Bob"' in html
    values = dict(re.findall(r'<input type="(?:number|text)" id="[^"]+" name="([^"]+)" value="([^"]*)"', html))
    values.update({"played_on": re.search(r'name="played_on" value="([^"]+)"', html).group(1), "scroll_vp-1": "20"})
    response = client.post(f"/history/{play}/correct", data=values)
    assert response.status_code == 303, response.get_data(as_text=True)
    result = client.get(f"/api/v1/plays/{play}").get_json()["result"]
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 10, "Bob": 20}
    again = client.get(f"/history/{play}/correct").get_data(as_text=True)
    assert 'name="scroll_vp-1" value="20"' in again and 'name="towers.red-0" value="2"' in again


def test_correct_a_speros_play_with_lists_and_options(client) -> None:
    """Lists typed one per line (captured cards, Mastery Objectives) come back as the lines the form reads."""
    players = [
        {"name": "Ann", "color": "green", "captured": [{"terrain": "forest", "resources": ["crystal"], "vp": 5}]},
        {"name": "Bob", "color": "red", "minions_familiar": 2},
    ]
    options = {"mastery": [{"name": "Top armies", "vp": 6, "leaders": ["Bob"]}]}
    play = save(client, "speros", players, options=options)
    html = client.get(f"/history/{play}/correct").get_data(as_text=True)
    assert ">\n5 crystal forest</textarea>" in html and ">\nTop armies 6: Bob</textarea>" in html
    form = {
        "played_on": "2026-11-02",
        "name-0": "Ann",
        "color-0": "green",
        "captured-0": "5 crystal forest\n4 gold swamp",
        "name-1": "Bob",
        "color-1": "red",
        "minions_familiar-1": "2",
        "general-0": "base",
        "general-1": "base",
        "mastery": "Top armies 6: Bob",
    }
    assert client.post(f"/history/{play}/correct", data=form).status_code == 303
    result = client.get(f"/api/v1/plays/{play}").get_json()["result"]
    assert [p["name"] for p in result["players"]] == ["Ann", "Bob"]
    assert client.get(f"/api/v1/plays/{play}").get_json()["players"][0]["captured"][1]["terrain"] == "swamp"


# The queries on both databases


def test_history_queries_on_each_database(db_client) -> None:
    client, app = db_client
    a = save(client, "spires", [{"name": "Ann", "crowns": 1}, {"name": "Óscar"}], "2026-11-01T00:00:00Z")
    b = save(client, "spyrium", [{"name": "ÓSCAR", "vp_track": 4}, {"name": "Ann"}], "2026-11-02T23:59:59Z")
    c = save(client, "spyrium", [{"name": "Cleo", "vp_track": 4}, {"name": "Ann"}], "2026-11-03T00:00:00Z")
    with app.app_context(), Session(app.extensions["db_engine"]) as session:

        def ids(**args: str) -> list[int]:
            flt, errors = HistoryFilter.from_args(args)
            assert errors == {}
            found = [p.id for p in filtered_plays(session, flt, limit=10)]
            assert count_filtered(session, flt) == len(found)
            return found

        assert ids() == [c, b, a]
        assert ids(player="óscar") == [b, a]
        assert ids(player="ann", game="spyrium") == [c, b]
        assert ids(date_from="2026-11-01", date_to="2026-11-02") == [b, a]
        assert ids(date_from="2026-11-03") == [c]
        assert [p.id for p in filtered_plays(session, HistoryFilter(), limit=1, offset=1)] == [b]
    html = client.get("/history?player=" + quote("óscar")).get_data(as_text=True)
    assert listed(html) == [b, a]
    assert client.post(f"/history/{b}/delete").status_code == 303
    assert listed(client.get("/history").get_data(as_text=True)) == [c, a]
    assert client.post(f"/history/{b}/restore").status_code == 303
    form = {"played_on": "2026-11-04", "name-0": "Óscar", "vp_track-0": "9", "name-1": "Ann", "vp_track-1": "3"}
    assert client.post(f"/history/{b}/correct", data=form).status_code == 303
    assert listed(client.get("/history?date_from=2026-11-04").get_data(as_text=True)) == [b]
    assert client.post(f"/history/{a}/delete").status_code == 303
    # A tracked play with its taps (Change rows) goes whole too.
    tracked = start_play(client, ["Ann", "Bob"])
    seat = re.findall(r'id="seat-(\d+)"', client.get(f"/plays/{tracked}").get_data(as_text=True))[0]
    client.post(f"/plays/{tracked}/seats/{seat}", data={"field": "crowns", "delta": "1"})
    assert client.post(f"/plays/{tracked}/finish").status_code == 303
    assert client.post(f"/history/{tracked}/delete").status_code == 303
    moved = datetime.now(UTC) + timedelta(days=history.RESTORE_DAYS + 1)
    original = history.utcnow
    history.utcnow = lambda: moved
    try:
        assert listed(client.get("/history").get_data(as_text=True)) == [b, c]
    finally:
        history.utcnow = original
    with app.app_context(), Session(app.extensions["db_engine"]) as session:
        assert session.get(Play, a) is None and session.get(Play, tracked) is None
        assert session.exec(select(func.count()).select_from(Seat).where(Seat.play_id.in_([a, tracked]))).one() == 0
        assert session.exec(select(func.count()).select_from(Change).where(Change.play_id == tracked)).one() == 0


def form_of(html: str) -> dict[str, str]:
    """What the correction form would send as it is drawn: inputs, selected options, textareas, ticked boxes."""
    form = dict(re.findall(r'<input type="(?:number|text|date)" id="[^"]+" name="([^"]+)" value="([^"]*)"', html))
    form.update(re.findall(r'<input type="number" inputmode="numeric" step="1" name="([^"]+)" value="([^"]*)"', html))
    for name, options in re.findall(r'<select id="[^"]+" name="([^"]+)"[^>]*>(.*?)</select>', html, re.DOTALL):
        selected = re.search(r'<option value="([^"]*)" selected', options)
        if selected:
            form[name] = selected.group(1)
    form.update(re.findall(r'<textarea id="[^"]+" name="([^"]+)"[^>]*>\n(.*?)</textarea>', html, re.DOTALL))
    form.update((name, "on") for name in re.findall(r'<input type="checkbox" id="[^"]+" name="([^"]+)" checked', html))
    form.pop("theme", None)
    return form


@pytest.mark.parametrize("game", ["spqf", "spyrium", "spires", "speros"])
def test_a_tracked_play_of_every_game_saved_unchanged_keeps_its_result(client, game) -> None:
    """The live state as input (the game's Live to_input), drawn into the form and read back, scores the same."""
    from companion.games import GAMES

    colours = GAMES[game].colours
    form = {"game": game, "name-0": "Ann", "name-1": "Bob"}
    if colours:
        form.update({"colour-0": colours[0], "colour-1": colours[1]})
    started = client.post("/plays", data=form)
    assert started.status_code == 303, started.get_data(as_text=True)
    play = int(started.headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/plays/{play}/finish").status_code == 303
    before = client.get(f"/api/v1/plays/{play}").get_json()["result"]
    response = client.post(
        f"/history/{play}/correct", data=form_of(client.get(f"/history/{play}/correct").get_data(as_text=True))
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    after = client.get(f"/api/v1/plays/{play}").get_json()["result"]
    assert [(p["name"], p["total"], p["rank"], p["breakdown"]) for p in after["players"]] == [
        (p["name"], p["total"], p["rank"], p["breakdown"]) for p in before["players"]
    ]


def test_a_tracked_speros_play_corrected_to_another_colour_shows_it(client) -> None:
    """The seat's colour (what the result grid draws first) follows a corrected colour."""
    form = {"game": "speros", "name-0": "Ann", "name-1": "Bob", "colour-0": "green", "colour-1": "red"}
    play = int(client.post("/plays", data=form).headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/plays/{play}/finish").status_code == 303
    values = form_of(client.get(f"/history/{play}/correct").get_data(as_text=True))
    assert (values["color-0"], values["color-1"]) == ("green", "red")
    values["color-1"] = "blue"
    assert client.post(f"/history/{play}/correct", data=values).status_code == 303
    view = client.get(f"/api/v1/plays/{play}").get_json()
    assert [p.get("colour") for p in view["players"]] == ["green", "blue"]
    assert "colour-blue" in client.get(f"/plays/{play}").get_data(as_text=True)
