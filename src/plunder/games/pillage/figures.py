"""What Pillage's lab report adds: the first seat's margin and the boxes each agent captures by kind."""

from __future__ import annotations

from ...core.figures import Bars, ReportFigures, Histogram, Length, Margin, Mean, SeatStat, Sentence, Sum

#: the kinds of box content, as the game's statistics name them (``boxes_KIND``)
BOX_KINDS = ("doubloons", "commodity", "modifier")
#: each agent's mean boxes a game by kind
_BOXES = {k: Mean(SeatStat(f"boxes_{k}")) for k in BOX_KINDS}

#: the report's Pillage figures
FIGURES = ReportFigures(
    length=Length("turns", "turns"),
    sentences=(
        Sentence("The first seat's margin (its score less the second's) averages {margin:+.1f}.",
                 {"margin": Mean(Margin(0, 1))}),
        Sentence("The {agent} agent captures {boxes:.1f} boxes a game: "
                 + ", ".join(f"{{{k}:.1f}} {k}" for k in BOX_KINDS) + ".",
                 {"boxes": Sum(tuple(_BOXES.values())), **_BOXES}, per_agent=True),
    ),
    charts=(
        Histogram("margin", "Score margin of the first seat", "Margin", "score difference",
                  {"seat 1 − seat 2": Margin(0, 1)}),
        Bars("boxes", "Boxes captured per agent by kind of content (mean a game)", "Boxes captured by kind", "boxes",
             _BOXES, stacked=True),
    ),
)
