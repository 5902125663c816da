"""The fast leaf evaluator for MCTS on Pillage: batched numpy playouts."""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from ...core.errors import ParameterError
from ...core.game import CHANCE, Game
from ...core.chance import sample_chance
from ...core.compiled_random import pcg_generator, pcg_seed
from .fast import PlayoutKernel
from .rules import PillageGame, PillageState


class KernelEvaluator:
    """Scores each leaf by ``rollouts`` playouts in one numpy batch per call.

    ``policy`` is a playout of :meth:`PlayoutKernel.playouts`: ``random`` draws lines
    uniformly at random, as OpenSpiel's rollouts do; ``greedy`` plays the classic rollout
    policy (take a box, else a safe line, else any); ``safe`` a safe line, else any.
    Each playout is worth win/loss blended with its margin (``margin`` of the way).

    Leaves still dealing contents or waiting for a modifier choice are first moved on at
    random through ``apply`` (as a random rollout would), then handed to the kernel.
    """

    batch = 32

    def __init__(self, game: PillageGame, rollouts: int = 1, policy: str = "greedy", margin: float = 0.5) -> None:
        self.kernel = PlayoutKernel(game)
        self.rollouts = rollouts
        self.policy = policy
        self.margin = margin
        self._source: random.Random | None = None
        self._seed = (0, 1)
        self._gen: np.random.Generator | None = None

    def stream(self, rng: random.Random) -> tuple[tuple[int, int], np.random.Generator | None]:
        """The playouts' stream for ``rng``: its seed (:func:`~plunder.core.compiled_random.pcg_seed`),
        drawn from ``rng`` once and kept while calls bring the same ``rng``, and its numpy
        generator if one was made (``None``: still at the seed)."""
        if rng is not self._source:
            self._source = rng
            self._seed = pcg_seed(rng)
            self._gen = None
        return self._seed, self._gen

    def _numpy_rng(self, rng: random.Random) -> np.random.Generator:
        """The numpy generator of :meth:`stream`, made on first use: making one costs more than a
        batch of playouts, and the compiled tree needs only the seed."""
        seed, gen = self.stream(rng)
        if gen is None:
            gen = self._gen = pcg_generator(seed)
        return gen

    def evaluate(self, states: Sequence[PillageState], rng: random.Random) -> list[Sequence[float]]:
        """Mean value of the playouts per seat: win/loss (+1/-1, 0 for ties), blended with
        the margin by ``margin``."""
        all_drawn = self.kernel.game.all_drawn
        out: list[Sequence[float]] = []
        rows: list[PillageState] = []
        live: list[int] = []
        for s in states:
            while s.pending or s.contents[-1] is None:  # a modifier choice, or still dealing
                if s.current_player == CHANCE:
                    s = s.apply(sample_chance(s, rng))
                else:
                    s = s.apply(rng.choice(s.legal_actions()))
            if s.drawn == all_drawn:
                out.append(s.returns())
            else:
                live.append(len(out))
                out.append(())
                rows.append(s)
        if not live:
            return out
        if self.rollouts > 1:
            rows = [s for s in rows for _ in range(self.rollouts)]
        scores, stake = self.kernel.playouts(rows, self._numpy_rng(rng), self.policy)
        diff = scores[:, 0] - scores[:, 1]
        value = np.sign(diff)
        if self.margin:
            # blend in the margin, so that the gift of a box shows even when the noisy
            # playouts rarely turn it into a lost game
            value = (1 - self.margin) * value + self.margin * np.clip(diff / stake, -1, 1)
        if self.rollouts > 1:
            value = value.reshape(len(live), self.rollouts).mean(axis=1)
        for i, m in zip(live, value.tolist()):
            out[i] = (m, -m)
        return out


#: the playouts ``mcts:playout=NAME`` offers on Pillage, first the default
PLAYOUTS = ("greedy", "random", "safe")


def make_evaluator(game: Game, rollouts: int, playout: str = "") -> KernelEvaluator:
    """``ENTRY.strength.evaluator`` for Pillage: ``playout`` names one of :data:`PLAYOUTS` (empty for the
    default, ``greedy``); every playout's value blends win/loss with the margin."""
    assert isinstance(game, PillageGame)
    playout = playout or PLAYOUTS[0]
    if playout not in PLAYOUTS:
        raise ParameterError(f"pillage has no playout {playout!r}; playouts are {', '.join(PLAYOUTS)}")
    return KernelEvaluator(game, rollouts, policy=playout)
