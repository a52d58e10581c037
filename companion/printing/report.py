"""The history report: the plays a history filter lets through as a PDF (plays table, player statistics, charts).

Each play's row says where and how long it was played when known, and the top the time played in all. An ignored
play (BG Stats' "ignored") is listed and marked but left out of every figure, as from the statistics pages; a guest
is one more player at the table with no line of their own; a seat imported without a score counts for plays and
wins, never for an average or a best.

WeasyPrint lays out 1,000 plays in some seconds (bench/sheets.py), too long to keep a request, and a person waiting
that long wants to see it move. So the report is made in the background (start_report: a thread with its own app
context and database session) while a small page asks every second how far it got, then offers the download.
The job is a row of the database (models.ReportJob), so whichever app server the page asks answers it: a club
with several servers behind one address needs no sticky sessions. The server making it writes the row after each
part; a row it stopped writing for HEARTBEAT_STALE_SECONDS says its server stopped.

Progress is counted in plays: the table is laid out in parts of PART_ROWS plays, each part a WeasyPrint document.
A part's last page is dropped and its plays laid out again at the start of the next part (each row's anchor says
which page it landed on), so the parts join into one PDF with every page full, and the page numbers run on.
The database keeps the newest KEEP_JOBS jobs, each for KEEP_SECONDS.

A report is written in the language of the request that asked for it, whoever follows it and whenever its thread
gets its turn: the job's row keeps that language (in its description: `fr` + LANGUAGE_MARK + the filter's
description, as the requester read it), the thread renders inside force_locale() of it, and a request in another
language for the same filter starts a report of its own rather than be shown one it can't read.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from flask import Flask, render_template
from flask_babel import force_locale
from markupsafe import Markup
from sqlalchemy import select as core_select  # typed for more columns than sqlmodel's select (4)
from sqlmodel import Session, col, delete, select, update

from companion.games import game_name
from companion.games.base import name_key
from companion.games.wording import day, duration, grouped, percent, utc
from companion.language import N_, _, ngettext
from companion.play import facts
from companion.printing.pdf import app_paper, html_to_document, pages_to_pdf
from companion.stats import figures
from companion.stats.charts import Bar, BarGroup, bar_chart
from companion.store.history_filter import HistoryFilter, count_filtered, filtered_plays
from companion.store.models import Play, ReportJob, saved_id, utcnow
from companion.store.statistics import CountedSeat, group_plays, rate
from companion.web.i18n import LANGUAGES, current_language

# The most plays one report holds (the newest ones); a narrower filter reaches the others.
REPORT_MAX_PLAYS = 5_000
# Plays laid out per part: small enough for the count to move every second or so, big enough that a part's fixed
# cost (its stylesheet, its fonts) stays small beside its rows.
PART_ROWS = 150
# Plays laid out past the part's last whole page, to find where that page ends (laid out again in the next part).
SLACK_ROWS = 4
# Players and games shown in the charts: the bars keep a readable height on the page.
CHART_BARS = 12
# The jobs the database keeps (for every server), the newest first, each for KEEP_SECONDS.
KEEP_JOBS = 8
KEEP_SECONDS = 15 * 60
# The server making a report writes its row at least this often (a part laid out, or its turn awaited); a row
# older than HEARTBEAT_STALE_SECONDS is a job whose server stopped.
HEARTBEAT_EVERY_SECONDS = 5
HEARTBEAT_STALE_SECONDS = 60
RENDERING_EXTENSION = "companion_report_rendering"
ROW_ANCHOR = "play-row-"
# Between the language a job is written in and its filter's description, in the description column.
LANGUAGE_MARK = "\x1f"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReportPlayer:
    """A player of a play in the report: name, total (None: imported without scores), and whether they won."""

    name: str
    total: int | None
    winner: bool


@dataclass(frozen=True)
class ReportRow:
    """One play in the report's table; `index` numbers the rows of the report (the row's anchor). `where` is the
    place and the time at the table as far as known ("Anna's flat · 1 h 25 min"), `minutes` that time (None:
    unknown); an ignored play is listed, marked, and left out of every figure."""

    index: int
    day: str
    game: str
    players: tuple[ReportPlayer, ...]
    winners: str
    solo: bool
    where: str = ""
    minutes: int | None = None
    ignored: bool = False


@dataclass(frozen=True)
class PlayerLine:
    """A player's figures over the report's plays: multiplayer plays and wins (a shared win counts for each
    winner), win rate, average and best multiplayer total; solo plays apart."""

    name: str
    plays: int
    wins: int
    average: float | None
    best: int | None
    solo: int

    @property
    def win_rate(self) -> float | None:
        """Wins per multiplayer play."""
        return rate(self.wins, self.plays)


def where_and_how_long(play: Play) -> str:
    """The place and the time at the table in one cell, each only when known: "Anna's flat · 1 h 25 min", ''."""
    # Unbroken: a narrow column wraps between the facts, never inside "1 h 25 min".
    return " · ".join(fact.replace(" ", "\u00a0") for fact in facts.where_and_how_long(play))


def report_rows(plays: Sequence[Play]) -> list[ReportRow]:
    """The plays as table rows, in the order given: players by rank (then turn order) with totals, winners named,
    where and how long."""
    rows = []
    for index, play in enumerate(plays):
        seats = sorted(play.seats, key=lambda seat: (seat.rank or len(play.seats) + 1, seat.position))
        solo = len(seats) == 1
        players = tuple(ReportPlayer(seat.name, seat.total, seat.rank == 1 and not solo) for seat in seats)
        winners = ", ".join(player.name for player in players if player.winner)
        rows.append(
            ReportRow(
                index,
                day(play.played_at),
                game_name(play.game),
                players,
                winners,
                solo,
                where_and_how_long(play),
                play.duration_min,
                play.ignored,
            )
        )
    return rows


def time_played(rows: Sequence[ReportRow]) -> tuple[int | None, int]:
    """The minutes at the table over the rows not ignored whose time is known (None: none known, not 0), and how
    many plays that adds up."""
    known = [row.minutes for row in rows if row.minutes is not None and not row.ignored]
    return (sum(known) if known else None), len(known)


def player_lines(plays: Sequence[Play]) -> list[PlayerLine]:
    """Every player of these plays, counted by the statistics pages' rules (figures.roster_lines: rank 1 a win,
    a shared victory a win for each winner, a play of one seat solo and apart; an ignored play left out; a guest
    one more player at the table, with no line), with their average and best multiplayer total (over the seats
    with a score: one imported with its winner only counts for plays and wins). Most wins first, then best win
    rate, then name."""
    counted_plays = [play for play in plays if not play.ignored]
    counted = group_plays(
        CountedSeat(saved_id(play), play.game, seat.player_id, seat.position, seat.total, seat.rank)
        for play in counted_plays
        for seat in play.seats
    )
    names = {
        seat.player_id: seat.player.name if seat.player else seat.name
        for play in counted_plays
        for seat in play.seats
        if seat.player_id is not None
    }
    totals: dict[int, list[int]] = defaultdict(list)
    for play in counted:
        for seat in () if play.solo else play.seats:
            if seat.player_id is not None and seat.total is not None:
                totals[seat.player_id].append(seat.total)
    lines = [
        PlayerLine(
            line.name,
            line.plays,
            line.wins,
            figures.mean(totals[line.player_id]),
            max(totals[line.player_id], default=None),
            line.solo,
        )
        for line in figures.roster_lines(counted, names)
    ]
    lines.sort(key=lambda line: (-line.wins, -(line.win_rate or 0), name_key(line.name)))
    return lines


def game_counts(plays: Sequence[Play]) -> list[tuple[str, int]]:
    """Plays per game (by the game's name), most played first; ignored plays left out, as from every figure."""
    counts: dict[str, int] = {}
    for play in plays:
        if play.ignored:
            continue
        name = game_name(play.game)
        counts[name] = counts.get(name, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def report_charts(players: Sequence[PlayerLine], games: Sequence[tuple[str, int]]) -> dict[str, Markup]:
    """The report's SVG charts by caption: wins per player, plays per game (charts.py, black in print)."""
    charts: dict[str, Markup] = {}
    ranked = [line for line in players if line.plays][:CHART_BARS]
    if ranked:
        wins = _("Wins per player")
        charts[wins] = bar_chart(
            "report-wins",
            wins,
            [
                BarGroup(
                    line.name,
                    (
                        Bar(
                            line.wins,
                            _(
                                "%(wins)s of %(plays)s (%(rate)s)",
                                wins=grouped(line.wins),
                                plays=grouped(line.plays),
                                rate=percent(line.win_rate),
                            ),
                        ),
                    ),
                )
                for line in ranked
            ],
        )
    if games:
        per_game = _("Plays per game")
        charts[per_game] = bar_chart(
            "report-games",
            per_game,
            [
                BarGroup(name, (Bar(count, ngettext("%(num)s play", "%(num)s plays", count, num=grouped(count))),))
                for name, count in games
            ],
        )
    return charts


# What a job's row says when the server making it stopped (restarted, killed) before it was done: kept in English
# in the row, translated where the progress page shows it.
STOPPED = N_("The server making this report stopped before it was done. Make it again from the history.")
FAILED = N_("The report could not be made. Try again; if it fails again, narrow the filter.")


def stored_description(language: str, description: str) -> str:
    """What a job's description column holds: the language it is written in, then the filter's description."""
    return f"{language}{LANGUAGE_MARK}{description}"


def read_description(stored: str) -> tuple[str | None, str]:
    """The language and the filter's description a job's description column holds (None: a row that says no
    language, written before jobs kept one)."""
    language, mark, description = stored.partition(LANGUAGE_MARK)
    return (language, description) if mark and language in LANGUAGES else (None, stored)


@dataclass(frozen=True)
class JobState:
    """A report job as its progress page shows it (its row without the PDF): how far it got, then whether the PDF
    is ready or what went wrong."""

    id: str
    description: str
    total: int | None
    matched: int
    done: int
    ready: bool
    error: str | None

    @property
    def finished(self) -> bool:
        """True once the PDF is made or the report failed."""
        return self.ready or self.error is not None


class JobGone(Exception):
    """The job's row is no longer there (purged while it was made): nobody can fetch it, so it is not made."""


def job_state(session: Session, job_id: str) -> JobState | None:
    """The job with this id as its progress page shows it (the PDF not read), unless it is unknown or expired; a
    job whose server stopped beating says so."""
    row = (
        session.connection()
        .execute(
            core_select(
                col(ReportJob.description),
                col(ReportJob.total),
                col(ReportJob.matched),
                col(ReportJob.done),
                col(ReportJob.pdf).is_not(None),
                col(ReportJob.error),
                col(ReportJob.started_at),
                col(ReportJob.heartbeat_at),
            ).where(col(ReportJob.id) == job_id)
        )
        .first()
    )
    if row is None:
        return None
    stored, total, matched, done, ready, error, started_at, heartbeat_at = row
    description = read_description(stored)[1]
    now = utcnow()
    if (now - utc(started_at)).total_seconds() > KEEP_SECONDS:
        return None
    if not ready and error is None and (now - utc(heartbeat_at)).total_seconds() > HEARTBEAT_STALE_SECONDS:
        error = STOPPED
    return JobState(job_id, description, total, matched, done, bool(ready), error)


def job_pdf(session: Session, job_id: str) -> bytes | None:
    """A finished job's PDF (None while it is made, or when there is none)."""
    return session.exec(select(ReportJob.pdf).where(col(ReportJob.id) == job_id)).first()


def purge_jobs(session: Session) -> None:
    """Forget the jobs started more than KEEP_SECONDS ago, and all but the newest KEEP_JOBS."""
    cutoff = utcnow() - timedelta(seconds=KEEP_SECONDS)
    session.exec(delete(ReportJob).where(col(ReportJob.started_at) < cutoff))
    newest = select(ReportJob.id).order_by(col(ReportJob.started_at).desc()).limit(KEEP_JOBS)
    kept = list(session.exec(newest).all())
    session.exec(delete(ReportJob).where(col(ReportJob.id).not_in(kept)))


def start_report(app: Flask, session: Session, flt: HistoryFilter) -> JobState:
    """Start making the report of the plays the filter lets through, in a background thread of this server; its
    row in the database says how far it got, to whichever server is asked. A job still being made for the same
    filter in the same language (a second tap, a reload, another device) is shown rather than started once more.

    The report is written in the language of this request: the job's row keeps it, for the thread to render in."""
    purge_jobs(session)
    description = flt.describe()
    stored = stored_description(current_language(), description)
    running = session.exec(
        select(ReportJob.id)
        .where(col(ReportJob.description) == stored, col(ReportJob.pdf).is_(None), col(ReportJob.error).is_(None))
        .order_by(col(ReportJob.started_at).desc())
    ).all()
    for job_id in running:
        state = job_state(session, job_id)
        if state is not None and not state.finished:
            session.commit()
            return state
    job = ReportJob(id=uuid.uuid4().hex, description=stored)
    session.add(job)
    session.commit()
    thread = threading.Thread(target=_make_report, args=(app, job.id, flt), name=f"report-{job.id[:8]}", daemon=True)
    thread.start()
    return JobState(job.id, description, None, 0, 0, ready=False, error=None)


def _record(app: Flask, job_id: str, **values: Any) -> None:
    """Write how far the job got (and that its server is still at it) in a short transaction of its own; JobGone
    when its row was purged."""
    with Session(app.extensions["db_engine"]) as session:
        result = session.exec(
            update(ReportJob).where(col(ReportJob.id) == job_id).values(heartbeat_at=utcnow(), **values)
        )
        session.commit()
    if result.rowcount == 0:
        raise JobGone(job_id)


def rendering_lock(app: Flask) -> threading.Lock:
    """This server's turn to render: the machine may have 2 cores and a table to serve, so its reports take turns."""
    return cast(threading.Lock, app.extensions.setdefault(RENDERING_EXTENSION, threading.Lock()))


def job_language(app: Flask, job_id: str) -> str | None:
    """The language the job is to be written in (the request's that started it; None: its row says none); JobGone
    when its row is no longer there."""
    with Session(app.extensions["db_engine"]) as session:
        stored = session.exec(select(ReportJob.description).where(col(ReportJob.id) == job_id)).first()
    if stored is None:
        raise JobGone(job_id)
    return read_description(stored)[0]


def _make_report(app: Flask, job_id: str, flt: HistoryFilter) -> None:
    """Read the plays in a session of its own, then lay the report out part by part (the thread's body), in the
    language the job was asked in: every word, day and figure of the report, its filter's description too."""
    with app.app_context():
        try:
            language = job_language(app, job_id)
            with force_locale(language) if language else contextlib.nullcontext():
                _make_report_in_language(app, job_id, flt)
        except JobGone:
            log.info("The history report %s was forgotten before it was made", job_id, extra={"job": "report"})
        except Exception:
            log.exception("The history report %s failed", job_id)
            with contextlib.suppress(Exception):  # the database itself may be what failed: the row then goes stale
                _record(app, job_id, error=FAILED)


def _make_report_in_language(app: Flask, job_id: str, flt: HistoryFilter) -> None:
    """The report's making itself, in the app context and the language _make_report set."""
    with Session(app.extensions["db_engine"]) as session:
        matched = count_filtered(session, flt)
        total = min(matched, REPORT_MAX_PLAYS)
        _record(app, job_id, matched=matched, total=total)
        plays = filtered_plays(session, flt, limit=REPORT_MAX_PLAYS)
        rows = report_rows(plays)
        players = player_lines(plays)
        games = game_counts(plays)
    lock = rendering_lock(app)
    # Waiting its turn, the job still beats: another server reading its row knows this one is alive.
    while not lock.acquire(timeout=HEARTBEAT_EVERY_SECONDS):
        _record(app, job_id)
    try:
        _record(app, job_id)
        job = JobState(job_id, flt.describe(), total, matched, 0, ready=False, error=None)
        started = time.perf_counter()
        pdf = render_report(job, rows, players, games, lambda done: _record(app, job_id, done=done))
        _record(app, job_id, pdf=pdf, done=total)
    finally:
        lock.release()
    log.info(
        "The history report %s is made: %d plays, %.0f ms",
        job_id,
        total,
        (time.perf_counter() - started) * 1000,
        extra={"job": "report"},
    )


def render_report(
    job: JobState,
    rows: Sequence[ReportRow],
    players: Sequence[PlayerLine],
    games: Sequence[tuple[str, int]],
    progress: Callable[[int], None],
) -> bytes:
    """The report's PDF: the summary (statistics and charts), then the plays table part by part, joined.

    `progress` is told how many plays are laid out after each part.
    """
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    minutes, timed = time_played(rows)
    context: dict[str, Any] = {
        "paper": app_paper(),
        "job": job,
        "made": day(utcnow()),
        "count": len(rows),
        "first_day": rows[-1].day if rows else "",
        "last_day": rows[0].day if rows else "",
        "time_played": None if minutes is None else duration(minutes),
        "timed": timed,
        "ignored": sum(row.ignored for row in rows),
    }
    summary = html_to_document(
        render_template(
            "printing/report.html", part="summary", players=players, charts=report_charts(players, games), **context
        ),
        fonts,
    )
    documents, pages = [summary], list(summary.pages)
    start, size = 0, PART_ROWS
    while start < len(rows):
        end = min(start + size, len(rows))
        html = render_template(
            "printing/report.html",
            part="plays",
            rows=rows[start:end],
            first_page=len(pages) + 1,
            last=end == len(rows),
            **context,
        )
        document = html_to_document(html, fonts)
        laid_out = list(document.pages)
        if end < len(rows) and len(laid_out) > 1:
            # The last page may be part-filled: its plays start the next part instead, so no page is left short.
            on_last = [
                int(name.removeprefix(ROW_ANCHOR)) for name in laid_out[-1].anchors if name.startswith(ROW_ANCHOR)
            ]
            if on_last and min(on_last) > start:
                laid_out.pop()
                end = min(on_last)
                # The next part: as many whole pages as this one kept, and a few plays more to find the page's end
                # (laying out again only those few rather than most of a page).
                per_page = (end - start) / len(laid_out)
                size = max(PART_ROWS // 4, round(per_page * len(laid_out)) + SLACK_ROWS)
        documents.append(document)
        pages += laid_out
        start = end
        progress(start)
    return pages_to_pdf(documents, pages)
