"""The history's version, and what each app server keeps under it.

One number moves on with every write that changes what the statistics or the history count, in the same
transaction as the write (a play finished, scored at the end, corrected, deleted, restored or purged; an import).
Each app server keeps what it counted (a statistics page's figures, a history page's play ids and count) under the
version it was counted at, and counts again only once the number has moved: a page read again before any such write
costs a few small queries however long the group's past, and one database serves several servers without any of
them showing figures older than the newest write it can read.

Only what was counted is kept, and what a finished play shows (its history row: companion/history/rows.py), never
names or dates a page reads fresh (a new player on the roster). The newest KEPT_ENTRIES are kept; the lock guards
the dict only, so two threads that miss at once both count, and either answer is right.

The row is written last in each such transaction, after the play's own row: every write takes its locks in the same
order, so two of them never wait for each other (no deadlock on PostgreSQL).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from flask import Flask
from sqlmodel import Session, col, select, update

from companion.store.models import HistoryVersion

T = TypeVar("T")

# A page's figures are a few kilobytes, a history row about one: a club's pages and a few hundred rows.
KEPT_ENTRIES = 2048
EXTENSION = "companion_kept"


def move_on(session: Session) -> None:
    """Move the history's version on, in the session's transaction (committed, or rolled back, with the write)."""
    session.exec(
        update(HistoryVersion)
        .where(col(HistoryVersion.id) == 1)
        .values(version=col(HistoryVersion.version) + 1)
        .execution_options(synchronize_session=False)
    )


def current(session: Session) -> int:
    """The history's version as this session reads it (read before the figures, so they are never older)."""
    return int(session.exec(select(HistoryVersion.version).where(col(HistoryVersion.id) == 1)).one())


class Kept:
    """What was counted, by what it is of (a key) and the history version it was counted at."""

    def __init__(self, entries: int = KEPT_ENTRIES) -> None:
        self._kept: OrderedDict[Hashable, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._entries = entries
        self.counted = 0

    def peek(self, key: Hashable, version: int) -> Any:
        """What is kept for `key` at this version, or None."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or kept[0] != version:
                return None
            self._kept.move_to_end(key)
            return kept[1]

    def put(self, key: Hashable, version: int, value: Any) -> None:
        """Keep what was counted at this version (unless another thread kept a newer one meanwhile)."""
        with self._lock:
            self.counted += 1
            kept = self._kept.get(key)
            if kept is None or kept[0] <= version:
                self._kept[key] = (version, value)
                self._kept.move_to_end(key)
            while len(self._kept) > self._entries:
                self._kept.popitem(last=False)

    def get(self, key: Hashable, version: int, count: Callable[[], T]) -> T:
        """What is kept for `key` at this version, else counted now by `count` and kept."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                self._kept.move_to_end(key)
                return cast(T, kept[1])
        value = count()
        self.put(key, version, value)
        return value


def kept_by(app: Flask) -> Kept:
    """What the app keeps, made on first use."""
    kept = app.extensions.get(EXTENSION)
    return cast(Kept, kept if kept is not None else app.extensions.setdefault(EXTENSION, Kept()))


def kept(app: Flask, session: Session, key: Hashable, count: Callable[[], T]) -> T:
    """What `count` makes, counted once per history version: the version is read first, so it is never older."""
    return kept_by(app).get(key, current(session), count)
