"""The fast leaf evaluator for MCTS on Pillage: batched numpy random playouts."""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from ...core.game import CHANCE, Game, State
from ...core.record import sample_chance
from .contents import Commodity, Doubloons, Modifier
from .fast import PlayoutKernel
from .rules import PillageGame, PillageState


class KernelEvaluator:
    """Scores each leaf by ``rollouts`` playouts in one numpy batch per call.

    ``policy="greedy"`` (the default) plays the classic rollout policy of
    :meth:`PlayoutKernel.policy_keys` (take a box, else a safe line, else any);
    ``policy="random"`` draws lines uniformly at random, as OpenSpiel's rollouts do.

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
        self._gen = np.random.default_rng(0)

    def _numpy_rng(self, rng: random.Random) -> np.random.Generator:
        """A numpy generator drawn from ``rng`` once and kept while calls bring the same ``rng``:
        making one costs more than a batch of playouts."""
        if rng is not self._source:
            self._source = rng
            self._gen = np.random.default_rng(rng.getrandbits(64))
        return self._gen

    def evaluate(self, states: Sequence[State], rng: random.Random) -> list[Sequence[float]]:
        """Mean value of the playouts per seat: win/loss (+1/-1, 0 for ties), blended with
        the margin by ``margin``."""
        all_drawn = self.kernel.game.all_drawn
        out: list[Sequence[float]] = []
        rows: list[PillageState] = []
        live: list[int] = []
        for s in states:
            assert isinstance(s, PillageState)
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
        gen = self._numpy_rng(rng)
        if self.rollouts > 1:
            rows = [s for s in rows for _ in range(self.rollouts)]
        if self.policy == "random":
            scores = self.kernel.random_scores_many(rows, gen)
        else:
            scores = self.kernel.policy_scores_many(rows, gen)
        diff = scores[:, 0] - scores[:, 1]
        value = np.sign(diff)
        if self.margin:
            # blend in the margin, so that the gift of a box shows even when the noisy
            # playouts rarely turn it into a lost game
            scale = np.array([_stake(s) for s in rows])
            value = (1 - self.margin) * value + self.margin * np.clip(diff / scale, -1, 1)
        if self.rollouts > 1:
            value = value.reshape(len(live), self.rollouts).mean(axis=1)
        for i, m in zip(live, value.tolist()):
            out[i] = (m, -m)
        return out


def _stake(state: PillageState) -> float:
    """Roughly how much the boxes still open are worth: the margin's natural scale."""
    total = 0.0
    for b, c in enumerate(state.contents):
        if state.owner[b] < 0:
            if isinstance(c, Doubloons):
                total += c.n
            elif isinstance(c, Commodity):
                total += abs(state.values[c.kind])
            elif isinstance(c, Modifier):
                total += c.amount
    return max(total, 1.0)


def make_evaluator(game: Game, rollouts: int, playout: str = "policy") -> KernelEvaluator:
    """``ENTRY.evaluator`` for Pillage: ``playout`` is ``policy`` (the default) or ``random``."""
    assert isinstance(game, PillageGame)
    if playout == "random":
        return KernelEvaluator(game, rollouts, policy="random", margin=0.0)
    return KernelEvaluator(game, rollouts)
