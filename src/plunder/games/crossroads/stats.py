"""Crossroads statistics for ``plunder simulate``, the lab and the score's breakdown: the
game's :class:`Observer`.

What a finished game shows is read from its last position: the rounds played, the cities on
the board and each seat's public ledger (trade gold, fees, roads, kept in the state because
they are on the table for all to see and ``crossroads-hard`` reads them). What only the
statistics and the breakdown want -- the activation income, the trades made, the offers, the
refusals met and who traded with whom -- is counted here, move by move, and never burdens a
position.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game
from .actions import Accept, Offer, Reject
from .board import CITY0
from .flow import refuser, trade_parties
from .rules import CrossroadsState, Phase


class CrossroadsObserver:
    """The tallies of one game: activation income, offers, refusals, trades, and trades between
    each pair of seats."""

    def __init__(self, game: Game[Any]) -> None:
        n = game.num_players
        #: offers made by each seat
        self.offers = [0] * n
        #: each seat's offers refused by another player (CR-11)
        self.refused = [0] * n
        #: gold each seat was paid by activations (CR-2)
        self.income = [0] * n
        #: trades each seat took part in, as proposer or partner (CR-7)
        self.trades = [0] * n
        #: ``partners[i][j]``: seat i's trades with seat j
        self.partners = [[0] * n for _ in range(n)]

    def see(self, before: CrossroadsState, action: Action, after: CrossroadsState) -> None:
        """Count an activation's pay, an offer, a refusal, or the trade an accept binds (CR-7)."""
        if after.phase is Phase.BUILD and before.phase is not Phase.BUILD:
            # an activation opens the roller's building (CR-14) and pays nothing else (CR-2)
            for i, (was, now) in enumerate(zip(before.gold, after.gold)):
                self.income[i] += now - was
        elif isinstance(action, Offer):
            self.offers[before.seat] += 1
        elif isinstance(action, Reject):
            refused = refuser(before)
            if refused is not None:
                self.refused[refused[0]] += 1
        elif isinstance(action, Accept) and len(before.waiting) == 1:
            a, b = trade_parties(before)
            self.partners[a][b] += 1
            self.partners[b][a] += 1
            for seat in {a, b}:
                self.trades[seat] += 1

    def stats(self, final: CrossroadsState) -> dict[str, float | list[float]]:
        """Per-game figures: rounds, trades, offers, refusals, fees, trade gold, income, builds, and
        ``trades_with_J``: each seat's trades with seat J (who trades with whom)."""
        n = final.n
        return {
            "rounds": float(final.round),
            "trades": [float(x) for x in self.trades],
            "offers": [float(x) for x in self.offers],
            "refused": [float(x) for x in self.refused],
            "trade_gold": [float(x) for x in final.trade_gold],
            "fees": [float(x) for x in final.fees],
            "income": [float(x) for x in self.income],
            "cities": [float(sum(1 for v in final.board if v == CITY0 + i)) for i in range(n)],
            "roads": [float(x) for x in final.roads],
            # seat i's trades with each seat; its rows sum to "trades" but for trades with oneself
            **{f"trades_with_{j + 1}": [float(self.partners[i][j]) for i in range(n)] for j in range(n)},
        }
