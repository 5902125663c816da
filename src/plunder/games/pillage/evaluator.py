"""The fast leaf evaluator for MCTS on Pillage: batched numpy random playouts."""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from ...core.game import CHANCE, Game, State
from .fast import PlayoutKernel
from .rules import PillageGame, PillageState


class KernelEvaluator:
    """Scores each leaf by ``rollouts`` random playouts in one numpy batch per call.

    Leaves still dealing contents or waiting for a modifier choice are first moved on at
    random through ``apply`` (as a random rollout would), then handed to the kernel.
    """

    batch = 32

    def __init__(self, game: PillageGame, rollouts: int = 1) -> None:
        self.kernel = PlayoutKernel(game)
        self.rollouts = rollouts

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
            scores = self.kernel.random_scores_many(rows, gen)
            margin = np.sign(scores[:, 0] - scores[:, 1]).reshape(len(live), self.rollouts).mean(axis=1)
            for i, m in zip(live, margin):
                out[i] = [float(m), float(-m)]
        return out


def make_evaluator(game: Game, rollouts: int) -> KernelEvaluator:
    """``ENTRY.evaluator`` for Pillage."""
    assert isinstance(game, PillageGame)
    return KernelEvaluator(game, rollouts)
