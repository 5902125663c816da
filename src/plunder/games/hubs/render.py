"""The coloured terminal view of a Hubs position (rich) and the one-line move descriptions."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.game import Action, State
from .actions import Dot, HubsAction, Segment, label
from .picture import segment_counts, sheet_grid, state_sheet
from .rules import HubsState

STYLES = {"dot": "bold cyan", "seg": "white", "last": "bold yellow", "frame": "grey42", "": ""}
#: dot columns side by side in the segment-count table
COUNT_COLUMNS = 4


def gain(state: HubsState, segment: Segment) -> int:
    """What drawing ``segment`` would score for the offense now (HB-4)."""
    return state.degree[segment.first] + state.degree[segment.second]


def describe(state: State[HubsAction], action: Action) -> str:
    """A few words on what ``action`` does: where a dot goes, or what a segment scores."""
    assert isinstance(state, HubsState)
    match action:
        case Dot(x, y):
            return f"place dot {label(len(state.dots))} at {x},{y}"
        case Segment(first, second):
            offense = state.game.seat_name(state.offense)
            return (f"scores {gain(state, action)} for {offense} "
                    f"({label(first)} has {state.degree[first]}, {label(second)} has {state.degree[second]})")
    raise ValueError(f"{action!r} is not a hubs action")


def render(state: State[HubsAction]) -> RenderableType:
    """Round and roles, the plotted sheet, each dot's segment count, the score."""
    assert isinstance(state, HubsState)
    g = state.game
    parts: list[RenderableType] = [Text(state.summary(), "bold")]
    dots, segments, old = state_sheet(state)
    sheet = Text()
    for row in sheet_grid(g.width, g.height, dots, segments):
        for ch, style in row:
            sheet.append(ch, STYLES[style])
        sheet.append("\n")
    parts.append(sheet)
    if old and state.is_terminal():
        parts.append(Text(f"The match is over; this was the sheet of round {state.round}, the last (HB-6).",
                          "italic"))
    elif old:
        parts.append(Text(f"Round {state.round} is over; this was its sheet. "
                          f"Round {state.round + 1} starts on a fresh sheet (HB-7).", "italic"))
    if dots:
        degree = segment_counts(dots, segments)
        table = Table(title="Segments at each dot", show_edge=False, pad_edge=False)
        for _ in range(min(COUNT_COLUMNS, len(dots))):
            table.add_column("dot")
            table.add_column("x,y", justify="right")
            table.add_column("segs", justify="right")
        per_col = -(-len(dots) // COUNT_COLUMNS)
        for r in range(per_col):
            cells: list[str | Text] = []
            for c in range(min(COUNT_COLUMNS, len(dots))):
                k = c * per_col + r
                if k < len(dots):
                    under = degree[k] < 2
                    cells += [Text(label(k), "bold cyan"), f"{dots[k][0]},{dots[k][1]}",
                              Text(str(degree[k]), "red" if under else "green")]
                else:
                    cells += ["", "", ""]
            table.add_row(*cells)
        parts.append(table)
    score = Table(title="Match", show_edge=False)
    score.add_column("")
    score.add_column("this round")
    score.add_column("points", justify="right")
    for seat in (0, 1):
        role = "-" if state.is_terminal() else ("offense" if seat == state.offense else "defense")
        score.add_row(g.seat_name(seat), role, str(state.totals[seat]))
    parts.append(score)
    if not state.is_terminal() and not state.placing:
        moves = state.legal_actions()
        best = gain(state, moves[0]) if isinstance(moves[0], Segment) else 0
        parts.append(Text(f"{len(moves)} legal segments; the best would score {best} "
                          f"for {g.seat_name(state.offense)} (HB-4). A round ends when every dot "
                          "has two segments or none can be drawn (HB-5)."))
    return Group(*parts)
