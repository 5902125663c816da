"""Python's and numpy's random streams reproduced in compiled code, draw for draw.

A compiled search must take the same random numbers as the pure search it stands for, or
the two cannot be tested equal: the pure MCTS tree draws from a ``random.Random`` (Python's
Mersenne Twister) and Pillage's playouts from a ``numpy.random.Generator`` (PCG64). The
functions here are those generators' steps written so numba compiles them, over their states
held in arrays: :func:`mt_state` lends compiled code a ``random.Random``'s state (its own
words in place where CPython's layout was checked, else a copy that :func:`mt_restore` writes
back after the compiled code has drawn), and :func:`pcg_state` copies a PCG64
generator's out (the compiled code then moves those words on in place). A game's chance
events, drawn from its seed and the event's index (:mod:`plunder.core.chance`), are
:func:`chance_uniform`, which also serves numpy arrays of keys and indices.
``tests/core/test_compiled_random.py`` checks every draw against the generators themselves.

The functions are plain Python until :func:`compiled` compiles them (numba is imported
then, not with this module); compiled code calls them by their global names, which
:func:`compiled` binds to the compiled versions. Their compiled code is cached on disk.
"""

from __future__ import annotations

import ctypes
import random
import struct
from types import SimpleNamespace
from typing import Any

import numpy as np

#: the Mersenne Twister's state: the index of the next word, then 624 words (CPython's order)
MT_WORDS = 625
_N = 624
#: the Mersenne Twister's state as :data:`MT_WORDS` 32-bit unsigned words in the machine's order
_MT_PACK = struct.Struct(f"={MT_WORDS}I")
_M = 397
#: where CPython keeps a ``random.Random``'s index and words: after the object's header (its
#: reference count and type), an ``int`` then the 624 ``uint32`` words
_MT_OFFSET = 16
_MT_WORDS_AT = ctypes.c_uint32 * MT_WORDS
#: whether :data:`_MT_OFFSET` was found to hold a ``random.Random``'s state in this
#: interpreter (checked once, by :func:`_lendable`)
_lends: bool | None = None


def _in_place(rng: random.Random) -> np.ndarray:
    """The words at :data:`_MT_OFFSET` of ``rng``'s memory as an array (no copy)."""
    return np.frombuffer(memoryview(_MT_WORDS_AT.from_address(id(rng) + _MT_OFFSET)), dtype=np.uint32)


def _lendable() -> bool:
    """Whether this interpreter keeps a ``random.Random``'s state where :func:`mt_state` reads it
    in place: checked once a process on a generator of known state, before and after draws."""
    global _lends
    if _lends is None:
        probe = random.Random(20261202)
        probe.random()
        # the object must be large enough before its memory is read at all
        _lends = random.Random.__basicsize__ >= _MT_OFFSET + 4 * MT_WORDS
        for _ in range(2):
            state = probe.getstate()[1]
            seen = _in_place(probe) if _lends else None
            _lends = bool(seen is not None and seen[0] == state[-1] and seen[1:].tolist() == list(state[:-1]))
            probe.getrandbits(32 * 700)  # past a regeneration of the words
    return _lends


def mt_state(rng: random.Random) -> np.ndarray:
    """``rng``'s Mersenne Twister state as :data:`MT_WORDS` ``uint32`` words (the index first):
    the generator's own memory where the interpreter's layout allows (a plain
    ``random.Random``; compiled draws then move ``rng`` itself on), else a copy for
    :func:`mt_restore`. The caller keeps ``rng`` alive while it uses the array."""
    if type(rng) is random.Random and _lendable():
        # a search pays this once a move: a copy out and back costs some 19 us, the view 0.4
        return _in_place(rng)
    words = rng.getstate()[1]
    # packed by ``struct`` into a writable buffer: numpy converts a tuple of Python ints item by
    # item, at several times the cost
    return np.frombuffer(bytearray(_MT_PACK.pack(words[-1], *words[:-1])), dtype=np.uint32)


def mt_restore(rng: random.Random, state: np.ndarray) -> None:
    """Leave ``rng`` where the compiled code's draws from ``state`` (:func:`mt_state`) left it:
    nothing to do where ``state`` is ``rng``'s own memory."""
    if isinstance(getattr(state.base, "obj", None), _MT_WORDS_AT):
        return
    words = _MT_PACK.unpack_from(state.data)
    # the version and the Gaussian draw kept as ``getstate`` gives them, without building its tuple
    rng.setstate((3, (*words[1:], words[0]), vars(rng).get("gauss_next")))


_MASK64 = (1 << 64) - 1


def pcg_state(gen: np.random.Generator, jumps: int = 0) -> np.ndarray:
    """A PCG64 generator's state as ``uint64`` words: state high, low, increment high, low; then,
    for ``k`` = 1 .. ``jumps``, the multiplier and the addend (high, low each) that move the
    state ``k`` draws on at once (:func:`pcg_ahead`; listing them compiles the stream functions)."""
    inner = gen.bit_generator.state["state"]
    return pcg_words(inner["state"], inner["inc"], jumps)


def pcg_seed(rng: random.Random) -> tuple[int, int]:
    """A PCG64 state and (odd) increment drawn from ``rng`` in one draw: what
    :func:`pcg_generator` and :func:`pcg_words` start a stream from. Cheaper than numpy's
    seeding by a ``SeedSequence`` (which a search starting from a fresh ``rng`` paid each time)."""
    bits = rng.getrandbits(256)
    return bits & ((1 << 128) - 1), (bits >> 128) | 1


def pcg_generator(seed: tuple[int, int]) -> np.random.Generator:
    """A numpy PCG64 generator at the state and increment of ``seed`` (:func:`pcg_seed`)."""
    bits = np.random.PCG64(0)
    bits.state = {"bit_generator": "PCG64", "state": {"state": seed[0], "inc": seed[1]}, "has_uint32": 0,
                  "uinteger": 0}
    return np.random.Generator(bits)


def pcg_words(state: int, inc: int, jumps: int = 0) -> np.ndarray:
    """A PCG64 stream at ``state`` with increment ``inc`` as :func:`pcg_state` gives a generator's:
    ``uint64`` words, state high, low, increment high, low, then ``jumps`` jumps."""
    words = np.zeros(4 + 4 * jumps, dtype=np.uint64)
    words[:4] = (state >> 64, state & _MASK64, inc >> 64, inc & _MASK64)
    if jumps:
        compiled().pcg_jumps(words)
    return words


def mt_next(state: Any) -> Any:
    """The next 32-bit word of the Mersenne Twister in ``state`` (genrand_uint32)."""
    i = state[0]
    if i >= _N:
        upper = np.uint32(0x80000000)
        lower = np.uint32(0x7FFFFFFF)
        matrix = np.uint32(0x9908B0DF)
        for k in range(_N):
            y = (state[k + 1] & upper) | (state[(k + 1) % _N + 1] & lower)
            v = state[(k + _M) % _N + 1] ^ (y >> np.uint32(1))
            if y & np.uint32(1):
                v ^= matrix
            state[k + 1] = v
        i = 0
    y = state[i + 1]
    state[0] = i + 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


def mt_random(state: Any) -> float:
    """``random.Random.random()``: a double in [0, 1) from two words."""
    a = mt_next(state) >> np.uint32(5)
    b = mt_next(state) >> np.uint32(6)
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def mt_below(state: Any, n: int) -> int:
    """``random.Random._randbelow(n)`` for ``0 < n < 2**32``: what ``choice`` of ``n`` items picks."""
    k = 0
    while (1 << k) <= n:
        k += 1
    shift = np.uint32(32 - k)
    r = int(mt_next(state) >> shift)
    while r >= n:
        r = int(mt_next(state) >> shift)
    return r


def chance_uniform(key: Any, index: Any) -> Any:
    """:func:`plunder.core.chance.uniform_keyed` of a ``uint64`` key (:func:`~plunder.core.chance.seed_key`)
    and a chance event's index: in compiled code on scalars, and in numpy on arrays of keys and
    indices (broadcast together). Products wrap at 64 bits as the pure function's ``& _MASK`` does."""
    z = key + (np.uint64(index) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def _mul_high(a: Any, b: Any) -> Any:
    """The high 64 bits of the 128-bit product of two 64-bit words."""
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = a & mask, a >> s32
    b_lo, b_hi = b & mask, b >> s32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> s32) + (hi_lo & mask) + lo_hi
    return hi_hi + (hi_lo >> s32) + (cross >> s32)


def _pcg_output(hi: Any, lo: Any) -> float:
    """The double a PCG64 state gives (XSL-RR, then 53 bits)."""
    x = hi ^ lo
    rot = hi >> np.uint64(58)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return float(out >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def _pcg_move(words: Any, mul_hi: Any, mul_lo: Any, add_hi: Any, add_lo: Any) -> None:
    """state = state * mul + add, modulo 2**128."""
    s_hi, s_lo = words[0], words[1]
    hi = _mul_high(s_lo, mul_lo) + s_hi * mul_lo + s_lo * mul_hi
    lo = s_lo * mul_lo
    new_lo = lo + add_lo
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    words[0] = hi + add_hi + carry
    words[1] = new_lo


def pcg_jumps(words: Any) -> None:
    """Fill the jumps after the first four words: jump ``k`` multiplies by the multiplier to the
    ``k``-th power and adds the increment times the sum of its lower powers."""
    mul_hi = np.uint64(0x2360ED051FC65DA4)
    mul_lo = np.uint64(0x4385DF649FCCF645)
    for k in range(1, (words.shape[0] - 4) // 4 + 1):
        row = 4 * k
        if k == 1:
            words[row], words[row + 1], words[row + 2], words[row + 3] = mul_hi, mul_lo, words[2], words[3]
            continue
        prev = row - 4
        # (A, C) -> (A * M, C * M + inc): the state's step applied to the previous jump's terms
        a_hi, a_lo, c_hi, c_lo = words[prev], words[prev + 1], words[prev + 2], words[prev + 3]
        words[row] = _mul_high(a_lo, mul_lo) + a_hi * mul_lo + a_lo * mul_hi
        words[row + 1] = a_lo * mul_lo
        lo = c_lo * mul_lo
        new_lo = lo + words[3]
        carry = np.uint64(1) if new_lo < lo else np.uint64(0)
        words[row + 2] = _mul_high(c_lo, mul_lo) + c_hi * mul_lo + c_lo * mul_hi + words[2] + carry
        words[row + 3] = new_lo


def pcg_random(words: Any) -> float:
    """``numpy.random.Generator(PCG64).random()``: step the 128-bit LCG, output XSL-RR, keep 53 bits."""
    _pcg_move(words, np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645), words[2], words[3])
    return _pcg_output(words[0], words[1])


def pcg_skip(words: Any, k: int) -> None:
    """Move the state ``k`` draws on, by the jumps :func:`pcg_state` listed (as many as it takes)."""
    jumps = (words.shape[0] - 4) // 4
    while k > 0:
        j = min(k, jumps)
        row = 4 * j
        _pcg_move(words, words[row], words[row + 1], words[row + 2], words[row + 3])
        k -= j


def pcg_ahead(words: Any, k: int) -> float:
    """The ``k``-th next draw (``k`` >= 1), the ``k - 1`` before it skipped: one jump instead of
    ``k`` steps when ``k`` is within the listed jumps."""
    pcg_skip(words, k)
    return _pcg_output(words[0], words[1])


#: numba's options for a function that allocates nothing: compiled without its reference
#: counting, so an array the function takes (out of a tuple, or as an argument) costs no atomic
#: operations -- most of a late Pillage simulation before (docs/ai.md, "The compiled tree")
UNCOUNTED: dict[str, Any] = {"_nrt": False}

#: numba's options for such a function that its callers take in whole (numba inlines it where
#: it compiles them): numba hands arrays to a call by value, seven to nine words each, so a
#: call taking a game's tables (Pillage's hold 28 arrays) cost some 25 ns before it did
#: anything, several times a simulation (docs/ai.md, "The compiled tree")
INLINED: dict[str, Any] = {"inline": "always", **UNCOUNTED}

_compiled: SimpleNamespace | None = None


def compiled() -> SimpleNamespace:
    """The stream functions compiled (or loaded from numba's cache), by name: ``mt_next``,
    ``mt_random``, ``mt_below``, ``chance_uniform``, ``pcg_random``, ``pcg_skip``, ``pcg_ahead``. Raises ImportError
    without numba."""
    global _compiled
    if _compiled is None:
        import numba

        jit = numba.njit(cache=True, nogil=True, **UNCOUNTED)
        inline = numba.njit(cache=True, nogil=True, **INLINED)
        # each calls the others by global name, which numba resolves when it compiles: bind
        # the names to the compiled functions first. The Mersenne Twister's draws are taken in
        # whole by their callers (the tree draws at every expansion); PCG64's are not: taken
        # into Pillage's greedy playouts, which draw at every step, they made ``hard``'s
        # searches 3% slower (docs/ai.md, "The compiled tree")
        names = ("mt_next", "mt_random", "mt_below", "_mul_high", "_pcg_output", "_pcg_move", "pcg_random", "pcg_skip",
                 "pcg_ahead", "pcg_jumps")
        done = {name: (inline if name.startswith("mt_") else jit)(globals()[name]) for name in names}
        globals().update(done)
        # called by no other function here, and kept as Python under its name for numpy's arrays
        done["chance_uniform"] = jit(chance_uniform)
        _compiled = SimpleNamespace(**done)
    return _compiled
