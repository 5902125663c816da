"""What Profiteer's lab report adds: the designer's counts of cards held at the end, and how games end."""

from __future__ import annotations

from ...core.figures import AtLeast, Bars, ReportFigures, GameStat, Length, Mean, Scores, Sentence, Shares

#: the designer's counts: cards held at the end (the rules' target is 26)
LEVELS = (24, 26, 40)
#: the game statistics naming how a game ended, one set in each game
ENDINGS = ("end_unequal", "end_declined", "end_empty_side", "end_max_rounds")

#: the report's Profiteer figures
FIGURES = ReportFigures(
    length=Length("passes", "passes"),
    sentences=(
        Sentence("With the {agent} agent, " + ", ".join(f"{{reach{lv}}} reach {lv} cards" for lv in LEVELS)
                 + " (cards held at the end).",
                 {f"reach{lv}": AtLeast(Scores(), lv) for lv in LEVELS}, per_agent=True),
    ),
    charts=(
        Shares("reaching", "Share of games reaching 24, 26 and 40 cards (the designer's counts)",
               "Cards held at the end", "share of games", {f"≥ {lv} cards": AtLeast(Scores(), lv) for lv in LEVELS}),
        Bars("endings", "How games end (share of games)", "How games end", "share of games",
             {k.removeprefix("end_"): Mean(GameStat(k)) for k in ENDINGS}, by="value"),
    ),
)
