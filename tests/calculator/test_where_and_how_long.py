"""The calculator's optional "Where" and "How long": drawn with the group's places, kept when refused, saved."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from companion.store.models import Location, Play
from tests.helpers import FormState

SPQF_FORM = {
    "name-0": "Ann", "vp_tokens-0": "10", "civ_level-0": "3", "monument_modifiers-0": "4", "vp_cards-0": "2",
    "name-1": "Bob", "vp_tokens-1": "12", "civ_level-1": "2", "monument_modifiers-1": "1",
}  # fmt: skip
HTMX = [pytest.param(False, id="page"), pytest.param(True, id="fragment")]


def post(client, url: str, data: dict[str, str], htmx: bool):
    """POST the form as a browser does, or as htmx does."""
    return client.htmx("POST", url, data=data) if htmx else client.post(url, data=data)


def saved_play_id(response, htmx: bool) -> int:
    """The id of the play a save led to: a redirect for a page, HX-Redirect for htmx."""
    assert response.status_code == (204 if htmx else 303), response.get_data(as_text=True)
    target = response.headers["HX-Redirect" if htmx else "Location"]
    return int(re.fullmatch(r"/plays/(\d+)", target).group(1))


def stored(app, play_id: int) -> tuple[str | None, int | None]:
    """The saved play's place (its name) and minutes, read from the database."""
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        return (play.location.name if play.location else None), play.duration_min


def play_count(app) -> int:
    """How many plays are stored."""
    with Session(app.extensions["db_engine"]) as session:
        return len(session.exec(select(Play)).all())


def place_names(app) -> list[str]:
    """Every place of the group, as stored."""
    with Session(app.extensions["db_engine"]) as session:
        return sorted(place.name for place in session.exec(select(Location)))


def body_of(response, htmx: bool) -> str:
    """The answer's HTML, checked to be the whole page or only the calculator's fragment."""
    html = response.get_data(as_text=True)
    assert ("<html" in html) is not htmx
    assert 'id="calculator"' in html
    return html


# --- the form ---


@pytest.mark.parametrize("htmx", HTMX)
def test_the_form_offers_where_and_how_long(client, htmx: bool) -> None:
    """Both optional, empty at first: a text box with the group's places to pick and a number box of minutes."""
    # The empty form is a whole page either way: "Clear the form" picks #calculator out of it with hx-select.
    response = client.htmx("GET", "/calculator/spqf") if htmx else client.get("/calculator/spqf")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    form = FormState(html)
    assert form.values["location"] == "" and form.values["duration_min"] == ""
    where = form.attrs["location"]
    assert (where["type"], where["maxlength"], where["autocomplete"], where["list"]) == (
        "text",
        "60",
        "off",
        "locations",
    )
    minutes = form.attrs["duration_min"]
    assert (minutes["type"], minutes["min"], minutes["max"], minutes["step"]) == ("number", "1", "1440", "1")
    assert '<label for="location">Where</label>' in html
    assert '<label for="duration_min">How long, in minutes</label>' in html
    assert "Where and how long (optional)" in html
    assert '<datalist id="locations"></datalist>' in html


def test_the_datalist_holds_every_place_of_the_group(client) -> None:
    for place in ("Anna's flat", "東京の家", "Ἀθῆναι"):
        assert client.post("/calculator/spqf/save", data={**SPQF_FORM, "location": place}).status_code == 303
    html = client.get("/calculator/spyrium").get_data(as_text=True)
    datalist = re.search(r'<datalist id="locations">(.*?)</datalist>', html).group(1)
    assert re.findall(r'<option value="([^"]*)">', datalist) == ["Anna&#39;s flat", "Ἀθῆναι", "東京の家"]


@pytest.mark.parametrize("htmx", HTMX)
def test_calculate_keeps_where_and_how_long_as_typed(client, app, htmx: bool) -> None:
    """Calculating saves nothing: the result is shown and both fields come back as they were."""
    data = {**SPQF_FORM, "location": "  Café  Ünal ", "duration_min": "95"}
    response = post(client, "/calculator/spqf", data, htmx)
    assert response.status_code == 200
    form = FormState(body_of(response, htmx))
    assert form.values["location"] == "  Café  Ünal " and form.values["duration_min"] == "95"
    assert "Save to history" in response.get_data(as_text=True)
    assert play_count(app) == 0 and place_names(app) == []


# --- saving ---


@pytest.mark.parametrize("htmx", HTMX)
def test_save_stores_the_place_and_the_minutes(db_client, htmx: bool) -> None:
    client, app = db_client
    data = {**SPQF_FORM, "location": " Anna's   flat ", "duration_min": "85"}
    play_id = saved_play_id(post(client, "/calculator/spqf/save", data, htmx), htmx)
    assert stored(app, play_id) == ("Anna's flat", 85)
    view = client.get(f"/api/v1/plays/{play_id}").get_json()
    assert (view["location"], view["duration_min"], view["source"]) == ("Anna's flat", 85, "calculator")
    assert view["result"]["winners"] == ["Ann"]


@pytest.mark.parametrize("htmx", HTMX)
def test_left_blank_there_is_no_place_and_no_duration(client, app, htmx: bool) -> None:
    data = {**SPQF_FORM, "location": "   ", "duration_min": " "}
    play_id = saved_play_id(post(client, "/calculator/spqf/save", data, htmx), htmx)
    assert stored(app, play_id) == (None, None)
    # A form of an older page sends neither field at all.
    play_id = saved_play_id(post(client, "/calculator/spqf/save", SPQF_FORM, htmx), htmx)
    assert stored(app, play_id) == (None, None)
    assert place_names(app) == []


@pytest.mark.parametrize("minutes", ["1", "1440", "٤٥"], ids=["one", "a-day", "arabic-indic-digits"])
def test_every_whole_number_of_minutes_from_one_to_a_day_is_kept(client, app, minutes: str) -> None:
    play_id = saved_play_id(client.post("/calculator/spqf/save", data={**SPQF_FORM, "duration_min": minutes}), False)
    assert stored(app, play_id)[1] == int(minutes)


def test_the_same_place_in_other_capitals_is_one_place(client, app) -> None:
    """The place keeps the name as first written; another spelling of it finds it, a new name adds one."""
    first = saved_play_id(client.post("/calculator/spqf/save", data={**SPQF_FORM, "location": "Anna's Flat"}), False)
    again = saved_play_id(client.post("/calculator/spqf/save", data={**SPQF_FORM, "location": "ANNA'S  FLAT"}), False)
    other = saved_play_id(client.post("/calculator/spqf/save", data={**SPQF_FORM, "location": "Клуб"}), False)
    assert [stored(app, play)[0] for play in (first, again, other)] == ["Anna's Flat", "Anna's Flat", "Клуб"]
    assert place_names(app) == ["Anna's Flat", "Клуб"]


# --- refusals: beside the field, 422, everything kept, nothing saved ---

BAD_MINUTES = {
    "zero": "0",
    "too-long": "1441",
    "negative": "−5",
    "words": "an hour",
    "decimal": "1.5",
    "huge": "9" * 40,
}


@pytest.mark.parametrize("htmx", HTMX)
@pytest.mark.parametrize("typed", BAD_MINUTES.values(), ids=BAD_MINUTES.keys())
def test_minutes_out_of_range_are_refused_beside_the_field(client, app, typed: str, htmx: bool) -> None:
    data = {**SPQF_FORM, "location": "Anna's flat", "duration_min": typed, "notes": "Kept"}
    response = post(client, "/calculator/spqf/save", data, htmx)
    assert response.status_code == 422
    form = FormState(body_of(response, htmx))
    assert form.errors == {"duration_min": "Enter the minutes played as a whole number from 1 to 1,440 (a day)."}
    assert form.invalid == {"duration_min"}
    assert 'aria-describedby="duration_min-error"' in response.get_data(as_text=True)
    assert form.values["duration_min"] == typed
    assert (form.values["location"], form.values["notes"], form.values["name-0"]) == ("Anna's flat", "Kept", "Ann")
    assert "Check the field marked in red below." in response.get_data(as_text=True)
    assert play_count(app) == 0 and place_names(app) == []


@pytest.mark.parametrize("htmx", HTMX)
def test_a_place_longer_than_60_characters_is_refused_beside_the_field(client, app, htmx: bool) -> None:
    place = "Ж" * 61
    response = post(client, "/calculator/spqf/save", {**SPQF_FORM, "location": place, "duration_min": "30"}, htmx)
    assert response.status_code == 422
    form = FormState(body_of(response, htmx))
    assert form.errors == {"location": "Must be at most 60 characters; 61 typed."}
    assert form.invalid == {"location"}
    assert form.values["location"] == place and form.values["duration_min"] == "30"
    assert play_count(app) == 0


def test_sixty_characters_are_a_place(client, app) -> None:
    place = "ü" * 60
    play_id = saved_play_id(client.post("/calculator/spqf/save", data={**SPQF_FORM, "location": place}), False)
    assert stored(app, play_id)[0] == place


def test_every_message_comes_in_one_round_trip(client, app) -> None:
    """A bad place, bad minutes, notes too long and a bad count: each message beside its own field at once."""
    data = {**SPQF_FORM, "vp_tokens-0": "many", "location": "x\x00", "duration_min": "0", "notes": "n" * 2001}
    response = client.post("/calculator/spqf/save", data=data)
    assert response.status_code == 422
    form = FormState(response.get_data(as_text=True))
    assert {"vp_tokens-0", "location", "duration_min", "notes"} <= set(form.errors)
    assert "NUL" in form.errors["location"]
    assert form.values["location"] == "x\x00"
    assert play_count(app) == 0


def test_a_refused_game_count_keeps_where_and_how_long(client, app) -> None:
    response = client.post(
        "/calculator/spqf/save", data={**SPQF_FORM, "civ_level-0": "9", "location": "Ἀθῆναι", "duration_min": "70"}
    )
    assert response.status_code == 422
    form = FormState(response.get_data(as_text=True))
    assert "civ_level-0" in form.errors and "location" not in form.errors and "duration_min" not in form.errors
    assert (form.values["location"], form.values["duration_min"]) == ("Ἀθῆναι", "70")
    assert play_count(app) == 0 and place_names(app) == []
