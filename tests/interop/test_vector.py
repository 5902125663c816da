"""The vector environment: Gymnasium 1.x's NEXT_STEP autoreset, and each copy playing the game
the single environment plays for the same seed and actions."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from plunder.interop.gymnasium import GAMES, PlunderEnv
from plunder.interop.vector import PlunderVectorEnv

SHORT = {"pillage": "small", "pirates": "block", "hubs": "tiny", "profiteer": "short", "crossroads": "2p", "pig": "quick"}


def pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform choice among the mask's legal indices."""
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("env_id", list(GAMES))
def test_make_vec_gives_the_vector_env_with_batched_spaces(env_id: str) -> None:
    """``gymnasium.make_vec`` uses the vector entry point: one row per copy, finite boxes,
    the autoreset mode in the metadata, masks for every copy."""
    envs = gymnasium.make_vec(env_id, num_envs=3, preset=SHORT[GAMES[env_id]])
    assert isinstance(envs, PlunderVectorEnv) and envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=1)
    box, actions = envs.observation_space, envs.single_action_space
    assert isinstance(box, spaces.Box) and isinstance(actions, spaces.Discrete)
    assert obs.shape == (3, envs.envs[0].encoding.size) and box.contains(obs) and np.isfinite(box.low).all()
    assert info["action_mask"].shape == (3, actions.n) and (info["action_mask"].sum(1) > 0).all()
    assert np.array_equal(envs.action_masks(), info["action_mask"])


@pytest.mark.parametrize(("game_id", "preset"), [("pillage", "example"), ("profiteer", "short"), ("hubs", "tiny"),
                                                 ("pig", "quick")])
def test_each_copy_plays_the_single_envs_games(game_id: str, preset: str) -> None:
    """Copy ``i`` of ``reset(seed=s)`` plays, step for step, what a single env reset with
    ``s + i`` plays for the same actions, and after each game ends it goes on (NEXT_STEP
    autoreset: the last observation with ``terminated``, then a step that ignores the
    action, resets the copy and returns the new game's start with reward 0) as the single
    env goes on after ``reset()`` without a seed."""
    n, seed, steps = 3, 40, 120
    envs = PlunderVectorEnv(game_id, num_envs=n, preset=preset)
    singles = [PlunderEnv(game_id, preset=preset) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    single = [s.reset(seed=seed + i) for i, s in enumerate(singles)]
    rng = np.random.default_rng(0)
    ended = [0] * n
    restart = [False] * n
    for _ in range(steps):
        for i in range(n):
            assert np.array_equal(obs[i], single[i][0]) and np.array_equal(info["action_mask"][i], single[i][1]["action_mask"])
        actions = np.array([pick(rng, info["action_mask"][i]) if info["action_mask"][i].any() else 0 for i in range(n)])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i, s in enumerate(singles):
            if restart[i]:  # the copy ended last step: this step reset it whatever the action
                single[i] = s.reset()
                assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
                restart[i] = False
                continue
            o, r, term, trunc, inf = s.step(int(actions[i]))
            single[i] = (o, inf)
            assert (rewards[i], terminated[i], truncated[i]) == (r, term, trunc)
            if term or trunc:
                ended[i] += 1
                restart[i] = True
                assert not info["action_mask"][i].any()
    assert min(ended) >= 1, f"every copy should finish a game in {steps} steps: {ended}"


def test_a_list_of_seeds_and_no_seed() -> None:
    """A list gives each copy its seed (copies with one seed play one game); without a seed
    the copies play other games."""
    envs = PlunderVectorEnv("profiteer", num_envs=2, preset="short")
    obs, _ = envs.reset(seed=[7, 7])
    assert np.array_equal(obs[0], obs[1])
    with pytest.raises(ValueError, match="one per copy"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="one index per copy"):
        envs.step(np.zeros(3, dtype=np.int64))
    firsts = {envs.reset()[0].tobytes() for _ in range(4)}
    assert len(firsts) > 1


def test_an_illegal_index_ends_that_copy_only() -> None:
    """An index naming no legal action ends its copy's game with -1 and ``info["illegal"]``;
    the other copies play on."""
    envs = PlunderVectorEnv("profiteer", num_envs=2, preset="short")
    _, info = envs.reset(seed=1)
    masks = info["action_mask"]
    actions = np.array([int(np.flatnonzero(masks[0] == 0)[0]), int(np.flatnonzero(masks[1])[0])])
    _, rewards, terminated, _, info = envs.step(actions)
    assert rewards[0] == -1.0 and terminated.tolist() == [True, False] and info["illegal"].tolist() == [True, False]


@pytest.mark.parametrize(("game_id", "preset"), [("pillage", "example"), ("profiteer", "short"), ("pig", "quick")])
def test_the_vector_env_passes_gymnasiums_vector_checks(game_id: str, preset: str) -> None:
    """Gymnasium's own wrappers for vector envs accept it, on a game's batch (Pillage's,
    Profiteer's) and copy by copy (Pig): episode statistics are recorded at the end of games
    (they read the autoreset mode from the metadata)."""
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(PlunderVectorEnv(game_id, num_envs=2, preset=preset))
    _, info = envs.reset(seed=0)
    rng, seen = np.random.default_rng(1), 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(200):
            masks = info["action_mask"]
            actions = np.array([pick(rng, m) if m.any() else 0 for m in masks])
            _, _, _, _, info = envs.step(actions)
            seen += int(info.get("_episode", np.zeros(2, bool)).sum())
    assert seen >= 2
