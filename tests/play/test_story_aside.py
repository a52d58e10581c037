"""Turn times without the time a play was put aside (issue 33): the time aside is left out of the turn it fell in,
as the play's duration leaves it out, on the result page and in the API's "time"; a play put aside before the
spans were kept (only the total) keeps its turns as they were."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion.games.wording import utc
from companion.play.story import at_table
from companion.store import records
from companion.store.db import get_session
from companion.store.models import Play
from tests.helpers import api_act, post_json

# Seconds after the start: Ann's turn to 20 s; Bob's from 20 s to 90 s (70 s), of which 22 s to 87 s put aside (65
# s): 5 s at the table; Ann's again from 90 s to the finish at 100 s.
ANN_TAPS, FIRST_PASS, BOB_TAPS, ASIDE, BACK, SECOND_PASS, FINISH = 10, 20, 21, 22, 87, 90, 100


def tracked_with_a_break(app, client, monkeypatch) -> int:
    """An SPQF play of Ann and Bob, put aside in the middle of Bob's turn, on a clock the test holds; its id."""
    started = post_json(
        client, "/api/v1/plays", {"game": "spqf", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    play_id = started.get_json()["id"]
    with app.test_request_context():
        start = utc(get_session().get(Play, play_id).created_at)

    def at(seconds: int) -> None:
        """The store's clock, that many seconds after the start."""
        monkeypatch.setattr("companion.store.records.utcnow", lambda: start + timedelta(seconds=seconds))

    at(ANN_TAPS)
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "vp_tokens", "delta": 3})
    at(FIRST_PASS)
    api_act(client, play_id, {"action": "next_turn"})
    at(BOB_TAPS)
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "vp_tokens", "delta": 5})
    at(ASIDE)
    assert client.post(f"/plays/{play_id}/abandon").status_code == 303
    at(BACK)
    assert client.post(f"/plays/{play_id}/resume").status_code == 303
    at(SECOND_PASS)
    api_act(client, play_id, {"action": "next_turn"})
    at(FINISH)
    assert post_json(client, f"/api/v1/plays/{play_id}/finish", {}).status_code == 200
    return play_id


def turns_of(client, play_id: int) -> dict[str, tuple[int, int, int]]:
    """Each player's (turns, average, longest) as the API's "time" gives them."""
    players = client.get(f"/api/v1/plays/{play_id}").get_json()["time"]["players"]
    return {p["name"]: (p["turns"], p["average_seconds"], p["longest_seconds"]) for p in players}


def test_the_time_put_aside_is_left_out_of_the_turn_it_fell_in(app, client, monkeypatch) -> None:
    play_id = tracked_with_a_break(app, client, monkeypatch)
    # Bob's turn: 70 s by the clock, 5 s at the table; Ann's two: 20 s and 10 s.
    assert turns_of(client, play_id) == {"Ann": (2, 15, 20), "Bob": (1, 5, 5)}
    with app.test_request_context():
        play = get_session().get(Play, play_id)
        start = utc(play.created_at)
        assert records.aside_spans(play) == [(start + timedelta(seconds=ASIDE), start + timedelta(seconds=BACK))]
        # The duration leaves the same 65 s out: 35 s at the table, a minute rounded.
        assert play.extra[records.ASIDE_SECONDS] == BACK - ASIDE and play.duration_min == 1
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    bob = page[page.index('<th scope="row">Bob</th>') :].split("</tr>")[0]
    assert '<td class="num">5 s</td><td class="num">5 s</td>' in bob
    assert "1 min 10 s" not in page and "70 s" not in page


def test_a_play_with_only_its_total_aside_keeps_its_turns_as_they_were(app, client, monkeypatch) -> None:
    """A play put aside before the spans were kept: the total can't be placed in a turn, so the turns are the
    clock's (the duration still leaves the total out)."""
    play_id = tracked_with_a_break(app, client, monkeypatch)
    with app.test_request_context():
        session = get_session()
        play = session.get(Play, play_id)
        play.extra = {key: value for key, value in play.extra.items() if key != records.ASIDE_SPANS}
        play.version += 1
        session.add(play)
        session.commit()
    assert turns_of(client, play_id) == {"Ann": (2, 15, 20), "Bob": (1, 70, 70)}


@pytest.mark.parametrize(
    ("began", "ended", "aside", "seconds"),
    [
        (0, 100, [], 100),
        (0, 100, [(20, 30), (50, 55)], 85),
        # Spans that reach past the turn count only for their part inside it.
        (10, 20, [(0, 15), (18, 40)], 3),
        (10, 20, [(30, 40)], 10),
    ],
)
def test_a_turn_leaves_out_only_its_own_part_of_each_span(began, ended, aside, seconds) -> None:
    zero = datetime(2026, 1, 1, tzinfo=UTC)

    def moment(second: int) -> datetime:
        """That many seconds after zero."""
        return zero + timedelta(seconds=second)

    spans = [(moment(a), moment(b)) for a, b in aside]
    assert at_table(moment(began), moment(ended), spans) == seconds
