"""Levels easy/medium/hard exist for every game and are ordered in strength on Pillage."""

import random

import pytest

import plunder
from plunder.agents import agent_factories, agent_names, make_agent
from plunder.agents.levels import NoisyAgent
from plunder.agents.improve import RootSearch
from plunder.agents.mcts import MCTSAgent
from plunder.games.hubs import ENTRY
from plunder.games.pillage.hard import HardAgent
from plunder.simulate import simulate

from tests.agents.toy_games import race


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


def test_a_level_takes_its_agents_options_with_its_own_defaults() -> None:
    """``hard:seconds=0.5`` reaches Pillage's hard agent; ``hard:sims=N`` the generic search."""
    pillage = plunder.load_game("pillage", preset="classic")
    hard = make_agent("hard:seconds=0.5,sims=40", pillage)
    assert isinstance(hard, HardAgent) and hard.seconds == 0.5 and hard.name == "hard:seconds=0.5,sims=40"
    assert isinstance(hard.search, MCTSAgent) and hard.search.sims == 40
    with pytest.raises(plunder.ParameterError, match="agent hard option seconds='0' is not allowed"):
        make_agent("hard:seconds=0", pillage)
    toy = race(2)
    searcher = make_agent("hard", toy)
    assert isinstance(searcher, MCTSAgent) and searcher.sims == 2000 and searcher.seconds is None
    assert isinstance(make_agent("hard:sims=7", toy), MCTSAgent)
    with pytest.raises(plunder.ParameterError, match="agent easy has no option 'sims'; its options are: none"):
        make_agent("easy:sims=3", pillage)


@pytest.mark.parametrize("game_id", plunder.game_ids())
def test_every_level_decides_by_counts_not_seconds(game_id: str) -> None:
    """A level's moves must replay from the seed on any machine: no level sets a time budget."""
    game = plunder.load_game(game_id)
    for level in ("easy", "medium", "hard"):
        factory = agent_factories(game)[level]
        timed = {p.name: p.default for p in factory.params if p.name in ("seconds", "time")}
        assert all(v == "none" for v in timed.values()), timed


def test_hubs_hard_is_the_root_search_over_the_shortlist() -> None:
    """Hubs' ``hard`` is the root search measured in docs/ai.md, narrowed by the game's candidates."""
    game = plunder.load_game("hubs", preset="tiny")
    hard = make_agent("hard", game)
    assert isinstance(hard, RootSearch) and hard.name == "hard"
    assert hard.sims == 96 and hard.seconds is None and hard.candidates is ENTRY.strength.candidates
    assert hard.policy.name == "greedy"
