"""The SVG charts: well-formed, named for a screen reader, every value written as text, labels escaped, colours
from currentColor only, negative values left of zero."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from markupsafe import Markup

from companion.stats.charts import Bar, BarGroup, ChartColumn, Point, bar_chart, histogram_chart, line_chart

SVG = "{http://www.w3.org/2000/svg}"


def parsed(markup: Markup) -> ET.Element:
    """The chart as XML (it must be well-formed to parse)."""
    assert isinstance(markup, Markup)
    return ET.fromstring(str(markup))


def texts(svg: ET.Element) -> list[str]:
    """Every <text> of the chart, in order."""
    return [node.text or "" for node in svg.iter(f"{SVG}text")]


def no_fixed_colours(markup: Markup) -> None:
    """No colour but currentColor and opacities: the page's theme (or print) decides."""
    assert not re.search(r"#[0-9a-fA-F]{3,6}\b|rgb\(|\bstyle=", str(markup))
    for value in re.findall(r'(?:fill|stroke)="([^"]+)"', str(markup)):
        assert value in ("currentColor", "none"), value


def test_bar_chart_names_and_values() -> None:
    chart = bar_chart(
        "wins",
        "Win rate per game",
        [BarGroup("SPQF", (Bar(0.5, "2 of 4 (50%)"),)), BarGroup("Spires", (Bar(1.0, "1 of 1 (100%)", strong=True),))],
    )
    svg = parsed(chart)
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "wins-title wins-desc"
    assert svg.find(f"{SVG}title").text == "Win rate per game"
    assert svg.find(f"{SVG}desc").text == "SPQF: 2 of 4 (50%). Spires: 1 of 1 (100%)."
    assert texts(svg) == ["SPQF", "2 of 4 (50%)", "Spires", "1 of 1 (100%)"]
    bars = [rect for rect in svg.iter(f"{SVG}rect") if "bar" in rect.get("class", "").split()]
    assert [rect.get("width") for rect in bars] == ["50.00%", "100.00%"]
    assert bars[1].get("class") == "bar strong"
    no_fixed_colours(chart)


def test_bar_chart_negative_values_left_of_zero() -> None:
    svg = parsed(
        bar_chart(
            "lines", "Lines", [BarGroup("Towers of 4+ cards", (Bar(-2, "−2 VP", "Winners"), Bar(6, "6 VP", "Others")))]
        )
    )
    bars = [rect for rect in svg.iter(f"{SVG}rect") if rect.get("class") == "bar"]
    # From −2 to 6: zero stands at a quarter of the width.
    assert [(rect.get("x"), rect.get("width")) for rect in bars] == [("0.00%", "25.00%"), ("25.00%", "75.00%")]
    axes = list(svg.iter(f"{SVG}line"))
    assert [axis.get("x1") for axis in axes] == ["25.00%", "25.00%"]  # one beside each bar
    assert texts(svg) == ["Towers of 4+ cards", "Winners", "−2 VP", "Others", "6 VP"]
    assert svg.find(f"{SVG}desc").text == "Towers of 4+ cards, Winners: −2 VP. Towers of 4+ cards, Others: 6 VP."


def test_labels_are_escaped_in_every_alphabet() -> None:
    name = 'Хана <b>&"Zoë"'
    chart = bar_chart("x", f"{name}'s games", [BarGroup(name, (Bar(1, "<1>"),))])
    assert "<b>" not in str(chart) and "&lt;b&gt;" in str(chart)
    svg = parsed(chart)
    assert texts(svg)[0] == name and texts(svg)[1] == "<1>"
    assert svg.find(f"{SVG}title").text == f"{name}'s games"
    line = parsed(line_chart("y", "Form", [Point(1, "<W>", f"{name} won.")]))
    assert texts(line) == ["<W>"] and line.find(f"{SVG}desc").text == f"{name} won."


def test_histogram_counts_and_edges() -> None:
    chart = histogram_chart(
        "scores",
        "Scores",
        [ChartColumn(1, "10 to 19 VP"), ChartColumn(4, "20 to 29 VP"), ChartColumn(0, "30 to 39 VP")],
        ["10", "20", "30", "40"],
    )
    svg = parsed(chart)
    assert texts(svg) == ["1", "4", "0", "10", "20", "30", "40"]
    assert svg.find(f"{SVG}desc").text == "10 to 19 VP: 1. 20 to 29 VP: 4. 30 to 39 VP: 0."
    heights = [int(rect.get("height")) for rect in svg.iter(f"{SVG}rect")]
    assert heights[1] == max(heights) and heights[2] == 0 and heights[0] == heights[1] // 4
    ticks = [node for node in svg.iter(f"{SVG}text") if node.get("class") == "tick"]
    assert [node.get("text-anchor") for node in ticks] == ["start", "middle", "middle", "end"]
    no_fixed_colours(chart)


def test_histogram_of_single_values_labels_each_column() -> None:
    svg = parsed(histogram_chart("s", "S", [ChartColumn(2, "5 VP"), ChartColumn(1, "6 VP")], ["5", "6"]))
    ticks = [node for node in svg.iter(f"{SVG}text") if node.get("class") == "tick"]
    assert [(node.text, node.get("x"), node.get("text-anchor")) for node in ticks] == [
        ("5", "25.00%", "middle"),
        ("6", "75.00%", "middle"),
    ]


def test_line_chart_points_and_edges() -> None:
    chart = line_chart(
        "form",
        "Recent form",
        [Point(1.0, "W", "Won.", strong=True), Point(0.0, "3rd", "3rd of 3."), Point(0.5, "2nd", "2nd of 3.")],
        top="Won",
        bottom="Last",
    )
    svg = parsed(chart)
    dots = list(svg.iter(f"{SVG}circle"))
    assert [dot.get("fill") for dot in dots] == ["currentColor", "none", "none"]
    assert [dot.get("class") for dot in dots] == ["dot strong", "dot", "dot"]
    ys = [float(dot.get("cy")) for dot in dots]
    assert ys[0] < ys[2] < ys[1]  # a win on top, last place at the bottom
    assert len([line for line in svg.iter(f"{SVG}line") if line.get("class") == "line"]) == 2
    assert texts(svg) == ["Won", "Last", "W", "3rd", "2nd"]
    assert svg.find(f"{SVG}desc").text == "Won. 3rd of 3. 2nd of 3."
    no_fixed_colours(chart)


def test_empty_charts_draw_nothing() -> None:
    assert histogram_chart("h", "H", [], []) == Markup("")
    assert line_chart("l", "L", []) == Markup("")
    assert bar_chart("b", "B", []) == Markup("")
