"""The compiled MCTS tree: :class:`.mcts.MCTSAgent`'s search, whole simulations in numba.

A game that offers compiled rules (``Strength.compiled``, a
:class:`~plunder.core.capabilities.CompiledRules`) is searched here: the tree's nodes live in
preallocated arrays (positions, visits, per-seat value sums, each node's untried actions and
its children's statistics in a shared pool), and selection (UCT), expansion, chance
sampling, the leaf's value (the game's compiled playouts) and backup run in one compiled
call for all of a move's simulations.

It is the pure search with leaves evaluated one at a time (``batch=1``), step for step: the
same UCT formula and constant, the first of equal children winning, untried actions taken at
random by the same swap, chance outcomes picked by the same cumulative sum, and the same
random streams (the ``random.Random``'s Mersenne Twister for the tree, the game's own leaf
stream for its playouts; :mod:`plunder.core.compiled_random`). So a compiled search returns
the pure one's visits and values bit for bit (``tests/agents/test_tree.py``). The tree is
kept between moves as the pure one is: the new position is looked for four plies down, and
the subtree found is copied to the front of fresh arrays, so the arrays hold only what the
search can still use.

The search function calls the game's functions by global names bound when it is compiled,
so each game gets its own copy, named after the game and a digest of the game's compiled
sources, which keys numba's on-disk cache: a new process loads it rather than compiling.
A game's functions compiled with :data:`~plunder.core.compiled_random.INLINED` are taken into
that copy whole, so that no call of a simulation hands over the game's tables.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
import types
from typing import Any, Callable

import numpy as np

from ..core import compiled_random
from ..core.capabilities import CompiledRules
from ..core.compiled_random import mt_random, mt_restore, mt_state
from ..core.registry import entry, is_game
from ..core.game import Action, CHANCE, TERMINAL
from .uct import uct_table

# node columns
_PLAYER, _VISITS, _START, _LEGAL, _UNTRIED, _EXPANDED = range(6)
# pool columns: an untried action; an expanded child, its visits (virtual losses included) and action
_ACTION, _CHILD, _CHILD_VISITS, _CHILD_ACTION = range(4)
# the float pool beside it (``returns``): an expanded child's summed return for its parent's
# mover (a chance outcome's probability), and the square root and reciprocal of its visits
# the game's compiled functions: names only here, bound in each game's copy of :func:`_search`
# (:func:`_compiled_search`)
_player: Callable[..., int]
_legal: Callable[..., int]
_chances: Callable[..., int]
_step: Callable[..., None]
_returns: Callable[..., None]
_value: Callable[..., None]

#: a new root's seat before the search reads it (no seat, CHANCE or TERMINAL)
UNKNOWN = -99
#: the pure search's cut-off when it looks for the new position in the kept tree
FRONTIER = 5000
FIND_DEPTH = 4


def _best_child(returns: Any, start: int, count: int, visits: int, c: float, uct: Any) -> int:
    """UCT over a decision node's expanded children, as :meth:`.mcts.Node.best_child` (the node's
    own virtual loss counted: the path being selected passes through it). A child's slot holds
    its summed return and the square root and reciprocal of its visits (:func:`_visited`), so
    the loop reads three neighbouring floats a child and no table."""
    n = visits + 1
    explore = uct[0, n] if n < uct.shape[1] else c * math.sqrt(math.log(n))
    best = -math.inf
    pick = 0
    for i in range(count):
        value = (returns[start + i, 0] + explore * returns[start + i, 1]) * returns[start + i, 2]
        if value > best:
            best = value
            pick = i
    return pick


def _visited(returns: Any, slot: int, n: int, uct: Any) -> None:
    """Set the factors of a child visited ``n`` times in its slot: the square root and the
    reciprocal of ``n``, from ``uct`` (:func:`.uct.uct_table`) where it holds them, as the pure
    search's :meth:`.mcts.Node.best_child` takes them."""
    if n < uct.shape[1]:
        returns[slot, 1] = uct[1, n]
        returns[slot, 2] = uct[2, n]
    else:
        returns[slot, 1] = math.sqrt(n)
        returns[slot, 2] = 1.0 / n


def _children(nodes: Any, pool: Any, node: int, out: Any) -> int:
    """The node's children made so far, into ``out``; returns how many."""
    start = nodes[node, _START]
    if start < 0:
        return 0
    n = 0
    if nodes[node, _PLAYER] == CHANCE:
        for i in range(nodes[node, _LEGAL]):
            if pool[start + i, _CHILD] >= 0:
                out[n] = pool[start + i, _CHILD]
                n += 1
    else:
        for i in range(nodes[node, _EXPANDED]):
            out[n] = pool[start + i, _CHILD]
            n += 1
    return n


def _find(states: Any, nodes: Any, pool: Any, root: int, count: int, target: Any) -> int:
    """The node holding ``target`` within :data:`FIND_DEPTH` plies of ``root`` (breadth first,
    stopping as the pure search does past :data:`FRONTIER` nodes), or -1."""
    frontier = np.empty(count, dtype=np.int64)
    nxt = np.empty(count, dtype=np.int64)
    frontier[0] = root
    size = 1
    for _ in range(FIND_DEPTH):
        for f in range(size):
            node = frontier[f]
            same = True
            for i in range(target.shape[0]):
                if states[node, i] != target[i]:
                    same = False
                    break
            if same:
                return node
        grown = 0
        for f in range(size):
            grown += _children(nodes, pool, frontier[f], nxt[grown:])
        frontier, nxt = nxt, frontier
        size = grown
        if size > FRONTIER:
            break
    return -1


def _compact(states: Any, nodes: Any, total: Any, pool: Any, returns: Any, root: int,
             new_states: Any, new_nodes: Any, new_total: Any, new_pool: Any, new_returns: Any, meta: Any) -> None:
    """Copy the subtree of ``root`` to the front of the new arrays, breadth first, each node's
    pool slots in their order; ``meta`` gets the new node and pool counts and root 0."""
    order = np.empty(nodes.shape[0], dtype=np.int64)
    order[0] = root
    head = 0
    tail = 1
    used = 0
    while head < tail:
        old = order[head]
        new = head
        head += 1
        new_states[new, :] = states[old, :]
        new_nodes[new, :] = nodes[old, :]
        new_total[new, :] = total[old, :]
        start = nodes[old, _START]
        if start < 0:
            continue
        n = nodes[old, _LEGAL]
        new_nodes[new, _START] = used
        for i in range(n):
            new_pool[used + i, :] = pool[start + i, :]
            new_returns[used + i, :] = returns[start + i, :]
        made = n if nodes[old, _PLAYER] == CHANCE else nodes[old, _EXPANDED]
        for i in range(made):
            child = pool[start + i, _CHILD]
            if child >= 0:
                order[tail] = child
                new_pool[used + i, _CHILD] = tail
                tail += 1
        used += n
    meta[0] = tail
    meta[1] = used
    meta[2] = 0


def _search(states: Any, nodes: Any, total: Any, pool: Any, returns: Any, meta: Any, tables: Any, sims: int,
            c: float, uct: Any, tree: Any, leaf: Any, reserve: int, root_codes: Any, codes: Any, probs: Any,
            cumulative: Any, value: Any, movers: Any, slots: Any, path: Any) -> int:
    """Run up to ``sims`` simulations from node ``meta[2]``; returns how many ran (fewer when the
    arrays could not hold another: the caller grows them and calls again). The root's legal
    codes go to ``root_codes`` and their count to ``meta[3]``; a root whose seat is not known
    yet (:data:`UNKNOWN`) gets it first.

    Calls the game's compiled functions by the names ``_player``, ``_legal``, ``_chances``,
    ``_step``, ``_returns`` and ``_value``, which each game's copy binds (:func:`_compiled_search`).
    """
    seats = total.shape[1]
    root = meta[2]
    if nodes[root, _PLAYER] == UNKNOWN:
        nodes[root, _PLAYER] = _player(states[root], tables)
    meta[3] = _legal(states[root], tables, root_codes)
    done = 0
    while done < sims:
        if meta[0] + reserve > states.shape[0] or meta[1] + reserve * codes.shape[0] > pool.shape[0]:
            break
        node = root
        depth = 0
        while nodes[node, _PLAYER] != TERMINAL:
            player = nodes[node, _PLAYER]
            start = nodes[node, _START]
            if start < 0:
                # first pass: list the actions (or outcomes and their probabilities)
                n = _legal(states[node], tables, codes)
                start = meta[1]
                meta[1] += n
                nodes[node, _START] = start
                nodes[node, _LEGAL] = n
                nodes[node, _UNTRIED] = n
                nodes[node, _EXPANDED] = 0
                if player == CHANCE:
                    _chances(states[node], tables, probs)
                for i in range(n):
                    pool[start + i, _ACTION] = codes[i]
                    pool[start + i, _CHILD] = -1
                    returns[start + i, 0] = probs[i] if player == CHANCE else 0.0
            if player == CHANCE:
                # sample_chance: the first outcome whose running sum passes u times the total
                n = nodes[node, _LEGAL]
                u = mt_random(tree)
                running = 0.0
                for i in range(n):
                    running += returns[start + i, 0]
                    cumulative[i] = running
                x = u * cumulative[n - 1]
                lo = 0
                hi = n - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if x < cumulative[mid]:
                        hi = mid
                    else:
                        lo = mid + 1
                child = pool[start + lo, _CHILD]
                if child < 0:
                    child = meta[0]
                    meta[0] += 1
                    _step(states[node], pool[start + lo, _ACTION], tables, states[child])
                    nodes[child, :] = 0
                    nodes[child, _PLAYER] = _player(states[child], tables)
                    nodes[child, _START] = -1
                    total[child, :] = 0.0
                    pool[start + lo, _CHILD] = child
                movers[depth] = CHANCE
                slots[depth] = -1
                path[depth] = child
                depth += 1
                node = child
                continue
            untried = nodes[node, _UNTRIED]
            if untried > 0:
                # a random untried action, swapped to the end and taken off
                j = int(mt_random(tree) * untried)
                last = start + untried - 1
                action = pool[start + j, _ACTION]
                pool[start + j, _ACTION] = pool[last, _ACTION]
                pool[last, _ACTION] = action
                nodes[node, _UNTRIED] = untried - 1
                child = meta[0]
                meta[0] += 1
                _step(states[node], action, tables, states[child])
                nodes[child, :] = 0
                nodes[child, _PLAYER] = _player(states[child], tables)
                nodes[child, _START] = -1
                total[child, :] = 0.0
                i = nodes[node, _EXPANDED]
                nodes[node, _EXPANDED] = i + 1
                pool[start + i, _CHILD] = child
                pool[start + i, _CHILD_VISITS] = 1
                pool[start + i, _CHILD_ACTION] = action
                returns[start + i, 0] = -1.0
                _visited(returns, start + i, 1, uct)
                movers[depth] = player
                slots[depth] = start + i
                path[depth] = child
                depth += 1
                node = child
                break
            i = _best_child(returns, start, nodes[node, _EXPANDED], nodes[node, _VISITS], c, uct)
            pool[start + i, _CHILD_VISITS] += 1
            returns[start + i, 0] -= 1
            _visited(returns, start + i, pool[start + i, _CHILD_VISITS], uct)
            child = pool[start + i, _CHILD]
            movers[depth] = player
            slots[depth] = start + i
            path[depth] = child
            depth += 1
            node = child
        if nodes[node, _PLAYER] == TERMINAL:
            _returns(states[node], tables, value)
        else:
            _value(states[node], tables, tree, leaf, value)
        nodes[root, _VISITS] += 1
        for seat in range(seats):
            total[root, seat] += value[seat]
        for d in range(depth):
            child = path[d]
            nodes[child, _VISITS] += 1
            for seat in range(seats):
                total[child, seat] += value[seat]
            if slots[d] >= 0:
                returns[slots[d], 0] += 1 + value[movers[d]]
        done += 1
    return done


_helpers_built = False
_searches: dict[str, Callable[..., int]] = {}


def _compiled_search(rules: CompiledRules[Any]) -> Callable[..., int]:
    """:func:`_search` compiled with the game's functions bound (or loaded from numba's cache)."""
    global _helpers_built
    import numba

    jit = numba.njit(cache=True, nogil=True)
    # the search and UCT allocate nothing (their scratch comes from :class:`CompiledTree`):
    # compiled without reference counting, a row of the tree's arrays handed to the game's
    # functions costs no atomic operations
    uncounted = numba.njit(cache=True, nogil=True, **compiled_random.UNCOUNTED)
    names = globals()
    if not _helpers_built:
        names["mt_random"] = compiled_random.compiled().mt_random
        inline = numba.njit(cache=True, nogil=True, **compiled_random.INLINED)
        for name in ("_best_child", "_visited"):
            names[name] = inline(names[name])
        for name in ("_children", "_find", "_compact"):
            names[name] = jit(names[name])
        _helpers_built = True
    digest = hashlib.sha1()
    for path in (*rules.sources, __file__):
        with open(path, "rb") as f:
            digest.update(f.read())
    name = f"_search_{rules.key}_{digest.hexdigest()[:16]}"
    found = _searches.get(name)
    if found is None:
        bound = dict(names, _player=rules.player, _legal=rules.legal, _chances=rules.chances, _step=rules.step,
                     _returns=rules.returns, _value=rules.value)
        code = _search.__code__
        fn = types.FunctionType(code.replace(co_name=name, co_qualname=name), bound, name)
        fn.__qualname__ = name
        fn.__module__ = __name__
        found = _searches[name] = uncounted(fn)
    return found


class CompiledTree:
    """One agent's compiled tree for a game's :class:`CompiledRules`, kept between moves."""

    def __init__(self, rules: CompiledRules[Any], seats: int, c: float, reuse: bool, longest: int) -> None:
        self.rules = rules
        self.seats = seats
        self.c = c
        self._uct = uct_table(c)
        self.reuse = reuse
        #: the most nodes one simulation can add (one a ply down a whole game, and the expansion)
        self.reserve = longest + 2
        self.search_fn = _compiled_search(rules)
        self._tables: tuple[Any, ...] | None = None
        self._arrays: tuple[np.ndarray, ...] | None = None
        #: the arrays of the tree before the last move, which the next subtree is copied into
        self._spare: tuple[np.ndarray, ...] | None = None
        #: nodes used, pool slots used, the root, the root's legal actions
        self._meta = np.zeros(4, dtype=np.int64)
        self._codes = np.zeros(rules.most, dtype=np.int64)
        #: the search's scratch, made here so that the compiled search allocates nothing: a
        #: position's codes, a chance node's probabilities and their running sums, a leaf's
        #: value, and the path of a simulation (each node's parent and child slot)
        self._scratch = (np.zeros(rules.most, dtype=np.int64), np.zeros(rules.most), np.zeros(rules.most),
                         np.zeros(seats), np.zeros(self.reserve, dtype=np.int64),
                         np.zeros(self.reserve, dtype=np.int64), np.zeros(self.reserve, dtype=np.int64))
        #: the compiled search's entry for this tree's argument types, found on its first call:
        #: it skips numba's dispatch, which types every array of the tables on every call
        self._entry: Callable[..., int] | None = None

    def _fresh(self, width: int, nodes: int, spare: tuple[np.ndarray, ...] | None) -> tuple[np.ndarray, ...]:
        """Arrays for ``nodes`` nodes: ``spare`` if it is large enough (what it holds is never
        read before it is written: a node's row is set when it is made, its pool slots when it
        is first passed), else new ones."""
        if spare is not None and spare[0].shape == (max(nodes, spare[0].shape[0]), width):
            return spare
        pool = nodes * self.rules.most // 2 + self.reserve * self.rules.most
        return (np.zeros((nodes, width), dtype=np.int64), np.zeros((nodes, 6), dtype=np.int64),
                np.zeros((nodes, self.seats)), np.zeros((pool, 4), dtype=np.int64), np.zeros((pool, 3)))

    def _root(self, state: Any, tables: tuple[Any, ...], sims: int) -> None:
        """Make ``state`` the root: found in the kept tree and copied to the front of the spare
        arrays, or a new tree."""
        encoded = self.rules.encode(state)
        want = sims + self.reserve + 1
        if self.reuse and self._arrays is not None and tables is self._tables:
            states, nodes, total, pool, returns = self._arrays
            found = _find(states, nodes, pool, int(self._meta[2]), int(self._meta[0]), encoded)
            if found >= 0:
                kept = int(self._meta[0])
                fresh = self._fresh(states.shape[1], max(want + kept, states.shape[0]), self._spare)
                if fresh[3].shape[0] < pool.shape[0]:
                    fresh = self._fresh(states.shape[1], max(want + kept, states.shape[0]), None)
                _compact(states, nodes, total, pool, returns, found, fresh[0], fresh[1], fresh[2], fresh[3], fresh[4],
                         self._meta)
                self._arrays, self._spare = fresh, self._arrays
                return
        self._tables = tables
        self._arrays = self._fresh(len(encoded), want, self._arrays)
        states, nodes, total, _, _ = self._arrays
        states[0] = encoded
        nodes[0] = (UNKNOWN, 0, -1, 0, 0, 0)
        total[0] = 0.0
        self._meta[:3] = (1, 0, 0)

    def _grow(self) -> None:
        """Double the arrays, keeping what they hold."""
        assert self._arrays is not None
        grown = []
        for a in self._arrays:
            bigger = np.zeros((2 * a.shape[0], *a.shape[1:]), dtype=a.dtype)
            bigger[: a.shape[0]] = a
            grown.append(bigger)
        self._arrays = tuple(grown)

    def ranked(self, state: Any, rng: random.Random, sims: int | None,
               seconds: float | None) -> list[tuple[Action, int, float]] | None:
        """Search ``state`` and rank its actions as :meth:`.mcts.MCTSAgent.ranked` does; ``None``
        when the compiled rules do not hold the position (the pure search plays it)."""
        tables = self.rules.tables(state)
        if tables is None:
            return None
        budget = sims if sims is not None else (1 << 62)
        deadline = None if seconds is None else time.perf_counter() + seconds
        self._root(state, tables, min(budget, 1 << 16))
        # the leaf stream first: a game's leaf stream may be drawn from ``rng`` itself
        leaf = self.rules.leaf_stream(rng)
        tree = mt_state(rng)
        done = 0
        # with a clock, a few simulations a call so that the clock is read between them
        chunk = budget if deadline is None else 64
        while done < budget:
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            assert self._arrays is not None
            asked = min(chunk, budget - done)
            ran = self._call(*self._arrays, self._meta, tables, asked, self.c, self._uct, tree, leaf, self.reserve,
                             self._codes, *self._scratch)
            done += ran
            if ran < asked:  # the arrays are full
                self._grow()
        mt_restore(rng, tree)
        return self._rows(state)

    def _call(self, *args: Any) -> int:
        """The compiled search, by its entry once known."""
        if self._entry is not None:
            return self._entry(*args)
        ran = self.search_fn(*args)
        signatures = getattr(self.search_fn, "signatures", [])
        if len(signatures) == 1:
            self._entry = self.search_fn.overloads[signatures[0]].entry_point  # type: ignore[attr-defined]
        return ran

    def _rows(self, state: Any) -> list[tuple[Action, int, float]]:
        """Root actions as (action, visits, mean return for the mover), most visited first."""
        assert self._arrays is not None
        _, nodes, total, pool, _ = self._arrays
        root = int(self._meta[2])
        seat = int(nodes[root, _PLAYER])
        start = int(nodes[root, _START])
        legal = state.legal_actions()
        action_of = dict(zip(self._codes[: self._meta[3]].tolist(), legal))
        rows = []
        for i in range(int(nodes[root, _EXPANDED])):
            child = int(pool[start + i, _CHILD])
            visits = int(nodes[child, _VISITS])
            mean = float(total[child, seat]) / visits if visits else 0.0
            rows.append((action_of[int(pool[start + i, _CHILD_ACTION])], visits, mean))
        return sorted(rows, key=lambda r: (-r[1], -r[2]))


def warm(game: Any) -> None:
    """Compile (or load from numba's cache) the compiled tree of ``game``'s default variant, if its
    game offers compiled rules, by a search of two simulations from its first decision: a
    search's argument types do not depend on the playouts or their number, so this serves every
    setting. Run once per process by whatever searches for people (the web server's workers)."""
    make = entry(game.id).strength.compiled if is_game(game.id) else None
    rules = None if make is None else make(game, 1, "")
    if rules is None:
        return
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    CompiledTree(rules, game.num_players, 1.0, False, game.max_game_length).ranked(state, random.Random(0), 2, None)
