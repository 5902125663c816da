"""The example game Pig (``examples/pig``, installed from outside Plunder) through the
adapters: its ``TableObservation(observe, action_table)`` serves as its encoding, and PettingZoo's
``api_test``, OpenSpiel's ``random_sim_test`` and Gymnasium's ``versus`` run on it."""

from __future__ import annotations

import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

from plunder.core.capabilities import Learning
from plunder.core.errors import ParameterError
from plunder.core.registry import GameEntry, load_game
from plunder.core.registry import entry as registry_entry
from plunder.interop import encoding as encoding_module
from plunder.interop.encoding import encoding
from plunder.interop.gymnasium import versus
from plunder.interop.openspiel import short_name
from plunder.interop.pettingzoo import env
from plunder.core.observation import TableObservation
from plunder.core.spaces import TableSpace


@pytest.mark.parametrize("preset", ["standard", "quick"])
def test_pettingzoo_api_test(preset: str) -> None:
    """``api_test`` and ``seed_test`` pass (their advice on dict observations is only advice)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env("pig", preset=preset), num_cycles=50)
        seed_test(lambda: env("pig", preset=preset), num_cycles=50)


def test_openspiel_random_sim_test() -> None:
    """``random_sim_test`` passes, serialization included; the die is a chance node of six outcomes."""
    game = pyspiel.load_game(short_name("pig"), {"preset": "quick"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)  # roll: the first of the action table
    assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 6)] * 6


def test_the_encoding_is_the_games_own_observe_and_action_table() -> None:
    """The vector is ``observe``'s numbers as float32 and the actions are ``action_table``'s."""
    game = load_game("pig", goal=50)
    enc = encoding(game)
    state = game.new_initial_state().apply_text("roll").apply_text("die 5")
    assert isinstance(enc.actions, TableSpace)
    assert [game.action_to_text(state, a) for a in enc.actions.actions] == ["roll", "hold"]
    assert enc.size == 6
    assert enc.observe(state, 0).tolist() == pytest.approx([0, 0, 0.1, 1, 0, 0])
    assert enc.observe(state, 1).tolist() == pytest.approx([0, 0, 0.1, 0, 0, 0])
    assert enc.actions.mask(state).tolist() == [1, 1]
    out = np.full(enc.size, 9, np.float32)
    assert enc.observe(state, 0, out) is out and out[2] == pytest.approx(0.1)


def test_versus_plays_pig_to_the_end() -> None:
    """Masked random play against ``greedy`` ends with a return paid once."""
    e = versus("pig", opponent="greedy", seat=1, preset="quick")
    _, info = e.reset(seed=4)
    rng = np.random.default_rng(4)
    total, done, steps = 0.0, False, 0
    while not done and steps < 5000:
        _, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
    assert done and total in (-1.0, 0.0, 1.0)


def test_a_game_without_observe_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose entry offers no ``observe`` gets a ParameterError naming what it lacks."""
    game = load_game("pig")
    monkeypatch.setattr(encoding_module, "entry", lambda game_id: GameEntry(type(game), registry_entry("pig").declaration))
    with pytest.raises(ParameterError, match="pig offers no observation for learning"):
        encoding(game)


def test_an_observe_whose_length_changes_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """``observe`` must give the same count everywhere: a longer vector later is an error, not a resize."""
    game = load_game("pig")
    real = load_game("pig").new_initial_state().legal_actions()
    entry: GameEntry = GameEntry(type(game), registry_entry("pig").declaration, learning=Learning(observation=TableObservation(
        lambda state, seat: [0.0] * (1 + (state.scores()[0] > 0)), lambda g: real)))
    monkeypatch.setattr(encoding_module, "entry", lambda game_id: entry)
    enc = encoding(game)
    assert enc.size == 1
    state = game.new_initial_state().apply_text("roll").apply_text("die 4").apply_text("hold")
    with pytest.raises(ValueError, match="observe gave 2 numbers .* 1 at the start"):
        enc.observe(state, 0)
