"""Property tests: the 52 cards are conserved; only wars add to the profiteer, only gifts take."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import plunder
from plunder.core.chance import sample_chance
from plunder.games.profiteer.cards import FULL_DECK
from plunder.agents import make_agent
from plunder.games.profiteer.actions import KEEP, Give, ProfiteerAction
from plunder.games.profiteer.flow import DOWN_A, DOWN_B, SETUP, SWITCH
from plunder.games.profiteer.rules import ProfiteerState
from tests.games.profiteer.profiteer_helpers import all_cards


def _check_conserved(s: ProfiteerState) -> None:
    sets = all_cards(s)
    union = 0
    for mask in sets:
        assert not union & mask, f"a card is in two piles at {s.summary()}"
        union |= mask
    assert union == FULL_DECK and sum(m.bit_count() for m in sets) == 52
    if s.phase != SETUP:
        # the unseen pool is exactly the sides' unseen deck cards
        assert s.unseen_a + s.unseen_b == s.pool.bit_count() and s.unseen_a >= 0 and s.unseen_b >= 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["default", "war_switch", "lean"]),
       agent=st.sampled_from(["random", "greedy"]))
def test_cards_conserved_and_profit_moves_only_by_wars_and_gifts(seed: int, preset: str, agent: str) -> None:
    game = plunder.load_game("profiteer", preset=preset)
    player = make_agent(agent, game)
    rng = random.Random(seed)
    s = game.new_initial_state()
    assert isinstance(s, ProfiteerState)
    while not s.is_terminal():
        _check_conserved(s)
        action: ProfiteerAction = player.choose(s, rng) if s.current_player == 0 else sample_chance(s, rng)  # type: ignore[assignment]
        t = s.apply(action)
        assert isinstance(t, ProfiteerState)
        if s.phase != SETUP and t.phase != SETUP:
            gained = t.total() - s.total()
            if s.phase == SWITCH:
                assert gained == 0, "a switch never changes the profiteer's total"
                if action != KEEP:
                    work = s.working()  # the game's observer counts a switch on the rules' working copy
                    work.apply(action)
                    assert work.switches == 1
            elif s.phase in (DOWN_A, DOWN_B):
                assert gained == 1, "each face-down war card goes to the profiteer"
            elif isinstance(action, Give):
                assert gained == -1, "a gift costs the profiteer one card"
            else:
                assert gained == 0, f"the profiteer's count moved by {gained} at {s.summary()}"
        s = t
    _check_conserved(s)
    assert s.returns() == [1.0 if s.total() >= game.values["target"] else -1.0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_action_texts_round_trip_through_a_game(seed: int) -> None:
    game = plunder.load_game("profiteer", preset="war_switch")
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        for a in s.legal_actions():
            assert game.parse_action(s, game.action_to_text(s, a)) == a
        s = s.apply(rng.choice(s.legal_actions()))
