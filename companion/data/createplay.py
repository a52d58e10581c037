"""BG Stats' createPlay link: one finished play handed over to the BG Stats app on the phone in one tap.

The form is BG Stats' own ("Push plays to BG Stats from other apps or websites", bgstatsapp.com/support):
https://app.bgstatsapp.com/createPlay.html?data=<the play as url-encoded JSON>, with "sourceName", "sourcePlayId",
"playDate" ("YYYY-MM-DD HH:MM:SS", in UTC as integrators read the page), "durationMin", "location" (a place's name),
"game" {"name", "sourceGameId", "bggId" (a number: a string crashes the app), "highestWins", "noPoints"} and
"players" [{"name", "sourcePlayerId", "score", "winner", "rank", "startPlayer", "role"}]. BG Stats remembers the
user's matches by sourceName and the source ids, so those stay stable; its Android app throws without "winner" and
"startPlayer", so both are always sent (no start player in a play imported without seat order). "location" is sent
only for a play with a place (without one BG Stats sets the location to the sending app). A score is a number: the
score as typed where the play was imported so (45.5), none for a seat without one (a winner-only play);
"durationMin" is the play's minutes at the table, 0 where unknown. "role" is the player's part in the play, which
BG Stats shows beside the name (real backups hold characters and factions there: "Medic", "Paladin"): a seat's
colour, as the export writes it ("Red"; bgstats.seat_colours), sent only for a seat with one.
"""

from __future__ import annotations

import json
from datetime import UTC
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from companion.data.bgstats import BGG_IDS, exact, local_text, seat_colours, typed_scores, won
from companion.store import records
from companion.store.models import FINISHED, Play

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Companion"


def url(play: Play) -> str | None:
    """The createPlay link that adds this play to BG Stats, or None unless the play is finished."""
    if play.status != FINISHED:
        return None
    return CREATE_PLAY + quote(json.dumps(data(play), ensure_ascii=False, separators=(",", ":")), safe="")


def data(play: Play) -> dict[str, Any]:
    """A finished play as createPlay's JSON: the winners as the BG Stats export marks them (a solo play by its rules)."""
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.uid,
        "playDate": local_text(play.played_at, UTC),
        "durationMin": play.duration_min or 0,
        **({"location": play.location.name} if play.location is not None else {}),
        "game": {
            "name": records.game_of(play).name,
            "sourceGameId": play.game,
            "bggId": BGG_IDS.get(play.game, 0),
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": seat.name,
                "sourcePlayerId": str(seat.player_id) if seat.player_id else seat.name,
                **({"score": _number(score)} if (score := exact(text)) is not None else {}),
                "winner": won(play, seat),
                "rank": seat.rank or 0,
                "startPlayer": play.seats_known and seat.position == 0,
                **({"role": role} if role else {}),
            }
            for seat, text, role in zip(play.seats, typed_scores(play), seat_colours(play), strict=True)
        ],
    }


def _number(score: Decimal) -> int | float:
    """A score as a JSON number: whole points as an integer, a score typed with decimals as it was."""
    return int(score) if score == score.to_integral_value() else float(score)
