"""The vector environment on a game's batch (``GameEntry.learning.batched``): every copy
stepped by one compiled call must return exactly what single environments return for the
same seeds and actions: observations, rewards, terminations, masks, illegal flags, and
the NEXT_STEP autoresets, over whole games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest

from plunder.agents import make_agent
from plunder.core.game import State
from plunder.games.pillage import PillageGame
from plunder.games.pillage.batched import BatchedPillage
from plunder.games.profiteer import ProfiteerState
from plunder.games.profiteer.batched import BatchedProfiteer
from plunder.interop.gymnasium import PlunderEnv
from plunder.interop.vector import PlunderVectorEnv


def compare_with_singles(game_id: str, copies: int, seeds: list[int], steps: int, picks: int,
                         agent: str | None = None, **kwargs: Any) -> tuple[dict[str, int], Counter[int], list[State]]:
    """Step the batched vector env and ``copies`` single envs side by side on random legal
    indices, or with ``agent`` (a spec) the agent's choice in the single env's position three
    times in four (every 13th step of copy 0 an arbitrary index, often illegal), asserting
    every output equal; returns how many games ended, illegally or not, and how many resets
    ran, how often each index was played legally, and the last position of every game."""
    envs = PlunderVectorEnv(game_id, num_envs=copies, **kwargs)
    assert envs.batch is not None, "the batched path should be the one under test"
    singles = [PlunderEnv(game_id, **kwargs) for _ in range(copies)]
    chooser = make_agent(agent, singles[0].game) if agent is not None else None
    obs, info = envs.reset(seed=seeds)
    single = [s.reset(seed=seed) for s, seed in zip(singles, seeds)]
    rng = np.random.default_rng(picks)
    agent_rng = random.Random(picks)
    restart = [False] * copies
    seen = {"games": 0, "illegal": 0, "resets": 0}
    played: Counter[int] = Counter()
    finals: list[State] = []
    for step in range(steps):
        for i in range(copies):
            assert np.array_equal(obs[i], single[i][0]), f"step {step} copy {i}: observations differ"
            assert np.array_equal(info["action_mask"][i], single[i][1]["action_mask"]), f"step {step} copy {i}: masks"
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]])
        for i, s in enumerate(singles):
            if chooser is not None and info["action_mask"][i].any() and rng.random() < 0.75:
                state = s.episode.state
                actions[i] = s.encoding.actions.index(state, chooser.choose(state, agent_rng))
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
            if not info["illegal"][i]:
                played[int(actions[i])] += 1
            if term:
                restart[i] = True
                seen["games"] += 1
                seen["illegal"] += int(info["illegal"][i])
                finals.append(s.episode.state)
    return seen, played, finals


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
    seen, _, _ = compare_with_singles("pillage", len(seeds), seeds, 300, len(seeds) + seat, preset=preset, seat=seat)
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
    a game with no batch, or ``PLUNDER_PURE`` step copies one by one. Profiteer, a solitaire,
    has no opponent: any spec gets its batch."""
    assert isinstance(PlunderVectorEnv("pillage", num_envs=2).batch, BatchedPillage)
    assert PlunderVectorEnv("pillage", num_envs=2, opponent="greedy").batch is None
    assert PlunderVectorEnv("pillage", num_envs=2, render_mode="ansi").batch is None
    assert isinstance(PlunderVectorEnv("profiteer", num_envs=2, opponent="greedy").batch, BatchedProfiteer)
    assert PlunderVectorEnv("profiteer", num_envs=2, render_mode="ansi").batch is None
    assert PlunderVectorEnv("pig", num_envs=2).batch is None
    monkeypatch.setenv("PLUNDER_PURE", "1")
    assert PlunderVectorEnv("pillage", num_envs=2).batch is None
    assert PlunderVectorEnv("profiteer", num_envs=2).batch is None


@pytest.mark.parametrize(("game_id", "preset"), [("pillage", "small"), ("profiteer", "short")])
def test_stepping_before_reset_is_refused(game_id: str, preset: str) -> None:
    """A batch holds no game until ``reset``: a step before it names the call to make."""
    envs = PlunderVectorEnv(game_id, num_envs=2, preset=preset)
    with pytest.raises(ValueError, match="call reset first"):
        envs.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(("game_id", "preset", "seed"), [("pillage", "small", 3), ("pillage", "default", 2**40),
                                                         ("profiteer", "default", 8), ("profiteer", "lean", 2**63)])
def test_batched_copies_equal_gymnasiums_own_vector_env(game_id: str, preset: str, seed: int) -> None:
    """Gymnasium's own ``SyncVectorEnv`` of single envs, with the same ``NEXT_STEP`` autoreset,
    is the reference: for ``reset(seed=s)`` (copy ``i`` seeded ``s + i``) and the same actions,
    the batch returns its observations, rewards, flags and masks at every step, through games
    ended, illegal indices and the copies' unseeded resets."""
    copies = 5
    batched = PlunderVectorEnv(game_id, num_envs=copies, preset=preset)
    assert batched.batch is not None
    reference: Any = gymnasium.vector.SyncVectorEnv([lambda: PlunderEnv(game_id, preset=preset)] * copies,
                                               autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)
    obs, info = batched.reset(seed=seed)
    expected, expected_info = reference.reset(seed=seed)
    rng = np.random.default_rng(seed % 1000)
    ends = 0
    for step in range(250):
        assert np.array_equal(obs, expected) and np.array_equal(info["action_mask"], expected_info["action_mask"]), step
        masks = info["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        if step % 17 == 0:
            actions[step % copies] = int(rng.integers(0, masks.shape[1]))  # often illegal
        obs, rewards, terminated, truncated, info = batched.step(actions)
        expected, expected_rewards, expected_terminated, expected_truncated, expected_info = reference.step(actions)
        assert np.array_equal(rewards, expected_rewards) and np.array_equal(terminated, expected_terminated), step
        assert np.array_equal(truncated, expected_truncated), step
        ends += int(terminated.sum())
    assert ends >= 2 * copies, ends


@pytest.mark.parametrize(("preset", "seeds", "agent", "declines"), [
    ("default", [0, 1, 2, 3], "profit", True),
    ("short", [5, 6, 7], "profit", False),
    ("war_switch", [2**40, 2**70 + 1, 9], "profit", True),
    ("lean", [11, 12, 13, 14, 15], "profit", True),
    ("default", [20, 21, 22], None, True),
])
def test_profiteer_copies_equal_single_envs(preset: str, seeds: list[int], agent: str | None, declines: bool) -> None:
    """Whole Profiteer games on every preset: each copy equals its single env, step for step,
    through switches, gifts, ending, illegal indices and autoresets. Random play ends most
    games at the first count; an agent's choices (mixed with random ones) play on through
    the later passes, their redraws and balancing (``declines``: some game ends by declining to
    balance, in these seeds)."""
    seen, played, finals = compare_with_singles("profiteer", len(seeds), seeds, 400, len(seeds), agent=agent,
                                                preset=preset)
    assert seen["games"] >= 2 * len(seeds) and seen["resets"] >= len(seeds), seen
    assert seen["illegal"] >= 1 and seen["games"] > seen["illegal"], seen
    switches = sum(played[a] for a in range(2, 28))
    gifts = sum(played[a] for a in range(28, 41))
    assert played[0] > 0 and switches > 0, played  # keep and switch
    if agent is not None:
        assert gifts > 0, played  # the count's gifts
        states = [f for f in finals if isinstance(f, ProfiteerState)]
        assert len(states) == len(finals)
        assert max(f.round for f in states) >= 2, "some games should go on past the first pass"
        assert len({f.ending for f in states if f.is_terminal()}) >= 2, "games should end in more than one way"
    assert (played[1] > 0) == declines, played  # the count's end, declining to balance

