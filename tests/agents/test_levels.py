"""Levels easy/medium/hard exist for every game and are ordered in strength on Pillage."""

import random

import pytest

import plunder
from plunder.agents import agent_names, make_agent
from plunder.agents.levels import NoisyAgent
from plunder.agents.mcts import MCTSAgent
from plunder.games.pillage.hard import HardAgent
from plunder.simulate import simulate


@pytest.mark.parametrize("game_id", plunder.game_ids())
def test_every_game_has_the_three_levels(game_id: str) -> None:
    game = plunder.load_game(game_id)
    names = agent_names(game)
    for level in ("easy", "medium", "hard"):
        assert level in names
        agent = make_agent(level, game)
        assert agent.name == level


def test_easy_is_noisy_greedy_and_hard_searches_on_pillage() -> None:
    game = plunder.load_game("pillage")
    easy = make_agent("easy", game)
    assert isinstance(easy, NoisyAgent) and easy.base.name == "greedy"
    hard = make_agent("hard", game)
    assert isinstance(hard, HardAgent) and isinstance(hard.search, MCTSAgent)


def test_noisy_agent_mixes_random_moves() -> None:
    game = plunder.load_game("pillage", preset="classic")
    state = game.new_initial_state()
    greedy = make_agent("greedy", game)
    noisy = NoisyAgent(greedy, 1.0, "all noise")
    rng = random.Random(0)
    picks = {noisy.choose(state, rng) for _ in range(60)}
    assert len(picks) > 10 and picks <= set(state.legal_actions())


def test_medium_beats_easy_on_pillage() -> None:
    result = simulate("pillage", {"board": "square:3x3", "contents": "random"}, ["medium", "easy"], 10)
    assert result.tallies["medium"].wins >= 7
