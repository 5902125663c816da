"""Many Profiteer games stepped by one compiled call: ``GameEntry.learning.batched``
(:mod:`plunder.core.batched`), which the vector environment uses.

Each copy's position is a row of one ``int64`` array: the fields of :class:`.rules.ProfiteerState`
(card sets as 52-bit masks) and the index of the copy's next chance event. One numba call
starts games, and one applies every copy's action index (:mod:`.observation`'s table: keep,
end, the switches of side A and B by rank, the gifts by rank), draws the cards chance deals
until the profiteer decides again or the game is over, and writes rewards, flags,
observations and masks, exactly as :class:`.rules.ProfiteerState`, :mod:`plunder.interop.episode`
and :mod:`.observation` would (``tests/games/profiteer/test_batched.py``).

Chance event ``k`` of a copy is drawn as :func:`plunder.core.chance.draw` draws it: the
uniform number of the episode seed and ``k`` (:func:`plunder.core.compiled_random.chance_uniform`),
times the total of the outcomes' weights (:func:`.flow.deck_weights`, known cards first, then
the pool's, lowest card first), bisected in their cumulative sums added left to right, as
:func:`plunder.core.chance.pick` sums and bisects them. The transitions are those of
:class:`.flow.WorkingState`, split into the internal steps of the numpy batch (:mod:`.batch`),
each a short function on one copy's row.

Profiteer is a solitaire: there is no opponent, so every opponent spec gets the batch.
Without numba, or with ``PLUNDER_PURE=1`` (:data:`plunder.core.compiled.PURE_ENV`), there is
no batch and the vector env steps single envs.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ...core.chance import seed_key
from ...core.compiled import built_once
from ...core import compiled_random
from ...core.compiled_random import chance_uniform
from ...core.game import Game
from .batch import CARRY_ON, COUNT, FINISH_REDRAW, FINISH_SETUP, NEXT_FLIP, RESOLVE, START_WAR
from .cards import FULL_DECK, lowest as _lowest  # compiled as it is: int operations only
from .flow import Ending, Phase
from .observation import observation
from .rules import ProfiteerGame

# A copy's row: the position's fields (``OWED``: a face-down card is owed); a side's field of B follows its field of A.
(PHASE, POOL, UNSEEN, UNSEEN_B, KNOWN, KNOWN_B, DISCARD, DISCARD_B, RESOURCES, PDISCARD, DRAWING, FACE, FACE_B,
 STAKE, STAKE_B, WAR_ROUND, OWED, OWED_B, ROUND, RESHUFFLED, BALANCING, ENDING, EVENT) = range(23)
#: places in a copy's row
FIELDS = 23
#: the card sets of the observation's bit planes, in its order
PILES = (POOL, KNOWN, KNOWN_B, DISCARD, DISCARD_B, RESOURCES, PDISCARD, DRAWING, STAKE, STAKE_B)
#: the fields of the observation's last eight places, in its order
COUNTS = (UNSEEN, UNSEEN_B, WAR_ROUND, ROUND, OWED, OWED_B, RESHUFFLED, BALANCING)
#: the action table (:mod:`.observation`): keep, end, 13 switches of side A, 13 of B, 13 gifts
KEEP, END, SWITCH_A, GIFT, ACTIONS = 0, 1, 2, 28, 41
# the phases, as ints for the compiled code
SETUP, UP_A, UP_B, SWITCH, DOWN_A, DOWN_B, BALANCE, REDRAW, OVER = (int(p) for p in Phase)
EMPTY, ROUNDS, UNEQUAL, DECLINED = int(Ending.EMPTY), int(Ending.ROUNDS), int(Ending.UNEQUAL), int(Ending.DECLINED)
#: the observation's parts: 10 piles of 52, two face-up cards of 52, the phase one-hot, 8 counts and flags
FACES = 10 * 52
PHASES = FACES + 2 * 52
TAIL = PHASES + len(Phase)
SIZE = TAIL + len(COUNTS)


class _Kernels(NamedTuple):
    """The compiled start and step."""

    start: Callable[..., None]
    step: Callable[..., None]


def batched(game: Game[Any], seat: int, opponent: str, copies: int) -> "BatchedProfiteer | None":
    """``ENTRY.learning.batched``: a batch of ``copies`` games of ``game`` (the one seat's; a
    solitaire has no opponent, so any ``opponent`` is played); ``None`` without numba."""
    if not isinstance(game, ProfiteerGame):
        return None
    kernels = _compiled()
    if kernels is None:
        return None
    return BatchedProfiteer(game, copies, kernels)


def _build() -> _Kernels:
    """Compile the start and step (or load them from numba's cache)."""
    import numba

    jit = numba.njit(cache=True, nogil=True)
    # the kernels call these by their global names, which numba resolves when it compiles
    names = globals()
    names["chance_uniform"] = compiled_random.compiled().chance_uniform
    for name in ("_count", "_nth", "_lowest", "_bit_length", "_of_rank", "_deck", "_finish", "_after_switch",
                 "_after_ups", "_draw", "_drawn", "_settle", "_advance", "_legal", "_act", "_write"):
        names[name] = jit(names[name])
    return _Kernels(jit(_start), jit(_step))


#: the compiled start and step, ``None`` without numba or with ``PLUNDER_PURE`` set
_compiled = built_once(_build)


class BatchedProfiteer:
    """The positions of ``copies`` Profiteer games as rows of one array, and their compiled
    start and step (:class:`plunder.core.batched.BatchedSteps`)."""

    def __init__(self, game: ProfiteerGame, copies: int, kernels: _Kernels) -> None:
        size = observation(game).size
        if size != SIZE:  # the kernels write the observation's parts at fixed places
            raise ValueError(f"profiteer's observation has {size} places, the batch writes {SIZE}")
        self.game, self.kernels = game, kernels
        self.rules = (game.hand, game.give_back, game.war_switch, game.max_rounds, game.target)
        self.positions = np.zeros((copies, FIELDS), dtype=np.int64)
        #: each copy's :func:`plunder.core.chance.seed_key` of its episode seed
        self.keys = np.zeros(copies, dtype=np.uint64)
        self.started = np.zeros(copies, dtype=np.bool_)

    def start(self, copies: np.ndarray, seeds: Sequence[int], observations: np.ndarray, masks: np.ndarray) -> None:
        """New games on ``copies`` with episode seeds ``seeds``: chance event ``k`` of each drawn
        from its seed, the first hand and flips dealt until the profiteer decides, and each
        copy's observation and mask (:meth:`plunder.core.batched.BatchedSteps.start`)."""
        copies = np.asarray(copies, dtype=np.int64)
        self.keys[copies] = np.array([seed_key(seed) for seed in seeds], dtype=np.uint64)
        self.started[copies] = True
        self.kernels.start(copies, self.positions, self.keys, *self.rules, observations, masks)

    def step(self, actions: np.ndarray, active: np.ndarray, observations: np.ndarray, masks: np.ndarray,
             rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray) -> None:
        """One compiled call: every active copy's action, the cards chance deals after it, and
        the copy's reward, flags, observation and mask (:meth:`plunder.core.batched.BatchedSteps.step`)."""
        active = np.asarray(active, dtype=np.bool_)
        if not self.started[active].all():
            raise ValueError("a copy was stepped before its first game started: call reset first")
        self.kernels.step(np.asarray(actions, dtype=np.int64), active, self.positions, self.keys, *self.rules,
                          observations, masks, rewards, ended, illegal)


# ---------------------------------------------------------------- compiled (numba) functions
# Written for numba, run as Python only if called directly; ``s`` is one copy's row of int64.

def _count(m: int) -> int:
    """Cards in a set."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _bit_length(m: int) -> int:
    """``int.bit_length``."""
    n = 0
    while m:
        m >>= 1
        n += 1
    return n


def _nth(m: int, k: int) -> int:
    """The ``k``-th card (from 0, lowest first) of a set (:func:`.cards.nth_card`)."""
    for _ in range(k):
        m &= m - 1
    return _bit_length(m & -m) - 1


def _of_rank(m: int, r: int) -> int:
    """The card of rank ``r`` in a set with the lowest suit, or -1 (:func:`.cards.lowest_of_rank`)."""
    nibble = (m >> (4 * r)) & 15
    return 4 * r + _bit_length(nibble & -nibble) - 1 if nibble else -1


def _deck(s: Any, side: int) -> int:
    """Cards in ``side``'s deck."""
    return s[UNSEEN + side] + _count(s[KNOWN + side])


def _finish(s: Any, why: int) -> None:
    """The game ends for reason ``why`` (:meth:`.flow.WorkingState.finish`)."""
    s[PHASE] = OVER
    s[ENDING] = why
    s[BALANCING] = 0


def _after_switch(s: Any) -> None:
    """Draw owed face-down cards (PF-15), then resolve the flip (:meth:`.flow.WorkingState.after_switch`)."""
    if s[OWED]:
        s[PHASE] = DOWN_A
    elif s[OWED_B]:
        s[PHASE] = DOWN_B
    else:
        s[PHASE] = RESOLVE


def _after_ups(s: Any, war_switch: bool) -> None:
    """Offer a switch when one is possible and allowed, else go on (PF-3, PF-13)."""
    s[PHASE] = SWITCH
    if s[WAR_ROUND] and not war_switch:
        _after_switch(s)
        return
    top = (_bit_length(s[RESOURCES]) - 1) >> 2 if s[RESOURCES] else -1
    if top <= min(s[FACE] >> 2, s[FACE_B] >> 2):
        _after_switch(s)


def _draw(s: Any, key: Any) -> int:
    """The card chance event ``s[EVENT]`` draws from the pile of this phase (PF-9), as
    :func:`plunder.core.chance.draw` draws it; the event counted."""
    phase = s[PHASE]
    unseen = 0
    pool = 0
    if phase == SETUP:
        known = s[POOL]
    elif phase == REDRAW:
        known = s[PDISCARD]
    else:
        side = 0 if phase == UP_A or phase == DOWN_A else 1
        known = s[KNOWN + side]
        unseen = s[UNSEEN + side]
        if unseen:
            pool = s[POOL]
    k = _count(known)
    p = _count(pool)
    # :func:`.flow.deck_weights`: a known card 1/n, a pool card unseen/(n*pool)
    n = k + unseen
    weight_known = 1.0 / n
    weight_pool = unseen / (n * p) if unseen else 0.0
    total = 0.0
    for _ in range(k):
        total += weight_known
    for _ in range(p):
        total += weight_pool
    x = chance_uniform(key, s[EVENT]) * total
    s[EVENT] += 1
    # bisect(cumulative, x, 0, len - 1): the cumulative sums before the last that are <= x
    i = 0
    cumulative = 0.0
    while i < k + p - 1:
        cumulative += weight_known if i < k else weight_pool
        if cumulative > x:
            break
        i += 1
    return _nth(known, i) if i < k else _nth(pool, i - k)


def _drawn(s: Any, card: int, hand: int, war_switch: bool) -> None:
    """What a drawn card does (:meth:`.flow.WorkingState.draw`)."""
    phase = s[PHASE]
    b = 1 << card
    if phase == SETUP or phase == REDRAW:
        source = POOL if phase == SETUP else PDISCARD
        s[source] &= ~b
        s[DRAWING] |= b
        if _count(s[DRAWING]) == hand:
            s[PHASE] = FINISH_SETUP if phase == SETUP else FINISH_REDRAW
        return
    side = 0 if phase == UP_A or phase == DOWN_A else 1
    if s[KNOWN + side] & b:
        s[KNOWN + side] ^= b
    else:
        s[POOL] ^= b
        s[UNSEEN + side] -= 1
    if phase == UP_A or phase == UP_B:
        s[FACE + side] = card
        s[STAKE + side] |= b
        if side == 0:
            s[PHASE] = UP_B
        else:
            _after_ups(s, war_switch)
        return
    # PF-4: every face-down war card goes to the profiteer, whoever wins the war
    s[PDISCARD] |= b
    s[OWED + side] = 0
    _after_switch(s)


def _settle(s: Any, hand: int, give_back: int, max_rounds: int) -> None:
    """One internal step (:mod:`.batch`'s, :class:`.flow.WorkingState`'s methods of the same names)."""
    phase = s[PHASE]
    if phase == RESOLVE:
        # higher card takes the face-up cards; a tie starts a war round (PF-4)
        rank_a = s[FACE] >> 2
        rank_b = s[FACE_B] >> 2
        if rank_a == rank_b:
            s[PHASE] = START_WAR
            return
        s[DISCARD if rank_a > rank_b else DISCARD_B] |= s[STAKE] | s[STAKE_B]
        s[PHASE] = NEXT_FLIP
    elif phase == START_WAR:
        s[WAR_ROUND] += 1
        # PF-5: a side short of two cards makes both shuffle their discards in; the pass ends after this war
        if _deck(s, 0) < 2 or _deck(s, 1) < 2:
            s[RESHUFFLED] = 1
            s[KNOWN] |= s[DISCARD]
            s[KNOWN_B] |= s[DISCARD_B]
            s[DISCARD] = 0
            s[DISCARD_B] = 0
        a = _deck(s, 0)
        b = _deck(s, 1)
        s[PHASE] = NEXT_FLIP
        if a == 0 and b == 0:  # PF-12: each takes back its own face-up cards
            s[DISCARD] |= s[STAKE]
            s[DISCARD_B] |= s[STAKE_B]
        elif a == 0 or b == 0:  # PF-5: a side with no card left loses the war
            s[DISCARD_B if a == 0 else DISCARD] |= s[STAKE] | s[STAKE_B]
        else:  # PF-5: a side with one card plays it face up, with no face-down card
            s[OWED] = 1 if a >= 2 else 0
            s[OWED_B] = 1 if b >= 2 else 0
            s[FACE] = -1
            s[FACE_B] = -1
            s[PHASE] = UP_A
    elif phase == NEXT_FLIP:
        s[FACE] = -1
        s[FACE_B] = -1
        s[STAKE] = 0
        s[STAKE_B] = 0
        s[WAR_ROUND] = 0
        s[OWED] = 0
        s[OWED_B] = 0
        # PF-5: a war that needed a reshuffle ends the pass; PF-10: else an empty deck does
        if s[RESHUFFLED] or _deck(s, 0) == 0 or _deck(s, 1) == 0:
            s[RESHUFFLED] = 0
            s[PHASE] = COUNT
        else:
            s[PHASE] = UP_A
    elif phase == COUNT:
        pile_a = _deck(s, 0) + _count(s[DISCARD])
        pile_b = _deck(s, 1) + _count(s[DISCARD_B])
        if pile_a == 0 or pile_b == 0:
            _finish(s, EMPTY)
        elif s[ROUND] >= max_rounds:
            _finish(s, ROUNDS)
        elif pile_a == pile_b:
            s[PHASE] = CARRY_ON
        elif _count(s[RESOURCES]) >= abs(pile_a - pile_b):
            s[PHASE] = BALANCE
            s[BALANCING] = 0
        else:
            _finish(s, UNEQUAL)
    elif phase == CARRY_ON:
        # PF-7: piles become decks, the profiteer redraws
        s[BALANCING] = 0
        s[KNOWN] |= s[DISCARD]
        s[KNOWN_B] |= s[DISCARD_B]
        s[DISCARD] = 0
        s[DISCARD_B] = 0
        s[PDISCARD] |= s[RESOURCES]
        s[RESOURCES] = 0
        if _count(s[PDISCARD]) <= hand:
            s[DRAWING] = s[PDISCARD]
            s[PDISCARD] = 0
            s[PHASE] = FINISH_REDRAW
        else:
            s[PHASE] = REDRAW
    elif phase == FINISH_SETUP:
        # PF-2: keep the best of the first hand, shuffle the rest back, split the deck
        back = _lowest(s[DRAWING], give_back)
        s[RESOURCES] = s[DRAWING] & ~back
        s[POOL] |= back
        s[DRAWING] = 0
        s[UNSEEN] = _count(s[POOL]) // 2
        s[UNSEEN_B] = s[UNSEEN]
        s[ROUND] = 1
        s[PHASE] = NEXT_FLIP
    else:  # FINISH_REDRAW: keep the best of the new hand, the lowest back (PF-7, PF-11)
        back = _lowest(s[DRAWING], min(give_back, _count(s[DRAWING])))
        s[RESOURCES] = s[DRAWING] & ~back
        s[PDISCARD] |= back
        s[DRAWING] = 0
        s[ROUND] += 1
        s[PHASE] = NEXT_FLIP


def _advance(s: Any, key: Any, hand: int, give_back: int, war_switch: bool, max_rounds: int) -> None:
    """Chance's draws and the work between them until the profiteer decides or the game is over
    (what :class:`plunder.interop.episode.Episode` does after an action)."""
    while True:
        phase = s[PHASE]
        if phase == SWITCH or phase == BALANCE or phase == OVER:
            return
        if phase < OVER:  # the other phases below OVER draw a card
            _drawn(s, _draw(s, key), hand, war_switch)
        else:
            _settle(s, hand, give_back, max_rounds)


def _legal(s: Any, a: int) -> bool:
    """Whether index ``a`` names a legal action (:meth:`.rules.ProfiteerState.illegal_reason`)."""
    phase = s[PHASE]
    if a == KEEP:
        return phase == SWITCH
    if a == END:
        return phase == BALANCE and not s[BALANCING]
    if SWITCH_A <= a < GIFT:
        side = (a - SWITCH_A) // 13
        r = (a - SWITCH_A) % 13
        return phase == SWITCH and _of_rank(s[RESOURCES], r) >= 0 and r > s[FACE + side] >> 2
    if GIFT <= a < ACTIONS:
        return phase == BALANCE and _of_rank(s[RESOURCES], a - GIFT) >= 0
    return False


def _act(s: Any, a: int) -> None:
    """The profiteer's legal action ``a`` (:meth:`.flow.WorkingState.apply`)."""
    if a == KEEP:
        _after_switch(s)
    elif a == END:
        _finish(s, DECLINED)
    elif a < GIFT:  # PF-3: the resource in place of the side's face-up card, which goes to the profiteer
        side = (a - SWITCH_A) // 13
        card = _of_rank(s[RESOURCES], (a - SWITCH_A) % 13)
        old = s[FACE + side]
        s[FACE + side] = card
        s[STAKE + side] = s[STAKE + side] & ~(1 << old) | (1 << card)
        s[RESOURCES] &= ~(1 << card)
        s[PDISCARD] |= 1 << old
        _after_switch(s)
    else:  # PF-6: a gift to the smaller side; go on once the piles are equal
        card = _of_rank(s[RESOURCES], a - GIFT)
        s[RESOURCES] &= ~(1 << card)
        pile_a = _deck(s, 0) + _count(s[DISCARD])
        pile_b = _deck(s, 1) + _count(s[DISCARD_B])
        if pile_a < pile_b:
            s[DISCARD] |= 1 << card
            pile_a += 1
        else:
            s[DISCARD_B] |= 1 << card
            pile_b += 1
        s[BALANCING] = 1
        if pile_a == pile_b:
            s[PHASE] = CARRY_ON


def _write(s: Any, row: Any, mask: Any) -> None:
    """A copy's observation and mask, as :mod:`.observation` and the action space write them."""
    for j in range(len(PILES)):
        m = s[PILES[j]]
        base = 52 * j
        for c in range(52):
            row[base + c] = (m >> c) & 1
    for c in range(FACES, PHASES):
        row[c] = 0.0
    if 0 <= s[FACE] < 52:
        row[FACES + s[FACE]] = 1.0
    if 0 <= s[FACE_B] < 52:
        row[FACES + 52 + s[FACE_B]] = 1.0
    for p in range(TAIL - PHASES):
        row[PHASES + p] = 1.0 if p == s[PHASE] else 0.0
    for t in range(len(COUNTS)):
        row[TAIL + t] = s[COUNTS[t]]
    for a in range(ACTIONS):
        mask[a] = 1 if _legal(s, a) else 0


def _step(actions: Any, active: Any, positions: Any, keys: Any, hand: int, give_back: int, war_switch: bool,
          max_rounds: int, target: int, observations: Any, masks: Any, rewards: Any, ended: Any, illegal: Any) -> None:
    """The batch's step (:meth:`BatchedProfiteer.step`): each active copy's action, then chance
    until the profiteer decides again or the game is over (PF-3 to PF-8)."""
    for i in range(actions.shape[0]):
        if not active[i]:
            continue
        s = positions[i]
        a = actions[i]
        if not _legal(s, a):  # the single env: IllegalActionError ends the episode with -1, nothing played
            rewards[i] = -1.0
            ended[i] = True
            illegal[i] = True
            continue
        _act(s, a)
        _advance(s, keys[i], hand, give_back, war_switch, max_rounds)
        illegal[i] = False
        if s[PHASE] == OVER:
            # PF-8: the profiteer wins with ``target`` cards at least
            ended[i] = True
            rewards[i] = 1.0 if _count(s[PDISCARD] | s[RESOURCES] | s[DRAWING]) >= target else -1.0
        else:
            ended[i] = False
            rewards[i] = 0.0
        _write(s, observations[i], masks[i])


def _start(copies: Any, positions: Any, keys: Any, hand: int, give_back: int, war_switch: bool, max_rounds: int,
           target: int, observations: Any, masks: Any) -> None:
    """New games on ``copies`` (:meth:`BatchedProfiteer.start`): the shuffled deck (PF-2), chance
    until the profiteer first decides, and the copy's observation and mask."""
    for j in range(copies.shape[0]):
        i = copies[j]
        s = positions[i]
        s[:] = 0
        s[PHASE] = SETUP
        s[POOL] = FULL_DECK
        s[FACE] = -1
        s[FACE_B] = -1
        _advance(s, keys[i], hand, give_back, war_switch, max_rounds)
        _write(s, observations[i], masks[i])
