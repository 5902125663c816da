"""The shared conformance check on every preset, plus deeper games played by the greedy captain."""

from __future__ import annotations

import random

import pytest

import plunder
from plunder.core.conformance import ConformanceReport, check_game, check_state
from plunder.core.chance import sample_chance
from plunder.games.pirates.agents import GreedyCaptain
from plunder.games.pirates.rules import Phase, PiratesGame, PiratesState


@pytest.mark.parametrize("preset", sorted(PiratesGame.presets))
def test_conformance(preset: str) -> None:
    report = check_game(PiratesGame.load(preset=preset), playthroughs=40, full_checks=4)
    assert report.games == 40 and report.illegal_refused > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_conformance_of_states_a_greedy_captain_reaches(seed: int) -> None:
    # random play rarely lives long; the greedy captain reaches burials, refits, turn 20
    game = PiratesGame.load(layout="brick")
    rng = random.Random(seed)
    report = ConformanceReport()
    captain = GreedyCaptain()
    state = game.new_initial_state()
    phases = set()
    while not state.is_terminal():
        check_state(game, state, rng, report, full=False)
        assert isinstance(state, PiratesState)
        phases.add(state.phase)
        action = sample_chance(state, rng) if state.is_chance_node() else captain.choose(state, rng)
        state = state.apply(action)
    assert {Phase.SAIL, Phase.BURY} <= phases


def test_parameters_have_clear_errors() -> None:
    with pytest.raises(plunder.ParameterError, match="ties='sometimes' is not allowed"):
        PiratesGame.load(ties="sometimes")
    with pytest.raises(plunder.ParameterError, match="above the maximum"):
        PiratesGame.load(turns=500)
    with pytest.raises(plunder.ParameterError, match="no preset"):
        PiratesGame.load(preset="atlantis")
