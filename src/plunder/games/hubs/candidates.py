"""A Hubs decision's legal actions narrowed to a few worth searching (``mcts:root=greedy``).

A sheet has thousands of free points and a round hundreds of drawable segments, too many
for a root search to roll out each. The shortlist keeps the moves the greedy agent's own
rule of thumb ranks best for the mover's role, spread over the tied ones so that the
search compares different moves, not neighbours of one:

* segments (HB-3, HB-4): the offense's are those scoring most now, the defense's those
  scoring least, then giving the most dots their second segment (HB-5);
* dots (HB-1): the offense's are the free points nearest the middle of the dots already
  down (a hub), the defense's those farthest from every dot (spread out); on an empty
  sheet, points spread over the sheet.

The list depends on the position alone (no randomness), so a search replays from its seed.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .actions import HubsAction
from .rules import HubsState

#: moves kept per decision
WIDTH = 6


def spread(order: np.ndarray, best: int) -> np.ndarray:
    """``WIDTH`` indices of ``order`` taken evenly from its first ``best`` (the tied best), then its next."""
    if best >= WIDTH:
        return order[np.linspace(0, best - 1, WIDTH).round().astype(np.int64)]
    return order[:WIDTH]


def candidates(state: HubsState) -> Sequence[HubsAction]:
    """The moves worth searching at ``state`` (see the module docstring)."""
    legal: Sequence[HubsAction] = state.legal_actions()
    if len(legal) <= WIDTH:
        return legal
    offense = state.current_player == state.offense
    if state.placing:
        pts = np.array([(a.x, a.y) for a in legal], dtype=np.int64)  # type: ignore[union-attr]
        if not state.dots:
            # nothing to gather round or flee from: points spread over the sheet
            return [legal[int(i)] for i in np.linspace(0, len(legal) - 1, WIDTH).round()]
        dots = np.array(state.dots, dtype=np.int64)
        if offense:
            key = ((pts * len(dots) - dots.sum(axis=0)) ** 2).sum(axis=1)
        else:
            key = -((pts[:, None, :] - dots[None, :, :]) ** 2).sum(axis=2).min(axis=1)
    else:
        paper, ids = state.paper, state.drawable_ids
        degree = np.array(state.degree, dtype=np.int64)
        ends = paper.ends[ids]
        worth = degree[ends].sum(axis=1)
        if offense:
            key = -worth
        else:
            seconds = (degree[ends] == 1).sum(axis=1)
            key = worth * 4 - seconds  # fewest points first, then most dots completed (at most 2)
        legal = paper.segments(ids)
    order = np.argsort(key, kind="stable")
    best = int((key == key[order[0]]).sum())
    return [legal[int(i)] for i in spread(order, best)]
