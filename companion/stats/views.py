"""Blueprint for the group's statistics: the roster (/players), a player's page (/players/<id>) and a game's page
(/games/<id>), with charts drawn on the server as SVG (companion/stats/charts.py).

Each view reads its rows in two queries (companion/store/statistics.py), works the figures out in
companion/stats/figures.py, where the counting rules live (shared wins, solo plays apart), and shapes the charts here.
The figures are counted once per history version and kept (companion/store/history_version.py): a page read again before any
play is finished, corrected, deleted, restored or imported reads only the roster's names (the charts and the days
they name are kept with the figures: drawn from them, they move with them; the charts once per language, their words
being the reader's).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TypeVar

from flask import Blueprint, Response, abort, current_app, make_response, render_template
from markupsafe import Markup

from companion.config import time_zone
from companion.games import GAMES, game_name
from companion.games.base import name_key
from companion.games.wording import MINUS, NO_FIGURE, day, decimal, duration, figure, grouped, ordinal, percent
from companion.language import _, ngettext, pgettext
from companion.stats import figures
from companion.stats.charts import (
    Bar,
    BarGroup,
    ChartColumn,
    Point,
    Series,
    bar_chart,
    histogram_chart,
    line_chart,
    race_chart,
    race_legend_line,
)
from companion.stats.ladder import Ladder, Rater, Rung, checkpoints, own_checkpoints
from companion.stats.player_records import PlayerRecords, player_records
from companion.store import history_version
from companion.store import statistics as queries
from companion.store.db import get_session
from companion.store.models import ID_IN_URL
from companion.web.i18n import current_language

bp = Blueprint("stats", __name__)
# Counts with their thousands grouped as the reader's language writes them ('1,024', '1 024', '1.024').
bp.add_app_template_filter(grouped, "grouped")
T = TypeVar("T")
# A record reached in many plays names its first holders and counts the others: a sentence, not a list.
RECORD_HOLDERS_SHOWN = 5
# The ladder's chart follows its best few players, at most this many moments of the game's history.
LADDER_LINES = 5
LADDER_MOMENTS = 120
# The app's extension holding each game's Rater (companion/stats/ladder.py).
RATERS = "ladder_raters"


def place(point: figures.FormPoint) -> str:
    """Where a player finished, short: 'Won', 'Won (shared)', '2nd of 3'."""
    if point.won:
        return _("Won (shared)") if point.shared else _("Won")
    if point.rank:
        return _("%(place)s of %(seats)s", place=ordinal(point.rank), seats=point.seats)
    return _("of %(seats)s", seats=point.seats)


def play_day(when: datetime | None) -> str:
    """A play's day as the pages write it ('2 Nov 2026'); 'a play' when it went while the page was read."""
    return day(when) if when is not None else _("a play")


def vp(total: int | None) -> str:
    """A score as the pages write it ('25 VP'); 'no score' for a seat imported with its winner only."""
    return _("no score") if total is None else _("%(points)s VP", points=figure(total))


def spent(minutes: int | None) -> str:
    """Time at the table as the pages write it ('1 h 5 min'); '–' when no time is known, never '0 min'."""
    return NO_FIGURE if minutes is None else duration(minutes)


def time_note(time: figures.TimePlayed) -> str:
    """What a time played is over: 'average 1 h 3 min over 2 plays', and how many plays had no time; '' when none
    had one."""
    if time.average is None:
        return ""
    note = ngettext(
        "average %(time)s over %(count)s play",
        "average %(time)s over %(count)s plays",
        time.timed,
        time=duration(time.average),
        count=grouped(time.timed),
    )
    if time.untimed:
        left = ngettext(
            "%(count)s without a time left out",
            "%(count)s without a time left out",
            time.untimed,
            count=grouped(time.untimed),
        )
        note = _("%(note)s; %(left)s", note=note, left=left)
    return note


def rating(value: float) -> str:
    """A rating as the ladder says it, to one decimal ('12.3', French and German '12,3'), its minus the hyphen."""
    return decimal(value).replace(MINUS, "-")


def by_name(name: str) -> tuple[str, str]:
    """A sort key that files a name by its letters as a reader expects: 'Élodie' beside 'Elena', not after 'Zoë'."""
    key = name_key(name)
    bare = "".join(c for c in unicodedata.normalize("NFKD", key) if not unicodedata.combining(c))
    return bare, key


def won_of(wins: int, plays: int, win_rate: float | None) -> str:
    """Wins of plays and the rate, as a bar says it: '2 of 4 (50%)'."""
    return _("%(wins)s of %(plays)s (%(rate)s)", wins=wins, plays=plays, rate=percent(win_rate))


def player_charts(stats: figures.PlayerStats, dates: Mapping[int, datetime]) -> dict[str, Markup]:
    """The player page's charts: win rate per game and recent form."""
    charts: dict[str, Markup] = {}
    if stats.games:
        charts["games"] = bar_chart(
            "chart-games",
            _("Win rate per game"),
            [
                BarGroup(
                    game_name(record.game),
                    (Bar(record.win_rate or 0.0, won_of(record.wins, record.plays, record.win_rate)),),
                )
                for record in stats.games
            ],
        )
    if stats.form:
        charts["form"] = line_chart(
            "chart-form",
            # The English says "plays" for one too, as it always has; the translations say each form.
            ngettext(
                "Recent form: the last %(num)s plays, oldest first",
                "Recent form: the last %(num)s plays, oldest first",
                len(stats.form),
            ),
            [
                Point(
                    point.beaten,
                    pgettext("won, one letter", "W") if point.won else ordinal(point.rank) if point.rank else "?",
                    _(
                        "%(day)s, %(game)s: %(place)s, %(score)s.",
                        day=play_day(dates.get(point.play_id)),
                        game=game_name(point.game),
                        place=place(point),
                        score=vp(point.total),
                    ),
                    strong=point.won,
                )
                for point in stats.form
            ],
            top=_("Won"),
            bottom=pgettext("the last place", "Last"),
        )
    return charts


def game_charts(stats: figures.GameStats) -> dict[str, Markup]:
    """The game page's charts: score distribution, wins by seat, the breakdown lines of winners and the others."""
    charts: dict[str, Markup] = {}
    if stats.distribution:
        single = all(b.low == b.high for b in stats.distribution)
        edges = (
            [str(b.low) for b in stats.distribution]
            if single
            else [*(str(b.low) for b in stats.distribution), str(stats.distribution[-1].high + 1)]
        )
        charts["distribution"] = histogram_chart(
            "chart-distribution",
            _("How many scores fell in each range"),
            [
                ChartColumn(
                    b.count,
                    _("%(points)s VP", points=figure(b.low))
                    if single
                    else _("%(low)s to %(high)s VP", low=figure(b.low), high=figure(b.high)),
                )
                for b in stats.distribution
            ],
            [figure(int(edge)) for edge in edges],
        )
    if stats.positions:
        charts["positions"] = bar_chart(
            "chart-positions",
            _("Win rate by seat in turn order"),
            [
                BarGroup(
                    _("%(place)s player", place=ordinal(seat.position + 1)),
                    (Bar(seat.win_rate or 0.0, won_of(seat.wins, seat.plays, seat.win_rate)),),
                )
                for seat in stats.positions
            ],
        )
    if stats.lines:
        deciding = stats.deciding
        charts["lines"] = bar_chart(
            "chart-lines",
            _("Average points per scoring line: winners and the other players"),
            [
                BarGroup(
                    _(line.label),
                    tuple(
                        Bar(value, _("%(points)s VP", points=decimal(value)), label, strong=won and line is deciding)
                        for won, label, value in ((True, _("Winners"), line.winners), (False, _("Others"), line.others))
                        if value is not None
                    )
                    or (Bar(line.average, _("%(points)s VP", points=decimal(line.average)), _("Everyone")),),
                )
                for line in stats.lines
            ],
        )
    return charts


def game_ladder(game_id: str, plays: Sequence[queries.PlayRows] | None = None) -> Ladder:
    """The game's ladder, rated once per history version (the game's page and the API's ladder read it) by this
    server's rater of the game, which rates again only from where the history changed; from `plays` when the
    caller has just read the game's rows, else read here."""
    session = get_session()
    raters = current_app.extensions.setdefault(RATERS, {})
    rater = raters.setdefault(game_id, Rater(game_id))
    return kept(
        ("ladder", game_id), lambda: rater.rate(plays if plays is not None else queries.read_game(session, game_id))
    )


def ladder_chart(rated: Ladder, names: Mapping[int, str]) -> tuple[Markup, list[tuple[Markup, str, str]]]:
    """The ratings of the ladder's best players over the game's history, and the chart's legend."""
    top = [rung.player_id for rung in rated.rungs[:LADDER_LINES]]
    lines = checkpoints(rated, top, LADDER_MOMENTS)
    series = [Series(names.get(player, _("Unknown player")), values) for player, values in zip(top, lines, strict=True)]
    chart = race_chart("chart-ladder", _("Ratings over time"), series, [])
    legend = [
        (race_legend_line(i), line.name, rating(rung.rating))
        for i, (line, rung) in enumerate(zip(series, rated.rungs, strict=False))
    ]
    return chart, legend


def player_ratings(
    player_id: int, games: Sequence[str]
) -> tuple[list[tuple[str, Rung, int]], Markup, list[tuple[Markup, str, str]]]:
    """The player's place on each game's ladder (the game, their rung, how many are on it) and their rating over
    their plays of each game (after each, or after LADDER_MOMENTS of them evenly spaced when they played more), as a
    chart with a line per game and its legend."""
    places: list[tuple[str, Rung, int]] = []
    series: list[Series] = []
    for game_id in games:
        rated = game_ladder(game_id)
        rung = next((rung for rung in rated.rungs if rung.player_id == player_id), None)
        if rung is None:
            continue
        places.append((game_id, rung, len(rated.rungs)))
        series.append(Series(game_name(game_id), own_checkpoints(rated, player_id, LADDER_MOMENTS)))
    # Each line is the player's own plays of that game, first to last: the lines share the count, not the dates.
    chart = race_chart("chart-ratings", _("Ratings over their plays of each game"), series, [])
    legend = [
        (race_legend_line(i), line.name, rating(place[1].rating))
        for i, (line, place) in enumerate(zip(series, places, strict=True))
    ]
    return places, chart, legend


def kept(key: tuple[object, ...], count: Callable[[], T]) -> T:
    """The figures `count` makes, counted once per history version (read first, so they are never older)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return history_version.kept(app, get_session(), key, count)


@bp.get("/players")
def players() -> Response:
    """The roster: every player with multiplayer plays, wins and win rate, solo plays apart, each linking to a page."""
    session = get_session()
    counted = kept(("roster",), lambda: queries.read_roster_counts(session))
    lines = sorted(queries.roster_lines(queries.read_names(session), counted), key=lambda line: by_name(line.name))
    return make_response(render_template("stats/players.html", lines=lines, games=GAMES.values(), spent=spent))


@bp.get(f"/players/<{ID_IN_URL}:player_id>")
def player(player_id: int) -> Response:
    """A player's page: plays, wins, win rate, time played, each game's average and best, head to head, recent
    form, solo."""
    session = get_session()
    names = queries.read_names(session)
    if player_id not in names:
        abort(404)

    def count() -> tuple[figures.PlayerStats, PlayerRecords, dict[int, datetime]]:
        """The player's figures and records, and the days of their recent form and streak."""
        # Years in the group's zone: a play at 23:30 on New Year's Eve there counts for the old year.
        plays = queries.read_player(session, player_id, time_zone(current_app.config))
        stats = figures.player_stats(player_id, plays)
        records = player_records(player_id, plays)
        streak = [records.streak.first_play, records.streak.last_play] if records.streak else []
        dates = queries.read_dates(session, [point.play_id for point in stats.form] + streak)
        return stats, records, dates

    stats, records, dates = kept(("player", player_id), count)
    # The charts are kept as the figures are, in each language they were read in: they are drawn from the figures
    # alone (and the days, which move with them), their words in the reader's language.
    language = current_language()
    charts = kept(("player charts", player_id, language), lambda: player_charts(stats, dates))
    # Kept as the figures are: the ladders it is drawn from move with the history's version.
    ratings, ratings_chart, ratings_legend = kept(
        ("player-ratings", player_id, language),
        lambda: player_ratings(player_id, [record.game for record in stats.games]),
    )
    versus = sorted(stats.versus, key=lambda v: (-v.plays, by_name(names.get(v.player_id, ""))))
    return make_response(
        render_template(
            "stats/player.html",
            name=names[player_id],
            names=names,
            stats=stats,
            records=records,
            ratings=ratings,
            ratings_chart=ratings_chart,
            ratings_legend=ratings_legend,
            versus=versus,
            dates=dates,
            charts=charts,
            day=play_day,
            place=place,
            game_name=game_name,
            vp=vp,
            spent=spent,
            time_note=time_note,
            rating=rating,
        )
    )


@bp.get("/games/<game_id>")
def game(game_id: str) -> Response:
    """A game's page: plays, record, average winning score, time played, score distribution, wins by seat, the
    scoring lines."""
    rules = GAMES.get(game_id)
    if rules is None:
        abort(404)
    session = get_session()
    names = queries.read_names(session)

    def count() -> tuple[figures.GameStats, dict[int, datetime]]:
        """The game's figures from every counted play and the lines summed in the database, and the days of its
        records."""
        plays = queries.read_game(session, game_id)
        stats = figures.game_stats(game_id, plays, rules.breakdown, queries.read_line_sums(session, game_id, plays))
        # The ladder is rated from the same rows, so that the first reader after a write reads them once.
        game_ladder(game_id, plays)
        return stats, queries.read_dates(session, stats.record_plays)

    stats, dates = kept(("game", game_id), count)
    # The charts in each language they were read in, drawn from the figures alone.
    language = current_language()
    charts = kept(("game charts", game_id, language), lambda: game_charts(stats))
    rated = game_ladder(game_id)
    chart, legend = kept(("ladder chart", game_id, language), lambda: ladder_chart(rated, names))
    return make_response(
        render_template(
            "stats/game.html",
            game=rules,
            names=names,
            stats=stats,
            dates=dates,
            charts=charts,
            ladder=rated,
            ladder_chart=chart,
            ladder_legend=legend,
            day=play_day,
            spent=spent,
            time_note=time_note,
            holders_shown=RECORD_HOLDERS_SHOWN,
            rating=rating,
        )
    )
