"""The history's lists besides the finished plays (store/history_filter.py): the plays in progress or put aside,
and the deleted plays that can still be restored; each a page at a time, newest first, with its count."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from companion.store.models import Play


def open_plays(session: Session, status: str, limit: int, offset: int = 0) -> list[Play]:
    """A page of the plays with this status (in progress, or put aside) that are not deleted, newest first."""
    query = (
        select(Play)
        .where(Play.status == status, col(Play.deleted_at).is_(None))
        .order_by(col(Play.created_at).desc(), col(Play.id).desc())
        .offset(offset)
        .limit(limit)
    )
    return list(session.exec(query))


def count_plays(session: Session, status: str) -> int:
    """How many plays have this status, deleted ones left out: one COUNT in the database, no play loaded."""
    where = (Play.status == status, col(Play.deleted_at).is_(None))
    return session.exec(select(func.count()).select_from(Play).where(*where)).one()


def deleted_plays(session: Session, deleted_since: datetime, limit: int, offset: int = 0) -> list[Play]:
    """The deleted plays that can still be restored (deleted after `deleted_since`), the latest deleted first."""
    query = (
        select(Play)
        .where(col(Play.deleted_at) >= deleted_since)
        .order_by(col(Play.deleted_at).desc(), col(Play.id).desc())
        .offset(offset)
        .limit(limit)
    )
    return list(session.exec(query))


def count_deleted(session: Session, deleted_since: datetime) -> int:
    """How many deleted plays can still be restored."""
    return session.exec(select(func.count()).select_from(Play).where(col(Play.deleted_at) >= deleted_since)).one()
