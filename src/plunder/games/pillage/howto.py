"""Pillage and Profit's how-to page for a browser (:mod:`plunder.core.howto`): the board, a
line that takes a box, a modifier chosen, and the end, each drawn from a seeded game."""

from __future__ import annotations

from ...core.howto import HowToSection, seek, settle
from .actions import Choose, Line
from .rules import PillageGame

#: the games the pictures come from
SEED = 3


def sections() -> list[HowToSection]:
    """How to play Pillage and Profit, with pictures of the default board."""
    game = PillageGame.load()
    opening = settle(game.new_initial_state(), SEED)
    take = seek(opening, SEED, lambda s, a, t: isinstance(a, Line) and t.owner != s.owner and not t.pending)
    choose = seek(opening, SEED, lambda s, a, t: isinstance(a, Choose) and s.values != t.values)
    last = seek(opening, SEED, lambda s, a, t: t.is_terminal())
    return [
        HowToSection("The board", (
            "Pillage and Profit is Dots and Boxes where every box holds a prize, for 2 players. Each box "
            "holds doubloons ($3 is worth 3 to whoever takes the box), a commodity (F for food, W for "
            "weapons, A for armor: one item, worth the commodity's value at the end) or a modifier "
            "(such as -5FWA) that moves a commodity's value up or down for both players.",
            "The legend under the board shows what each commodity is worth now, and each player's score so far.",
        ), opening),
        HowToSection("Your turn: draw a line", (
            "Click or tap between two neighbouring dots to draw the line joining them. If your line "
            "closes a box (or two), they are yours and you draw again; otherwise it is the other "
            "player's turn. You never have to take a box: count what a line would give away first.",
        ), take),
        HowToSection("Taking a modifier", (
            "When you take a modifier you choose what it does, with the buttons under the board: its "
            "operation and which commodity it changes. It changes that commodity's value for both "
            "players, so cut what your opponent holds and raise what you hold. A value can go below "
            "zero, and then each item of it costs its holder. When one line takes two modifiers you "
            "choose which to use first.",
        ), choose),
        HowToSection("The end and the score", (
            "The game ends when every line is drawn. Your score is your doubloons plus, for each "
            "commodity you hold, how many you hold times its final value. The higher score wins; "
            "equal scores tie.",
        ), last),
    ]
