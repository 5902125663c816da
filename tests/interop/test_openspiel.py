"""OpenSpiel's own checks on the games as pyspiel Python games (small presets: the checker
replays every history at every step)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

from plunder.interop.openspiel import short_name


@pytest.mark.parametrize(("game_id", "preset"), [("pillage", "example"), ("hubs", "tiny")])
def test_random_sim_test_with_serialization(game_id: str, preset: str) -> None:
    """``pyspiel.random_sim_test`` passes, serialization included."""
    game = pyspiel.load_game(short_name(game_id), {"preset": preset})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_mcts_bot_plays_through_evaluate_bots() -> None:
    """OpenSpiel's MCTSBot plays a whole Pillage game against a random bot."""
    game = pyspiel.load_game(short_name("pillage"), {"preset": "example"})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=rng),
            pyspiel.make_uniform_random_bot(1, 5)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_observation_tensor_is_the_encoding() -> None:
    """The observation tensor has the encoding's length for every seat."""
    game = pyspiel.load_game(short_name("profiteer"), {"preset": "short"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
