"""Drawing a pirates position with rich, and one-line descriptions of actions."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from ...core.words import plural
from . import tables as T
from .actions import (Bury, Buy, Continue, Done, Fight, Keep, PiratesAction, Place, Retire, Retrieve, Sail, Steer,
                      Stop, Wind, action_text)
from .moves import reachable
from .rules import Phase, PiratesState
from .sea import WINDS, Cell, cell_text

ARROWS = {"NE": "↗", "SE": "↘", "SW": "↙", "NW": "↖"}
SUIT_MARK = {"suns": "☼", "moons": "☾", "crowns": "♛", "arms": "⚔"}


def _cell(state: PiratesState, cell: Cell) -> tuple[str, str]:
    """Three characters and a style for one grid cell."""
    sea = state.sea
    if cell == state.pos:
        mark = "-" if state.ship < 0 else str(state.ship)
        return f"☠{mark} ", "bold white on red"
    ships = state.ships_on(cell)
    if ships:
        if len(ships) > 1:
            text = f"*{len(ships)} "
            biggest = max(T.coin_value(c) for c in ships)
        else:
            biggest = T.coin_value(ships[0])
            text = f"{T.coin_suit(ships[0])[0]}{biggest} "
        colour = "red" if biggest > state.ship else "green" if biggest < state.ship else "yellow"
        return text, f"bold {colour} on blue"
    if not sea.is_sea(cell):
        if cell == state.chest:
            return " $ ", "bold yellow on dark_green"
        return "   ", "on dark_green"
    tile = sea.tile_at[cell]
    if state.faces[tile] < 0:
        return " ░ ", "grey62 on navy_blue"
    ox, oy = sea.origins[tile]
    face = state.faces[tile]
    if cell == (ox, oy):
        return f"{SUIT_MARK[T.TILE_SUITS[face // 6]]}{T.face_value(face)} ", "bold white on blue"
    if cell == (ox + 1, oy) and state.winds[tile] >= 0:
        return f" {ARROWS[WINDS[state.winds[tile]]]} ", "bold cyan on blue"
    return "   ", "on blue"


def _reach(state: PiratesState) -> set[Cell]:
    """Spaces the pirate can still end this sail on (highlighted while it sails)."""
    if state.phase is not Phase.SAIL or state.current_player != 0 or state.wind_tile >= 0 or state.fights:
        return set()
    assert state.pos is not None
    return reachable(state.sea, state.winds, state.pos, state.orth, state.last, state.diag) - {state.pos}


def sea_text(state: PiratesState) -> Text:
    """The sea as a coloured grid with x across the top and y down the side; while the
    pirate sails, the spaces it can still reach are drawn on a lighter blue."""
    sea = state.sea
    reach = _reach(state)
    out = Text("   " + "".join(f"{x:>3}" for x in range(sea.width)) + "\n", style="dim")
    for y in range(sea.height):
        out.append(f"{y:>3}", style="dim")
        for x in range(sea.width):
            text, style = _cell(state, (x, y))
            if (x, y) in reach:
                style = style.replace("on navy_blue", "on dodger_blue3").replace("on blue", "on dodger_blue3")
            out.append(text, style=style)
        out.append("\n")
    return out


def status(state: PiratesState) -> list[tuple[str, Text]]:
    """The tracks, the chest and what the game waits for, as (name, value) pairs."""
    game = state.game
    rows = [("Turn", Text(f"{state.turn}/{game.turns} ({state.phase.value})"))]
    if state.ship >= 0:
        rows.append(("Ship", Text(f"{T.ship_name(state.ship)} (size {state.ship})")))
    else:
        shipless = "none" if state.phase in (Phase.OVER, Phase.START, Phase.BUY) else "none — buy one or drown"
        rows.append(("Ship", Text(shipless)))
    rows += [("Crew", Text(str(state.crew))), ("Notoriety", Text(str(state.notoriety)))]
    aboard = Text(str(state.booty))
    if state.booty > T.HOLD:
        aboard.append(f" (over {T.HOLD}: the excess is lost after the bury step)", style="bold red")
    rows.append(("Booty aboard", aboard))
    chest = f" at {cell_text(state.chest)}" if state.chest else ""
    rows += [("Buried", Text(f"{state.buried}{chest}")), ("Ships in bag", Text(str(len(state.bag)))),
             ("Score now", Text(str(state.score())))]
    if state.phase is not Phase.OVER:
        rows.append(("Waiting on", Text(waiting(state))))
    elif state.drowned:
        rows.append(("Result", Text("drowned at sea", style="bold red")))
    return rows


def status_text(state: PiratesState) -> Text:
    """:func:`status` run together in a few lines, to leave the sea room on an 80x24 screen."""
    out = Text()
    for i, (name, value) in enumerate(status(state)):
        out.append("  " if i else "")
        out.append(f"{name} ", style="bold")
        out.append_text(value)
    return out


def waiting(state: PiratesState) -> str:
    """What the position waits for, in words."""
    if state.phase is Phase.START:
        return "the starting-booty roll"
    if state.flip >= 0:
        return "the flip of the tile entered"
    if state.wind_tile >= 0:
        return "your choice of wind for the flipped tile"
    if state.sight >= 0:
        return "the lookout's roll"
    if state.draw >= 0:
        return "a ship drawn from the bag"
    if state.combat >= 0:
        return f"the combat roll against {T.coin_name(state.combat)}"
    if state.fights:
        return "your choice of which ship to fight first"
    return {
        Phase.BUY: "your ship and crew", Phase.PLACE: "where to weigh anchor", Phase.SAIL: "your next sail step",
        Phase.OTHERS: "your tie-break for a ship's route", Phase.BURY: "bury or retrieve booty",
        Phase.UPGRADE: "upgrades", Phase.END: "continue or retire",
    }.get(state.phase, "")


def reference_text() -> Text:
    """The ship table of the reference sheet (PR-9) in one line: price, crew range, total."""
    out = Text("Ships (price, crew, total): ", style="bold")
    for v, name in enumerate(T.SHIP_NAMES):
        low = T.SHIP_PRICE[v] + T.CREW_PRICE * T.MIN_CREW[v]
        high = T.SHIP_PRICE[v] + T.CREW_PRICE * T.MAX_CREW[v]
        out.append(("  " if v else "") + f"{name} {T.SHIP_PRICE[v]}, {T.MIN_CREW[v]}-{T.MAX_CREW[v]}, {low}-{high}")
    return out


def render(state: PiratesState) -> Any:
    """The sea, its legend and the status in a few lines (the ship table while buying), to fit
    an 80x24 screen, for ``plunder play``."""
    legend = Text("☠ you  a/c/s N ships (red bigger, green smaller)  ░ unexplored  ↗ wind  $ chest  "
                  "light blue: reach", style="dim")
    sea = sea_text(state)
    sea.rstrip()
    parts: list[Any] = [sea, legend, status_text(state)]
    if state.phase in (Phase.BUY, Phase.UPGRADE):
        parts.append(reference_text())
    return Group(*parts)
def describe(state: PiratesState, action: PiratesAction) -> str:
    """A few words on what ``action`` does, with warnings before losing booty (PR-8)."""
    s = state
    match action:
        case Sail(d):
            target = dict(s.sail_options).get(d)
            if target is None:
                return "not possible"
            notes = [f"to {cell_text(target)}"]
            if s.faces[s.sea.tile_at[target]] < 0:
                notes.append("explores a face-down tile")
            for coin in s.ships_on(target):
                win, lose, _ = T.combat_odds(s.ship + s.crew, T.coin_value(coin), s.notoriety)
                notes.append(f"attacks {T.coin_name(coin)} (win {win:.0%}, lose {lose:.0%})")
            return ", ".join(notes)
        case Stop():
            return "end the sail here; nearby ships then sail"
        case Wind(wind):
            return f"the wind blows {wind} on this tile"
        case Fight(coin):
            win, lose, _ = T.combat_odds(s.ship + s.crew, T.coin_value(coin), s.notoriety)
            return f"fight {T.coin_name(coin)} first (win {win:.0%}, lose {lose:.0%})"
        case Steer(coin, cell):
            return f"{T.coin_name(coin)} sails to {cell_text(cell)}"
        case Place(cell):
            return f"weigh anchor at {cell_text(cell)}"
        case Buy(ship, crew):
            cost = T.refit_cost(s.ship, s.crew, ship, crew)
            return f"{T.SHIP_NAMES[ship]} with {crew} crew for {cost} booty"
        case Keep():
            return "no refit — WARNING: shipless, you drown" if s.ship < 0 else "no refit"
        case Bury(amount, site):
            text = f"bury {amount} booty at {cell_text(site)}"
            if s.chest is not None and site != s.chest and s.buried > 0:
                text += f" — WARNING: the {s.buried} booty buried at {cell_text(s.chest)} is lost"
            return text
        case Retrieve(amount):
            return f"dig up {amount} of the {s.buried} buried booty"
        case Done():
            if s.booty > T.HOLD:
                return f"end the bury step — WARNING: {s.booty - T.HOLD} booty over {T.HOLD} is lost"
            return "end the bury step"
        case Continue():
            return f"sail on into turn {s.turn + 1}"
        case Retire():
            final = s.score() + 1  # the turn being ended counts as completed
            return f"retire now with {plural(final, 'point')}"
    return action_text(action)
