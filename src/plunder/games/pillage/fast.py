"""Batched random playouts with numpy: the fast path for search and benchmarks.

A uniformly random playout draws the undrawn lines in a uniformly random order
(modifier choices aside), so a batch of playouts is a batch of random orders. From an
order everything follows without stepping through moves: a box closes at the time of
its last edge; a line passes the turn exactly when it closes nothing (PP-4), so the
mover at each time is a running count of quiet lines; modifiers are applied in the
order they were captured, two captured by one line in box order (one of the orders the
capturer may choose, PP-5 amended), each with a uniformly random option. Each row of a batch may start from a different
position, which lets a search evaluate many leaves in one call.

:meth:`PlayoutKernel.playout_scores` takes the orders and modifier draws explicitly,
so tests can check it against :meth:`PillageState.apply` line for line.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import numpy as np

from .actions import Choose
from .compiled import compiled_policy
from .contents import OPS, Commodity, Doubloons, Modifier
from .rules import PillageGame, PillageState

NEVER = np.iinfo(np.int64).max


@dataclass
class Batch:
    """Start positions as arrays, one row per playout."""

    drawn: np.ndarray     # B x (E+1) bool; the extra column pads short boxes
    mover: np.ndarray     # B
    doubloons: np.ndarray  # B x 2
    held: np.ndarray      # B x 2 x K
    values: np.ndarray    # B x K
    pile: np.ndarray      # B x NB doubloons in each box (0 if none)
    kind: np.ndarray      # B x NB commodity kind of each box, -1 if none
    mod: np.ndarray       # B x NB index into PlayoutKernel.modifiers, -1 if none

    def rows(self, index: np.ndarray) -> "Batch":
        """The batch with rows picked (repeated) by ``index``."""
        return Batch(*(getattr(self, f)[index] for f in self.__dataclass_fields__))


class PlayoutKernel:
    """Per-game tables for batched playouts of a :class:`PillageGame`."""

    def __init__(self, game: PillageGame) -> None:
        self.game = game
        board = game.board
        width = max(len(b) for b in board.box_edges)
        self.box_edges = np.full((board.num_boxes, width), board.num_edges, dtype=np.int64)
        for b, edges in enumerate(board.box_edges):
            self.box_edges[b, : len(edges)] = edges
        self.modifiers: list[Modifier] = []
        self._mod_index: dict[Modifier, int] = {}
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._content_cache: dict[int, tuple[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        self._mod_count: dict[int, tuple[tuple, int]] = {}
        # edge -> its (one or two) boxes, padded with a dummy box that never nears completion
        self.edge_boxes = np.full((board.num_edges, 2), board.num_boxes, dtype=np.int64)
        for e, bs in enumerate(board.edge_boxes):
            self.edge_boxes[e, : len(bs)] = bs
        self._edges = np.arange(game.num_edges, dtype=np.int64)
        # box -> the box across each of its edges (the dummy box past the border and for padding)
        other = np.where(self.edge_boxes[:, 0:1] == np.arange(board.num_boxes)[None, :],
                         self.edge_boxes[:, 1:2], self.edge_boxes[:, 0:1])  # E x NB
        padded = np.concatenate([other, np.full((1, board.num_boxes), board.num_boxes)], axis=0)
        self.box_nbr = padded[self.box_edges, np.arange(board.num_boxes)[:, None]]  # NB x W

    def _modifier_id(self, mod: Modifier) -> int:
        if mod not in self._mod_index:
            self._mod_index[mod] = len(self.modifiers)
            self.modifiers.append(mod)
            self._tables = None
        return self._mod_index[mod]

    def _modifier_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(option count, op table, kind table, amount) over :attr:`modifiers`."""
        if self._tables is None:
            mods = self.modifiers or [Modifier(("+",), 0, (0,))]
            width = max(len(m.options()) for m in mods)
            ops = np.zeros((len(mods), width), dtype=np.int64)
            kinds = np.zeros((len(mods), width), dtype=np.int64)
            for i, m in enumerate(mods):
                for k, (op, kind) in enumerate(m.options()):
                    ops[i, k], kinds[i, k] = OPS.index(op), kind
            count = np.array([len(m.options()) for m in mods], dtype=np.int64)
            self._tables = (count, ops, kinds, np.array([m.amount for m in mods], dtype=np.int64))
        return self._tables

    def _content_rows(self, contents: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pile, kind, modifier id) per box of a contents tuple, cached."""
        # keyed by identity: states share their contents tuple, and hashing it is slow
        cached = self._content_cache.get(id(contents))
        if cached is not None and cached[0] is contents:
            return cached[1]
        nb = len(contents)
        pile = np.zeros(nb, dtype=np.int64)
        kind = np.full(nb, -1, dtype=np.int64)
        mod = np.full(nb, -1, dtype=np.int64)
        for b, c in enumerate(contents):
            if isinstance(c, Doubloons):
                pile[b] = c.n
            elif isinstance(c, Commodity):
                kind[b] = c.kind
            elif isinstance(c, Modifier):
                mod[b] = self._modifier_id(c)
        rows = (pile, kind, mod)
        self._content_cache[id(contents)] = (contents, rows)
        return rows

    def batch(self, states: Sequence[PillageState]) -> Batch:
        """Arrays for ``states`` (each a dealt position with a line to draw)."""
        g = self.game
        n = len(states)
        for s in states:
            if s.pending or s.contents[-1] is None:
                raise ValueError("playouts start where a player is to draw a line")
        drawn = np.ones((n, g.num_edges + 1), dtype=bool)
        if g.num_edges <= 62:
            masks = np.fromiter((s.drawn for s in states), dtype=np.int64, count=n)
            drawn[:, : g.num_edges] = (masks[:, None] >> self._edges) & 1
        else:
            drawn[:, : g.num_edges] = [[(s.drawn >> e) & 1 for e in range(g.num_edges)] for s in states]
        if self._one_deal(states):  # the usual case: one deal, many leaves
            pile, kind, mod = (row[None, :] for row in self._content_rows(states[0].contents))
        else:
            parts = [self._content_rows(s.contents) for s in states]
            pile, kind, mod = (np.array([p[i] for p in parts]) for i in range(3))
        # a box with all its lines drawn was captured before the playout and is tallied
        # in the state already (the padding column counts as drawn)
        open_ = ~drawn[:, self.box_edges].all(axis=2)
        k = g.num_kinds
        # one flat fromiter over each state's tallies: far cheaper than np.array on nested tuples
        tallies = np.fromiter(chain.from_iterable(s.doubloons + s.held[0] + s.held[1] + s.values for s in states),
                              dtype=np.int64, count=n * (2 + 3 * k)).reshape(n, 2 + 3 * k)
        return Batch(
            drawn=drawn,
            mover=np.fromiter((s.mover for s in states), dtype=np.int64, count=n),
            doubloons=tallies[:, :2],
            held=tallies[:, 2 : 2 + 2 * k].reshape(n, 2, k),
            values=tallies[:, 2 + 2 * k :],
            pile=np.where(open_, pile, 0),
            kind=np.where(open_, kind, -1),
            mod=np.where(open_, mod, -1),
        )

    @staticmethod
    def _one_deal(states: Sequence[PillageState]) -> bool:
        """True when every state shares the first one's contents tuple (one deal, many leaves)."""
        first = states[0].contents
        return all(s.contents is first for s in states)

    def scores(self, batch: Batch, keys: np.ndarray, choice_u: np.ndarray) -> np.ndarray:
        """Final scores (B x 2) when row ``r`` draws its undrawn lines in increasing ``keys[r]``
        and its ``m``-th captured modifier takes option ``floor(choice_u[r, m] * options)``."""
        g = self.game
        n, e = len(keys), g.num_edges
        rows = np.arange(n)[:, None]
        drawn = batch.drawn[:, :e]
        # drawn lines sort first, so a line's time in the playout is its rank minus the
        # number already drawn: negative for lines drawn before it starts
        order = np.argsort(np.where(drawn, -1.0, keys), axis=1, kind="stable")
        time = np.empty((n, e + 1), dtype=np.int64)
        time[rows, order] = self._edges - drawn.sum(axis=1, keepdims=True)
        time[:, e] = -1  # the padding column of short boxes
        close = time[:, self.box_edges].max(axis=2)  # B x NB; negative for boxes closed before
        fresh = close >= 0
        # a line passes the turn exactly when it closes nothing (PP-4)
        closes = np.zeros((n, e + 1), dtype=bool)
        closes[rows, np.where(fresh, close, e)] = True
        quiet = ~closes[:, :e]
        mover_at = (batch.mover[:, None] + np.cumsum(quiet, axis=1) - quiet) & 1
        by_second = fresh & (mover_at[rows, np.maximum(close, 0)] == 1)
        by_first = fresh & ~by_second
        doubloons = batch.doubloons + np.stack(
            [(batch.pile * by_first).sum(axis=1), (batch.pile * by_second).sum(axis=1)], axis=1)
        held = batch.held
        if (batch.kind >= 0).any():
            owned = np.stack([by_first, by_second], axis=2)  # B x NB x 2: captured in the playout, by whom
            kinds = batch.kind[:, :, None] == np.arange(g.num_kinds)  # B x NB x K
            held = held + np.einsum("bnk,bnp->bpk", kinds.astype(np.int64), owned.astype(np.int64))
        values = batch.values.copy()
        self._apply_modifiers(batch, close, fresh, choice_u, values)
        return (doubloons + np.einsum("npk,nk->np", held, values)).astype(float)

    def _apply_modifiers(self, batch: Batch, close: np.ndarray, fresh: np.ndarray, choice_u: np.ndarray,
                         values: np.ndarray) -> None:
        is_mod = fresh & (batch.mod >= 0)
        most = int(is_mod.sum(axis=1).max(initial=0))
        if most == 0:
            return
        g = self.game
        count, ops, kinds, amounts = self._modifier_tables()
        nb = g.board.num_boxes
        # capture order: by time, then box index (a legal order under PP-5 amended)
        key = np.where(is_mod, close * (nb + 1) + np.arange(nb)[None, :], NEVER)
        order = np.argsort(key, axis=1)
        rows = np.arange(len(close))
        for r in range(most):
            box = order[:, r]
            live = key[rows, box] != NEVER
            which = np.where(live, batch.mod[rows, box], 0)
            pick = np.minimum((choice_u[:, r] * count[which]).astype(np.int64), count[which] - 1)
            op, kind, amount = ops[which, pick], kinds[which, pick], amounts[which]
            v = values[rows, kind]
            new = np.where(op == 0, v + amount, np.where(op == 1, v - amount, v * amount))
            if g.floor is not None:
                new = np.maximum(new, g.floor)
            values[rows, kind] = np.where(live, new, v)

    def policy_keys(self, batch: Batch, rng: np.random.Generator, capture_first: bool = True) -> np.ndarray:
        """Line orders (as keys for :meth:`scores`) of the rollout policies.

        ``capture_first`` (the ``greedy`` playout) at every step: close a box if some line
        does, else draw a line that leaves no box one line from closing, else the line that
        hands over the fewest boxes (:meth:`gifts`), as the greedy agent does. Otherwise (the
        ``safe`` playout): a safe line, else any. Ties are broken at random. The policies
        look only at how many sides each box has, not at who moves, so the whole batch steps
        in lockstep. The compiled stepper (:mod:`.compiled`) returns the same keys from the
        same draws when numba is there.
        """
        g = self.game
        n = len(batch.drawn)
        rows = np.arange(n)
        undrawn = ~batch.drawn[:, : g.num_edges]
        missing = self.missing(batch)
        keys = np.full((n, g.num_edges), -1.0)
        steps = int(undrawn.sum(axis=1).max(initial=0))
        stepper = compiled_policy() if n else None
        if stepper is not None:
            # the same draws as the loop below takes, one (n, E) block per step, in one call
            stepper(undrawn, missing, self.edge_boxes, self.box_edges, self.box_nbr,
                    rng.random((steps, n, g.num_edges)), capture_first, keys)
            return keys
        for t in range(steps):
            around = missing[:, self.edge_boxes]  # B x E x 2
            capture = undrawn & (around == 1).any(axis=2)
            safe = undrawn & (around > 2).all(axis=2)
            noise = rng.random((n, g.num_edges))
            if capture_first:
                rest = noise
                forced = np.flatnonzero(undrawn.any(axis=1) & ~capture.any(axis=1) & ~safe.any(axis=1))
                if len(forced):
                    # fewer boxes handed over first; within (0, 1) so the bands stay apart
                    rest = noise.copy()
                    gifts = self.gifts(missing[forced], undrawn[forced])
                    rest[forced] = 1 - (gifts + noise[forced]) / (g.board.num_boxes + 2)
                score = np.where(capture, 2.0 + noise, np.where(safe, 1.0 + noise, np.where(undrawn, rest, -1.0)))
            else:
                score = np.where(safe, 1.0 + noise, np.where(undrawn, noise, -1.0))
            pick = score.argmax(axis=1)
            live = score[rows, pick] >= 0
            keys[rows[live], pick[live]] = t
            undrawn[rows[live], pick[live]] = False
            for side in (0, 1):
                missing[rows[live], self.edge_boxes[pick[live], side]] -= 1
        return keys

    def missing(self, batch: Batch) -> np.ndarray:
        """Lines each box still lacks (B x NB+1); the last column, the dummy box past the
        border, lacks too many ever to close. The padding of short boxes counts as drawn."""
        lacking = (~batch.drawn)[:, self.box_edges].sum(axis=2)
        return np.concatenate([lacking, np.full((len(lacking), 1), 1 << 20, dtype=np.int64)], axis=1)

    def gifts(self, missing: np.ndarray, undrawn: np.ndarray) -> np.ndarray:
        """Per row and line (B x E): how many boxes drawing the line hands over when no box is
        one line from closing -- the sizes of the chains (boxes two lines from closing, joined
        by undrawn lines) that its boxes belong to."""
        nb = self.game.board.num_boxes
        n = len(missing)
        two = missing == 2  # B x (NB+1); the dummy box never is
        open_line = np.concatenate([undrawn, np.zeros((n, 1), dtype=bool)], axis=1)
        link = two[:, :nb, None] & open_line[:, self.box_edges] & two[:, self.box_nbr]  # B x NB x W
        label = np.where(two, np.arange(nb + 1), nb)
        rows = np.arange(n)[:, None]
        while True:  # each box takes the least label in its chain
            across = np.where(link, label[:, self.box_nbr], nb).min(axis=2)
            new = np.minimum(label[:, :nb], across)
            new = label[rows, new]  # a label is a box of the same chain: jump to its label
            if (new == label[:, :nb]).all():
                break
            label[:, :nb] = new
        size = (label[:, :, None] == np.arange(nb + 1)).sum(axis=1)  # B x (NB+1) boxes per label
        size[:, nb] = 0
        a, b = label[:, self.edge_boxes[:, 0]], label[:, self.edge_boxes[:, 1]]  # B x E
        return size[rows, a] + np.where(a == b, 0, size[rows, b])

    def playouts(self, states: Sequence[PillageState], rng: np.random.Generator,
                 policy: str = "random") -> tuple[np.ndarray, np.ndarray]:
        """One playout from each of ``states``: final scores (len x 2), and the stake still
        open at the start (len; at least 1), the natural scale of a margin.

        ``policy`` is ``random`` (uniform lines), ``greedy`` (:meth:`policy_keys`: take a box,
        else a safe line, else the smallest gift) or ``safe`` (a safe line, else any)."""
        batch = self.batch(states)
        n = len(states)
        if policy == "random":
            keys = rng.random((n, self.game.num_edges))
        else:
            keys = self.policy_keys(batch, rng, capture_first=policy == "greedy")
        scores = self.scores(batch, keys, rng.random((n, self.modifier_slots(states))))
        return scores, self.stake(batch)

    def stake(self, batch: Batch) -> np.ndarray:
        """Per row, roughly what the open boxes are worth: doubloons, commodities at their
        current values (in magnitude) and modifier amounts; at least 1."""
        total = batch.pile.sum(axis=1)
        has_kind = batch.kind >= 0
        if has_kind.any():
            worth = np.take_along_axis(np.abs(batch.values), np.maximum(batch.kind, 0), axis=1)
            total = total + (worth * has_kind).sum(axis=1)
        if (batch.mod >= 0).any():
            amounts = self._modifier_tables()[3]
            total = total + np.where(batch.mod >= 0, amounts[np.maximum(batch.mod, 0)], 0).sum(axis=1)
        return np.maximum(total, 1).astype(float)

    def modifier_slots(self, states: Sequence[PillageState]) -> int:
        """How many modifier draws a playout from any of ``states`` can need (at most)."""
        most = 1
        for s in states[:1] if self._one_deal(states) else states:
            cached = self._mod_count.get(id(s.contents))
            if cached is None or cached[0] is not s.contents:
                cached = self._mod_count[id(s.contents)] = (s.contents, int((self._content_rows(s.contents)[2] >= 0).sum()))
            most = max(most, cached[1])
        return most

    def playout_scores(self, state: PillageState, orders: np.ndarray, choice_u: np.ndarray) -> np.ndarray:
        """Final scores (N x 2) of playouts from ``state`` drawing lines in ``orders[i]``."""
        n = len(orders)
        keys = np.zeros((n, self.game.num_edges))
        keys[np.arange(n)[:, None], orders] = np.arange(orders.shape[1])
        return self.scores(self.batch([state]).rows(np.zeros(n, dtype=np.int64)), keys, choice_u)

    def random_orders(self, state: PillageState, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Uniformly random line orders and modifier draws for ``n`` playouts from ``state``."""
        undrawn = np.array(state.undrawn(), dtype=np.int64)
        orders = undrawn[np.argsort(rng.random((n, len(undrawn))), axis=1)]
        return orders, rng.random((n, self.modifier_slots([state])))

    def random_scores(self, state: PillageState, n: int, rng: np.random.Generator) -> np.ndarray:
        """Final scores (N x 2) of ``n`` uniformly random playouts from ``state``."""
        batch = self.batch([state]).rows(np.zeros(n, dtype=np.int64))
        return self.scores(batch, rng.random((n, self.game.num_edges)), rng.random((n, self.modifier_slots([state]))))


def replay_order(state: PillageState, order: Sequence[int], choice_u: Sequence[float]) -> PillageState:
    """Play ``order`` through the public API with the same modifier rule as the kernel: of
    two pending modifiers the first box first, its option picked by the next draw."""
    lines = state.game.lines
    r = 0
    for e in order:
        state = state.apply(lines[int(e)])
        while state.pending:
            first = state.contents[state.pending[0]]
            options = [c for c in state.legal_actions() if isinstance(c, Choose) and c.modifier == first]
            state = state.apply(options[min(int(choice_u[r] * len(options)), len(options) - 1)])
            r += 1
    return state
