"""The coloured terminal view of a Pillage position (rich)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .contents import Commodity, Modifier, content_text
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


def kinds_in_play(state: PillageState) -> list[int]:
    """The legend's commodity kinds this board uses: in a box, named by a modifier, or held.
    A board of doubloons only (``contents=unit``) has none, and its tallies no commodity
    columns. While the contents are being dealt, every kind of the legend."""
    if any(c is None for c in state.contents):
        return list(range(len(state.values)))
    used = {k for p in (0, 1) for k, n in enumerate(state.held[p]) if n}
    for content in state.contents:
        match content:
            case Commodity(kind):
                used.add(kind)
            case Modifier(kinds=named):
                used.update(named)
    return sorted(used)


def render(state: PillageState) -> RenderableType:
    """Board picture, then a table of tallies, legend values and scores."""
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
    kinds = kinds_in_play(state)
    for k in kinds:
        table.add_column(f"{g.legend.kinds[k]} (={state.values[k]})", justify="right")
    table.add_column("score", justify="right")
    scores = state.scores()
    for p in (0, 1):
        table.add_row(Text(g.seat_name(p), STYLES[f"p{p}"]), str(state.doubloons[p]),
                      *(str(state.held[p][k]) for k in kinds), f"{scores[p]:g}")
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
