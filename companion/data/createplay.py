"""BG Stats' createPlay link: one finished play handed over to the BG Stats app on the phone in one tap.

The form is BG Stats' own ("Push plays to BG Stats from other apps or websites", bgstatsapp.com/support):
https://app.bgstatsapp.com/createPlay.html?data=<the play as url-encoded JSON>, with "sourceName", "sourcePlayId",
"playDate" ("YYYY-MM-DD HH:MM:SS", in UTC as integrators read the page), "durationMin", "game" {"name",
"sourceGameId", "bggId" (a number: a string crashes the app), "highestWins", "noPoints"} and "players" [{"name",
"sourcePlayerId", "score", "winner", "rank", "startPlayer", "role"}]. BG Stats remembers the user's matches by
sourceName and the source ids, so those stay stable; its Android app throws without "winner" and "startPlayer", so
both are always sent. No "location": plays store none yet (BG Stats then sets the location to the sending app).
"""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any
from urllib.parse import quote

from companion.data.bgstats import BGG_IDS, duration_min, local_text, won
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
        "durationMin": duration_min(play),
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
                "score": seat.total or 0,
                "winner": won(play, seat),
                "rank": seat.rank or 0,
                "startPlayer": seat.position == 0,
                **({"role": seat.colour} if seat.colour else {}),
            }
            for seat in play.seats
        ],
    }
