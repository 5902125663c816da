"""The value curve of an analysed game as a PNG (matplotlib, file-only backend).

One line per seat: its win probability after each decision where the analysis knows one,
else its margin in the game's units; marked moves are dotted on the mover's line.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed to draw a curve

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from .engine import GameAnalysis  # noqa: E402

#: dot colour of each mark worse than good
MARK_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#c00000"}


def curve_png(result: GameAnalysis) -> bytes:
    """The value curve of ``result`` per seat, as PNG bytes."""
    by_wins = bool(result.moves) and all(m.wins is not None for m in result.moves)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    plies = [m.ply for m in result.moves]
    for seat, name in enumerate(result.record.players):
        ys = [(m.wins[seat] if by_wins and m.wins is not None else m.margins[seat]) for m in result.moves]
        ax.plot(plies, ys, linewidth=1.4, label=f"{result.game.seat_name(seat)} ({name})")
        for mark, colour in MARK_COLOURS.items():
            marked = [(m.ply, y) for m, y in zip(result.moves, ys) if m.seat == seat and m.mark == mark]
            if marked:
                xs, dots = zip(*marked)
                ax.scatter(xs, dots, color=colour, s=18, zorder=3,
                           label=None if _drawn(ax, mark) else mark)
    ax.set_xlabel("move")
    ax.set_ylabel("win probability" if by_wins else f"margin ({result.units})")
    ax.set_title(f"{result.game.title}: value after each move")
    ax.legend(fontsize=7, loc="best")
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _drawn(ax: "plt.Axes", label: str) -> bool:
    """Whether the legend already has ``label`` (each mark is named once)."""
    return label in ax.get_legend_handles_labels()[1]
