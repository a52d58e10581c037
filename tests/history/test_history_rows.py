"""History rows (issue 10, issue 17): the players by rank with their totals, the winners marked in text, not by turn
order; the game and date link the play and each player's name links their page (/players/<id>), siblings, never a
link inside a link, on the whole page, on the htmx fragment of the results and on the home page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from sqlmodel import Session, select

from companion.store.models import Player
from tests.helpers import post_json


def save(client, players: list[dict]) -> int:
    """Save a finished Spyrium play through the API (turn order as given); its id."""
    response = post_json(client, "/api/v1/plays", {"game": "spyrium", "players": players})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def ranked(html: str) -> list[str]:
    """Each history row's players as shown: 'Ann 30 ★ (winner)', in order, row by row."""
    rows = re.findall(r'<ol class="ranked"[^>]*>(.*?)</ol>', html, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", "", row).split()) for row in rows]


def roster_ids(app) -> dict[str, int]:
    """The roster's names and their ids."""
    with Session(app.extensions["db_engine"]) as session:
        return {player.name: player.id for player in session.exec(select(Player))}


class Rows(HTMLParser):
    """The rows of a play list: per row the play link and the player links (href, text), and any nested link."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.nested: list[str] = []
        self._open: list[str] = []  # hrefs of the links open around the text being read
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Start a row at each play-row item, a link at each <a>."""
        found = dict(attrs)
        if tag == "li" and "play-row" in (found.get("class") or ""):
            self.rows.append({"play": None, "players": []})
        if tag == "a":
            if self._open:
                self.nested.append(found.get("href") or "")
            self._open.append(found.get("href") or "")
            self._text = ""

    def handle_data(self, data: str) -> None:
        """Collect a link's text."""
        if self._open:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        """File the link just closed under its row: the play, or a player."""
        if tag == "a" and self._open:
            href = self._open.pop()
            if self.rows and href.startswith("/plays/"):
                self.rows[-1]["play"] = href
            elif self.rows and href.startswith("/players/"):
                self.rows[-1]["players"].append((href, " ".join(self._text.split())))


def rows_of(html: str) -> Rows:
    """The play list's rows in a page or fragment."""
    parser = Rows()
    parser.feed(html)
    return parser


def test_rows_list_players_by_rank_with_the_winner_marked(client) -> None:
    save(client, [{"name": "Cleo", "vp_track": 64}, {"name": "Ana", "vp_track": 13}, {"name": "Ben", "vp_track": 67}])
    for page in ("/history", "/"):
        rows = ranked(client.get(page).get_data(as_text=True))
        assert rows[0] == "Ben 67 ★(winner) · Cleo 64 · Ana 13", page


def test_shared_wins_mark_every_winner(client) -> None:
    save(client, [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 30}, {"name": "Cy", "vp_track": 10}])
    html = client.get("/history").get_data(as_text=True)
    assert ranked(html)[0] == "Ann 30 ★(winner) · Bob 30 ★(winner) · Cy 10"
    assert html.count('<li class="won">') == 2


def test_each_player_in_a_row_links_their_page(app, client) -> None:
    first = save(client, [{"name": "Cleo", "vp_track": 64}, {"name": "Ana", "vp_track": 13}])
    second = save(client, [{"name": "Ben", "vp_track": 20}, {"name": "Cleo", "vp_track": 40}])
    ids = roster_ids(app)
    for url in ("/history", "/"):
        parsed = rows_of(client.get(url).get_data(as_text=True))
        assert parsed.nested == [], url  # the play link and the player links are siblings
        assert parsed.rows[:2] == [
            {
                "play": f"/plays/{second}",
                "players": [(f"/players/{ids['Cleo']}", "Cleo"), (f"/players/{ids['Ben']}", "Ben")],
            },
            {
                "play": f"/plays/{first}",
                "players": [(f"/players/{ids['Cleo']}", "Cleo"), (f"/players/{ids['Ana']}", "Ana")],
            },
        ], url


def test_the_htmx_fragment_of_the_results_links_the_players_too(app, client) -> None:
    save(client, [{"name": "Cleo", "vp_track": 64}, {"name": "Ana", "vp_track": 13}])
    ids = roster_ids(app)
    response = client.htmx("GET", "/history?player=ana")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.startswith('<div id="history-results"') and "<html" not in html  # the fragment alone
    parsed = rows_of(html)
    assert parsed.nested == []
    assert [row["players"] for row in parsed.rows] == [
        [(f"/players/{ids['Cleo']}", "Cleo"), (f"/players/{ids['Ana']}", "Ana")]
    ]


def test_a_name_played_in_other_capitals_links_the_same_roster_entry(app, client) -> None:
    save(client, [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 10}])
    save(client, [{"name": "ANN", "vp_track": 5}, {"name": "Bob", "vp_track": 12}])
    ids = roster_ids(app)
    assert set(ids) == {"Ann", "Bob"}
    rows = rows_of(client.get("/history").get_data(as_text=True)).rows
    # The newest first: the name as played in each, the same page behind both.
    assert rows[0]["players"] == [(f"/players/{ids['Bob']}", "Bob"), (f"/players/{ids['Ann']}", "ANN")]
    assert rows[1]["players"][0] == (f"/players/{ids['Ann']}", "Ann")
    player_page = client.get(rows[0]["players"][1][0])
    assert player_page.status_code == 200
    assert "<h1>Ann</h1>" in player_page.get_data(as_text=True)
