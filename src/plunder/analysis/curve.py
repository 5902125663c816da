"""The value curve of an analysed game as a PNG (matplotlib, file-only backend).

One line per seat: its win probability after each decision where the analysis knows one,
else its margin in the game's units, drawn at the number of the position the move led to (the
move list's and the coach table's number). Where the values are estimates, a band of
:data:`~plunder.analysis.value.SURE_Z` standard errors each side shows how sure they are;
marked moves are dotted on the mover's line. With more than two seats one seat is drawn
strong and the others faint, so the lines stay apart to the eye.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed to draw a curve

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from .engine import GameAnalysis, MoveAnalysis  # noqa: E402
from .value import SURE_Z  # noqa: E402

#: dot colour of each mark worse than good
MARK_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#c00000", "unclear": "#8a8a8a"}
#: the opacity of a seat's line that is not the highlighted one (more than two seats)
FAINT = 0.25


def curve_png(result: GameAnalysis, highlight: int = 0) -> bytes:
    """The value curve of ``result`` per seat, as PNG bytes; with more than two seats, seat
    ``highlight`` is drawn strong and the others faint."""
    fig = curve_figure(result, highlight)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def curve_figure(result: GameAnalysis, highlight: int = 0) -> "plt.Figure":
    """The figure :func:`curve_png` draws (the caller closes it)."""
    by_wins = bool(result.moves) and all(m.wins is not None for m in result.moves)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    xs = [m.position for m in result.moves]
    crowded = len(result.record.players) > 2
    for seat, name in enumerate(result.record.players):
        strong = not crowded or seat == highlight
        ys = [(m.wins[seat] if by_wins and m.wins is not None else m.margins[seat]) for m in result.moves]
        errors = [_error(m, seat, by_wins) for m in result.moves]
        line, = ax.plot(xs, ys, linewidth=1.8 if strong else 1.0, alpha=1.0 if strong else FAINT,
                        label=f"{result.game.seat_name(seat)} ({name})", zorder=2 if strong else 1)
        if strong and any(errors):
            ax.fill_between(xs, [y - SURE_Z * e for y, e in zip(ys, errors)],
                            [y + SURE_Z * e for y, e in zip(ys, errors)], color=line.get_color(), alpha=0.18,
                            linewidth=0, label=None if _drawn(ax, "uncertainty") else "uncertainty")
        for mark, colour in MARK_COLOURS.items():
            marked = [(x, y) for m, x, y in zip(result.moves, xs, ys) if m.seat == seat and m.mark == mark]
            if marked and strong:
                dx, dy = zip(*marked)
                ax.scatter(dx, dy, color=colour, s=18, zorder=3, label=None if _drawn(ax, mark) else mark)
    if by_wins:
        ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("position (after move)")
    ax.set_ylabel("win probability" if by_wins else f"margin ({result.units})")
    ax.set_title(f"{result.game.title}: value after each move")
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def _error(move: MoveAnalysis, seat: int, by_wins: bool) -> float:
    """The standard error of the curve's value of ``seat`` after ``move`` (0 where exact)."""
    errors = move.win_errors if by_wins else move.margin_errors
    return errors[seat] if errors is not None else 0.0


def _drawn(ax: "plt.Axes", label: str) -> bool:
    """Whether the legend already has ``label`` (each mark is named once)."""
    return label in ax.get_legend_handles_labels()[1]
