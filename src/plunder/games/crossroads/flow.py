"""How a Crossroads position moves on: the work each action does (rulings CR-1..CR-15).

:func:`apply` is :meth:`.rules.CrossroadsState._apply`: it takes a position and a legal
action (``illegal_reason`` has checked it) and returns the next position. The functions
follow the rule text (seed 004) as the rules do: Set Up (CR-5), A Round (CR-6, CR-13),
Rolling (CR-1, CR-9), activation (CR-2), Building (CR-4) and Trading (CR-7, CR-11, CR-12).
What is legal stays in :mod:`.rules`.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING, Sequence, assert_never

from .actions import Accept, Axis, City, CrossroadsAction, Demand, Done, Offer, Pass, Place, Reject, Reroll, Road, Roll
from .board import CITY0, ROAD, activated, activation_pay, owner

if TYPE_CHECKING:
    from .rules import CrossroadsState


class Phase(Enum):
    """Where a game stands; the value is how messages and the terminal name it."""

    SETUP_ROLL = "setup roll"
    SETUP_PLACE = "setup placement"
    ROLL = "roll"
    AXIS = "axis choice"
    BUILD = "building"
    TRADE = "trading"
    RESPOND = "answering"
    OVER = "over"


CITY_COST = 10
ROAD_COST = 3
#: Response slots of a pending offer: the proposer, the partner; relays are 0, 1, ...
PROPOSER, PARTNER = -2, -1


def apply(state: CrossroadsState, action: CrossroadsAction) -> CrossroadsState:
    """The position after ``action``, which ``illegal_reason`` has let through."""
    match action:
        case Roll(lo, hi):
            return _after_roll(state, lo, hi)
        case Reroll():
            return state.evolve(rerolls=state.rerolls + 1)
        case Place(cell):
            return _place(state, cell)
        case Axis(col, row):
            return _activate(state, col, row)
        case City(cell):
            return _build(state, cell, CITY0 + state.seat, CITY_COST)
        case Road(cell):
            return _build(state, cell, ROAD, ROAD_COST)
        case Done():
            return _done(state)
        case Pass():
            return _pass(state)
        case Offer():
            return _propose(state, action)
        case Accept():
            return _accept(state)
        case Reject():
            return _reject(state)
        case Demand(fee):
            return _demand(state, fee)
        case _:
            assert_never(action)


# ----------------------------------------------------------------- Set Up (CR-5)
def _place(state: CrossroadsState, where: int) -> CrossroadsState:
    board = _put(state.board, where, CITY0 + state.seat)
    if state.seat + 1 == state.n:
        return state.evolve(board=board, phase=Phase.ROLL, seat=0, round=1)
    return state.evolve(board=board, phase=Phase.SETUP_ROLL, seat=state.seat + 1)


# ----------------------------------------------------------------- A Round (CR-6, CR-13)
def _done(state: CrossroadsState) -> CrossroadsState:
    # Building ends only when the builder says so (CR-14); after the last seat, trading.
    if state.seat + 1 < state.n:
        return state.evolve(phase=Phase.ROLL, seat=state.seat + 1)
    return state.evolve(phase=Phase.TRADE, seat=0, passes=0, offers=(0,) * state.n, used=frozenset(),
                        refusals=frozenset())


def _pass(state: CrossroadsState) -> CrossroadsState:
    if state.passes + 1 >= state.n:
        return _end_round(state)
    return state.evolve(passes=state.passes + 1, seat=(state.seat + 1) % state.n)


def _end_round(state: CrossroadsState) -> CrossroadsState:
    """The win check after trading (CR-6), and the round cap (CR-13)."""
    top = max(state.gold)
    leaders = tuple(i for i, g in enumerate(state.gold) if g == top)
    over = (top >= state.game.values["target"] and len(leaders) == 1) or state.round >= state.game.values["max_rounds"]
    if over:
        return state.evolve(phase=Phase.OVER, passes=0, winners=leaders)
    return state.evolve(phase=Phase.ROLL, passes=0, seat=0, round=state.round + 1, used=frozenset(), lit=(), dice=())


# ----------------------------------------------------------------- Rolling (CR-1, CR-9)
def _after_roll(state: CrossroadsState, lo: int, hi: int) -> CrossroadsState:
    if state.phase is Phase.SETUP_ROLL:
        return state.evolve(phase=Phase.SETUP_PLACE, dice=(lo, hi), lit=())
    if lo == hi:
        # Doubles: the axes cannot be told apart, so activation happens at once (CR-1, CR-14).
        return _activate(state.evolve(dice=(lo, hi), rerolls=0), lo, lo)
    return state.evolve(phase=Phase.AXIS, dice=(lo, hi), rerolls=0, lit=())


# ----------------------------------------------------------------- activation (CR-2)
def _activate(state: CrossroadsState, col: int, row: int) -> CrossroadsState:
    """Pay the four activated cells (CR-2) and open the roller's building (CR-14)."""
    cells = activated(col, row)
    pay = activation_pay(state.board, state.net, cells, state.n)
    return state.evolve(phase=Phase.BUILD, gold=_plus(state.gold, pay), lit=cells)


# ----------------------------------------------------------------- Building (CR-4)
def _build(state: CrossroadsState, where: int, value: int, cost: int) -> CrossroadsState:
    built = state.evolve(board=_put(state.board, where, value), gold=_add(state.gold, state.seat, -cost))
    if value == ROAD:
        return built.evolve(roads=_add(state.roads, state.seat, 1))
    return built


# ----------------------------------------------------------------- Trading (CR-7, CR-11, CR-12)
def _propose(state: CrossroadsState, offer: Offer) -> CrossroadsState:
    me, pb, n = state.seat, owner(state.board[offer.b]), state.n
    fair = 1 if offer.theirs >= 1 else -1
    return state.evolve(
        phase=Phase.RESPOND,
        offer=offer,
        waiting=(PARTNER, *range(len(offer.relays))),
        offers=_add(state.offers, me, 1),
        last=_put(state.last, pb * n + me, fair),
        grudge=_put(state.grudge, pb * n + me, 1) if fair < 0 else state.grudge,
    )


def _accept(state: CrossroadsState) -> CrossroadsState:
    assert state.offer is not None
    slot, rest = state.waiting[0], state.waiting[1:]
    now = state
    if slot == PARTNER:
        proposer, partner = state.slot_owner(PROPOSER), state.slot_owner(PARTNER)
        now = state.evolve(last=_put(state.last, proposer * state.n + partner, 1))
    if rest:
        return now.evolve(waiting=rest)
    return _execute(now)


def _execute(state: CrossroadsState) -> CrossroadsState:
    """Every named party accepted: the offer binds (CR-7)."""
    offer = state.offer
    assert offer is not None
    pa, pb = trade_parties(state)
    shares = [0] * state.n
    shares[pa] += offer.mine
    shares[pb] += offer.theirs
    fees = [0] * state.n
    for r, f in zip(offer.relays, offer.fees):
        fees[owner(state.board[r])] += f
    return state.evolve(
        phase=Phase.TRADE,
        seat=(pa + 1) % state.n,
        passes=0,
        offer=None,
        waiting=(),
        used=state.used | {offer.a, offer.b},
        gold=_plus(_plus(state.gold, shares), fees),
        trade_gold=_plus(state.trade_gold, shares),
        fees=_plus(state.fees, fees),
    )


def _reject(state: CrossroadsState) -> CrossroadsState:
    assert state.offer is not None
    slot = state.waiting[0]
    rejecter, proposer = state.slot_owner(slot), state.slot_owner(PROPOSER)
    last = state.last
    if slot == PARTNER and state.offer.theirs >= 1:
        # Turning down a fair offer is the partner's defection; refusing nothing is not.
        last = _put(last, proposer * state.n + rejecter, -1)
    refused = refuser(state)
    return state.evolve(
        phase=Phase.TRADE,
        seat=(proposer + 1) % state.n,
        passes=0,
        offer=None,
        waiting=(),
        last=last,
        refusals=state.refusals | {refused} if refused is not None else state.refusals,
    )


def trade_parties(state: CrossroadsState) -> tuple[int, int]:
    """The seats of the pending offer's proposer and partner."""
    assert state.offer is not None
    return owner(state.board[state.offer.a]), owner(state.board[state.offer.b])


def refuser(state: CrossroadsState) -> tuple[int, int] | None:
    """(proposer, refuser) if a reject now refuses the pending offer; ``None`` when the proposer
    withdraws changed terms, which is no refusal by another player (CR-11)."""
    rejecter, proposer = state.slot_owner(state.waiting[0]), state.slot_owner(PROPOSER)
    return (proposer, rejecter) if rejecter != proposer else None


def _demand(state: CrossroadsState, fee: int) -> CrossroadsState:
    offer = state.offer
    assert offer is not None
    slot = state.waiting[0]
    extra = fee - offer.fees[slot]
    # The raise comes out of the proposer's share first, then the partner's (CR-12).
    take = min(extra, offer.mine)
    raised = replace(offer, fees=_put(offer.fees, slot, fee), mine=offer.mine - take,
                     theirs=offer.theirs - (extra - take))
    again = (PROPOSER, PARTNER, *(i for i in range(len(offer.relays)) if i != slot))
    return state.evolve(offer=raised, waiting=again)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return values[:index] + (values[index] + amount,) + values[index + 1:]


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


def _plus(values: tuple[int, ...], more: Sequence[int]) -> tuple[int, ...]:
    return tuple(v + m for v, m in zip(values, more))
