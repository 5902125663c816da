"""The search's helpers: candidate moves one per rank, fast rollouts, the hard level."""

from __future__ import annotations

import random

import plunder
from plunder.agents import make_agent
from plunder.agents.improve import RootSearch
from plunder.core.registry import entry
from plunder.games.profiteer.agents import PROFIT_WEIGHTS, GreedyAgent, candidates
from plunder.games.profiteer.fast import play_out
from plunder.games.profiteer.rules import END, GIVE, PASS, SWITCH_A, SWITCH_B, ProfiteerState
from tests.games.profiteer.profiteer_helpers import deal, game, stacked


def test_candidates_try_each_rank_once() -> None:
    # side A deck: 8S 2C   side B deck: QH 3C   resources: 9C 9D QC KS
    #   A 8S v B QH: A may take 9, Q or K (not both nines), B only K
    g = game()
    s = deal(stacked(g, a="8S 2C", b="QH 3C", res="9C 9D QC KS"), "8S QH")
    assert s.phase == 3  # SWITCH
    got = candidates(s)
    nine, queen, king = 7 * 4, 10 * 4, 11 * 4
    assert got == [PASS, SWITCH_A + nine, SWITCH_A + queen, SWITCH_A + king + 3, SWITCH_B + king + 3]
    assert set(got) <= set(s.legal_actions())


def test_balance_candidates_give_one_card_per_rank() -> None:
    g = game()
    s = ProfiteerState(game=g, phase=6, res=0b1111 | 1 << 8, ka=0b1 << 20, da=0b11 << 24, round=1)
    assert candidates(s) == [END, GIVE + 0, GIVE + 8]


def test_play_out_ends_the_game_and_repeats_for_a_seed() -> None:
    g = game()
    agent = GreedyAgent(PROFIT_WEIGHTS)
    start = g.new_initial_state()
    a = play_out(start, agent, random.Random(5))
    b = play_out(start, agent, random.Random(5))
    assert a.is_terminal() and a == b and a.returns() == b.returns()


def test_fast_evaluator_values_in_range() -> None:
    g = game()
    make = entry("profiteer").evaluator
    assert make is not None
    values = make(g, 3, "policy").evaluate([g.new_initial_state()], random.Random(0))
    assert -1.0 <= values[0][0] <= 1.0


def test_hard_is_the_root_search_over_profit() -> None:
    g = plunder.load_game("profiteer")
    hard = make_agent("hard", g)
    assert isinstance(hard, RootSearch) and hard.policy.name == "profit"
