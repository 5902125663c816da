"""Batched random playouts with numpy: the fast path for search and benchmarks.

A uniformly random playout draws the undrawn lines in a uniformly random order
(modifier choices aside), so a batch of playouts is a batch of permutations. From a
permutation everything follows without stepping through moves: a box closes at the
time of its last edge; a line passes the turn exactly when it closes nothing
(PP-4), so the mover at each time is a running count of quiet lines; modifiers are
applied in the order they were captured. :func:`playout_scores` takes the orders and
modifier choices explicitly, so tests can check it against :meth:`PillageState.apply`.
"""

from __future__ import annotations

import numpy as np

from .contents import OPS, Commodity, Doubloons, Modifier
from .rules import PillageGame, PillageState


class PlayoutKernel:
    """Per-game arrays for batched playouts of a :class:`PillageGame`."""

    def __init__(self, game: PillageGame) -> None:
        self.game = game
        board = game.board
        width = max(len(b) for b in board.box_edges)
        pad = board.num_edges  # a column that is always "drawn before the playout"
        self.box_edges = np.full((board.num_boxes, width), pad, dtype=np.int64)
        for b, edges in enumerate(board.box_edges):
            self.box_edges[b, : len(edges)] = edges

    def playout_scores(self, state: PillageState, orders: np.ndarray, choice_u: np.ndarray) -> np.ndarray:
        """Final scores (N x 2) of playouts from ``state``.

        ``orders[i]`` is the order in which playout ``i`` draws the undrawn lines (a
        permutation of ``state.undrawn()``); the ``r``-th modifier captured in playout
        ``i`` takes option ``floor(choice_u[i, r] * len(options))`` of its options.
        """
        g = self.game
        if state.current_player not in (0, 1) or state.pending:
            raise ValueError("playouts start where a player is to draw a line")
        n, u = orders.shape
        rows = np.arange(n)[:, None]
        pos = np.full((n, g.E + 1), -1, dtype=np.int64)
        pos[rows, orders] = np.arange(u)
        open_boxes = np.array([b for b in range(g.board.num_boxes) if state.owner[b] < 0], dtype=np.int64)
        scores = np.tile(np.array([float(state.doubloons[0]), float(state.doubloons[1])]), (n, 1))
        held = np.tile(np.array(state.held, dtype=np.int64), (n, 1, 1))  # N x 2 x K
        values = np.tile(np.array(state.values, dtype=np.int64), (n, 1))  # N x K
        if len(open_boxes):
            close = pos[:, self.box_edges[open_boxes]].max(axis=2)  # N x B'
            counts = np.zeros((n, u), dtype=np.int64)
            np.add.at(counts, (np.broadcast_to(rows, close.shape), close), 1)
            quiet = (counts == 0).astype(np.int64)
            passes = np.cumsum(quiet, axis=1) - quiet
            mover = (state.mover + passes) & 1
            owner = np.take_along_axis(mover, close, axis=1)  # N x B'
            self._tally(state, open_boxes, owner, scores, held)
            self._modifiers(state, open_boxes, close, owner, choice_u, values)
        return scores + np.einsum("npk,nk->np", held, values).astype(float)

    def _tally(self, state: PillageState, boxes: np.ndarray, owner: np.ndarray, scores: np.ndarray,
               held: np.ndarray) -> None:
        for j, b in enumerate(boxes):
            c = state.contents[b]
            if isinstance(c, Doubloons):
                scores[:, 0] += np.where(owner[:, j] == 0, c.n, 0)
                scores[:, 1] += np.where(owner[:, j] == 1, c.n, 0)
            elif isinstance(c, Commodity):
                held[np.arange(len(owner)), owner[:, j], c.kind] += 1

    def _modifiers(self, state: PillageState, boxes: np.ndarray, close: np.ndarray, owner: np.ndarray,
                   choice_u: np.ndarray, values: np.ndarray) -> None:
        g = self.game
        cols = [j for j, b in enumerate(boxes) if isinstance(state.contents[b], Modifier)]
        if not cols:
            return
        mods = [m for m in (state.contents[boxes[j]] for j in cols) if isinstance(m, Modifier)]
        nopt = np.array([len(m.options()) for m in mods])
        width = int(nopt.max())
        op_tab = np.zeros((len(mods), width), dtype=np.int64)
        kind_tab = np.zeros((len(mods), width), dtype=np.int64)
        amount = np.array([m.amount for m in mods], dtype=np.int64)
        for i, m in enumerate(mods):
            for k, (op, kind) in enumerate(m.options()):
                op_tab[i, k], kind_tab[i, k] = OPS.index(op), kind
        # capture order: by time, then box index (PP-5: one line's boxes in box order)
        key = close[:, cols] * (g.board.num_boxes + 1) + boxes[cols][None, :]
        order = np.argsort(key, axis=1)
        n = len(close)
        rows = np.arange(n)
        for r in range(len(cols)):
            which = order[:, r]
            pick = np.minimum((choice_u[:, r] * nopt[which]).astype(np.int64), nopt[which] - 1)
            op_id, kind_id, amt = op_tab[which, pick], kind_tab[which, pick], amount[which]
            v = values[rows, kind_id]
            new = np.where(op_id == 0, v + amt, np.where(op_id == 1, v - amt, v * amt))
            if g.floor is not None:
                new = np.maximum(new, g.floor)
            values[rows, kind_id] = new

    def random_orders(self, state: PillageState, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Uniformly random line orders and modifier draws for ``n`` playouts."""
        undrawn = np.array(state.undrawn(), dtype=np.int64)
        orders = undrawn[np.argsort(rng.random((n, len(undrawn))), axis=1)]
        mods = sum(1 for b, c in enumerate(state.contents) if isinstance(c, Modifier) and state.owner[b] < 0)
        return orders, rng.random((n, max(mods, 1)))

    def random_scores(self, state: PillageState, n: int, rng: np.random.Generator) -> np.ndarray:
        """Final scores (N x 2) of ``n`` uniformly random playouts from ``state``."""
        orders, choice_u = self.random_orders(state, n, rng)
        return self.playout_scores(state, orders, choice_u)


def replay_order(state: PillageState, order: list[int], choice_u: list[float]) -> PillageState:
    """Play ``order`` through the public API with the same modifier rule as the kernel."""
    r = 0
    for e in order:
        state = state.apply(int(e))
        while state.pending:
            options = state.legal_actions()
            state = state.apply(options[min(int(choice_u[r] * len(options)), len(options) - 1)])
            r += 1
    return state
