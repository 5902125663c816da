"""Fixed action spaces: an index for the actions of a parameter set, to and from the game's
typed actions, and the mask of the legal ones."""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from ..core.errors import IllegalActionError
from ..core.game import State


class ActionSpace:
    """A fixed number of action indices for one game with its parameters.

    The legal actions of the state last asked about are kept: an adapter asks for the mask
    of a position and then for the action at the chosen index, and the game lists them once.
    """

    #: how many indices there are
    size: int

    def __init__(self) -> None:
        self._state: State | None = None
        self._legal: list = []

    def legal(self, state: State) -> list:
        """``state.legal_actions()``, listed once per state (kept while it is the last asked about)."""
        if state is not self._state:
            self._legal = state.legal_actions()
            self._state = state
        return self._legal

    def index(self, state: State, action: Hashable) -> int:
        """The index of ``action`` (one of ``state``'s legal actions)."""
        raise NotImplementedError

    def action(self, state: State, index: int) -> Hashable:
        """The game's action at ``index`` in ``state``; an index naming no legal action raises
        :class:`IllegalActionError`."""
        raise NotImplementedError

    def indices(self, state: State) -> list[int]:
        """The indices of ``state``'s legal actions, ascending (the mask's places of 1)."""
        return [int(i) for i in np.flatnonzero(self.mask(state))]

    def mask(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """1 at the index of every legal action of ``state``, 0 elsewhere (``int8``), written
        into ``out`` when given (overwritten whole) or into a new array."""
        if out is None:
            out = np.zeros(self.size, dtype=np.int8)
        else:
            out[:] = 0
        self._mark(state, out)
        return out

    def _mark(self, state: State, out: np.ndarray) -> None:
        raise NotImplementedError


class TableSpace(ActionSpace):
    """Every action the parameter set can ever offer, enumerated once: the index of an
    action is its place in that list, the same in every state."""

    def __init__(self, actions: Sequence[Hashable]) -> None:
        super().__init__()
        self.actions = tuple(actions)
        self.size = len(self.actions)
        self._index = {a: i for i, a in enumerate(self.actions)}
        # the games hand out the very action objects of their tables (Pillage's lines and
        # choices, Hubs' segments ...): found by identity, they need no hashing of their fields
        self._by_id = {id(a): i for i, a in enumerate(self.actions)}

    def index(self, state: State, action: Hashable) -> int:
        """The action's place in the table."""
        i = self._by_id.get(id(action))
        return self._index[action] if i is None else i

    def action(self, state: State, index: int) -> Hashable:
        """The table's action at ``index`` (legality is checked when it is applied)."""
        if not 0 <= index < self.size:
            raise _no_action(state, index, self.size)
        return self.actions[index]

    def indices(self, state: State) -> list[int]:
        """The table places of the legal actions, ascending."""
        by_id, index = self._by_id, self._index
        return sorted(by_id.get(id(a)) or index[a] for a in self.legal(state))

    def _mark(self, state: State, out: np.ndarray) -> None:
        by_id, index = self._by_id, self._index
        # (place 0 found by identity is falsy and falls through to the equal lookup: the same 0)
        out[[by_id.get(id(a)) or index[a] for a in self.legal(state)]] = 1


class SlotSpace(ActionSpace):
    """For games whose possible actions cannot be listed up front (amounts, offers): index
    ``i`` is the ``i``-th of the state's legal actions in the game's own order, up to
    ``size`` slots; a state offering more shows only the first ``size`` (docs/interop.md)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        # n -> the mask of n legal actions, made when first met (copying one out costs less
        # than zeroing and marking an array of hundreds or thousands of slots)
        self._rows: dict[int, np.ndarray] = {}

    def mask(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """1 in the first ``len(legal actions)`` slots (up to :attr:`size`), 0 after."""
        n = min(len(self.legal(state)), self.size)
        row = self._rows.get(n)
        if row is None:
            row = self._rows[n] = np.zeros(self.size, dtype=np.int8)
            row[:n] = 1
        if out is None:
            return row.copy()
        out[:] = row
        return out

    def index(self, state: State, action: Hashable) -> int:
        """The action's place among ``state``'s legal actions."""
        return self.legal(state).index(action)

    def action(self, state: State, index: int) -> Hashable:
        """The legal action in slot ``index``."""
        legal = self.legal(state)
        if not 0 <= index < min(len(legal), self.size):
            raise _no_action(state, index, min(len(legal), self.size))
        return legal[index]

    def indices(self, state: State) -> list[int]:
        """The occupied slots."""
        return list(range(min(len(self.legal(state)), self.size)))



def _no_action(state: State, index: int, size: int) -> IllegalActionError:
    return IllegalActionError(f"action index {index}", state.summary(),
                              f"the indices here run from 0 to {size - 1}", "the adapter's action space")
