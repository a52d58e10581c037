"""The log of a play: every action in the order it was saved, who it was for, what it said, and whether it was
taken back, read from the play's Change rows (records.act, records.undo_last).

An undo is an entry of its own ("Took back: Cy, swords +1.", for no player), and the entry it took back is marked
taken back: the log says what happened, in order, and what stands. The tracker's panel, the result page and the
JSON API (GET /api/v1/plays/<id>/log) all read it here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from companion.games.base import InputErrors
from companion.games.live import Context
from companion.games.wording import clock, utc
from companion.language import _
from companion.store import records
from companion.store.models import Change, Play, saved_id

# The action name of an undo entry (the API's "action"; the Change rows' own field).
UNDO = "undo"


@dataclass(frozen=True)
class Entry:
    """One line of the log."""

    # 1, 2, ... in the order the play's Changes were saved; None in a device's news (its list numbers them).
    seq: int | None
    # The Change row's id: what a device sends back as the newest entry it shows.
    change_id: int
    at: datetime
    # The seat's name as played, or None for an action of the whole table (and an undo).
    player: str | None
    action: str
    said: str
    undone: bool
    # An undo's entry: the seq of the entry it took back (None in a device's news).
    undoes: int | None = None
    # What the action announced to the table as it was saved (its Change's said lines), "" for none and for an undo.
    announced: str = ""

    @property
    def clock(self) -> str:
        """The time of day in UTC, "21:05" (the page shows it in the device's own time zone)."""
        return clock(self.at)

    def to_dict(self) -> dict[str, Any]:
        """The entry as the API answers it (at in ISO-8601, UTC)."""
        return {
            "seq": self.seq,
            "at": utc(self.at).isoformat(),
            "player": self.player,
            "action": self.action,
            "said": self.said,
            "undone": self.undone,
            "undoes": self.undoes,
        }


@dataclass(frozen=True)
class News:
    """What a device that shows the log up to one entry has not seen yet."""

    entries: list[Entry]
    # Entries the device shows already that an undo among `entries` took back, as they stand now.
    taken_back: list[Entry]

    @property
    def newest(self) -> int | None:
        """The change id of the newest entry of the news, None when there is nothing new."""
        return self.entries[-1].change_id if self.entries else None


def read_log(session: Session, play: Play) -> list[Entry]:
    """Every entry of the play's log, in order (one query)."""
    changes = list(session.exec(_changes().where(Change.play_id == play.id).order_by(col(Change.id))))
    return _entries(play, changes, first_seq=1, known={})


def news_of(play: Play, change: Change, ctx: Context | None = None) -> News:
    """The news of a device that showed everything before this Change, an action just saved: that one entry, with
    no query (`ctx`, the play's live context, spares validating its options again)."""
    return News(_entries(play, [change], first_seq=None, known={}, ctx=ctx), [])


def newest_id(session: Session, play: Play) -> int:
    """The id of the play's newest Change, 0 when none (one indexed MAX): where a tracker page's log stands."""
    return session.exec(select(func.max(Change.id)).where(Change.play_id == play.id)).one() or 0


def _changes() -> Any:
    """A query of Change rows without what undo restores (the parts of the state before each action): the log
    never reads them, and they are most of a row."""
    return select(Change).options(defer(Change.old))


# Built once, as every sync answer that brings news runs it: SQLAlchemy keeps its cache key and compiled form.
_NEWS = (
    _changes()
    .where(col(Change.play_id) == bindparam("play_id"), col(Change.id) > bindparam("after"))
    .order_by(col(Change.id))
)


def news_since(session: Session, play: Play, after: int, ctx: Context | None = None) -> News:
    """The entries saved after the Change `after` (the newest a device shows), unnumbered (the list numbers them).

    One small query on the play's Change rows after it; only an undo among them costs one more, to read the entry
    it took back, which the device shows already and marks taken back.
    """
    changes = list(session.exec(_NEWS, params={"play_id": play.id, "after": after}))
    if not changes:
        return News([], [])
    targets = {_undone_id(change) for change in changes} - {change.id for change in changes} - {None}
    earlier: list[Change] = []
    if targets:
        shown = _changes().where(Change.play_id == play.id, col(Change.id).in_(targets))
        earlier = list(session.exec(shown.order_by(col(Change.id))))
    known: dict[int, tuple[int | None, Change]] = {saved_id(change): (None, change) for change in earlier}
    entries = _entries(play, changes, first_seq=None, known=known, ctx=ctx)
    return News(entries, _entries(play, earlier, first_seq=None, known={}, ctx=ctx))


def news_said(news: News) -> str:
    """What the news said to the table, in order: each undo's sentence and what each action still standing
    announced (read with the news: no query)."""
    parts = [entry.said if entry.action == UNDO else "" if entry.undone else entry.announced for entry in news.entries]
    return " ".join(part for part in parts if part)


def _undone_id(change: Change) -> int | None:
    """The id of the Change an undo row took back, or None for any other row."""
    if change.field != UNDO or not isinstance(change.new, dict):
        return None
    target = (change.new.get("action") or {}).get("change")
    return target if isinstance(target, int) else None


def _entries(
    play: Play,
    changes: Sequence[Change],
    first_seq: int | None,
    known: dict[int, tuple[int | None, Change]],
    ctx: Context | None = None,
) -> list[Entry]:
    """The log entries of these Changes, numbered from `first_seq` (None: unnumbered); `known` holds earlier Changes
    an undo names, with their numbers; `ctx` the play's live context when known."""
    ctx = ctx or _context(play)
    names = {seat.id: seat.name for seat in play.seats}
    by_id = dict(known)
    entries: list[Entry] = []
    for offset, change in enumerate(changes):
        seq = first_seq + offset if first_seq is not None else None
        change_id = saved_id(change)
        by_id[change_id] = (seq, change)
        target = _undone_id(change)
        if change.field == UNDO and target is not None:
            undoes = by_id.get(target)
            # Told again as it is read, in the reader's language (the undo's own row keeps its words as said then).
            said = records.undo_text(play, undoes[1], ctx) if undoes else _("Took back an earlier action.")
            entries.append(Entry(seq, change_id, change.at, None, UNDO, said, False, undoes[0] if undoes else None))
            continue
        action = change.new.get("action", {}).get("action") if records.is_action(change) else "set"
        entries.append(
            Entry(
                seq,
                change_id,
                change.at,
                names.get(change.seat_id) if change.seat_id is not None else None,
                str(action or change.field),
                records.action_text(play, change, ctx),
                bool(change.undone),
                announced=_announced(change),
            )
        )
    return entries


def _announced(change: Change) -> str:
    """What an action's Change says it announced to the table when it was saved ("" for a tap of before actions)."""
    said = change.new.get("said") if isinstance(change.new, dict) else None
    return " ".join(str(line) for line in said or [])


def _context(play: Play) -> Context | None:
    """The play's live context, once for the whole log; None when its options no longer hold (texts as saved)."""
    try:
        return records.live_context(play)
    except (InputErrors, LookupError):
        return None
