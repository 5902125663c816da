"""What an observation for learning is: one ``float32`` vector per state and seat, with a
fixed length per parameter set, and a fixed action space (:mod:`.spaces`). A game offers its
encoding as ``GameEntry.learning.observation`` (written in its ``observation.py``); the RL adapters
(:mod:`plunder.interop`) use whatever it offers. ``docs/interop.md`` lists each game's.

An observation is taken from a seat's point of view: seats are listed from the observer on (the
observer's pieces, then the next seat's ...), so one policy can play any seat. States hold no
secret by design (PF-9: an unseen card is undecided until it is revealed), so an observation of
a state shows no more than its seat may know.

Observers are built for speed (``bench/interop_speed.py``): each part of the vector has a fixed
slice (:class:`Layout`), written in place into one buffer, bit piles are unpacked by numpy
(:func:`bits`), and parts that change seldom are kept from the previous call and updated by what
changed: states are immutable values and a transition keeps the fields it does not change, so an
unchanged field is the very same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable, Sequence

import numpy as np

from .game import Action, Game, State
from .spaces import ActionSpace, TableSpace

#: the bound of a count the rules leave open: the largest
#: ``float32``, so that every observation space is a finite box all the same
NO_RULE_BOUND = float(np.finfo(np.float32).max)

#: ``fill(state, seat, out)``: the vector of ``state`` as ``seat`` sees it, written into ``out``
#: (the vector's length) and returned, or a new array when ``out`` is ``None``
Observer = Callable[[State, int, np.ndarray | None], np.ndarray]


@dataclass(frozen=True)
class Encoding:
    """A game's observation length, its observer and its action space."""

    #: the game with its parameters
    game: Game
    #: length of the observation vector
    size: int
    #: writes the vector of a state as a seat sees it into a buffer (see :meth:`observe`)
    fill: Observer
    #: the fixed action space
    actions: ActionSpace
    #: the game's encoding builder that made it (``encoding(game)``, a module-level function)
    build: "Callable[[Any], Encoding]"
    #: the least and greatest value of each place of the vector (``float32`` arrays of
    #: :attr:`size`), from the game's own bounds: the adapters' observation boxes
    bounds: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False)

    def box(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`bounds`, or every place within :data:`NO_RULE_BOUND` when the game gave none."""
        if self.bounds is not None:
            return self.bounds
        high = np.full(self.size, NO_RULE_BOUND, dtype=np.float32)
        return -high, high

    def __deepcopy__(self, memo: dict) -> "Encoding":
        """The encoding itself: it belongs to its game, and copies of a state (OpenSpiel
        clones states by deep copy) share it; what it keeps from the states it saw gives the
        same vectors whatever order states come in."""
        return self

    def __reduce__(self) -> tuple:
        """Pickled as its game: unpickling builds the game's encoding afresh (an OpenSpiel
        state serializes its attributes by pickle, this among them)."""
        return self.build, (self.game,)

    def observe(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``state`` as ``seat`` sees it, written into ``out`` when given (a
        ``float32`` array of :attr:`size`, overwritten whole) or into a new array."""
        return self.fill(state, seat, out)


class Layout:
    """Hands out consecutive slices of the vector, part by part, each with its bounds."""

    def __init__(self) -> None:
        self.size = 0
        self._low: list[np.ndarray] = []
        self._high: list[np.ndarray] = []

    def take(self, n: int, low: float | Sequence[float] = 0.0, high: float | Sequence[float] = 1.0) -> slice:
        """The next ``n`` places, each between ``low`` and ``high`` (one number for all, or one per place)."""
        part = slice(self.size, self.size + n)
        self.size += n
        self._low.append(np.broadcast_to(np.asarray(low, dtype=np.float32), (n,)))
        self._high.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (n,)))
        return part

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and greatest value of every place taken so far."""
        return np.concatenate([np.zeros(0, np.float32), *self._low]), np.concatenate([np.zeros(0, np.float32), *self._high])


def bits(masks: tuple[int, ...], width: int) -> np.ndarray:
    """The low ``width`` bits of each of ``masks`` (bit 0 first), one row per mask (``uint8``)."""
    nbytes = (width + 7) // 8
    raw = b"".join(m.to_bytes(nbytes, "little") for m in masks)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    return bits.reshape(len(masks), nbytes * 8)[:, :width]


def enum_rows(phases: Any) -> dict[int, list[int]]:
    """The one-hot row of each member of an enum, keyed by the member's ``id``: members are
    singletons, and an ``Enum`` hashes in Python (by name), an ``id`` in C."""
    return {id(phase): one_hot(i, len(phases)) for i, phase in enumerate(phases)}


def one_hot(index: int, size: int) -> list[int]:
    """``size`` zeros with a 1 at ``index`` (none when it is out of range: nothing there)."""
    row = [0] * size
    if 0 <= index < size:
        row[index] = 1
    return row


def copy_into(kept: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``kept`` (a vector kept from call to call) written into ``out``, or a copy of it."""
    if out is None:
        return kept.copy()
    out[:] = kept
    return out


def picker(places: list[int]) -> Callable[[tuple], tuple]:
    """``t -> tuple(t[i] for i in places)``, as one C call."""
    get = itemgetter(*places)
    return get if len(places) > 1 else lambda t: (get(t),)


@dataclass(frozen=True)
class TableObservation:
    """A game's observation from two plain functions, for ``GameEntry.learning.observation``: the
    simplest way to offer one (``docs/new-game.md``). ``observe(state, seat)`` gives the position
    as ``seat`` sees it as numbers, the same count for every position of a parameter set;
    ``action_table(game)`` every action a player can ever be offered, each once, in a fixed
    order (an action's index is its place in the table)."""

    #: the position as a seat sees it, as numbers
    observe: Callable[[Any, int], Sequence[float]]
    #: every action a player can be offered, in a fixed order
    action_table: Callable[[Any], Sequence[Action]]
    #: the least and greatest of ``observe``'s numbers (all of them), when the game knows them
    low: float = -NO_RULE_BOUND
    high: float = NO_RULE_BOUND

    def __call__(self, game: Game) -> Encoding:
        """The encoding of ``game``: ``observe``'s numbers as ``float32`` (their count taken from
        the starting position) and the table as a :class:`~.spaces.TableSpace`."""
        observe = self.observe
        size = len(observe(game.new_initial_state(), 0))

        def fill(state: State, seat: int, out: np.ndarray | None) -> np.ndarray:
            values = observe(state, seat)
            if len(values) != size:
                raise ValueError(f"{game.id}: observe gave {len(values)} numbers at {state.summary()}, "
                                 f"{size} at the start; every position needs the same count")
            if out is None:
                return np.asarray(values, dtype=np.float32)
            out[:] = values
            return out

        bounds = np.full(size, self.low, dtype=np.float32), np.full(size, self.high, dtype=np.float32)
        return Encoding(game, size, fill, TableSpace(list(self.action_table(game))), self, bounds)
