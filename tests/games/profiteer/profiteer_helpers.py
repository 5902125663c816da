"""Stacked tables for Profiteer scenario tests: decks chosen card by card."""

from __future__ import annotations

import plunder
from plunder.games.profiteer.cards import FULL_DECK, parse_cards
from plunder.games.profiteer.rules import UP_A, ProfiteerGame, ProfiteerState


def game(**params: object) -> ProfiteerGame:
    """A Profiteer game with ``params``."""
    g = plunder.load_game("profiteer", **params)
    assert isinstance(g, ProfiteerGame)
    return g


def stacked(g: ProfiteerGame, a: str, b: str, res: str = "", da: str = "", db: str = "", pdisc: str = "",
            rest_to_profiteer: bool = False, round: int = 1) -> ProfiteerState:
    """A position at the start of a flip with every pile named card by card.

    The decks are sets: which card comes up is the chance outcome the test applies next,
    so a test "stacks" a deck by the order of the draws it applies. With
    ``rest_to_profiteer`` every card not named goes to the profiteer's discard, so all 52
    are on the table.
    """
    piles = {k: parse_cards(v) for k, v in dict(ka=a, kb=b, res=res, da=da, db=db, pdisc=pdisc).items()}
    used = 0
    for mask in piles.values():
        assert not used & mask, "a card is named twice"
        used |= mask
    if rest_to_profiteer:
        piles["pdisc"] |= FULL_DECK & ~used
    return ProfiteerState(game=g, phase=UP_A, round=round, **piles)


def deal(state: ProfiteerState, *moves: str) -> ProfiteerState:
    """Apply moves in order; a move starting ``switch``/``give`` is one action, any other
    argument is a run of one-word actions (cards drawn, ``pass``, ``end``)."""
    for move in moves:
        words = move.split()
        for text in ([move] if words[0] in ("switch", "give") else words):
            out = state.apply_text(text)
            assert isinstance(out, ProfiteerState)
            state = out
    return state


def all_cards(s: ProfiteerState) -> list[int]:
    """Every named set of the position, for conservation checks."""
    return [s.pool, s.ka, s.kb, s.da, s.db, s.res, s.pdisc, s.drawn, s.pot_a, s.pot_b]
