"""Crossroads statistics for ``plunder simulate`` and the lab: the game's :class:`Observer`.

What a finished game shows is read from its last position: the rounds played, the cities on
the board and each seat's ledger (activation income, trade gold, fees, roads and trades, kept
in the state because the table, the score's breakdown and ``crossroads-hard`` read them).
What only the statistics want -- the offers made, the refusals met and who traded with whom
-- is counted here, move by move, and never burdens a position.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game
from .actions import Accept, Offer, Reject
from .board import CITY0
from .flow import refuser, trade_parties
from .rules import CrossroadsState


class CrossroadsObserver:
    """The tallies of one game: offers, refusals and trades between each pair of seats."""

    def __init__(self, game: Game[Any]) -> None:
        n = game.num_players
        #: offers made by each seat
        self.offers = [0] * n
        #: each seat's offers refused by another player (CR-11)
        self.refused = [0] * n
        #: ``partners[i][j]``: seat i's trades with seat j
        self.partners = [[0] * n for _ in range(n)]

    def see(self, before: CrossroadsState, action: Action, after: CrossroadsState) -> None:
        """Count an offer, a refusal, or the trade an accept binds (CR-7)."""
        if isinstance(action, Offer):
            self.offers[before.seat] += 1
        elif isinstance(action, Reject):
            refused = refuser(before)
            if refused is not None:
                self.refused[refused[0]] += 1
        elif isinstance(action, Accept) and len(before.waiting) == 1:
            a, b = trade_parties(before)
            self.partners[a][b] += 1
            self.partners[b][a] += 1

    def stats(self, final: CrossroadsState) -> dict[str, float | list[float]]:
        """Per-game figures: rounds, trades, offers, refusals, fees, trade gold, income, builds, and
        ``trades_with_J``: each seat's trades with seat J (who trades with whom)."""
        n = final.n
        return {
            "rounds": float(final.round),
            "trades": [float(x) for x in final.trades],
            "offers": [float(x) for x in self.offers],
            "refused": [float(x) for x in self.refused],
            "trade_gold": [float(x) for x in final.trade_gold],
            "fees": [float(x) for x in final.fees],
            "income": [float(x) for x in final.income],
            "cities": [float(sum(1 for v in final.board if v == CITY0 + i)) for i in range(n)],
            "roads": [float(x) for x in final.roads],
            # seat i's trades with each seat; its rows sum to "trades" but for trades with oneself
            **{f"trades_with_{j + 1}": [float(self.partners[i][j]) for i in range(n)] for j in range(n)},
        }
