"""Profiteer's how-to page for a browser (:mod:`plunder.core.howto`): the deal, a switch, a war
and a gift at the count, each drawn from a seeded game."""

from __future__ import annotations

from ...core.howto import HowToSection, seek, settle
from .actions import Give, Keep, Switch
from .agents import GreedyAgent
from .rules import ProfiteerGame

#: the games the pictures come from
SEED = 5


def sections() -> list[HowToSection]:
    """How to play Profiteer, with pictures of the default game."""
    game = ProfiteerGame.load()
    opening = settle(game.new_initial_state(), SEED)
    # the greedy profiteer keeps the sides level, so its games reach gifts at the count
    play = GreedyAgent().choose
    switch = seek(opening, SEED, lambda s, a, t: isinstance(a, Switch), play)
    war = seek(opening, SEED, lambda s, a, t: isinstance(a, Keep) and t.war_round > s.war_round, play)
    count = seek(opening, SEED, lambda s, a, t: isinstance(a, Give), play)
    return [
        HowToSection("The deal", (
            "Profiteer is a game for one: you profit from both sides of a game of War. You draw 10 cards "
            "and keep the best 8 as your resources (along the bottom); the other 44 cards are split "
            "between side A and side B. Suits never matter: 2 is lowest, ace highest.",
            f"You win with {game.target} cards or more, your pile and resources together, when the game ends.",
        ), opening),
        HowToSection("A flip and a switch", (
            "Each flip, both sides turn up a card. Before it counts you may switch one of them for a "
            "higher card of your resources: click the →A or →B tab under that resource. The card you "
            "take goes to your pile. Or click keep to let the flip stand. The higher card takes both "
            "into its side's pile.",
        ), switch),
        HowToSection("War", (
            "Equal cards mean War: each side plays a card face down and one face up, and every "
            "face-down card goes to your pile. A tie again means another war, so switching a card to "
            "make a tie is how you collect cards. A war that runs out of cards makes both sides shuffle "
            "their own piles in to finish it, and then the pass ends.",
        ), war),
        HowToSection("The count", (
            "When the decks run out, the sides' piles are counted. Equal piles: another pass, and you "
            "draw a new hand from your pile. Unequal: click your resources to give them to the smaller "
            "side until the piles match, or end. If you cannot make them equal, the game is over, so "
            "keep the sides even.",
            f"The game also ends when a side has no cards left, or after {game.max_rounds} passes.",
        ), count),
    ]
