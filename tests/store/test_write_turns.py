"""On SQLite, the writes to plays of one server take turns on a lock of their own (companion/store/write_turns.py):
held from the claim to the end of the transaction however it ends, and the next write let in at once."""

from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import Session

from companion.store import records, write_turns
from tests.helpers import api_act, start_play


@pytest.mark.parametrize("end", ["commit", "rollback", "close"])
def test_the_turn_is_held_from_the_claim_to_the_end_of_the_transaction(app, play_id, end) -> None:
    engine = app.extensions["db_engine"]
    session = Session(engine)
    assert records.claim_play(session, play_id) is not None
    lock = session.info[write_turns.TURN]
    assert lock.locked()
    getattr(session, end)()
    assert not lock.locked() and write_turns.TURN not in session.info
    session.close()


def test_the_next_write_goes_on_the_moment_the_one_before_ends(app, client) -> None:
    play_id = start_play(client, ["Ann", "Bob"])
    engine = app.extensions["db_engine"]
    first = Session(engine)
    records.claim_play(first, play_id)
    claimed_at: list[float] = []

    def second() -> None:
        with Session(engine) as session:
            records.claim_play(session, play_id)
            claimed_at.append(time.monotonic())
            session.commit()

    waiting = threading.Thread(target=second)
    waiting.start()
    time.sleep(0.2)
    assert claimed_at == [] and write_turns._lock_of(engine).locked()  # waiting for the turn, not SQLite's lock
    first.commit()
    waiting.join(timeout=5)
    first.close()
    assert claimed_at and not waiting.is_alive()
    # Both claims moved the version on, and a tap after them is taken.
    api_act(client, play_id, {"action": "add", "player": "Ann", "field": "crowns", "delta": 1})


def test_postgresql_queues_its_own_row_locks(db_client) -> None:
    client, app = db_client
    play_id = start_play(client, ["Ann", "Bob"])
    with Session(app.extensions["db_engine"]) as session:
        records.claim_play(session, play_id)
        held = write_turns.TURN in session.info
        session.rollback()
    assert held is (app.extensions["db_engine"].dialect.name == "sqlite")
