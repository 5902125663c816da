"""The coloured terminal view of a Hubs position (rich) and the one-line move descriptions."""

from __future__ import annotations

from typing import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from ...core.words import plural
from .actions import Dot, HubsAction, Segment, label
from .picture import segment_counts, state_plot, state_sheet
from .rules import HubsState

#: rich styles of the plot's cells (picture.Cell); a dot with two segments or more is "done"
STYLES = {"dot": "bold cyan", "done": "bold green", "seg": "white", "last": "bold yellow", "away": "cyan",
          "frame": "grey50", "axis": "grey62", "grid": "grey42", "": ""}


def gain(state: HubsState, segment: Segment) -> int:
    """What drawing ``segment`` would score for the offense now (HB-4)."""
    return state.degree[segment.first] + state.degree[segment.second]


def move_list(state: HubsState) -> Sequence[HubsAction]:
    """The legal moves best first for the mover: segments by what they score for the offense
    (HB-4), highest first on offense and lowest first on defense, then by label; free points
    row by row from the bottom left."""
    legal = state.legal_actions()
    if state.placing:
        return legal
    sign = -1 if state.current_player == state.offense else 1
    return sorted(legal, key=lambda a: (sign * gain(state, a), a.first, a.second)
                  if isinstance(a, Segment) else (0, 0, 0))


def describe(state: HubsState, action: HubsAction) -> str:
    """A few words on what ``action`` does: where a dot goes, or what a segment scores."""
    match action:
        case Dot(x, y):
            return f"place dot {label(len(state.dots))} at {x},{y}"
        case Segment(first, second):
            offense = state.game.seat_name(state.offense)
            return (f"scores {gain(state, action)} for {offense} "
                    f"({label(first)} has {state.degree[first]}, {label(second)} has {state.degree[second]})")
    raise ValueError(f"{action!r} is not a hubs action")


#: the widest line under the plot
NOTE_CHARS = 80


def short_of_two(counts: list[int]) -> str:
    """Which dots still need segments (a round ends when none does, HB-5): by label while the
    list fits a line, else how many."""
    needing = [[label(k) for k, n in enumerate(counts) if n == count] for count in (0, 1)]
    said = "Short of two segments: " + "; ".join(
        f"{' '.join(names)} ({count})" for count, names in enumerate(needing) if names) + "."
    if len(said) <= NOTE_CHARS:
        return said
    return (f"Short of two segments: {plural(len(needing[0]), 'dot')} with none, "
            f"{plural(len(needing[1]), 'dot')} with one.")


def render(state: HubsState) -> RenderableType:
    """A title line (round, roles, whose move, score), the sheet plotted one text row per
    lattice row with its axes, and a few lines on what to type and what the moves score.
    Fits an 80x24 terminal with the moves told and the prompt under it."""
    g = state.game
    dots, segments, old = state_sheet(state)
    view, plot = state_plot(state)
    score = f"score {state.totals[0]}-{state.totals[1]}"
    if state.is_terminal():
        title = f"The match is over, {score}; this was the sheet of round {state.round}, the last."
    elif old:
        done = state.last_round
        assert done is not None  # a finished round's sheet is shown with its result
        title = (f"Round {state.round} is over: {g.seat_name(done.offense)} scored {done.points}. "
                 f"Round {state.round + 1} starts on a fresh sheet; {score}.")
    else:
        doing = (f"places dot {label(len(dots))} ({len(dots) + 1} of {g.dots})" if state.placing
                 else "draws a segment")
        title = (f"Round {state.round + 1}/{g.rounds}, {g.seat_name(state.offense)} on offense: "
                 f"{g.seat_name(state.current_player)} {doing}; {score}")
    parts: list[RenderableType] = [Text(title, "bold")]
    sheet = Text()
    for row in plot:
        for ch, style in row:
            sheet.append(ch, STYLES[style])
        sheet.append("\n")
    sheet.rstrip()
    parts.append(sheet)
    notes: list[str] = []
    if not state.is_terminal() and state.placing:
        notes.append(f"Type X,Y to place a dot: x runs 0..{g.width - 1} across, y 0..{g.height - 1} up.")
    elif not state.is_terminal():
        notes.append(short_of_two(segment_counts(dots, segments)))
        offense = g.seat_name(state.offense)
        worth = sorted({gain(state, a) for a in state.legal_actions() if isinstance(a, Segment)})
        scores = f"{worth[0]}" if len(worth) == 1 else f"{worth[0]} to {worth[-1]}"
        notes.append(f"Type a-b to draw a segment: {len(state.legal_actions())} can be drawn, "
                     f"scoring {scores} for {offense}.")
    if not view.whole(g.width, g.height):
        notes.append(f"Shown: x {view.x0}..{view.x1}, y {view.y0}..{view.y1} of the {g.width}x{g.height} sheet;"
                     " dots beyond sit on the frame.")
    for note in notes:
        parts.append(Text(note))
    return Group(*parts)
