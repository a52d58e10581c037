"""What a finished play's result says about the play beside its scores: where and how long it was played, what an
imported play is marked with (ignored, seat order unknown, seats without a score); formatting only, no rules."""

from __future__ import annotations

from companion.games.wording import duration, join_names
from companion.language import _
from companion.store.models import Play


def where_and_how_long(play: Play) -> list[str]:
    """The place and the time at the table, each only when known, as the result, the history and the sheets say them:
    ["Anna's flat", '1 h 25 min'], ['45 min at the table'], []."""
    minutes = None if play.duration_min is None else duration(play.duration_min)
    if play.location is None:
        # Alone, a bare "45 min" would not say what it measures.
        return [] if minutes is None else [_("%(minutes)s at the table", minutes=minutes)]
    return [play.location.name] + ([] if minutes is None else [minutes])


def marks(play: Play) -> list[str]:
    """What sets an imported play apart from one tracked here, each said in one sentence."""
    said = []
    if play.ignored:
        said.append(_("Ignored in BG Stats: left out of the statistics."))
    if not play.seats_known:
        said.append(_("Seat order not recorded: the players are in no turn order."))
    unscored = [seat.name for seat in play.seats if seat.total is None]
    if unscored and len(unscored) == len(play.seats):
        said.append(_("No scores recorded: only who won."))
    elif unscored:
        said.append(_("No score recorded for %(names)s.", names=join_names(unscored)))
    return said
