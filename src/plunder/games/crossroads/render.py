"""Terminal pictures of Crossroads for ``plunder play``: the board, the gold table, offers.

The board carries the dice labels 1-5 twice on both axes (CR-1) and, outside them, the
cell names people type (columns A-J, rows 1-10). Cities show their player's number in
the player's colour, roads are ``#``, and the cells the last roll activated are
highlighted.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .actions import (
    Accept,
    Axis,
    City,
    CrossroadsAction,
    Demand,
    Done,
    Offer,
    Pass,
    Place,
    Reject,
    Reroll,
    Road,
    Roll,
)
from .board import CITY0, COLUMNS, EMPTY, ROAD, activated, activation_pay, cell_name, owner
from .rules import PARTNER, PROPOSER, CrossroadsState, Phase

COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")


def board_text(state: CrossroadsState) -> Text:
    """The 10x10 grid with both kinds of axis labels."""
    lit = set(state.lit)
    if state.phase is Phase.SETUP_PLACE:
        # In setup the player picks among the activated cells that qualify (CR-5).
        lit = {a.cell for a in state.legal_actions() if isinstance(a, Place)}
    out = Text()
    out.append("      " + " ".join(COLUMNS) + "\n", style="dim")
    out.append("      " + " ".join("12345" * 2) + "\n", style="bold")
    for r in range(10):
        out.append(f"{r + 1:>3} ", style="dim")
        out.append(f"{r % 5 + 1} ", style="bold")
        for k in range(10):
            c = r * 10 + k
            v = state.board[c]
            back = " on grey30" if c in lit else ""
            if v == EMPTY:
                out.append("·", style="grey50" + back)
            elif v == ROAD:
                out.append("#", style="yellow" + back)
            else:
                seat = v - CITY0
                out.append(str(seat + 1), style=f"bold {COLOURS[seat]}{back}")
            out.append(" ")
        out.append("\n")
    return out


def gold_table(state: CrossroadsState) -> Table:
    """Gold, cities, roads and fees per player (the public ledger a position keeps; the trades
    made are counted by the game's observer); the player to act is marked."""
    roll = f". Last roll: {state.dice[0]} and {state.dice[1]}" if state.dice and state.phase is not Phase.SETUP_PLACE else ""
    title = f"Round {state.round} - {state.phase.value}{roll}"
    # as wide as its title, which would otherwise wrap above the five narrow columns
    table = Table(title=title, box=None, padding=(0, 1), header_style="bold", min_width=len(title))
    for head in ("player", "gold", "cities", "roads", "fees"):
        table.add_column(head, justify="right" if head != "player" else "left")
    cities = [0] * state.n
    roads = state.roads
    for c in state.net.city_cells:
        cities[owner(state.board[c])] += 1
    acting = state.current_player
    for i in range(state.n):
        mark = " <" if i == acting else ""
        table.add_row(Text(f"P{i + 1}{mark}", style=COLOURS[i]), str(state.gold[i]), str(cities[i]),
                      str(roads[i]), str(state.fees[i]))
    return table


def short_seat(seat: int) -> str:
    """A seat in the terminal's few characters: ``P2``."""
    return f"P{seat + 1}"


def offer_text(state: CrossroadsState, offer: Offer, seat: Callable[[int], str] = short_seat) -> str:
    """An offer in words: who trades with whom, through whom, and who gets what; each seat as
    ``seat`` calls it (``P2`` in the terminal's columns; the picture gives the rules' labels,
    which a front end may call by its players' names)."""
    pa, pb = seat(owner(state.board[offer.a])), seat(owner(state.board[offer.b]))
    words = f"{pa}'s {cell_name(offer.a)} trades with {pb}'s {cell_name(offer.b)}"
    if offer.relays:
        words += " through " + ", ".join(
            f"{seat(owner(state.board[r]))}'s {cell_name(r)} (fee {f})" for r, f in zip(offer.relays, offer.fees))
    return f"{words}: {pa} gets {offer.mine}, {pb} gets {offer.theirs}"


#: how many characters the trade pairs may take: two lines of an 80-column screen
TRADE_CHARS = 156


def status(state: CrossroadsState) -> Text:
    """What is happening now, in a sentence or two."""
    if state.phase is Phase.OVER:
        if len(state.winners) == 1:
            return Text(f"Game over: P{state.winners[0] + 1} wins with {state.gold[state.winners[0]]} gold.", style="bold")
        return Text("Game over at the round cap: a tie between " + ", ".join(f"P{w + 1}" for w in state.winners), style="bold")
    who = state.current_player + 1
    if state.phase is Phase.SETUP_PLACE:
        sites = " ".join(cell_name(a.cell) for a in state.legal_actions() if isinstance(a, Place))
        return Text(f"Setup: P{who} rolled {state.dice[0]} and {state.dice[1]}; place the first city on one of: {sites}.")
    if state.phase is Phase.AXIS:
        return Text(f"P{who} rolled {state.dice[0]} and {state.dice[1]}: choose which die is the column.")
    if state.phase is Phase.BUILD:
        return Text(f"P{who} builds (city 10, road 3) or says done. {build_summary(state)}")
    if state.phase is Phase.TRADE:
        left = state.game.values["offers"] - state.offers[state.seat]
        lines = [f"Trading: P{who} may offer ({left} left) or pass"
                 + ("; split and fees: whole gold, 3 in all." if state.trade_pairs(state.seat) else ".")]
        pairs = [f"{cell_name(a)}-{cell_name(b)}" + (" via " + ",".join(cell_name(r) for r in relays) if relays else "")
                 for a, b, relays in state.trade_pairs(state.seat)]
        if pairs:
            # as many pairs as fit two lines of an 80-column screen: the board stays in view
            shown = "Pairs (offer A-B [via R=FEE] gold MINE/THEIRS): "
            for i, pair in enumerate(pairs):
                more = f" +{len(pairs) - i} more ('moves')"
                if len(shown) + len(pair) + 2 + (len(more) if i < len(pairs) - 1 else 0) > TRADE_CHARS:
                    shown += more
                    break
                shown += pair + ("; " if i < len(pairs) - 1 else "")
            lines.append(shown)
        return Text("\n".join(lines))
    if state.phase is Phase.RESPOND and state.offer is not None:
        slot = state.waiting[0]
        role = "proposer (terms changed)" if slot == PROPOSER else "partner" if slot == PARTNER else "relay"
        return Text(f"Offer: {offer_text(state, state.offer)}\nP{who} answers as {role}: accept, reject"
                    + (", or demand a higher fee." if slot >= 0 else "."))
    return Text(state.summary())


def build_summary(state: CrossroadsState) -> str:
    """The legal builds, by cell name."""
    acts = state.legal_actions()
    cities = [cell_name(a.cell) for a in acts if isinstance(a, City)]
    roads = [cell_name(a.cell) for a in acts if isinstance(a, Road)]
    return f"Cities: {' '.join(cities) or 'none'}. Roads: {' '.join(roads) or 'none'}."


def render(state: CrossroadsState) -> RenderableType:
    """The whole picture for ``plunder play``."""
    board = board_text(state)
    board.rstrip()  # no blank line under the board: it all fits an 80x24 screen
    parts: list[RenderableType] = [board, gold_table(state), status(state)]
    return Group(*parts)


def describe(state: CrossroadsState, action: CrossroadsAction) -> str:
    """A few words on what ``action`` does."""
    match action:
        case Roll(lo, hi):
            return f"the dice show {lo} and {hi}"
        case Reroll():
            return "a six: roll again"
        case Axis(col, row):
            pay = activation_pay(state.board, state.net, activated(col, row), state.n)
            gains = ", ".join(f"P{i + 1} +{p}" for i, p in enumerate(pay) if p) or "nobody gains"
            return f"column {col}, row {row}: {gains}"
        case Place(cell):
            return f"first city on {cell_name(cell)}"
        case City(cell):
            return f"build a city on {cell_name(cell)} for 10 gold"
        case Road(cell):
            return f"build a road on {cell_name(cell)} for 3 gold"
        case Done():
            return "end building; next player rolls" if state.seat + 1 < state.n else "end building; trading begins"
        case Offer():
            return "offer: " + offer_text(state, action)
        case Accept():
            return "agree to the offer as it stands"
        case Reject():
            return "turn the offer down; it lapses"
        case Demand(fee):
            return f"let the trade through only for a fee of {fee}"
        case Pass():
            return "make no offer now"
    return repr(action)


__all__ = ["render", "describe", "offer_text", "board_text", "gold_table"]
