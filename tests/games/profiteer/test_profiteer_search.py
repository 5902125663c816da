"""The search's helpers: fast rollouts and the hard level."""

from __future__ import annotations

import random

import plunder
from plunder.agents import make_agent
from plunder.agents.improve import RootSearch
from plunder.core.registry import entry
from plunder.games.profiteer.agents import PROFIT_WEIGHTS, GreedyAgent
from plunder.games.profiteer.fast import finish, play_to_end
from plunder.games.profiteer.stats import ProfiteerObserver, final_stats
from tests.games.profiteer.profiteer_helpers import game


def test_play_to_end_ends_the_game_and_repeats_for_a_seed() -> None:
    g = game()
    agent = GreedyAgent(PROFIT_WEIGHTS)
    start = g.new_initial_state()
    a = play_to_end(start, agent, random.Random(5))
    b = play_to_end(start, agent, random.Random(5))
    assert a.is_terminal() and a == b and a.returns() == b.returns()
    # the same game as the public API plays when chance and the agent draw from the same rng
    rng, s = random.Random(5), start
    observer = ProfiteerObserver(g)
    while not s.is_terminal():
        action = agent.choose(s, rng) if s.current_player == 0 else plunder.core.chance.sample_chance(s, rng)
        after = s.apply(action)
        observer.see(s, action, after)
        s = after
    # the fast path's tallies are the observer's counts of the same game
    again = random.Random(5)
    final, tallies = finish(start, agent, again, again.random)
    assert s == a == final and observer.stats(s) == final_stats(final, tallies)


def test_fast_evaluator_values_in_range() -> None:
    g = game()
    make = entry("profiteer").strength.evaluator
    assert make is not None
    for playout in ("policy", "random"):
        values = make(g, 3, playout).evaluate([g.new_initial_state()], random.Random(0))
        assert values[0][0] in (-1.0, -1 / 3, 1 / 3, 1.0)


def test_hard_is_the_root_search_over_profit() -> None:
    g = plunder.load_game("profiteer")
    hard = make_agent("hard", g)
    assert isinstance(hard, RootSearch) and hard.policy.name == "profit"
