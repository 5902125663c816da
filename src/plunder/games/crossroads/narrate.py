"""Crossroads in a player's words: rolls and what the activated cells paid, building, offers and
their answers, the round's end; and each player's gold taken apart by source at the end.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.tallies import Stats, seat_counts
from ...core.words import plural
from .actions import Accept, Axis, City, CrossroadsAction, Demand, Done, Offer, Pass, Place, Reject, Reroll, Road, Roll
from .board import cell_name, owner
from .rules import PROPOSER, CrossroadsState, Phase


def narrate(before: CrossroadsState, action: CrossroadsAction, after: CrossroadsState) -> str:
    """``Player 3's offer C3-I6 was accepted: Player 3 +2, Player 1 +1``."""
    said = _what(before, action, after)
    if after.phase is Phase.TRADE and before.phase is Phase.BUILD:
        said += f"; trading begins: {_seat(after, after.seat)} offers first"
    if after.round > before.round and after.round > 1 and after.phase is not Phase.OVER:
        said += f"; round {before.round} ends: " + _golds(after) + f"; round {after.round} begins"
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        if len(after.winners) == 1:
            said += f"; {_seat(after, after.winners[0])} wins with {after.gold[after.winners[0]]} gold"
        else:
            said += "; the round limit is reached: " + " and ".join(_seat(after, w) for w in after.winners) + " tie"
    return said


def talk(before: CrossroadsState, action: CrossroadsAction, after: CrossroadsState) -> str | None:
    """What a trading move says at the table (the web app's table talk, where offers are
    negotiated): an offer, an acceptance, a refusal or a demand in the log's words
    (``Player 1 offers A3-F1: Player 1 gets 2, Player 2 gets 1``); ``None`` for any other move."""
    if isinstance(action, (Offer, Accept, Reject, Demand)):
        return _what(before, action, after)
    return None


def _seat(state: CrossroadsState, seat: int) -> str:
    return state.game.seat_name(seat)


def _golds(state: CrossroadsState) -> str:
    return ", ".join(f"{_seat(state, i)} {g}" for i, g in enumerate(state.gold))


def _paid(before: CrossroadsState, after: CrossroadsState) -> str:
    """``Player 1 +5, Player 3 +3`` for the gold that changed hands, or ``nobody is paid``."""
    gains = [f"{_seat(after, i)} {b - a:+d}" for i, (a, b) in enumerate(zip(before.gold, after.gold)) if a != b]
    return ", ".join(gains) if gains else "nobody is paid"


def _cells(cells: Sequence[int]) -> str:
    return " ".join(cell_name(c) for c in cells)


def _what(s: CrossroadsState, action: Any, t: CrossroadsState) -> str:
    who = _seat(s, s.current_player) if s.current_player >= 0 else _seat(s, s.seat)
    match action:
        case Roll(lo, hi) if s.phase is Phase.SETUP_ROLL:
            sites = [a.cell for a in t.legal_actions() if isinstance(a, Place)]
            return f"{who} rolled {lo}-{hi} for a first city: {_cells(sites)} are open"
        case Roll(lo, hi) if t.phase is Phase.BUILD:
            return f"{who} rolled double {lo}s: {_cells(t.lit)} activated; {_paid(s, t)}"
        case Roll(lo, hi):
            return f"{who} rolled {lo} and {hi}"
        case Reroll():
            return f"{who} rolled a six: roll again"
        case Axis(col, row):
            return f"{who} chose column {col}, row {row}: {_cells(t.lit)} activated; {_paid(s, t)}"
        case Place(cell):
            return f"{who} placed a first city on {cell_name(cell)}"
        case City(cell):
            return f"{who} built a city on {cell_name(cell)} (-10 gold, {t.gold[s.seat]} left)"
        case Road(cell):
            return f"{who} built a road on {cell_name(cell)} (-3 gold, {t.gold[s.seat]} left)"
        case Done():
            return f"{who} is done building"
        case Offer():
            return f"{who} offers {_offer(s, action)}"
        case Pass():
            return f"{who} passes"
        case Accept() if t.offer is None:
            offer = s.offer
            assert offer is not None
            return (f"{who} accepts: {_seat(s, s.slot_owner(PROPOSER))}'s offer {cell_name(offer.a)}-{cell_name(offer.b)} "
                    f"was accepted: {_paid(s, t)}")
        case Accept():
            return f"{who} accepts; {_seat(t, t.responder())} to answer"
        case Reject():
            offer = s.offer
            assert offer is not None
            by = s.slot_owner(PROPOSER)
            if s.current_player == by:
                return f"{who} withdraws the offer {cell_name(offer.a)}-{cell_name(offer.b)}"
            return f"{who} rejects {_seat(s, by)}'s offer {cell_name(offer.a)}-{cell_name(offer.b)}"
        case Demand(fee):
            assert t.offer is not None
            return (f"{who} demands a fee of {fee} to let the trade through: now {_offer(t, t.offer)}; "
                    f"{_seat(t, t.responder())} to answer")
    return f"{who}: {s.game.action_to_text(s, action)}"


def _offer(state: CrossroadsState, offer: Offer) -> str:
    """``D3-H8 via F5 (fee 1): Player 1 gets 1, Player 2 gets 1``."""
    a, b = owner(state.board[offer.a]), owner(state.board[offer.b])
    via = ""
    if offer.relays:
        via = " via " + ", ".join(f"{cell_name(r)} ({_seat(state, owner(state.board[r]))}'s, fee {f})"
                                  for r, f in zip(offer.relays, offer.fees))
    return (f"{cell_name(offer.a)}-{cell_name(offer.b)}{via}: {_seat(state, a)} gets {offer.mine}, "
            f"{_seat(state, b)} gets {offer.theirs}")


def breakdown(state: CrossroadsState, stats: Stats) -> list[str]:
    """Each player's gold by source: activation, trade shares, relay fees, less what building
    cost. The activation income and the trades made are the game's observer's statistics."""
    income, trades = seat_counts(stats, "income", state.n), seat_counts(stats, "trades", state.n)
    lines = []
    for i in range(state.n):
        spent = income[i] + state.trade_gold[i] + state.fees[i] - state.gold[i]
        # gold starts at 0 (CR-5), so the rest went on building; a position set up with gold says so
        rest = f" - {spent} building" if spent >= 0 else f" + {-spent} at the start"
        cities = sum(1 for v in state.board if owner(v) == i)
        lines.append(f"{_seat(state, i)}: {income[i]} activation + {state.trade_gold[i]} trades "
                     f"+ {state.fees[i]} fees{rest} = {state.gold[i]} gold "
                     f"({plural(cities, 'city', 'cities')}, {plural(state.roads[i], 'road')}, "
                     f"{plural(trades[i], 'trade')})")
    return lines
