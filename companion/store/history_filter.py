"""Which finished plays the history shows: the filter read from the query string, and the queries it makes.

The history page, its htmx list and the history report PDF all read the same filter, so a link or a report made
from a filtered page shows the same plays:

    flt, errors = HistoryFilter.from_args(request.args)   # errors: {field: message}; flt keeps the good fields
    plays = filtered_plays(session, flt, limit=50, offset=0)
    count = count_filtered(session, flt)
    url_for("history.history", **flt.to_args())

Only finished plays that are not deleted are listed (ignored ones too: they are kept and listed, left out only of
the statistics). A play's day is its played_at's day in UTC, both ends of the range included. A player is matched
by name_key (any spelling, any alphabet) on the roster, through the seats; a place the same way among the group's
places. A player or a place that is not there matches no play (an empty list, never an error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator
from sqlalchemy import ColumnElement, func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from companion.games import GAMES
from companion.games.base import NAME_MAX, name_key
from companion.games.wording import day
from companion.language import _, ngettext
from companion.store.models import FINISHED, LOCATION_MAX, Location, Play, Player, Seat, saved_id

T = TypeVar("T")

FIELDS = ("game", "player", "location", "date_from", "date_to")
# Up to this many deleted plays are subtracted from a count by their ids; more, and the count reads every row.
DELETED_LOOKUP = 500


class HistoryFilter(BaseModel):
    """A game, a player, a place and a range of days (each optional) that the listed plays must match."""

    model_config = ConfigDict(frozen=True)

    game: str | None = None
    player: str | None = None
    location: str | None = None
    date_from: date | None = None
    date_to: date | None = None

    @field_validator("game", mode="before")
    @classmethod
    def _known_game(cls, value: Any) -> Any:
        """A game of the companion, by its id."""
        if value in (None, ""):
            return None
        if value not in GAMES:
            raise ValueError(_("There is no game “%(game)s”; choose one from the list.", game=str(value)[:40]))
        return value

    @field_validator("player", mode="before")
    @classmethod
    def _player_name(cls, value: Any) -> Any:
        """A name as it could have been typed at the table (trimmed; blank means anyone)."""
        return _typed_name(value, NAME_MAX, "name")

    @field_validator("location", mode="before")
    @classmethod
    def _place_name(cls, value: Any) -> Any:
        """A place as it could have been typed or picked when a play started (trimmed; blank means anywhere)."""
        return _typed_name(value, LOCATION_MAX, "place")

    @field_validator("date_from", "date_to", mode="before")
    @classmethod
    def _day(cls, value: Any) -> Any:
        """A day written as the date picker writes it: 2026-11-30."""
        if value in (None, ""):
            return None
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value).strip())
        except ValueError:
            raise ValueError(_("Give a date as year-month-day, e.g. 2026-11-30.")) from None

    @model_validator(mode="after")
    def _in_order(self) -> HistoryFilter:
        """The range's end can't come before its start."""
        if self.date_from and self.date_to and self.date_to < self.date_from:
            raise ValueError(_("The end date comes before the start date."))
        return self

    @classmethod
    def from_args(cls, args: Mapping[str, Any]) -> tuple[HistoryFilter, dict[str, str]]:
        """The filter from a query string, and a message per field that can't be read ({} when all is well).

        A field with a message is left out of the filter (the good ones still apply); a range in the wrong order
        keeps its start and reports on the end.
        """
        raw = {name: args.get(name) for name in FIELDS if args.get(name) not in (None, "")}
        errors: dict[str, str] = {}
        # Field errors first; with those fields dropped, the range's order can still be wrong (said on its end).
        for _round in FIELDS:
            try:
                return cls.model_validate(raw), errors
            except ValidationError as exc:
                for error in exc.errors():
                    field = str(error["loc"][0]) if error["loc"] else "date_to"
                    errors.setdefault(field, str(error["msg"]).removeprefix("Value error, "))
                    raw.pop(field, None)
        return cls(), errors  # pragma: no cover - each round drops at least one field

    @property
    def active(self) -> bool:
        """True when anything narrows the list."""
        return any(getattr(self, name) is not None for name in FIELDS)

    def to_args(self) -> dict[str, str]:
        """The filter as query-string arguments (empty fields left out): url_for(..., **flt.to_args())."""
        return {name: str(value) for name in FIELDS if (value := getattr(self, name)) is not None}

    def describe(self) -> str:
        """The filter in words for a heading: 'Spires, with Ann, at Anna's flat, 1 Nov 2026 to 30 Nov 2026'; ''
        when none."""
        parts = []
        if self.game:
            parts.append(GAMES[self.game].name)
        if self.player:
            parts.append(_("with %(name)s", name=self.player))
        if self.location:
            parts.append(_("at %(place)s", place=self.location))
        if self.date_from and self.date_to:
            parts.append(_("%(start)s to %(end)s", start=day(self.date_from), end=day(self.date_to)))
        elif self.date_from:
            parts.append(_("from %(day)s", day=day(self.date_from)))
        elif self.date_to:
            parts.append(_("until %(day)s", day=day(self.date_to)))
        # Each part is whole in itself (a translation words it its own way); a comma sets them apart in every
        # language the app speaks.
        return ", ".join(parts)

    def nothing_found(self) -> str:
        """What an empty list says: 'No plays at Anna's flat.' when the place is all that narrows it (a place the
        group never played at included), else that nothing matches."""
        if self.location:
            others = any(getattr(self, name) is not None for name in FIELDS if name != "location")
            if others:
                return _("No plays at %(place)s match the rest of the filter.", place=self.location)
            return _("No plays at %(place)s.", place=self.location)
        return _("No finished play matches.")


def _typed_name(value: Any, longest: int, what: str) -> str | None:
    """A name typed into the filter ('name' of a player, or 'place'), spaces collapsed as the store keeps names; None
    when blank."""
    if value is None:
        return None
    text = " ".join(str(value).split())
    if len(text) > longest:
        if what == "place":
            raise ValueError(
                ngettext("A place has at most %(num)s character.", "A place has at most %(num)s characters.", longest)
            )
        raise ValueError(
            ngettext("A name has at most %(num)s character.", "A name has at most %(num)s characters.", longest)
        )
    if "\x00" in text:
        raise ValueError(
            _("A place can't hold that character.") if what == "place" else _("A name can't hold that character.")
        )
    return text or None


def _start_of(on: date) -> datetime:
    """The first moment of a day, in UTC."""
    return datetime.combine(on, time.min, tzinfo=UTC)


@dataclass(frozen=True)
class _Found:
    """The roster id of the filter's player and the id of its place, looked up by their keys (None: not asked for,
    or not there); `missing` when one asked for is not there, so that nothing can match."""

    player_id: int | None
    location_id: int | None
    missing: bool


def _lookup(session: Session, flt: HistoryFilter) -> _Found:
    """The ids of the filter's player and place, by the unique keys (no name folded by the database)."""
    player_id = location_id = None
    if flt.player:
        player_id = session.exec(select(Player.id).where(col(Player.key) == name_key(flt.player))).first()
    if flt.location:
        location_id = session.exec(select(Location.id).where(col(Location.key) == name_key(flt.location))).first()
    missing = (flt.player is not None and player_id is None) or (flt.location is not None and location_id is None)
    return _Found(player_id, location_id, missing)


def _conditions(flt: HistoryFilter, found: _Found, *, player_list: bool = False) -> list[ColumnElement[bool]]:
    """The WHERE conditions of the finished plays matching the filter, deleted ones included.

    The player (looked up beforehand: SQLite plans a subquery for it badly) is matched per play, EXISTS on the
    play's seats, so that a page stops after its rows; or, with player_list, against the list of that player's
    plays made once, which costs less when every match is counted.
    """
    where: list[ColumnElement[bool]] = [col(Play.status) == FINISHED]
    if flt.game:
        where.append(col(Play.game) == flt.game)
    if flt.player and player_list:
        where.append(col(Play.id).in_(select(Seat.play_id).where(col(Seat.player_id) == found.player_id)))
    elif flt.player:
        # "+ 0": the play's own seats (ix_seat_play_id), never all the player's seats for each play, which is what
        # SQLite picks for a bound player id (500 ms at 10,000 plays instead of 1 ms).
        seated = select(Seat.id).where(col(Seat.play_id) == col(Play.id), col(Seat.player_id) + 0 == found.player_id)
        where.append(seated.exists())
    if flt.location:
        where.append(col(Play.location_id) == found.location_id)
    if flt.date_from:
        where.append(col(Play.played_at) >= _start_of(flt.date_from))
    if flt.date_to and flt.date_to < date.max:
        where.append(col(Play.played_at) < _start_of(flt.date_to + timedelta(days=1)))
    return where


def filtered_plays(session: Session, flt: HistoryFilter, limit: int, offset: int = 0) -> list[Play]:
    """A page of the finished plays matching the filter, not deleted, newest first (their seats in one query)."""
    found = _lookup(session, flt)
    if found.missing:
        return []
    return list(session.exec(_newest_first(select(Play), flt, found).offset(offset).limit(limit)))


def filtered_ids(session: Session, flt: HistoryFilter, limit: int, offset: int = 0) -> list[int]:
    """The ids of that page of plays, in the same order (what the history keeps between writes)."""
    found = _lookup(session, flt)
    if found.missing:
        return []
    ids = cast("SelectOfScalar[int]", select(Play.id))  # a saved play's id is never None
    return list(session.exec(_newest_first(ids, flt, found).offset(offset).limit(limit)))


def plays_by_ids(session: Session, ids: Sequence[int]) -> list[Play]:
    """These plays (their seats in one query) in the order of the ids; one deleted meanwhile is left out."""
    if not ids:
        return []
    found = {saved_id(play): play for play in session.exec(select(Play).where(col(Play.id).in_(ids)))}
    return [found[play_id] for play_id in ids if play_id in found]


def _newest_first(query: SelectOfScalar[T], flt: HistoryFilter, found: _Found) -> SelectOfScalar[T]:
    """The query limited to the finished plays matching the filter, not deleted, newest first."""
    return query.where(*_conditions(flt, found), col(Play.deleted_at).is_(None)).order_by(
        col(Play.played_at).desc(), col(Play.id).desc()
    )


def count_filtered(session: Session, flt: HistoryFilter) -> int:
    """How many finished plays that are not deleted match the filter.

    Counted as every match less the deleted ones: the first count reads only indexes (deleted_at is in none of
    them); the deleted plays are few (purged after history.RESTORE_DAYS) and found by their own index, then looked
    up by id. With none deleted, the usual case, that is one small query more.
    """
    found = _lookup(session, flt)
    if found.missing:
        return 0
    matching = _conditions(flt, found, player_list=True)
    every = session.exec(select(func.count()).select_from(Play).where(*matching)).one()
    deleted = list(session.exec(select(Play.id).where(col(Play.deleted_at).is_not(None)).limit(DELETED_LOOKUP + 1)))
    if not deleted:
        return every
    if len(deleted) > DELETED_LOOKUP:
        # Many deleted at once: counting the rest directly costs less than a long list of ids.
        return session.exec(
            select(func.count()).select_from(Play).where(*matching, col(Play.deleted_at).is_(None))
        ).one()
    gone = select(func.count()).select_from(Play).where(col(Play.id).in_(deleted), *_conditions(flt, found))
    return every - session.exec(gone).one()
