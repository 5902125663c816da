"""Whether a stored Crossroads game could have been played (``GameEntry.study.plausibility``).

What the rules bound, read from the scores and the observer's statistics (:mod:`.stats`): gold
never goes negative (CR-12); a game ends after the check of round 1 to ``max_rounds``, before
the cap only when one player alone is the richest with ``target`` gold, and the richest win
(CR-6, CR-13); gold starts at 0 and changes only by activations, trades and fees, and building
(the first city is free, CR-2, CR-4, CR-5, CR-7), so each seat's gold is its ledger's sum;
every trade makes exactly 3 gold for its traders and relays (CR-12); cities have no city
among their eight neighbours (CR-4, CR-5), so the 10x10 board holds at most 25, and each
player has the city it placed at setup.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.plausibility import StatReader, figure, returns_reason
from .board import SIZE
from .flow import CITY_COST, ROAD_COST
from .rules import TRADE_GOLD

#: the most cities the board holds: no two in one 2x2 block of cells (CR-4)
MOST_CITIES = ((SIZE + 1) // 2) ** 2


def outcome(scores: Sequence[float]) -> list[float]:
    """The returns the gold ``scores`` give at the end: +1 a lone richest, 0 to the richest
    tied (at the cap), -1 the rest (CR-6, CR-13)."""
    top = max(scores)
    leaders = [s == top for s in scores]
    return [(1.0 if sum(leaders) == 1 else 0.0) if lead else -1.0 for lead in leaders]


def plausibility(game: Any, returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
    """Why a stored game of ``game`` could not have ended with ``returns``, ``scores`` and the
    statistics ``stats`` (empty when it could)."""
    n = game.num_players
    target, cap = game.values["target"], game.values["max_rounds"]
    reasons = [f"{figure(s)} gold: gold is whole and never negative" for s in scores if s < 0 or not float(s).is_integer()]
    reasons += returns_reason(returns, outcome(scores), scores)
    read = StatReader(stats, n)
    rounds = read.game("rounds", 1, cap)
    if rounds is not None and rounds < cap and not (max(scores) >= target and scores.count(max(scores)) == 1):
        reasons.append(f"it ended after round {figure(rounds)} of {cap} with no lone richest at {target} gold")
    income, trade, fees, cities, roads = (read.seat(name) for name in ("income", "trade_gold", "fees", "cities", "roads"))
    if cities is not None and (min(cities) < 1 or sum(cities) > MOST_CITIES):
        reasons.append(f"{', '.join(figure(c) for c in cities)} cities: each player has one or more, "
                       f"the board holds {MOST_CITIES}")
    if income is not None and trade is not None and fees is not None and cities is not None and roads is not None:
        for seat in range(n):
            gold = income[seat] + trade[seat] + fees[seat] - CITY_COST * (cities[seat] - 1) - ROAD_COST * roads[seat]
            if gold != scores[seat]:
                reasons.append(f"seat {seat + 1} has {figure(scores[seat])} gold, its ledger makes {figure(gold)}")
    partners = [p for p in (read.seat(f"trades_with_{j + 1}") for j in range(n)) if p is not None]
    for name in ("trades", "offers", "refused"):
        read.seat(name)
    if len(partners) == n and trade is not None and fees is not None:
        trades = sum(sum(p) for p in partners) / 2  # each trade counted by both its sides
        made = sum(trade) + sum(fees)
        if made != TRADE_GOLD * trades:
            reasons.append(f"{figure(made)} gold from {figure(trades)} trades, each makes {TRADE_GOLD}")
    return reasons + read.wrong
