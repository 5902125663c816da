"""The greedy Hubs agent: one heuristic per role and phase.

Segments: the offense takes the segment that scores most now (HB-4), preferring, among
equals, the one that blocks fewest other candidates so busy dots stay reachable. The
defense takes the segment that scores least, then the one that gives the most dots
their second segment (bringing the round end of HB-5 closer), then the one that blocks
the most valuable candidates (the sum of what they would score now).

Blocking is only counted for the segments still tied on the first keys, and for at
most :func:`breadth` of them (a random sample when more tie), so a move costs time and
memory linear in the drawable segments, not quadratic.

Dots: the offense builds a hub, placing near the middle of the dots already down so
that many segments can reach the same dots; the defense spreads out, placing as far
as it can from every dot already down. Both look at a random sample of free points,
which keeps a move cheap on a large sheet.
"""

from __future__ import annotations

import random

import numpy as np

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from ...core.params import Param, parse_int
from .actions import Dot, HubsAction, Segment
from .rules import HubsState

#: segment pairs tested for blocking per move; past it the tied segments are sampled. At
#: 2**17 every tie is still examined on sheets of up to 27 dots (362 segments squared), so every
#: preset but ``sixty`` plays as before; on ``sixty``, whose first draws offer 1,200 segments,
#: 2**20 made ``hard``'s rollouts cost 1.5 s at p95 a move (issue 38)
BLOCKING_TESTS = 1 << 17
#: tied segments always examined, however many are drawable
MIN_BREADTH = 16


def breadth(drawable: int) -> int:
    """How many tied segments the greedy agent examines when ``drawable`` segments can be drawn."""
    return max(MIN_BREADTH, BLOCKING_TESTS // max(1, drawable))


class GreedyAgent:
    """Role-aware greedy play (see the module docstring)."""

    name = "greedy"

    def __init__(self, sample: int = 64) -> None:
        #: free points looked at per placement
        self.sample = sample

    def choose(self, state: HubsState, rng: random.Random) -> HubsAction:
        """The heuristic's pick; ties broken by ``rng``."""
        if state.placing:
            return self._place(state, rng)
        return self._draw(state, rng)

    def _place(self, state: HubsState, rng: random.Random) -> Dot:
        legal = state.free_points()
        if not state.dots:
            return rng.choice(legal)
        pool = legal if len(legal) <= self.sample else rng.sample(legal, self.sample)
        offense = state.current_player == state.offense
        n = len(state.dots)
        sx = sum(x for x, _ in state.dots)
        sy = sum(y for _, y in state.dots)

        def value(a: Dot) -> tuple[int, float]:
            x, y = a.x, a.y
            if offense:
                # Squared distance to the centroid, scaled by n^2 to stay in integers.
                return (-((n * x - sx) ** 2 + (n * y - sy) ** 2), rng.random())
            return (min((x - px) ** 2 + (y - py) ** 2 for px, py in state.dots), rng.random())

        return max(pool, key=value)

    def _draw(self, state: HubsState, rng: random.Random) -> Segment:
        paper = state.paper
        offense = state.current_player == state.offense
        ids = state.drawable_ids
        ends = paper.ends[ids]
        degree = np.array(state.degree, dtype=np.int64)
        worth = degree[ends[:, 0]] + degree[ends[:, 1]]
        ties = np.array([rng.random() for _ in range(len(ids))])
        if offense:
            tied = worth == worth.max()
        else:
            tied = worth == worth.min()
            seconds = (degree[ends[:, 0]] == 1).astype(np.int64) + (degree[ends[:, 1]] == 1)
            tied &= seconds == seconds[tied].max()
        examined = np.flatnonzero(tied)
        keep = breadth(len(ids))
        if len(examined) > keep:
            examined = examined[np.argpartition(-ties[examined], keep)[:keep]]
        if offense:
            keys = -paper.blocking(ids[examined], ids)
        else:
            valued = worth > 0
            keys = paper.blocking(ids[examined], ids[valued], worth[valued])
        best = max(zip(keys.tolist(), ties[examined].tolist(), ids[examined].tolist()))[2]
        return paper.segment(best)


def make_greedy(game: Game, options: AgentOptions) -> GreedyAgent:
    """``greedy`` or ``greedy:sample=N`` (free points looked at per placement)."""
    return GreedyAgent(options["sample"])


#: the agents of Hubs
AGENTS: dict[str, AgentFactory[HubsState]] = {
    "greedy": AgentFactory(make_greedy, "offense takes the segment scoring most, defense the one scoring least",
                           (Param("sample", "64", parse_int(1), "free points looked at per placement"),)),
}
