"""The coloured terminal view of a Pillage position (rich)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.game import State
from .contents import content_text
from .picture import board_grid, modifier_key
from .rules import PillageState

STYLES = {
    "axis": "cyan",
    "dot": "bold white",
    "line": "bold white",
    "last": "bold yellow",
    "free": "grey42",
    "content": "green",
    "p0": "bold red",
    "p1": "bold blue",
    "": "",
}


def render(state: State) -> RenderableType:
    """Board picture, then a table of tallies, legend values and scores."""
    assert isinstance(state, PillageState)
    g = state.game
    board = Text()
    for line in board_grid(state):
        for ch, style in line:
            board.append(ch, STYLES.get(style, ""))
        board.append("\n")
    # borderless: three lines, so a 4x4 board, its tallies and the last move fit an 80x24 screen
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("")
    table.add_column("doubloons", justify="right")
    for kind, value in zip(g.legend.kinds, state.values):
        table.add_column(f"{kind} (={value})", justify="right")
    table.add_column("score", justify="right")
    scores = state.scores()
    for p in (0, 1):
        table.add_row(Text(g.seat_name(p), STYLES[f"p{p}"]), str(state.doubloons[p]),
                      *(str(n) for n in state.held[p]), f"{scores[p]:g}")
    parts: list[RenderableType] = [board, table]
    modifiers = modifier_key(state)
    if modifiers:
        parts.append(Text(modifiers, "green"))
    mods = state.pending_modifiers()
    if len(mods) == 1:
        parts.append(Text(f"{g.seat_name(state.mover)} captured {content_text(mods[0], g.legend)}: "
                          "choose an operation and a commodity (PP-5)", "bold yellow"))
    elif mods:
        names = " and ".join(content_text(m, g.legend) for m in mods)
        parts.append(Text(f"{g.seat_name(state.mover)} captured the modifiers {names}: choose an operation "
                          "and a commodity for each, in the order you like (PP-5)", "bold yellow"))
    if g.floor is not None:
        parts.append(Text(f"Commodity values never fall below {g.floor} (PP-6)."))
    return Group(*parts)
