"""Every gift and switch of many played Profiteer games is told with the card that moved and the
side it went to, read from the positions before and after the move (issue 23's audit found the
gift that completes balancing and a switch on a pass's last flip told with the wrong card)."""

from __future__ import annotations

import re

from plunder.agents import make_agent
from plunder.games.profiteer.actions import Give, Switch
from plunder.games.profiteer.cards import card_text, rank
from plunder.games.profiteer.narrate import narrate
from plunder.games.profiteer.rules import ProfiteerGame, ProfiteerState

from tests.games.narration import moves

GAMES = 100
GAVE = re.compile(r"You gave (\S+) to side ([AB])")
#: every card by its name
CARDS = {card_text(c): c for c in range(52)}
SWITCHED = re.compile(r"You switched side ([AB])'s (\S+) for your (\S+) \((\S+) goes to your pile\)")


def _cards(state: ProfiteerState, side: str) -> int:
    """The cards ``side`` holds by name: its discard and the known cards of its deck."""
    return state.discard_a | state.known_a if side == "A" else state.discard_b | state.known_b


def _named(mask: int) -> set[str]:
    return {card_text(c) for c in range(52) if mask >> c & 1}


def test_gifts_and_switches_name_the_card_and_the_side() -> None:
    game = ProfiteerGame.load()
    gifts = switches = 0
    for seed in range(GAMES):
        agents = [make_agent("random" if seed % 2 else "easy", game)]
        for before, action, after in moves(game, agents, seed):
            said = narrate(before, action, after)
            if isinstance(action, Give):
                m = GAVE.match(said)
                assert m, said
                card, side = m.groups()
                assert card in _named(before.resources) - _named(after.resources), said
                assert rank(CARDS[card]) == action.rank, said
                smaller = "A" if before.pile_a() < before.pile_b() else "B"
                assert side == smaller, said
                assert card in _named(_cards(after, side)), f"{said}: {card} is not side {side}'s"
                gifts += 1
            elif isinstance(action, Switch):
                m = SWITCHED.match(said)
                assert m, said
                side, old, given, again = m.groups()
                assert old == again
                assert old == card_text(before.face_up(0 if side == "A" else 1)), said
                assert side == "AB"[action.side], said
                assert given in _named(before.resources) - _named(after.resources), said
                assert rank(CARDS[given]) == action.rank, said
                assert old in _named(after.profiteer_discard | after.resources | after.drawing), said
                switches += 1
    # the loop saw both kinds of move many times
    assert gifts >= 10 and switches >= 500, (gifts, switches)
