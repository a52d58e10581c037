"""The "Send to BG Stats" link (issue 20, part 3): BG Stats' createPlay form, decoded as the app decodes it (the
url-encoded JSON of its "data" parameter), field by field and type by type, for a tracked play, a calculator play and
a solo Spires play, and the result page that carries it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from markupsafe import escape
from sqlmodel import Session

from companion.data import createplay
from companion.store import records
from companion.store.models import Play
from tests.helpers import decoded, post_json, save, timed

# Keys every player line carries: BG Stats' Android app throws "No value for" a missing winner or startPlayer.


def at_table(client, play_id: int, start: datetime, minutes: float) -> None:
    """Set when a play was started and finished, and its minutes at the table as finishing stores them."""
    timed(client, play_id, start, minutes)
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None and play.finished_at is not None
        play.duration_min = records.minutes_played(play, play.finished_at)
        session.add(play)
        session.commit()


def stored(client, play_id: int) -> Play:
    """The play as the database holds it (its seats come with it)."""
    with Session(client.application.extensions["db_engine"]) as session:
        play = session.get(Play, play_id)
        assert play is not None
        return play


def sent(client, play_id: int) -> tuple[Play, dict[str, Any]]:
    """The play and what its link hands over."""
    play = stored(client, play_id)
    return play, decoded(createplay.url(play))


def test_a_tracked_play(client) -> None:
    players = [{"name": "Ann", "colour": "red"}, {"name": "Bob"}]
    response = post_json(client, "/api/v1/plays", {"game": "spqf", "track": True, "players": players})
    play_id = response.get_json()["id"]
    for action in ({"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 5}, {"action": "next_turn"}):
        assert post_json(client, f"/api/v1/plays/{play_id}/actions", action).status_code == 200
    assert createplay.url(stored(client, play_id)) is None  # in progress: nothing to send yet
    assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 200
    at_table(client, play_id, datetime(2026, 2, 1, 19, 0, tzinfo=UTC), 95.4)
    play, data = sent(client, play_id)
    ann, bob = play.seats
    assert data == {
        "sourceName": "Companion",
        "sourcePlayId": play.uid,
        "playDate": "2026-02-01 19:00:00",
        "durationMin": 95,
        "game": {"name": "SPQF", "sourceGameId": "spqf", "bggId": 0, "highestWins": True, "noPoints": False},
        "players": [
            {
                "name": "Ann",
                "sourcePlayerId": str(ann.player_id),
                "score": ann.total,
                "winner": False,
                "rank": 2,
                "startPlayer": True,
                "role": "Red",
            },
            {
                "name": "Bob",
                "sourcePlayerId": str(bob.player_id),
                "score": bob.total,
                "winner": True,
                "rank": 1,
                "startPlayer": False,
            },
        ],
    }
    assert bob.total is not None and ann.total is not None and bob.total > ann.total


def test_a_calculator_play(client) -> None:
    form = {"name-0": "Ιωάννα", "vp_track-0": "30", "name-1": "Bob", "vp_track-1": "35"}
    url = client.post("/calculator/spyrium/save", data=form).headers["Location"]
    play, data = sent(client, int(url.rsplit("/", 1)[1]))
    assert play.source == "calculator" and data["sourcePlayId"] == play.uid
    # Scored at the end: no time at the table.
    assert data["durationMin"] == 0
    assert data["playDate"] == play.played_at.replace(tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert data["game"] == {
        "name": "Spyrium",
        "sourceGameId": "spyrium",
        "bggId": 137269,
        "highestWins": True,
        "noPoints": False,
    }
    first, second = play.seats
    assert data["players"] == [
        {"name": "Ιωάννα", "sourcePlayerId": str(first.player_id), "score": 30, "winner": False, "rank": 2,
         "startPlayer": True},
        {"name": "Bob", "sourcePlayerId": str(second.player_id), "score": 35, "winner": True, "rank": 1,
         "startPlayer": False},
    ]  # fmt: skip


def test_the_play_date_is_in_utc(client) -> None:
    play_id = save(client, "spyrium", [{"name": "Ann", "vp_track": 3}, {"name": "Bob", "vp_track": 2}],
                   played_at="2026-03-04T23:30:00+02:00")  # fmt: skip
    assert sent(client, play_id)[1]["playDate"] == "2026-03-04 21:30:00"


def test_a_solo_spires_play_is_won_as_the_king_decides(client) -> None:
    # 70 is the King's greeting card: won; 55 is a few days in the stocks: lost. Either ranks first, alone.
    for name, vp, won in (("Ann", 70, True), ("Bob", 55, False)):
        play_id = save(client, "spires", [{"name": name, "scroll_vp": vp}], options={"solo": True})
        play, data = sent(client, play_id)
        assert data["game"]["name"] == "Spires" and data["game"]["bggId"] == 0
        assert data["players"] == [
            {"name": name, "sourcePlayerId": str(play.seats[0].player_id), "score": vp, "winner": won, "rank": 1,
             "startPlayer": True}
        ]  # fmt: skip


def test_the_result_page_carries_the_link(client, play_id) -> None:
    assert "Send to BG Stats" not in client.get(f"/plays/{play_id}").get_data(as_text=True)  # the tracker
    finished = save(client, "spyrium", [{"name": "Ann", "vp_track": 3}, {"name": "Bob", "vp_track": 2}])
    page = client.get(f"/plays/{finished}").get_data(as_text=True)
    link = createplay.url(stored(client, finished))
    assert link is not None and "<html" in page.lower()
    assert f'<a class="button" href="{escape(link)}" rel="noopener">Send to BG Stats</a>' in page
