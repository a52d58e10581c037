"""Where and how long, on the tracker side (issue 20): the new-play form's Where (the group's places, picked or
typed), Play again at the same place, and the result page's place and time at the table (time put aside left out),
with what an imported play is marked with (ignored, no seat order, guests, winner-only)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from sqlmodel import Session, select

from companion.store.models import ABANDONED, FINISHED, IN_PROGRESS, Location, Play, Player, Seat
from tests.helpers import FormState, post

NEW = "/plays"


def engine_of(client):
    """The database engine of the client's app."""
    return client.application.extensions["db_engine"]


def form(names: list[str], where: str | None = None, game: str = "spires") -> dict[str, str]:
    """The new-play form as a browser sends it, with Where when given."""
    data = {"game": game, **{f"name-{i}": name for i, name in enumerate(names)}}
    if where is not None:
        data["location"] = where
    return data


def start(client, names: list[str], where: str | None = None, htmx: bool = False) -> int:
    """Start a play through the new-play form (as a page or as htmx); its id."""
    response = post(client, htmx, NEW, form(names, where))
    if htmx:
        assert response.status_code == 204, response.get_data(as_text=True)
        target = response.headers["HX-Redirect"]
    else:
        assert response.status_code == 303, response.get_data(as_text=True)
        target = response.headers["Location"]
    return int(re.search(r"/plays/(\d+)$", target).group(1))


def stored(client, play_id: int) -> tuple[Play, str | None]:
    """The play as stored, and the name of its place."""
    with Session(engine_of(client)) as session:
        play = session.get(Play, play_id)
        assert play is not None
        return play, (play.location.name if play.location else None)


def places(client) -> list[tuple[str, str]]:
    """Every stored place: (name, key)."""
    with Session(engine_of(client)) as session:
        return [(row.name, row.key) for row in session.exec(select(Location).order_by(Location.id))]


def set_started(client, play_id: int, moment: datetime) -> None:
    """Say the play was started at `moment` (the tracker's clock of its start)."""
    with Session(engine_of(client)) as session:
        play = session.get(Play, play_id)
        play.created_at = play.played_at = moment
        session.add(play)
        session.commit()


def where_input(html: str) -> dict[str, str | None]:
    """The attributes of the form's Where box."""
    return FormState(html).attrs["location"]


def facts(html: str) -> list[str]:
    """The result page's line under its heading: where and how long."""
    found = re.search(r'<ul class="play-facts"[^>]*>(.*?)</ul>', html, re.DOTALL)
    return [unescape(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1))] if found else []


def marks(html: str) -> list[str]:
    """What the result page says an imported play is marked with."""
    found = re.search(r'<ul class="play-marks">(.*?)</ul>', html, re.DOTALL)
    return [unescape(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1))] if found else []


def finish(client, play_id: int, htmx: bool = False) -> str:
    """Finish the play (nothing counted at the end) through the route; the result page."""
    response = post(client, htmx, f"/plays/{play_id}/finish")
    assert response.status_code == (204 if htmx else 303), response.get_data(as_text=True)
    page = client.get(f"/plays/{play_id}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


# --- The new-play form's Where.


def test_the_form_offers_the_groups_places_to_pick_or_type(client) -> None:
    start(client, ["Ann", "Bob"], "Anna's flat")
    start(client, ["Ann", "Bob"], "Κλαμπ Ωμέγα")
    start(client, ["Ann", "Bob"], "")
    html = client.get("/plays/new?game=spires").get_data(as_text=True)
    datalist = re.search(r'<datalist id="places">(.*?)</datalist>', html, re.DOTALL).group(1)
    assert re.findall(r'<option value="([^"]*)">', datalist) == ["Anna&#39;s flat", "Κλαμπ Ωμέγα"]
    box = where_input(html)
    assert (box["type"], box["list"], box["maxlength"], box["autocomplete"], box["value"]) == (
        "text",
        "places",
        "60",
        "off",
        "",
    )
    assert '<label for="where">Where' in html and box["id"] == "where"


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_place_typed_in_other_capitals_is_one_place(db_client, htmx: bool) -> None:
    client, _app = db_client
    first = start(client, ["Ann", "Bob"], "  Anna's   Flat ", htmx)
    again = start(client, ["Ann", "Bob"], "ANNA'S FLAT", htmx)
    greek = start(client, ["Ann", "Bob"], "Ξενώνας", htmx)
    greek_again = start(client, ["Ann", "Bob"], "ΞΕΝΏΝΑΣ", htmx)
    assert [name for name, _key in places(client)] == ["Anna's Flat", "Ξενώνας"]
    (a, a_name), (b, b_name) = stored(client, first), stored(client, again)
    assert a.location_id == b.location_id and a_name == b_name == "Anna's Flat"
    assert stored(client, greek)[0].location_id == stored(client, greek_again)[0].location_id
    assert stored(client, greek_again)[1] == "Ξενώνας"
    assert a.status == IN_PROGRESS


@pytest.mark.parametrize("where", [None, "", "   ", "\u200b"], ids=["not-sent", "empty", "spaces", "invisible"])
def test_no_place_said_is_no_place(client, where: str | None) -> None:
    play, name = stored(client, start(client, ["Ann", "Bob"], where))
    assert (play.location_id, name) == (None, None)
    assert places(client) == []


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_refused_form_keeps_the_place_typed(client, htmx: bool) -> None:
    response = post(client, htmx, NEW, form(["", ""], "Café Ümlaut"))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Type the players&#39; names, first player first." in html
    assert where_input(html)["value"] == "Café Ümlaut"
    # The fragment is the form alone, the page has the heading around it.
    assert html.lstrip().startswith('<form id="new-play"') == htmx
    assert places(client) == []


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("x" * 61, "A place's name is at most 60 characters; this one has 61."),
        ("Ann\x00s", "Remove the NUL character (\\u0000) from the place: it can't be stored."),
    ],
    ids=["too-long", "nul"],
)
def test_a_place_that_cant_be_kept_is_said_beside_it(client, htmx: bool, where: str, message: str) -> None:
    response = post(client, htmx, NEW, form(["Ann", "Bob"], where))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    state = FormState(html)
    assert unescape(state.errors["where"]) == message
    assert "location" in state.invalid and where_input(html)["aria-describedby"] == "where-error"
    # Nothing typed is lost: the names and the place come back as typed.
    assert (state.values["name-0"], state.values["name-1"]) == ("Ann", "Bob")
    assert state.values["location"] == where
    with Session(engine_of(client)) as session:
        assert session.exec(select(Play)).first() is None
    assert places(client) == []


def test_sixty_characters_in_any_alphabet_are_a_place(client) -> None:
    name = "Ж" * 30 + "東" * 30
    assert stored(client, start(client, ["Ann", "Bob"], name))[1] == name


def test_random_first_player_keeps_the_place(client, monkeypatch) -> None:
    monkeypatch.setattr("companion.play.views.random.randrange", lambda n: 1)
    data = form(["Ann", "Bob"], "Anna's flat")
    page = client.post("/plays/new/first-player", data=data)
    assert page.status_code == 200
    assert where_input(page.get_data(as_text=True))["value"] == "Anna's flat"
    # htmx redraws the seat rows only: the Where box, outside them, keeps what was typed in the browser.
    fragment = client.htmx("POST", "/plays/new/first-player", data=data)
    assert fragment.status_code == 200
    html = fragment.get_data(as_text=True)
    assert html.lstrip().startswith('<fieldset id="seat-rows"') and 'name="location"' not in html
    assert "Bob goes first." in html


# --- Play again at the same place.


def again_fields(html: str) -> list[tuple[str, str]]:
    """The hidden fields of the result page's Play again form."""
    found = re.search(r'<form class="play-again" method="post" action="/plays">(.*?)</form>', html, re.DOTALL)
    assert found, "no Play again form"
    return [
        (name, unescape(value))
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', found.group(1))
        if name != "csrf_token"
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_play_again_starts_at_the_same_place(client, htmx: bool) -> None:
    first = start(client, ["Ann", "Bob"], "Anna's flat")
    fields = again_fields(finish(client, first))
    assert fields[-1] == ("location", "Anna's flat")
    second = start_with(client, dict(fields), htmx)
    play, name = stored(client, second)
    assert name == "Anna's flat" and play.location_id == stored(client, first)[0].location_id
    assert [seat.name for seat in play.seats] == ["Bob", "Ann"]
    assert len(places(client)) == 1


def start_with(client, data: dict[str, str], htmx: bool) -> int:
    """Post a filled new-play form as it is; the new play's id."""
    response = post(client, htmx, NEW, data)
    assert response.status_code == (204 if htmx else 303), response.get_data(as_text=True)
    target = response.headers["HX-Redirect" if htmx else "Location"]
    return int(target.rsplit("/", 1)[1])


def test_change_players_opens_the_form_at_the_same_place(client) -> None:
    first = start(client, ["Ann", "Bob"], "Ξενώνας")
    html = finish(client, first)
    assert f'href="/plays/new?again={first}"' in html
    form_html = client.get(f"/plays/new?again={first}").get_data(as_text=True)
    assert where_input(form_html)["value"] == "Ξενώνας"
    assert FormState(form_html).values["name-0"] == "Bob"


def test_play_again_of_a_play_with_no_place_says_none(client) -> None:
    first = start(client, ["Ann", "Bob"])
    assert "location" not in dict(again_fields(finish(client, first)))
    assert where_input(client.get(f"/plays/new?again={first}").get_data(as_text=True))["value"] == ""


# --- Where and how long on the result page.


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_result_says_where_and_how_long(client, htmx: bool) -> None:
    play_id = start(client, ["Ann", "Bob"], "Anna's flat")
    set_started(client, play_id, datetime.now(UTC) - timedelta(minutes=85))
    html = finish(client, play_id, htmx)
    assert facts(html) == ["Anna's flat", "1 h 25 min"]
    assert stored(client, play_id)[0].duration_min == 85
    # Under the heading, before the result.
    assert html.index('id="result-title"') < html.index('class="play-facts"') < html.index('id="result"')
    assert marks(html) == []


def test_a_play_finished_straight_after_starting_took_under_a_minute(client) -> None:
    html = finish(client, start(client, ["Ann", "Bob"]))
    assert facts(html) == ["under a minute at the table"]


def test_only_what_is_known_is_said(client) -> None:
    placed = start(client, ["Ann", "Bob"], "Anna's flat")
    html = finish(client, placed)
    with Session(engine_of(client)) as session:
        play = session.get(Play, placed)
        play.duration_min = None
        session.add(play)
        session.commit()
    assert facts(client.get(f"/plays/{placed}").get_data(as_text=True)) == ["Anna's flat"]
    assert facts(html) == ["Anna's flat", "under a minute"]
    # A play scored at the end says neither.
    response = client.post(
        "/api/v1/plays",
        json={"game": "spyrium", "players": [{"name": "Ann", "vp_track": 3}, {"name": "Bob", "vp_track": 2}]},
        csrf=False,
    )
    assert response.status_code == 201
    page = client.get(response.get_json()["url"]).get_data(as_text=True)
    assert 'class="play-facts"' not in page and "Ann wins with 3 VP." in page


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_time_put_aside_is_left_out_of_the_duration(client, monkeypatch, htmx: bool) -> None:
    now = datetime.now(UTC)
    clock = {"now": now}
    monkeypatch.setattr("companion.store.records.utcnow", lambda: clock["now"])
    play_id = start(client, ["Ann", "Bob"], "Club")
    set_started(client, play_id, now - timedelta(minutes=50))
    aside = post(client, htmx, f"/plays/{play_id}/abandon")
    assert aside.status_code == (204 if htmx else 303)
    assert stored(client, play_id)[0].status == ABANDONED
    # Two hours on the shelf, then back to the table for ten minutes.
    clock["now"] = now + timedelta(hours=2)
    back = post(client, htmx, f"/plays/{play_id}/resume")
    assert back.status_code == (204 if htmx else 303)
    assert back.headers["HX-Redirect" if htmx else "Location"].endswith(f"/plays/{play_id}")
    play, _ = stored(client, play_id)
    assert play.status == IN_PROGRESS and play.extra["aside_seconds"] == 7200
    clock["now"] = now + timedelta(hours=2, minutes=10)
    html = finish(client, play_id, htmx)
    play, _ = stored(client, play_id)
    assert (play.status, play.duration_min) == (FINISHED, 60)
    assert facts(html) == ["Club", "1 h"]


def test_put_aside_twice_leaves_both_times_out(client, monkeypatch) -> None:
    now = datetime.now(UTC)
    clock = {"now": now}
    monkeypatch.setattr("companion.store.records.utcnow", lambda: clock["now"])
    play_id = start(client, ["Ann", "Bob"])
    set_started(client, play_id, now)
    for aside_at, back_at in ((20, 80), (100, 1540)):
        clock["now"] = now + timedelta(minutes=aside_at)
        assert client.post(f"/plays/{play_id}/abandon").status_code == 303
        clock["now"] = now + timedelta(minutes=back_at)
        assert client.post(f"/plays/{play_id}/resume").status_code == 303
    clock["now"] = now + timedelta(minutes=1545)
    html = finish(client, play_id)
    # 20 + 20 + 5 minutes at the table; an hour and a day aside.
    assert stored(client, play_id)[0].duration_min == 45
    assert facts(html) == ["45 min at the table"]


# --- Imported plays: guests, winner-only, ignored, no seat order.


def imported(client, seats: list[tuple[str, int | None, int | None]], **fields) -> int:
    """A finished Spires play stored as an import does: seats (name, total, rank), a name starting 'Guest' on no
    roster; its id."""
    with Session(engine_of(client)) as session:
        ann = Player(name="Ann", key="ann")
        session.add(ann)
        play = Play(game="spires", status=FINISHED, rules_version="bgstats", source="bgstats", **fields)
        session.add(play)
        session.flush()
        for position, (name, total, rank) in enumerate(seats):
            player_id = None if name.startswith("Guest") else ann.id
            session.add(
                Seat(
                    play_id=play.id,
                    player_id=player_id,
                    name=name,
                    position=position,
                    total=total,
                    rank=rank,
                    breakdown=[],
                )
            )
        session.commit()
        return play.id


def result_page(client, play_id: int, htmx: bool) -> str:
    """The result page, asked for as a page or by htmx (a boosted link): the whole page either way."""
    response = client.htmx("GET", f"/plays/{play_id}") if htmx else client.get(f"/plays/{play_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def header_cells(html: str) -> list[str]:
    """The grid's player headers, as text."""
    head = re.search(r"<thead>(.*?)</thead>", html, re.DOTALL).group(1)
    cells = re.findall(r'<th scope="col" class="player[^"]*">(.*?)</th>', head, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


def total_cells(html: str) -> list[str]:
    """The grid's total row, as text."""
    row = re.search(r'<tr class="total">(.*?)</tr>', html, re.DOTALL).group(1)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_winner_only_play_with_a_guest_renders(client, htmx: bool) -> None:
    play_id = imported(client, [("Ann", None, 2), ("Guest", None, 1)], seats_known=False)
    html = result_page(client, play_id, htmx)
    assert "Guest wins." in html
    assert header_cells(html) == ["Ann", "Guest (guest) Winner"]
    assert total_cells(html) == ["—", "—"]
    assert marks(html) == [
        "Seat order not recorded: the players are in no turn order.",
        "No scores recorded: only who won.",
    ]
    assert facts(html) == []


def test_a_guest_with_a_score_and_a_seat_without_one(client) -> None:
    play_id = imported(client, [("Ann", 41, 1), ("Guest 2", None, 2), ("Guest 1", 30, 3)])
    html = result_page(client, play_id, False)
    assert "Ann wins with 41 VP." in html
    assert header_cells(html) == ["Ann Winner", "Guest 2 (guest)", "Guest 1 (guest)"]
    assert total_cells(html) == ["41", "—", "30"]
    assert marks(html) == ["No score recorded for Guest 2."]


def test_shared_victory_without_scores(client) -> None:
    html = result_page(client, imported(client, [("Ann", None, 1), ("Guest", None, 1)]), False)
    assert "Ann and Guest share the victory." in html
    assert header_cells(html) == ["Ann Winner", "Guest (guest) Winner"]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_an_ignored_play_says_so(client, htmx: bool) -> None:
    play_id = imported(client, [("Ann", 50, 1), ("Guest", 40, 2)], ignored=True, duration_min=95)
    html = result_page(client, play_id, htmx)
    assert marks(html) == ["Ignored in BG Stats: left out of the statistics."]
    assert facts(html) == ["1 h 35 min at the table"]
    assert "Ann wins with 50 VP." in html
    assert total_cells(html) == ["50", "40"]
