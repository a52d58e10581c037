"""The history's version: one number that every write changing what the statistics or the history count moves on,
in the same transaction as the write (a play finished, scored at the end, corrected, deleted, restored or purged;
an import). Each app server keeps the figures it counted under the version they were counted at
(companion/stats/cache.py) and counts again only when the number has moved, so one database serves several servers
without any of them showing figures older than the newest write it can read.

The row is written last in each such transaction, after the play's own row: every write takes its locks in the same
order, so two of them never wait for each other (no deadlock on PostgreSQL).
"""

from __future__ import annotations

from sqlmodel import Session, col, select, update

from companion.store.models import HistoryVersion


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
