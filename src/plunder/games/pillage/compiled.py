"""The greedy and safe playout policies compiled with numba: the same line orders, bit for bit.

:meth:`.fast.PlayoutKernel.policy_keys` steps a whole batch of playouts in lockstep with some
twenty numpy calls per line drawn. On the batches MCTS hands it (128 playouts of 40 lines on a
4x4 board) numpy's cost per call, not the arithmetic, is what those steps cost: they were about
85% of ``hard``'s search early in a 4x4 game (docs/ai.md, "Pillage: what a move of ``hard``
costs"). Here each playout is stepped on its own in compiled loops instead.

The numpy path stays, and both paths take the same random numbers (one draw per line, row and
step, in the order the numpy path draws them) and make the same float operations in the same
order, so they return equal keys: ``tests/games/pillage/test_compiled.py`` checks it on every
board shape and on whole games of ``hard``.

numba is imported on the first call, not with the game: a command that never plays out a
Pillage position does not pay for it. Its compiled code is cached on disk (numba's own cache,
beside this file or in the user's cache directory), so a new process loads it rather than
compiling again. Without numba, or with ``PLUNDER_PURE=1`` in the environment, the numpy path
plays.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.compiled import PURE_ENV, built_once

__all__ = ["PURE_ENV", "compiled_policy", "warm"]

_policy = built_once(lambda: _build())


def compiled_policy() -> Callable[..., None] | None:
    """The compiled stepper, or ``None`` when numba is missing or ``PLUNDER_PURE`` is set."""
    return _policy()


def warm() -> None:
    """``ENTRY.strength.warm``: compile the stepper, or load it from numba's cache, by playing
    out one small position, so a player's first move does not wait for it; and the compiled
    exact valued search (solver_valued_compiled.py), so the coach's first exact value does not."""
    if compiled_policy() is None:
        return
    from .fast import PlayoutKernel
    from .rules import PillageGame

    game = PillageGame.load(preset="small")
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    PlayoutKernel(game).playouts([state] * 2, np.random.default_rng(0), "greedy")
    # the exact valued search too: its first build compiles for about 30 s, and the analysis
    # worker that solves with it loads it from the disk cache this fills
    from .solver_valued_compiled import compiled_valued

    compiled_valued()


def _build() -> Callable[..., None]:
    """Compile (or load from numba's cache) :func:`_policy_rows`."""
    import numba

    jit = numba.njit(cache=True, nogil=True)
    # the stepper calls ``_policy_step`` and it ``_chain_sizes`` by their global names, which
    # numba resolves when it compiles: bind those names to the compiled helpers first
    globals()["_chain_sizes"] = jit(_chain_sizes)
    globals()["_policy_step"] = jit(_policy_step)
    return jit(_policy_rows)


def _chain_sizes(missing: Any, undrawn: Any, box_edges: Any, box_nbr: Any, nb: int, comp: Any, size: Any,
                 stack: Any) -> None:
    """Label each box two lines from closing with its chain (boxes joined by undrawn lines),
    and count each chain's boxes: ``comp[b]`` is the chain's least box (``nb`` for other
    boxes), ``size[c]`` its box count (0 for ``nb``); ``stack`` (``nb`` long at least) is scratch."""
    for b in range(nb + 1):
        comp[b] = nb
        size[b] = 0
    for b in range(nb):
        if missing[b] != 2 or comp[b] != nb:
            continue
        # boxes are visited in index order, so ``b`` is its chain's least box
        comp[b] = b
        size[b] = 1
        stack[0] = b
        top = 1
        while top > 0:
            top -= 1
            x = stack[top]
            for w in range(box_edges.shape[1]):
                e = box_edges[x, w]
                y = box_nbr[x, w]
                if y < nb and e < undrawn.shape[0] and undrawn[e] and missing[y] == 2 and comp[y] == nb:
                    comp[y] = b
                    size[b] += 1
                    stack[top] = y
                    top += 1


def _policy_rows(undrawn: Any, missing: Any, edge_boxes: Any, box_edges: Any, box_nbr: Any, noise: Any,
                 capture_first: bool, keys: Any) -> None:
    """Fill ``keys`` (B x E, -1 where nothing is drawn) with the step at which each row's
    playout draws each line: the policy of :meth:`.fast.PlayoutKernel.policy_keys`, with
    ``noise[t, r, e]`` the tie-breaking draw of line ``e`` in row ``r`` at step ``t``.
    ``undrawn`` and ``missing`` are the rows' start (changed in place)."""
    n, e_count = undrawn.shape
    nb = box_edges.shape[0]
    comp = np.empty(nb + 1, dtype=np.int64)
    size = np.empty(nb + 1, dtype=np.int64)
    stack = np.empty(nb + 1, dtype=np.int64)
    kind = np.empty(e_count, dtype=np.int8)
    for r in range(n):
        for t in range(noise.shape[0]):
            pick = _policy_step(undrawn[r], missing[r], edge_boxes, box_edges, box_nbr, noise[t, r], capture_first,
                                kind, comp, size, stack)
            if pick < 0:
                break
            keys[r, pick] = t


def _policy_step(undrawn: Any, missing: Any, edge_boxes: Any, box_edges: Any, box_nbr: Any, noise: Any,
                 capture_first: bool, kind: Any, comp: Any, size: Any, stack: Any) -> int:
    """One step of one playout (:func:`_policy_rows`): the line drawn, -1 when none is left;
    ``undrawn`` and ``missing`` (the row's) are updated. ``noise[e]`` is line ``e``'s
    tie-breaking draw, read for undrawn lines only; ``kind``, ``comp``, ``size`` and ``stack`` are
    scratch."""
    e_count = undrawn.shape[0]
    nb = box_edges.shape[0]
    # per line: 0 drawn, 1 closes a box, 2 safe (every box it borders lacks three or more), 3 neither
    any_undrawn = False
    any_capture = False
    any_safe = False
    for e in range(e_count):
        if not undrawn[e]:
            kind[e] = 0
            continue
        any_undrawn = True
        m0 = missing[edge_boxes[e, 0]]
        m1 = missing[edge_boxes[e, 1]]
        if m0 == 1 or m1 == 1:
            kind[e] = 1
            any_capture = True
        elif m0 > 2 and m1 > 2:
            kind[e] = 2
            any_safe = True
        else:
            kind[e] = 3
    if not any_undrawn:
        return -1
    forced = capture_first and not any_capture and not any_safe
    if forced:
        _chain_sizes(missing, undrawn, box_edges, box_nbr, nb, comp, size, stack)
    # the first line of the highest score, as numpy's argmax picks it
    pick = -1
    best = -1.0
    for e in range(e_count):
        k = kind[e]
        if k == 0:
            continue
        u = noise[e]
        if capture_first and k == 1:
            score = 2.0 + u
        elif k == 2:
            score = 1.0 + u
        elif forced:
            a = comp[edge_boxes[e, 0]]
            b = comp[edge_boxes[e, 1]]
            gifts = size[a] + (0 if a == b else size[b])
            score = 1 - (gifts + u) / (nb + 2)
        else:
            score = u
        if pick < 0 or score > best:
            pick = e
            best = score
    undrawn[pick] = False
    missing[edge_boxes[pick, 0]] -= 1
    missing[edge_boxes[pick, 1]] -= 1
    return pick
