"""The history says where and how long (issue 20, part 4): each row's place and time at the table where known, an
ignored play and a guest's seat marked, a seat imported without a score shown as "—"; the filter by place (any
spelling, kept in the address, the count and the report; a place never played at lists nothing and says so); and
a correction that changes or clears the place. Full pages and htmx fragments alike."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlmodel import Session

from companion.history import views as history
from companion.store import history_version, records
from companion.store.history_filter import HistoryFilter
from companion.store.models import LOCATION_MAX, Play
from tests.helpers import save

SPYRIUM_TWO = [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}]


def mark(
    app,
    play_id: int,
    *,
    place: str | None = None,
    minutes: int | None = None,
    ignored: bool = False,
    guest: int | None = None,
    unscored: bool = False,
) -> None:
    """Give a saved play what an import may give it: a place, minutes, "ignored", a guest in seat `guest`, no
    scores (the winner only)."""
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        if place is not None:
            found = records.find_or_add_location(session, place)
            play.location_id = found.id if found else None
        play.duration_min = minutes
        play.ignored = ignored
        for seat in play.seats:
            if guest is not None and seat.position == guest:
                seat.player_id = None
                seat.name = "Guest"
            if unscored:
                seat.total = None
                seat.breakdown = []
                seat.rank = 1 if seat.position == 0 else 2
            session.add(seat)
        session.add(play)
        history_version.move_on(session)  # as every write of the app that changes a finished play does
        session.commit()


def rows(html: str) -> list[str]:
    """Each history row's text as shown (tags removed, spaces collapsed), in order."""
    found = re.findall(r'<li class="card play-row[^"]*">(.*?)</ol>\s*</li>', html, re.DOTALL)
    return [unescape(" ".join(re.sub(r"<[^>]+>", " ", row).split())) for row in found]


def fragment(client, url: str, status: int = 200) -> str:
    """The history's results as htmx gets them alone."""
    response = client.htmx("GET", url)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert html.startswith('<div id="history-results"') and "<html" not in html
    return html


def count_said(html: str) -> str:
    """The count line, tags removed."""
    line = re.search(r'<p id="history-count"[^>]*>(.*?)</p>', html, re.DOTALL).group(1)
    return unescape(" ".join(re.sub(r"<[^>]+>", "", line).split()))


@pytest.fixture
def places(app, client) -> dict[str, int]:
    """Three plays: at Anna's flat for 85 minutes, at Café Ωμέγα for 40 minutes and ignored, and one with no place
    or time (Ann, a guest, no scores)."""
    plays = {
        "flat": save(client, "spyrium", SPYRIUM_TWO, "2026-11-01T19:00:00Z"),
        "cafe": save(client, "spires", [{"name": "Cleo", "crowns": 2}, {"name": "Ann"}], "2026-11-02T19:00:00Z"),
        "guest": save(client, "spyrium", SPYRIUM_TWO, "2026-11-03T19:00:00Z"),
    }
    mark(app, plays["flat"], place="Anna's flat", minutes=85)
    mark(app, plays["cafe"], place="Café Ωμέγα", minutes=40, ignored=True)
    mark(app, plays["guest"], guest=1, unscored=True)
    return plays


def test_rows_say_where_and_how_long_and_mark_ignored_plays_and_guests(client, places) -> None:
    for html in (
        client.get("/history").get_data(as_text=True),
        fragment(client, "/history"),
        client.get("/").get_data(as_text=True),
    ):
        assert rows(html) == [
            "Spyrium 3 Nov 2026 › Ann — ★ (winner) · Guest (guest) —",
            "Spires 2 Nov 2026 › Café Ωμέγα 40 min ignored left out of the statistics Cleo 15 ★ (winner) · Ann 0",
            "Spyrium 1 Nov 2026 › Anna's flat 1 h 25 min Ann 30 ★ (winner) · Bob 20",
        ]
        # The ignored mark says why on hover too; the guest's name links nowhere, the others link their page.
        assert 'title="Ignored in BG Stats: left out of the statistics"' in html
        guest_row = html.split(f'href="/plays/{places["guest"]}"', 1)[1].split("</ol>", 1)[0]
        assert guest_row.count('href="/players/') == 1 and '<span class="guest-name">Guest</span>' in guest_row


def test_time_alone_says_what_it_measures(app, client) -> None:
    play = save(client, "spyrium", SPYRIUM_TWO)
    mark(app, play, minutes=45)
    assert "45 min at the table" in rows(client.get("/history").get_data(as_text=True))[0]
    mark(app, play, minutes=0)
    assert "under a minute at the table" in rows(client.get("/history").get_data(as_text=True))[0]


def test_a_play_without_scores_shows_dashes_everywhere_without_an_error(app, client, places) -> None:
    play = places["guest"]
    delete_page = client.get(f"/history/{play}/delete")
    assert delete_page.status_code == 200
    assert "Ann — (winner), Guest —." in " ".join(delete_page.get_data(as_text=True).split())
    assert client.post(f"/history/{play}/delete").status_code in (200, 303)
    deleted = client.get("/history/deleted")
    assert deleted.status_code == 200
    assert "Ann — · Guest —" in " ".join(deleted.get_data(as_text=True).split())


def test_the_filter_by_place_takes_any_spelling_page_and_fragment(client, places) -> None:
    for html in (
        client.get("/history?location=  ANNA'S   FLAT ").get_data(as_text=True),
        fragment(client, "/history?location=anna's flat"),
    ):
        assert [row.split(" ›")[0] for row in rows(html)] == ["Spyrium 1 Nov 2026"]
        assert count_said(html).startswith("1 play: at ")
    # Another alphabet, folded the same way; an ignored play is listed (it is left out of statistics only).
    html = fragment(client, "/history?location=CAFÉ ΩΜΈΓΑ")
    assert [row.split(" ›")[0] for row in rows(html)] == ["Spires 2 Nov 2026"]
    # With the other fields: a place and a player, a place and a game that never met there.
    assert len(rows(fragment(client, "/history?location=Anna's flat&player=bob"))) == 1
    html = fragment(client, "/history?location=Anna's flat&game=spires")
    assert rows(html) == [] and "No plays at Anna's flat match the rest of the filter." in unescape(html)


def test_the_form_offers_the_places_and_keeps_the_one_asked_for(client, places) -> None:
    html = client.get("/history?location=Anna's flat").get_data(as_text=True)
    datalist = re.search(r'<datalist id="history-places">(.*?)</datalist>', html, re.DOTALL).group(1)
    assert re.findall(r'<option value="([^"]*)">', datalist) == ["Anna&#39;s flat", "Café Ωμέγα"]
    assert 'id="filter-place" name="location" value="Anna&#39;s flat"' in html
    # Clear is offered, and the report and the pages carry the place along.
    assert ">Clear</a>" in html
    assert 'href="/history/report.pdf?location=Anna&#39;s+flat"' in html


def test_htmx_shows_the_filters_address_with_the_place(client, places) -> None:
    response = client.htmx("GET", "/history?game=&player=&location=Anna's+flat&date_from=&date_to=")
    assert response.status_code == 200
    assert response.headers["HX-Push-Url"] == "/history?location=Anna's+flat"


def test_a_place_never_played_at_lists_nothing_and_says_so(client, places) -> None:
    for html, status in (
        (client.get("/history?location=Nowhere Inn"), 200),
        (client.htmx("GET", "/history?location=Nowhere Inn"), 200),
    ):
        assert html.status_code == status
        text = html.get_data(as_text=True)
        assert rows(text) == [] and "No plays at Nowhere Inn." in text
        assert count_said(text) == "0 plays: at Nowhere Inn"
        assert 'aria-invalid="true"' not in text


def test_a_place_too_long_to_be_one_is_refused_beside_the_field(client, places) -> None:
    long = "x" * (LOCATION_MAX + 1)
    for response in (client.get(f"/history?location={long}"), client.htmx("GET", f"/history?location={long}")):
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        message = re.search(r'<p class="error" id="filter-place-error">(.*?)</p>', html).group(1)
        assert message == f"A place has at most {LOCATION_MAX} characters."
        assert 'aria-describedby="filter-place-error"' in html
        # The field keeps what was typed; the other plays are still listed (the bad field is left out).
        assert f'value="{long}"' in html and len(rows(html)) == 3
    assert client.htmx("GET", f"/history?location={long}").headers["HX-Push-Url"] == "false"
    assert "can't hold" in HistoryFilter.from_args({"location": "a\x00b"})[1]["location"]


def test_the_filter_gives_the_place_back_for_links_and_words() -> None:
    flt, errors = HistoryFilter.from_args({"game": "spires", "location": "  Anna's   flat ", "player": "Ann"})
    assert errors == {}
    assert flt.to_args() == {"game": "spires", "player": "Ann", "location": "Anna's flat"}
    assert flt.describe() == "Spires, with Ann, at Anna's flat"
    assert HistoryFilter.from_args(flt.to_args())[0] == flt
    assert HistoryFilter(location="Anna's flat").nothing_found() == "No plays at Anna's flat."
    assert HistoryFilter(game="spqf").nothing_found() == "No finished play matches."
    assert HistoryFilter.from_args({"location": "   "}) == (HistoryFilter(), {})


def test_the_report_takes_the_same_place(client, places) -> None:
    response = client.get("/history/report.pdf?location=anna's flat")
    assert response.status_code == 202
    assert "Plays: at anna&#39;s flat" in response.get_data(as_text=True)


def test_pages_keep_the_place(client, monkeypatch) -> None:
    monkeypatch.setattr(history, "HISTORY_PAGE", 2)
    app = client.application
    for n in range(3):
        mark(app, save(client, "spyrium", SPYRIUM_TWO, f"2026-11-0{n + 1}T10:00:00Z"), place="Flat")
    save(client, "spyrium", SPYRIUM_TWO)
    html = client.get("/history?location=flat").get_data(as_text=True)
    assert "page 1 of 2" in count_said(html) and count_said(html).startswith("3 plays: at flat")
    assert 'href="/history?page=2&amp;location=flat"' in html
    assert len(rows(client.get("/history?page=2&location=flat").get_data(as_text=True))) == 1


# Correcting the place


def correct_form(client, play: int) -> dict[str, str]:
    """The correction form's fields as the browser would send them back unchanged."""
    html = client.get(f"/history/{play}/correct").get_data(as_text=True)
    fields = dict(re.findall(r'<input type="(?:text|number|date)" id="[^"]*" name="([^"]+)" value="([^"]*)"', html))
    fields["notes"] = ""
    return {name: value.replace("&#39;", "'") for name, value in fields.items()}


def place_of(app, play: int) -> str | None:
    """The stored place's name, or None."""
    with Session(app.extensions["db_engine"]) as session:
        found = session.get(Play, play)
        return found.location.name if found.location else None


@pytest.mark.parametrize("htmx", [False, True])
def test_a_correction_changes_or_clears_the_place(app, client, places, htmx) -> None:
    play = places["flat"]
    page = client.get(f"/history/{play}/correct").get_data(as_text=True)
    assert 'id="location" name="location" value="Anna&#39;s flat" list="correct-places"' in page
    assert '<option value="Café Ωμέγα">' in page
    form = correct_form(client, play)
    assert form["location"] == "Anna's flat"
    url = f"/history/{play}/correct"

    def send(data: dict[str, str]):
        """The form posted as the page or as htmx sends it: either way the play's page is where it leads."""
        if htmx:
            answer = client.htmx("POST", url, data=data)
            assert answer.status_code == 204 and answer.headers["HX-Redirect"] == f"/plays/{play}"
        else:
            answer = client.post(url, data=data)
            assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/plays/{play}")
        return answer

    send({**form, "location": "café ωμέγα"})
    # The place already known, however it is typed: no new place.
    assert place_of(app, play) == "Café Ωμέγα"
    with Session(app.extensions["db_engine"]) as session:
        assert len(records.locations(session)) == 2
    send({**form, "location": "  "})
    assert place_of(app, play) is None
    # A new place typed is added to the group's places; a form without the field leaves the place as it is.
    send({**form, "location": "Ben's garden"})
    assert place_of(app, play) == "Ben's garden"
    send({name: value for name, value in form.items() if name != "location"})
    assert place_of(app, play) == "Ben's garden"


@pytest.mark.parametrize("htmx", [False, True])
def test_a_place_too_long_is_refused_and_nothing_changes(app, client, places, htmx) -> None:
    play = places["flat"]
    form = {**correct_form(client, play), "location": "y" * (LOCATION_MAX + 1), "played_on": "2026-10-01"}
    url = f"/history/{play}/correct"
    response = client.htmx("POST", url, data=form) if htmx else client.post(url, data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    message = re.search(r'<p class="error" id="location-error">(.*?)</p>', html).group(1)
    assert message == f"Must be at most {LOCATION_MAX} characters; {LOCATION_MAX + 1} typed."
    assert ("<html" in html) != htmx
    # Nothing lost: the form keeps what was typed; nothing saved.
    assert f'value="{"y" * (LOCATION_MAX + 1)}"' in html and 'value="2026-10-01"' in html
    assert place_of(app, play) == "Anna's flat"


def test_the_filter_by_place_on_each_database(db_client) -> None:
    client, app = db_client
    first = save(client, "spyrium", SPYRIUM_TWO, "2026-11-01T19:00:00Z")
    second = save(client, "spyrium", SPYRIUM_TWO, "2026-11-02T19:00:00Z")
    save(client, "spyrium", SPYRIUM_TWO, "2026-11-03T19:00:00Z")
    mark(app, first, place="Ωμέγα", minutes=61)
    mark(app, second, place="ωμέγα", minutes=5, guest=1, unscored=True)
    html = client.get("/history?location=ΩΜΈΓΑ").get_data(as_text=True)
    assert count_said(html) == "2 plays: at ΩΜΈΓΑ"
    assert [row.split(" ›")[0] for row in rows(html)] == ["Spyrium 2 Nov 2026", "Spyrium 1 Nov 2026"]
    assert "Ωμέγα 1 h 1 min" in rows(html)[1] and "Guest (guest) —" in rows(html)[0]
    assert "No plays at Elsewhere." in client.get("/history?location=Elsewhere").get_data(as_text=True)
