"""Terminal pictures of Crossroads for ``plunder play``: the board, the gold table, offers.

The board carries the dice labels 1-5 twice on both axes (CR-1) and, outside them, the
cell names people type (columns A-J, rows 1-10). Cities show their player's number in
the player's colour, roads are ``#``, and the cells the last roll activated are
highlighted.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.game import Action, State
from .board import CITY0, COLUMNS, EMPTY, ROAD, cell_name, owner
from .rules import (
    AXIS,
    BUILD,
    OVER,
    PARTNER,
    PHASE_NAMES,
    PROPOSER,
    RESPOND,
    SETUP_PLACE,
    TRADE,
    CrossroadsState,
)

COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")


def board_text(state: CrossroadsState) -> Text:
    """The 10x10 grid with both kinds of axis labels."""
    lit = set(state.lit)
    if state.phase == SETUP_PLACE:
        # In setup the player picks among the activated cells that qualify (CR-5).
        lit = {a[1] for a in state.legal_actions() if isinstance(a, tuple)}
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
    """Gold, cities, roads and trades per player; the player to act is marked."""
    table = Table(title=f"Round {state.round} - {PHASE_NAMES[state.phase]}", show_edge=False)
    for head in ("player", "gold", "cities", "roads", "trades", "fees"):
        table.add_column(head, justify="right" if head != "player" else "left")
    cities = [0] * state.n
    roads = state.roads
    for c in state.net.city_cells:
        cities[owner(state.board[c])] += 1
    acting = state.current_player
    for i in range(state.n):
        mark = " <" if i == acting else ""
        table.add_row(Text(f"P{i + 1}{mark}", style=COLOURS[i]), str(state.gold[i]), str(cities[i]),
                      str(roads[i]), str(state.trades[i]), str(state.fees[i]))
    return table


def offer_text(state: CrossroadsState, offer: tuple[object, ...]) -> str:
    """An offer in words: who trades with whom, through whom, and who gets what."""
    _, a, b, relays, fees, ga, gb = offer
    assert isinstance(a, int) and isinstance(b, int) and isinstance(relays, tuple) and isinstance(fees, tuple)
    pa, pb = owner(state.board[a]) + 1, owner(state.board[b]) + 1
    words = f"P{pa}'s {cell_name(a)} trades with P{pb}'s {cell_name(b)}"
    if relays:
        words += " through " + ", ".join(
            f"P{owner(state.board[r]) + 1}'s {cell_name(r)} (fee {f})" for r, f in zip(relays, fees))
    return f"{words}: P{pa} gets {ga}, P{pb} gets {gb}"


def status(state: CrossroadsState) -> Text:
    """What is happening now, in a sentence or two."""
    if state.phase == OVER:
        if len(state.winners) == 1:
            return Text(f"Game over: P{state.winners[0] + 1} wins with {state.gold[state.winners[0]]} gold.", style="bold")
        return Text("Game over at the round cap: a tie between " + ", ".join(f"P{w + 1}" for w in state.winners), style="bold")
    who = state.current_player + 1
    if state.phase == SETUP_PLACE:
        sites = " ".join(cell_name(a[1]) for a in state.legal_actions() if isinstance(a, tuple))
        return Text(f"Setup: P{who} rolled {state.dice[0]} and {state.dice[1]}; place the first city on one of: {sites}.")
    if state.phase == AXIS:
        return Text(f"P{who} rolled {state.dice[0]} and {state.dice[1]}: choose which die is the column.")
    if state.phase == BUILD:
        return Text(f"P{who} builds (city 10, road 3) or says done. {build_summary(state)}")
    if state.phase == TRADE:
        left = state.game.values["offers"] - state.offers[state.seat]
        lines = [f"Trading: P{who} may make an offer ({left} left) or pass."]
        pairs = state.trade_pairs(state.seat)
        for a, b, relays in pairs[:12]:
            via = ""
            if relays:
                via = " via " + ",".join(f"{cell_name(r)}=FEE" for r in relays)
            lines.append(f"  your {cell_name(a)} can trade with P{owner(state.board[b]) + 1}'s {cell_name(b)}:"
                         f" offer {cell_name(a)}-{cell_name(b)}{via} gold MINE/THEIRS")
        if len(pairs) > 12:
            lines.append(f"  ... and {len(pairs) - 12} more pairs (type 'moves' for every offer)")
        if pairs:
            lines.append("  The split and fees are whole gold summing to 3.")
        return Text("\n".join(lines))
    if state.phase == RESPOND and state.offer is not None:
        slot = state.waiting[0]
        role = "proposer (terms changed)" if slot == PROPOSER else "partner" if slot == PARTNER else "relay"
        return Text(f"Offer: {offer_text(state, state.offer)}\nP{who} answers as {role}: accept, reject"
                    + (", or demand a higher fee." if slot >= 0 else "."))
    return Text(state.summary())


def build_summary(state: CrossroadsState) -> str:
    """The legal builds, by cell name."""
    acts = state.legal_actions()
    cities = [cell_name(a[1]) for a in acts if isinstance(a, tuple) and a[0] == "city"]
    roads = [cell_name(a[1]) for a in acts if isinstance(a, tuple) and a[0] == "road"]
    return f"Cities: {' '.join(cities) or 'none'}. Roads: {' '.join(roads) or 'none'}."


def render(state: State) -> RenderableType:
    """The whole picture for ``plunder play``."""
    assert isinstance(state, CrossroadsState)
    parts: list[RenderableType] = [board_text(state), gold_table(state)]
    if state.dice and state.phase != SETUP_PLACE:
        parts.append(Text(f"Last roll: {state.dice[0]} and {state.dice[1]}", style="dim"))
    parts.append(status(state))
    return Group(*parts)


def describe(state: State, action: Action) -> str:
    """A few words on what ``action`` does."""
    assert isinstance(state, CrossroadsState) and isinstance(action, tuple)
    kind = action[0]
    if kind == "roll":
        return f"the dice show {action[1]} and {action[2]}"
    if kind == "reroll":
        return "a six: roll again"
    if kind == "axis":
        from .board import activated, activation_pay

        pay = activation_pay(state.board, state.net, activated(action[1], action[2]), state.n)
        gains = ", ".join(f"P{i + 1} +{p}" for i, p in enumerate(pay) if p) or "nobody gains"
        return f"column {action[1]}, row {action[2]}: {gains}"
    if kind == "place":
        return f"first city on {cell_name(action[1])}"
    if kind == "city":
        return f"build a city on {cell_name(action[1])} for 10 gold"
    if kind == "road":
        return f"build a road on {cell_name(action[1])} for 3 gold"
    if kind == "done":
        return "end building; next player rolls" if state.seat + 1 < state.n else "end building; trading begins"
    if kind == "offer":
        return "offer: " + offer_text(state, action)
    if kind == "accept":
        return "agree to the offer as it stands"
    if kind == "reject":
        return "turn the offer down; it lapses"
    if kind == "demand":
        return f"let the trade through only for a fee of {action[1]}"
    if kind == "pass":
        return "make no offer now"
    return kind if isinstance(kind, str) else repr(action)


__all__ = ["render", "describe", "offer_text", "board_text", "gold_table"]
