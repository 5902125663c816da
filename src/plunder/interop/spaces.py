"""Fixed action spaces: an index for the actions of a parameter set, to and from the game's
typed actions, and the mask of the legal ones."""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from ..core.errors import IllegalActionError
from ..core.game import State


class ActionSpace:
    """A fixed number of action indices for one game with its parameters."""

    #: how many indices there are
    size: int

    def index(self, state: State, action: Hashable) -> int:
        """The index of ``action`` (one of ``state``'s legal actions)."""
        raise NotImplementedError

    def action(self, state: State, index: int) -> Hashable:
        """The game's action at ``index`` in ``state``; an index naming no legal action raises
        :class:`IllegalActionError`."""
        raise NotImplementedError

    def mask(self, state: State) -> np.ndarray:
        """1 at the index of every legal action of ``state``, 0 elsewhere (``int8``)."""
        raise NotImplementedError


class TableSpace(ActionSpace):
    """Every action the parameter set can ever offer, enumerated once: the index of an
    action is its place in that list, the same in every state."""

    def __init__(self, actions: Sequence[Hashable]) -> None:
        self.actions = tuple(actions)
        self.size = len(self.actions)
        self._index = {a: i for i, a in enumerate(self.actions)}

    def index(self, state: State, action: Hashable) -> int:
        """The action's place in the table."""
        return self._index[action]

    def action(self, state: State, index: int) -> Hashable:
        """The table's action at ``index`` (legality is checked when it is applied)."""
        if not 0 <= index < self.size:
            raise _no_action(state, index, self.size)
        return self.actions[index]

    def mask(self, state: State) -> np.ndarray:
        """The table places of the legal actions."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[[self._index[a] for a in state.legal_actions()]] = 1
        return mask


class SlotSpace(ActionSpace):
    """For games whose possible actions cannot be listed up front (amounts, offers): index
    ``i`` is the ``i``-th of the state's legal actions in the game's own order, up to
    ``size`` slots; a state offering more shows only the first ``size`` (docs/interop.md)."""

    def __init__(self, size: int) -> None:
        self.size = size

    def index(self, state: State, action: Hashable) -> int:
        """The action's place among ``state``'s legal actions."""
        return state.legal_actions().index(action)

    def action(self, state: State, index: int) -> Hashable:
        """The legal action in slot ``index``."""
        legal = state.legal_actions()
        if not 0 <= index < min(len(legal), self.size):
            raise _no_action(state, index, min(len(legal), self.size))
        return legal[index]

    def mask(self, state: State) -> np.ndarray:
        """The first ``len(legal actions)`` slots."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[:len(state.legal_actions())] = 1
        return mask


def _no_action(state: State, index: int, size: int) -> IllegalActionError:
    return IllegalActionError(f"action index {index}", state.summary(),
                              f"the indices here run from 0 to {size - 1}", "the adapter's action space")
