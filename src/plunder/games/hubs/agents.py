"""The greedy Hubs agent: one heuristic per role and phase.

Segments: the offense takes the segment that scores most now (HB-4), preferring, among
equals, the one that blocks fewest other candidates so busy dots stay reachable. The
defense takes the segment that scores least, then the one that gives the most dots
their second segment (bringing the round end of HB-5 closer), then the one that blocks
the most valuable candidates (the sum of what they would score now).

Dots: the offense builds a hub, placing near the middle of the dots already down so
that many segments can reach the same dots; the defense spreads out, placing as far
as it can from every dot already down. Both look at a random sample of free points,
which keeps a move cheap on a large sheet.
"""

from __future__ import annotations

import random
import numpy as np

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Action, Game, State
from ...core.params import Param, parse_int
from .rules import HubsState


class GreedyAgent:
    """Role-aware greedy play (see the module docstring)."""

    name = "greedy"

    def __init__(self, sample: int = 64) -> None:
        #: free points looked at per placement
        self.sample = sample

    def choose(self, state: State, rng: random.Random) -> Action:
        """The heuristic's pick; ties broken by ``rng``."""
        assert isinstance(state, HubsState)
        if state.placing:
            return self._place(state, rng)
        return self._draw(state, rng)

    def _place(self, state: HubsState, rng: random.Random) -> Action:
        g = state.game
        legal = state.legal_actions()
        if not state.dots:
            return rng.choice(legal)
        pool = legal if len(legal) <= self.sample else rng.sample(legal, self.sample)
        offense = state.current_player == state.offense
        n = len(state.dots)
        sx = sum(x for x, _ in state.dots)
        sy = sum(y for _, y in state.dots)

        def value(a: Action) -> tuple[int, float]:
            _, x, y = g.decode(a)
            if offense:
                # Squared distance to the centroid, scaled by n^2 to stay in integers.
                return (-((n * x - sx) ** 2 + (n * y - sy) ** 2), rng.random())
            return (min((x - px) ** 2 + (y - py) ** 2 for px, py in state.dots), rng.random())

        return max(pool, key=value)

    def _draw(self, state: HubsState, rng: random.Random) -> Action:
        g = state.game
        paper = state.paper
        offense = state.current_player == state.offense
        open_ids = np.array(sorted(state.open), dtype=np.int64)
        ends = paper.ends[open_ids]
        deg = np.array(state.degree, dtype=np.int64)
        worth = deg[ends[:, 0]] + deg[ends[:, 1]]
        # blocks[a, b]: drawing open candidate a would rule out open candidate b (a itself too).
        blocks = paper.matrix()[np.ix_(open_ids, open_ids)]
        ties = [rng.random() for _ in range(len(open_ids))]
        if offense:
            keys = zip(worth.tolist(), (-blocks.sum(axis=1)).tolist(), [0] * len(ties), ties)
        else:
            seconds = (deg[ends[:, 0]] == 1).astype(np.int64) + (deg[ends[:, 1]] == 1)
            keys = zip((-worth).tolist(), seconds.tolist(), (blocks @ worth).tolist(), ties)
        best = max(zip(keys, open_ids.tolist()))[1]
        return g.pair_action(*paper.pairs[best])


def make_greedy(game: Game, options: AgentOptions) -> GreedyAgent:
    """``greedy`` or ``greedy:sample=N`` (free points looked at per placement)."""
    return GreedyAgent(options["sample"])


#: the agents of Hubs
AGENTS = {
    "greedy": AgentFactory(make_greedy, "offense takes the segment scoring most, defense the one scoring least",
                           (Param("sample", "64", parse_int(1), "free points looked at per placement"),)),
}
