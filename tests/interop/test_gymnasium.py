"""Gymnasium's own checker on the solitaires, and the two-player games against an opponent."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env

from plunder.core import chance
from plunder.interop.gymnasium import GAMES, SOLITAIRES, PlunderEnv, versus
from plunder.interop.pettingzoo import env


#: a short preset of each game with an observation, for the checkers (Pig has its own)
SHORT = {"pillage": "small", "pirates": "block", "hubs": "tiny", "profiteer": "short", "crossroads": "2p", "pig": "quick"}


@pytest.mark.parametrize("env_id", list(GAMES))
def test_check_env_without_a_warning(env_id: str) -> None:
    """``check_env`` passes on every registered game (two-player ones against ``random``)
    with warnings as errors: no unbounded observation box, nothing else to warn of."""
    assert set(SOLITAIRES) < set(GAMES) and {"plunder/Pillage-v0", "plunder/Pig-v0"} <= set(GAMES)
    env_ = gymnasium.make(env_id, preset=SHORT[GAMES[env_id]])
    box = env_.observation_space
    assert isinstance(box, gymnasium.spaces.Box) and np.isfinite(box.low).all() and np.isfinite(box.high).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env_.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", list(GAMES))
def test_masks_reach_through_gymnasium_make(env_id: str) -> None:
    """The env ``gymnasium.make`` gives (wrapped in its checker and order enforcer) hands its
    mask to ``get_wrapper_attr("action_masks")``, as Stable-Baselines3 looks it up, equal to
    ``info["action_mask"]`` and naming the legal actions of the position."""
    env_ = gymnasium.make(env_id, preset=SHORT[GAMES[env_id]])
    assert env_ is not env_.unwrapped
    _, info = env_.reset(seed=3)
    for _ in range(5):
        mask = env_.get_wrapper_attr("action_masks")()
        assert np.array_equal(mask, info["action_mask"])
        plunder_env = env_.unwrapped
        assert isinstance(plunder_env, PlunderEnv)
        legal = plunder_env.episode.state.legal_actions()
        actions = plunder_env.encoding.actions
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions.index(plunder_env.episode.state, a) for a in legal)
        _, _, done, _, info = env_.step(int(np.flatnonzero(mask)[0]))
        if done:
            break


@pytest.mark.parametrize("game_id", ["pillage", "hubs", "crossroads"])
def test_versus_plays_to_the_end(game_id: str) -> None:
    """Masked random play from seat 1 against ``random`` ends with a return paid once."""
    preset = {"pillage": "example", "hubs": "tiny", "crossroads": "2p"}[game_id]
    env = versus(game_id, opponent="random", seat=1, preset=preset)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    total, done, steps = 0.0, False, 0
    while not done and steps < 3000:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, _, info = env.step(action)
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
    assert done and total in (-1.0, 0.0, 1.0)


def test_an_illegal_index_ends_the_episode() -> None:
    """An index naming no legal action: reward -1, episode over, flagged in info."""
    env = gymnasium.make("plunder/Profiteer-v0").unwrapped
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_check_env_renders_rgb_frames() -> None:
    """``check_env`` with its render check on an ``rgb_array`` env, and the frames it gives."""
    env = gymnasium.make("plunder/Profiteer-v0", render_mode="rgb_array", preset="short").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env)
    env.reset(seed=2)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape[2] == 3


@pytest.mark.parametrize("game_id", ["pirates", "profiteer"])
def test_a_seed_plays_the_game_of_pettingzoo_and_of_the_raw_api(game_id: str) -> None:
    """``reset(seed=s)`` is the episode's chance seed: over seeded games, the same action
    indices give the same observations, masks, rewards and ends through Gymnasium, through
    PettingZoo, and as the raw API drawing chance event ``k`` from ``uniform(s, k)``."""
    preset = "block" if game_id == "pirates" else "short"
    gym_env = PlunderEnv(game_id, preset=preset)
    aec = env(game_id, preset=preset)
    game = aec.game
    for seed in range(12):
        obs, info = gym_env.reset(seed=seed)
        aec.reset(seed=seed)
        state, events = game.new_initial_state(), 0
        rng = random.Random(seed)
        done, reward = False, 0.0
        while True:
            while state.is_chance_node():
                state = state.apply(chance.draw(state, seed, events))
                events += 1
            assert state == gym_env.episode.state == aec.state_now
            aec_obs, aec_reward, terminated, _, _ = aec.last()
            assert np.array_equal(obs, aec_obs["observation"])
            assert np.array_equal(info["action_mask"], aec_obs["action_mask"])
            assert done == terminated
            if done:
                assert aec_reward == reward == state.returns()[0]
                break
            index = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            state = state.apply(aec.encoding.actions.action(state, index))
            obs, reward, done, _, info = gym_env.step(index)
            aec.step(index)


def test_the_generator_is_made_from_the_reset_seed_when_asked_for() -> None:
    """After ``reset(seed=s)``, ``np_random`` is the generator ``super().reset(seed=s)`` would
    have made, though none is made until something asks for it."""
    env_ = PlunderEnv("profiteer")
    env_.reset(seed=7)
    assert env_._generator is None and env_.np_random_seed == 7
    expected, _ = seeding.np_random(7)
    assert env_.np_random.bit_generator.state == expected.bit_generator.state
