"""Hubs statistics for ``plunder simulate``, the lab and the score's breakdown: the game's
:class:`Observer`.

A position keeps the round just finished (``HubsState.last_round``, which the picture and the
narration tell), never the rounds before it: the observer, shown every move of the match,
notes each round's result as it ends. The statistics are averages over those rounds; the
breakdown tells them one by one (``breakdown_figures``, which ``simulate`` and the lab leave out).
"""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from .actions import HubsAction
from .rules import HubsState, RoundResult


class HubsObserver:
    """Notes each round's result as it ends and gives the match's figures from them."""

    def __init__(self, game: Game[Any]) -> None:  # every observer is made of its game; Hubs' needs nothing of it
        #: the finished rounds' results, in order
        self.rounds: list[RoundResult] = []

    def see(self, before: HubsState, action: HubsAction, after: HubsState) -> None:
        """Note the result of the round ``action`` ended, if it ended one (HB-5)."""
        if after.round > before.round:
            assert after.last_round is not None
            self.rounds.append(after.last_round)

    def stats(self, final: HubsState) -> dict[str, float | list[float]]:
        """Offense points per round by seat, points conceded on defense, round shapes, segments drawn."""
        done = self.rounds
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

    def breakdown_figures(self, final: HubsState) -> dict[str, float | list[float]]:
        """The statistics, and each finished round's points, segments, busiest dot and stall
        (1 or 0), one number per round in order, for the breakdown's line per round."""
        rounds = self.rounds
        return {**self.stats(final),
                "round_points": [float(r.points) for r in rounds],
                "round_segments": [float(r.segments) for r in rounds],
                "round_busiest": [float(r.busiest) for r in rounds],
                "round_stalled": [float(r.stalled) for r in rounds]}
