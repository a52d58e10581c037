"""A tap's state is validated by its game once: the rules check of the action (games/live.py apply) hands its verdict
to the answer's standing (play/standing.py), whichever way the tap came (the tracker's counters and game actions,
as htmx or a page, the JSON API), whether it saved something, nothing (the same number typed again) or was
refused, and undo and the other devices' sync answers validate the state they show once too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import Session

from companion.games import live
from companion.games.base import Game
from companion.store import records
from companion.store.db import get_session
from companion.store.models import Seat
from tests.helpers import api_act, post, post_json, seat_ids, shown_version, start_play, start_spqf, tap


@pytest.fixture
def validated(monkeypatch) -> list[str]:
    """Every call of a game's validate from now on, as the players it was given (JSON, to tell states apart)."""
    calls: list[str] = []
    validate = Game.validate

    def counting(self: Game, players: Any, options: Any = None) -> tuple[list[Any], Any]:
        """Game.validate, noted."""
        calls.append(json.dumps(players, sort_keys=True, default=str))
        return validate(self, players, options)

    monkeypatch.setattr(Game, "validate", counting)
    return calls


@pytest.fixture
def spires(client) -> tuple[int, int, int]:
    """Ann and Bob's Spires play: its id and their seat ids."""
    play = start_play(client, ["Ann", "Bob"])
    return (play, *seat_ids(client, play))


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_a_counter_tap_on_the_tracker_is_validated_once(client, spires, validated, htmx) -> None:
    play, ann, _bob = spires
    response = tap(client, play, ann, htmx=htmx, field="quills", delta=2)
    assert response.status_code == (200 if htmx else 303)
    assert len(validated) == 1
    assert '"quills": 2' in validated[0]


def test_a_game_action_on_the_tracker_is_validated_once(client, validated) -> None:
    play = start_spqf(client)
    validated.clear()
    response = post(client, True, f"/plays/{play}/actions", {"action": "next_turn"})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert len(validated) == 1


def test_an_action_through_the_api_is_validated_once(client, spires, validated) -> None:
    play, _ann, _bob = spires
    view = api_act(client, play, {"action": "add", "player": "Bob", "field": "crowns", "delta": 3})
    assert next(p for p in view["players"] if p["name"] == "Bob")["crowns"] == 3
    assert view["live"] is not None
    assert len(validated) == 1


@pytest.mark.parametrize("htmx", [True, False], ids=["fragment", "page"])
def test_a_tap_that_changes_nothing_is_validated_once(client, spires, validated, htmx) -> None:
    play, ann, _bob = spires
    tap(client, play, ann, htmx=True, field="quills", value=4)
    validated.clear()
    response = tap(client, play, ann, htmx=htmx, field="quills", value=4)
    assert response.status_code == (200 if htmx else 303)
    assert len(validated) == 1
    assert '"quills": 4' in validated[0]


REFUSED = [
    # (the refused tap's value for Bob's quills, Ann holding 5; the message; the states the tracker's answer
    # validated, in order; how many the API's 422 validated, which draws no standing)
    pytest.param(
        99,
        "Must be at most 8.",
        ["the state it would make", "the state before"],
        2,
        id="by the bounds: the game's validate, which judged the state before too",
    ),
    pytest.param(
        4,
        "The deck has only 8 quills; 9 counted in all.",
        ["the state before"],
        0,
        id="by the action's own rule, before any validate: the answer's standing validates the state before",
    ),
]


@pytest.mark.parametrize(("value", "message", "states", "by_the_api"), REFUSED)
def test_a_refused_tap_validates_each_state_it_judges_once(
    client, spires, validated, value, message, states, by_the_api
) -> None:
    play, ann, bob = spires
    tap(client, play, ann, htmx=True, field="quills", value=5)
    validated.clear()
    response = tap(client, play, bob, htmx=True, field="quills", value=value)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    # The answer shows the state before, scored as the rules check judged it: not validated once more.
    judged = [
        "the state it would make" if f'"quills": {value}' in players else "the state before" for players in validated
    ]
    assert judged == states

    validated.clear()
    body = {"action": "set", "player": "Bob", "field": "quills", "value": value}
    refused = post_json(client, f"/api/v1/plays/{play}/actions", body)
    assert refused.status_code == 422
    assert message in json.dumps(refused.get_json(), ensure_ascii=False)
    assert len(validated) == by_the_api


def test_undo_on_the_tracker_and_through_the_api_is_validated_once(client, spires, validated) -> None:
    play, ann, _bob = spires
    tap(client, play, ann, htmx=True, field="quills", delta=1)
    tap(client, play, ann, htmx=True, field="quills", delta=1)
    validated.clear()
    assert post(client, True, f"/plays/{play}/undo").status_code == 200
    assert len(validated) == 1 and '"quills": 1' in validated[0]

    validated.clear()
    undone = post_json(client, f"/api/v1/plays/{play}/undo", {})
    assert undone.status_code == 200, undone.get_json()
    assert len(validated) == 1 and '"quills": 0' in validated[0]


def test_the_sync_answer_to_the_other_devices_is_validated_once_for_all(client, spires, validated) -> None:
    play, ann, _bob = spires
    version = shown_version(client.get(f"/plays/{play}").get_data(as_text=True))[0]
    tap(client, play, ann, htmx=True, field="quills", delta=1)
    validated.clear()
    for _device in range(3):
        answer = client.htmx("GET", f"/plays/{play}/live?since={version}&log_waiting=0")
        assert answer.status_code == 200 and answer.get_data(as_text=True)
    assert len(validated) == 1


def test_a_tap_let_through_on_counts_a_later_rules_version_refuses_validates_each_state_once(
    client, app, spires, validated
) -> None:
    """Counts the rules no longer accept (a bound lowered since) may be corrected a step at a time: the rules check
    judges the new state and the state before, and the answer says the new one can't be scored from that verdict."""
    play, ann, _bob = spires
    with Session(app.extensions["db_engine"]) as session:
        seat = session.get(Seat, ann)
        seat.state = {**seat.state, "crowns": 99}
        session.add(seat)
        session.commit()
    validated.clear()
    response = tap(client, play, ann, htmx=True, field="crowns", delta=-1)
    assert response.status_code == 200
    assert "can&#39;t be scored" in response.get_data(as_text=True)
    assert ['"crowns": 98' in players for players in validated] == [True, False]


def test_a_verdict_is_used_only_for_the_state_it_judged(app, spires) -> None:
    """Between a refused tap's rollback and its answer another device may save a tap: the answer, which reads the
    play again, then validates what it read instead of using the verdict on the state before."""
    play_id, _ann, _bob = spires
    with app.test_request_context():
        session = get_session()
        play = records.get_play(session, play_id)
        ctx = records.live_context(play)
        state = records.live_state(play, ctx)
        verdict = live.check(records.game_of(play), state, ctx)
        since = {**state, "seats": [{**state["seats"][0], "quills": 1}, *state["seats"][1:]]}
        for read, kept in ((since, None), (state, verdict)):
            session.info[records.JUDGED] = (play_id, verdict)
            assert records.judged_state(session, play, read, ctx) is kept
        assert records.JUDGED not in session.info  # used once, then forgotten
