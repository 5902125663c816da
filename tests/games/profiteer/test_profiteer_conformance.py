"""The shared conformance check on every Profiteer preset, and the fast path against the public API."""

from __future__ import annotations

import pytest

import plunder
from plunder.match import agent_rng, play_stats
from plunder.core.conformance import check_game
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.games.profiteer.rules import ProfiteerGame


@pytest.mark.parametrize("preset", sorted(ProfiteerGame.presets))
def test_conformance(preset: str) -> None:
    report = check_game(plunder.load_game("profiteer", preset=preset), playthroughs=30, full_checks=3)
    assert report.games == 30 and report.illegal_refused > 0


@pytest.mark.parametrize("agent", ["random", "greedy", "profit"])
@pytest.mark.parametrize("preset", ["default", "war_switch", "lean"])
def test_fast_play_plays_the_same_games_as_the_public_api(agent: str, preset: str) -> None:
    game = plunder.load_game("profiteer", preset=preset)
    fast_play = entry("profiteer").speed.fast_play
    assert fast_play is not None
    for seed in range(12):
        record, _, stats = play_stats(game, [agent], seed=seed)
        fast = fast_play(game, [make_agent(agent, game)], [agent_rng(seed, 0)], seed)
        assert fast is not None
        assert (fast.returns, fast.scores, fast.stats) == (record.returns, record.scores, stats), seed


def test_fast_play_declines_the_wrong_number_of_agents() -> None:
    fast_play = entry("profiteer").speed.fast_play
    assert fast_play is not None
    game = plunder.load_game("profiteer")
    two = [make_agent("random", game)] * 2
    assert fast_play(game, two, [agent_rng(0, 0), agent_rng(0, 1)], 0) is None
