"""Root search: one-ply Monte Carlo policy improvement over a base policy.

At a decision, every candidate action is followed by rollouts of a base policy (an agent
such as ``greedy``) to the end, or by a game's fast evaluator. The rollouts are *paired*:
round ``i`` gives every candidate the same chance seed, so the candidates are compared on
the same luck as far as their games stay alike (common random numbers), which cuts the
noise of a comparison far below the noise of either mean.

The base policy's own move is kept unless another candidate beats it, on the paired
differences, by more than ``z`` standard errors. So a small budget cannot make the search
play worse than its base policy by chasing noise -- the failure of plain UCT with few
simulations in long games of chance (Profiteer, Pirates) -- and a larger one makes it
better wherever the base policy's rule of thumb is measurably wrong.

Chance is only ever sampled from ``chance_outcomes()`` of the positions reached, so the
search never sees an unseen card or tile.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Callable, Generic, Sequence

from ..core.agent import Agent, Appraisal, Evaluator
from ..core.capabilities import S
from ..core.game import Action
from .confidence import alike, judged


@dataclass
class Arm:
    """One candidate action: its rollout values and the paired differences with the base move."""

    action: Action
    values: list[float]
    diffs: list[float]

    def mean(self) -> float:
        """Mean rollout value for the mover."""
        return sum(self.values) / len(self.values) if self.values else 0.0

    def gain(self) -> tuple[float, float]:
        """Mean paired difference with the base move, and its standard error."""
        n = len(self.diffs)
        if n < 2:
            return 0.0, math.inf
        m = sum(self.diffs) / n
        var = sum((d - m) ** 2 for d in self.diffs) / (n - 1)
        return m, math.sqrt(var / n)


class RootSearch(Generic[S]):
    """Paired rollouts from each candidate move; the base policy's move unless one is clearly better.

    ``sims`` caps the rollouts of one decision (over all candidates) and ``seconds`` its time
    (a time cap makes the moves depend on the machine's speed: not reproducible from a seed);
    ``z`` is how many standard errors a move must gain over the base move to replace it;
    ``candidates(state)`` may narrow the legal actions to the distinct ones (a game's
    knowledge that, say, equal-rank cards are the same move); a move needs ``min_rounds``
    pairs before it may replace the base move, and a candidate clearly worse than the base
    move is dropped only after that many.
    """

    #: its own name: a root search is no tree search (``make_agent`` names it by its spec, ``mcts:root=...``)
    name = "root-search"

    def __init__(self, policy: Agent[S], evaluator: Evaluator[S], sims: int | None = 400, seconds: float | None = None,
                 z: float = 2.0, candidates: Callable[[S], Sequence[Action]] | None = None,
                 min_rounds: int = 8) -> None:
        self.policy = policy
        self.evaluator = evaluator
        self.sims = sims
        self.seconds = seconds
        self.z = z
        self.candidates = candidates
        self.min_rounds = min_rounds

    def _value(self, state: S, seat: int, seed: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        return float(self.evaluator.evaluate([state], random.Random(seed))[0][seat])

    def search(self, state: S, rng: random.Random) -> tuple[Action, list[Arm]]:
        """The base move and the arms after spending the budget on ``state``."""
        seat = state.current_player
        base = self.policy.choose(state, rng)
        actions = list(self.candidates(state)) if self.candidates is not None else list(state.legal_actions())
        if base not in actions:
            actions.append(base)
        # the base move first, so its value of each round is there to pair with
        actions.remove(base)
        arms = [Arm(a, [], []) for a in [base, *actions]]
        if len(arms) == 1:
            return base, arms
        children = {arm.action: state.apply(arm.action) for arm in arms}
        live = arms[1:]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.sims if self.sims is not None else (1 << 62)
        spent = 0
        rounds = 0
        while live and spent + 1 + len(live) <= max(budget, 2 * len(arms)):
            if deadline is not None and rounds >= 2 and time.perf_counter() > deadline:
                break
            seed = rng.getrandbits(63)
            v0 = self._value(children[base], seat, seed)
            arms[0].values.append(v0)
            for arm in live:
                v = self._value(children[arm.action], seat, seed)
                arm.values.append(v)
                arm.diffs.append(v - v0)
            spent += 1 + len(live)
            rounds += 1
            if rounds >= self.min_rounds:
                # a move clearly worse than the base move needs no more rollouts
                live = [arm for arm in live if _mean_plus(arm.gain(), self.z) >= 0]
        return base, arms

    def pick(self, base: Action, arms: Sequence[Arm]) -> Action:
        """The arm with the largest gain over the base move among those clear by ``z`` errors
        after at least ``min_rounds`` pairs, else the base move."""
        best, best_gain = base, 0.0
        for arm in arms[1:]:
            m, se = arm.gain()
            # a few equal differences have no spread at all, which proves nothing yet
            if len(arm.diffs) >= self.min_rounds and m > self.z * se and m > best_gain:
                best, best_gain = arm.action, m
        return best

    def choose(self, state: S, rng: random.Random) -> Action:
        """The base policy's move, or a candidate that beat it clearly in paired rollouts."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        base, arms = self.search(state, rng)
        return self.pick(base, arms)

    def analyse(self, state: S, rng: random.Random) -> list[tuple[Action, str]]:
        """Candidates, the chosen one first, each with its mean rollout value, a 95% interval
        (or "a guess" under ``min_rounds`` rollouts) and its gain over the base move. Where
        every rollout of a move came to about the same value (playouts with no chance in them, as in
        Hubs), the value is said to be those playouts', not given an interval of ± 0.00 that would
        read as certainty about the move."""
        base, arms = self.search(state, rng)
        chosen = self.pick(base, arms)
        rows = []
        for arm in arms:
            n = len(arm.values)
            mean = arm.mean()
            spread = math.sqrt(sum((v - mean) ** 2 for v in arm.values) / (n - 1)) if n > 1 else 1.0
            said = (n >= self.min_rounds and alike(mean, spread, n, self.policy.name)
                    or judged(mean, spread, n, "trial", self.min_rounds))
            if arm.action == base:
                said += f", {self.policy.name}'s move"
            elif len(arm.diffs) >= 2:
                m, se = arm.gain()
                sure = f" ± {2 * se:.2f}" if round(2 * se, 2) > 0 else " in every pairing"
                said += f", {m:+.2f}{sure} over {self.policy.name}'s move"
            rows.append((arm.action, mean, said))
        rows.sort(key=lambda r: (r[0] != chosen, -r[1]))
        return [(action, said) for action, _, said in rows]


    def appraise(self, state: S, rng: random.Random) -> list[Appraisal]:
        """Candidates by mean rollout value, highest first (the chosen one first among equals)."""
        base, arms = self.search(state, rng)
        chosen = self.pick(base, arms)
        ranked = sorted(arms, key=lambda arm: (-arm.mean(), arm.action != chosen))
        return [Appraisal(arm.action, arm.mean(), len(arm.values)) for arm in ranked]


def _mean_plus(gain: tuple[float, float], z: float) -> float:
    """The upper end of a gain's interval: its mean plus ``z`` standard errors."""
    mean, se = gain
    return mean + z * se
