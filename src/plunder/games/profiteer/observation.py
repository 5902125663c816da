"""Profiteer's observation: the piles as bit planes, the face-up cards, the phase and counts; its
action space is the table of every choice.

:mod:`plunder.core.observation` says what every observation holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.observation import Encoding, Layout, bits, enum_rows
from ...core.spaces import TableSpace
from . import actions as pf_actions
from .flow import Phase

def observation(game: Any) -> Encoding:
    """The observation and action space of ``game`` with its parameters (``GameEntry.learning.observation``)."""
    moves = [pf_actions.KEEP, pf_actions.END] + [a for side in pf_actions.SWITCHES.values() for a in side] \
        + list(pf_actions.GIVES)
    phase_rows = enum_rows(Phase)
    layout = Layout()
    piles_part, face_part = layout.take(10 * 52), layout.take(2 * 52)
    layout.take(len(phase_rows))
    # cards of the pool in each deck (52 at most), the war round and pass (a war round
    # stakes cards, so at most 52; passes at most ``max_rounds``), then four flags
    tail_part = slice(layout.size - len(phase_rows), layout.size + 8)
    layout.take(8, 0.0, [52, 52, 52, game.values["max_rounds"], 1, 1, 1, 1])

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        if out is None:
            out = np.empty(layout.size, dtype=np.float32)
        out[piles_part] = bits((state.pool, state.known_a, state.known_b, state.discard_a, state.discard_b,
                                 state.resources, state.profiteer_discard, state.drawing, state.stake_a,
                                 state.stake_b), 52).ravel()
        faces = out[face_part]
        faces[:] = 0.0
        if 0 <= state.face_up_a < 52:
            faces[state.face_up_a] = 1.0
        if 0 <= state.face_up_b < 52:
            faces[52 + state.face_up_b] = 1.0
        out[tail_part] = [*phase_rows[id(state.phase)], state.unseen_a, state.unseen_b,
                          state.war_round, state.round, state.down_due_a, state.down_due_b, state.war_reshuffled,
                          state.balancing]
        return out

    return Encoding(game, layout.size, fill, TableSpace(moves), observation, layout.bounds())
