"""Whether a stored Hubs match could have been played (``GameEntry.study.plausibility``).

What the rules bound, read from the scores and the observer's statistics (:mod:`.stats`): a
round of ``n`` dots is a planar straight-line drawing, so it has at most ``3n - 6`` segments
(one when ``n`` is 2, HB-2, HB-5) and no dot meets more than ``n - 1`` of them; a segment scores
the segments already at its ends (HB-4), so a round's points are the sum over its dots of
``d(d - 1)/2`` for a dot meeting ``d`` segments, at most ``n - 2`` a segment; each seat is on
offense in half the rounds and only the offense scores (HB-6), so a seat's total is its
offense points per round times half the rounds; the higher total wins (HB-6).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ...core.plausibility import StatReader, figure, higher_wins, returns_reason


def most_segments(dots: int) -> int:
    """The most segments a round on ``dots`` dots can have (HB-2, HB-5)."""
    return 3 * dots - 6 if dots >= 3 else 1


def plausibility(game: Any, returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
    """Why a stored match of ``game`` could not have ended with ``returns``, ``scores`` and the
    statistics ``stats`` (empty when it could)."""
    dots, rounds = game.dots, game.rounds
    cap = most_segments(dots) * rounds
    most = (dots - 2) * cap
    reasons = [f"a score of {figure(s)}, {rounds} rounds of {dots} dots give at most {most}"
               for s in scores if not 0 <= s <= most or not float(s).is_integer()]
    reasons += returns_reason(returns, higher_wins(scores), scores)
    read = StatReader(stats, 2)
    segments = read.game("segments", 0, cap)
    if segments is not None and sum(scores) > (dots - 2) * segments:
        reasons.append(f"scores of {figure(sum(scores))} from {figure(segments)} segments of {dots} dots, "
                       f"at most {dots - 2} a segment")
    per_round = read.game("segments_per_round", 0, most_segments(dots), whole_number=False)
    if segments is not None and per_round is not None and not math.isclose(per_round * rounds, segments):
        reasons.append(f"{figure(per_round)} segments a round in {rounds} rounds, but {figure(segments)} in all")
    read.game("stalled_rounds", 0, rounds)
    read.game("busiest_dot", 0, dots - 1, whole_number=False)
    offense = read.seat("offense_points_per_round", whole_number=False)
    if offense is not None:
        for seat, (points, total) in enumerate(zip(offense, scores)):
            if not math.isclose(points * rounds / 2, total, abs_tol=1e-9):
                reasons.append(f"seat {seat + 1} scored {figure(total)}, but {figure(points)} a round "
                               f"on offense in {rounds // 2} of the {rounds} rounds")
    return reasons + read.wrong
