"""What the tests share: a client that carries the CSRF token, starting a play by its form, posting as htmx or as
a page, reading the tracker page, its fragments and the stored play, the JSON API's payloads, a fresh PostgreSQL
database, the oldest schema, a small history to export and a hand-made one for the statistics."""

from __future__ import annotations

import io
import json
import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient
from sqlmodel import Session, func, select
from werkzeug.datastructures import MultiDict

from companion import create_app
from companion.games.base import name_key
from companion.store.db import make_engine
from companion.store.models import FINISHED, IN_PROGRESS, Change, Play, Player, Seat

# --- The test client and the new-play form.

TOKEN = "test-csrf-token"


class Client(FlaskClient):
    """A test client that sends the session's CSRF token on every unsafe request, as the pages do."""

    def open(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        """Add the token header unless the test asks for none (csrf=False)."""
        if kwargs.pop("csrf", True):
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("X-CSRF-Token", TOKEN)
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)

    def htmx(self, method: str, url: str, **kwargs: Any):
        """A request as htmx sends it."""
        headers = dict(kwargs.pop("headers", None) or {})
        headers["HX-Request"] = "true"
        return self.open(url, method=method, headers=headers, **kwargs)


def csrf_client(app) -> Client:
    """A test client (Client) on the app whose session already holds the CSRF token."""
    app.test_client_class = Client
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client


def start_play(client: FlaskClient, names: list[str], solo: bool = False) -> int:
    """Start a Spires play through the new-play form; returns its id."""
    form = {"game": "spires", **{f"name-{i}": name for i, name in enumerate(names)}}
    if solo:
        form["solo"] = "on"
    response = client.post("/plays", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(re.search(r"/plays/(\d+)$", response.headers["Location"]).group(1))


def play_form(game: str, names: list[str], colours: list[str | None], **boxes: list[object]) -> dict:
    """The new-play form as the browser sends it: the game, names, colours (None: not sent) and numbered boxes."""
    form = {"game": game}
    form |= {f"name-{i}": name for i, name in enumerate(names)}
    form |= {f"colour-{i}": colour for i, colour in enumerate(colours) if colour is not None}
    for box, values in boxes.items():
        form |= {f"{box}-{i}": str(value) for i, value in enumerate(values)}
    return form


def start_by_form(client, form: dict) -> int:
    """Send the new-play form; checks it redirects to the tracker and returns the new play's id."""
    response = client.post("/plays", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(re.search(r"/plays/(\d+)$", response.headers["Location"]).group(1))


def created(client, htmx: bool, form: dict) -> tuple[int, str]:
    """Send the new-play form as htmx or as a page; checks the redirect, returns the play's id and tracker URL."""
    response = post(client, htmx, "/plays", form)
    if htmx:
        assert response.status_code == 204
        target = response.headers["HX-Redirect"]
    else:
        assert response.status_code == 303
        target = response.headers["Location"]
    return int(re.search(r"/plays/(\d+)$", target).group(1)), target


def created_play(client, app, htmx: bool, form: dict) -> tuple[int, str, Play, list[Seat]]:
    """Send the new-play form as htmx or as a page; checks the tracker it leads to shows the setup for its players
    and each player's card in their colour, and that the play is stored in progress with those seats. Returns the
    play's id, its tracker page, the play and its seats as stored."""
    names = [value.strip() for key, value in form.items() if key.startswith("name-")]
    colours = [value for key, value in form.items() if key.startswith("colour-")]
    play_id, target = created(client, htmx, form)
    html = client.get(target).get_data(as_text=True)
    assert f"Setup for {len(names)} players" in html
    cards = re.findall(r'<section class="card seat colour-(\w+)" id="seat-\d+">\s*<h2>(\w+)', html)
    assert cards == list(zip(colours, names, strict=True))
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        seats = list(session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all())
    assert (play.game, play.status) == (form["game"], IN_PROGRESS)
    assert [(s.name, s.colour) for s in seats] == list(zip(names, colours, strict=True))
    return play_id, html, play, seats


# --- PostgreSQL.

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg")
    name = f"companion_test_{secrets.token_hex(4)}"
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- Posting, tapping and reading the tracker.


def post_json(client, url: str, body: Any):
    """POST a JSON body to the API the way another tool would: no CSRF token."""
    return client.post(url, json=body, csrf=False)


def post(client, htmx: bool, url: str, data: Any = None):
    """POST as htmx sends it (a fragment) or as the plain form does (a page)."""
    return client.htmx("POST", url, data=data or {}) if htmx else client.post(url, data=data or {})


def tap(client, play_id: int, seat_id: int | str, htmx: bool = False, **data):
    """One tap on a seat's counter (or, seat 'table', the table's): field=..., delta=... or value=..."""
    url = f"/plays/{play_id}/table" if seat_id == "table" else f"/plays/{play_id}/seats/{seat_id}"
    return post(client, htmx, url, {k: str(v) for k, v in data.items()})


def seat_ids(client, play_id: int) -> list[int]:
    """The seat ids in turn order, read off the tracker page."""
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    return [int(i) for i in re.findall(r'id="seat-(\d+)"', html)]


def saved(app, play_id: int) -> dict:
    """The play as stored: status, the table's live state, every seat's state, and how many Change rows it has."""
    with Session(app.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        seats = session.exec(select(Seat).where(Seat.play_id == play_id).order_by(Seat.position)).all()
        changes = session.exec(select(Change).where(Change.play_id == play_id)).all()
        return {
            "status": play.status,
            "table": dict(play.extra.get("table", {})),
            "seats": [dict(seat.state) for seat in seats],
            "changes": len(changes),
        }


def oob_value(html: str, seat_id: int, field: str) -> str | None:
    """A counter's value as an out-of-band <output> in a fragment."""
    pattern = rf'<output id="c-{seat_id}-{field}-value" class="value[^"]*"[^>]*hx-swap-oob="true">(\d+)</output>'
    found = re.search(pattern, html)
    return found.group(1) if found else None


def notice(html: str) -> str | None:
    """The text of the out-of-band #notice in a fragment."""
    found = re.search(r'<p id="notice" class="notice" role="status" hx-swap-oob="true">(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


def api_act(client, play: int, body: dict[str, Any], status: int = 200) -> dict:
    """POST an action; the answer, checked for its status."""
    response = post_json(client, f"/api/v1/plays/{play}/actions", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def player(view: dict, name: str) -> dict:
    """A player's entry in the play view."""
    return next(p for p in view["players"] if p["name"] == name)


def answered(response, htmx: bool, status: int) -> str:
    """Checks the answer's status and that htmx got a fragment, a page the whole page; returns its html."""
    html = response.get_data(as_text=True)
    assert response.status_code == status
    assert ("<html" in html) is not htmx
    return html


def new_play_form(client, game: str, title: str, colours: list[str]) -> str:
    """The new-play form of a game, checked to be for that game, to carry the CSRF token, and to offer the game's
    colours in each row, a different one picked in each; returns its html."""
    response = client.get(f"/plays/new?game={game}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f"New game of {title}" in html
    assert f'<input type="hidden" name="game" value="{game}">' in html
    assert 'name="csrf_token"' in html
    for i, colour in enumerate(colours):
        assert f'name="colour-{i}"' in html
        row = html.split(f'name="colour-{i}"')[1].split("</select>")[0]
        assert re.findall(r'<option value="(\w+)"', row) == colours
        assert f'<option value="{colour}" selected>' in row
    return html


def bad_rosters(game: str, most: int, twice: str, foreign: list[str]) -> list[tuple[str, dict, str]]:
    """The roster mistakes every game's new-play form refuses, as (case, form, message): too few players or none, a
    name or the colour `twice` given twice, and a colour not the game's among the pair `foreign`."""
    pair = ["Ann", "Bob"]
    return [
        ("one player", {"names": ["Ann"]}, f"{game} is for 2 to {most} players; 1 given."),
        ("no player", {"names": []}, "Type the players&#39; names, first player first."),
        ("the same name twice", {"names": ["Ann", "ann"]}, "ann is already playing."),
        (
            "the same colour twice",
            {"names": pair, "colours": [twice, twice]},
            f"{twice.capitalize()} is taken by an earlier player.",
        ),
        ("a colour not the game's", {"names": pair, "colours": foreign}, "Pick one of the game&#39;s colours."),
    ]


def refused_new_play(client, app, htmx: bool, form: dict, message: str, names: list[str]) -> str:
    """Send a bad new-play form; checks it is refused with the message, keeps the names typed and saves nothing."""
    response = post(client, htmx, "/plays", form)
    html = answered(response, htmx, 422)
    assert message in html
    if htmx:
        assert html.lstrip().startswith('<form id="new-play"')
    for name in names:
        assert f'value="{name}"' in html, "what was typed stays in the form"
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Play)).all() == []
    return html


def refused_finish(client, app, play_id: int, htmx: bool, form: dict, name: str, message: str) -> dict:
    """Send a bad finish form; checks the message beside box `name`, every box kept and nothing saved.

    Returns the play as saved before (and still after) the refused finish."""
    before = saved(app, play_id)
    response = post(client, htmx, f"/plays/{play_id}/finish", form)
    html = answered(response, htmx, 422)
    if htmx:
        assert html.lstrip().startswith(
            f'<form id="finish" class="finish card" method="post" action="/plays/{play_id}/finish"'
        )
    # The message sits beside the box it is about, the box flagged; what was typed stays in every box.
    assert f'<p class="error" id="{name}-error">{message}</p>' in html
    assert html.count('<p class="error" id="end-') == 1
    assert re.search(rf'<input id="{name}"[^>]*aria-invalid="true" aria-describedby="{name}-error"', html, re.DOTALL)
    for box, value in form.items():
        assert re.search(rf'name="{box}"\s+value="{re.escape(value)}"', html), box
    # Nothing saved, not even the good boxes; the play goes on.
    assert saved(app, play_id) == before
    assert "Finish and score" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    return before


def refused_tap(
    client, app, play_id: int, htmx: bool, seat: int, form: dict, slot: str, message: str, kept: dict
) -> str:
    """Send a bad tap on `seat`; checks the 422 and its message (for htmx first, in the counter's slot, with each
    (seat, field) of `kept` sent again at its saved value) and that nothing was saved. Returns the answer's html."""
    before = saved(app, play_id)
    response = post(client, htmx, f"/plays/{play_id}/seats/{seat}", form)
    html = answered(response, htmx, 422)
    assert message in html
    if htmx:
        assert html.lstrip().startswith(f'<p id="c-{seat}-{slot}-error" class="error" role="alert">{message}</p>')
        for (who, field), value in kept.items():
            assert oob_value(html, who, field) == value, field
    assert saved(app, play_id) == before
    return html


def tracker_page(client, play_id: int, count: int) -> tuple[str, list[int]]:
    """The tracker page of a play of `count` players, checked to show a seat each and their setup card."""
    response = client.get(f"/plays/{play_id}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    seats = [int(i) for i in re.findall(r'id="seat-(\d+)"', html)]
    assert len(seats) == count
    assert f"Setup for {count} players" in html
    return html, seats


def live(client, play_id: int, htmx: bool):
    """The tracker's regular refresh, as htmx or as a page."""
    return client.htmx("GET", f"/plays/{play_id}/live") if htmx else client.get(f"/plays/{play_id}/live")


def sent_to_play(response, play_id: int, htmx: bool) -> None:
    """Checks the answer sends the browser to the play's page: HX-Redirect for htmx, a 303 for a page."""
    if htmx:
        assert (response.status_code, response.headers["HX-Redirect"]) == (204, f"/plays/{play_id}")
    else:
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/plays/{play_id}")


def page_ids(client, play_id: int) -> set[str]:
    """Every element id on the tracker page."""
    return set(re.findall(r'\bid="([^"]+)"', client.get(f"/plays/{play_id}").get_data(as_text=True)))


def oob_ids(response, ids_on_page: set[str]) -> set[str]:
    """The ids of the answer's out-of-band pieces, checked to be some and each to have its place on the page."""
    found = set(re.findall(r'\bid="([^"]+)"[^>]*hx-swap-oob=', response.get_data(as_text=True)))
    assert found and found <= ids_on_page, sorted(found - ids_on_page)
    return found


def sheet_text(client, play_id: int, game: str) -> str:
    """The play's score sheet, checked to be an inline PDF named for the game and play; returns its text."""
    from pypdf import PdfReader

    response = client.get(f"/plays/{play_id}/sheet.pdf")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == f'inline; filename="{game}-{play_id}.pdf"'
    assert response.data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)


VERSION = re.compile(r'<input type="hidden" id="play-version" name="since" value="(\d+)"( hx-swap-oob="true")?>')


def shown_version(html: str) -> tuple[int, bool]:
    """The play version a page or fragment carries, and whether it comes out of band."""
    found = VERSION.search(html)
    assert found, "no play-version field"
    return int(found.group(1)), bool(found.group(2))


def tap_since(client, play_id: int, seat: int, field: str, delta: int, since: int | None):
    """A counter tap as htmx sends it, with the version the device shows."""
    data = {"field": field, "delta": str(delta)}
    if since is not None:
        data["since"] = str(since)
    return client.htmx("POST", f"/plays/{play_id}/seats/{seat}", data=data)


# --- The JSON API: a finished play of each game, as /api/v1 takes it.

SPIRES = [
    {"name": "Ann", "towers": {"red": 3, "blue": 2, "green": 5}, "crowns": 3, "scroll_vp": 8},
    {"name": "Bob", "towers": {"purple": 3, "black": 1}, "swords": 4, "quills": 2, "scroll_vp": 12},
]
SPIRES_SOLO = [{"name": "Ann", "towers": {"red": 3}, "crowns": 2, "scroll_vp": 30}]
SPQF = [
    {"name": "Ann", "vp_tokens": 10, "civ_level": 3, "monument_modifiers": 4, "vp_cards": 2},
    {"name": "Bob", "vp_tokens": 12, "civ_level": 2, "monument_modifiers": 1},
]
SPYRIUM = [
    {"name": "Ann", "vp_track": 30, "building_vp": [3, 5, 2], "technique_vp": [4, 2]},
    {"name": "Bob", "vp_track": 35, "building_vp": [4]},
]
SPEROS = [
    {
        "name": "Ann",
        "color": "green",
        "captured": [
            {"vp": 5, "resources": ["crystal", "iron"], "terrain": "forest"},
            {"vp": 3, "resources": ["gold"], "terrain": "ocean"},
            {"vp": 2, "resources": ["iron"], "terrain": "swamp"},
        ],
        "minions_familiar": 2,
        "general": "familiar",
        "bonus_objectives": [5, 2],
    },
    {
        "name": "Bob",
        "color": "red",
        "captured": [{"vp": 4, "resources": ["crystal"], "terrain": "mountain"}],
        "minions_unfamiliar": 3,
    },
]
SPEROS_OPTIONS = {"mastery": [{"name": "Explorer", "vp": 6, "leaders": ["Ann", "Bob"]}]}


# --- SPQF and Conquest of Speros through their forms.

DEFAULT_LEVEL_VP = [0, 3, 6, 9, 12, 15]
SPQF_COLOURS = ["red", "blue", "green", "yellow"]


def spqf_form(names: list[str], colours: list[str] | None = None, level_vp: list[object] | None = None) -> dict:
    """The new-play form as the browser sends it for SPQF: names, colours and the six level VP boxes."""
    colours = SPQF_COLOURS[: len(names)] if colours is None else colours
    level_vp = DEFAULT_LEVEL_VP if level_vp is None else level_vp
    return play_form("spqf", names, colours, level_vp=level_vp)


def start_spqf(client, names: list[str] | None = None, **kwargs) -> int:
    """Start an SPQF play through the new-play form; returns its id."""
    return start_by_form(client, spqf_form(names or ["Ann", "Bob"], **kwargs))


def spqf_act(client, play_id: int, htmx: bool = False, **data):
    """One of SPQF's own actions: action=next_turn / last_card / first_token, with its parameters."""
    return post(client, htmx, f"/plays/{play_id}/actions", {k: str(v) for k, v in data.items()})


SPEROS_COLOURS = ["green", "red", "blue", "black"]
# The message slot each action's form on the page names.
SLOTS = {"deploy": "skirmish", "remove": "skirmish", "move": "skirmish", "capture": "skirmish"}


def speros_form(names: list[str], colours: list[str | None] | None = None) -> dict:
    """The new-play form as the browser sends it for Conquest of Speros: names and colours (None: not sent)."""
    colours = SPEROS_COLOURS[: len(names)] if colours is None else colours
    return play_form("speros", names, colours)


def start_speros(client, names: list[str] | None = None, colours: list[str | None] | None = None) -> int:
    """Start a Conquest of Speros play through the new-play form; returns its id."""
    return start_by_form(client, speros_form(names or ["Ann", "Bob"], colours))


def form_data(data: dict[str, Any]) -> MultiDict:
    """Form fields as the browser sends them: a list is several boxes ticked under one name."""
    items = [
        (key, str(item)) for key, value in data.items() for item in (value if isinstance(value, list) else [value])
    ]
    return MultiDict(items)


def post_speros(client, htmx: bool, url: str, data: dict | MultiDict | None = None):
    """POST as htmx sends it (a fragment) or as the plain form does (a page)."""
    return post(client, htmx, url, data if isinstance(data, MultiDict) else form_data(data or {}))


def speros_act(client, play_id: int, htmx: bool = False, **data: Any):
    """One of the game's own actions as its form on the page sends it: action, slot, seat and the action's boxes."""
    if "slot" not in data and "action" in data:
        data["slot"] = SLOTS.get(data["action"], data["action"])
    return post_speros(client, htmx, f"/plays/{play_id}/actions", data)


def skirmish(html: str) -> str:
    """The Skirmish Area section, page or fragment."""
    return html.split('<section id="skirmish"')[1].split("</section>")[0]


def card_item(html: str, number: int) -> str | None:
    """A card's entry in the Skirmish Area, page or fragment."""
    found = re.search(
        rf'<li class="play-card terrain-\w+" id="card-{number}">(.*?)\n    </li>', skirmish(html), re.DOTALL
    )
    return found.group(1) if found else None


def forms(html: str) -> list[str]:
    """Every game-action form in a page or fragment."""
    return re.findall(r'<form[^>]*class="action-form".*?</form>', html, re.DOTALL)


def hidden_fields(form: str) -> dict[str, str]:
    """A form's hidden fields (csrf_token left out): what a tap on its button sends."""
    return {
        k: v for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form) if k != "csrf_token"
    }


def button_form(html: str, label: str) -> dict[str, str]:
    """The hidden fields of the one form whose button has this aria-label or text: a tap on it."""
    found = [form for form in forms(html) if f'aria-label="{label}"' in form or f">{label}</button>" in form]
    assert len(found) == 1, (label, len(found))
    return hidden_fields(found[0])


def selects(html: str) -> dict[str, str]:
    """What each <select> in a piece of page sends: its selected option, else its first."""
    values = {}
    for name, options in re.findall(r'<select name="(\w+)">(.*?)</select>', html, re.DOTALL):
        chosen = re.findall(r'<option value="([^"]*)" selected>', options)
        values[name] = chosen[0] if chosen else re.search(r'<option value="([^"]*)"', options).group(1)
    return values


def put_card_defaults(html: str) -> dict[str, Any]:
    """What the "Put a card into play" form sends untouched: its checked chips, stepper and selected options."""
    form = html.split('<form id="put-card"')[1].split("</form>")[0]
    values: dict[str, Any] = dict(hidden_fields(form))
    values |= dict(re.findall(r'<input type="number" id="[^"]*" name="(\w+)" value="([^"]*)"', form))
    for name, value in re.findall(r'<input type="radio" name="(\w+)" value="([^"]*)" checked>', form):
        values[name] = value
    ticked = re.findall(r'<input type="checkbox" name="resources" value="(\w+)" checked>', form)
    values["resources"] = ticked
    return values | selects(form)


# --- The calculator's form as a browser would submit it.


class FormState(HTMLParser):
    """What a rendered form would submit, which inputs are marked invalid, and each field's message."""

    def __init__(self, html: str):
        super().__init__()
        self.values: dict[str, Any] = {}
        self.types: dict[str, str] = {}
        self.attrs: dict[str, dict[str, str | None]] = {}
        self.invalid: set[str] = set()
        self.errors: dict[str, str] = {}
        self._open: tuple[str, str] | None = None  # ('textarea'|'error', name) collecting text
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = dict(attr_list)
        name = attrs.get("name") or ""
        if tag in ("input", "textarea", "select") and name:
            self.types[name] = attrs.get("type") or tag
            self.attrs[name] = attrs
            if attrs.get("aria-invalid") == "true":
                self.invalid.add(name)
        if tag == "input" and name:
            self.values[name] = ("checked" in attrs) if attrs.get("type") == "checkbox" else attrs.get("value", "")
        elif tag == "textarea":
            self.values[name] = ""
            self._open = ("textarea", name)
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.values[self._select] = attrs.get("value")
        elif tag == "p" and attrs.get("class") == "error" and (attrs.get("id") or "").endswith("-error"):
            key = attrs["id"].removesuffix("-error")
            self.errors[key] = ""
            self._open = ("error", key)

    def handle_data(self, data: str) -> None:
        if self._open and self._open[0] == "textarea":
            self.values[self._open[1]] += data
        elif self._open:
            self.errors[self._open[1]] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self._open:
            # As a browser does: one newline right after <textarea> is not part of the value.
            self.values[self._open[1]] = self.values[self._open[1]].removeprefix("\n")
        if tag in ("textarea", "p"):
            self._open = None
        elif tag == "select":
            self._select = None


# --- Data in and out: a small history, a fresh database, the import page.


def save(client, game: str, players: list[dict[str, Any]], played_at: str | None = None, **more: Any) -> int:
    """Save a finished play through the API; its id."""
    body: dict[str, Any] = {"game": game, "players": players, **more}
    if played_at:
        body["played_at"] = played_at
    response = post_json(client, "/api/v1/plays", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def history(client) -> None:
    """A small history: finished plays (a tie, names in several alphabets, a formula-like name), one in progress,
    one put aside, one deleted."""
    save(
        client,
        "spyrium",
        [
            {"name": "Ιωάννα", "vp_track": 64},
            {"name": "陈伟", "vp_track": 13},
            {"name": "=cmd|' /C calc'!A0", "vp_track": 67},
        ],
        played_at="2026-01-02T19:30:00Z",
        notes="Première partie, «long» game",
    )
    save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 30}], played_at="2026-01-03")
    start_play(client, ["Ann", "Bob"])
    aside = start_play(client, ["ann", "Cy"])
    assert client.post(f"/plays/{aside}/abandon").status_code in (200, 303)
    deleted = save(client, "spyrium", [{"name": "Dee", "vp_track": 1}, {"name": "Eve", "vp_track": 2}])
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, deleted)
        play.deleted_at = datetime.now(UTC)
        session.add(play)
        session.commit()


def fresh_client(tmp_path, name: str = "fresh") -> Client:
    """A client on an app with its own empty SQLite database."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / name}.sqlite"})
    return csrf_client(app)


def upload(client, body: bytes | str, name: str = "export.json", htmx: bool = False):
    """Post a file to the import page."""
    raw = body.encode() if isinstance(body, str) else body
    data = {"file": (io.BytesIO(raw), name)}
    if htmx:
        return client.htmx("POST", "/import", data=data, content_type="multipart/form-data")
    return client.post("/import", data=data, content_type="multipart/form-data")


def counts(client) -> tuple[int, int, int]:
    """Plays, seats and players in the client's database."""
    with Session(client.application.extensions["db_engine"]) as session:
        return tuple(session.exec(select(func.count()).select_from(t)).one() for t in (Play, Seat, Player))


def use_database(monkeypatch, tmp_path, client) -> None:
    """Point the command line at the client's database."""
    monkeypatch.setenv("DATABASE_URL", str(client.application.config["DATABASE_URL"]))
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))


# --- Migrations: the oldest schema, filled.

# The tables as the first version of the app made them (before seat.name, with seat.version): frozen here.
OLDEST = sa.MetaData()


sa.Table(
    "player",
    OLDEST,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(40), nullable=False, unique=True, index=True),
    sa.Column("created_at", sa.DateTime, nullable=False),
)


sa.Table(
    "play",
    OLDEST,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(20), nullable=False, index=True),
    sa.Column("status", sa.String(20), nullable=False, index=True),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rules_version", sa.String(60), nullable=False),
    sa.Column("source", sa.String(20), nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("played_at", sa.DateTime, nullable=False, index=True),
    sa.Column("finished_at", sa.DateTime),
    sa.Column("notes", sa.String(2000), nullable=False),
    sa.Column("tiebreak", sa.String(2000)),
    sa.Column("extra", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
)


sa.Table(
    "seat",
    OLDEST,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("play_id", sa.Integer, sa.ForeignKey("play.id"), nullable=False, index=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("player.id"), nullable=False, index=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("colour", sa.String(20), nullable=False),
    sa.Column("state", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer),
    sa.Column("rank", sa.Integer),
    sa.Column("breakdown", sa.JSON),
)


sa.Table(
    "change",
    OLDEST,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("play_id", sa.Integer, sa.ForeignKey("play.id"), nullable=False, index=True),
    sa.Column("seat_id", sa.Integer, sa.ForeignKey("seat.id")),
    sa.Column("field", sa.String(60), nullable=False),
    sa.Column("old", sa.JSON),
    sa.Column("new", sa.JSON),
    sa.Column("at", sa.DateTime, nullable=False),
    sa.Column("device", sa.String(64), nullable=False),
    sa.Column("undone", sa.Boolean, nullable=False),
)
SPIRES_SEAT = {
    "towers": {"purple": 0, "red": 2, "yellow": 0, "blue": 0, "green": 0, "black": 0},
    "crowns": 1,
    "swords": 0,
    "quills": 0,
    "scroll_vp": 4,
}
# Two spellings the old roster kept apart (SQLite's lower() folds ASCII only), and names from other alphabets.
OLD_NAMES = ["Óscar", "óscar", "Иван", "Σοφία", "Łukasz"]


def fill_oldest(url: str) -> None:
    """Make the oldest schema and put players, a finished play, a play in progress and a tap in it."""
    engine = make_engine(url)
    OLDEST.create_all(engine)
    now = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
    t = OLDEST.tables
    with engine.begin() as db:
        for i, name in enumerate(OLD_NAMES, start=1):
            db.execute(t["player"].insert().values(id=i, name=name, created_at=now))
        for play_id, status in ((1, "finished"), (2, "in_progress")):
            db.execute(
                t["play"]
                .insert()
                .values(
                    id=play_id,
                    game="spires",
                    status=status,
                    options={"solo": False, "discard": {}},
                    rules_version="spires-rulebook/rules-notes-1",
                    source="tracker",
                    created_at=now,
                    played_at=now,
                    finished_at=now if status == "finished" else None,
                    notes="",
                    tiebreak=None,
                    extra={},
                    version=3,
                )
            )
        seats = [(1, 1, 1, 0), (2, 1, 3, 1), (3, 2, 2, 0), (4, 2, 4, 1), (5, 2, 5, 2)]
        for seat_id, play_id, player_id, position in seats:
            db.execute(
                t["seat"]
                .insert()
                .values(
                    id=seat_id,
                    play_id=play_id,
                    player_id=player_id,
                    position=position,
                    colour="",
                    state=SPIRES_SEAT,
                    version=1,
                    total=19 if play_id == 1 else None,
                    rank=1 if play_id == 1 else None,
                    breakdown=(
                        [{"key": "towers", "label": "Towers", "points": 10, "why": "red 2"}] if play_id == 1 else None
                    ),
                )
            )
        db.execute(
            t["change"]
            .insert()
            .values(play_id=2, seat_id=3, field="towers.red", old=1, new=2, at=now, device="tablet", undone=False)
        )
        if engine.dialect.name == "postgresql":
            # Rows given their ids: move each table's id sequence past them, as the old app's inserts would have.
            for table in ("player", "play", "seat", "change"):
                db.execute(
                    sa.text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
                )
    engine.dispose()


def client_for(url: str) -> tuple[Client, object]:
    """A test client on an app over that database."""
    app = create_app({"TESTING": True, "SECRET_KEY": "m", "DATABASE_URL": url})
    return csrf_client(app), app


# --- Statistics: a hand-made history with known answers.

ANN, BOB, CLEO, DMITRI, HANA = 1, 2, 3, 4, 5
ROSTER = {ANN: "Ann", BOB: "Bob", CLEO: "Cleo", DMITRI: "Dmitri", HANA: "Хана <b>"}


def day(n: int) -> datetime:
    """Midday on the nth of January 2026, UTC."""
    return datetime(2026, 1, n, 12, tzinfo=UTC)


def spqf_lines(tokens: int, cards: int) -> list[dict]:
    """An SPQF breakdown of two lines (the total is their sum)."""
    return [
        {"key": "vp_tokens", "label": "VP tokens", "points": tokens, "why": ""},
        {"key": "vp_cards", "label": "1 VP cards", "points": cards, "why": ""},
    ]


# (play id, game, day, status, deleted, seats as (player, total, rank, breakdown or None)) in turn order.
STATS_HISTORY = [
    (
        1,
        "spqf",
        1,
        FINISHED,
        False,
        [(ANN, 40, 1, spqf_lines(10, 30)), (BOB, 30, 2, spqf_lines(20, 10)), (CLEO, 20, 3, spqf_lines(15, 5))],
    ),
    # A shared victory: Ann and Bob both rank 1.
    (
        2,
        "spqf",
        2,
        FINISHED,
        False,
        [(BOB, 35, 1, spqf_lines(15, 20)), (ANN, 35, 1, spqf_lines(10, 25)), (CLEO, 10, 3, spqf_lines(10, 0))],
    ),
    # Imported from BG Stats: totals and ranks, no breakdown.
    (3, "spqf", 3, FINISHED, False, [(ANN, 20, 2, []), (BOB, 50, 1, [])]),
    # Deleted: its record 99 and Dmitri's win must not show.
    (4, "spqf", 4, FINISHED, True, [(DMITRI, 99, 1, spqf_lines(0, 99)), (ANN, 1, 2, spqf_lines(1, 0))]),
    # In progress: no total yet.
    (5, "spqf", 5, IN_PROGRESS, False, [(CLEO, None, None, None), (HANA, None, None, None)]),
    # Solo Spires: apart from wins and rates.
    (6, "spires", 6, FINISHED, False, [(ANN, 61, 1, [])]),
    # A solo play scored line by line: its lines stay out of the game's line averages too.
    (
        7,
        "spires",
        7,
        FINISHED,
        False,
        [
            (
                ANN,
                55,
                1,
                [
                    {"key": "towers", "label": "Towers", "points": 40, "why": ""},
                    {"key": "crowns", "label": "Crowns bonus", "points": 15, "why": ""},
                ],
            )
        ],
    ),
    # A tie nobody broke: both rank 1. Imported with no breakdown at all (JSON null).
    (8, "spires", 8, FINISHED, False, [(ANN, 30, 1, None), (CLEO, 30, 1, None)]),
    # A tie for second: Ann and Bob level.
    (
        9,
        "spqf",
        9,
        FINISHED,
        False,
        [(CLEO, 45, 1, spqf_lines(5, 40)), (ANN, 25, 2, spqf_lines(20, 5)), (BOB, 25, 2, spqf_lines(25, 0))],
    ),
]


def store(engine) -> None:
    """STATS_HISTORY written into a database through the models."""
    with Session(engine) as session:
        for player_id, name in ROSTER.items():
            session.add(Player(id=player_id, name=name, key=name_key(name)))
        session.flush()
        for play_id, game, d, status, deleted, table in STATS_HISTORY:
            session.add(
                Play(
                    id=play_id,
                    game=game,
                    status=status,
                    rules_version="test",
                    played_at=day(d),
                    deleted_at=day(20) if deleted else None,
                    finished_at=day(d) if status == FINISHED else None,
                )
            )
            session.flush()
            for position, (player, total, rank, lines) in enumerate(table):
                session.add(
                    Seat(
                        play_id=play_id,
                        player_id=player,
                        name=ROSTER[player],
                        position=position,
                        total=total,
                        rank=rank,
                        breakdown=lines,
                    )
                )
        session.commit()


# BG Stats: a play's times, and a createPlay link read back ---------------------------------------------------

# What every player of a createPlay link carries (a colour adds "role").
PLAYER_KEYS = {"name", "sourcePlayerId", "score", "winner", "rank", "startPlayer"}


def timed(client, play_id: int, start: datetime, minutes: float) -> None:
    """Set when a play was started and finished."""
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        play.created_at, play.played_at, play.finished_at = start, start, start + timedelta(minutes=minutes)
        session.add(play)
        session.commit()


def decoded(url: str | None) -> dict[str, Any]:
    """The play a createPlay link hands over, read as BG Stats reads it, its types checked on the way."""
    assert url is not None
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    # All of the JSON is percent-encoded (no raw quote, brace or space to break the link on its way to the app).
    assert re.fullmatch(r"data=[A-Za-z0-9%._~-]+", parts.query)
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    play = json.loads(data)
    assert type(play["durationMin"]) is int and type(play["game"]["bggId"]) is int
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S")  # noqa: DTZ007 (the form says no zone: UTC)
    for player in play["players"]:
        assert PLAYER_KEYS <= set(player) <= PLAYER_KEYS | {"role"}
        assert type(player["winner"]) is bool and type(player["startPlayer"]) is bool and type(player["rank"]) is int
        assert type(player["score"]) in (int, float) and type(player["sourcePlayerId"]) is str
    return play


def text_of(html: str) -> str:
    """The page's text, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def page(client: FlaskClient, url: str) -> str:
    """A page's text, after checking it answered 200 (a plain request and an htmx one give the same page)."""
    response = client.get(url)
    assert response.status_code == 200
    assert client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True) == response.get_data(as_text=True)
    return text_of(response.get_data(as_text=True))
