"""A play as it stands, worked out once per request: its live state and options, its score or why it can't be
scored, what the tracker says beside it and whether its end has begun. The tracker's page and partials
(tracker_parts) and the JSON API's play view (api_parts) both show it from here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import live
from companion.games.base import Game, InputErrors, Note, read_path
from companion.games.live import Context, End, Live, Standing, State
from companion.games.wording import figure, join_names
from companion.language import N_, _
from companion.store import records
from companion.store.db import get_session
from companion.store.models import FINISHED, Play, saved_id

# What the tracker's bar shows while the newest answer said nothing of its own.
STANDING_HINT = N_("Each tap is saved at once; what it causes is said here.")


@dataclass(frozen=True)
class PlayStanding:
    """A play's standing: `scored` None (and `broken` why) for saved counts the rules no longer accept."""

    play: Play
    game: Game
    # The play's live context, None when its options no longer hold.
    ctx: Context | None
    state: State
    options: Any
    scored: Standing | None
    broken: InputErrors | None = None

    @property
    def live(self) -> Live:
        """The game's tracker."""
        return self.game.live

    def notes(self) -> list[Note]:
        """What the tracker says beside the live score; for counts that can't be scored, that they can't."""
        if self.scored is None:
            why = _("These counts can't be scored: %(why)s. Correct them to go on.", why=self.broken)
            return [Note(why, warning=True)]
        return self.live.notes(self.scored)

    def end(self) -> End:
        """Whether the game's end has begun (never while the counts can't be scored)."""
        return self.live.end(self.scored) if self.scored is not None else End()

    def tracker_parts(self, only: set[int | str] | None = None) -> dict[str, Any]:
        """What the tracker's page and partials draw of the standing: the counters with their saved values (with
        `only`, just those of the scopes named there: seat ids, 'table'), the scoreboard, notes, end, setup card
        and the game's own view."""
        scored, options = self.scored, self.options
        notes = self.notes()
        flagged: dict[int, set[str]] = {}
        parts: dict[str, Any] = {"live": {"players": []}, "view": None, "setup": [], "reference_notes": []}
        if scored is not None:
            flagged = {saved_id(seat): self.live.flagged(scored, i) for i, seat in enumerate(self.play.seats)}
            parts = {
                "live": scored.result.to_dict(),
                "view": self.live.view(scored),
                "setup": self.game.setup(len(self.play.seats), options) if self.game.setup else [],
                "reference_notes": self.game.reference_notes(options) if self.game.reference_notes else [],
            }
        return {
            **parts,
            "options": options,
            "has_counters": any(counter_paths(self.live, options)),
            "state": self.state,
            "notes": notes,
            "standing": standing_line(notes, scored.result.players if scored is not None else ()),
            "end": self.end(),
            "flagged": flagged,
            "live_values": self._live_values(flagged, only) if scored is not None else [],
        }

    def _live_values(self, flagged: dict[int, set[str]], only: set[int | str] | None) -> list[dict[str, Any]]:
        """The counters the tracker shows with their saved values: each seat's and the table's (the finish form's
        own); with `only`, just those of the scopes named there."""
        seat_paths, table_paths = counter_paths(self.live, self.options)
        values = [
            {
                "scope": seat.id,
                "field": path,
                "value": read_path(seat_state, path),
                "flagged": path in flagged.get(saved_id(seat), ()),
            }
            for seat, seat_state in zip(self.play.seats, self.state["seats"], strict=True)
            if only is None or seat.id in only
            for path in seat_paths
        ]
        values += [
            {"scope": "table", "field": path, "value": read_path(self.state["table"], path), "flagged": False}
            for path in table_paths
            if only is None or "table" in only
        ]
        return values

    def api_parts(self) -> dict[str, Any]:
        """The play view's live parts: the live score and the tracker's notes while in progress (null and none once
        finished or while it can't be scored), whether the end has begun, and each seat's read-only facts."""
        scored, end = self.scored, self.end()
        parts: dict[str, Any] = {"live": None, "tracker_notes": [], "facts": [{} for _ in self.play.seats]}
        if scored is not None and self.play.status != FINISHED:
            parts = {
                "live": scored.result.to_dict(),
                "tracker_notes": [{"text": note.text, "warning": note.warning} for note in self.notes()],
                "facts": [self.live.seat_facts(seat, scored.ctx.options) for seat in scored.state["seats"]],
            }
        return {**parts, "end": {"triggered": end.triggered, "why": end.why}}


def stand(play: Play, acted: records.Acted | None = None) -> PlayStanding:
    """The play as it stands: after an action just saved, its new state in the context it ran in (the play not read
    or validated again), else the play as read (not validated again when this request's action saved nothing or
    was refused: records.judged_state); shown unscored when the rules no longer accept its counts."""
    game = records.game_of(play)
    ctx = acted.ctx if acted else None
    try:
        ctx = ctx or records.live_context(play)
        if acted:
            scored = live.standing(game, acted.applied.state, ctx, acted.applied.checked)
        else:
            # After an action that saved nothing or was refused, the state its check judged, if the play holds it.
            state = records.live_state(play, ctx)
            scored = live.standing(game, state, ctx, records.judged_state(get_session(), play, state, ctx))
    except InputErrors as broken:
        options = game.options_model.model_construct(**play.options)
        state = {"table": play.extra.get(records.TABLE, {}), "seats": [seat.state for seat in play.seats]}
        return PlayStanding(play, game, ctx, state, options, None, broken)
    return PlayStanding(play, game, ctx, scored.state, scored.options, scored)


def standing_line(notes: list[Note], players: Sequence[Any]) -> Note:
    """The line the tracker's bar keeps while nothing new is said: what stands now that the table must not miss
    (the game's warnings: the end begun and who still plays, a bonus to choose), else who leads, once anyone
    scores."""
    warnings = [note.text for note in notes if note.warning]
    if warnings:
        return Note(" ".join(warnings), warning=True)
    leaders = [player for player in players if player.rank == 1]
    if leaders and any(player.total for player in players):
        names, points = join_names([p.name for p in leaders]), figure(leaders[0].total)
        if len(leaders) == 1:
            return Note(_("%(names)s leads with %(points)s VP.", names=names, points=points))
        return Note(_("%(names)s share the lead with %(points)s VP.", names=names, points=points))
    return Note(_(STANDING_HINT))


def counter_paths(live: Live, options: Any) -> tuple[list[str], list[str]]:
    """The paths of the counters a tracker draws: each seat's (not the finish form's end fields) and the table's."""
    seat_paths = [path for path in live.seat_counters(options) if path not in live.end_fields]
    return seat_paths, list(live.table_counters(options))
