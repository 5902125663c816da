"""Gymnasium's own checker on the solitaires, and the two-player games against an opponent."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from plunder.interop.gymnasium import SOLITAIRES, versus


@pytest.mark.parametrize("env_id", list(SOLITAIRES))
def test_check_env(env_id: str) -> None:
    """``check_env`` passes on the registered solitaires."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(gymnasium.make(env_id).unwrapped, skip_render_check=True)


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
