"""The bounded transposition table of the Pillage solver's static search.

An entry is a search result for one position: lower and upper bounds on its future margin
and the best line found, packed into one non-negative int by :class:`Packing` (its fields
are as wide as the bounds of one valuation need). :class:`ArrayTable` keeps entries in two
``array('Q')`` columns, 16 bytes an entry, where a dict costs about ten times that: keys
are ints (the canonical drawn mask, tagged with the valuation), so open addressing needs no
Python objects per entry.

Replacement: a key has two slots, ``key % size`` and the next; the size is a prime, since
canonical masks (the least image under the symmetries) share their low bits far more
often than chance would. A new key takes a free slot of the two, else the one whose entry
has fewer undrawn lines (less work to search again). The table starts small and doubles when
it is a quarter full, the last step up to its limit; after that a new entry overwrites an
old one. A lost entry only costs
time: every entry is a bound, and the search is exact without it.
"""

from __future__ import annotations

from array import array

import numpy as np

#: bytes one entry costs in :class:`ArrayTable`: two 8-byte columns
SLOT_BYTES = 16
#: slots a table starts with
_FIRST_SIZE = 1 << 16
#: rows rehashed at a time while a table grows (bounds the temporary numpy arrays)
_CHUNK = 1 << 20


class Packing:
    """Packs (lo, hi, move) of one valuation into an int that is never 0 (0 means absent).

    ``bound`` is the largest |value| a position can have (the sum of |worth| of all
    boxes): lo and hi are stored offset by it, in ``width`` bits each; the move (an edge
    index, or -1 for none) is stored plus one in the low 16 bits.
    """

    __slots__ = ("bound", "width", "shift_lo", "mask")

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.width = (2 * bound + 1).bit_length()
        self.shift_lo = 16 + self.width
        self.mask = (1 << self.width) - 1

    @property
    def bits(self) -> int:
        """Bits a packed entry needs."""
        return 16 + 2 * self.width

    def pack(self, lo: int, hi: int, move: int) -> int:
        """The packed entry."""
        return (lo + self.bound) << self.shift_lo | (hi + self.bound) << 16 | (move + 1)

    def unpack(self, entry: int) -> tuple[int, int, int]:
        """(lo, hi, move) of a packed entry."""
        return ((entry >> self.shift_lo) - self.bound, ((entry >> 16) & self.mask) - self.bound,
                (entry & 0xFFFF) - 1)


class ArrayTable:
    """Int keys below 2**64 to packed entries below 2**64, in at most ``budget`` bytes.

    ``work_mask`` selects the key bits that are drawn lines: the replacement rule keeps the
    entry with fewer of them set. The peak, while the table doubles, is the old and the new
    columns together, so the largest table is two thirds of the budget.
    """

    __slots__ = ("keys", "vals", "size", "limit", "filled", "work_mask", "grown")

    def __init__(self, budget: float, work_mask: int) -> None:
        #: the most slots it may have (a prime)
        self.limit = _prime_below(max(3, int(budget * 2 / 3) // SLOT_BYTES))
        self.size = _prime_below(min(_FIRST_SIZE, self.limit))
        self.keys = array("Q", [0]) * (self.size + 1)
        self.vals = array("Q", [0]) * (self.size + 1)
        #: slots in use (an estimate once the table is full: overwrites are not counted)
        self.filled = 0
        self.work_mask = work_mask
        #: how often the table doubled
        self.grown = 0

    def __len__(self) -> int:
        return self.filled

    def get(self, key: int, default: int = 0) -> int:
        """The packed entry of ``key``, or ``default``."""
        i = key % self.size
        keys = self.keys
        if keys[i] == key:
            return self.vals[i] or default
        i += 1
        if keys[i] == key:
            return self.vals[i] or default
        return default

    def put(self, key: int, entry: int) -> None:
        """Store ``entry`` (packed, not 0) under ``key``, replacing as the module says."""
        keys, vals = self.keys, self.vals
        i = key % self.size
        if keys[i] != key and vals[i]:
            j = i + 1
            if keys[j] == key or not vals[j]:
                i = j
            elif (keys[i] & self.work_mask).bit_count() < (keys[j] & self.work_mask).bit_count():
                # both taken by other keys: the entry with fewer undrawn lines goes
                i = j
        if not vals[i]:
            self.filled += 1
            if self.filled * 4 > self.size and self.size < self.limit:
                vals[i] = entry
                keys[i] = key
                self._grow()
                return
        keys[i] = key
        vals[i] = entry

    def _grow(self) -> None:
        """Double the table, or grow it to its limit if that is nearer, rehashing with numpy
        a chunk at a time (keys that meet in one slot keep one of them: a lost entry only
        costs time)."""
        size = _prime_below(min(self.size * 2, self.limit))
        keys = array("Q", [0]) * (size + 1)
        vals = array("Q", [0]) * (size + 1)
        new_k = np.frombuffer(keys, dtype=np.uint64)
        new_v = np.frombuffer(vals, dtype=np.uint64)
        old_k = np.frombuffer(self.keys, dtype=np.uint64)
        old_v = np.frombuffer(self.vals, dtype=np.uint64)
        filled = 0
        for start in range(0, len(old_v), _CHUNK):
            v = old_v[start:start + _CHUNK]
            used = v != 0
            k = old_k[start:start + _CHUNK][used]
            v = v[used]
            home = (k % np.uint64(size)).astype(np.intp)
            for step in (0, 1):
                # one key per free slot; the others try their second slot, then are lost
                slots = home + step
                free = new_v[slots] == 0
                slots, k, v, home = slots[free], k[free], v[free], home[free]
                taken, first = np.unique(slots, return_index=True)
                new_k[taken] = k[first]
                new_v[taken] = v[first]
                filled += len(taken)
                left = np.ones(len(k), dtype=bool)
                left[first] = False
                k, v, home = k[left], v[left], home[left]
        del new_k, new_v, old_k, old_v
        self.keys, self.vals, self.size, self.filled = keys, vals, size, filled
        self.grown += 1


class DictTable(dict[int, int]):
    """Keys of any size to packed entries: the table of a frame of more than 64 lines, whose
    keys do not fit :class:`ArrayTable`. It is a dict, so the solver's budget trims it with
    its other dict tables (each keeps its newest entries)."""

    def put(self, key: int, entry: int) -> None:
        """Store ``entry`` under ``key``."""
        self[key] = entry


def _prime_below(n: int) -> int:
    """The largest prime at most ``n`` (n >= 2), by trial division (n is a table size)."""
    for p in range(n, 1, -1):
        if p % 2 or p == 2:
            if all(p % d for d in range(3, int(p ** 0.5) + 1, 2)):
                return p
    return 2
