"""The vector environment on a game's batch (``GameEntry.learning.batched``): every copy
stepped by one compiled call must return exactly what single environments return for the
same seeds and actions: observations, rewards, terminations, masks, illegal flags, and
the NEXT_STEP autoresets, over whole games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from plunder.games.pillage import PillageGame
from plunder.games.pillage.batched import BatchedPillage
from plunder.interop.gymnasium import PlunderEnv
from plunder.interop.vector import PlunderVectorEnv


def compare_with_singles(game_id: str, copies: int, seeds: list[int], steps: int, picks: int,
                         **kwargs: Any) -> dict[str, int]:
    """Step the batched vector env and ``copies`` single envs side by side on random legal
    indices (every 13th step of copy 0 an arbitrary index, often illegal), asserting every
    output equal; returns how many games ended, illegally or not, and how many resets ran."""
    envs = PlunderVectorEnv(game_id, num_envs=copies, **kwargs)
    assert envs.batch is not None, "the batched path should be the one under test"
    singles = [PlunderEnv(game_id, **kwargs) for _ in range(copies)]
    obs, info = envs.reset(seed=seeds)
    single = [s.reset(seed=seed) for s, seed in zip(singles, seeds)]
    rng = np.random.default_rng(picks)
    restart = [False] * copies
    seen = {"games": 0, "illegal": 0, "resets": 0}
    for step in range(steps):
        for i in range(copies):
            assert np.array_equal(obs[i], single[i][0]), f"step {step} copy {i}: observations differ"
            assert np.array_equal(info["action_mask"][i], single[i][1]["action_mask"]), f"step {step} copy {i}: masks"
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]])
        if step % 13 == 0:
            actions[0] = int(rng.integers(-2, info["action_mask"].shape[1] + 2))
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i, s in enumerate(singles):
            if restart[i]:  # NEXT_STEP autoreset: this step started copy i's next game, action ignored
                single[i] = s.reset()
                restart[i] = False
                seen["resets"] += 1
                assert (rewards[i], terminated[i], truncated[i], info["illegal"][i]) == (0.0, False, False, False)
                continue
            o, r, term, trunc, inf = s.step(int(actions[i]))
            single[i] = (o, inf)
            assert (rewards[i], terminated[i], truncated[i]) == (r, term, trunc), f"step {step} copy {i}"
            assert info["illegal"][i] == inf.get("illegal", False), f"step {step} copy {i}: illegal flag"
            if term:
                restart[i] = True
                seen["games"] += 1
                seen["illegal"] += int(info["illegal"][i])
    return seen


@pytest.mark.parametrize(("preset", "seat", "seeds"), [
    ("default", 0, [0, 1, 2, 3]),
    ("default", 1, [10, 11, 12]),
    ("small", 0, [5, 6, 7, 8, 9]),
    ("floor", 1, [3, 4]),
    ("big", 0, [2**40, 2**70 + 1]),
    ("classic", 1, [21, 22]),
    ("example", 0, [0, 0, 1]),
    ("hex", 1, [8, 9]),
    ("triangle", 0, [2, 3]),
    ("octagon", 0, [4, 5]),
])
def test_batched_copies_equal_single_envs(preset: str, seat: int, seeds: list[int]) -> None:
    """Whole games on every preset and seat: each copy equals its single env, step for step,
    through wins, illegal indices and autoresets."""
    seen = compare_with_singles("pillage", len(seeds), seeds, 300, len(seeds) + seat, preset=preset, seat=seat)
    assert seen["games"] >= 2 * len(seeds) and seen["resets"] >= len(seeds), seen
    assert seen["illegal"] >= 1 and seen["games"] > seen["illegal"], seen


def test_modifier_choices_are_batched_too() -> None:
    """The default preset deals modifiers: the copies meet pending choices (their mask's places
    past the lines) and still equal the single envs (the comparison above runs on them)."""
    envs = PlunderVectorEnv("pillage", num_envs=6)
    _, info = envs.reset(seed=100)
    lines = PillageGame.load().num_edges
    rng, choices = np.random.default_rng(0), 0
    for _ in range(200):
        masks = info["action_mask"]
        choices += int(masks[:, lines:].any(axis=1).sum())
        _, _, _, _, info = envs.step(np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]))
    assert choices > 0


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**32, 2**63 - 1, 2**70 + 3])
def test_the_opponents_twister_is_seeded_as_random_random(seed: int) -> None:
    """A started copy's Mersenne Twister is ``random.Random(seed)``'s state word for word (the
    seat moves first, so the opponent has drawn nothing yet)."""
    envs = PlunderVectorEnv("pillage", num_envs=1, preset="small")
    envs.reset(seed=[seed])
    batch = envs.batch
    assert isinstance(batch, BatchedPillage)
    words = random.Random(seed).getstate()[1]
    assert batch.mt[0].tolist() == list(words[:624]) and batch.mti[0] == words[624]


def test_the_batch_is_used_only_where_it_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """``random`` opponents without a render mode get the batch; another opponent, a render mode,
    a game with no batch, or ``PLUNDER_PURE`` step copies one by one."""
    assert PlunderVectorEnv("pillage", num_envs=2).batch is not None
    assert PlunderVectorEnv("pillage", num_envs=2, opponent="greedy").batch is None
    assert PlunderVectorEnv("pillage", num_envs=2, render_mode="ansi").batch is None
    assert PlunderVectorEnv("pig", num_envs=2).batch is None
    monkeypatch.setenv("PLUNDER_PURE", "1")
    assert PlunderVectorEnv("pillage", num_envs=2).batch is None


def test_stepping_before_reset_is_refused() -> None:
    """A batch holds no game until ``reset``: a step before it names the call to make."""
    envs = PlunderVectorEnv("pillage", num_envs=2, preset="small")
    with pytest.raises(ValueError, match="call reset first"):
        envs.step(np.zeros(2, dtype=np.int64))
