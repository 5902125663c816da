"""OpenSpiel's own checks on the games as pyspiel Python games (small presets: the checker
replays every history at every step)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

from plunder.interop.openspiel import short_name


#: one short game each: the checker serializes and replays the whole history at every step
SHORT = [("pillage", {"preset": "example"}), ("pirates", {"preset": "block"}), ("hubs", {"preset": "tiny"}),
         ("profiteer", {"preset": "short"}), ("crossroads", {"preset": "2p", "max_rounds": 3})]


@pytest.mark.parametrize(("game_id", "params"), SHORT, ids=[g for g, _ in SHORT])
def test_random_sim_test_with_serialization(game_id: str, params: dict) -> None:
    """``pyspiel.random_sim_test`` passes on all five games, serialization included."""
    game = pyspiel.load_game(short_name(game_id), params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_pass_through_and_survive_the_game_string() -> None:
    """A game's own parameters load through pyspiel on top of the preset, and the game
    string OpenSpiel serializes with loads the same game back (numbers come back as ints)."""
    game = pyspiel.load_game(short_name("crossroads"), {"preset": "2p", "max_rounds": 3, "dice": "d6"})
    assert game.plunder.params["max_rounds"] == "3" and game.plunder.params["players"] == "2"
    assert game.plunder.params["dice"] == "d6"
    again = pyspiel.load_game(str(game))
    assert again.plunder.params == game.plunder.params
    assert pyspiel.load_game(short_name("crossroads"), {"preset": "2p"}).plunder.params["max_rounds"] == "200"


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


def test_a_clone_shares_the_game_and_goes_its_own_way() -> None:
    """A clone (OpenSpiel's deep copy) shares the game, the position and the encoding rather
    than copying them, and moves on without moving the original."""
    game = pyspiel.load_game(short_name("pillage"), {"preset": "small"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    assert clone.position is state.position and clone.encoding is state.encoding
    assert clone.position.game is state.position.game
    before = state.position
    line = clone.legal_actions()[0]
    clone.apply_action(line)
    assert state.position is before and state.history() + [line] == clone.history()
    assert clone.position == before.apply(state.encoding.actions.action(before, line))


#: each game's OpenSpiel type as its declaration gives it: (chance mode, utility, fewest and most players)
TYPES = {"pillage": ("EXPLICIT_STOCHASTIC", "ZERO_SUM", 2, 2), "pirates": ("EXPLICIT_STOCHASTIC", "GENERAL_SUM", 1, 1),
         "hubs": ("DETERMINISTIC", "ZERO_SUM", 2, 2), "profiteer": ("EXPLICIT_STOCHASTIC", "GENERAL_SUM", 1, 1),
         "crossroads": ("EXPLICIT_STOCHASTIC", "GENERAL_SUM", 2, 6), "pig": ("EXPLICIT_STOCHASTIC", "ZERO_SUM", 2, 2)}


@pytest.mark.parametrize("game_id", sorted(TYPES))
def test_the_game_type_is_what_the_game_declares(game_id: str) -> None:
    """Chance, utility and the seat range come from the game's declaration, the same whichever
    preset is loaded (a two-seat Crossroads is still a general-sum game)."""
    kind = pyspiel.load_game(short_name(game_id)).get_type()
    chance, utility, fewest, most = TYPES[game_id]
    assert (kind.chance_mode.name, kind.utility.name, kind.min_num_players, kind.max_num_players) == \
        (chance, utility, fewest, most)
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    two = pyspiel.load_game(short_name("crossroads"), {"preset": "2p"})
    assert two.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM and two.utility_sum() is None


def test_the_game_type_follows_a_changed_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter reads the declaration rather than guessing from the seat count: Pig declared
    general-sum, without chance and with hidden information is typed so."""
    from plunder.core.registry import entry
    from plunder.interop import openspiel

    pig = entry("pig")
    changed = dataclasses.replace(pig, declaration=dataclasses.replace(
        pig.declaration, zero_sum=False, chance=False, hidden_information=True, max_seats=3))
    monkeypatch.setattr(openspiel, "entry", lambda game_id: changed)
    kind = openspiel._game_type("pig")
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 3)
