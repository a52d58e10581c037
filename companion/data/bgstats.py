"""BG Stats' JSON backup format: the companion's finished plays out, and a backup's plays of our four games in.

What the format is, from public code that reads and writes it (BG Stats itself publishes no specification):
- ctuncan/bga_bgstats, bga_bgstats.py (writes files BG Stats imports, ".bgsplay"): top level "games", "plays",
  "locations", "players", "userInfo" {"meRefId"}; a game {"id", "uuid", "name", "bggId", "bggYear", "highestWins",
  "noPoints", "cooperative", "usesTeams"}; a player {"id", "uuid", "name", "isAnonymous"}; a location {"id", "uuid",
  "name"}; a play {"uuid", "playDate" ("YYYY-MM-DD HH:MM:SS", the local time), "gameRefId", "durationMin",
  "ignored", "manualWinner", "rounds", "usesTeams", "locationRefId", "scoringSetting", "playerScores":
  [{"playerRefId", "score", "winner", "rank", "seatOrder", "startPlayer", "newPlayer"}]}; uuids written in upper
  case.
- theiam79/BGStats.Bot, src/BGStats.Bot/Models/{PlayFile,Play,PlayerScore,Game,Player}.cs (reads BG Stats' files):
  the same fields, a play's "entryDate", "modificationDate", "board"; a player score's "score" is a string
  (BG Stats keeps what was typed), "role", "team", "teamRole"; "winner" one flag per player, so a shared win is
  several players flagged.
- BGG id of Spyrium, 137269: boardgamegeek.com/boardgame/137269/spyrium (linked from westpark-gamers.de's review,
  and trickylight.co.uk's session log "Spyrium ... BGG Id: 137269"). No BGG id was found for SPQF, Spires or
  Conquest of Speros: they are matched by name only and exported with bggId 0, as readers take a game on no BGG page.
- Real backups and the tools that read them (issue 20: sqrtxander/bgstats-wrapped, TalitaJames/bgStats-dataVisualiser,
  luceleaftea/end-of-year-bgstats-summary, adrianocola/bgstats-merger, gnidan/bgstats-elo-ratings): the top level
  also holds "groups", "tags" and "challenges"; the "Anonymous player" (isAnonymous true) is the one BG Stats seats
  for anyone not on the player list; a game always has "bggId", "bggName", "minPlayTime" and "maxPlayTime", and
  "isBaseGame"/"isExpansion" as 0 or 1; one reader finds a player at players[playerRefId - 1], so our export numbers
  them 1..n in list order, the anonymous player first; a score is the text typed, which may be a sum or a difference
  ("66-5-0-11-17", "52+18+41-3") or hold decimals; "locationRefId" 0 (or none) is a play without a place, and the
  merger skips it so. "userInfo.meRefId" is the device owner's player: the merger names each file by that player
  (and fails on a file whose meRefId is no player of it), end-of-year-bgstats-summary counts as friends the players
  other than that one and the anonymous one, and that player's "newPlayer" flags as the games played first.
- A BG Stats backup as its owner published it (issue 33: Deniedpluto/BoardGamePlays, BGStatsExport.json, written
  by BG Stats v5.5.6 on Android, userInfo.appVersion): ids are BG Stats' database ids, not list positions
  (players listed by name: 159, 17, 53, ...), and a file may list several anonymous players; "meRefId" is a player
  with plays; uuids are in either case; a score is null where none was typed, "role" is left out where none was
  given and otherwise a character or faction ("Paladin", "Medic"), "comments" and "board" only where given, "team"
  a text ("1"); "metaData" a JSON text; the top level also holds "deletedObjects" (uuids of players, places, games
  and plays deleted), so a play may name what the file no longer lists. Where BG Stats writes null, other writers
  (bga_bgstats above) leave the field out; we read both as none, and a number written as text ("3") as the number,
  since a file written by another tool or edited by hand may hold one.

Our choices, export: a seat's colour travels as the player score's "role", as BG Stats shows a role ("Red"; a
Conquest of Speros play scored at the end keeps its colours with its result, and they go there too); the first player
(position 0) is "startPlayer" and seats keep their order as "seatOrder" 1, 2, ..., except in a play imported without
seat order, written as it came (every seatOrder 0, no startPlayer). "userInfo.meRefId" is the device owner's player:
the one BGSTATS_OWNER names, else the player in the most exported plays (ties by name), always one in the file's
plays; only a file without a roster player in its plays names the anonymous player, the one in them then (a guest
seat is that player). "durationMin" is the
play's minutes at the table (Play.duration_min: a tracked play's start to finish without the time it was put aside),
0 where unknown; "rounds" is the round the tracker's table ended in, 0 where it counts none. "locations" holds every
place an exported play was played at (numbered 1..n by name), "ignored" is the play's mark. A solo play is won when
the game says so: in Spires, a total the King's Appraisal does not punish (66, the greeting card, and more). A score
is the text the play was imported with where that is still its total, else the total; "" for a seat without one.
Uuids: a play's is its uid; a player's, a place's and a game's the one an import kept (Player.uid, Location.uid,
GameUid), else one made from its key, the same in every export. Dates are in the group's time zone (the setting
BGSTATS_TIME_ZONE; unset, the server's own).

Our choices, import: a play's BG Stats uuid is its uid, stored as the 32 hex digits of that UUID (the form the
companion's own uids take, so our export imported back into the database it came from adds nothing); a uuid that is
no UUID is kept as it is when it fits 36 characters, else as a stable hash of it; a play without one gets a hash of
its game, date, players and scores, the same in every import. Players', places' and our games' uuids are kept the
same way where the database has none yet (a player or place without one is let be). What makes a play is its game,
date and player scores: a file whose entries lack those, or hold a value of a type no file has ("long" minutes, a
list for a name), is damaged and refused; everything else is read as BG Stats reads it, nulls and missing fields as
none, fields we do not read let be. Imported plays have totals and winners but no
breakdown lines: seats store their total, a rank and an empty breakdown, with source "bgstats"; a play's place,
minutes (durationMin above 0), comments and "ignored" mark come with it (an ignored play is kept and listed, left out
of every statistic). Ranks: winners first (a shared win is several), then the others by score, equal scores sharing
a rank (1, 1, 3), seats without a score last; ranks the file gives are kept where they hold together. In detail:
- The anonymous player (isAnonymous) is a guest: a seat named "Guest" ("Guest 2", "Guest 3" when a play has several)
  on no roster, so several of them in one play are no player seated twice.
- Seat order: by "seatOrder" from the start player on when the values are distinct numbers above 0; otherwise (all
  0, say) the play's seats are in no known order: kept as listed (a start player flag alone orders nothing) and
  marked (Play.seats_known False), and Wins by seat leaves the play out.
- Our games score whole points, so a decimal score is a tie-break the group typed into the score: the seat's total is
  the whole part (rounded down: 45.5 is 45, -0.5 is -1), the ranks come from the scores as typed (45.5 above 45) and
  the play's tie-break sentence says so. The scores as typed (sums and differences worked out, "24-12" is 12) are
  kept in extra["bgstats_scores"] where one differs from its total, so that the export gives them back.
- A play with no score but a winner flagged is a winner-only play: no totals, the winners rank 1, the others after
  them. With some scores and a winner flagged, the scores there are kept and the missing ones are none: the flags
  say who won, which is what BG Stats counts. Without a winner, a missing score leaves the play out; so does a score
  that is no number (or beyond any game's points), a number of players the game is not for, a player without a
  name, the same player twice, or a player the file does not list (a player deleted in BG Stats).
- A play naming a place the file does not list has no place; one naming a game the file does not list is left out,
  counted apart from the plays of other games.
Plays of our games left out are each named in the summary (date, game, players) with why; plays of other games only
counted (a backup holds hundreds).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import math
import re
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from decimal import ROUND_FLOOR, Decimal
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from sqlmodel import Session, select

from companion.data.importing import (
    DEFAULT_LIMITS,
    POINTS_MAX,
    ImportRefused,
    LeftOut,
    Limits,
    NewPlay,
    Problems,
    Summary,
    Uids,
    existing_uids,
    exported_plays,
    new_play,
    too_many,
    validate_each,
    write_import,
)
from companion.games import GAMES, get_game, spires
from companion.games.base import NAME_MAX, Game, name_key
from companion.games.spqf import turns_followed
from companion.games.turns import round_number
from companion.games.wording import MINUS, grouped, join_names, plain_minus, utc
from companion.language import N_, _, ngettext
from companion.store.models import FINISHED, LOCATION_MAX, NOTES_MAX, GameUid, Location, Play, Player, Seat
from companion.store.records import TABLE

log = logging.getLogger(__name__)

SOURCE = "bgstats"
RULES_VERSION = "bgstats-import"
# BoardGameGeek ids that could be found (see above); the other games are matched by name.
BGG_IDS = {"spyrium": 137269}
# A backup holds every game the person ever logged: a big collection is a few thousand.
MAX_GAMES = 20_000
# Player scores in one play: its plays of other games count too (a party game at a convention, a hundred or two).
MAX_SCORES = 1_000
# A namespace of our own for uuids made up from ids (a player's, a game's, a uid that is no UUID).
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://companion.invalid/bgstats")
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
# A score as BG Stats keeps it (spaces and kinds of minus made plain): a number, or numbers added and taken away as
# typed in its calculator ("3+20+5", "66-5-0-11-17", "45.5"). A longer term is no score, and Decimal is spared it.
SCORE = re.compile(r"[-+]?\d{1,18}(\.\d{1,9})?([-+]\d{1,18}(\.\d{1,9})?)*")
TERM = re.compile(r"[-+]?\d+(?:\.\d+)?")
# Longer than any score typed at a table (thirty terms of a sum): no score.
SCORE_TEXT_MAX = 200
# Player 1 of every BG Stats file, the anonymous player.
ANONYMOUS_REF = 1
# The seat an anonymous player takes ("Guest", "Guest 2", ...).
GUEST = "Guest"
# Where an imported play keeps its scores as typed (one text per seat, in seat order).
TYPED_SCORES = "bgstats_scores"
# Minutes at the table beyond a week are a slip of the finger, not a play's time: left unknown.
DURATION_MAX = 7 * 24 * 60
# Why a play naming a game the file does not list is left out (counted, never named: its game is unknown).
UNLISTED_GAME = N_("of a game the file does not list")
OTHER_GAMES = N_("of other games")
# The summary's source: said in the reader's language where shown.
BG_STATS_EXPORT = N_("BG Stats export")
# Plays left out named in the summary (the others counted), and the players named in each.
MAX_NAMED = 100
MAX_NAMES = 8


# Export -------------------------------------------------------------------------------------------------------


def bg_uuid(text: str) -> str:
    """A uuid as BG Stats writes it (upper case with dashes): a uid that is a UUID as itself, else one made from it."""
    try:
        return str(uuid.UUID(text)).upper()
    except ValueError:
        return str(uuid.uuid5(NAMESPACE, text)).upper()


def local_text(moment: datetime, zone: tzinfo | None = None) -> str:
    """A stored time as BG Stats writes dates: the time in that zone (this machine's by default), no zone said."""
    return utc(moment).astimezone(zone).strftime(DATE_FORMAT)


def owner_setting(config: Mapping[str, Any]) -> str | None:
    """The roster name BGSTATS_OWNER gives the device owner's player, or None (unset or blank)."""
    value = config.get("BGSTATS_OWNER")
    name = "" if value is None else str(value).strip()
    return name or None


def export_json(session: Session, zone: tzinfo | None = None, owner: str | None = None) -> bytes:
    """The BG Stats backup as a UTF-8 JSON file (names in every alphabet written as they are)."""
    return json.dumps(export_backup(session, zone, owner), ensure_ascii=False).encode()


def export_backup(session: Session, zone: tzinfo | None = None, owner: str | None = None) -> dict[str, Any]:
    """The finished plays (not deleted) as a BG Stats backup, every list its files have, dates in that zone, and
    userInfo.meRefId the owner's player (BGSTATS_OWNER's name, else the player with the most plays)."""
    games = list(GAMES.values())
    game_ref = {game.id: index + 1 for index, game in enumerate(games)}
    game_uids = {row.game: row.uid for row in session.exec(select(GameUid))}
    plays = [play for play in exported_plays(session, (FINISHED,)) if play.game in game_ref]
    players: dict[int, Player] = {}
    places: dict[int, Location] = {}
    for play in plays:
        for seat in play.seats:
            if seat.player_id is not None and seat.player is not None:
                players.setdefault(seat.player_id, seat.player)
        if play.location_id is not None and play.location is not None:
            places.setdefault(play.location_id, play.location)
    roster = sorted(players.items(), key=lambda item: item[1].key)
    player_ref = {player_id: ref for ref, (player_id, _) in enumerate(roster, start=ANONYMOUS_REF + 1)}
    owner_player = owner_id(plays, players, owner)
    # No roster player in the plays (none exported, or only guests'): the anonymous player, the one in them.
    me = ANONYMOUS_REF if owner_player is None else player_ref[owner_player]
    sites = sorted(places.items(), key=lambda item: item[1].key)
    place_ref = {place_id: ref for ref, (place_id, _) in enumerate(sites, start=1)}
    return {
        "groups": [],
        "userInfo": {"meRefId": me},
        "players": [
            {"id": ANONYMOUS_REF, "uuid": bg_uuid("anonymous"), "name": "Anonymous player", "isAnonymous": True},
            *(
                {
                    "id": player_ref[player_id],
                    "uuid": bg_uuid(player.uid or f"player:{player.key}"),
                    "name": player.name,
                    "isAnonymous": False,
                    "modificationDate": local_text(player.created_at, zone),
                }
                for player_id, player in roster
            ),
        ],
        "locations": [
            {
                "id": place_ref[place_id],
                "uuid": bg_uuid(place.uid or f"location:{place.key}"),
                "name": place.name,
                "modificationDate": local_text(place.created_at, zone),
            }
            for place_id, place in sites
        ],
        "games": [_bg_game(game, game_ref[game.id], game_uids.get(game.id)) for game in games],
        "plays": [_play(play, game_ref[play.game], player_ref, place_ref, zone) for play in plays],
        "tags": [],
        "challenges": [],
    }


def owner_id(plays: Sequence[Play], players: Mapping[int, Player], owner: str | None = None) -> int | None:
    """The id of the player the export is the device of: the one the owner's name names (BGSTATS_OWNER, matched as
    a name typed at the table), else the one in the most plays (ties by name); None when no roster player is in them.

    The tools that follow userInfo.meRefId need a player with plays here (bgstats-merger names each file by that
    player, end-of-year-bgstats-summary counts friends and first plays around it), so a name of no player in these
    plays is said in the log and the most plays decide.
    """
    if owner is not None:
        key = name_key(owner)
        named = next((player_id for player_id, player in players.items() if player.key == key), None)
        if named is not None:
            return named
        log.warning(
            "BGSTATS_OWNER is %r, who is in none of the exported plays: userInfo.meRefId names the player with the "
            "most plays instead.",
            owner[:NAME_MAX],
        )
    # A play counts once for each player in it; a guest (no player id) is no one's device.
    counts: Counter[int] = Counter()
    for play in plays:
        counts.update(
            {seat.player_id for seat in play.seats if seat.player_id is not None and seat.player_id in players}
        )
    if not counts:
        return None
    return min(counts, key=lambda player_id: (-counts[player_id], players[player_id].key))


def seat_colours(play: Play) -> list[str]:
    """Each seat's colour as BG Stats shows a role ("Red"), "" for none: the seat's own, else the one its game
    scored it by (a Conquest of Speros play scored at the end keeps its players' colours with the result only)."""
    game = get_game(play.game)
    known = game.colours if game is not None else ()
    scored = play.extra.get("players")
    if not isinstance(scored, list) or len(scored) != len(play.seats):
        scored = [{}] * len(play.seats)
    said = []
    for seat, extra in zip(play.seats, scored, strict=True):
        colour = seat.colour or (extra.get("color") if isinstance(extra, dict) else None) or ""
        said.append(colour.capitalize() if colour in known else "")
    return said


def _bg_game(game: Game, ref: int, uid: str | None) -> dict[str, Any]:
    """One of our games as a BG Stats game (BGG id 0 where none is known; no playing time known: 0)."""
    return {
        "id": ref,
        "uuid": bg_uuid(uid or f"game:{game.id}"),
        "name": game.name,
        "bggId": BGG_IDS.get(game.id, 0),
        "bggName": game.name,
        "highestWins": True,
        # Even a winner-only play is of a game with points: the other plays have them.
        "noPoints": False,
        "cooperative": False,
        "usesTeams": False,
        "minPlayerCount": game.min_players,
        "maxPlayerCount": game.max_players,
        "minPlayTime": 0,
        "maxPlayTime": 0,
        "isBaseGame": 1,
        "isExpansion": 0,
    }


def _play(
    play: Play, game_ref: int, player_ref: dict[int, int], place_ref: dict[int, int], zone: tzinfo | None
) -> dict[str, Any]:
    """One finished play as a BG Stats play."""
    known = play.seats_known
    return {
        "uuid": bg_uuid(play.uid),
        "gameRefId": game_ref,
        "playDate": local_text(play.played_at, zone),
        "entryDate": local_text(play.created_at, zone),
        "modificationDate": local_text(play.finished_at or play.played_at, zone),
        "durationMin": play.duration_min or 0,
        "ignored": play.ignored,
        "manualWinner": False,
        "usesTeams": False,
        "rounds": rounds(play),
        "locationRefId": place_ref.get(play.location_id, 0) if play.location_id is not None else 0,
        "board": "",
        "scoringSetting": 0,
        "comments": play.notes,
        "playerScores": [
            {
                "playerRefId": ANONYMOUS_REF if seat.player_id is None else player_ref[seat.player_id],
                "score": score,
                "winner": won(play, seat),
                "rank": seat.rank or 0,
                "seatOrder": seat.position + 1 if known else 0,
                "startPlayer": known and seat.position == 0,
                "newPlayer": False,
                "role": role,
            }
            for seat, score, role in zip(play.seats, typed_scores(play), seat_colours(play), strict=True)
        ],
    }


def typed_scores(play: Play) -> list[str]:
    """Each seat's score as BG Stats keeps it: as typed where the play was imported so and that is still its total
    (a correction scored anew changes the total), else the total; "" for a seat without a score."""
    kept = play.extra.get(TYPED_SCORES)
    if not isinstance(kept, list) or len(kept) != len(play.seats):
        kept = [None] * len(play.seats)
    said = []
    for seat, text in zip(play.seats, kept, strict=True):
        if isinstance(text, str) and score_of(text) == seat.total and (seat.total is not None or not text.strip()):
            said.append(text)
        else:
            said.append("" if seat.total is None else str(seat.total))
    return said


def rounds(play: Play) -> int:
    """The round a tracked play's table ended in, 0 where it counts none: Spyrium's turn is a round of the table,
    SPQF and Speros count each player's turn (SPQF's only once Next turn was tapped), Spires counts no turns."""
    table = play.extra.get(TABLE) or {}
    if "turn" not in table:
        return 0
    if play.game == "spyrium":
        return int(table["turn"])
    if play.game == "spqf" and not turns_followed(table):
        return 0
    return round_number(table, len(play.seats))


def won(play: Play, seat: Seat) -> bool:
    """Whether BG Stats marks this seat a winner: rank 1 of several, or a solo play won by the game's rules (Spires,
    the only one of ours played solo), or by BG Stats' flag where it came without a score."""
    if len(play.seats) > 1 or seat.total is None:
        return seat.rank == 1
    return play.game == "spires" and spires.solo_won(seat.total)


# The backup's shape -------------------------------------------------------------------------------------------

# A reference to a row of BG Stats' database (SQLite's 64-bit row ids): a larger number is no reference, and
# refusing it keeps a 4,000-digit "id" out of every sentence that names it.
Ref = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]


def _blank_none(value: Any) -> Any:
    """A number written as empty text: none, as null or no key at all is."""
    return None if isinstance(value, str) and not value.strip() else value


OptionalRef = Annotated[Ref | None, BeforeValidator(_blank_none)]
Minutes = Annotated[float | None, BeforeValidator(_blank_none)]
# A seat number or a rank: 0, BG Stats' "none", where the file leaves it empty.
Count = Annotated[int, BeforeValidator(lambda value: 0 if _blank_none(value) is None else value)]


class Loose(BaseModel):
    """What a BG Stats file may hold: many more fields than we read (let be), null or nothing for a field without a
    value (its default); and, from another tool or a hand's edit, a number where text is declared or a number or a
    flag written as text ("3", "1", "true"), read as meant. A value no file has (a list for a name, "long" minutes)
    is still damage."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, data: Any) -> Any:
        """A null is no value: BG Stats writes null where it has none (a score not typed), other writers leave the
        key out, and both mean the field's default."""
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value is not None}
        return data


class BgPlayer(Loose):
    """A player of the backup."""

    id: Ref
    # A nameless player damages no file: a play of ours seating one is left out and named.
    name: str = ""
    uuid: str | None = None
    isAnonymous: bool = False


class BgLocation(Loose):
    """A place of the backup."""

    id: Ref
    name: str = ""
    uuid: str | None = None


class BgGame(Loose):
    """A game of the backup."""

    id: Ref
    name: str = ""
    bggName: str | None = None
    bggId: OptionalRef = None
    uuid: str | None = None


class BgScore(Loose):
    """A player's line of a play."""

    playerRefId: Ref
    # Whatever was typed, or none: a score that is no number leaves a play of ours out, named, not the file.
    score: Any = None
    winner: bool = False
    startPlayer: bool = False
    seatOrder: Count = 0
    role: str | None = None
    # 0 when the play left ranks to the scores; our own export writes the rank a tie-break decided.
    rank: Count = 0


class BgPlay(Loose):
    """A play of the backup: its game, date and player scores are what make it one; the rest may be missing."""

    # None (or blank): a play written by a tool that gives none; its uid is then made from what the play holds.
    uuid: str | None = None
    gameRefId: Ref
    playDate: str
    ignored: bool = False
    comments: str = ""
    durationMin: Minutes = None
    # 0 or none is a play without a place; so is one naming a place the file does not list (one deleted in BG Stats).
    locationRefId: OptionalRef = None
    playerScores: list[BgScore]


class BgBackup(Loose):
    """A BG Stats backup: the lists we read (built by validate_backup from its entries, each validated alone)."""

    players: list[BgPlayer]
    games: list[BgGame]
    plays: list[BgPlay]
    locations: list[BgLocation] = []


def looks_like(data: dict[str, Any]) -> bool:
    """A BG Stats backup has these three lists at the top (and no "format" of ours)."""
    return all(isinstance(data.get(key), list) for key in ("games", "players", "plays"))


def validate_backup(data: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> BgBackup:
    """The backup checked entry by entry (types and dates), or ImportRefused.

    The lists are measured first and each entry validated on its own, a play's scores counted before: a small file
    of many empty plays costs a few problems' worth of work to say, not one error per field. A reference to a game,
    a player or a place the file does not list damages no file (BG Stats lists what was deleted apart, in
    "deletedObjects"): the import leaves such a play out, or without its place, and says so.
    """
    if not looks_like(data):
        raise ImportRefused(_("This file is no BG Stats backup: it lacks its lists of games, players and plays."))
    too_many(
        data,
        (
            ("plays", "plays", limits.plays),
            ("players", "players", limits.players),
            ("games", "games", MAX_GAMES),
            ("locations", "places", limits.players),
        ),
    )
    problems = Problems()
    raw_places = data.get("locations")
    if raw_places is not None and not isinstance(raw_places, list):
        problems.add(_("Its locations are not a list."))
    players = validate_each(
        BgPlayer, data["players"], lambda index, entry: _("Player %(number)s", number=index + 1), problems
    )
    games = validate_each(BgGame, data["games"], lambda index, entry: _("Game %(number)s", number=index + 1), problems)
    places = validate_each(
        BgLocation,
        raw_places if isinstance(raw_places, list) else [],
        lambda index, entry: _("Location %(number)s", number=index + 1),
        problems,
    )
    plays = validate_each(
        BgPlay, data["plays"], lambda index, entry: _("Play %(number)s", number=index + 1), problems, _play_fits
    )
    if not problems:
        for index, play in enumerate(plays):
            try:
                played_at(play.playDate)
            except (ValueError, OverflowError):
                problems.add(
                    _(
                        "Play %(number)s: its date %(date)s is not a date.",
                        number=index + 1,
                        date=repr(play.playDate[:40]),
                    )
                )
    if problems:
        raise ImportRefused(_("This BG Stats file is damaged."), problems.lines())
    return BgBackup.model_construct(players=players, games=games, plays=plays, locations=places)


def _play_fits(entry: Any) -> str | None:
    """Why a play has too many scores to be one, or None: said before its fields are validated."""
    scores = entry.get("playerScores") if isinstance(entry, dict) else None
    if isinstance(scores, list) and len(scores) > MAX_SCORES:
        return _(
            "it has %(count)s players; no play has more than %(max)s",
            count=grouped(len(scores)),
            max=grouped(MAX_SCORES),
        )
    return None


# Import -------------------------------------------------------------------------------------------------------


def our_game(game: BgGame) -> Game | None:
    """Which of our games a BG Stats game is: by BGG id where we know one, else by its name (or BGG's name)."""
    for game_id, bgg_id in BGG_IDS.items():
        if game.bggId == bgg_id:
            return get_game(game_id)
    names = {name_key(name) for name in (game.name, game.bggName or "") if name}
    return next((ours for ours in GAMES.values() if name_key(ours.name) in names), None)


def play_uid(text: str) -> str:
    """A BG Stats uuid (a play's, a player's, a place's, a game's) as the uid it becomes (see the top of this file)."""
    try:
        return uuid.UUID(text.strip()).hex
    except ValueError:
        pass
    return text if len(text) <= 36 else "bgs-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def played_at(text: str, zone: tzinfo | None = None) -> datetime:
    """A BG Stats date (in that zone, this machine's by default, unless it names one), in UTC."""
    moment = datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone) if zone is not None else moment.astimezone()
    return moment.astimezone(UTC)


def exact(value: Any) -> Decimal | None:
    """A player's score as the number typed (sums and differences worked out), or None when there is none, it is no
    number (a flag, a list: whatever a file holds) or beyond any game's points."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            return None
        number = Decimal(repr(value))
    elif not isinstance(value, str):
        return None
    else:
        text = "".join(plain_minus(value).split())
        if len(text) > SCORE_TEXT_MAX or not SCORE.fullmatch(text):
            return None
        number = sum((Decimal(term) for term in TERM.findall(text)), Decimal(0))
    return number if abs(number) <= POINTS_MAX else None


def score_of(value: Any) -> int | None:
    """A player's score as the whole points a seat stores (a decimal rounded down: 45.5 is 45), or None."""
    number = exact(value)
    return None if number is None else int(number.to_integral_value(rounding=ROUND_FLOOR))


def blank(value: Any) -> bool:
    """Whether a player has no score at all (BG Stats writes "" for a score not typed)."""
    return value is None or (isinstance(value, str) and not value.strip())


def typed(value: Any) -> str:
    """A score as the text it was typed (a number in the file as it reads: 45.5 as "45.5")."""
    if isinstance(value, str):
        return value.strip()
    number = exact(value)
    return "" if number is None else number_text(number, plain=True)


def number_text(number: Decimal, plain: bool = False) -> str:
    """A score as a sentence writes it ('45.5', '−3'), or as BG Stats keeps it (plain: '-3')."""
    # A float's -0.0 reads 0, as a score typed at the table does.
    number = number + 0
    text = format(number.normalize() if number != number.to_integral_value() else number.quantize(1), "f")
    return text if plain else text.replace("-", MINUS)


def ranks(values: Sequence[Decimal | int | None], winners: list[bool], given: list[int] | None = None) -> list[int]:
    """Winners first (a shared win is several), then the others by score; equal scores share a rank (1, 1, 3), and
    players without a score come after those with one.

    With no winner flagged (a solo play, or one left to the scores), the highest score is first. Ranks the file
    gives are kept when they hold together (each from 1 to the number of players, first exactly where the winners
    are): a tie-break the group played by separated players of equal score.
    """
    if given and all(1 <= rank <= len(values) for rank in given):
        firsts = [rank == 1 for rank in given]
        if firsts == winners or (not any(winners) and any(firsts)):
            return list(given)
    if not any(winners):
        best = max((value for value in values if value is not None), default=None)
        winners = [value is not None and value == best for value in values]

    def above(value: Decimal | int | None, other: Decimal | int | None, other_won: bool) -> bool:
        """Whether the other seat ranks before this one."""
        return other_won or (other is not None and (value is None or other > value))

    return [
        1
        if won
        else 1 + sum(1 for other, other_won in zip(values, winners, strict=True) if above(value, other, other_won))
        for value, won in zip(values, winners, strict=True)
    ]


def decimal_tiebreak(values: Sequence[Decimal | None], ranked: Sequence[int]) -> str | None:
    """The tie-break sentence of a play whose decimals separated players of the same whole points, or None."""
    groups: dict[int, list[tuple[int, Decimal]]] = {}
    for value, rank in zip(values, ranked, strict=True):
        if value is not None:
            groups.setdefault(int(value.to_integral_value(rounding=ROUND_FLOOR)), []).append((rank, value))
    said = []
    for total in sorted(groups, reverse=True):
        seats = sorted(set(groups[total]))
        in_order = [value for _, value in seats]
        separated = len({rank for rank, _ in seats}) > 1
        # Only where the ranks follow the decimals: a winner flagged against them was decided otherwise.
        if separated and all(a > b for a, b in itertools.pairwise(in_order)):
            said.append(" over ".join(number_text(value) for value in in_order))
    return f"Ranked by the scores as typed in BG Stats: {', '.join(said)}." if said else None


def _options(game: Game, count: int) -> dict[str, Any] | None:
    """The game's default options for this many players (Spires' solo for one) as a play stores them, or None if it
    has no such count."""
    tried = ({}, {"solo": True}) if "solo" in game.options_model.model_fields else ({},)
    for given in tried:
        options = game.options_model.model_validate(given)
        if game.player_count_error(count, options) is None:
            return options.model_dump(mode="json")
    return None


@dataclass(frozen=True)
class Named(LeftOut):
    """A play of our games left out, with the sentence that names it (date, game, players) and says why."""

    said: str = ""


@dataclass
class BgSummary(Summary):
    """The import's summary, and each play of our games it left out named (the first MAX_NAMED of them)."""

    named: list[str] = field(default_factory=list)

    def sentences(self) -> list[str]:
        """The counts, then the plays left out one by one."""
        more = len(self.named) - MAX_NAMED
        said = [*super().sentences(), *self.named[:MAX_NAMED]]
        if more <= 0:
            return said
        return [*said, ngettext("And %(num)s more play left out.", "And %(num)s more plays left out.", more)]


def place_name(name: str) -> str:
    """A BG Stats location's name as a place of ours is named (spaces made one, cut to its length)."""
    return " ".join(name.split())[:LOCATION_MAX]


def import_backup(session: Session, backup: BgBackup, zone: tzinfo | None = None) -> BgSummary:
    """Add the backup's plays of our games the database lacks, in one transaction (dates without a zone in that one,
    this machine's by default), and keep the uuids of its players, places and our games."""
    games = {game.id: our_game(game) for game in backup.games}
    people = {player.id: (None if player.isAnonymous else player.name.strip()[:NAME_MAX]) for player in backup.players}
    places = {place.id: place_name(place.name) for place in backup.locations}
    plays = [_our_play(play, games, people, places, zone) for play in backup.plays]
    summary = write_import(session, BG_STATS_EXPORT, plays, uids=_uids(backup, games))
    named = [play for play in plays if isinstance(play, Named)]
    # A play left out that the database has anyway (from our own export, say) was counted as already there.
    present = existing_uids(session, [play.uid for play in named if play.uid is not None])
    return BgSummary(**vars(summary), named=[play.said for play in named if play.uid not in present])


def _uids(backup: BgBackup, games: Mapping[int, Game | None]) -> Uids:
    """The file's uuids of its players (not the anonymous one) and places by name_key, and of our games by id: the
    first of a name where the file has several."""
    players: dict[str, str] = {}
    for player in backup.players:
        if player.uuid and not player.isAnonymous and player.name.strip():
            players.setdefault(name_key(player.name.strip()[:NAME_MAX]), play_uid(player.uuid))
    locations: dict[str, str] = {}
    for place in backup.locations:
        if place.uuid and place_name(place.name):
            locations.setdefault(name_key(place_name(place.name)), play_uid(place.uuid))
    ours: dict[str, str] = {}
    for bg_game in backup.games:
        game = games.get(bg_game.id)
        if game is not None and bg_game.uuid:
            ours.setdefault(game.id, play_uid(bg_game.uuid))
    return Uids(players=players, locations=locations, games=ours)


def seats_known(scores: Sequence[BgScore]) -> bool:
    """Whether a play says its seat order: seatOrder distinct numbers above 0 (BG Stats writes 0 when none was set)."""
    orders = [score.seatOrder for score in scores]
    return all(order > 0 for order in orders) and len(set(orders)) == len(orders)


def in_turn_order(scores: list[BgScore]) -> list[BgScore]:
    """A play's scores in turn order: by seat order (ties as listed), from the start player on."""
    seated = sorted(scores, key=lambda score: score.seatOrder)
    start = next((i for i, score in enumerate(seated) if score.startPlayer), 0)
    return seated[start:] + seated[:start]


def _seat_names(scores: Sequence[BgScore], people: Mapping[int, str | None]) -> list[tuple[str, str | None]]:
    """Each seat's name and its roster name: the anonymous player a guest ("Guest", "Guest 2"), on no roster; a
    player the file does not list is named by the number the play gives ("player 12"), on no roster either."""
    seated: list[tuple[str, str | None]] = []
    guests = 0
    for score in scores:
        if score.playerRefId not in people:
            seated.append((f"player {score.playerRefId}", None))
            continue
        name = people[score.playerRefId]
        if name is None:
            guests += 1
            seated.append((GUEST if guests == 1 else f"{GUEST} {guests}", None))
        else:
            seated.append((name, name))
    return seated


def made_uid(game: Game, play: BgPlay, seated: Sequence[tuple[str, str | None]], scores: Sequence[BgScore]) -> str:
    """The uid of a play its file gives no uuid: made from its game, date, players and scores as typed, so that the
    same file imported again finds it there."""
    what = [
        game.id,
        play.playDate.strip(),
        [[name, typed(s.score)] for (name, _), s in zip(seated, scores, strict=True)],
    ]
    return "bgs-" + hashlib.sha256(json.dumps(what, ensure_ascii=False).encode()).hexdigest()[:32]


def _our_play(
    play: BgPlay,
    games: Mapping[int, Game | None],
    people: Mapping[int, str | None],
    places: Mapping[int, str],
    zone: tzinfo | None,
) -> NewPlay | LeftOut:
    """A play of the backup as the play it adds, or why it is left out (a play of another game whatever the database
    holds, the others only when it lacks them)."""
    if play.gameRefId not in games:
        # It may be one of ours or not: counted, as plays of other games are, but apart.
        return LeftOut(UNLISTED_GAME)
    game = games[play.gameRefId]
    if game is None:
        return LeftOut(OTHER_GAMES)
    known = seats_known(play.playerScores)
    scores = in_turn_order(play.playerScores) if known else list(play.playerScores)
    seated = _seat_names(scores, people)
    uid = play_uid(play.uuid) if play.uuid and play.uuid.strip() else made_uid(game, play, seated, scores)
    values = [exact(score.score) for score in scores]
    winners = [score.winner for score in scores]
    options = _options(game, len(scores)) if scores else None
    unlisted = any(score.playerRefId not in people for score in scores)
    why = _why_left_out(scores, seated, values, winners, options, unlisted)
    if why is not None:
        names = [name or _("(no name)") for name, _roster in seated]
        more = [_("%(num)s more", num=grouped(len(names) - MAX_NAMES))] * (len(names) > MAX_NAMES)
        who = join_names(names[:MAX_NAMES] + more) or _("no players")
        said = _(
            "%(date)s, %(game)s, %(players)s: left out, %(why)s.",
            date=play.playDate.strip()[:16],
            game=game.name,
            players=who,
            why=_(why),
        )
        return Named(why, uid, said)
    when = played_at(play.playDate, zone)
    ranked = ranks(values, winners, [score.rank for score in scores])
    totals = [score_of(score.score) for score in scores]
    texts = [typed(score.score) for score in scores]
    keep = any(text != ("" if total is None else str(total)) for text, total in zip(texts, totals, strict=True))
    colours = {colour.casefold(): colour for colour in game.colours}
    seats = [
        (
            {
                "name": name,
                "position": position,
                "colour": colours.get((score.role or "").strip().casefold(), ""),
                "state": {},
                "total": total,
                "rank": rank,
                "breakdown": [],
            },
            roster_name,
        )
        for position, ((name, roster_name), score, total, rank) in enumerate(
            zip(seated, scores, totals, ranked, strict=True)
        )
    ]
    minutes = play.durationMin
    return new_play(
        seats,
        uid=uid,
        location=places.get(play.locationRefId, "") if play.locationRefId else "",
        game=game.id,
        status=FINISHED,
        options=options,
        rules_version=RULES_VERSION,
        source=SOURCE,
        created_at=when,
        played_at=when,
        finished_at=when,
        notes=(play.comments or "")[:NOTES_MAX],
        tiebreak=decimal_tiebreak(values, ranked),
        extra={TYPED_SCORES: texts} if keep else {},
        duration_min=round(minutes) if minutes is not None and 0 < minutes <= DURATION_MAX else None,
        ignored=play.ignored,
        seats_known=known,
    )


def _why_left_out(
    scores: Sequence[BgScore],
    seated: Sequence[tuple[str, str | None]],
    values: Sequence[Decimal | None],
    winners: Sequence[bool],
    options: dict[str, Any] | None,
    unlisted: bool = False,
) -> str | None:
    """Why a play of one of our games is left out, or None."""
    empty = [blank(score.score) for score in scores]
    roster = [name_key(name) for name, roster_name in seated if roster_name is not None]
    reasons = (
        (unlisted, N_("with a player the file does not list")),
        (
            any(value is None and not none for value, none in zip(values, empty, strict=True)),
            N_("with a score that is no number of points"),
        ),
        (any(empty) and not any(winners), N_("without a score for every player and no winner marked")),
        (options is None, N_("with a number of players the game is not for")),
        (not all(name for name, _roster in seated), N_("with a player without a name")),
        (len(set(roster)) != len(roster), N_("with the same player twice")),
    )
    return next((why for refused, why in reasons if refused), None)
