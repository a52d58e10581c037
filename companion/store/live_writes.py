"""A tap's writes as prebuilt core statements on the session's connection (issue 21).

A tap changes a seat's state or the table's and adds one Change row. Through the ORM's unit of work those few
rows cost more than the rest of the tap together; here each is one statement whose compiled form SQLAlchemy
keeps, and the objects in the session are told their new values as committed ones, so the commit flushes nothing.
A rollback expires every object of the session, so a write taken back is read again as the database has it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col

from companion.store.models import Change, Play, Seat, saved_id

_SET_EXTRA = update(Play).where(col(Play.id) == bindparam("play_id")).values(extra=bindparam("new_extra"))
_SET_STATE = update(Seat).where(col(Seat.id) == bindparam("seat_id")).values(state=bindparam("new_state"))
_CHANGE_COLUMNS = ("play_id", "seat_id", "field", "old", "new", "at", "device", "undone", "client_id")
_ADD_CHANGE = insert(Change).returning(col(Change.id))
_MARK_UNDONE = update(Change).where(col(Change.id) == bindparam("change_id")).values(undone=True)


def set_extra(session: Session, play: Play, extra: dict[str, Any]) -> None:
    """Write the play's extra (where the table's live state is kept)."""
    session.connection().execute(_SET_EXTRA, {"play_id": saved_id(play), "new_extra": extra})
    set_committed_value(play, "extra", extra)


def set_state(session: Session, seat: Seat, state: dict[str, Any]) -> None:
    """Write a seat's live state."""
    session.connection().execute(_SET_STATE, {"seat_id": saved_id(seat), "new_state": state})
    set_committed_value(seat, "state", state)


def add_change(session: Session, change: Change) -> Change:
    """Insert a new Change row; the object then stands in the session for the row, its id filled in."""
    row = {name: getattr(change, name) for name in _CHANGE_COLUMNS}
    change.id = session.connection().execute(_ADD_CHANGE, row).scalar_one()
    make_transient_to_detached(change)
    session.add(change)
    return change


def mark_undone(session: Session, change: Change) -> None:
    """Mark a saved Change as taken back."""
    session.connection().execute(_MARK_UNDONE, {"change_id": saved_id(change)})
    set_committed_value(change, "undone", True)
