"""What Pirates' lab report adds: each agent's score as the seed measures it (median and
quantiles: a few rich voyages would carry a mean), how often the voyage ends in retirement or
drowning, when voyages end, and booty buried.

The seed names no win, only a score to beat ("try to beat your own record"); the report's win
rate is the goal of a ruling (PR-14) and says so.
"""

from __future__ import annotations

from ...core.figures import ReportFigures, Flagged, GameStat, Histogram, Length, Scores, Sentence, Spread

#: the report's Pirates figures
FIGURES = ReportFigures(
    length=Length("turns", "turns"),
    sentences=(
        Sentence("With the {agent} agent the final score (the seed's own measure) has {score}; the ship drowns "
                 "in {drowned} of games and the captain retires in the others; booty buried has {buried}.",
                 {"score": Spread(Scores()), "drowned": Flagged(GameStat("drowned")),
                  "buried": Spread(GameStat("buried"))}, per_agent=True),
    ),
    charts=(
        Histogram("end_turn", "Turn of drowning or retirement", "Turn the voyage ends", "turn",
                  {"drowned": GameStat("turns", when="drowned"),
                   "retired": GameStat("turns", when="drowned", is_set=False)}),
        Histogram("buried", "Booty buried", "Booty buried", "booty", by_agent=GameStat("buried")),
    ),
    win="the goal score (the goal parameter, a ruling: PR-14; the seed names no win, only a score to beat)",
)
