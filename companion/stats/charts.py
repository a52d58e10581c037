"""Charts drawn on the server as SVG: bars, a score histogram and a line of recent form (no JavaScript).

Every chart is laid out in percentages of its width with text at a fixed size (no viewBox), so the labels stay
readable on a phone instead of shrinking with the picture. Colours are `currentColor` with opacities: the chart
takes the text colour of where it stands (either theme; black in print and in a PDF, where no page CSS reaches it),
and static/css/stats.css may colour its classes from the theme's variables. Nothing is said by colour alone: every
value is also written as text beside its bar or point, and the whole chart is described in its <title> and <desc>
for a screen reader (role="img"). Every label is escaped: names come in every alphabet and may hold '<'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from babel.numbers import get_decimal_symbol
from markupsafe import Markup, escape

from companion.language import _, code, pgettext

FONT = 14
SMALL = 12
BAR = 14
# The room a line of text takes, above its bar.
TEXT_LINE = 20
# Column and line charts: the plot's height, and the room above it for the values and below it for the labels.
PLOT = 120
ABOVE = 22
BELOW = 24


@dataclass(frozen=True)
class Bar:
    """One bar: its value, the text that says it ('12 wins', '45 %'), and an optional label of its own."""

    value: float
    text: str
    label: str = ""
    strong: bool = False


@dataclass(frozen=True)
class BarGroup:
    """A labelled row of one or more bars (several: e.g. the winners' average beside everyone's)."""

    label: str
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class ChartColumn:
    """One column of a histogram: its count, the text over it, and what it counts ('40 to 49 VP')."""

    count: int
    said: str


@dataclass(frozen=True)
class Point:
    """One point of a line: a value from 0 (bottom) to 1 (top), a short label under it, and what it says in words."""

    value: float
    label: str
    said: str
    strong: bool = False


def _pct(number: float) -> str:
    """A percentage of the chart's width, as an SVG length."""
    return f"{number:.2f}%"


def _open(name: str, title: str, description: str, height: int, kind: str) -> str:
    """The <svg> element with its accessible name and description."""
    name = escape(name)
    return (
        f'<svg class="chart chart-{kind}" width="100%" height="{height}" role="img" '
        f'aria-labelledby="{name}-title {name}-desc" font-size="{FONT}" fill="currentColor" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{name}-title">{escape(title)}</title><desc id="{name}-desc">{escape(description)}</desc>'
    )


def bar_chart(name: str, title: str, groups: Sequence[BarGroup]) -> Markup:
    """Horizontal bars, one text line above each (label left, value right): negative values drawn left of zero."""
    values = [bar.value for group in groups for bar in group.bars]
    if not values:
        return Markup("")
    low, high = min([0.0, *values]), max([0.0, *values])
    span = (high - low) or 1.0
    zero = -low / span * 100
    parts: list[str] = []
    said: list[str] = []
    y = 0
    for group in groups:
        alone = len(group.bars) == 1 and not group.bars[0].label
        y += TEXT_LINE
        parts.append(f'<text class="label" x="0" y="{y - 5}" font-weight="600">{escape(group.label)}</text>')
        for bar in group.bars:
            if not alone:
                y += TEXT_LINE - 2
                parts.append(f'<text class="sublabel" x="0" y="{y - 5}" font-size="{SMALL}">{escape(bar.label)}</text>')
            parts.append(f'<text class="value" x="100%" y="{y - 5}" text-anchor="end">{escape(bar.text)}</text>')
            start = min(bar.value, 0.0) - low
            parts.append(f'<rect class="track" x="0" y="{y}" width="100%" height="{BAR}" fill-opacity="0.08"/>')
            parts.append(
                f'<rect class="bar{" strong" if bar.strong else ""}" x="{_pct(start / span * 100)}" y="{y}" '
                f'width="{_pct(abs(bar.value) / span * 100)}" height="{BAR}" '
                f'fill-opacity="{1 if bar.strong else 0.6}"/>'
            )
            if low < 0:
                # Zero marked beside each bar, not across the labels above them.
                parts.append(
                    f'<line class="axis" x1="{_pct(zero)}" x2="{_pct(zero)}" y1="{y - 3}" y2="{y + BAR + 3}" '
                    f'stroke="currentColor" stroke-width="1"/>'
                )
            said.append(
                _("%(label)s, %(part)s: %(value)s.", label=group.label, part=bar.label, value=bar.text)
                if bar.label
                else _("%(label)s: %(value)s.", label=group.label, value=bar.text)
            )
            y += BAR + 6
    return Markup(_open(name, title, " ".join(said), y + 2, "bars") + "".join(parts) + "</svg>")


def histogram_chart(name: str, title: str, columns: Sequence[ChartColumn], edges: Sequence[str]) -> Markup:
    """Columns side by side, the count over each; `edges` labels the boundaries under them (one more than columns),
    or, as many as the columns, each column's centre."""
    count = len(columns)
    if not count:
        return Markup("")
    top = max(column.count for column in columns) or 1
    width = 100 / count
    parts: list[str] = []
    base = ABOVE + PLOT
    for i, column in enumerate(columns):
        height = round(column.count / top * PLOT)
        x = i * width
        parts.append(
            f'<rect class="bar" x="{_pct(x + width * 0.08)}" y="{base - height}" width="{_pct(width * 0.84)}" '
            f'height="{height}" fill-opacity="0.6"/>'
        )
        parts.append(
            f'<text class="value" x="{_pct(x + width / 2)}" y="{base - height - 6}" text-anchor="middle" '
            f'font-size="{SMALL}">{column.count}</text>'
        )
    parts.append(f'<line class="axis" x1="0" x2="100%" y1="{base}" y2="{base}" stroke="currentColor"/>')
    centred = len(edges) == count
    for i, edge in enumerate(edges):
        if centred:
            x, anchor = i * width + width / 2, "middle"
        else:
            x = i * width
            anchor = "start" if i == 0 else "end" if i == count else "middle"
        parts.append(
            f'<text class="tick" x="{_pct(x)}" y="{base + 18}" text-anchor="{anchor}" font-size="{SMALL}">'
            f"{escape(edge)}</text>"
        )
    said = " ".join(_("%(label)s: %(value)s.", label=column.said, value=column.count) for column in columns)
    return Markup(_open(name, title, said, base + BELOW, "histogram") + "".join(parts) + "</svg>")


def line_chart(name: str, title: str, points: Sequence[Point], top: str = "", bottom: str = "") -> Markup:
    """A line through the points (oldest left), each point's label under the plot; strong points filled.

    `top` and `bottom` name the plot's edges ("won", "last") beside faint guide lines.
    """
    count = len(points)
    if not count:
        return Markup("")
    # The edges' names stand in a gutter on the left, clear of the first point.
    gutter = 14 if top or bottom else 0
    step = (100 - gutter) / count
    parts: list[str] = []
    for level, edge in ((ABOVE, top), (ABOVE + PLOT, bottom)):
        parts.append(
            f'<line class="guide" x1="{_pct(gutter)}" x2="100%" y1="{level}" y2="{level}" stroke="currentColor" '
            f'stroke-opacity="0.3" '
            f'stroke-dasharray="4 4"/>'
        )
        if edge:
            parts.append(f'<text class="tick" x="0" y="{level + 4}" font-size="{SMALL}">{escape(edge)}</text>')
    spots = [
        (gutter + i * step + step / 2, ABOVE + (1 - max(0.0, min(1.0, p.value))) * PLOT) for i, p in enumerate(points)
    ]
    for (x1, y1), (x2, y2) in pairwise(spots):
        parts.append(
            f'<line class="line" x1="{_pct(x1)}" y1="{y1:.1f}" x2="{_pct(x2)}" y2="{y2:.1f}" stroke="currentColor" '
            f'stroke-width="2"/>'
        )
    for (x, y), point in zip(spots, points, strict=True):
        fill = "currentColor" if point.strong else "none"
        parts.append(
            f'<circle class="dot{" strong" if point.strong else ""}" cx="{_pct(x)}" cy="{y:.1f}" r="6" '
            f'fill="{fill}" stroke="currentColor" stroke-width="2"/>'
        )
        parts.append(
            f'<text class="tick" x="{_pct(x)}" y="{ABOVE + PLOT + 20}" text-anchor="middle" font-size="{SMALL}">'
            f"{escape(point.label)}</text>"
        )
    said = " ".join(point.said for point in points)
    height = ABOVE + PLOT + BELOW
    return Markup(_open(name, title, said, height, "line") + "".join(parts) + "</svg>")


@dataclass(frozen=True)
class Series:
    """One player's line: a value per step (None where it can't be said), and the name it is labelled with."""

    name: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class Mark:
    """A step marked on a chart: a dot on one line (a lead taken) or, with no line, a rule across the plot."""

    step: int
    label: str
    line: int | None = None


# The lines of a race told apart by their dashes, never by colour alone (the page may colour them too).
DASHES = ("", "8 4", "2 4", "12 4 2 4", "6 2 2 2 2 2")
# The race chart's room: a gutter on the left for the scale, a little on the right for the last step's dots. The
# players' names stand in a legend beside the chart (race_legend), where a long name wraps instead of overflowing.
RACE_LEFT = 8
RACE_RIGHT = 2
RACE_PLOT = 180


def race_chart(
    name: str, title: str, series: Sequence[Series], ticks: Sequence[tuple[int, str]], marks: Sequence[Mark] = ()
) -> Markup:
    """Every player's score after each step as a stepped line (the score holds until the step that changes it),
    the steps' `ticks` labelled under the plot (a round's start), `marks` on it; race_legend names the lines."""
    steps = max((len(line.values) for line in series), default=0)
    known = [value for line in series for value in line.values if value is not None]
    if steps < 2 or not known:
        return Markup("")
    low, high = min(0, *known), max(1, *known)
    span = high - low
    width = 100 - RACE_LEFT - RACE_RIGHT

    def x(step: int) -> float:
        return RACE_LEFT + step / (steps - 1) * width

    def y(value: float) -> float:
        return ABOVE + (1 - (value - low) / span) * RACE_PLOT

    parts = [
        f'<line class="guide" x1="{_pct(RACE_LEFT)}" x2="{_pct(RACE_LEFT + width)}" y1="{y(level):.1f}" '
        f'y2="{y(level):.1f}" stroke="currentColor" stroke-opacity="0.3" stroke-dasharray="4 4"/>'
        f'<text class="tick" x="0" y="{y(level) + 4:.1f}" font-size="{SMALL}">{_said(level)}</text>'
        for level in sorted({low, high, 0})
    ]
    base = ABOVE + RACE_PLOT
    for step, label in ticks:
        parts.append(
            f'<line class="guide" x1="{_pct(x(step))}" x2="{_pct(x(step))}" y1="{ABOVE}" y2="{base + 4}" '
            f'stroke="currentColor" stroke-opacity="0.15"/>'
            f'<text class="tick" x="{_pct(x(step))}" y="{base + 18}" text-anchor="middle" font-size="{SMALL}">'
            f"{escape(label)}</text>"
        )
    for index, line in enumerate(series):
        parts.extend(_stairs(line.values, index, x, y))
    for mark in marks:
        if mark.line is None:
            parts.append(
                f'<line class="rule" x1="{_pct(x(mark.step))}" x2="{_pct(x(mark.step))}" y1="{ABOVE - 6}" '
                f'y2="{base}" stroke="currentColor" stroke-width="1.5" stroke-opacity="0.7"/>'
                f'<text class="label" x="{_pct(x(mark.step))}" y="{ABOVE - 10}" text-anchor="end" '
                f'font-size="{SMALL}">{escape(mark.label)}</text>'
            )
            continue
        value = series[mark.line].values[mark.step]
        if value is not None:
            parts.append(
                f'<circle class="dot strong race-{mark.line}" cx="{_pct(x(mark.step))}" cy="{y(value):.1f}" r="5" '
                f'fill="currentColor" stroke="currentColor"><title>{escape(mark.label)}</title></circle>'
            )
    said = " ".join(
        _(
            "%(label)s: %(value)s.",
            label=line.name,
            # Numbers with a decimal comma are listed with semicolons in French and German.
            value=pgettext("between numbers", ", ").join(
                "–" if v is None else _decimal_sign(str(v)) for v in line.values
            ),
        )
        for line in series
    )
    said += "".join(f" {mark.label}." for mark in marks)
    return Markup(_open(name, title, said, base + BELOW, "race") + "".join(parts) + "</svg>")


def _said(value: float) -> str:
    """A chart's number in words: whole numbers as they are, others to one decimal."""
    return str(int(value)) if float(value).is_integer() else _decimal_sign(f"{value:.1f}")


def _decimal_sign(number: str) -> str:
    """A number written by Python with the decimal sign of the reader's language ('12.5', French '12,5': Babel's)."""
    return number.replace(".", get_decimal_symbol(code()))


def _dashes(index: int) -> str:
    """The dash attribute of a race's line (the first one solid)."""
    dash = DASHES[index % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _stairs(
    values: Sequence[float | None], index: int, x: Callable[[int], float], y: Callable[[float], float]
) -> list[str]:
    """A line's segments: flat while its value holds, up or down at the step that changes it, a gap where unknown."""
    style = _dashes(index)
    drawn: list[str] = []
    held: tuple[int, float] | None = None  # (the step its value began at, the value)

    def segment(x1: float, y1: float, x2: float, y2: float) -> str:
        return (
            f'<line class="race race-{index}" x1="{_pct(x1)}" y1="{y1:.1f}" x2="{_pct(x2)}" y2="{y2:.1f}" '
            f'stroke="currentColor" stroke-width="2.5"{style}/>'
        )

    for step, value in enumerate(values):
        if held is not None and value != held[1]:
            drawn.append(segment(x(held[0]), y(held[1]), x(step), y(held[1])))
            if value is not None:
                drawn.append(segment(x(step), y(held[1]), x(step), y(value)))
            held = None
        if held is None and value is not None:
            held = (step, value)
    if held is not None and held[0] < len(values) - 1:
        drawn.append(segment(x(held[0]), y(held[1]), x(len(values) - 1), y(held[1])))
    return drawn


def race_legend_line(index: int) -> Markup:
    """A short sample of a race's line, as the legend shows it beside the player's name (decorative: the name says it)."""
    return Markup(
        f'<svg class="race-sample" width="32" height="10" aria-hidden="true" focusable="false" '
        f'xmlns="http://www.w3.org/2000/svg"><line class="race race-{index}" x1="0" y1="5" x2="32" y2="5" '
        f'stroke="currentColor" stroke-width="2.5"{_dashes(index)}/></svg>'
    )
