"""Conquest of Speros (2-4 players): captured cards, resource sets, deployed units, objectives.

Rules from the rulebook's "Components", "Card Notes", "Setup", "Scoring", "Ancient Artifacts" and "Mastery
Objectives (Optional)"; what the project decided where it is unclear: docs/rules.md, "Conquest of Speros".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, ValidationInfo, field_validator, model_validator

from companion.games.base import (
    FieldError,
    Game,
    InputErrors,
    Line,
    Note,
    Pad,
    PadLine,
    PlayerInput,
    PlayerName,
    Result,
    Schema,
    TieBreak,
    as_seated,
    leads_sentence,
    name_key,
    rank_scores,
)
from companion.games.live import (
    Action,
    ActionSpec,
    Applied,
    Context,
    End,
    Live,
    Params,
    Standing,
    State,
    counter_actions,
)
from companion.games.turns import active_seat, round_number, seat_of_turn, turns_left
from companion.games.wording import capital, figure, join_names, sum_text
from companion.language import N_, _, ngettext

Colour = Literal["green", "red", "blue", "black"]
Terrain = Literal["forest", "mountain", "ocean", "swamp", "artifact"]
Resource = Literal["crystal", "iron", "gold"]
GeneralPlace = Literal["base", "familiar", "unfamiliar"]

COLOURS: tuple[str, ...] = ("green", "red", "blue", "black")
# "Forest (green), Mountain (red), Ocean (blue), Swamp (black)"; an Artifact has no colour (rules notes).
TERRAIN_OF_COLOUR = {"green": "forest", "red": "mountain", "blue": "ocean", "black": "swamp"}
LOCATION_TERRAINS: tuple[str, ...] = ("forest", "mountain", "ocean", "swamp")
RESOURCES: tuple[str, ...] = ("crystal", "iron", "gold")

LOCATIONS_PER_TERRAIN = 20  # "80 Location cards: 20 of each terrain type"
LOCATIONS_IN_GAME = 80
ARTIFACTS_IN_BOX = 18
MAX_PLAYERS = 4
# Setup step 4 puts one Artifact per player in play, so no player can hold more than 80 + 4 cards.
CAPTURED_MAX = LOCATIONS_IN_GAME + MAX_PLAYERS
# No card values are public. Printed VP are small numbers, "in rare cases" negative (the text says so of
# Artifacts; the app takes what the card shows): -10..20 leaves headroom while catching a typo such as 100 or -50.
CARD_VP_MIN = -10
CARD_VP_MAX = 20
MINIONS_PER_PLAYER = 10  # "10 small meeples of each color"
BONUS_OBJECTIVES_DEALT = 3  # "deal three to each player"
# Objective texts aren't public and some count captured cards (up to 84), so the cap only stops typos.
OBJECTIVE_VP_MAX = 100
# Mastery VP are printed on one card, like a captured card's VP: the same generous cap.
MASTERY_VP_MAX = 20
# "deal one fewer card than the number of players": at most 3 with 4 players.
MASTERY_MAX = MAX_PLAYERS - 1
MASTERY_NAME_MAX = 60

RESOURCE_SET_POINTS = 3
MINION_FAMILIAR_POINTS = 2
MINION_UNFAMILIAR_POINTS = 1
GENERAL_POINTS = {"base": 0, "familiar": 3, "unfamiliar": 2}

# Every nonempty subset S of the resources, for the Hall condition N(S) >= k·|S| (see set_limit). Largest first:
# when several S bind equally, the explanation then names the plainest limit, the number of cards.
RESOURCE_SUBSETS: tuple[frozenset[str], ...] = tuple(
    frozenset(subset) for size in (3, 2, 1) for subset in combinations(RESOURCES, size)
)

MasteryName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MASTERY_NAME_MAX)]
ObjectiveVP = Annotated[int, Field(ge=0, le=OBJECTIVE_VP_MAX)]


class CapturedCard(Schema):
    """One card in a player's Captured Area: a Location of some terrain, or an Ancient Artifact."""

    terrain: Terrain
    resources: list[Resource] = Field(
        default_factory=list, max_length=len(RESOURCES), validate_default=True, title=N_("Resources")
    )
    vp: int = Field(ge=CARD_VP_MIN, le=CARD_VP_MAX, title=N_("VP"))

    @field_validator("resources")
    @classmethod
    def _distinct_resources(cls, resources: list[str]) -> list[str]:
        """A card shows each resource at most once, and at least one (rules notes): a forgotten resource would
        silently cost a set."""
        if not resources:
            raise ValueError(_("Which resource does this card show?"))
        if len(set(resources)) != len(resources):
            raise ValueError(_("List each resource at most once."))
        return resources


class SperosPlayer(PlayerInput):
    """What a Conquest of Speros player has at the end: cards, deployed units and objective scores."""

    # Titles and descriptions only label the app's forms; the JSON field names are the contract.
    color: Colour = Field(title=N_("Colour"), description=N_("Forest green, Mountain red, Ocean blue, Swamp black."))
    captured: list[CapturedCard] = Field(default_factory=list, max_length=CAPTURED_MAX, title=N_("Captured cards"))
    minions_familiar: int = Field(
        0,
        ge=0,
        le=MINIONS_PER_PLAYER,
        title=N_("Minions on familiar terrain"),
        description=N_("Deployed on a Location of your colour: 2 VP each."),
    )
    minions_unfamiliar: int = Field(
        0,
        ge=0,
        le=MINIONS_PER_PLAYER,
        title=N_("Minions on unfamiliar terrain"),
        description=N_("Deployed on another colour or on an Artifact: 1 VP each."),
    )
    general: GeneralPlace = Field(
        "base",
        title=N_("General"),
        description=N_("base: still in Base Camp (0 VP); familiar (3 VP); unfamiliar or on an Artifact (2 VP)."),
    )
    bonus_objectives: list[ObjectiveVP] = Field(
        default_factory=list,
        max_length=BONUS_OBJECTIVES_DEALT,
        title=N_("Bonus Objectives"),
        description=N_(
            "What each of your Bonus Objectives would score, up to 3, separated by spaces: the best counts."
        ),
    )

    @field_validator("minions_unfamiliar")
    @classmethod
    def _ten_minions(cls, unfamiliar: int, info: ValidationInfo) -> int:
        """Each player has 10 Minions: familiar and unfamiliar together are at most 10."""
        # A field validator (not a model validator) so the message lands on players[i].minions_unfamiliar.
        familiar = info.data.get("minions_familiar")
        if familiar is not None and familiar + unfamiliar > MINIONS_PER_PLAYER:
            raise ValueError(
                _(
                    "Each player has %(max)s Minions: %(familiar)s familiar + %(unfamiliar)s unfamiliar"
                    " = %(deployed)s deployed.",
                    max=MINIONS_PER_PLAYER,
                    familiar=familiar,
                    unfamiliar=unfamiliar,
                    deployed=familiar + unfamiliar,
                )
            )
        return unfamiliar


class MasteryObjective(Schema):
    """A public Mastery Objective: its VP and the player(s) who best meet it (none if nobody meets it)."""

    name: MasteryName
    vp: int = Field(ge=0, le=MASTERY_VP_MAX)
    leaders: list[PlayerName] = Field(default_factory=list, max_length=MAX_PLAYERS)


class SperosOptions(Schema):
    """The optional Mastery Objectives in play."""

    mastery: list[MasteryObjective] = Field(
        default_factory=list, max_length=MASTERY_MAX, title=N_("Mastery Objectives")
    )


BREAKDOWN = (
    ("captured", N_("Captured cards")),
    ("resource_sets", N_("Resource sets")),
    ("minions", N_("Deployed Minions")),
    ("general", N_("Deployed General")),
    ("bonus_objective", N_("Bonus Objective")),
    ("mastery", N_("Mastery Objectives")),
)
LABELS = dict(BREAKDOWN)


def own_colour_locations(player: SperosPlayer) -> int:
    """Captured Locations of the player's own colour; Artifacts have no colour and never count."""
    return sum(1 for card in player.captured if card.terrain == TERRAIN_OF_COLOUR[player.color])


def _tiebreaks() -> tuple[TieBreak, ...]:
    """The official tie-break, said in the reader's language (so built when a score is made, never at import)."""
    return (
        TieBreak(
            _("most captured Locations of their own colour"),
            key=lambda p: p.extra["own_color_locations"],
            show=lambda p: _(
                "%(count)s %(colour)s (%(terrain)s)",
                count=p.extra["own_color_locations"],
                colour=p.extra["color"],
                terrain=TERRAIN_OF_COLOUR[p.extra["color"]].capitalize(),
            ),
        ),
    )


def resource_mix(cards: Iterable[Iterable[str]]) -> Counter[frozenset[str]]:
    """How many cards show each combination of resources; cards showing none are left out."""
    # Counter counts an iterable in C: the one pass over the cards is the only step that grows with their number.
    mix: Counter[frozenset[str]] = Counter(map(frozenset, cards))
    mix.pop(frozenset(), None)
    return mix


def able_to_fill(mix: Mapping[frozenset[str], int], wanted: frozenset[str]) -> int:
    """N(S): how many cards can fill a slot of at least one resource in `wanted`."""
    return sum(count for shown, count in mix.items() if shown & wanted)


def set_limit(mix: Mapping[frozenset[str], int]) -> tuple[int, frozenset[str]]:
    """The most disjoint resource sets, and the resource subset S whose bound floor(N(S)/|S|) is that number.

    k sets are k Crystal, k Iron and k Gold slots, each filled by a different card showing that resource (the
    i-th slots of the three resources make set i). Needed: the k·|S| slots of the resources in S take k·|S| different
    cards, all able to fill some resource in S, so N(S) >= k·|S|. Enough, by Hall's theorem on slots and cards:
    a group X of slots whose resources are S reaches exactly the N(S) cards, and |X| <= k·|S| <= N(S), so every
    slot can be filled. Hence the maximum is the minimum over the 7 nonempty S of floor(N(S)/|S|); S = all
    three is "3k cards with a resource". O(cards) to count the mix, then constant time.
    """
    best = (able_to_fill(mix, RESOURCE_SUBSETS[0]) // len(RESOURCE_SUBSETS[0]), RESOURCE_SUBSETS[0])
    for wanted in RESOURCE_SUBSETS[1:]:
        bound = able_to_fill(mix, wanted) // len(wanted)
        if bound < best[0]:
            best = (bound, wanted)
    return best


def resource_sets(cards: Iterable[Iterable[str]]) -> int:
    """The maximum number of disjoint resource sets (each a Crystal, an Iron and a Gold from 3 cards) among cards
    given as their lists of resources."""
    return set_limit(resource_mix(cards))[0]


def _resource_words(wanted: frozenset[str]) -> str:
    """'iron', 'crystal or gold' in the rulebook's order."""
    return join_names([r for r in RESOURCES if r in wanted], "or")


# Listing every printed value stays readable up to about a dozen cards; beyond that only the sums are shown.
LIST_VALUES_MAX = 12


def _cards_part(artifacts: bool, values: Sequence[int]) -> str:
    """'1 Location: 3 VP', '3 Artifacts: 2 + 1 − 1 = 2 VP', '14 Locations: 30 VP in all'."""
    total, count = figure(sum(values)), len(values)
    if count == 1:
        return _("1 Artifact: %(vp)s VP", vp=total) if artifacts else _("1 Location: %(vp)s VP", vp=total)
    if count <= LIST_VALUES_MAX:
        if artifacts:
            return ngettext(
                "%(num)s Artifact: %(sum)s = %(vp)s VP",
                "%(num)s Artifacts: %(sum)s = %(vp)s VP",
                count,
                sum=sum_text(values),
                vp=total,
            )
        return ngettext(
            "%(num)s Location: %(sum)s = %(vp)s VP",
            "%(num)s Locations: %(sum)s = %(vp)s VP",
            count,
            sum=sum_text(values),
            vp=total,
        )
    if artifacts:
        return ngettext("%(num)s Artifact: %(vp)s VP in all", "%(num)s Artifacts: %(vp)s VP in all", count, vp=total)
    return ngettext("%(num)s Location: %(vp)s VP in all", "%(num)s Locations: %(vp)s VP in all", count, vp=total)


def _together(parts: Sequence[str], shares: Sequence[int]) -> str:
    """The parts of a line, then their sum when there are several: 'A; B; together 3 + 2 = 5 VP.'."""
    if len(parts) == 1:
        return parts[0] + "."
    return _(
        "%(parts)s; together %(sum)s = %(vp)s VP.",
        parts="; ".join(parts),
        sum=sum_text(shares),
        vp=figure(sum(shares)),
    )


def _captured_line(player: SperosPlayer) -> Line:
    """'Captured card is worth whatever value is written on the card.'"""
    if not player.captured:
        return Line("captured", _(LABELS["captured"]), 0, _("No captured cards: 0 VP."))
    parts = []
    sums = []
    for artifacts in (False, True):
        values = [c.vp for c in player.captured if (c.terrain == "artifact") == artifacts]
        if not values:
            continue
        sums.append(sum(values))
        parts.append(_cards_part(artifacts, values))
    points = sum(c.vp for c in player.captured)
    return Line("captured", _(LABELS["captured"]), points, _together(parts, sums))


def _resource_line(player: SperosPlayer) -> Line:
    """'Resource sets: 3 VP each'; a card showing several resources fills one slot (rules notes)."""
    mix = resource_mix(card.resources for card in player.captured)
    sets, wanted = set_limit(mix)
    held = sum(mix.values())
    points = RESOURCE_SET_POINTS * sets
    label = _(LABELS["resource_sets"])
    if held == 0:
        return Line("resource_sets", label, 0, _("No captured card shows a resource: 0 VP."))
    missing = [r for r in RESOURCES if able_to_fill(mix, frozenset({r})) == 0]
    if missing:
        why = _("No set, as no captured card shows %(resources)s: 0 VP.", resources=join_names(missing, "or"))
        return Line("resource_sets", label, 0, why)
    n_wanted = able_to_fill(mix, wanted)
    if len(wanted) == len(RESOURCES):
        if sets == 0:
            why = ngettext(
                "No set, as only %(num)s card shows a resource and a set needs 3: 0 VP.",
                "No set, as only %(num)s cards show a resource and a set needs 3: 0 VP.",
                n_wanted,
            )
            return Line("resource_sets", label, 0, why)
        limit = ngettext(
            "%(num)s card with a resource allows at most %(sets)s",
            "%(num)s cards with a resource allow at most %(sets)s",
            n_wanted,
            sets=_sets(sets),
        )
    elif len(wanted) == 1:
        limit = ngettext(
            "only %(num)s card can be %(resources)s",
            "only %(num)s cards can be %(resources)s",
            n_wanted,
            resources=_resource_words(wanted),
        )
    else:
        limit = ngettext(
            "only %(num)s card can be %(resources)s, and each set needs %(needed)s of those",
            "only %(num)s cards can be %(resources)s, and each set needs %(needed)s of those",
            n_wanted,
            resources=_resource_words(wanted),
            needed=len(wanted),
        )
    if sets == 0:
        return Line("resource_sets", label, 0, _("No set, as %(limit)s: 0 VP.", limit=limit))
    why = ngettext(
        "Crystal, iron and gold from %(used)s of your %(num)s card (%(limit)s): %(sets)s × %(each)s = %(vp)s VP.",
        "Crystal, iron and gold from %(used)s of your %(num)s cards (%(limit)s): %(sets)s × %(each)s = %(vp)s VP.",
        len(player.captured),
        used=3 * sets,
        limit=limit,
        sets=_sets(sets),
        each=RESOURCE_SET_POINTS,
        vp=points,
    )
    return Line("resource_sets", label, points, why)


def _sets(count: int) -> str:
    """'1 set', '3 sets'."""
    return ngettext("%(num)s set", "%(num)s sets", count)


def _minion_line(player: SperosPlayer) -> Line:
    """'Deployed Minions on familiar terrain: 2 VP each; on unfamiliar terrain: 1 VP each.'"""
    familiar, unfamiliar = player.minions_familiar, player.minions_unfamiliar
    points = MINION_FAMILIAR_POINTS * familiar + MINION_UNFAMILIAR_POINTS * unfamiliar
    if familiar + unfamiliar == 0:
        why = _("No Minion deployed, and units in Base Camp score nothing: 0 VP.")
        return Line("minions", _(LABELS["minions"]), 0, why)
    why = _(
        "%(familiar)s familiar × %(familiar_vp)s + %(unfamiliar)s unfamiliar × %(unfamiliar_vp)s = %(vp)s VP.",
        familiar=familiar,
        familiar_vp=MINION_FAMILIAR_POINTS,
        unfamiliar=unfamiliar,
        unfamiliar_vp=MINION_UNFAMILIAR_POINTS,
        vp=points,
    )
    return Line("minions", _(LABELS["minions"]), points, why)


def _general_line(player: SperosPlayer) -> Line:
    """'Deployed Generals on familiar terrain: 3 VP; on unfamiliar terrain: 2 VP'; Base Camp scores 0."""
    points = GENERAL_POINTS[player.general]
    if player.general == "base":
        why = _("General in Base Camp: 0 VP.")
    elif player.general == "familiar":
        why = _("General on familiar terrain: %(vp)s VP.", vp=points)
    else:
        why = _("General on unfamiliar terrain (or an Artifact): %(vp)s VP.", vp=points)
    return Line("general", _(LABELS["general"]), points, why)


def _bonus_line(player: SperosPlayer) -> Line:
    """Each player scores one Bonus Objective; the app takes the best one (rules notes)."""
    values = player.bonus_objectives
    label = _(LABELS["bonus_objective"])
    if not values:
        return Line("bonus_objective", label, 0, _("No Bonus Objective entered: 0 VP."))
    best = max(values)
    if len(values) == 1:
        return Line("bonus_objective", label, best, _("One Bonus Objective: %(vp)s VP.", vp=best))
    choices = join_names([str(v) for v in values])
    return Line("bonus_objective", label, best, _("The best of %(choices)s: %(vp)s VP.", choices=choices, vp=best))


def mastery_share(vp: int, leaders: int) -> int:
    """Each tied leader's share of a Mastery Objective: split evenly, rounded down; no leader, no points."""
    return vp // leaders if leaders else 0


def _mastery_line(player: SperosPlayer, options: SperosOptions, names: Sequence[str]) -> Line:
    """'The player who best meets the condition ... In the event of a tie, all tied players share the points
    (rounded down).' Leaders are said as their seats spell them, whatever the case they were typed in."""
    if not options.mastery:
        return Line("mastery", _(LABELS["mastery"]), 0, _("No Mastery Objectives in play: 0 VP."))
    me = name_key(player.name)
    shares = []
    parts = []
    for card in options.mastery:
        leaders = [as_seated(leader, names) for leader in card.leaders]
        share = mastery_share(card.vp, len(leaders))
        if not leaders:
            shares.append(0)
            parts.append(_("Mastery '%(objective)s': nobody meets it, 0 VP", objective=card.name))
        elif me not in {name_key(name) for name in leaders}:
            shares.append(0)
            parts.append(
                ngettext(
                    "Mastery '%(objective)s': %(leaders)s takes it, 0 VP",
                    "Mastery '%(objective)s': %(leaders)s share it, 0 VP",
                    len(leaders),
                    objective=card.name,
                    leaders=join_names(leaders),
                )
            )
        elif len(leaders) == 1:
            shares.append(share)
            parts.append(_("Mastery '%(objective)s': you best meet it, %(vp)s VP", objective=card.name, vp=card.vp))
        else:
            shares.append(share)
            parts.append(
                _(
                    "Mastery '%(objective)s': %(vp)s VP split %(ways)s ways, rounded down, %(share)s VP",
                    objective=card.name,
                    vp=card.vp,
                    ways=len(leaders),
                    share=share,
                )
            )
    return Line("mastery", _(LABELS["mastery"]), sum(shares), _together(parts, shares))


def score(players: Sequence[SperosPlayer], options: SperosOptions) -> Result:
    """Score a finished game of Conquest of Speros, ranked by total, then own-colour Locations."""
    names = [player.name for player in players]
    rows = []
    for player in players:
        lines = [
            _captured_line(player),
            _resource_line(player),
            _minion_line(player),
            _general_line(player),
            _bonus_line(player),
            _mastery_line(player, options, names),
        ]
        extra = {"color": player.color, "own_color_locations": own_colour_locations(player)}
        rows.append((player.name, lines, extra))
    return rank_scores("speros", rows, _tiebreaks())


def check(players: Sequence[SperosPlayer], options: SperosOptions) -> list[FieldError]:
    """Cross-player checks: distinct colours, the cards in the box, Mastery leaders who are playing."""
    errors = []
    seen: dict[str, str] = {}
    for i, player in enumerate(players):
        if player.color in seen:
            message = _("%(name)s already plays %(colour)s.", name=seen[player.color], colour=player.color)
            errors.append(FieldError(f"players[{i}].color", message))
        else:
            seen[player.color] = player.name

    # A typo shows up as more cards captured than the game holds; name the player who went over.
    limits = dict.fromkeys(LOCATION_TERRAINS, LOCATIONS_PER_TERRAIN)
    limits["artifact"] = len(players)  # setup step 4: one Artifact per player, the rest stay in the box
    for terrain, available in limits.items():
        held = 0
        for i, player in enumerate(players):
            held += sum(1 for card in player.captured if card.terrain == terrain)
            if held > available:
                kind = "Artifacts" if terrain == "artifact" else f"{terrain.capitalize()} Locations"
                errors.append(
                    FieldError(
                        f"players[{i}].captured",
                        _(
                            "The game has only %(available)s %(cards)s in play; %(held)s captured so far.",
                            available=available,
                            cards=kind,
                            held=held,
                        ),
                    )
                )
                break

    if options.mastery and len(options.mastery) > len(players) - 1:
        errors.append(
            FieldError(
                "options.mastery",
                ngettext(
                    "With %(num)s player, %(dealt)s; %(given)s given.",
                    "With %(num)s players, %(dealt)s; %(given)s given.",
                    len(players),
                    dealt=_mastery_dealt(len(players) - 1),
                    given=len(options.mastery),
                ),
            )
        )
    # Leaders are matched as the seats are (name_key), so a leader typed "ann" is Ann, and said as the seat spells it.
    names = [p.name for p in players]
    playing = {name_key(name) for name in names}
    for m, card in enumerate(options.mastery):
        listed: set[str] = set()
        for j, leader in enumerate(card.leaders):
            where = f"options.mastery[{m}].leaders[{j}]"
            if name_key(leader) not in playing:
                errors.append(FieldError(where, _("%(name)s is not playing.", name=leader)))
            elif name_key(leader) in listed:
                errors.append(FieldError(where, _("%(name)s is listed twice.", name=as_seated(leader, names))))
            listed.add(name_key(leader))
    return errors


def _mastery_dealt(count: int) -> str:
    """'1 Mastery Objective is dealt', '3 Mastery Objectives are dealt'."""
    return ngettext("%(num)s Mastery Objective is dealt", "%(num)s Mastery Objectives are dealt", count)


def setup(count: int, options: SperosOptions) -> list[str]:
    """The rulebook's setup steps for this player count."""
    if options.mastery:
        mastery = _(
            "Deal %(count)s Mastery Objectives (one fewer than the players) face up to the centre of the table;"
            " the rest are not used.",
            count=count - 1,
        )
    else:
        mastery = _(
            "Optional: deal %(count)s Mastery Objectives (one fewer than the players) face up to the centre of the"
            " table; the rest are not used.",
            count=count - 1,
        )
    return [
        _(
            "Each player chooses a colour and takes the 11 units (10 Minions and the General), the Base Camp card and"
            " the General card of that colour. Place the units on the Base Camp card: they begin undeployed."
        ),
        _(
            "Shuffle the 17 Bonus Objective cards and deal 3 to each player (%(total)s in all), kept hidden.",
            total=3 * count,
        ),
        _(
            "Shuffle the %(locations)s Location cards into a shared deck and deal 8 to each player. Each"
            " player at once puts one Location from hand into the Skirmish Area.",
            locations=LOCATIONS_IN_GAME,
        ),
        _(
            "Shuffle the %(artifacts)s Ancient Artifacts and place %(count)s in the Skirmish Area; put the"
            " rest back in the box.",
            artifacts=ARTIFACTS_IN_BOX,
            count=count,
        ),
        mastery,
        _("Randomly choose the starting player."),
    ]


def pad(options: SperosOptions) -> Pad:
    """A blank Conquest of Speros pad: a row per breakdown line, familiar terrain and the tie-break below."""
    rules = {
        "captured": _("The VP printed on each Location and Artifact you captured."),
        "resource_sets": _(
            "%(vp)s VP per set of crystal, iron and gold on your captured cards (a card showing several resources"
            " fills one slot).",
            vp=RESOURCE_SET_POINTS,
        ),
        "minions": _(
            "%(familiar)s VP per deployed Minion on familiar terrain, %(unfamiliar)s VP on unfamiliar terrain;"
            " Base Camp 0.",
            familiar=MINION_FAMILIAR_POINTS,
            unfamiliar=MINION_UNFAMILIAR_POINTS,
        ),
        "general": _(
            "%(familiar)s VP on familiar terrain, %(unfamiliar)s VP on unfamiliar terrain or an Artifact; Base Camp 0.",
            familiar=GENERAL_POINTS["familiar"],
            unfamiliar=GENERAL_POINTS["unfamiliar"],
        ),
        "bonus_objective": _("The VP of one of your Bonus Objectives: the best."),
        "mastery": _(
            "Each Mastery Objective's VP to the player who best meets it; tied players split it, rounded down."
        ),
    }
    lines = tuple(PadLine(key, _(label), rules[key]) for key, label in BREAKDOWN)
    notes = (
        _("Familiar terrain is a Location of your colour (Forest green, Mountain red, Ocean blue, Swamp black)."),
        _("Tied totals: the most captured Locations of your own colour wins; still tied, the victory is shared."),
    )
    return Pad(lines, notes)


def reference_notes(options: SperosOptions) -> list[str]:
    """Reminders for entering a score: what counts as familiar, how sets and objectives are read."""
    return [
        _(
            "Familiar terrain is a Location of your colour (Forest green, Mountain red, Ocean blue, Swamp black);"
            " units on an Artifact count as unfamiliar."
        ),
        _(
            "Enter each captured card's printed VP and resources; a card showing several resources fills one slot"
            " of a set, and the app finds the most sets."
        ),
        _("Enter what each of your Bonus Objectives would score: the best one counts."),
    ]


# Capture by majority (rule text, "There are two ways for a player to capture a Location").

ACHIEVE, DEMONSTRATE = "achieve", "demonstrate"
# Every Artifact card features 5 Encampments; Locations vary: a generous ceiling catches a typo.
ENCAMPMENTS_MAX = 12


@dataclass(frozen=True)
class Capture:
    """Who may capture a Location or Artifact now, how (achieve or demonstrate majority), and why."""

    captured_by: str | None
    how: str | None
    why: str

    def to_dict(self) -> dict[str, Any]:
        """The capture API's answer."""
        return {"captured_by": self.captured_by, "how": self.how, "why": self.why}


def capture(encampments: int, placements: Sequence[str]) -> Capture:
    """Decide a capture from a card's encampments and its units by player, in the order they were placed.

    'Achieve Majority: When a Location has no unoccupied spaces remaining, the player with the most Units deployed to
    that Location has achieved majority. Rule of Ties: ... the tying player to have most recently placed a Unit to
    that Location captures the card.' 'Demonstrate Majority: A player demonstrates majority when he or she would
    achieve majority even if all of the Location's remaining unoccupied spaces were occupied by another player's
    Units.' The other player would place last, so they would win a tie: the leader needs strictly more than the
    most any other player could reach (a player not yet there counts with 0).
    """
    if not placements:
        return Capture(None, None, _("Nobody has a unit here yet."))
    counts = Counter(placements)
    empty = encampments - len(placements)
    most = max(counts.values())
    leaders = [player for player in counts if counts[player] == most]
    if empty == 0:
        winner = max(leaders, key=lambda player: _last_placed(placements, player))
        if len(leaders) == 1:
            others = ", ".join(f"{p} {counts[p]}" for p in counts if p != winner)
            units = f"{most}; {others}" if others else str(most)
            return Capture(
                winner,
                ACHIEVE,
                ngettext(
                    "The %(num)s encampment is occupied and %(winner)s has the most units (%(units)s): %(winner)s"
                    " achieves majority.",
                    "All %(num)s encampments are occupied and %(winner)s has the most units (%(units)s): %(winner)s"
                    " achieves majority.",
                    encampments,
                    winner=winner,
                    units=units,
                ),
            )
        return Capture(
            winner,
            ACHIEVE,
            ngettext(
                "The %(num)s encampment is occupied and %(leaders)s tie with %(units)s each: %(winner)s placed a unit"
                " there most recently and captures it (rule of ties).",
                "All %(num)s encampments are occupied and %(leaders)s tie with %(units)s each: %(winner)s placed a"
                " unit there most recently and captures it (rule of ties).",
                encampments,
                leaders=join_names(leaders),
                units=_units(most),
                winner=winner,
            ),
        )
    leader = leaders[0]
    runner_up = max((counts[p] for p in counts if p != leader), default=0)
    if len(leaders) == 1 and most > runner_up + empty:
        return Capture(
            leader,
            DEMONSTRATE,
            ngettext(
                "%(leader)s has %(units)s; even if the %(num)s empty encampment were filled by another player, they"
                " could reach only %(reach)s: %(leader)s demonstrates majority.",
                "%(leader)s has %(units)s; even if the %(num)s empty encampments were filled by another player, they"
                " could reach only %(reach)s: %(leader)s demonstrates majority.",
                empty,
                leader=leader,
                units=_units(most),
                reach=runner_up + empty,
            ),
        )
    if len(leaders) > 1:
        why = ngettext(
            "%(leaders)s tie with %(units)s each and %(num)s encampment is still empty: no capture yet.",
            "%(leaders)s tie with %(units)s each and %(num)s encampments are still empty: no capture yet.",
            empty,
            leaders=join_names(leaders),
            units=_units(most),
        )
    else:
        why = ngettext(
            "%(leader)s has the most units (%(most)s), but another player could fill the %(num)s empty encampment"
            " and reach %(reach)s, then win a tie as the most recent to place: no capture yet.",
            "%(leader)s has the most units (%(most)s), but another player could fill the %(num)s empty encampments"
            " and reach %(reach)s, then win a tie as the most recent to place: no capture yet.",
            empty,
            leader=leader,
            most=most,
            reach=runner_up + empty,
        )
    return Capture(None, None, why)


def _units(count: int) -> str:
    """'1 unit', '3 units'."""
    return ngettext("%(num)s unit", "%(num)s units", count)


def _last_placed(placements: Sequence[str], player: str) -> int:
    """The position of a player's most recent unit on the card."""
    return max(i for i, placed in enumerate(placements) if placed == player)


# Live play at the table: the Skirmish Area, units deployed from each Base Camp, captures, the end of the game.

# Final: each is typed as its literal, so it is a UnitKind (below) wherever one is wanted.
MINION: Final = "minion"
GENERAL: Final = "general"
ARTIFACT_ENCAMPMENTS = 5  # "Every Artifact card features 5 Encampments"
BONUS_FIELDS = tuple(f"bonus_{n}" for n in range(1, BONUS_OBJECTIVES_DEALT + 1))
UnitKind = Literal["minion", "general"]


def familiar_terrain(colour: str) -> str | None:
    """The Location terrain of a player's colour: Forest green, Mountain red, Ocean blue, Swamp black."""
    return TERRAIN_OF_COLOUR.get(colour)


def base_camp(table: dict[str, Any], seat: int) -> dict[str, int]:
    """The units a player still has in Base Camp: 10 Minions and the General, less those deployed anywhere."""
    deployed = Counter(kind for card in table["cards"] for who, kind in card["units"] if who == seat)
    return {MINION: MINIONS_PER_PLAYER - deployed[MINION], GENERAL: 1 - deployed[GENERAL]}


def card_name(card: dict[str, Any]) -> str:
    """'Forest card 3' or 'Artifact 2', as the tracker numbers them."""
    return _card_words(card["terrain"], card["id"])


def _card_words(terrain: str, number: int) -> str:
    """'Forest card 3' or 'Artifact 2': the terrain's name is printed on the card and stays in English."""
    if terrain == "artifact":
        return _("Artifact %(number)s", number=number)
    return _("%(terrain)s card %(number)s", terrain=terrain.capitalize(), number=number)


def _card(table: dict[str, Any], card_id: int) -> dict[str, Any]:
    """A card in play by its number, or InputErrors."""
    cards: list[dict[str, Any]] = table["cards"]
    for card in cards:
        if card["id"] == card_id:
            return card
    raise InputErrors([FieldError("card", _("There is no card %(number)s in play.", number=card_id))])


def capture_now(card: dict[str, Any], names: Sequence[str]) -> Capture:
    """Who may capture a card in the Skirmish Area now (a captured card is never captured again)."""
    if card["captured_by"] is not None:
        return Capture(None, None, _("Captured by %(name)s.", name=names[card["captured_by"]]))
    return capture(card["encampments"], [names[who] for who, _kind in card["units"]])


def _deploy(card: dict[str, Any], table: dict[str, Any], seat: int, kind: str, name: str) -> None:
    """'To deploy a Unit, a player moves it from his or her Base Camp into an unoccupied encampment.'"""
    if len(card["units"]) >= card["encampments"]:
        raise InputErrors([FieldError("card", _no_encampment(card))])
    if base_camp(table, seat)[kind] < 1:
        if kind == MINION:
            message = _("%(name)s has no Minion left in Base Camp.", name=name)
        else:
            message = _("%(name)s has no General left in Base Camp.", name=name)
        raise InputErrors([FieldError("kind", message)])
    card["units"].append([seat, kind])


def _no_encampment(card: dict[str, Any]) -> str:
    """'Forest card 3 has no unoccupied encampment.'"""
    return _("%(card)s has no unoccupied encampment.", card=card_name(card))


# What a card put into play must say, asked when the player left it out.
_NOT_GIVEN = {
    "terrain": N_("Which terrain does this card show (or is it an Artifact)?"),
    "vp": N_("What VP does this card show?"),
}


class CardParams(Params):
    """A card put into play: its terrain (or artifact), encampments, printed VP and resources.

    Nothing is assumed for a card: what the player did not tap is asked for, so a chip forgotten never silently
    enters a Forest, 3 encampments or no resource."""

    terrain: Terrain | None = Field(None, validate_default=True)
    # An Artifact always has 5: it may be left out for one (explore() refuses any other number).
    encampments: int | None = Field(None, ge=1, le=ENCAMPMENTS_MAX)
    vp: int | None = Field(None, ge=CARD_VP_MIN, le=CARD_VP_MAX, validate_default=True)
    resources: list[Resource] = Field(default_factory=list, max_length=len(RESOURCES), validate_default=True)
    # The Explore action of the player whose turn it is ends that turn (the Action step is a turn's last step).
    end_turn: bool = False

    @model_validator(mode="before")
    @classmethod
    def _typed_vp(cls, data: Any) -> Any:
        """The page's VP buttons send "vp"; a VP they don't offer is typed in "vp_typed", taken when no button
        says one."""
        if isinstance(data, Mapping) and "vp_typed" in data:
            data = dict(data)
            typed = data.pop("vp_typed")
            data.setdefault("vp", typed)
        return data

    @field_validator("terrain", "vp")
    @classmethod
    def _given(cls, value: Any, info: ValidationInfo) -> Any:
        """'Each Location has one of four types' and 'This value will tell you how many Victory Points you'll
        receive': the player taps them, never guessed."""
        if value is None:
            raise ValueError(_(_NOT_GIVEN[str(info.field_name)]))
        return value

    @field_validator("resources", mode="before")
    @classmethod
    def _one_as_text(cls, value: Any) -> Any:
        """One resource ticked comes from a form as text, several as a list."""
        return [value] if isinstance(value, str) else value

    @field_validator("resources")
    @classmethod
    def _one_or_more(cls, value: list[str]) -> list[str]:
        """A card shows at least one resource, each at most once (checked once each entry is a resource, so a list
        inside the list is refused as no resource rather than breaking the check)."""
        if not value:
            raise ValueError(_("Which resource does this card show?"))
        if len(set(value)) != len(value):
            raise ValueError(_("List each resource at most once."))
        return value


class UnitParams(Params):
    """A unit of the action's player on a card."""

    card: int
    kind: UnitKind = MINION


class AttackParams(Params):
    """The card the turn's Attack deploys a Minion to."""

    card: int


class LeadParams(Params):
    """The card the turn's Lead deploys the General to, and whether a Minion goes with it ('you may also')."""

    card: int
    minion: bool = True


class MoveParams(UnitParams):
    """A unit moved by an ability from one card to another."""

    to: int


class CaptureParams(Params):
    """The card the action's player captures."""

    card: int


class DrawnParams(Params):
    """Whether the last Location card has been drawn."""

    drawn: bool = True


class MasteryParams(Params):
    """A Mastery Objective in play: its VP and the players who best meet it."""

    number: int = Field(ge=1, le=MASTERY_MAX)
    vp: int = Field(ge=0, le=MASTERY_VP_MAX)
    leaders: list[str] = Field(default_factory=list, max_length=MAX_PLAYERS)

    @model_validator(mode="before")
    @classmethod
    def _typed_vp(cls, data: Any) -> Any:
        """As a card's: the VP buttons send "vp", a VP they don't offer comes typed in "vp_typed"; Save sends the
        VP saved before ("vp_saved"), kept when none is typed."""
        if isinstance(data, Mapping) and ({"vp_typed", "vp_saved"} & set(data)):
            data = dict(data)
            typed, saved = data.pop("vp_typed", None), data.pop("vp_saved", None)
            data.setdefault("vp", typed if typed is not None else saved)
        return data

    @field_validator("leaders", mode="before")
    @classmethod
    def _as_list(cls, value: Any) -> Any:
        """One box ticked comes from a form as text."""
        return [value] if isinstance(value, str) else value


def explore(state: State, action: Action, ctx: Context) -> Applied:
    """'Explore: Put a Location card from your hand into the Skirmish Area. If the Location's color does not match
    your Units' color, deploy one of your Minions to that Location.' Without a player: a card put in at setup or by
    an ability."""
    table, params = state["table"], action.params
    artifact = params.terrain == "artifact"
    errors = []
    if params.end_turn and action.seat is not None:
        # Said as the turn's action, it is the active player's alone, as Attack and Lead are; a card put in by
        # nobody (the setup, an ability) is no turn's action, whatever the page's form says.
        _the_turn_of(table, action, ctx, "Explore", _EXPLORE_INSTEAD)
    artifacts = sum(1 for card in table["cards"] if card["terrain"] == "artifact")
    if artifact and artifacts >= len(ctx.names):
        errors.append(
            FieldError(
                "terrain",
                ngettext(
                    "Setup places %(num)s Artifact, one per player; the rest stay in the box.",
                    "Setup places %(num)s Artifacts, one per player; the rest stay in the box.",
                    len(ctx.names),
                ),
            )
        )
    if artifact and params.encampments not in (None, ARTIFACT_ENCAMPMENTS):
        errors.append(
            FieldError(
                "encampments",
                _(
                    "Every Artifact card features %(encampments)s Encampments, not %(given)s.",
                    encampments=ARTIFACT_ENCAMPMENTS,
                    given=params.encampments,
                ),
            )
        )
    if not artifact and params.encampments is None:
        errors.append(FieldError("encampments", _("How many encampments does this Location show?")))
    if not artifact and params.vp < 0:
        # Rules notes: only an Artifact's VP "in rare cases can even be negative".
        message = _("A Location's printed VP is 0 or more; only an Artifact's can be negative.")
        errors.append(FieldError("vp", message))
    if errors:
        raise InputErrors(errors)
    encampments = ARTIFACT_ENCAMPMENTS if artifact else params.encampments
    card = {
        "id": table["next_card"],
        "terrain": params.terrain,
        "encampments": encampments,
        "vp": params.vp,
        "resources": list(params.resources),
        "units": [],
        "captured_by": None,
    }
    table["next_card"] += 1
    table["cards"].append(card)
    said = [
        _(
            "%(card)s (%(vp)s VP, %(resources)s) is in the Skirmish Area.",
            card=card_name(card),
            vp=figure(params.vp),
            resources=join_names(params.resources),
        )
    ]
    if action.seat is not None and params.terrain != "artifact":
        name = ctx.names[action.seat]
        if params.terrain == familiar_terrain(ctx.colours[action.seat]):
            said.append(_("It is %(name)s's own colour: no Minion is deployed.", name=name))
        elif base_camp(table, action.seat)[MINION] > 0:
            _deploy(card, table, action.seat, MINION, name)
            said.append(_("%(name)s deploys a Minion there.", name=name))
        else:
            said.append(_("%(name)s has no Minion left in Base Camp to deploy there.", name=name))
    said += _capturable(state, ctx, card)
    if params.end_turn and action.seat == active_seat(table, len(ctx.names)):
        said += _action_taken(state, ctx, card)
    return Applied(state, tuple(said))


def _in_skirmish(table: dict[str, Any], card_id: int, ctx: Context) -> dict[str, Any]:
    """A card units can be deployed to: in the Skirmish Area, never in a Captured Area."""
    card = _card(table, card_id)
    if card["captured_by"] is not None:
        raise InputErrors(
            [
                FieldError(
                    "card",
                    _(
                        "%(card)s is in %(name)s's Captured Area: no unit can be deployed there.",
                        card=card_name(card),
                        name=ctx.names[card["captured_by"]],
                    ),
                )
            ]
        )
    return card


def deploy(state: State, action: Action, ctx: Context) -> Applied:
    """A Minion or the General deployed to a card in the Skirmish Area, never to a captured one (an ability's, or
    a turn's action tracked unit by unit: Next turn then passes the turn)."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, params, name = state["table"], action.params, ctx.names[action.seat]
    card = _in_skirmish(table, params.card, ctx)
    _deploy(card, table, action.seat, params.kind, name)
    if params.kind == MINION:
        said = [_("%(name)s deploys a Minion to %(card)s.", name=name, card=card_name(card))]
    else:
        said = [_("%(name)s deploys a General to %(card)s.", name=name, card=card_name(card))]
    return Applied(state, tuple(said + _capturable(state, ctx, card)))


def _one_action_a_turn(table: dict[str, Any], ctx: Context) -> None:
    """'Take one of the following four actions': a second action in the same turn is refused."""
    pending = _pending(table)
    if pending is not None:
        who = ctx.names[active_seat(table, len(ctx.names))]
        card = card_name(_card(table, pending))
        message = _("%(name)s has taken this turn's action: capture %(card)s or tap Next turn.", name=who, card=card)
        raise InputErrors([FieldError("card", message)])


# What to do instead of a turn's action out of turn: said after the refusal.
_ATTACK_INSTEAD = N_("A unit an ability deploys is added with + Minion or + General.")
_EXPLORE_INSTEAD = N_("A card the setup or an ability puts into play is explored by nobody.")


def _the_turn_of(
    table: dict[str, Any], action: Action, ctx: Context, what: str, instead: str = _ATTACK_INSTEAD
) -> None:
    """A turn's action (Explore, Attack, Lead) is taken by the player whose turn it is, once: 'Starting with the
    first player and rotating clockwise, a player must complete the following 3 steps, in order, on their turn.'"""
    active = active_seat(table, len(ctx.names))
    if action.seat != active:
        raise InputErrors(
            [
                FieldError(
                    "player",
                    _(
                        "It is %(name)s's turn: %(action)s is the action of the player whose turn it is. %(instead)s",
                        name=ctx.names[active],
                        action=what,
                        instead=_(instead),
                    ),
                )
            ]
        )
    _one_action_a_turn(table, ctx)


def attack(state: State, action: Action, ctx: Context) -> Applied:
    """'Attack: Deploy one of your Minions to any Location in the Skirmish Area', as the turn's action: the turn
    passes after it, or after the capture it makes possible."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, name = state["table"], ctx.names[action.seat]
    _the_turn_of(table, action, ctx, "Attack")
    card = _in_skirmish(table, action.params.card, ctx)
    _deploy(card, table, action.seat, MINION, name)
    said = [
        _("%(name)s attacks %(card)s with a Minion.", name=name, card=card_name(card)),
        *_capturable(state, ctx, card),
    ]
    return Applied(state, tuple(said + _action_taken(state, ctx, card)))


def lead(state: State, action: Action, ctx: Context) -> Applied:
    """'Lead: Deploy your General to any Location in the Skirmish Area. If that Location has a remaining unoccupied
    encampment, you may also deploy one of your Minions to that Location.' The turn's action: the turn passes after
    it, or after the capture it makes possible."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, name = state["table"], ctx.names[action.seat]
    _the_turn_of(table, action, ctx, "Lead")
    card = _in_skirmish(table, action.params.card, ctx)
    _deploy(card, table, action.seat, GENERAL, name)
    there = card_name(card)
    if not action.params.minion:
        said = [_("%(name)s leads the General to %(card)s.", name=name, card=there)]
    elif len(card["units"]) >= card["encampments"]:
        said = [_("%(name)s leads the General to %(card)s: no encampment is left for a Minion.", name=name, card=there)]
    elif base_camp(table, action.seat)[MINION] < 1:
        said = [
            _(
                "%(name)s leads the General to %(card)s: %(name)s has no Minion left in Base Camp to go with it.",
                name=name,
                card=there,
            )
        ]
    else:
        _deploy(card, table, action.seat, MINION, name)
        said = [_("%(name)s leads the General to %(card)s, with a Minion.", name=name, card=there)]
    said += _capturable(state, ctx, card)
    return Applied(state, tuple(said + _action_taken(state, ctx, card)))


def _pending(table: dict[str, Any]) -> int | None:
    """The card whose capture passes the turn: the turn's action made it capturable (None when there is none)."""
    acted = table.get("acted")
    return acted["card"] if acted and acted["turn"] == table["turn"] else None


def _action_taken(state: State, ctx: Context, card: dict[str, Any]) -> list[str]:
    """The Action step is a turn's last: the turn passes, unless the action lets a player capture its card; then
    its capture (taken in the turn) passes it, or Next turn."""
    table = state["table"]
    if capture_now(card, ctx.names).captured_by is not None:
        table["acted"] = {"turn": table["turn"], "card": card["id"]}
        return [_("The turn passes with its capture (or Next turn).")]
    return _pass_turn(state, ctx)


def _take_unit(card: dict[str, Any], seat: int, kind: str, name: str) -> None:
    """Take one of a player's units of this kind off a card (the most recently placed), unless it is locked."""
    if card.get("locked"):
        message = _("The units on %(card)s are locked on: it is a captured Artifact.", card=card_name(card))
        raise InputErrors([FieldError("card", message)])
    for index in range(len(card["units"]) - 1, -1, -1):
        if card["units"][index] == [seat, kind]:
            del card["units"][index]
            return
    if kind == MINION:
        message = _("%(name)s has no Minion on %(card)s.", name=name, card=card_name(card))
    else:
        message = _("%(name)s has no General on %(card)s.", name=name, card=card_name(card))
    raise InputErrors([FieldError("kind", message)])


def remove(state: State, action: Action, ctx: Context) -> Applied:
    """An ability destroys or returns a unit: it goes back to its Base Camp."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, params, name = state["table"], action.params, ctx.names[action.seat]
    card = _card(table, params.card)
    _take_unit(card, action.seat, params.kind, name)
    if params.kind == MINION:
        said = [_("%(name)s's Minion leaves %(card)s for the Base Camp.", name=name, card=card_name(card))]
    else:
        said = [_("%(name)s's General leaves %(card)s for the Base Camp.", name=name, card=card_name(card))]
    return Applied(state, tuple(said + _capturable(state, ctx, card)))


def move(state: State, action: Action, ctx: Context) -> Applied:
    """An ability moves a unit from one card to another with an unoccupied encampment."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, params, name = state["table"], action.params, ctx.names[action.seat]
    source, target = _card(table, params.card), _card(table, params.to)
    if source is target:
        raise InputErrors([FieldError("to", _("Choose another card to move the unit to."))])
    if target.get("locked"):
        message = _(
            "%(card)s is a captured Artifact: its units are locked on and no unit may be added.",
            card=card_name(target),
        )
        raise InputErrors([FieldError("to", message)])
    if len(target["units"]) >= target["encampments"]:
        raise InputErrors([FieldError("to", _no_encampment(target))])
    _take_unit(source, action.seat, params.kind, name)
    target["units"].append([action.seat, params.kind])
    cards = {"name": name, "source": card_name(source), "target": card_name(target)}
    if params.kind == MINION:
        said = [_("%(name)s moves a Minion from %(source)s to %(target)s.", **cards)]
    else:
        said = [_("%(name)s moves a General from %(source)s to %(target)s.", **cards)]
    return Applied(state, tuple(said + _capturable(state, ctx, source) + _capturable(state, ctx, target)))


def capture_card(state: State, action: Action, ctx: Context) -> Applied:
    """'When a player captures a Location, he or she moves that card from the Skirmish Area into his or her
    Captured Area. No player's Units are removed.' An Artifact's capture sends the other players' units on it home
    and locks the capturer's on it."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    table, name = state["table"], ctx.names[action.seat]
    card = _card(table, action.params.card)
    decided = capture_now(card, ctx.names)
    if decided.captured_by != name:
        message = _("%(name)s can't capture %(card)s: %(why)s", name=name, card=card_name(card), why=decided.why)
        raise InputErrors([FieldError("card", message)])
    card["captured_by"] = action.seat
    if decided.how == ACHIEVE:
        said = [_("%(name)s captures %(card)s (achieve majority).", name=name, card=card_name(card))]
    else:
        said = [_("%(name)s captures %(card)s (demonstrate majority).", name=name, card=card_name(card))]
    if card["terrain"] == "artifact":
        sent = [ctx.names[who] for who, _kind in card["units"] if who != action.seat]
        card["units"] = [unit for unit in card["units"] if unit[0] == action.seat]
        card["locked"] = True
        if sent:
            said.append(
                _(
                    "%(name)s's units on it are locked on; %(others)s's go back to their Base Camp.",
                    name=name,
                    others=join_names(sorted(set(sent))),
                )
            )
        else:
            said.append(_("%(name)s's units on it are locked on.", name=name))
    if _pending(table) == card["id"]:
        said += _pass_turn(state, ctx)
    return Applied(state, tuple(said))


def _capturable(state: State, ctx: Context, card: dict[str, Any]) -> list[str]:
    """What the table should hear when an action makes a card capturable."""
    decided = capture_now(card, ctx.names)
    if decided.captured_by is None:
        return []
    return [_may_capture(decided, card)]


def _may_capture(decided: Capture, card: dict[str, Any]) -> str:
    """'Ann may capture Forest card 3: ...'."""
    return _("%(name)s may capture %(card)s: %(why)s", name=decided.captured_by, card=card_name(card), why=decided.why)


def final_turn(table: dict[str, Any], count: int) -> int | None:
    """'After the last Location card is drawn, that player finishes the turn and every other player gets one more
    turn': the number of the game's last turn, once the last card is marked drawn."""
    drawn: int | None = table["last_drawn"]
    return drawn + count - 1 if drawn is not None else None


def end_reason(state: State, ctx: Context) -> str | None:
    """Why the game is over, once it is: 'If a player starts his or her turn with no Units in his or her Base Camp,
    the game immediately ends' (said when the turn starts: units deployed during a turn, or back home before the
    next, don't end it), or the final turns after the last Location card are played."""
    ended: str | None = state["table"].get("ended")
    return _ended_words(ended) if ended else None


# Why the game ended is kept in the state in English (data every device reads back, whatever its language) and said
# in the reader's language when read.
_ENDED_FINAL = N_(
    "%(name)s's final turn is over: the last Location card was drawn and each other player has taken one final turn."
    " The game has ended."
)
_ENDED_AT_ONCE = N_("%(name)s starts the turn with no units in Base Camp: the game ends at once.")


def _ended_words(ended: str) -> str:
    """The stored reason the game ended, in the reader's language (as stored when it is none of the app's)."""
    for message in (_ENDED_FINAL, _ENDED_AT_ONCE):
        tail = message.removeprefix("%(name)s")
        if ended.endswith(tail):
            return _(message, name=ended.removesuffix(tail))
    return ended


def while_playing(run: Callable[[State, Action, Context], Applied]) -> Callable[[State, Action, Context], Applied]:
    """An action of the game itself (a card, a unit, a capture, a turn), refused once the game is over: only what
    scoring needs (the Bonus and Mastery Objectives) is still taken, so a stray tap never changes the final score."""

    def run_while_playing(state: State, action: Action, ctx: Context) -> Applied:
        """Refuse with the reason the game ended, else run the action."""
        over = end_reason(state, ctx)
        if over:
            message = _(
                "%(reason)s Only the Bonus Objectives and the Mastery Objectives can still be entered; then finish"
                " and score.",
                reason=over,
            )
            raise InputErrors([FieldError("action", message)])
        return run(state, action, ctx)

    run_while_playing.__doc__ = run.__doc__
    return run_while_playing


def countdown(state: State, ctx: Context) -> str | None:
    """'Bob finishes, then Cy and Ann take one more turn each', once the last Location card is drawn."""
    table = state["table"]
    count = len(ctx.names)
    last = final_turn(table, count)
    if last is None or end_reason(state, ctx):
        return None
    active = active_seat(table, count)
    left = [ctx.names[seat] for seat in turns_left(active, seat_of_turn(table["last_drawn"], count), count)]
    if not left:
        return _("%(name)s takes the last turn; then score.", name=ctx.names[active])
    return ngettext(
        "%(name)s finishes, then %(others)s takes one more turn.",
        "%(name)s finishes, then %(others)s take one more turn each.",
        len(left),
        name=ctx.names[active],
        others=join_names(left),
    )


def next_turn(state: State, action: Action, ctx: Context) -> Applied:
    """The next player clockwise. After the last turn of the countdown it ends the game: 'When a player draws the
    last card from the shared Location deck, that player finishes his or her turn and then each other player takes
    one final turn.'"""
    return Applied(state, tuple(_pass_turn(state, ctx)))


def _pass_turn(state: State, ctx: Context) -> list[str]:
    """The turn passes to the next player clockwise (Next turn, or the turn's action taken), or the game ends."""
    table = state["table"]
    table.pop("acted", None)
    last = final_turn(table, len(ctx.names))
    if last is not None and table["turn"] >= last:
        who = ctx.names[active_seat(table, len(ctx.names))]
        table["ended"] = _ENDED_FINAL % {"name": who}
        return [_(_ENDED_FINAL, name=who)]
    table["turn"] += 1
    active = active_seat(table, len(ctx.names))
    said = [_("%(name)s's turn.", name=ctx.names[active])]
    if sum(base_camp(table, active).values()) == 0:
        table["ended"] = _ENDED_AT_ONCE % {"name": ctx.names[active]}
        said.append(_(_ENDED_AT_ONCE, name=ctx.names[active]))
    return said


def last_drawn(state: State, action: Action, ctx: Context) -> Applied:
    """Mark (or, as a correction, unmark) the last Location card drawn during this turn. The deck has one last card:
    a second mark (another device, a turn later) is refused, so the final-turn countdown never starts again."""
    table = state["table"]
    count = len(ctx.names)
    if action.params.drawn and table["last_drawn"] is not None:
        drawer = ctx.names[seat_of_turn(table["last_drawn"], count)]
        raise InputErrors(
            [
                FieldError(
                    "drawn",
                    _(
                        "The last Location card was already drawn, in turn %(turn)s (%(name)s's): the deck has one"
                        " last card, and the final turns go on as counted from there.",
                        turn=table["last_drawn"],
                        name=drawer,
                    ),
                )
            ]
        )
    if not action.params.drawn and table["last_drawn"] is None:
        raise InputErrors([FieldError("drawn", _("The last Location card is not marked drawn."))])
    table["last_drawn"] = table["turn"] if action.params.drawn else None
    if not action.params.drawn:
        return Applied(state, (_("The last-card mark is taken off."),))
    return Applied(state, (_("The last Location card is drawn. %(countdown)s", countdown=countdown(state, ctx) or ""),))


def mastery(state: State, action: Action, ctx: Context) -> Applied:
    """A Mastery Objective's VP and the players who best meet it ('the points will be divided evenly amongst the
    tied players, rounded down')."""
    params = action.params
    if params.number > len(ctx.names) - 1:
        message = ngettext(
            "With %(num)s player, %(dealt)s.",
            "With %(num)s players, %(dealt)s.",
            len(ctx.names),
            dealt=_mastery_dealt(len(ctx.names) - 1),
        )
        raise InputErrors([FieldError("number", message)])
    known = {name_key(name): name for name in ctx.names}
    leaders = []
    for leader in params.leaders:
        if name_key(leader) not in known:
            raise InputErrors([FieldError("leaders", _("%(name)s is not playing.", name=leader))])
        leaders.append(known[name_key(leader)])
    slots = state["table"]["mastery"]
    while len(slots) < params.number:
        slots.append({"vp": 0, "leaders": []})
    name = slots[params.number - 1].get("name") or f"Mastery Objective {params.number}"
    slots[params.number - 1] = {"name": name, "vp": params.vp, "leaders": sorted(set(leaders), key=ctx.names.index)}
    who = join_names(slots[params.number - 1]["leaders"])
    if who:
        said = _(
            "Mastery Objective %(number)s: %(vp)s VP, best met by %(leaders)s.",
            number=params.number,
            vp=params.vp,
            leaders=who,
        )
    else:
        said = _("Mastery Objective %(number)s: %(vp)s VP, best met by nobody.", number=params.number, vp=params.vp)
    return Applied(state, (said,))


def to_input(state: State, ctx: Context) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The scoring input from the board: captured cards, units by the terrain they stand on, the objectives."""
    table = state["table"]
    players = []
    for seat, (name, colour) in enumerate(zip(ctx.names, ctx.colours, strict=True)):
        home = familiar_terrain(colour)
        familiar = unfamiliar = 0
        general = "base"
        for card in table["cards"]:
            for who, kind in card["units"]:
                if who != seat:
                    continue
                at_home = card["terrain"] == home
                if kind == GENERAL:
                    general = "familiar" if at_home else "unfamiliar"
                elif at_home:
                    familiar += 1
                else:
                    unfamiliar += 1
        players.append(
            {
                "name": name,
                "color": colour,
                "captured": [
                    {"terrain": c["terrain"], "resources": c["resources"], "vp": c["vp"]}
                    for c in table["cards"]
                    if c["captured_by"] == seat
                ],
                "minions_familiar": familiar,
                "minions_unfamiliar": unfamiliar,
                "general": general,
                "bonus_objectives": [state["seats"][seat][field] for field in BONUS_FIELDS],
            }
        )
    objectives = [
        {"name": slot.get("name") or f"Mastery Objective {n}", "vp": slot["vp"], "leaders": slot["leaders"]}
        for n, slot in enumerate(table["mastery"], start=1)
        if slot["vp"]
    ]
    return players, {"mastery": objectives}


def live_notes(standing: Standing) -> list[Note]:
    """Whose turn, who leads, which cards may be captured and why, and the end of the game."""
    state, ctx, result = standing.state, standing.ctx, standing.result
    table = state["table"]
    notes = [Note(leads_sentence(result))] if any(p.total for p in result.players) else []
    for card in table["cards"]:
        decided = capture_now(card, ctx.names)
        if decided.captured_by is not None:
            notes.append(Note(_may_capture(decided, card)))
    reason = end_reason(state, ctx)
    if reason:
        notes.append(Note(reason, warning=True))
    elif left := countdown(state, ctx):
        notes.append(Note(_("The last Location card is drawn. %(countdown)s", countdown=left), warning=True))
    return notes


def end(standing: Standing) -> End:
    """The game ends at once on an empty Base Camp, or after the last turns once the last card is drawn."""
    reason = end_reason(standing.state, standing.ctx)
    if reason:
        return End(True, reason)
    if standing.state["table"]["last_drawn"] is not None:
        left = countdown(standing.state, standing.ctx) or ""
        return End(True, _("The last Location card is drawn: %(countdown)s", countdown=left))
    return End()


def view(standing: Standing) -> dict[str, Any]:
    """What the Speros tracker draws: the turn, each card with its units and who may capture it, Base Camps."""
    state, ctx = standing.state, standing.ctx
    table = state["table"]
    count = len(ctx.names)
    cards = []
    for card in table["cards"]:
        decided = capture_now(card, ctx.names)
        cards.append(
            {
                **card,
                "name": card_name(card),
                "empty": card["encampments"] - len(card["units"]),
                "capturer": ctx.names.index(decided.captured_by) if decided.captured_by else None,
                "why": decided.why if card["units"] or card["captured_by"] is not None else "",
                "locked": bool(card.get("locked")),
            }
        )
    for card in cards:
        # Where an ability may move a unit of this card: any other card with an unoccupied encampment, captured
        # Locations too ('Regardless of the Units moved onto or off its encampments'), never a locked Artifact.
        card["targets"] = [
            {"id": other["id"], "name": other["name"]}
            for other in cards
            if other["id"] != card["id"] and other["empty"] > 0 and not other["locked"]
        ]
    return {
        "turn": table["turn"],
        "active": active_seat(table, count),
        "cards": cards,
        "in_play": [card for card in cards if card["captured_by"] is None],
        "captured": [[card for card in cards if card["captured_by"] == seat] for seat in range(count)],
        "base_camp": [base_camp(table, seat) for seat in range(count)],
        "familiar": [familiar_terrain(colour) for colour in ctx.colours],
        "last_drawn": table["last_drawn"] is not None,
        "countdown": countdown(state, ctx),
        "over": end_reason(state, ctx),
        # Leaders given when the play started are kept as typed: the tracker ticks and names them by their seat.
        "mastery": [
            (
                {
                    **table["mastery"][n],
                    "leaders": [as_seated(leader, ctx.names) for leader in table["mastery"][n]["leaders"]],
                }
                if n < len(table["mastery"])
                else {"vp": 0, "leaders": []}
            )
            for n in range(count - 1)
        ],
        "card_vp": {"start": 1, "low": CARD_VP_MIN, "high": CARD_VP_MAX, "buttons": CARD_VP_BUTTONS},
        "mastery_vp": {"low": 0, "high": MASTERY_VP_MAX, "buttons": MASTERY_VP_BUTTONS},
        "pending": card_name(_card(table, pending)) if (pending := _pending(table)) is not None else None,
        "setup_left": setup_left(table, count),
        # Who puts the next card in, unless the player says otherwise: nobody while the setup's cards go in, else
        # the player whose turn it is (their Explore).
        "explorer": None if setup_left(table, count) else active_seat(table, count),
    }


# The printed VP a button offers: Locations' usual values; any other (an Artifact's negative one) is typed.
CARD_VP_BUTTONS = tuple(range(8))
MASTERY_VP_BUTTONS = tuple(range(1, 11))


def setup_left(table: dict[str, Any], count: int) -> int:
    """How many of the setup's cards are still to come: 'Each player simultaneously puts one Location ... into the
    Skirmish Area' and 'place a number of cards equal to the number of players' (Artifacts), none by an Explore;
    only while the first turn has not moved on and no unit is deployed."""
    if table["turn"] != 1 or any(card["units"] for card in table["cards"]):
        return 0
    return max(0, 2 * count - len(table["cards"]))


# What undo and the log say an action was, in the players' words. An action names its cards by number; given the
# state before it (where the caller has it), a card is named as the tracker shows it ('Forest card 3').


def _card_called(card_id: int, before: State | None) -> str:
    """'Forest card 3' when the state before the action knows the card, else 'card 3'."""
    for card in (before or {}).get("table", {}).get("cards", ()):
        if card["id"] == card_id:
            return card_name(card)
    return _("card %(number)s", number=card_id)


def describe_explore(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann puts Forest card 3 into play (4 encampments, iron and gold, 2 VP)'."""
    params = action.params
    artifact = params.terrain == "artifact"
    number = before["table"]["next_card"] if before else None
    if number is not None:
        card = _card_words(params.terrain, number)
    elif artifact:
        card = _("an Artifact")
    else:
        card = _("a %(terrain)s card", terrain=params.terrain.capitalize())
    encampments = ARTIFACT_ENCAMPMENTS if artifact else params.encampments
    shows = ngettext(
        "(%(num)s encampment, %(resources)s, %(vp)s VP)",
        "(%(num)s encampments, %(resources)s, %(vp)s VP)",
        encampments,
        resources=join_names(params.resources),
        vp=figure(params.vp),
    )
    if action.seat is None:
        return _("%(card)s is put into play %(shows)s", card=capital(card), shows=shows)
    return _("%(name)s puts %(card)s into play %(shows)s", name=ctx.names[action.seat], card=card, shows=shows)


def describe_deploy(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann deploys a Minion to Forest card 3'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    params = action.params
    words = {"name": ctx.names[action.seat], "card": _card_called(params.card, before)}
    if params.kind == MINION:
        return _("%(name)s deploys a Minion to %(card)s", **words)
    return _("%(name)s deploys the General to %(card)s", **words)


def describe_attack(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann attacks Forest card 3'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    return _("%(name)s attacks %(card)s", name=ctx.names[action.seat], card=_card_called(action.params.card, before))


def describe_lead(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann leads to Forest card 3'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    return _("%(name)s leads to %(card)s", name=ctx.names[action.seat], card=_card_called(action.params.card, before))


def describe_move(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann moves a Minion from Forest card 3 to Artifact 5 (an ability)'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    params = action.params
    words = {
        "name": ctx.names[action.seat],
        "source": _card_called(params.card, before),
        "target": _card_called(params.to, before),
    }
    if params.kind == MINION:
        return _("%(name)s moves a Minion from %(source)s to %(target)s (an ability)", **words)
    return _("%(name)s moves the General from %(source)s to %(target)s (an ability)", **words)


def describe_remove(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann returns a Minion from Forest card 3 to Base Camp (an ability)'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    params = action.params
    words = {"name": ctx.names[action.seat], "card": _card_called(params.card, before)}
    if params.kind == MINION:
        return _("%(name)s returns a Minion from %(card)s to Base Camp (an ability)", **words)
    return _("%(name)s returns the General from %(card)s to Base Camp (an ability)", **words)


def describe_capture(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Ann captures Forest card 3'."""
    assert action.seat is not None  # a seat="required" action: parse_action refuses one without its player
    return _("%(name)s captures %(card)s", name=ctx.names[action.seat], card=_card_called(action.params.card, before))


def describe_last_drawn(action: Action, ctx: Context, before: State | None = None) -> str:
    """'The last Location card is drawn', or its mark taken off."""
    return _("The last Location card is drawn") if action.params.drawn else _("The last-card mark is taken off")


def describe_mastery(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Mastery Objective 1: 6 VP, best met by Ann and Bob'."""
    params = action.params
    leaders = join_names([as_seated(leader, ctx.names) for leader in params.leaders])
    if leaders:
        return _(
            "Mastery Objective %(number)s: %(vp)s VP, best met by %(leaders)s",
            number=params.number,
            vp=params.vp,
            leaders=leaders,
        )
    return _("Mastery Objective %(number)s: %(vp)s VP, best met by nobody", number=params.number, vp=params.vp)


def describe_next_turn(action: Action, ctx: Context, before: State | None = None) -> str:
    """'Next turn'."""
    return _("Next turn")


def _bonus_bounds(before: State, state: State, action: Action, ctx: Context, old: int, new: int) -> Applied:
    """What a Bonus Objective would score is 0 to 100, said beside its own box."""
    if not 0 <= new <= OBJECTIVE_VP_MAX:
        if new > OBJECTIVE_VP_MAX:
            limit = _("Must be at most %(max)s.", max=OBJECTIVE_VP_MAX)
        else:
            limit = _("Must be at least 0.")
        raise InputErrors([FieldError(action.params.field, limit)])
    return Applied(state)


def start_table(options: SperosOptions) -> dict[str, Any]:
    """An empty Skirmish Area at the first player's turn, with any Mastery Objectives given at the start."""
    mastery = [{"name": m.name, "vp": m.vp, "leaders": list(m.leaders)} for m in options.mastery]
    return {"turn": 1, "cards": [], "next_card": 1, "last_drawn": None, "mastery": mastery, "ended": None}


LIVE = Live(
    start_table=start_table,
    start_seat=lambda options: dict.fromkeys(BONUS_FIELDS, 0),
    actions={
        **counter_actions(_bonus_bounds),
        "explore": ActionSpec(while_playing(explore), CardParams, "optional", describe_explore),
        "deploy": ActionSpec(while_playing(deploy), UnitParams, "required", describe_deploy),
        "attack": ActionSpec(while_playing(attack), AttackParams, "required", describe_attack),
        "lead": ActionSpec(while_playing(lead), LeadParams, "required", describe_lead),
        "move": ActionSpec(while_playing(move), MoveParams, "required", describe_move),
        "remove": ActionSpec(while_playing(remove), UnitParams, "required", describe_remove),
        "capture": ActionSpec(while_playing(capture_card), CaptureParams, "required", describe_capture),
        "next_turn": ActionSpec(while_playing(next_turn), describe=describe_next_turn),
        "last_drawn": ActionSpec(while_playing(last_drawn), DrawnParams, describe=describe_last_drawn),
        # What scoring needs stays open after the end: the Bonus Objectives (the counters) and the Mastery Objectives.
        "mastery": ActionSpec(mastery, MasteryParams, describe=describe_mastery),
    },
    seat_counters=lambda options: BONUS_FIELDS,
    to_input=to_input,
    notes=live_notes,
    end=end,
    view=view,
    turn_seat=active_seat,
    round_of=round_number,
    end_fields=BONUS_FIELDS,
    # One label a box, written out so that each is marked for translation (BONUS_OBJECTIVES_DEALT boxes).
    labels={
        "bonus_1": N_("Bonus Objective 1 VP"),
        "bonus_2": N_("Bonus Objective 2 VP"),
        "bonus_3": N_("Bonus Objective 3 VP"),
    },
    untracked=(
        N_(
            "The cards in each hand, the Location deck and the discard pile: the tracker knows a card once it is put "
            "into play, and that the last one was drawn once you tap it."
        ),
        N_(
            "A turn's action is tracked when it is tapped as one (Explore through the card form, Attack and Lead on a "
            "card: the turn then passes); a Plan is Next turn. Drawing two cards with an empty hand and discarding down "
            "to ten cards are not tracked."
        ),
        N_(
            "What the abilities of discarded Locations, Generals and Artifacts (Excavate and Capture) do: tap the units "
            "they deploy, move or send home. An ability that breaks a rule the tracker checks (a unit moved off a "
            "captured Artifact) can only be noted beside the board."
        ),
        N_("Which Bonus Objectives a player holds: at the end, enter what each of the three would score."),
        N_("Who best meets a Mastery Objective: tick the players when you score."),
    ),
)


GAME = Game(
    id="speros",
    name="Conquest of Speros",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules_version="speros-rulebook/rules-notes-1",
    player_model=SperosPlayer,
    options_model=SperosOptions,
    breakdown=BREAKDOWN,
    score=score,
    colours=COLOURS,
    blurb=N_("Area control with cards: capture Locations by majority, collect resource sets, deploy your units."),
    check=check,
    setup=setup,
    reference_notes=reference_notes,
    pad=pad,
    live=LIVE,
)
