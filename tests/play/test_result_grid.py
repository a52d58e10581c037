"""The result as a grid (templates/play/_result_table.html, companion/play/result_grid.py), through the test client.

Players are the columns in turn order (seat order), not in rank order: a player finds their own column where they
sit and where the tracker showed them, as on a paper score pad filled in around the table; the Rank row and the
Winner badge say who won. The game's breakdown lines are the rows in the game's own order, then Total and Rank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest

from companion.games import GAMES
from companion.games.wording import ordinal
from companion.play.result_grid import result_grid

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    """An element of the parsed page: tag, attributes, children (elements and text)."""

    tag: str
    attrs: dict[str, str]
    children: list[Any] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The text inside, whitespace collapsed."""
        parts = [c if isinstance(c, str) else c.text for c in self.children]
        return re.sub(r"\s+", " ", " ".join(parts)).strip()

    @property
    def classes(self) -> set[str]:
        """The class attribute as a set."""
        return set((self.attrs.get("class") or "").split())

    def all(self, tag: str, cls: str | None = None) -> list[Node]:
        """Every descendant element with this tag (and class), in document order."""
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag and (cls is None or cls in child.classes):
                    found.append(child)
                found += child.all(tag, cls)
        return found

    def one(self, tag: str, cls: str | None = None) -> Node:
        """The only descendant element with this tag (and class)."""
        found = self.all(tag, cls)
        assert len(found) == 1, f"{len(found)} <{tag} class={cls}>"
        return found[0]

    def cells(self) -> list[Node]:
        """A row's own th and td cells."""
        return [c for c in self.children if isinstance(c, Node) and c.tag in ("th", "td")]


class Tree(HTMLParser):
    """A small DOM of a page, enough to read a table."""

    def __init__(self, html: str):
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


@dataclass
class Grid:
    """What the result grid shows: header cells, line rows, the total and rank rows."""

    table: Node
    head: list[Node]
    lines: list[Node]
    total: Node
    rank: Node | None

    @property
    def players(self) -> list[str]:
        """The column headers' names, left to right."""
        return [th.one("span", "name").text for th in self.head[1:]]

    @property
    def labels(self) -> list[str]:
        """The line rows' names, top to bottom."""
        return [row.cells()[0].one("summary").text for row in self.lines]

    @property
    def winners(self) -> list[str]:
        """The columns badged Winner."""
        return [th.one("span", "name").text for th in self.head[1:] if th.all("span", "winner-badge")]

    def points(self, label: str) -> list[str]:
        """A line's points, left to right, as shown."""
        row = self.lines[self.labels.index(label)]
        return [td.text for td in row.cells()[1:]]

    def reasons(self, label: str) -> list[str]:
        """A line's reasons, one text per player, as the line's name opens them."""
        row = self.lines[self.labels.index(label)]
        return [li.text for li in row.cells()[0].one("details").one("ul", "reasons").all("li")]


def grid_of(html: str) -> Grid:
    """The result grid of a page or fragment."""
    table = Tree(html).root.one("table", "result-grid")
    head = table.one("thead").one("tr").cells()
    lines = table.one("tbody").all("tr")
    foot = table.one("tfoot").all("tr")
    total = next(r for r in foot if "total" in r.classes)
    rank = next((r for r in foot if "rank" in r.classes), None)
    return Grid(table, head, lines, total, rank)


def signed(points: int) -> str:
    """Points as the grid writes them: +5, −4, 0."""
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


def save(client, game: str, players: list[dict], options: dict | None = None) -> tuple[str, dict]:
    """Save a finished play through the API; its page's HTML and the scored result."""
    response = client.post("/api/v1/plays", json={"game": game, "players": players, "options": options or {}})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    page = client.get(created["url"])
    assert page.status_code == 200
    return page.get_data(as_text=True), created["result"]


# Three players per game, the winner never seated first, so turn order and rank order differ.
PLAYS = {
    "spires": [
        {"name": "Ann", "towers": {"red": 2}, "crowns": 1, "scroll_vp": 3},
        {"name": "Bob", "towers": {"purple": 3, "black": 4}, "swords": 4, "quills": 2, "scroll_vp": 12},
        {"name": "Cy", "towers": {"green": 3}, "crowns": 3, "scroll_vp": 8},
    ],
    "spqf": [
        {"name": "Ann", "vp_tokens": 4, "civ_level": 1, "monument_modifiers": 1},
        {"name": "Bob", "vp_tokens": 12, "civ_level": 3, "monument_modifiers": 4, "vp_cards": 2},
        {"name": "Cy", "vp_tokens": 9, "civ_level": 2, "monument_modifiers": 2},
    ],
    "spyrium": [
        {"name": "Ann", "vp_track": 20},
        {"name": "Bob", "vp_track": 35, "building_vp": [4, 2], "technique_vp": [5]},
        {"name": "Cy", "vp_track": 30, "building_vp": [3]},
    ],
    "speros": [
        {"name": "Ann", "color": "red", "captured": [{"vp": 2, "resources": ["gold"], "terrain": "mountain"}]},
        {
            "name": "Bob",
            "color": "green",
            "captured": [
                {"vp": 5, "resources": ["crystal", "iron"], "terrain": "forest"},
                {"vp": 3, "resources": ["gold"], "terrain": "ocean"},
            ],
            "minions_familiar": 2,
            "general": "familiar",
            "bonus_objectives": [5, 2],
        },
        {"name": "Cy", "color": "blue", "captured": [{"vp": 4, "resources": ["iron"], "terrain": "ocean"}]},
    ],
}


@pytest.mark.parametrize("game_id", sorted(PLAYS))
def test_grid_of_each_game(client, game_id: str) -> None:
    """Players as columns in turn order, the game's lines in its order, Total, Rank, the winner badged."""
    html, result = save(client, game_id, PLAYS[game_id])
    grid = grid_of(html)
    names = [p["name"] for p in PLAYS[game_id]]
    assert grid.players == names
    assert [p["name"] for p in result["players"] if p["rank"] == 1] == ["Bob"] == grid.winners
    # Every header says its scope; the corner names the line column.
    assert [th.attrs.get("scope") for th in grid.head] == ["col"] * (len(names) + 1)
    assert grid.head[0].text == "Line"
    assert grid.labels == [label for _key, label in GAMES[game_id].breakdown]
    for row in grid.lines:
        assert row.cells()[0].tag == "th" and row.cells()[0].attrs["scope"] == "row"
        assert [c.tag for c in row.cells()[1:]] == ["td"] * len(names)
    by_key = [{line["key"]: line for line in p["breakdown"]} for p in result["players"]]
    for key, label in GAMES[game_id].breakdown:
        assert grid.points(label) == [signed(lines[key]["points"]) for lines in by_key], label
        reasons = grid.reasons(label)
        assert len(reasons) == len(names)
        for text, name, lines in zip(reasons, names, by_key, strict=True):
            assert text.startswith(f"{name} {signed(lines[key]['points'])}"), text
            assert lines[key]["why"] in text
    total_cells = grid.total.cells()
    assert total_cells[0].tag == "th" and total_cells[0].attrs["scope"] == "row" and total_cells[0].text == "Total"
    assert [td.text for td in total_cells[1:]] == [str(p["total"]) for p in result["players"]]
    rank_cells = grid.rank.cells()
    assert rank_cells[0].attrs["scope"] == "row" and rank_cells[0].text == "Rank"
    assert [td.text for td in rank_cells[1:]] == [ordinal(p["rank"]) for p in result["players"]]
    # The winners' sentence stands above the grid, word for word as the API says it.
    assert result["winners_text"].startswith("Bob wins with ")
    assert html.index(result["winners_text"]) < html.index('<table class="result-grid')


def test_winner_is_said_in_text_and_marked_down_the_column(client) -> None:
    """The Winner badge is text in the column header (read with the name), and every cell of that column is marked."""
    html, _result = save(client, "spires", PLAYS["spires"])
    grid = grid_of(html)
    bob = grid.head[2]
    assert bob.text == "Bob Winner" and "winner" in bob.classes
    assert not any("winner" in th.classes for th in (grid.head[1], grid.head[3]))
    for row in [*grid.lines, grid.total, grid.rank]:
        assert ["winner" in td.classes for td in row.cells()[1:]] == [False, True, False]


def test_reasons_are_one_disclosure_per_line(client) -> None:
    """Each line's name is the <summary> of a <details> holding that line's reasons for every player: a native
    control, reached by Tab, opened by a tap, Enter or Space, announced as expanded or collapsed; closed at first."""
    html, _result = save(client, "spqf", PLAYS["spqf"])
    grid = grid_of(html)
    for row in grid.lines:
        details = row.cells()[0].one("details")
        assert "open" not in details.attrs
        assert details.children and details.one("summary").text
    caption = grid.table.one("caption").text
    assert "turn order" in caption and "opens its reasons" in caption
    # No script of our own on the page does it (CSP script-src 'self'): nothing inline, no handler attributes.
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and " onclick=" not in html


def test_seat_colours_stripe_the_columns(client) -> None:
    """A Speros player's colour comes with the result; the header carries it as a class (a stripe in CSS)."""
    html, _result = save(client, "speros", PLAYS["speros"])
    grid = grid_of(html)
    assert [sorted(c for c in th.classes if c.startswith("colour-")) for th in grid.head[1:]] == [
        ["colour-red"],
        ["colour-green"],
        ["colour-blue"],
    ]


# --- the calculator: the same grid as a fragment under the form and on the full page ---

SPQF_FORM = {
    "name-0": "Ann", "vp_tokens-0": "4", "civ_level-0": "1", "monument_modifiers-0": "1",
    "name-1": "Bob", "vp_tokens-1": "12", "civ_level-1": "3", "monument_modifiers-1": "4", "vp_cards-1": "2",
    "name-2": "Cy", "vp_tokens-2": "9", "civ_level-2": "2", "monument_modifiers-2": "2",
}  # fmt: skip


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_calculator_result_is_the_grid(client, htmx: bool) -> None:
    response = (
        client.htmx("POST", "/calculator/spqf", data=SPQF_FORM)
        if htmx
        else client.post("/calculator/spqf", data=SPQF_FORM)
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert ("<html" in html) is not htmx
    saved_html, result = save(client, "spqf", PLAYS["spqf"])
    grid, saved = grid_of(html), grid_of(saved_html)
    # The same input typed into the form gives the same grid as the saved play's page.
    assert grid.players == saved.players == ["Ann", "Bob", "Cy"]
    assert grid.labels == saved.labels
    for label in grid.labels:
        assert grid.points(label) == saved.points(label)
        assert grid.reasons(label) == saved.reasons(label)
    assert [td.text for td in grid.total.cells()[1:]] == [str(p["total"]) for p in result["players"]]
    assert grid.winners == ["Bob"]
    # The grid sits in the result under the form, after the one button that saves it (in view with the result).
    calc = html[html.index('id="calc-result"') :]
    assert calc.index("Save to history") < calc.index('<table class="result-grid')


# --- a tracked play: the final table after Finish ---


def test_finished_tracked_play_shows_the_grid(client) -> None:
    started = client.post(
        "/api/v1/plays",
        json={"game": "spires", "track": True, "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob"}]},
    )
    assert started.status_code == 201, started.get_json()
    play = started.get_json()["id"]
    for player, name, value in (("Ann", "towers.red", 2), ("Bob", "towers.blue", 3), ("Bob", "crowns", 2)):
        action = {"action": "set", "player": player, "field": name, "value": value}
        assert client.post(f"/api/v1/plays/{play}/actions", json=action).status_code == 200
    finished = client.htmx("POST", f"/plays/{play}/finish")
    assert finished.status_code == 204 and finished.headers["HX-Redirect"] == f"/plays/{play}"
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    grid = grid_of(html)
    assert grid.players == ["Ann", "Bob"] and grid.winners == ["Bob"]
    assert "colour-red" in grid.head[1].classes and not any(c.startswith("colour-") for c in grid.head[2].classes)
    assert grid.points("Towers of 1-3 cards") == ["+10", "+15"]
    assert grid.points("Crowns bonus") == ["0", "+15"]
    assert [td.text for td in grid.total.cells()[1:]] == ["10", "30"]
    assert [td.text for td in grid.rank.cells()[1:]] == ["2nd", "1st"]
    assert "Most crowns (2): 15 VP." in grid.reasons("Crowns bonus")[1]


# --- ties and shared wins ---


def test_shared_victory_badges_every_winner(client) -> None:
    """Spyrium has no tie-break: Ann and Cy share the victory, both badged, both '1st tied'; Bob is 3rd."""
    players = [{"name": "Ann", "vp_track": 20}, {"name": "Bob", "vp_track": 10}, {"name": "Cy", "vp_track": 20}]
    html, _result = save(client, "spyrium", players)
    grid = grid_of(html)
    assert grid.winners == ["Ann", "Cy"]
    assert [td.text for td in grid.rank.cells()[1:]] == ["1st tied", "3rd", "1st tied"]
    assert "Ann and Cy share the victory with 20 VP." in html
    assert html.index("tied on 20 VP") < html.index('<table class="result-grid')


def test_tie_broken_by_the_rules_has_one_winner(client) -> None:
    """Spires ties go to the fewest negative points: one winner, ranks 1st and 2nd, the tie-break said above."""
    players = [{"name": "Ann", "towers": {"red": 3, "blue": 4}, "scroll_vp": 4}, {"name": "Bob", "towers": {"red": 3}}]
    html, _result = save(client, "spires", players)
    grid = grid_of(html)
    assert grid.winners == ["Bob"]
    assert [td.text for td in grid.total.cells()[1:]] == ["15", "15"]
    assert [td.text for td in grid.rank.cells()[1:]] == ["2nd", "1st"]
    assert "Tie-break, fewest negative points: Bob 0 VP, Ann −4 VP." in html


def test_shared_lower_rank_is_said_tied(client) -> None:
    players = [
        {"name": "Ann", "vp_track": 30},
        {"name": "Bob", "vp_track": 10},
        {"name": "Cy", "vp_track": 10},
        {"name": "Dee", "vp_track": 5},
    ]
    grid = grid_of(save(client, "spyrium", players)[0])
    assert grid.winners == ["Ann"]
    assert [td.text for td in grid.rank.cells()[1:]] == ["1st", "2nd tied", "2nd tied", "4th"]


# --- Spires solo ---


def test_spires_solo_has_one_column_no_rank_and_the_appraisal(client) -> None:
    players = [{"name": "Ann", "towers": {"red": 3}, "crowns": 2, "scroll_vp": 30}]
    html, result = save(client, "spires", players, {"solo": True, "discard": {"crowns": 1}})
    grid = grid_of(html)
    assert grid.players == ["Ann"]
    # Alone against the game: no one to beat, so no Winner badge and no Rank row; the King's Appraisal says it.
    assert grid.winners == [] and grid.rank is None
    assert [td.text for td in grid.total.cells()[1:]] == ["60"]
    assert grid.labels == [label for _key, label in GAMES["spires"].breakdown]
    assert grid.points("Crowns bonus") == ["+15"]
    assert "Ann scores 60 VP." in html and "King's Appraisal:</strong> " + result["appraisal_text"] in html


# --- the A4 sheet draws the same grid as a score pad ---


def test_score_sheet_is_a_score_pad_grid(client, app) -> None:
    """The print template draws players as columns like the page (its own printing/_grid.html); no list per player."""
    html, _result = save(client, "spires", PLAYS["spires"])
    sheet = client.get("/plays/1/sheet.pdf")
    assert sheet.status_code == 200
    with app.test_request_context():
        from flask import render_template

        from companion.store import records
        from companion.store.db import get_session
        from companion.store.models import Play

        play = get_session().get(Play, 1)
        printed = render_template(
            "printing/sheet.html", play=play, game=GAMES["spires"], result=records.stored_result(play), seats=play.seats
        )
    assert 'class="pad-grid' in printed and 'class="breakdown"' not in printed and 'class="breakdown"' not in html


# --- the helper itself ---


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
    ]


def test_rows_follow_the_game_and_keep_lines_it_no_longer_declares() -> None:
    """A play scored by older rules may lack a line or hold one the game no longer declares: both still show."""
    result = {
        "players": [
            {"name": "Ann", "total": 12, "rank": 1, "breakdown": [
                {"key": "scrolls", "label": "Scroll cards", "points": 2, "why": "2 VP."},
                {"key": "old", "label": "Old line", "points": 10, "why": "By the old rules."},
            ]},
            {"name": "Bob", "total": 5, "rank": 2, "breakdown": [
                {"key": "towers", "label": "Towers", "points": 5, "why": "red 1."},
            ]},
        ],
        "winners": ["Ann"],
        "tiebreak": None,
    }  # fmt: skip
    grid = result_grid(result, GAMES["spires"])
    assert [row.key for row in grid.rows] == ["towers", "scrolls", "old"]
    # The label the play was scored with is kept ("Towers"), not today's.
    assert [row.label for row in grid.rows] == ["Towers", "Scroll cards", "Old line"]
    assert [(c.name, c.points) for c in grid.rows[0].cells] == [("Ann", None), ("Bob", 5)]
    assert [c.winner for c in grid.rows[2].cells] == [True, False]
    assert [(c.place, c.tied, c.winner) for c in grid.columns] == [("1st", False, True), ("2nd", False, False)]
