"""Many Profiteer games at once with the greedy agents: numpy arrays, one slot per game.

Every field of :class:`.flow.WorkingState` becomes an array (card sets as ``uint64``
bitmasks), and each step moves every unfinished game by one action: the cards chance draws,
the greedy choices (:class:`.agents.GreedyAgent`, any weights), and the work :mod:`.flow`
does in between, split into short steps so that games in different phases advance together.
Chance is drawn as :func:`plunder.core.chance.pick` draws it -- the same uniform number of the
same event index, the same cumulative weights summed in the same order, the same bisection --
and the agent's scores are computed with the same float operations in the same order, so each
game ends exactly as :func:`plunder.play` ends it (``tests/games/profiteer/test_batch.py``
checks hundreds of seeds). When only a few long games are left, the array steps would cost
more than they do, so those games are handed to the one-game fast path (:mod:`.fast`) at the
position and chance event they reached.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from ...core import chance
from ...core.agent import Agent
from ...core.compiled_random import chance_uniform
from ...core.game import Game
from ...core.capabilities import FastResult
from .agents import GreedyAgent
from .fast import finish
from .flow import TALLIES, Ending, Phase
from .rules import ProfiteerGame, ProfiteerState
from .stats import final_stats

U64 = np.uint64
I64 = np.int64
Masks = NDArray[np.uint64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

# Internal steps between the phases a position can rest in: the work one action sets off
# (text steps 3-9) is split where it branches, so every game waiting for the same step is
# moved by one set of array operations.
RESOLVE, START_WAR, NEXT_FLIP, COUNT, CARRY_ON, FINISH_SETUP, FINISH_REDRAW = range(9, 16)
_STEPS = (RESOLVE, START_WAR, NEXT_FLIP, COUNT, CARRY_ON, FINISH_SETUP, FINISH_REDRAW)
_DRAWS = (Phase.SETUP, Phase.UP_A, Phase.UP_B, Phase.DOWN_A, Phase.DOWN_B, Phase.REDRAW)
_IS_DRAW = np.zeros(16, dtype=bool)
_IS_DRAW[list(_DRAWS)] = True
_IS_STEP = np.zeros(16, dtype=bool)
_IS_STEP[list(_STEPS)] = True

#: at this many unfinished games (or this share of the batch) a batch hands them to the one-game
#: fast path: each array step then costs more than playing those games one by one
#: (``bench/lab_speed.py`` measures the batch sizes)
HAND_OVER = 128
HAND_OVER_SHARE = 1 / 32

_SHIFTS = np.arange(52, dtype=U64)
_RANK_SHIFTS = np.arange(0, 52, 4, dtype=U64)
_ONE = U64(1)


@cache
def cumulative_table() -> NDArray[np.float64]:
    """``[known, unseen, pool, j]``: the ``j``-th cumulative chance weight of a deck of that make-up.

    Built with the weights of :func:`.flow.deck_weights` (a known card ``1/n``, a pool card
    ``unseen/(n*pool)``) and summed left to right as :func:`itertools.accumulate` sums them in
    :func:`plunder.core.chance.pick`, so every entry is the very float the public path bisects.
    Entries past a deck's last card repeat its total. Decks without unseen cards use ``pool=0``.
    """
    k = np.arange(53, dtype=I64)[:, None, None, None]
    u = np.arange(27, dtype=I64)[None, :, None, None]
    p = np.arange(53, dtype=I64)[None, None, :, None]
    j = np.arange(52, dtype=I64)[None, None, None, :]
    n = np.maximum(k + u, 1)
    known = np.float64(1.0) / n.astype(np.float64)
    pooled = np.where(u > 0, u.astype(np.float64) / np.maximum(n * p, 1).astype(np.float64), 0.0)
    weights = np.where(j < k, known, np.where(j < k + p, pooled, 0.0))
    # ufunc.accumulate adds strictly left to right (unlike sum's pairwise reduction)
    return np.add.accumulate(np.broadcast_to(weights, (53, 27, 53, 52)), axis=-1)


def popcount(mask: Masks) -> Ints:
    """Cards in each set."""
    return np.bitwise_count(mask).astype(I64)


def bit(card: Ints) -> Masks:
    """The one-card set of each card (``card >= 0``)."""
    return _ONE << card.astype(U64)


def nth_card(mask: Masks, i: Ints) -> Ints:
    """The ``i``-th card (from 0, lowest first) of each set, as :func:`.cards.nth_card`."""
    counts = np.cumsum((mask[:, None] >> _SHIFTS) & _ONE, axis=1)
    return np.argmax(counts > i[:, None].astype(U64), axis=1).astype(I64)


def lowest_card(mask: Masks) -> Ints:
    """The lowest card of each non-empty set (its lowest rank, lowest suit: PF-1, PF-11)."""
    return popcount((mask & (~mask + _ONE)) - _ONE)


def lowest(mask: Masks, n: Ints) -> Masks:
    """The ``n`` lowest cards of each set, as :func:`.cards.lowest`."""
    out = np.zeros_like(mask)
    rest = mask.copy()
    for t in range(int(n.max(initial=0))):
        low = rest & (~rest + _ONE)
        take = t < n
        out = np.where(take, out | low, out)
        rest = np.where(take, rest ^ low, rest)
    return out


def rank_held(mask: Masks) -> Bools:
    """``[game, rank]``: does the set hold a card of that rank."""
    return ((mask[:, None] >> _RANK_SHIFTS) & U64(15)) != 0


_RANK_BITS = 1 << np.arange(13, dtype=I64)


def _first(held: Ints, above: Ints, below: Ints | int) -> Ints:
    """The lowest rank of each rank set strictly between ``above`` and ``below``, or -1."""
    between = held & ~((2 << above) - 1) & ((1 << below) - 1)
    return np.where(between != 0, np.bitwise_count((between & -between) - 1).astype(I64), -1)


def _exactly(held: Ints, rank: Ints, above: Ints) -> Ints:
    """``rank`` where the set holds it and it is above ``above``, else -1."""
    return np.where(((held >> rank) & 1).astype(bool) & (rank > above), rank, -1)


class Batch:
    """The positions of many games of one :class:`.rules.ProfiteerGame` as arrays, one slot per game."""

    def __init__(self, game: ProfiteerGame, seeds: Sequence[int]) -> None:
        n = len(seeds)
        self.game = game
        self.key = np.array([chance.seed_key(s) for s in seeds], dtype=U64)
        self.event = np.zeros(n, dtype=I64)
        self.phase = np.full(n, int(Phase.SETUP), dtype=I64)
        for name in ("known_a", "known_b", "discard_a", "discard_b", "resources", "profiteer_discard",
                     "drawing", "stake_a", "stake_b"):
            setattr(self, name, np.zeros(n, dtype=U64))
        self.pool = np.full(n, (1 << 52) - 1, dtype=U64)
        for name in ("unseen_a", "unseen_b", "war_round", "round", "ending", "flips", "wars", "war_rounds",
                     "switches", "war_cards", "gifts", "reshuffles"):
            setattr(self, name, np.zeros(n, dtype=I64))
        self.face_up_a = np.full(n, -1, dtype=I64)
        self.face_up_b = np.full(n, -1, dtype=I64)
        for name in ("down_due_a", "down_due_b", "war_reshuffled", "balancing"):
            setattr(self, name, np.zeros(n, dtype=bool))

    # The arrays, declared for the type checker (set in __init__ by name).
    known_a: Masks
    known_b: Masks
    discard_a: Masks
    discard_b: Masks
    resources: Masks
    profiteer_discard: Masks
    drawing: Masks
    stake_a: Masks
    stake_b: Masks
    unseen_a: Ints
    unseen_b: Ints
    war_round: Ints
    round: Ints
    ending: Ints
    flips: Ints
    wars: Ints
    war_rounds: Ints
    switches: Ints
    war_cards: Ints
    gifts: Ints
    reshuffles: Ints
    down_due_a: Bools
    down_due_b: Bools
    war_reshuffled: Bools
    balancing: Bools

    def where(self, phase: int) -> Ints:
        """The games at ``phase``."""
        return np.flatnonzero(self.phase == phase)

    def deck_a(self, g: Ints) -> Ints:
        """Cards in side A's deck of games ``g``."""
        return self.unseen_a[g] + popcount(self.known_a[g])

    def deck_b(self, g: Ints) -> Ints:
        """Cards in side B's deck of games ``g``."""
        return self.unseen_b[g] + popcount(self.known_b[g])

    def piles(self, g: Ints) -> tuple[Ints, Ints]:
        """Each side's cards off the table (deck and discard, PF-10)."""
        return (self.deck_a(g) + popcount(self.discard_a[g]), self.deck_b(g) + popcount(self.discard_b[g]))

    # -- chance (PF-9)
    def draw(self) -> None:
        """Every game at a chance phase draws its card and moves on."""
        g = np.flatnonzero(_IS_DRAW[self.phase])
        if not len(g):
            return
        phase = self.phase[g]
        side_a = (phase == Phase.UP_A) | (phase == Phase.DOWN_A)
        side_b = (phase == Phase.UP_B) | (phase == Phase.DOWN_B)
        known = np.where(side_a, self.known_a[g], np.where(side_b, self.known_b[g], np.where(
            phase == Phase.SETUP, self.pool[g], self.profiteer_discard[g])))
        unseen = np.where(side_a, self.unseen_a[g], np.where(side_b, self.unseen_b[g], 0))
        pool = np.where(unseen > 0, self.pool[g], U64(0))
        k, p = popcount(known), popcount(pool)
        rows = cumulative_table()[k, unseen, p]
        last = k + p - 1
        x = chance_uniform(self.key[g], self.event[g]) * rows[np.arange(len(g)), last]
        # bisect(cum, x, 0, len(cum) - 1): the entries before the last that are <= x
        i = ((rows <= x[:, None]) & (np.arange(52) < last[:, None])).sum(axis=1)
        self.event[g] += 1
        from_known = i < k
        card = nth_card(np.where(from_known, known, pool), np.where(from_known, i, i - k))
        self._drawn(g, phase, card, from_known)

    def _drawn(self, g: Ints, phase: Ints, card: Ints, from_known: Bools) -> None:
        """What each drawn card does (:meth:`.flow.WorkingState.draw`)."""
        b = bit(card)
        for up, down, known, unseen, face_up, stake, due in (
                (Phase.UP_A, Phase.DOWN_A, self.known_a, self.unseen_a, self.face_up_a, self.stake_a,
                 self.down_due_a),
                (Phase.UP_B, Phase.DOWN_B, self.known_b, self.unseen_b, self.face_up_b, self.stake_b,
                 self.down_due_b)):
            side = (phase == up) | (phase == down)
            s, bs, fk = g[side], b[side], from_known[side]
            known[s] = np.where(fk, known[s] ^ bs, known[s])
            self.pool[s] = np.where(fk, self.pool[s], self.pool[s] ^ bs)
            unseen[s] -= ~fk
            is_up = phase[side] == up
            u, d = s[is_up], s[~is_up]
            face_up[u] = card[side][is_up]
            stake[u] |= bs[is_up]
            # a face-down war card goes to the profiteer, whoever wins the war (PF-4)
            self.profiteer_discard[d] |= bs[~is_up]
            self.war_cards[d] += 1
            due[d] = False
        self.phase[g[phase == Phase.UP_A]] = Phase.UP_B
        self._after_ups(g[phase == Phase.UP_B])
        self._after_switch(g[(phase == Phase.DOWN_A) | (phase == Phase.DOWN_B)])
        hand = self.game.hand
        for source, done in ((Phase.SETUP, FINISH_SETUP), (Phase.REDRAW, FINISH_REDRAW)):
            h = phase == source
            s, bs = g[h], b[h]
            if source == Phase.SETUP:
                self.pool[s] &= ~bs
            else:
                self.profiteer_discard[s] &= ~bs
            self.drawing[s] |= bs
            self.phase[s[popcount(self.drawing[s]) == hand]] = done

    # -- a flip and its war (PF-3, PF-4, PF-5)
    def _after_ups(self, g: Ints) -> None:
        """Offer a switch when one is possible and allowed, else go on (PF-3, PF-13)."""
        held = rank_held(self.resources[g])
        top = np.where(held.any(axis=1), 12 - np.argmax(held[:, ::-1], axis=1), -1)
        lower = np.minimum(self.face_up_a[g] >> 2, self.face_up_b[g] >> 2)
        skip = top <= lower
        if not self.game.war_switch:
            skip |= self.war_round[g] > 0
        self.phase[g] = Phase.SWITCH
        self._after_switch(g[skip])

    def _after_switch(self, g: Ints) -> None:
        """Draw owed face-down cards (PF-15), then resolve the flip."""
        self.phase[g] = np.where(self.down_due_a[g], int(Phase.DOWN_A),
                                 np.where(self.down_due_b[g], int(Phase.DOWN_B), RESOLVE))

    def choose_switch(self, weights: tuple[float, float, float, float]) -> None:
        """Every game at a flip's switch takes :class:`.agents.GreedyAgent`'s choice."""
        g = self.where(Phase.SWITCH)
        if not len(g):
            return
        war, level_w, spend, late = weights
        a, b = self.deck_a(g), self.deck_b(g)
        left = np.minimum(a, b)
        # the same float operations, in the same order, as GreedyAgent._context and _score
        level = level_w * (1.0 + late / (1.0 + left.astype(np.float64)))
        pile_a, pile_b = a + popcount(self.discard_a[g]), b + popcount(self.discard_b[g])
        lead = pile_a - pile_b
        stake = popcount(self.stake_a[g] | self.stake_b[g])

        # what a choice is worth depends only on which side ends higher, or on a tie (_score)
        swing = stake + 2
        tie = war - level * 0.5 * (np.abs(lead + swing) + np.abs(lead - swing)).astype(np.float64)
        a_higher = -level * np.abs(lead + stake).astype(np.float64)
        b_higher = -level * np.abs(lead + -stake).astype(np.float64)
        ra, rb = self.face_up_a[g] >> 2, self.face_up_b[g] >> 2
        best = np.where(ra == rb, tie, np.where(ra > rb, a_higher, b_higher))
        best_side = np.full(len(g), -1, dtype=I64)
        best_rank = np.zeros(len(g), dtype=I64)
        held = (rank_held(self.resources[g]) * _RANK_BITS).sum(axis=1)
        top = np.maximum(ra, rb)
        # The agent scans ProfiteerState.switches_possible in order (side A's by rank, then B's)
        # and takes a switch only if it beats the best so far by 1e-12. Switches of one side
        # that end alike are worth the same, so only the first of each can be taken: these
        # six, in the scan's order.
        for side, rank, value in (
                (0, _first(held, ra, rb), b_higher), (0, _exactly(held, rb, ra), tie), (0, _first(held, top, 13), a_higher),
                (1, _first(held, rb, ra), a_higher), (1, _exactly(held, ra, rb), tie), (1, _first(held, top, 13), b_higher)):
            v = value - spend
            better = (rank >= 0) & (v > best + 1e-12)
            best = np.where(better, v, best)
            best_side = np.where(better, side, best_side)
            best_rank = np.where(better, rank, best_rank)
        for side, face_up, stake_of in ((0, self.face_up_a, self.stake_a), (1, self.face_up_b, self.stake_b)):
            chosen = best_side == side
            s, r = g[chosen], best_rank[chosen]
            # the resource of that rank with the lowest suit (PF-1)
            nibble = (self.resources[s] >> (4 * r).astype(U64)) & U64(15)
            card = 4 * r + lowest_card(nibble)
            old = face_up[s]
            face_up[s] = card
            stake_of[s] = stake_of[s] & ~bit(old) | bit(card)
            self.resources[s] &= ~bit(card)
            self.profiteer_discard[s] |= bit(old)
            self.switches[s] += 1
        self._after_switch(g)

    def resolve(self) -> None:
        """Higher card takes the face-up cards; a tie starts a war round (PF-4)."""
        g = self.where(RESOLVE)
        ra, rb = self.face_up_a[g] >> 2, self.face_up_b[g] >> 2
        plain = self.war_round[g] == 0
        self.flips[g] += plain
        tie = ra == rb
        self.wars[g] += tie & plain
        self.phase[g[tie]] = START_WAR
        stake = self.stake_a[g] | self.stake_b[g]
        win_a, win_b = ~tie & (ra > rb), ~tie & (ra < rb)
        self.discard_a[g[win_a]] |= stake[win_a]
        self.discard_b[g[win_b]] |= stake[win_b]
        self.phase[g[~tie]] = NEXT_FLIP

    def start_war(self) -> None:
        """Begin a war round, dealing with short sides (PF-5, PF-12)."""
        g = self.where(START_WAR)
        self.war_round[g] += 1
        self.war_rounds[g] += 1
        # PF-5: a side short of two cards makes both sides shuffle their discards in, and the
        # pass ends once this war is resolved
        short = g[(self.deck_a(g) < 2) | (self.deck_b(g) < 2)]
        self.war_reshuffled[short] = True
        self.reshuffles[short] += (self.discard_a[short] | self.discard_b[short]) != 0
        self.known_a[short] |= self.discard_a[short]
        self.known_b[short] |= self.discard_b[short]
        self.discard_a[short] = 0
        self.discard_b[short] = 0
        a, b = self.deck_a(g), self.deck_b(g)
        # PF-12: neither side can go on; each takes back its own face-up cards
        none = g[(a == 0) & (b == 0)]
        self.discard_a[none] |= self.stake_a[none]
        self.discard_b[none] |= self.stake_b[none]
        # PF-5: a side with no card left loses the war
        for empty, winner in ((a == 0) & (b > 0), self.discard_b), ((b == 0) & (a > 0), self.discard_a):
            s = g[empty]
            winner[s] |= self.stake_a[s] | self.stake_b[s]
        over = (a == 0) | (b == 0)
        self.phase[g[over]] = NEXT_FLIP
        # PF-5: a side with one card plays it face up, with no face-down card
        on = ~over
        s = g[on]
        self.down_due_a[s] = a[on] >= 2
        self.down_due_b[s] = b[on] >= 2
        self.face_up_a[s] = -1
        self.face_up_b[s] = -1
        self.phase[s] = Phase.UP_A

    def next_flip(self) -> None:
        """Clear the table and flip again, or count (PF-5, PF-10)."""
        g = self.where(NEXT_FLIP)
        self.face_up_a[g] = -1
        self.face_up_b[g] = -1
        self.stake_a[g] = 0
        self.stake_b[g] = 0
        self.war_round[g] = 0
        self.down_due_a[g] = False
        self.down_due_b[g] = False
        end = self.war_reshuffled[g] | (self.deck_a(g) == 0) | (self.deck_b(g) == 0)
        self.war_reshuffled[g[end]] = False
        self.phase[g] = np.where(end, COUNT, int(Phase.UP_A))

    # -- the end of a pass (PF-6, PF-7, PF-8, PF-14)
    def count(self) -> None:
        """Compare the sides' piles at the end of a pass (PF-6, PF-8)."""
        g = self.where(COUNT)
        pile_a, pile_b = self.piles(g)
        empty = (pile_a == 0) | (pile_b == 0)
        rounds = ~empty & (self.round[g] >= self.game.max_rounds)
        going = ~empty & ~rounds
        equal = going & (pile_a == pile_b)
        payable = going & ~equal & (popcount(self.resources[g]) >= np.abs(pile_a - pile_b))
        unequal = going & ~equal & ~payable
        self._finish(g[empty], Ending.EMPTY)
        self._finish(g[rounds], Ending.ROUNDS)
        self._finish(g[unequal], Ending.UNEQUAL)
        self.phase[g[equal]] = CARRY_ON
        self.phase[g[payable]] = Phase.BALANCE
        self.balancing[g[payable]] = False

    def choose_balance(self, target: int) -> None:
        """Every game at the count takes :func:`.agents.balance_choice`: end, or give the lowest card."""
        g = self.where(Phase.BALANCE)
        if not len(g):
            return
        pile_a, pile_b = self.piles(g)
        need = np.abs(pile_a - pile_b)
        total = popcount(self.profiteer_discard[g] | self.resources[g] | self.drawing[g])
        end = ~self.balancing[g] & (total >= target) & (target > total - need)
        self._finish(g[end], Ending.DECLINED)
        give = ~end
        s, pile_a, pile_b = g[give], pile_a[give], pile_b[give]
        b = bit(lowest_card(self.resources[s]))
        self.resources[s] &= ~b
        to_a = pile_a < pile_b
        self.discard_a[s[to_a]] |= b[to_a]
        self.discard_b[s[~to_a]] |= b[~to_a]
        self.gifts[s] += 1
        self.balancing[s] = True
        # one card moved from the larger gap's side: equal once the difference was one
        self.phase[s[np.abs(pile_a - pile_b) == 1]] = CARRY_ON

    def carry_on(self) -> None:
        """Start the next pass: piles become decks, the profiteer redraws (PF-7)."""
        g = self.where(CARRY_ON)
        self.balancing[g] = False
        self.known_a[g] |= self.discard_a[g]
        self.known_b[g] |= self.discard_b[g]
        self.discard_a[g] = 0
        self.discard_b[g] = 0
        self.profiteer_discard[g] |= self.resources[g]
        self.resources[g] = 0
        small = popcount(self.profiteer_discard[g]) <= self.game.hand
        s = g[small]
        self.drawing[s] = self.profiteer_discard[s]
        self.profiteer_discard[s] = 0
        self.phase[s] = FINISH_REDRAW
        self.phase[g[~small]] = Phase.REDRAW

    def finish_hands(self) -> None:
        """Keep the best of a hand drawn, the lowest back (PF-2, PF-7, PF-11); flip."""
        give_back = self.game.give_back
        g = self.where(FINISH_SETUP)
        back = lowest(self.drawing[g], np.full(len(g), give_back, dtype=I64))
        self.resources[g] = self.drawing[g] & ~back
        self.pool[g] |= back
        self.drawing[g] = 0
        self.unseen_a[g] = self.unseen_b[g] = popcount(self.pool[g]) // 2
        self.round[g] = 1
        self.phase[g] = NEXT_FLIP
        g = self.where(FINISH_REDRAW)
        back = lowest(self.drawing[g], np.minimum(give_back, popcount(self.drawing[g])))
        self.resources[g] = self.drawing[g] & ~back
        self.profiteer_discard[g] |= back
        self.drawing[g] = 0
        self.round[g] += 1
        self.phase[g] = NEXT_FLIP

    def _finish(self, g: Ints, why: Ending) -> None:
        self.phase[g] = Phase.OVER
        self.ending[g] = why
        self.balancing[g] = False

    def settle(self) -> None:
        """Run the internal steps until every game rests at a draw, a decision or the end."""
        while _IS_STEP[self.phase].any():
            self.resolve()
            self.start_war()
            self.next_flip()
            self.count()
            self.carry_on()
            self.finish_hands()

    def state(self, i: int) -> ProfiteerState:
        """Game ``i``'s position (resting at a draw, a decision or the end) as a :class:`ProfiteerState`."""
        return ProfiteerState(
            self.game, Phase(int(self.phase[i])), int(self.pool[i]), int(self.unseen_a[i]), int(self.unseen_b[i]),
            int(self.known_a[i]), int(self.known_b[i]), int(self.discard_a[i]), int(self.discard_b[i]),
            int(self.resources[i]), int(self.profiteer_discard[i]), int(self.drawing[i]), int(self.face_up_a[i]),
            int(self.face_up_b[i]), int(self.stake_a[i]), int(self.stake_b[i]), int(self.war_round[i]),
            bool(self.down_due_a[i]), bool(self.down_due_b[i]), int(self.round[i]), bool(self.war_reshuffled[i]),
            bool(self.balancing[i]), Ending(int(self.ending[i])))

    def tallies(self, i: int) -> tuple[int, ...]:
        """Game ``i``'s tallies so far, in the order of :data:`.flow.TALLIES`."""
        return tuple(int(getattr(self, name)[i]) for name in TALLIES)


def play_batch(game: ProfiteerGame, agent: GreedyAgent,
               seeds: Sequence[int]) -> list[tuple[ProfiteerState, tuple[int, ...]]]:
    """The final position of the game of each seed, played by ``agent`` (the same as
    :func:`plunder.play`), with the game's tallies (:data:`.flow.TALLIES`)."""
    batch = Batch(game, seeds)
    w = agent.weights
    weights = (w.war, w.level, w.spend, w.late)
    live = np.arange(len(seeds))
    while len(live) > max(HAND_OVER, len(seeds) * HAND_OVER_SHARE):
        batch.draw()
        batch.settle()
        batch.choose_switch(weights)
        batch.settle()
        batch.choose_balance(game.target)
        batch.settle()
        live = live[batch.phase[live] != Phase.OVER]
    finals = [(batch.state(i), batch.tallies(i)) for i in range(len(seeds))]
    rng = random.Random(0)  # the greedy agents decide without chance; the one-game path asks for an rng
    for i in live.tolist():
        finals[i] = finish(finals[i][0], agent, rng, chance.stream(seeds[i], int(batch.event[i])), finals[i][1])
    return finals


def fast_batch(game: Game, agents: Sequence[Agent[ProfiteerState]], seeds: Sequence[int]) -> list[FastResult] | None:
    """Games of ``seeds`` with the one seat's ``agents``: the batch path for the greedy agents, else None."""
    if len(agents) != 1 or type(agents[0]) is not GreedyAgent or not isinstance(game, ProfiteerGame):
        return None
    return [FastResult(returns=s.returns(), scores=s.scores(), stats=final_stats(s, tallies))
            for s, tallies in play_batch(game, agents[0], seeds)]
