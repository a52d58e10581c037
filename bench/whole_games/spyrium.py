"""A whole three-player game of Spyrium (6 turns) played on the tracker, for bench/game_taps.py.

The game: income each turn, five buildings (one replacing another, its icon matching), a technique each (one with a
worker beside its card), characters paid for in money or Spyrium that score VP or give a worker, money gained from
workers beside a card, Residence actions (moving up, or scoring the token's value), the 8 VP choices and one 20 VP
bonus, each technique's end VP, and Finish. Money and VP are entered as the table plays them, each move once.
Measured on this tracker and, with the same game, on the ones before issue 17's Spyrium controls (their own
drivers): 89 taps + 16 keys = 105 before; 82 with money −5, a Pay box and one-tap patents; 50 now.
"""

from __future__ import annotations

import re
from typing import Any

PLAYERS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy", "colour": "green"}]
OPTIONS: dict[str, Any] = {}


class Seat:
    """One player's part of the tracker, driven through its controls as a player taps them."""

    def __init__(self, table: Any, name: str) -> None:
        self.t, self.name = table, name
        self.box = table.page.locator("section.seat", has=table.page.locator("h2", has_text=name))

    def button(self, label: str) -> Any:
        """One of the seat's buttons by its accessible name, which starts with the player's name."""
        return self.box.get_by_role("button", name=f"{self.name}: {label}", exact=True)

    def vp(self, amount: int) -> None:
        """VP scored on the track (a character, a building used): one tap on +1 (the counter) or +2..+7 (its row)."""
        self.t.tap(self.button("Score track VP plus one" if amount == 1 else f"Score track VP +{amount}"))

    def money(self, amount: int) -> None:
        """Money gained or paid: one tap on the counter's ±1 or on −2..−7 / +2..+7 under it; more is typed and paid."""
        if abs(amount) == 1:
            self.t.tap(self.button(f"Money £ {'plus' if amount > 0 else 'minus'} one"))
        elif 2 <= abs(amount) <= 7:
            sign = "+" if amount > 0 else "−"
            self.t.tap(self.button(f"{'get' if amount > 0 else 'pay'} £{abs(amount)}, {sign}{abs(amount)}"))
        else:
            assert amount < 0, "a gain beyond £7 is not in this game"
            self.t.type(self.box.get_by_label(f"{self.name}: Pay £", exact=True), str(-amount), enter=True)

    def residence_up(self) -> None:
        """A Residence action that moves the token up a space."""
        self.t.tap(self.button("Residence up one space"))

    def residence_vp(self, income: int) -> None:
        """A Residence action that scores the token's value as VP (the button shows it)."""
        self.t.tap(self.button(f"Residence action, Score {income} VP"))

    def spyrium(self, amount: int) -> None:
        """Spyrium crystals spent or gained, on the counter's −1 and +1."""
        for _ in range(abs(amount)):
            self.t.tap(self.button(f"Spyrium {'plus' if amount > 0 else 'minus'} one"))

    def worker(self) -> None:
        """A worker hired (its price paid on the money)."""
        self.t.tap(self.button("Workers plus one"))

    def bonus(self, choice: str) -> None:
        """The 8 VP choice: 'worker' or 'money'."""
        self.t.tap(self.button("8 VP bonus, +1 worker" if choice == "worker" else "8 VP bonus, £5"))

    def build(self, vp: int, cost: int, replace: int | None = None, matching: bool = False) -> None:
        """A building bought (Build or patent is open from the start): where it goes, only touched for a replacement
        (with the icons matching or not, one chip), its VP chip, and its cost, which builds."""
        if replace is not None:
            which = rf"Replace {replace}, icons match" if matching else rf"Replace building {replace} \("
            self.t.tap(self.box.get_by_label(re.compile(rf"^\s*{which}")))
        self.t.tap(self.box.get_by_label(f"{self.name}: building {vp} VP", exact=True))
        self.t.tap(self.button(f"build, card £{cost}"))

    def patent(self, beside: int = 0) -> None:
        """A technique patented: one button for £6 and £1 for each worker beside its card."""
        beside_it = f", {beside} beside it" if beside else ""
        self.t.tap(self.button(f"patent a technique, −£{6 + beside}{beside_it}"))

    def end_vp(self, number: int, vp: int) -> None:
        """A technique's end VP: one tap on its value (the section opened by the last turn's start)."""
        details = self.box.locator("details.at-end")
        if details.get_attribute("open") is None:
            self.t.tap(details.locator("summary"))
        self.t.tap(self.button(f"technique {number} scores {vp} VP at the end"))


def start_turn(table: Any) -> None:
    """Start the next turn: every player's income paid."""
    table.tap(table.page.get_by_role("button", name="Start the next turn"))


def play(table: Any) -> dict[str, int]:
    """The game, turn by turn; the totals the result must show."""
    ann, bob, cy = (Seat(table, p["name"]) for p in PLAYERS)
    # Turn 1: income £2 each (£10).
    start_turn(table)
    ann.build(vp=2, cost=5)  # first space free: £5
    bob.patent(beside=1)  # £6 + £1 for the worker beside the card: £3
    cy.money(-4)
    cy.worker()  # a character: £4 for a fourth worker: £6
    # Turn 2: Ann £7, Bob £5, Cy £8.
    start_turn(table)
    ann.money(-3)
    ann.vp(6)  # a character: £3 for 6 VP: £4, 6 VP
    bob.money(4)
    bob.build(vp=3, cost=6)  # gains £4 (workers beside a card), builds: £3
    cy.residence_up()  # Residence action: up to the £3 space
    # Turn 3: Ann £6, Bob £5, Cy £11.
    start_turn(table)
    ann.residence_up()
    bob.spyrium(-1)
    bob.vp(5)  # uses his building: 1 Spyrium for 5 VP
    cy.build(vp=4, cost=8)  # £3
    # Turn 4: Ann £6+£3 = £9, Bob £7, Cy £6.
    start_turn(table)
    ann.money(-7)
    ann.vp(5)
    ann.bonus("worker")  # 11 VP: the 8 VP bonus, a worker: £2
    bob.spyrium(-1)
    bob.vp(4)
    bob.bonus("money")  # 9 VP: £5: £12
    cy.residence_vp(3)
    cy.patent()  # 3 VP; technique £6: £0
    # Turn 5: Ann £5, Bob £14, Cy £3.
    start_turn(table)
    ann.money(5)
    ann.build(vp=6, cost=7, replace=1, matching=True)  # £10, then £4: £6
    bob.build(vp=4, cost=8)  # £8 + £1 for the space: £5
    cy.money(3)
    cy.money(-2)
    cy.vp(6)
    cy.bonus("worker")  # £6, £4; 9 VP
    # Turn 6 (period C): Ann £9, Bob £7, Cy £7.
    start_turn(table)
    ann.patent()
    ann.residence_vp(3)
    ann.vp(6)  # £3; 14 VP, 20 VP: the other bonus, £5
    bob.residence_vp(2)  # 11 VP
    cy.residence_vp(3)  # 12 VP
    # At the end: each technique's end VP.
    ann.end_vp(1, 4)
    bob.end_vp(1, 5)
    cy.end_vp(1, 3)
    table.finish()
    # Ann 20 + 6 + 4, Bob 11 + (3 + 4) + 5, Cy 12 + 4 + 3.
    return {"Ann": 30, "Bob": 23, "Cy": 19}
