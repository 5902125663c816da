"""Candidate moves for searches: a few ranked builds out of many legal ones."""

from __future__ import annotations

import random

import plunder
from plunder.agents import make_agent
from plunder.core.game import CHANCE
from plunder.core.chance import sample_chance
from plunder.games.crossroads.agents import candidates
from plunder.games.crossroads.actions import Done
from plunder.games.crossroads.rules import CrossroadsState, Phase


def test_candidates_are_legal_and_few_on_big_building_turns() -> None:
    game = plunder.load_game("crossroads", players="2")
    rng = random.Random(3)
    greedy = make_agent("greedy", game)
    state = game.new_initial_state()
    big = 0
    while not state.is_terminal() and big < 5:
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        position = state
        assert isinstance(position, CrossroadsState)
        legal = position.legal_actions()
        got = candidates(position)
        assert got and set(got) <= set(legal)
        if position.phase is Phase.BUILD and len(legal) > 6:
            big += 1
            assert len(got) <= 8 and Done() in got
        else:
            assert got == legal
        state = state.apply(greedy.choose(state, rng))
    assert big == 5
