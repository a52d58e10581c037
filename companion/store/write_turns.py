"""On SQLite, the writes to plays of one server take turns on a lock of its own before they meet SQLite's (issue 21).

SQLite lets one transaction write at a time, and one that finds the database locked sleeps in SQLite's busy handler
(1, 2, 5, ... up to 100 ms between tries) however soon the lock comes free. At a club night, with taps from many
tables in one server, those sleeps were most of a tap's wait. A threading lock taken just before a play is claimed
(records._claim) hands the turn on the moment the write before it ends. PostgreSQL queues row locks itself.
"""

from __future__ import annotations

import threading
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

TURN = "companion_write_turn"
# As long as SQLite's own timeout (store/db.py): past it, the write goes on to meet SQLite's lock and its answer.
WAIT_SECONDS = 15

_locks: WeakKeyDictionary[Engine, threading.Lock] = WeakKeyDictionary()
_locks_lock = threading.Lock()


def _lock_of(engine: Engine) -> threading.Lock:
    """The one lock of this engine's writes in this process."""
    with _locks_lock:
        lock = _locks.get(engine)
        if lock is None:
            lock = _locks[engine] = threading.Lock()
        return lock


def take_turn(session: Session) -> None:
    """On SQLite, wait until no other write of this process holds the turn, and hold it until this session's
    transaction ends (commit, rollback or close); elsewhere, nothing."""
    if TURN in session.info:
        return
    connection = session.connection()  # the transaction the turn ends with exists before the turn is taken
    engine = connection.engine
    if engine.dialect.name != "sqlite":
        return
    lock = _lock_of(engine)
    if lock.acquire(timeout=WAIT_SECONDS):
        session.info[TURN] = lock


@event.listens_for(Session, "after_transaction_end")
def _end_turn(session: Session, transaction: SessionTransaction, *_args: Any) -> None:
    """Hand the turn on once the session's outermost transaction has ended."""
    if transaction.parent is None and (lock := session.info.pop(TURN, None)) is not None:
        lock.release()
