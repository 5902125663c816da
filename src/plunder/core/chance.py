"""Chance draws keyed on the game's seed and the chance event's index.

A game's ``n``-th chance event (counting from 0) always draws the uniform number
``uniform(seed, n)``, whatever happened before it: undoing a move and playing it again
meets the same cards, flips and dice, a replay can check that every chance move of a
record came from its seed, and no running random stream has to be carried in a state.
Searches draw their own samples with :func:`sample_chance` and a ``random.Random``.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect
from itertools import accumulate
from typing import Any, Callable, Sequence

from .game import State

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_key(seed: int) -> int:
    """A 64-bit key for ``seed``, so that nearby seeds give unrelated draws."""
    digest = hashlib.blake2b(f"plunder-chance:{seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _mix(z: int) -> int:
    """The splitmix64 finaliser: a bijection on 64-bit words with good avalanche."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def uniform_keyed(key: int, index: int) -> float:
    """The uniform number in [0, 1) of chance event ``index`` for a :func:`seed_key`."""
    return (_mix((key + (index + 1) * _GOLDEN) & _MASK) >> 11) * (1.0 / (1 << 53))


def uniform(seed: int, index: int) -> float:
    """The uniform number in [0, 1) that decides chance event ``index`` of a game with ``seed``."""
    return uniform_keyed(seed_key(seed), index)


def stream(seed: int, start: int = 0) -> Callable[[], float]:
    """Successive :func:`uniform` draws from event ``start`` on, for fast paths that count events."""
    key = seed_key(seed)
    index = start - 1

    def draw() -> float:
        nonlocal index
        index += 1
        return uniform_keyed(key, index)

    return draw


def pick(outcomes: Sequence[tuple[Any, float]], u: float) -> Any:
    """The outcome that ``u`` in [0, 1) selects from ``[(outcome, probability), ...]``, in listed order."""
    cumulative = list(accumulate(p for _, p in outcomes))
    i = bisect(cumulative, u * cumulative[-1], 0, len(cumulative) - 1)
    return outcomes[i][0]


def draw(state: State, seed: int, index: int) -> Any:
    """The outcome of chance event ``index`` at ``state`` in a game with ``seed``."""
    return pick(state.chance_outcomes(), uniform(seed, index))


def sample_chance(state: State, rng: random.Random) -> Any:
    """A chance outcome of ``state`` drawn with ``rng`` by its probabilities (for searches)."""
    return pick(state.chance_outcomes(), rng.random())
