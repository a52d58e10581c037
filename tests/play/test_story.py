"""The story of a play (issue 22): each player's score after every action, replayed from the log through the game's
own scoring, equals what the tracker answered at that moment; lead changes, the end begun and turn times; the
result page, the score sheet and the API's play view show it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import col, select

from companion.play import story as story_module
from companion.play.story import read_story
from companion.stats.charts import Mark, Series, race_chart
from companion.store import records
from companion.store.db import get_session
from companion.store.models import Change, Play
from tests.helpers import api_act, post_json, sheet_text

# Each game: its players, and a game's actions through the API ("undo" takes back the one before), with at least
# one pass of the turn where the game passes turns and a lead that changes hands.
GAMES: dict[str, tuple[list[dict[str, str]], list[dict[str, Any]]]] = {
    "spqf": (
        [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
        [
            {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 3},
            {"action": "next_turn"},
            {"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 5},
            {"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 9},
            "undo",
            {"action": "next_turn"},
            {"action": "add", "player": "Cy", "field": "civ_level", "delta": 1},
            {"action": "add", "player": "Cy", "field": "vp_tokens", "delta": 4},
            {"action": "next_turn"},
            {"action": "last_card", "placed": True},
        ],
    ),
    "spires": (
        [{"name": "Ann"}, {"name": "Bob"}],
        [
            {"action": "add", "player": "Ann", "field": "towers.red", "delta": 2},
            {"action": "add", "player": "Bob", "field": "crowns", "delta": 2},
            {"action": "add", "player": "Bob", "field": "scroll_vp", "delta": 6},
            "undo",
            {"action": "add", "player": "Bob", "field": "scroll_vp", "delta": 9},
        ],
    ),
    "spyrium": (
        [{"name": "Ann"}, {"name": "Bob"}],
        [
            {"action": "start_turn"},
            {"action": "add", "player": "Ann", "field": "vp_track", "delta": 3},
            {"action": "build", "player": "Bob", "vp": 2, "cost": 4},
            {"action": "start_turn"},
            {"action": "add", "player": "Bob", "field": "vp_track", "delta": 4},
        ],
    ),
    "speros": (
        [{"name": "Ann", "colour": "green"}, {"name": "Bob", "colour": "red"}],
        [
            {
                "action": "explore",
                "player": "Ann",
                "terrain": "forest",
                "encampments": 3,
                "vp": 2,
                "resources": ["iron"],
            },
            {"action": "deploy", "player": "Bob", "card": 1},
            {"action": "deploy", "player": "Bob", "card": 1},
            {"action": "set", "player": "Ann", "field": "bonus_1", "value": 3},
        ],
    ),
}


def play_out(client, game: str, finish: bool = True) -> tuple[int, list[tuple[int, ...]]]:
    """Start a tracked play, make its actions through the API and finish it; the play's id and each player's live
    total after every action still standing, as the API answered it at the time."""
    players, actions = GAMES[game]
    started = post_json(client, "/api/v1/plays", {"game": game, "track": True, "players": players})
    assert started.status_code == 201, started.get_json()
    play_id = started.get_json()["id"]
    answered: list[tuple[int, ...]] = []
    for action in actions:
        if action == "undo":
            assert post_json(client, f"/api/v1/plays/{play_id}/undo", {}).status_code == 200
            answered.pop()
            continue
        view = api_act(client, play_id, action)
        answered.append(tuple(p["total"] for p in view["live"]["players"]))
    if finish:
        assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 200
    return play_id, answered


def story_of(app, play_id: int):
    """The play's story, told afresh."""
    with app.test_request_context():
        session = get_session()
        play = session.get(Play, play_id)
        assert play is not None
        changes = list(session.exec(select(Change).where(Change.play_id == play_id).order_by(col(Change.id))))
        return story_module.tell(play, records.live_context(play), changes)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_charts_points_are_the_scores_the_tracker_answered_after_each_action(app, client, game) -> None:
    play_id, answered = play_out(client, game)
    told = story_of(app, play_id)
    assert told is not None and told.complete
    # Every action still standing, in order, scored through the game as the tracker scored it then.
    assert [step.totals for step in told.actions] == answered
    assert told.steps[0].said == "Start" and all(total == 0 for total in told.steps[0].totals)
    # The last point is the final table.
    result = client.get(f"/api/v1/plays/{play_id}").get_json()["result"]
    assert told.steps[-1].totals == tuple(p["total"] for p in result["players"])


def test_an_action_taken_back_is_no_point_and_the_lead_changes_are_marked(app, client) -> None:
    play_id, _ = play_out(client, "spqf")
    told = story_of(app, play_id)
    said = [step.said for step in told.actions]
    assert not any("+9" in text for text in said)
    leads = [(step.seq, [told.names[i] for i in step.leaders]) for step in told.actions if step.lead_change]
    # Ann leads with her 3 VP tokens, Bob with his 5 (his 9 taken back), Cy with level 1's token and 4 more.
    assert leads == [(1, ["Ann"]), (3, ["Bob"]), (8, ["Cy"])]
    ended = [step for step in told.actions if step.end_begins]
    assert len(ended) == 1 and "last Civilization card" in ended[0].said


def test_turn_times_run_from_one_pass_of_the_turn_to_the_next(app, client) -> None:
    play_id, _ = play_out(client, "spqf")
    # The moments each action was saved, set to known times: a turn is timed from the pass to the next pass.
    with app.test_request_context():
        session = get_session()
        play = session.get(Play, play_id)
        start = play.created_at
        changes = list(session.exec(select(Change).where(Change.play_id == play_id).order_by(col(Change.id))))
        for minute, change in enumerate(changes, start=1):
            change.at = start + timedelta(minutes=minute)
            session.add(change)
        play.finished_at = start + timedelta(minutes=len(changes) + 2)
        session.add(play)
        session.commit()
    told = story_of(app, play_id)
    by_name = {times.name: times for times in told.turn_times}
    # The passes are the log's entries 2, 6 and 9: Ann's turn 0-2 min, Bob's 2-6, Cy's 6-9, Ann's again 9 to the
    # finish (the log's 10 entries, then 2 minutes more).
    assert by_name["Ann"].turns == 2 and by_name["Ann"].longest_seconds == 3 * 60
    assert by_name["Ann"].average_seconds == (2 * 60 + 3 * 60) // 2
    assert (by_name["Bob"].turns, by_name["Bob"].longest_seconds) == (1, 4 * 60)
    assert (by_name["Cy"].turns, by_name["Cy"].longest_seconds) == (1, 3 * 60)


def test_a_game_without_turns_passed_has_no_turn_times(app, client) -> None:
    play_id, _ = play_out(client, "spires")
    assert story_of(app, play_id).turn_times == ()
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["time"]["players"] == []


def test_the_api_play_view_gives_the_time_once_finished(client) -> None:
    play_id, _ = play_out(client, "spqf", finish=False)
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["time"] is None
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {}).get_json()
    time = finished["time"]
    assert time["minutes"] == finished["duration_min"]
    assert [entry["name"] for entry in time["players"]] == ["Ann", "Bob", "Cy"]
    assert set(time["players"][0]) == {"name", "turns", "average_seconds", "longest_seconds"}


def test_the_result_page_draws_the_chart_with_every_value_in_words(client) -> None:
    play_id, _ = play_out(client, "spqf")
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    svg = re.search(r'<svg class="chart chart-race".*?</svg>', page, re.DOTALL)
    assert svg is not None
    assert '<title id="story-chart-title">Score over time</title>' in svg.group(0)
    assert "Ann took the lead at action 1 (round 1)" in page
    assert "The end began at action" in page
    assert "Scores after each action" in page and "Turns, timed from the tracker" in page
    # The page's ids stay unique with the chart's.
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_the_score_sheet_prints_the_story(client) -> None:
    play_id, _ = play_out(client, "spqf")
    text = sheet_text(client, play_id, "spqf")
    assert "Score over time" in text
    assert "took the lead" in text and "Turns, timed from the tracker" in text


def test_a_play_scored_at_the_end_has_no_story(client) -> None:
    body = {"game": "spires", "players": [{"name": "Ann", "crowns": 2}, {"name": "Bob"}]}
    play_id = post_json(client, "/api/v1/plays", body).get_json()["id"]
    assert "Score over time" not in client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["time"] == {"minutes": None, "players": []}


def test_a_story_is_told_again_once_its_play_changes(app, client) -> None:
    play_id, _ = play_out(client, "spires")
    with app.test_request_context():
        play = get_session().get(Play, play_id)
        first = read_story(get_session(), play)
        assert read_story(get_session(), play) is first
        play.version += 1
        assert read_story(get_session(), play) is not first


def test_the_race_chart_escapes_names_and_says_every_value() -> None:
    chart = race_chart("c", "Score over time", [Series("<b>Zoë</b>", (0, 2, 5)), Series("李", (0, None, 7))], [])
    assert "<b>" not in chart and "&lt;b&gt;Zoë&lt;/b&gt;: 0, 2, 5." in chart
    assert "李: 0, –, 7." in chart
    assert race_chart("c", "t", [Series("A", (3,))], []) == ""
    marked = race_chart("c", "t", [Series("A", (0, 2))], [], [Mark(1, "A takes the lead", 0), Mark(1, "The end")])
    assert "<title>A takes the lead</title>" in marked and 'class="rule"' in marked
