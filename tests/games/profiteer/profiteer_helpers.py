"""Stacked tables for Profiteer scenario tests: decks chosen card by card."""

from __future__ import annotations

from typing import Any

import plunder
from plunder.games.profiteer.cards import FULL_DECK, parse_cards
from plunder.games.profiteer.flow import Phase
from plunder.games.profiteer.rules import ProfiteerGame, ProfiteerState
from plunder.games.profiteer.stats import ProfiteerObserver


def game(**params: str) -> ProfiteerGame:
    """A Profiteer game with ``params``."""
    g = plunder.load_game("profiteer", **params)
    assert isinstance(g, ProfiteerGame)
    return g


def stacked(g: ProfiteerGame, a: str, b: str, res: str = "", da: str = "", db: str = "", pdisc: str = "",
            rest_to_profiteer: bool = False, round: int = 1) -> ProfiteerState:
    """A position at the start of a flip with every pile named card by card: side A's deck
    ``a`` and discard ``da``, side B's ``b`` and ``db``, the resources ``res`` and the
    profiteer's discard ``pdisc``.

    The decks are sets: which card comes up is the chance outcome the test applies next,
    so a test "stacks" a deck by the order of the draws it applies. With
    ``rest_to_profiteer`` every card not named goes to the profiteer's discard, so all 52
    are on the table.
    """
    piles: dict[str, Any] = {name: parse_cards(text) for name, text in dict(
        known_a=a, known_b=b, resources=res, discard_a=da, discard_b=db, profiteer_discard=pdisc).items()}
    used = 0
    for mask in piles.values():
        assert not used & mask, "a card is named twice"
        used |= mask
    if rest_to_profiteer:
        piles["profiteer_discard"] |= FULL_DECK & ~used
    return ProfiteerState(game=g, phase=Phase.UP_A, round=round, **piles)


def deal(state: ProfiteerState, *moves: str) -> ProfiteerState:
    """Apply moves in order; a move starting ``switch``/``give`` is one action, any other
    argument is a run of one-word actions (cards drawn, ``keep``, ``end``)."""
    for move in moves:
        words = move.split()
        for text in ([move] if words[0] in ("switch", "give") else words):
            state = state.apply_text(text)
    return state


class Tally:
    """Deals moves as :func:`deal` does, showing each to the game's observer: the flips,
    wars, switches, gifts and reshuffles are its counts, not the position's."""

    def __init__(self, state: ProfiteerState) -> None:
        self.state = state
        self.observer = ProfiteerObserver(state.game)

    def deal(self, *moves: str) -> ProfiteerState:
        """The position after ``moves`` (as :func:`deal` reads them), each shown to the observer."""
        for move in moves:
            words = move.split()
            for text in ([move] if words[0] in ("switch", "give") else words):
                before = self.state
                action = before.game.parse_action(before, text)
                self.state = before.apply(action)
                self.observer.see(before, action, self.state)
        return self.state

    def __getitem__(self, name: str) -> float | list[float]:
        """The observer's figure ``name`` so far."""
        return self.observer.stats(self.state)[name]


def all_cards(s: ProfiteerState) -> list[int]:
    """Every named set of the position, for conservation checks."""
    return [s.pool, s.known_a, s.known_b, s.discard_a, s.discard_b, s.resources, s.profiteer_discard, s.drawing,
            s.stake_a, s.stake_b]
