"""A trading action's parts as fields, for the game page's trade panel
(``Presentation.legal_fields``): the web app sends them beside each legal text, so the panel in
``web/client.js`` builds its choices (your city, the partner's, the route, the split) from
these fields and never reads an offer's text."""

from __future__ import annotations

from typing import Any

from .actions import Accept, CrossroadsAction, Demand, Offer, Pass, Reject
from .board import cell_name, owner
from .rules import CrossroadsState


def legal_fields(state: CrossroadsState, action: CrossroadsAction) -> dict[str, Any] | None:
    """``{"kind": "offer", "from": "A3", "to": "F1", "partner": 1, "route": ["C2"], "fees": [1],
    "route_seats": [2], "mine": 1, "theirs": 1}`` for an offer (cells by name, seats 0-based:
    who owns the partner city and each relay city), ``{"kind": "demand", "fee": 2}``, and
    ``{"kind": "pass" | "accept" | "reject"}``; ``None`` for the rest (building and chance)."""
    if isinstance(action, Offer):
        return {"kind": "offer", "from": cell_name(action.a), "to": cell_name(action.b),
                "partner": owner(state.board[action.b]), "route": [cell_name(r) for r in action.relays],
                "fees": list(action.fees), "route_seats": [owner(state.board[r]) for r in action.relays],
                "mine": action.mine, "theirs": action.theirs}
    if isinstance(action, Demand):
        return {"kind": "demand", "fee": action.fee}
    if isinstance(action, (Pass, Accept, Reject)):
        return {"kind": action.text()}
    return None
