"""Crossroads agents: a greedy builder and four trading personalities.

Every agent here builds the same way (:func:`build_move`: a city when affordable, a road
that opens a city site, a road toward the nearest rival when unconnected) and differs
only in trading, which is where the prisoner's dilemma lives:

* ``greedy`` and ``always-fair`` offer 2/1 (keeping 2), accept any offer giving them 1+
  and let trades through as relays for any fee;
* ``greedy-splitter`` offers 3/0, accepts any offer giving it 1+, and as a relay demands
  a fee of 1 when offered nothing;
* ``tit-for-tat`` opens fair and then mirrors each player's last treatment of it: after
  an unfair offer (or a fair offer turned down) it offers that player 3/0;
* ``grudger`` is fair until a player treats it unfairly once, then never trades with,
  nor relays for, that player again.

"Fair" and "unfair" are read from the public history in the state (``last`` and
``grudge``), so agents keep no memory of their own.
"""

from __future__ import annotations

import random
from typing import Callable

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from .actions import Accept, Axis, City, CrossroadsAction, Demand, Done, Offer, Pass, Place, Reject, Road
from .board import (
    EMPTY,
    activated,
    activation_pay,
    around,
    city_sites,
    manhattan,
    orthogonal,
    owner,
    road_sites,
    touches_city,
)
from .rules import PARTNER, PROPOSER, CrossroadsState, Phase

STYLES = ("fair", "splitter", "tft", "grudger")


def city_value(state: CrossroadsState, c: int) -> float:
    """Gold a city on ``c`` may expect per activation round: 5 for itself, 3 per empty neighbour."""
    return 5 + 3 * sum(1 for n in around(c) if state.board[n] == EMPTY)


def place_move(state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
    """Setup: the activated site with the most free room around it (CR-5)."""
    sites = [a.cell for a in state.legal_actions() if isinstance(a, Place)]
    return Place(max(sites, key=lambda c: (city_value(state, c), rng.random())))


def axis_move(state: CrossroadsState) -> CrossroadsAction:
    """Pick the die-to-axis assignment that pays me most, then the rivals least (CR-1, CR-2)."""
    me = state.seat

    def score(action: Axis) -> tuple[int, int]:
        pay = activation_pay(state.board, state.net, activated(action.col, action.row), state.n)
        return (pay[me], -sum(pay))

    return max((a for a in state.legal_actions() if isinstance(a, Axis)), key=score)


def _foreign_distance(state: CrossroadsState, me: int) -> Callable[[int], int]:
    """Manhattan distance from a cell to the nearest rival asset: a rival city, or a road of a
    network that touches a rival city and none of mine (joining it links the networks)."""
    board, net = state.board, state.net
    foreign = [c for c in net.city_cells if owner(board[c]) != me]
    theirs = {k for k, cities in enumerate(net.cities)
              if cities and all(owner(board[c]) != me for c in cities)}
    foreign += [c for c in range(100) if net.comp[c] in theirs]

    def dist(c: int) -> int:
        return min(map(manhattan(c).__getitem__, foreign), default=99)

    return dist


def _connected(state: CrossroadsState, me: int) -> bool:
    """True when some city of mine has a route to a rival's city."""
    return state.net.linked(me, state.game.values["relays"])


def build_move(state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
    """The greedy builder: invest in income first, connect for trade second (CR-4)."""
    me, board, net = state.seat, state.board, state.net
    gold = state.gold[me]
    roads = road_sites(board, net, me) if gold >= 3 else []
    if roads and not _connected(state, me):
        # Trading needs a road link, and the rival must lay the road beside its own city
        # (CR-4), so head for the rival's roads as much as for its cities.
        dist = _foreign_distance(state, me)
        reach = state.city_cells(me)
        mine = {net.comp[n] for c in reach for n in orthogonal(c) if net.comp[n] >= 0}
        reach = reach + [c for c in range(100) if net.comp[c] in mine]
        now = min(dist(c) for c in reach)
        closer = [r for r in roads if dist(r) < now]
        if closer:
            return Road(min(closer, key=lambda c: (dist(c), rng.random())))
    if gold >= 10:
        sites = city_sites(board, net, me)
        if sites:
            return City(max(sites, key=lambda c: (city_value(state, c), rng.random())))
    if gold >= 13:
        # A road beside an empty, city-free cell opens that cell as a city site.
        best: tuple[float, int] | None = None
        for r in roads:
            for s in orthogonal(r):
                if board[s] == EMPTY and not touches_city(board, s):
                    value = city_value(state, s) - 3 + rng.random()
                    if best is None or value > best[0]:
                        best = (value, r)
        if best is not None:
            return Road(best[1])
    return Done()


class PhaseAgent:
    """A Crossroads agent by phase: it places its first city and picks the axis as every agent
    here does, and builds, proposes and answers by its own ``_build``, ``_propose`` and
    ``_answer`` (building is :func:`build_move` unless a subclass says otherwise)."""

    def _build(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        return build_move(state, rng)

    def _propose(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        raise NotImplementedError

    def _answer(self, state: CrossroadsState) -> CrossroadsAction:
        raise NotImplementedError

    def choose(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        """Pick a move for the seat to act."""
        match state.phase:
            case Phase.SETUP_PLACE:
                return place_move(state, rng)
            case Phase.AXIS:
                return axis_move(state)
            case Phase.BUILD:
                return self._build(state, rng)
            case Phase.TRADE:
                return self._propose(state, rng)
            case Phase.RESPOND:
                return self._answer(state)
        return rng.choice(state.legal_actions())



class TraderAgent(PhaseAgent):
    """A greedy builder with one of the trading styles in :data:`STYLES`."""

    def __init__(self, style: str, name: str) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown trading style {style!r}")
        self.style = style
        self.name = name

    # -- how others have treated me (public history in the state)
    def _hostile(self, state: CrossroadsState, other: int) -> bool:
        me, n = state.current_player, state.n
        if self.style == "grudger":
            return bool(state.grudge[me * n + other])
        if self.style == "tft":
            return state.last[me * n + other] < 0
        return False

    def _split(self, state: CrossroadsState, partner: int, relays: int) -> tuple[int, ...] | None:
        """(mine, theirs, fees...) for an offer to ``partner``, or None to leave them be."""
        if self.style == "grudger" and self._hostile(state, partner):
            return None
        if self.style == "splitter" or (self.style == "tft" and self._hostile(state, partner)):
            return (3, 0) + (0,) * relays
        fees = [1 if i < 1 else 0 for i in range(relays)]
        mine = 3 - 1 - sum(fees)
        return (mine, 1, *fees)

    def _propose(self, state: CrossroadsState, rng: random.Random) -> CrossroadsAction:
        """The best offer by this style, or pass: fewest relays first (a refused relay's
        routes are skipped, so a longer route through others is tried next: CR-7 amended),
        then the partner that last treated me best."""
        me = state.seat
        best: tuple[tuple[float, ...], Offer] | None = None
        for a, b, relays in state.trade_pairs(me):
            partner = owner(state.board[b])
            parties = [partner] + [owner(state.board[r]) for r in relays]
            if any((me, p) in state.refusals for p in parties):
                continue
            if any(self._hostile(state, p) for p in parties[1:]):
                continue
            split = self._split(state, partner, len(relays))
            if split is None:
                continue
            key = (-len(relays), float(state.last[me * state.n + partner]), rng.random())
            offer = Offer(a, b, relays, split[2:], split[0], split[1])
            if best is None or key > best[0]:
                best = (key, offer)
        return Pass() if best is None else best[1]

    def _answer(self, state: CrossroadsState) -> CrossroadsAction:
        offer = state.offer
        assert offer is not None
        slot = state.waiting[0]
        proposer, partner = state.slot_owner(PROPOSER), state.slot_owner(PARTNER)
        if slot == PARTNER:
            if offer.theirs >= 1 and not (self.style == "grudger" and self._hostile(state, proposer)):
                return Accept()
            return Reject()
        if slot == PROPOSER:
            need = 2 if self.style == "splitter" else 1
            return Accept() if offer.mine >= need else Reject()
        if self.style in ("grudger", "tft") and (self._hostile(state, proposer) or self._hostile(state, partner)):
            return Reject()
        if self.style == "splitter" and offer.fees[slot] == 0 and offer.mine + offer.theirs >= 1:
            return Demand(1)
        return Accept()


def _factory(style: str, name: str, help: str) -> AgentFactory[CrossroadsState]:
    def make(game: Game, options: AgentOptions) -> TraderAgent:
        return TraderAgent(style, name)

    return AgentFactory(make, help)


#: agent name -> factory, for ENTRY
AGENTS: dict[str, AgentFactory[CrossroadsState]] = {
    "greedy": _factory("fair", "greedy", "greedy builder; offers 2/1, accepts 1+, relays for any fee"),
    "always-fair": _factory("fair", "always-fair", "trades as greedy does: always fair"),
    "greedy-splitter": _factory("splitter", "greedy-splitter", "offers 3/0, accepts 1+, demands a relay fee of 1"),
    "tit-for-tat": _factory("tft", "tit-for-tat", "opens fair, then mirrors each player's last treatment of it"),
    "grudger": _factory("grudger", "grudger", "fair until treated unfairly once, then never trades with that player"),
}


def candidates(state: CrossroadsState) -> list[CrossroadsAction]:
    """The building moves worth a search's rollouts, else every legal action.

    A building turn may list two dozen sites; the ones the greedy builder's own measures
    rank best (city sites by :func:`city_value`, roads toward a rival or opening a city
    site) and ``done`` cover what it could sensibly do, so a search spends its rollouts
    on those rather than on every road of the board.
    """
    legal = state.legal_actions()
    if state.phase is not Phase.BUILD or len(legal) <= 6:
        return legal
    me, board = state.seat, state.board
    cities = [a for a in legal if isinstance(a, City)]
    roads = [a for a in legal if isinstance(a, Road)]
    out: list[CrossroadsAction] = [Done()]
    out += sorted(cities, key=lambda a: -city_value(state, a.cell))[:3]

    def opens(r: int) -> float:
        return max((city_value(state, s) for s in orthogonal(r) if board[s] == EMPTY and not touches_city(board, s)),
                   default=0.0)

    out += [a for a in sorted(roads, key=lambda a: -opens(a.cell))[:2] if a not in out]
    if not _connected(state, me):
        dist = _foreign_distance(state, me)
        out += [a for a in sorted(roads, key=lambda a: dist(a.cell))[:2] if a not in out]
    return out
