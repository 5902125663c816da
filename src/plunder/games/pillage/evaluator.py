"""The fast leaf evaluator for MCTS on Pillage: batched numpy random playouts."""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from ...core.game import CHANCE, Game, State
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

    def evaluate(self, states: Sequence[State], rng: random.Random) -> list[Sequence[float]]:
        """Mean win/loss (+1/-1, 0 for ties) of the playouts, per seat."""
        starts: list[PillageState] = []
        done: dict[int, list[float]] = {}
        for i, state in enumerate(states):
            s = state
            while s.current_player == CHANCE or (isinstance(s, PillageState) and s.pending and not s.is_terminal()):
                if s.current_player == CHANCE:
                    outcomes = s.chance_outcomes()
                    s = s.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    s = s.apply(rng.choice(s.legal_actions()))
            assert isinstance(s, PillageState)
            if s.is_terminal():
                done[i] = s.returns()
            starts.append(s)
        live = [i for i in range(len(states)) if i not in done]
        out: list[Sequence[float]] = [done.get(i, [0.0, 0.0]) for i in range(len(states))]
        if live:
            gen = np.random.default_rng(rng.getrandbits(64))
            rows = [starts[i] for i in live for _ in range(self.rollouts)]
            if self.policy == "random":
                scores = self.kernel.random_scores_many(rows, gen)
            else:
                scores = self.kernel.policy_scores_many(rows, gen)
            diff = scores[:, 0] - scores[:, 1]
            # win/loss, blended with the margin so that a gift of a box is seen even when the
            # noisy playouts rarely turn it into a lost game
            scale = np.array([_stake(starts[i]) for i in live for _ in range(self.rollouts)])
            value = (1 - self.margin) * np.sign(diff) + self.margin * np.clip(diff / scale, -1, 1)
            for i, m in zip(live, value.reshape(len(live), self.rollouts).mean(axis=1)):
                out[i] = [float(m), float(-m)]
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
