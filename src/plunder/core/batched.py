"""Many copies of one game stepped by one call: what a game offers as
``GameEntry.learning.batched`` so that the vector environment (:mod:`plunder.interop.vector`)
steps its copies at once instead of one after the other.

A batch plays every copy from one seat against one opponent, as the single environment does:
each call of :meth:`BatchedSteps.step` applies one action index per copy (the indices of the
game's fixed action space, :mod:`.observation`), then the opponent's replies until the seat is
to move again or the game is over, and writes each copy's reward, flags, observation and
legal-action mask. Chance moves are made as they come up, drawn from the episode's seed and
the chance event's index (:mod:`.chance`), as the single environment makes them; a solitaire's
batch has no opponent, only its chance. It must give exactly what the single environment gives
for the same positions, actions and opponent's generator (``tests/interop/test_vector_batched.py``).
Games are started by :meth:`BatchedSteps.start` from the seeds the single environments would use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from .game import Game

if TYPE_CHECKING:  # numpy is not loaded to list the commands
    import numpy as np


class BatchedSteps(Protocol):
    """The positions of ``copies`` games, held as arrays, and the step that moves them all."""

    def start(self, copies: "np.ndarray", seeds: Sequence[int], observations: "np.ndarray",
              masks: "np.ndarray") -> None:
        """New games on the copies listed in ``copies``, ``seeds[j]`` the episode seed of copy
        ``copies[j]``: its chance moves drawn from it (:mod:`.chance`), the opponent's choices from a
        ``random.Random`` seeded with it, as the single environment's ``reset(seed=...)`` does;
        the opponent's opening replies made; rows ``copies`` of ``observations`` and ``masks`` written."""

    def step(self, actions: "np.ndarray", active: "np.ndarray", observations: "np.ndarray", masks: "np.ndarray",
             rewards: "np.ndarray", ended: "np.ndarray", illegal: "np.ndarray") -> None:
        """For each copy ``i`` with ``active[i]``: play index ``actions[i]`` (``int64``), then the
        opponent's replies; write ``rewards[i]`` (the seat's return once the game is over, -1
        for an index naming no legal action, else 0), ``ended[i]``, ``illegal[i]``, and, unless
        the index was illegal (the position unchanged), row ``i`` of ``observations`` and
        ``masks``. Rows of inactive copies are left as they are."""


#: ``batched(game, seat, opponent, copies)``: a batch of ``copies`` games of ``game`` played
#: from ``seat`` against the agent spec ``opponent``, or ``None`` when the game's batch cannot
#: play that opponent or those parameters (the vector env then steps its copies one by one)
BatchedFactory = Callable[[Game[Any], int, str, int], "BatchedSteps | None"]
