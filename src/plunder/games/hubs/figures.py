"""What Hubs' lab report adds: points a round each agent scores on offense and concedes on defense."""

from __future__ import annotations

from ...core.figures import Bars, ReportFigures, Length, Mean, SeatStat, Sentence

#: each agent's mean points a round by role
_ROLES = {"on offense": Mean(SeatStat("offense_points_per_round")),
          "conceded on defense": Mean(SeatStat("conceded_per_defense_round"))}

#: the report's Hubs figures; its length counts segments drawn over the match (the dots are fixed by the parameters)
FIGURES = ReportFigures(
    length=Length("segments", "segments drawn"),
    sentences=(
        Sentence("The {agent} agent scores {offense:.1f} points a round on offense and concedes {defense:.1f} on "
                 "defense.", {"offense": _ROLES["on offense"], "defense": _ROLES["conceded on defense"]},
                 per_agent=True),
    ),
    charts=(Bars("roles", "Points per round by role", "Points per round by role", "points per round", _ROLES),),
)
