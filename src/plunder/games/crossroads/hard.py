"""The ``hard`` level of Crossroads: a builder that knows when to stop, a trader that keeps the bigger share.

The personalities (:mod:`.agents`) play every round alike and accept any offer that gives
them 1 gold. ``hard`` builds and rolls as they do, but differs where they leave gold on
the table:

* **the end** -- the game ends after the round in which someone holds ``target`` gold
  (CR-6), so a city bought shortly before the end never pays back its 10 gold. ``hard``
  estimates the rounds left from everyone's present pace (:func:`rounds_left`: expected
  activation gold on the board as it stands, plus trade gold and fees so far, all public)
  and builds only what pays back ``payback`` times its cost before then;
* **the bigger share** -- a trade makes 3 gold, 2 for the proposer of a 2/1 offer and 1 for
  its partner (CR-7). ``hard`` proposes 2/1 to everyone (the poorest partner first, since
  the gold it hands over matters least there; through relays with a fee of 0, which a
  relay that wants more raises out of its share, CR-12), but as a partner it refuses
  every offer: a refused proposer gains nothing, and its city stays free for one of its own
  2/1 offers. Refusing costs it little: a refusal is no unfair offer, so no grudger turns
  on it (the state's ``grudge`` records offers only), and the others still accept its
  2/1 offers;
* **the finish** -- it neither offers, accepts nor carries (as a relay) a trade that
  brings a rival within ``guard`` gold of the target and of its own gold, since that
  rival may win at the end of this round.

Every figure it reads is public (the board, the gold, the trade history in the state):
it keeps no memory of its own and sees nothing a seat could not see (PF-9). A decision
costs well under a millisecond.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from ...core.params import Param, parse_int, parse_real
from .actions import Accept, City, CrossroadsAction, Done, Offer, Pass, Reject, Road
from .agents import PhaseAgent, build_move
from .board import CELLS, CITY0, Board, activation_pay, network, owner
from .rules import CITY_COST, PARTNER, PROPOSER, ROAD_COST, TRADE_GOLD, CrossroadsState

#: a road is bought for the city it opens: what such a city adds per roll, about 5 for itself
#: and 3 for each of three free neighbours, over 25 rolls (:func:`expected_pay`)
ROAD_CITY_PER_ROLL = 14 / 25


def expected_pay(board: Board, players: int) -> list[float]:
    """Each seat's expected activation gold per roll on ``board`` (CR-1, CR-2).

    The 25 ordered label pairs are equally likely (the roller's choice aside) and each
    activates four cells, so every cell is activated once in 25 rolls on average.
    """
    return list(_expected_pay(board, players))


@lru_cache(maxsize=4096)
def _expected_pay(board: Board, players: int) -> tuple[float, ...]:
    """:func:`expected_pay`, kept per board: a build's worth asks it of the same boards again
    and again (every later move of a turn, every playout of a search from one position)."""
    return tuple(g / 25 for g in activation_pay(board, network(board), range(CELLS), players))


def rounds_left(state: CrossroadsState, pay: list[float] | None = None) -> int:
    """Rounds likely to be played after this one, at everyone's present pace (CR-6).

    A player's pace is its expected activation gold per round on the present board plus
    its trade gold and fees per round so far; the game ends after the round in which the
    first of them reaches the target at that pace. 0: this round is likely the last.
    ``pay`` is :func:`expected_pay` of the present board, when the caller has it already.
    """
    target = state.game.values["target"]
    played = max(1, state.round - 1)
    pay = expected_pay(state.board, state.n) if pay is None else pay
    best = math.inf
    for i in range(state.n):
        pace = state.n * pay[i] + (state.trade_gold[i] + state.fees[i]) / played
        if pace > 0:
            best = min(best, max(0.0, (target - state.gold[i]) / pace))
    return max(0, math.ceil(best) - 1) if best < math.inf else state.game.values["max_rounds"] - state.round


class HardTrader(PhaseAgent):
    """Greedy building that stops when a build cannot pay back; 2/1 offers, no acceptances (module docstring)."""

    def __init__(self, name: str, payback: float = 0.7, guard: int = 6) -> None:
        self.name = name
        self.payback = payback
        self.guard = guard

    # ----------------------------------------------------------------- building (CR-4)
    def _worth(self, state: CrossroadsState, action: CrossroadsAction) -> bool:
        """Whether a build pays back ``payback`` times its cost before the game is likely over."""
        # rolls after this turn: the rest of this round's turns, then whole rounds
        pay = expected_pay(state.board, state.n)
        rolls = rounds_left(state, pay) * state.n + (state.n - 1 - state.seat)
        if isinstance(action, City):
            me = state.seat
            board = state.board[:action.cell] + (CITY0 + me,) + state.board[action.cell + 1:]
            per_roll = expected_pay(board, state.n)[me] - pay[me]
            return per_roll * rolls >= self.payback * CITY_COST
        if isinstance(action, Road):
            return ROAD_CITY_PER_ROLL * rolls >= self.payback * (CITY_COST + ROAD_COST)
        return True

    def _build(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        move = build_move(state, rng)
        return move if self._worth(state, move) else Done()

    # ----------------------------------------------------------------- trading (CR-7, CR-11, CR-12)
    def _helps_rival(self, state: CrossroadsState, offer: Offer) -> bool:
        """Whether the trade brings a rival that gains by it within ``guard`` gold of both the
        target and my gold, so that it may win at the end of this round (CR-6)."""
        me = state.current_player
        after = list(state.gold)
        after[owner(state.board[offer.a])] += offer.mine
        after[owner(state.board[offer.b])] += offer.theirs
        for r, f in zip(offer.relays, offer.fees):
            after[owner(state.board[r])] += f
        near = state.game.values["target"] - self.guard
        return any(i != me and after[i] > state.gold[i] and after[i] >= near and after[i] + self.guard >= after[me]
                   for i in range(state.n))

    def _propose(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        """A 2/1 offer, fewest relays first (fee 0 each), then the poorest partner; else pass."""
        me, n = state.seat, state.n
        best: tuple[tuple[float, ...], Offer] | None = None
        for a, b, relays in state.trade_pairs(me):
            partner = owner(state.board[b])
            parties = [partner] + [owner(state.board[r]) for r in relays]
            # refused this phase, or wronged once by me (a grudger would refuse): no use asking
            if any((me, p) in state.refusals or state.grudge[p * n + me] for p in parties):
                continue
            offer = Offer(a, b, relays, (0,) * len(relays), TRADE_GOLD - 1, 1)
            if self._helps_rival(state, offer):
                continue
            key = (-len(relays), -state.gold[partner], rng.random())
            if best is None or key > best[0]:
                best = (key, offer)
        return Pass() if best is None else best[1]

    def _answer(self, state: CrossroadsState) -> CrossroadsAction:
        """Refuse as a partner; as the proposer keep a changed offer while it leaves me 1 (CR-12);
        as a relay carry any trade that does not bring a rival to the win."""
        offer = state.offer
        assert offer is not None
        slot = state.waiting[0]
        if slot == PARTNER or self._helps_rival(state, offer):
            return Reject()
        if slot == PROPOSER:
            return Accept() if offer.mine >= 1 else Reject()
        return Accept()


def make_hard(game: Game, options: AgentOptions) -> HardTrader:
    """``crossroads-hard`` from its checked options."""
    return HardTrader("crossroads-hard", payback=options["payback"], guard=options["guard"])


#: ``crossroads-hard``: the ``hard`` level of Crossroads
HARD = AgentFactory(make_hard, "greedy building that stops when a build cannot pay back before the end; "
                               "offers 2/1, refuses others' offers, never helps a rival to the win", (
    Param("payback", "0.7", parse_real(0), "a build must return this many times its cost before the likely end (CR-6)"),
    Param("guard", "6", parse_int(0), "gold short of the target (and of its own) at which a rival is kept from trades"),
))
