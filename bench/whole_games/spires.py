"""A whole three-player game of Spires on the tracker, tracked the fewest taps its controls allow (issue 17).

The game: 14 turns of three Markets and the end's three cards from each hand, as the rulebook plays it ("The
winning player gains the card(s) below the Market AND all cards played by players during the competition"). 61
cards join the towers, 23 of them with a symbol; three Scroll cards are won (3, 4 and 5 VP) and one that discards
a card from the tableau.

`play`, what the bench measures: once the last cards are in the towers, each player's cards are counted in one
tap each (the count chips: a tower's height, a symbol's count) and the Scrolls' VP typed; nothing is entered
twice. 3 panels opened + 27 counts + 6 for the Scrolls + Finish 2 = 38.
`play_card_by_card`: the way the tracker of commit 2facdfa asked for (each card's + as it joins a tower, its
symbol's +, a Scroll's new total typed, the discarded card's −): 90 taps + 6 keys = 96 there, and on this tracker.
`play_each_trick`: the count chips after every competition (the towers and symbols it changed): 90; a trick
brings cards of several suits, so counting by height saves little while the game goes. (To measure either, make
it `play` for a run.)
"""

from __future__ import annotations

from typing import Any

PLAYERS = [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"}, {"name": "Cy", "colour": "green"}]
OPTIONS: dict[str, Any] = {}

SUITS = {"p": "purple", "r": "red", "y": "yellow", "b": "blue", "g": "green", "k": "black"}
SYMBOLS = {"c": "crowns", "s": "swords", "q": "quills"}

# What each player takes, turn by turn: a card is its suit's letter (purple, red, yellow, blue, green, black), with
# ":c", ":s" or ":q" for a crown, sword or quill on it; "S5" a Scroll card of 5 VP; "X:p" a Scroll that discards
# one card from the purple tower. A competition's winner takes the Market's card and every card played to it.
TURNS: list[list[tuple[str, str]]] = [
    [("Ann", "y"), ("Bob", "g"), ("Cy", "k")],  # setup: one card to each tableau
    [("Ann", "r:c"), ("Cy", "b b:s p")],  # 1: Ann alone at I; Cy wins II against Bob
    [("Bob", "k:s k y"), ("Cy", "g:q")],  # 2: Bob wins I against Ann; Cy alone at III
    [("Ann", "p:q"), ("Bob", "r"), ("Cy", "y")],  # 3: everyone alone
    [("Ann", "b:c b r g")],  # 4: all three at II, Ann wins
    [("Cy", "p p:s k"), ("Ann", "g")],  # 5
    [("Ann", "r:s k y"), ("Bob", "y:q")],  # 6
    [("Bob", "r r:c b"), ("Cy", "g")],  # 7
    [("Cy", "y y:c p g")],  # 8: all three at I, Cy wins
    [("Ann", "k:s"), ("Bob", "b b:s k S3")],  # 9: a 3 VP Scroll waited at III
    [("Cy", "g:q X:p"), ("Bob", "p:c r g")],  # 10: Cy's Scroll discards a purple card
    [("Ann", "b S5"), ("Cy", "r:s r k")],  # 11
    [("Bob", "y:s"), ("Ann", "k p:c b:q")],  # 12: the deck runs out
    [("Bob", "r S4"), ("Cy", "b:q")],  # 13: the last Markets
    [("Ann", "p g:s r"), ("Bob", "p b:s k"), ("Cy", "y:s k y")],  # the end: three cards from each hand
]

# The result the rules give (rulebook "Scoring", "Bonus Symbols"):
# Ann: purple 3, yellow 2, green 3, black 3 = 11 cards × 5 = 55; red 4, blue 4 = −8; Scroll 5; most crowns (3) 15.
# Bob: purple 2, yellow 3, green 2 = 7 × 5 = 35; red 5, blue 4, black 4 = −13; Scrolls 3 + 4; swords 4, tied: 20.
# Cy: purple 3, red 2, blue 3 = 8 × 5 = 40; yellow 5, green 4, black 4 = −13; swords 4, tied: 20; most quills 10.
EXPECTED = {"Ann": 67, "Bob": 49, "Cy": 57}


class Seat:
    """One player's part of the tracker."""

    def __init__(self, table: Any, name: str) -> None:
        self.t, self.name = table, name
        self.box = table.page.locator("section.seat", has=table.page.locator("h2", has_text=name))
        self.scroll_vp = 0
        self.counts: dict[str, int] = {}
        self.shown: dict[str, int] = {}

    def button(self, label: str) -> Any:
        """One of this seat's buttons by its accessible name ('Ann: Red plus one', 'Ann: Red 3')."""
        return self.box.get_by_role("button", name=f"{self.name}: {label}", exact=True)

    def take(self, cards: str) -> None:
        """Each card as it joins a tower: its tower's +, its symbol's +; a Scroll's VP typed as the new total."""
        for card in cards.split():
            if card.startswith("S"):
                self.scroll_vp += int(card[1:])
                self.t.type(self.box.get_by_label("New Scroll VP"), str(self.scroll_vp), enter=True)
            elif card.startswith("X:"):
                self.t.tap(self.button(f"{SUITS[card[2]].capitalize()} minus one"))
            else:
                self.t.tap(self.button(f"{SUITS[card[0]].capitalize()} plus one"))
                if ":" in card:
                    self.t.tap(self.button(f"{SYMBOLS[card[2]].capitalize()} plus one"))

    def win(self, cards: str) -> None:
        """Cards that join the tableau, as the table sees them (not yet entered)."""
        for card in cards.split():
            if card.startswith("S"):
                self.scroll_vp += int(card[1:])
            elif card.startswith("X:"):
                self.counts[SUITS[card[2]]] -= 1
            else:
                self.counts[SUITS[card[0]]] = self.counts.get(SUITS[card[0]], 0) + 1
                if ":" in card:
                    self.counts[SYMBOLS[card[2]]] = self.counts.get(SYMBOLS[card[2]], 0) + 1

    def count(self) -> None:
        """Each tower's height and each symbol's count that changed since the last count: one chip each."""
        panel = self.box.locator("details.count-tableau")
        if panel.get_attribute("open") is None:
            self.t.tap(panel.locator("summary"))
        for what, n in self.counts.items():
            if self.shown.get(what, 0) != n:
                self.t.tap(self.button(f"{what.capitalize()} {n}"))
                self.shown[what] = n
        if self.scroll_vp and self.shown.get("scroll_vp", 0) != self.scroll_vp:
            self.t.type(self.box.get_by_label("New Scroll VP"), str(self.scroll_vp), enter=True)
            self.shown["scroll_vp"] = self.scroll_vp


def play(table: Any) -> dict[str, int]:
    """The game played on the table; at its end each player's cards counted in one tap each; the totals the result
    must show."""
    seats = {p["name"]: Seat(table, p["name"]) for p in PLAYERS}
    for turn in TURNS:
        for name, cards in turn:
            seats[name].win(cards)
    for seat in seats.values():
        seat.count()
    table.finish()
    return EXPECTED


def play_card_by_card(table: Any) -> dict[str, int]:
    """The game, turn by turn, each card tapped in as it is won (+1 a card, +1 a symbol)."""
    seats = {p["name"]: Seat(table, p["name"]) for p in PLAYERS}
    for turn in TURNS:
        for name, cards in turn:
            seats[name].take(cards)
    table.finish()
    return EXPECTED


def play_each_trick(table: Any) -> dict[str, int]:
    """The game, turn by turn, each winner counting what the trick changed with the count chips."""
    seats = {p["name"]: Seat(table, p["name"]) for p in PLAYERS}
    for turn in TURNS:
        for name, cards in turn:
            seats[name].win(cards)
            seats[name].count()
    table.finish()
    return EXPECTED
