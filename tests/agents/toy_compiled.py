"""The race of :mod:`tests.agents.toy_games` as compiled rules: a game with chance nodes and any
number of seats for the compiled tree, whose leaves are random rollouts drawn from the tree's
stream as :class:`plunder.agents.mcts.RolloutEvaluator` draws them.

A position's array: each seat's total, the seat to move, 1 while chance is to add, the target.
Actions are the steps' sizes (chance's 0 and 1, a seat's 1 and 2).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from plunder.core import compiled_random
from plunder.core.capabilities import CompiledRules
from plunder.core.game import CHANCE, TERMINAL

from tests.agents.toy_games import Race, RaceState


def player(state: Any, tables: Any) -> int:
    """The first seat at the target has won; else chance or the seat to move."""
    seats = state.shape[0] - 3
    for seat in range(seats):
        if state[seat] >= state[seats + 2]:
            return TERMINAL
    return CHANCE if state[seats + 1] == 1 else state[seats]


def legal(state: Any, tables: Any, out: Any) -> int:
    """Chance's 0 and 1, or the mover's 1 and 2."""
    chance = player(state, tables) == CHANCE
    out[0] = 0 if chance else 1
    out[1] = 1 if chance else 2
    return 2


def chances(state: Any, tables: Any, out: Any) -> int:
    """Even odds."""
    out[0] = 0.5
    out[1] = 0.5
    return 2


def step(state: Any, action: int, tables: Any, out: Any) -> None:
    """Add the step to the mover's total; after chance's step the next seat moves."""
    seats = state.shape[0] - 3
    for i in range(state.shape[0]):
        out[i] = state[i]
    out[state[seats]] += action
    if state[seats + 1] == 1:
        out[seats] = (state[seats] + 1) % seats
        out[seats + 1] = 0
    else:
        out[seats + 1] = 1


def returns(state: Any, tables: Any, out: Any) -> None:
    """+1 to the winner, -1 to the others; alone, +1 for hitting the target exactly."""
    seats = state.shape[0] - 3
    target = state[seats + 2]
    winner = -1
    for seat in range(seats):
        if winner < 0 and state[seat] >= target:
            winner = seat
    for seat in range(seats):
        out[seat] = 0.0
    if winner < 0:
        return
    if seats == 1:
        out[0] = 1.0 if state[0] == target else -1.0
        return
    for seat in range(seats):
        out[seat] = 1.0 if seat == winner else -1.0


def value(state: Any, tables: Any, tree: Any, leaf: Any, out: Any) -> None:
    """One random rollout: chance by ``sample_chance`` (u against the running sum), a seat's
    step by ``rng.choice`` (the tree's stream: the search's ``random.Random``). Works in the
    scratch rows of ``tables`` (the compiled tree's functions allocate nothing)."""
    work = tables[1]
    nxt = tables[2]
    for i in range(state.shape[0]):
        work[i] = state[i]
    while player(work, tables) != TERMINAL:
        if player(work, tables) == CHANCE:
            action = 0 if compiled_random.mt_random(tree) < 0.5 else 1
        else:
            action = 1 + compiled_random.mt_below(tree, 2)
        step(work, action, tables, nxt)
        for i in range(nxt.shape[0]):
            work[i] = nxt[i]
    returns(work, tables, out)


def _built() -> dict[str, Any]:
    import numba

    compiled_random.compiled()
    # as docs/new-game.md asks of a game: the search takes these in whole
    jit = numba.njit(cache=True, **compiled_random.INLINED)
    names = globals()
    for name in ("player", "legal", "chances", "step", "returns", "value"):
        if not hasattr(names[name], "py_func"):
            names[name] = jit(names[name])
    return names


def race_rules(game: Race) -> CompiledRules[RaceState]:
    """The race's compiled rules (numba compiles them on the first call)."""
    names = _built()
    # a placeholder, then the rollout's scratch positions
    tables = (np.zeros(1, dtype=np.int64), np.zeros(game.num_players + 3, dtype=np.int64),
              np.zeros(game.num_players + 3, dtype=np.int64))

    def encode(state: RaceState) -> np.ndarray:
        return np.array([*state.totals, state.turn, int(state.chance), game.values["target"]], dtype=np.int64)

    def no_stream(rng: random.Random) -> np.ndarray:
        return np.zeros(0, dtype=np.uint64)

    return CompiledRules(key="race", sources=(__file__, compiled_random.__file__), tables=lambda state: tables,
                         encode=encode, player=names["player"], legal=names["legal"], chances=names["chances"],
                         step=names["step"], returns=names["returns"], value=names["value"], most=2,
                         leaf_stream=no_stream)
