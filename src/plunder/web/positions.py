"""The positions of a game in progress, kept within a bound: a checkpoint every
:data:`CHECKPOINT_EVERY` moves and the last :data:`KEEP_RECENT` positions; any other position is
rebuilt from the nearest checkpoint before it by applying the stored moves again (the rules
are pure and chance's draws are among the moves, so the same moves give the same position).

A long game on the server would otherwise hold every position it passed through (measured at
about 2.2 KB a move, a gigabyte for twenty all-AI games left running).
"""

from __future__ import annotations

from typing import Sequence

from ..core.game import Game, State
from ..core.record import Move

#: a position kept every this many moves (the start is one)
CHECKPOINT_EVERY = 100
#: the latest positions kept (an undo, the picture and the legal moves need the last few)
KEEP_RECENT = 16


class Positions(Sequence[State]):
    """``positions[i]`` is the position after the first ``i`` moves (0: the start), for ``i``
    up to the number of moves; only checkpoints, the last :data:`KEEP_RECENT` positions and
    the last block rebuilt are held."""

    def __init__(self, game: Game, moves: list[Move]) -> None:
        #: the game's moves: shared with the table, which appends to it before :meth:`append`
        self.moves = moves
        self.game = game
        self._kept: dict[int, State] = {0: game.new_initial_state()}
        #: the block of positions last rebuilt (its first index and the positions), so a scan
        #: backwards (an undo looking for a player's previous decision) rebuilds each block once
        self._block: tuple[int, list[State]] = (0, [])

    def __len__(self) -> int:
        return len(self.moves) + 1

    def __getitem__(self, i: int) -> State:  # type: ignore[override]  # integers only
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"position {i} of {n}")
        found = self._kept.get(i)
        if found is not None:
            return found
        first, block = self._block
        if first <= i < first + len(block):
            return block[i - first]
        start = i - i % CHECKPOINT_EVERY
        state = self._kept[start]
        block = [state]
        for move in self.moves[start:i]:
            state = state.apply(self.game.parse_action(state, move.action))
            block.append(state)
        self._block = (start, block)
        return state

    def kept(self) -> int:
        """How many positions are held now (checkpoints, the latest, the rebuilt block)."""
        return len(self._kept) + len(self._block[1])

    def append(self, state: State) -> None:
        """Keep ``state``, the position after the last of :attr:`moves` (append the move first)."""
        i = len(self.moves)
        self._kept[i] = state
        old = i - KEEP_RECENT
        if old > 0 and old % CHECKPOINT_EVERY:
            self._kept.pop(old, None)

    def truncate(self, n: int) -> None:
        """Forget the positions after the first ``n`` moves (an undo: cut :attr:`moves` to ``n`` too)."""
        for i in [i for i in self._kept if i > n]:
            del self._kept[i]
        first, block = self._block
        if first + len(block) > n + 1:
            self._block = (0, []) if first > n else (first, block[:n + 1 - first])
        del self.moves[n:]
        # the latest positions are kept again, so the picture and the next moves need no
        # rebuilding (downwards: one rebuilt block serves the positions below in it)
        for i in range(n, max(0, n - KEEP_RECENT + 1) - 1, -1):
            self._kept[i] = self[i]
