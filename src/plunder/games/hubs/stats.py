"""Hubs statistics for ``plunder simulate`` and the lab: the game's :class:`Observer`.

Every figure follows from the match's score sheet, the finished rounds a position keeps
(``HubsState.history``: the picture, the narration and the score's breakdown read it too).
"""

from __future__ import annotations

from ...core.capabilities import EndObserver
from .rules import HubsState


class HubsObserver(EndObserver[HubsState]):
    """Reads the figures of a finished match off its score sheet."""

    def stats(self, final: HubsState) -> dict[str, float | list[float]]:
        """Offense points per round by seat, points conceded on defense, round shapes, segments drawn."""
        done = final.history
        if not done:
            return {}
        per_seat_off: list[list[int]] = [[], []]
        for r in done:
            per_seat_off[r.offense].append(r.points)

        def mean(xs: list[int]) -> float:
            return sum(xs) / len(xs) if xs else 0.0

        return {
            "offense_points_per_round": [mean(per_seat_off[0]), mean(per_seat_off[1])],
            "conceded_per_defense_round": [mean(per_seat_off[1]), mean(per_seat_off[0])],
            "segments_per_round": mean([r.segments for r in done]),
            "stalled_rounds": float(sum(r.stalled for r in done)),
            "busiest_dot": mean([r.busiest for r in done]),
            # the match's length: dots are fixed by the parameters, segments are what varies
            "segments": float(sum(r.segments for r in done)),
        }
