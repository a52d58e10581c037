"""The story of a play as the result page and the score sheet show it: the score race chart, who took the lead
when, where the end began, and each player's turn times, in words beside the chart (play/_story.html)."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from companion.games.wording import join_names
from companion.language import N_, _, ngettext, pgettext
from companion.play.story import Step, Story
from companion.stats.charts import Mark, Series, race_chart, race_legend_line
from companion.web.i18n import current_language

CHART_TITLE = N_("Score over time")
# At most this many round labels under the chart: a long game labels every second round, or every third, ...
ROUND_LABELS = 8
# Up to this many changes of the lead are told one by one; more, and only how many and the last.
LEADS_TOLD = 4


@dataclass(frozen=True)
class StoryRow:
    """One line of the table under the chart: the step, what happened, every player's score after it."""

    number: str
    said: str
    totals: tuple[str, ...]
    marked: str


@dataclass(frozen=True)
class StoryView:
    """What the template draws of a story."""

    chart: Markup
    sentences: tuple[str, ...]
    rows: tuple[StoryRow, ...]
    names: tuple[str, ...]
    turn_rows: tuple[tuple[str, str, str, str], ...]
    # Each line's sample, the player's name and last score, highest first.
    legend: tuple[tuple[Markup, str, str], ...]


def story_view(story: Story) -> StoryView:
    """The chart, the sentences and the tables of a story."""
    steps = story.steps
    series = [Series(name, tuple(step.totals[i] for step in steps)) for i, name in enumerate(story.names)]
    chart = race_chart("story-chart", _(CHART_TITLE), series, _ticks(story), _marks(story))
    rows = tuple(
        StoryRow(
            _number(step),
            step.said,
            tuple("–" if total is None else str(total) for total in step.totals),
            _step_marks(story, step),
        )
        for step in steps
    )
    turn_rows = tuple(
        (times.name, str(times.turns), seconds_text(times.average_seconds), seconds_text(times.longest_seconds))
        for times in story.turn_times
    )
    last = steps[-1].totals
    order = sorted(range(len(story.names)), key=lambda i: (last[i] is None, -(last[i] or 0), i))
    legend = tuple((race_legend_line(i), story.names[i], "–" if last[i] is None else str(last[i])) for i in order)
    return StoryView(chart, tuple(_sentences(story)), rows, story.names, turn_rows, legend)


def _number(step: Step) -> str:
    """The step as the table numbers it: the log's number of its action; the start and the result by name."""
    if step.seq == 0:
        return pgettext("story", "Start")
    return pgettext("story", "End") if step.seq == -1 else str(step.seq)


def _where(story: Story, step: Step) -> str:
    """Where a step lies, in words: "action 12 (round 3)"."""
    if not step.round:
        return _("action %(seq)s", seq=step.seq)
    return _(
        "action %(seq)s (%(round_name)s %(round)s)", seq=step.seq, round_name=_in_sentence(story), round=step.round
    )


def _in_sentence(story: Story) -> str:
    """The game's name of a round inside a sentence, in the reader's language: "round", "tour"; German writes its
    nouns capitalised ("Runde")."""
    name = _(story.round_name)
    return name if current_language() == "de" else name.lower()


def _leaders(story: Story, step: Step) -> str:
    """The names of a step's leaders."""
    return join_names([story.names[i] for i in step.leaders])


def _step_marks(story: Story, step: Step) -> str:
    """What a step of the table is marked with: the lead taken, the end begun."""
    said = []
    if step.lead_change:
        names = _leaders(story, step)
        said.append(_("%(names)s lead", names=names) if len(step.leaders) == 1 else _("%(names)s level", names=names))
    if step.end_begins:
        said.append(_("The end begins"))
    return "; ".join(said)


def _sentences(story: Story) -> list[str]:
    """The chart in words: who led, each change of the lead (the last one alone when there were many), where the
    end began, and a replay that had to stop."""
    said = []
    taken = [step for step in story.actions if step.lead_change and len(step.leaders) == 1]
    if not taken and story.actions and len(story.actions[-1].leaders) == 1:
        said.append(_("%(names)s led from start to finish.", names=_leaders(story, story.actions[-1])))
    elif len(taken) > LEADS_TOLD:
        said.append(
            ngettext("The lead changed hands %(num)s time.", "The lead changed hands %(num)s times.", len(taken))
        )
        step = taken[-1]
        said.append(
            _(
                "%(names)s took the lead for good at %(where)s: %(action)s.",
                names=_leaders(story, step),
                where=_where(story, step),
                action=step.said,
            )
        )
    else:
        said.extend(
            _(
                "%(names)s took the lead at %(where)s: %(action)s.",
                names=_leaders(story, step),
                where=_where(story, step),
                action=step.said,
            )
            for step in taken
        )
    ended = next((step for step in story.actions if step.end_begins), None)
    if ended is not None:
        said.append(_("The end began at %(where)s: %(why)s", where=_where(story, ended), why=ended.end_begins))
    if not story.complete:
        said.append(_("The rest of the log could not be replayed under today's rules: the chart stops there."))
    if story.corrected:
        said.append(_("The play was corrected after the game: its final scores are the corrected ones."))
    return said


def _ticks(story: Story) -> list[tuple[int, str]]:
    """The steps where a new round began, labelled; none for a game without rounds or of one round only."""
    starts = [
        (index, step.round)
        for index, step in enumerate(story.steps)
        if step.round and (index == 0 or step.round != story.steps[index - 1].round)
    ]
    if len(starts) < 2:
        return []
    every = -(-len(starts) // ROUND_LABELS)
    letter = _(story.round_name)[0]
    return [(index, f"{letter}{number}") for index, number in starts[::every]]


def _marks(story: Story) -> list[Mark]:
    """A dot where a player took the lead alone, and a rule where the end began."""
    marks = []
    for index, step in enumerate(story.steps):
        if step.lead_change and len(step.leaders) == 1 and step.seq > 0:
            marks.append(Mark(index, _("%(names)s takes the lead", names=_leaders(story, step)), step.leaders[0]))
        if step.end_begins:
            marks.append(Mark(index, _("The end begins")))
    return marks


def seconds_text(seconds: int) -> str:
    """A turn's length for people: "45 s", "2 min 05 s", "1 h 02 min"."""
    if seconds < 60:
        return _("%(seconds)s s", seconds=seconds)
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return _("%(minutes)s min %(seconds)s s", minutes=minutes, seconds=str(rest).zfill(2))
    hours, minutes = divmod(minutes, 60)
    return _("%(hours)s h %(minutes)s min", hours=hours, minutes=str(minutes).zfill(2))
