"""Crossroads' how-to page for a browser (:mod:`plunder.core.howto`): a first city, a roll
that pays, a city built and a trade accepted, each drawn from a seeded game."""

from __future__ import annotations

from ...core.howto import HowToSection, Position, seek
from .actions import Accept, Axis, City, Place
from .rules import CrossroadsGame

#: the games the pictures come from
SEED = 1


def sections() -> list[HowToSection]:
    """How to play Crossroads, with pictures of the default 4-player game."""
    game = CrossroadsGame.load()
    target, rounds, offers = game.values["target"], game.values["max_rounds"], game.values["offers"]
    start = Position(game.new_initial_state())
    setup = seek(start, SEED, lambda s, a, t: isinstance(a, Place))
    roll = seek(start, SEED, lambda s, a, t: isinstance(a, Axis) and t.gold != s.gold)
    build = seek(start, SEED, lambda s, a, t: isinstance(a, City))
    trade = seek(start, SEED, lambda s, a, t: isinstance(a, Accept) and t.offer is None)
    return [
        HowToSection("The board and your first city", (
            f"Crossroads is a game of building and trading for 2 to 6 players: be the first to "
            f"{target} gold at the end of a round. The 10x10 board has columns A-J and rows 1-10; "
            "both edges also carry the dice labels 1-5 twice.",
            "To begin, each player rolls and clicks one of the highlighted cells to put a first city "
            "there. Everyone starts with 0 gold.",
        ), setup),
        HowToSection("Rolling", (
            "A round: every player takes a turn, then everyone trades. On your turn you roll two dice "
            "(1-5). If they differ, choose with the buttons which one is the column. The four cells "
            "whose labels match light up and pay: a city, its owner +5; an empty cell, +3 to each city "
            "touching it; a road, +1 to every city that could trade directly with it.",
        ), roll),
        HowToSection("Building", (
            "Then build as often as your gold lasts, clicking the cells offered, and click done. A road "
            "(3 gold) goes on an empty cell linked to one of your cities and touching no other player's "
            "city; a city (10 gold) beside a road, linked to one of your cities and touching no other "
            "city.",
        ), build),
        HowToSection("Trading", (
            "After every turn of the round comes trading. Two players whose cities are linked by roads "
            "may trade: a trade makes 3 new gold, split as the offer says, and the other player accepts "
            "or rejects it in the trade panel. A route through a third player's city needs that "
            "player's consent, and they may demand a fee, which is paid out of the proposer's share "
            f"first. Each city trades once a round, and each player makes at most {offers} offers a "
            "round; trading ends when everyone passes in a row.",
            f"At the end of a round, whoever has {target} gold or more wins (the richest); a tie at the "
            f"top plays another round. After {rounds} rounds the game ends anyway, and the richest win.",
        ), trade),
    ]
