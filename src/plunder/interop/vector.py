"""Many copies of a game at once as one Gymnasium vector environment (``gymnasium.vector.VectorEnv``):
``PlunderVectorEnv(game_id, num_envs=16)``, or ``gymnasium.make_vec(gymnasium_id(game_id), num_envs=16)``
(the ids of :mod:`.gymnasium` name this class as their vector entry point).

Copy ``i`` is the single environment :class:`~.gymnasium.PlunderEnv` with the same keywords, so
it plays the game that env plays for the same seed and actions: ``reset(seed=s)`` resets copy
``i`` with seed ``s + i`` (a list gives each copy its own), and a copy that finished is reset
at the next ``step`` without a seed, drawing its next seed from its own generator, as the
single env's ``reset()`` does. That is Gymnasium 1.x's ``NEXT_STEP`` autoreset: the step that
ends a game returns its last observation with ``terminated`` set; the next step ignores that
copy's action, resets it and returns the new game's first observation with reward 0 and
neither flag set.

Observations are one ``float32`` array of ``num_envs`` rows; the masks of the legal actions
are ``info["action_mask"]`` (``num_envs`` rows of ``int8``) and :meth:`PlunderVectorEnv.action_masks`;
``info["illegal"]`` flags a copy whose index named no legal action (its game ends with reward -1).

A game that offers a batch (``GameEntry.learning.batched``, :mod:`plunder.core.batched`) has its
copies stepped by one call: their positions are arrays, and the seat's actions, the opponent's
replies and the chance moves, rewards, flags, observations and masks of all copies come from
the game's compiled step. The game answers whether it can play the opponent and parameters asked for; without a
batch (or with ``render_mode`` set: a batch keeps no states to draw), the copies are stepped
here one after the other. Either way each copy plays exactly what the single env plays
(``tests/interop/test_vector_batched.py``); :attr:`PlunderVectorEnv.batch` says which path runs.
The batch starts games too, from the seeds each copy's single env would use (``docs/interop.md``,
"Many games at once").
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.batched import BatchedSteps
from ..core.registry import entry
from .gymnasium import PlunderEnv
from .render import RENDER_MODES


class PlunderVectorEnv(VectorEnv):
    """``num_envs`` copies of :class:`~.gymnasium.PlunderEnv` (same game, seat, opponent and
    parameters), stepped together with ``NEXT_STEP`` autoreset."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game_id: str, num_envs: int = 1, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs {num_envs}: a vector environment needs at least one copy")
        #: the copies' single envs; on the batched path they keep each copy's seeds and generator,
        #: and its position is the batch's
        self.envs = [PlunderEnv(game_id, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = np.zeros((num_envs, first.encoding.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, first.encoding.actions.size), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        batched = entry(first.game.id).learning.batched
        #: the game's batch stepping every copy at once, or ``None`` (the copies stepped one by one)
        self.batch: BatchedSteps | None = None
        if batched is not None and self.render_mode is None:
            self.batch = batched(first.game, first.seat, first.opponent_spec, num_envs)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Every copy a new game: copy ``i`` with seed ``seed + i``, or ``seed[i]`` from a
        list, or a fresh seed each when ``None``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            super().reset(seed=seed)
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} copies: give one per copy")
        self._start(list(range(self.num_envs)), seeds)
        self._autoreset[:] = False
        self._illegal[:] = False
        return self._observations.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One index per copy; a copy whose game ended at the last step is reset instead."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {actions.shape}: give one index per copy, shape ({self.num_envs},)")
        observations, masks, rewards, ended, illegal = (self._observations, self._masks, self._rewards,
                                                        self._terminations, self._illegal)
        if self.batch is not None:
            restart = np.flatnonzero(self._autoreset)
            self.batch.step(actions.astype(np.int64), ~self._autoreset, observations, masks, rewards, ended, illegal)
            if len(restart):
                self._start(list(restart), [None] * len(restart))
                rewards[restart], ended[restart], illegal[restart] = 0.0, False, False
        else:
            for i, env in enumerate(self.envs):
                if self._autoreset[i]:
                    env.start(None)
                    rewards[i], ended[i], illegal[i] = 0.0, False, False
                else:
                    rewards[i], ended[i], illegal[i] = env.play(actions[i])
                env.observe(observations[i])
                env.action_masks(masks[i])
        # the copies are never cut short (a game ends by its rules): truncations stay False
        self._autoreset[:] = ended
        return (self._observations.copy(), self._rewards.copy(), self._terminations.copy(),
                self._truncations.copy(), self._infos())

    def _start(self, copies: list[int], seeds: Sequence[int | None]) -> None:
        """New games on ``copies`` (``seeds`` as :meth:`~.gymnasium.PlunderEnv.reset` takes them),
        started by the batch if there is one, else by each copy's single env."""
        if self.batch is not None:
            episode_seeds = [self.envs[i].episode_seed(seed) for i, seed in zip(copies, seeds)]
            self.batch.start(np.asarray(copies, dtype=np.int64), episode_seeds, self._observations, self._masks)
            return
        for i, seed in zip(copies, seeds):
            env = self.envs[i]
            env.start(seed)
            env.observe(self._observations[i])
            env.action_masks(self._masks[i])

    def _infos(self) -> dict[str, Any]:
        everyone = np.ones(self.num_envs, dtype=np.bool_)
        return {"action_mask": self._masks.copy(), "_action_mask": everyone,
                "illegal": self._illegal.copy(), "_illegal": everyone.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of every copy (``num_envs`` rows; a finished copy's is all 0)."""
        return self._masks.copy()

    def render(self) -> tuple[Any, ...] | None:
        """Each copy's :meth:`~.gymnasium.PlunderEnv.render`, in copy order (``None`` without a mode)."""
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
