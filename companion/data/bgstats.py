"""BG Stats' JSON backup format: the companion's finished plays out, and a backup's plays of our four games in.

What the format is, from public code that reads and writes it (BG Stats itself publishes no specification):
- ctuncan/bga_bgstats, bga_bgstats.py (writes files BG Stats imports, ".bgsplay"): top level "games", "plays",
  "locations", "players", "userInfo" {"meRefId"}; a game {"id", "uuid", "name", "bggId", "bggYear", "highestWins",
  "noPoints", "cooperative", "usesTeams"}; a player {"id", "uuid", "name", "isAnonymous"}; a play {"uuid",
  "playDate" ("YYYY-MM-DD HH:MM:SS", the local time), "gameRefId", "durationMin", "ignored", "manualWinner",
  "rounds", "usesTeams", "locationRefId", "scoringSetting", "playerScores": [{"playerRefId", "score", "winner",
  "rank", "seatOrder", "startPlayer", "newPlayer"}]}; uuids written in upper case.
- theiam79/BGStats.Bot, src/BGStats.Bot/Models/{PlayFile,Play,PlayerScore,Game,Player}.cs (reads BG Stats' files):
  the same fields, a play's "entryDate", "modificationDate", "board"; a player score's "score" is a string
  (BG Stats keeps what was typed), "role", "team", "teamRole"; "winner" one flag per player, so a shared win is
  several players flagged.
- BGG id of Spyrium, 137269: boardgamegeek.com/boardgame/137269/spyrium (linked from westpark-gamers.de's review,
  and trickylight.co.uk's session log "Spyrium ... BGG Id: 137269"). No BGG id was found for SPQF, Spires or
  Conquest of Speros: they are matched by name only and exported with bggId 0, as readers take a game on no BGG page.
- Real backups and the tools that read them (issue 20: sqrtxander/bgstats-wrapped, TalitaJames/bgStats-dataVisualiser,
  luceleaftea/end-of-year-bgstats-summary, adrianocola/bgstats-merger, gnidan/bgstats-elo-ratings): the top level
  also holds "groups", "tags" and "challenges"; player 1 is the "Anonymous player" (isAnonymous true); a game always
  has "bggId", "bggName", "minPlayTime" and "maxPlayTime", and "isBaseGame"/"isExpansion" as 0 or 1; players are
  numbered 1..n in list order (one reader finds a player at players[playerRefId - 1]); a score is the text typed,
  which may be a sum or a difference ("66-5-0-11-17", "52+18+41-3").

Our choices: a seat's colour travels as the player score's "role"; the first player (position 0) is "startPlayer"
and seats keep their order as "seatOrder" 1, 2, ...; "userInfo.meRefId" names the anonymous player, since the file is
the group's, not one member's, and that player is in every file. "durationMin" is a play's start to its finish, time
put aside included (putting a play aside is not logged, and a pause between taps is no pause of the play); "rounds"
is the round the tracker's table ended in, 0 where it counts none. A solo play is won when the game says so: in
Spires, a total the King's Appraisal does not punish (66, the greeting card, and more). Imported plays have totals
and winners but no breakdown lines: seats store their total, a rank (winners first, the others by score, equal scores
sharing a rank: 1, 1, 3) and an empty breakdown, with source "bgstats". A play's BG Stats uuid is its uid, stored as
the 32 hex digits of that UUID (the form the companion's own uids take, so our export imported back into the
database it came from adds nothing); a uuid that is no UUID is kept as it is when it fits 36 characters, else as a
stable hash of it. Plays of our games left out are each named in the summary; plays of other games only counted (a
backup holds hundreds).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from companion.data.importing import (
    DEFAULT_LIMITS,
    POINTS_MAX,
    ImportRefused,
    LeftOut,
    Limits,
    NewPlay,
    Problems,
    Summary,
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
from companion.games.wording import join_names, plain_minus, plural, utc
from companion.store.models import FINISHED, NOTES_MAX, Play, Player, Seat
from companion.store.records import TABLE

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
# A score as BG Stats keeps it (spaces and kinds of minus made plain): a whole number, or terms added and taken away
# as typed in its calculator ("3+20+5", "66-5-0-11-17"). A term of more digits is no score, and int() is spared it.
SCORE = re.compile(r"[-+]?\d{1,18}([-+]\d{1,18})*")
TERM = re.compile(r"[-+]?\d+")
# Player 1 of every BG Stats file, the anonymous player.
ANONYMOUS_REF = 1
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


def export_json(session: Session, zone: tzinfo | None = None) -> bytes:
    """The BG Stats backup as a UTF-8 JSON file (names in every alphabet written as they are)."""
    return json.dumps(export_backup(session, zone), ensure_ascii=False).encode()


def export_backup(session: Session, zone: tzinfo | None = None) -> dict[str, Any]:
    """The finished plays (not deleted) as a BG Stats backup, every list its files have, dates in that zone."""
    games = list(GAMES.values())
    game_ref = {game.id: index + 1 for index, game in enumerate(games)}
    plays = [play for play in exported_plays(session, (FINISHED,)) if play.game in game_ref]
    players: dict[int, Player] = {}
    for play in plays:
        for seat in play.seats:
            players.setdefault(seat.player_id, seat.player)
    roster = sorted(players.items(), key=lambda item: item[1].key)
    player_ref = {player_id: ref for ref, (player_id, _) in enumerate(roster, start=ANONYMOUS_REF + 1)}
    return {
        "groups": [],
        "userInfo": {"meRefId": ANONYMOUS_REF},
        "players": [
            {"id": ANONYMOUS_REF, "uuid": bg_uuid("anonymous"), "name": "Anonymous player", "isAnonymous": True},
            *(
                {
                    "id": player_ref[player_id],
                    "uuid": bg_uuid(f"player:{player.key}"),
                    "name": player.name,
                    "isAnonymous": False,
                    "modificationDate": local_text(player.created_at, zone),
                }
                for player_id, player in roster
            ),
        ],
        "locations": [],
        "games": [_bg_game(game, game_ref[game.id]) for game in games],
        "plays": [_play(play, game_ref[play.game], player_ref, zone) for play in plays],
        "tags": [],
        "challenges": [],
    }


def _bg_game(game: Game, ref: int) -> dict[str, Any]:
    """One of our games as a BG Stats game (BGG id 0 where none is known; no playing time known: 0)."""
    return {
        "id": ref,
        "uuid": bg_uuid(f"game:{game.id}"),
        "name": game.name,
        "bggId": BGG_IDS.get(game.id, 0),
        "bggName": game.name,
        "highestWins": True,
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


def _play(play: Play, game_ref: int, player_ref: dict[int, int], zone: tzinfo | None) -> dict[str, Any]:
    """One finished play as a BG Stats play."""
    return {
        "uuid": bg_uuid(play.uid),
        "gameRefId": game_ref,
        "playDate": local_text(play.played_at, zone),
        "entryDate": local_text(play.created_at, zone),
        "modificationDate": local_text(play.finished_at or play.played_at, zone),
        "durationMin": duration_min(play),
        "ignored": False,
        "manualWinner": False,
        "usesTeams": False,
        "rounds": rounds(play),
        "board": "",
        "scoringSetting": 0,
        "comments": play.notes,
        "playerScores": [
            {
                "playerRefId": player_ref[seat.player_id],
                "score": str(seat.total),
                "winner": won(play, seat),
                "rank": seat.rank or 0,
                "seatOrder": seat.position + 1,
                "startPlayer": seat.position == 0,
                "newPlayer": False,
                "role": seat.colour,
            }
            for seat in play.seats
        ],
    }


def duration_min(play: Play) -> int:
    """The minutes from a play's start to its finish: a tracked play's time at the table, 0 for one scored at the end
    (started and finished in one request) or imported (one moment)."""
    if play.finished_at is None:
        return 0
    return max(0, round((utc(play.finished_at) - utc(play.created_at)).total_seconds() / 60))


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
    the only one of ours played solo)."""
    if len(play.seats) > 1:
        return seat.rank == 1
    return play.game == "spires" and seat.total is not None and spires.solo_won(seat.total)


# The backup's shape -------------------------------------------------------------------------------------------


class Loose(BaseModel):
    """BG Stats writes many more fields than we read: those are let be; the ones we read must have their type."""

    model_config = ConfigDict(extra="ignore")


class BgPlayer(Loose):
    """A player of the backup."""

    id: int
    name: str = Field(min_length=1)


class BgGame(Loose):
    """A game of the backup."""

    id: int
    name: str = ""
    bggName: str | None = None
    bggId: int | None = None


class BgScore(Loose):
    """A player's line of a play."""

    playerRefId: int
    score: str | int | float | None = None
    winner: bool = False
    startPlayer: bool = False
    seatOrder: int = 0
    role: str | None = None
    # 0 when the play left ranks to the scores; our own export writes the rank a tie-break decided.
    rank: int = 0


class BgPlay(Loose):
    """A play of the backup."""

    uuid: str = Field(min_length=1)
    gameRefId: int
    playDate: str
    ignored: bool = False
    comments: str | None = ""
    playerScores: list[BgScore]


class BgBackup(Loose):
    """A BG Stats backup: the lists we read (built by validate_backup from its entries, each validated alone)."""

    players: list[BgPlayer]
    games: list[BgGame]
    plays: list[BgPlay]


def looks_like(data: dict[str, Any]) -> bool:
    """A BG Stats backup has these three lists at the top (and no "format" of ours)."""
    return all(isinstance(data.get(key), list) for key in ("games", "players", "plays"))


def validate_backup(data: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> BgBackup:
    """The backup checked entry by entry (types, dates, every reference resolving), or ImportRefused.

    The lists are measured first and each entry validated on its own, a play's scores counted before: a small file
    of many empty plays costs a few problems' worth of work to say, not one error per field.
    """
    if not looks_like(data):
        raise ImportRefused("This file is no BG Stats backup: it lacks its lists of games, players and plays.")
    too_many(
        data,
        (("plays", "plays", limits.plays), ("players", "players", limits.players), ("games", "games", MAX_GAMES)),
    )
    problems = Problems()
    players = validate_each(BgPlayer, data["players"], lambda index, entry: f"Player {index + 1}", problems)
    games = validate_each(BgGame, data["games"], lambda index, entry: f"Game {index + 1}", problems)
    plays = validate_each(BgPlay, data["plays"], lambda index, entry: f"Play {index + 1}", problems, _play_fits)
    if not problems:
        game_ids = {game.id for game in games}
        player_ids = {player.id for player in players}
        for index, play in enumerate(plays):
            if play.gameRefId not in game_ids:
                problems.add(f"Play {index + 1}: its game ({play.gameRefId}) is not in the file.")
            missing = [str(s.playerRefId) for s in play.playerScores if s.playerRefId not in player_ids]
            if missing:
                problems.add(f"Play {index + 1}: player {', '.join(missing)} is not in the file.")
            try:
                played_at(play.playDate)
            except (ValueError, OverflowError):
                problems.add(f"Play {index + 1}: its date {play.playDate[:40]!r} is not a date.")
    if problems:
        raise ImportRefused("This BG Stats file is damaged.", problems.lines())
    return BgBackup.model_construct(players=players, games=games, plays=plays)


def _play_fits(entry: Any) -> str | None:
    """Why a play has too many scores to be one, or None: said before its fields are validated."""
    scores = entry.get("playerScores") if isinstance(entry, dict) else None
    if isinstance(scores, list) and len(scores) > MAX_SCORES:
        return f"it has {len(scores):,} players; no play has more than {MAX_SCORES:,}"
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
    """A BG Stats play uuid as the Play.uid it becomes (see the top of this file)."""
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


def score_of(value: str | float | None) -> int | None:
    """A player's score as a whole number, or None when there is none, it is no whole number or no game's score."""
    score = _whole(value)
    return score if score is not None and abs(score) <= POINTS_MAX else None


def _whole(value: str | float | None) -> int | None:
    """The whole number a score is, if it is one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = "".join(plain_minus(value).split())
    return sum(int(term) for term in TERM.findall(text)) if SCORE.fullmatch(text) else None


def ranks(totals: list[int], winners: list[bool], given: list[int] | None = None) -> list[int]:
    """Winners first (a shared win is several), then the others by score; equal scores share a rank (1, 1, 3).

    With no winner flagged (a solo play, or one left to the scores), the highest score is first. Ranks the file
    gives are kept when they hold together (each from 1 to the number of players, first exactly where the winners
    are): a tie-break the group played by separated players of equal score.
    """
    if given and all(1 <= rank <= len(totals) for rank in given):
        firsts = [rank == 1 for rank in given]
        if firsts == winners or (not any(winners) and any(firsts)):
            return list(given)
    if not any(winners):
        best = max(totals)
        winners = [total == best for total in totals]
    return [
        1 if won else 1 + sum(1 for other, other_won in zip(totals, winners, strict=True) if other_won or other > total)
        for total, won in zip(totals, winners, strict=True)
    ]


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
        return [*said, f"And {plural(more, 'more play', 'more plays')} left out."] if more > 0 else said


def import_backup(session: Session, backup: BgBackup, zone: tzinfo | None = None) -> BgSummary:
    """Add the backup's plays of our games the database lacks, in one transaction (dates without a zone in that one,
    this machine's by default)."""
    games = {game.id: our_game(game) for game in backup.games}
    names = {player.id: player.name.strip()[:NAME_MAX] for player in backup.players}
    plays = [_our_play(play, games.get(play.gameRefId), names, zone) for play in backup.plays]
    summary = write_import(session, "BG Stats export", plays)
    named = [play for play in plays if isinstance(play, Named)]
    # A play left out that the database has anyway (from our own export, say) was counted as already there.
    present = existing_uids(session, [play.uid for play in named if play.uid is not None])
    return BgSummary(**vars(summary), named=[play.said for play in named if play.uid not in present])


def _our_play(play: BgPlay, game: Game | None, names: dict[int, str], zone: tzinfo | None) -> NewPlay | LeftOut:
    """A play of the backup as the play it adds, or why it is left out (a play of another game whatever the database
    holds, the others only when it lacks them)."""
    if game is None:
        return LeftOut("of other games")
    uid = play_uid(play.uuid)
    scores = in_turn_order(play.playerScores)
    totals = [total for score in scores if (total := score_of(score.score)) is not None]
    seated = [names[score.playerRefId] for score in scores]
    options = _options(game, len(scores)) if scores else None
    why = _why_left_out(play, seated, len(totals), options)
    if why is not None:
        who = join_names(seated[:MAX_NAMES] + [f"{len(seated) - MAX_NAMES:,} more"] * (len(seated) > MAX_NAMES))
        return Named(why, uid, f"{play.playDate.strip()[:16]}, {game.name}, {who or 'no players'}: left out, {why}.")
    when = played_at(play.playDate, zone)
    ranked = ranks(totals, [score.winner for score in scores], [score.rank for score in scores])
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
            name,
        )
        for position, (name, score, total, rank) in enumerate(zip(seated, scores, totals, ranked, strict=True))
    ]
    return new_play(
        seats,
        uid=uid,
        game=game.id,
        status=FINISHED,
        options=options,
        rules_version=RULES_VERSION,
        source=SOURCE,
        created_at=when,
        played_at=when,
        finished_at=when,
        notes=(play.comments or "")[:NOTES_MAX],
    )


def in_turn_order(scores: list[BgScore]) -> list[BgScore]:
    """A play's scores in turn order: by seat order (ties as listed), from the start player on."""
    seated = sorted(scores, key=lambda score: score.seatOrder)
    start = next((i for i, score in enumerate(seated) if score.startPlayer), 0)
    return seated[start:] + seated[:start]


def _why_left_out(play: BgPlay, seated: list[str], scored: int, options: dict[str, Any] | None) -> str | None:
    """Why a play of one of our games is left out (its players' names, how many have a whole-number score), or None."""
    reasons = (
        (play.ignored, "marked 'ignored' in BG Stats"),
        (not seated or scored < len(seated), "without a whole-number score for every player"),
        (options is None, "with a number of players the game is not for"),
        (len({name_key(name) for name in seated}) != len(seated) or not all(seated), "with the same player twice"),
    )
    return next((why for refused, why in reasons if refused), None)
