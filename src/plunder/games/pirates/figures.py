"""What Pirates' lab report adds: how often the ship drowns, when voyages end, and booty buried."""

from __future__ import annotations

from ...core.figures import Figures, Flagged, GameStat, Histogram, Length, Mean, SeatScore, Sentence

#: the report's Pirates figures
FIGURES = Figures(
    length=Length("turns", "turns"),
    sentences=(
        Sentence("The ship drowns in {drowned} of games; the others retire. Booty buried: mean {buried:.1f}; "
                 "score: mean {score:.1f}.",
                 {"drowned": Flagged(GameStat("drowned")), "buried": Mean(GameStat("buried")),
                  "score": Mean(SeatScore(0))}),
    ),
    charts=(
        Histogram("end_turn", "Turn of drowning or retirement", "Turn the voyage ends", "turn",
                  {"drowned": GameStat("turns", when="drowned"),
                   "retired": GameStat("turns", when="drowned", is_set=False)}),
        Histogram("buried", "Booty buried", "Booty buried", "booty", by_agent=GameStat("buried")),
    ),
)
