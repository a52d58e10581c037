"""A whole game of Conquest of Speros for three (bench/game_taps.py), tracked on a phone from the setup to Finish.

Ann plays green (Forest), Bob red (Mountain), Cy blue (Ocean); Ann is first. The setup puts a Location from each
player and three Artifacts into the Skirmish Area; nine turns follow (Explore, Lead, Attack, Plan: captures by
achieved and demonstrated majority, the rule of ties, an Artifact whose capture sends a Minion home), the last
Location card is drawn in the seventh, Bob and Cy take their final turns, then the Mastery and Bonus Objectives
and Finish. Before issue 17 the same game took 91 taps and 6 keys (97): chips, a VP stepper from 1, the
'Explored by' select, a tap on each unit and Next turn after every turn, Mastery by select and Save.
"""

from __future__ import annotations

from typing import Any

PLAYERS = [{"name": "Ann", "colour": "green"}, {"name": "Bob", "colour": "red"}, {"name": "Cy", "colour": "blue"}]
OPTIONS: dict[str, Any] = {}

# (terrain, encampments or None for an Artifact's 5, resources, printed VP), put in by nobody.
SETUP = [
    ("forest", 3, ("gold",), 2),
    ("mountain", 1, ("iron",), 1),
    ("ocean", 3, ("crystal",), 2),
    ("artifact", None, ("crystal", "gold"), 3),
    ("artifact", None, ("iron",), 1),
    ("artifact", None, ("gold",), 0),
]
# What each Bonus Objective would score ("" for 0, left as the form shows it).
BONUS = {"Ann": ("4", "6", ""), "Bob": ("5", "", "2"), "Cy": ("3", "", "7")}
# Ann: a Minion on a Mountain 1 + Bonus 6 + half of Mastery 2 (3) = 10. Bob: Forest 2 + Mountain 1, no set (no
# crystal), Minions 1 familiar x 2 + 2 unfamiliar, the General on a Forest 2, Bonus 5, Mastery 3 = 17. Cy: Mountain
# 2 + Artifact 3, no set (no iron), 3 unfamiliar Minions, the General on the Artifact 2, Bonus 7, Mastery 1 (4) = 21.
EXPECTED = {"Ann": 10, "Bob": 17, "Cy": 21}


def put_card(table: Any, terrain: str, encampments: int | None, resources: tuple[str, ...], vp: int) -> None:
    """Chips for terrain, encampments and resources; the tap on the printed VP puts it in. The explorer is as the
    tracker proposes it: nobody during the setup, else the player whose turn it is (whose Explore ends the turn)."""
    form = table.page.locator("#put-card")
    table.tap(form.get_by_role("radio", name=terrain.capitalize(), exact=True))
    if encampments is not None:
        table.tap(form.get_by_role("radio", name=str(encampments), exact=True))
    for resource in resources:
        table.tap(form.get_by_role("checkbox", name=resource.capitalize(), exact=True))
    table.tap(form.locator(f"#put-card-vp-{vp}"))


def on_card(table: Any, card: int, label: str) -> None:
    """A unit button of a card in the Skirmish Area, by its accessible name ('Bob: attack Forest card 1 ...')."""
    table.tap(table.page.locator(f"#card-{card}").get_by_role("button", name=label))


def attack(table: Any, who: str, card: int) -> None:
    on_card(table, card, f"{who}: attack ")


def lead(table: Any, who: str, card: int) -> None:
    on_card(table, card, f"{who}: lead to ")


def capture(table: Any, card: int, who: str) -> None:
    table.tap(table.page.locator(f"#card-{card}").get_by_role("button", name=f"{who} captures it", exact=True))


def mastery(table: Any, number: int, vp: int, leaders: tuple[str, ...]) -> None:
    """Tick who best meets it; the tap on its VP saves it."""
    form = table.page.locator(f"#mastery-{number}")
    for leader in leaders:
        table.tap(form.get_by_role("checkbox", name=leader, exact=True))
    table.tap(form.locator(f"#mastery-{number}-vp-{vp}"))


def play(table: Any) -> dict[str, int]:
    """Setup, nine turns (the last card drawn in the seventh), the objectives, Finish."""
    page = table.page
    for terrain, encampments, resources, vp in SETUP:
        put_card(table, terrain, encampments, resources, vp)
    # 1 Ann explores a Mountain: her Minion goes on it, and her turn passes.
    put_card(table, "mountain", 2, ("crystal",), 2)
    # 2 Bob leads to the Forest: General and Minion, 2 of 3, he demonstrates majority; the capture passes the turn.
    lead(table, "Bob", 1)
    capture(table, 1, "Bob")
    # 3 Cy attacks Ann's Mountain: full, tied, Cy placed last and captures it.
    attack(table, "Cy", 7)
    capture(table, 7, "Cy")
    # 4 Ann attacks the first Artifact.
    attack(table, "Ann", 4)
    # 5 Bob explores a Swamp.
    put_card(table, "swamp", 2, ("iron", "gold"), 3)
    # 6 Cy leads to the Artifact.
    lead(table, "Cy", 4)
    # 7 Ann plans and draws the last Location card.
    table.tap(page.get_by_role("button", name="Last Location card drawn"))
    table.tap(page.get_by_role("button", name="Next turn", exact=True))
    # 8 Bob attacks the one-encampment Mountain and captures it.
    attack(table, "Bob", 2)
    capture(table, 2, "Bob")
    # 9 Cy attacks the Artifact: 3 to 1 with one empty; his capture sends Ann's Minion home and ends the game.
    attack(table, "Cy", 4)
    capture(table, 4, "Cy")
    # Mastery Objectives: 4 VP to Cy, 6 VP shared by Ann and Bob.
    table.tap(page.locator(".mastery summary"))
    mastery(table, 1, 4, ("Cy",))
    mastery(table, 2, 6, ("Ann", "Bob"))
    # Bonus Objectives on the finish form (a 0 is left as it stands), then Finish and its confirmation.
    seats = [page.locator("section.seat").nth(i).get_attribute("id").removeprefix("seat-") for i in range(3)]
    for seat, player in zip(seats, PLAYERS, strict=True):
        for n, value in enumerate(BONUS[player["name"]], start=1):
            if value:
                table.type(f"#end-{seat}-bonus_{n}", value)
    table.finish()
    return EXPECTED
