"""Whether a stored Pillage game could have been played (``GameEntry.study.plausibility``).

What the rules bound, read from the scores and the observer's statistics (:mod:`.stats`): the
game ends with every box captured (PP-7), each by one seat and holding one thing (PP-1), so
the boxes captured add up to the board's, and by kind to the contents a fixed board holds; a
turn ends only on a line that captures nothing, and the last line captures, so there are at
most as many turns as lines left to draw (PP-2, PP-4); no score is larger than what the
board's contents could give (:func:`.contents.score_bound`, PP-5, PP-7); the higher score
wins (PP-7).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.plausibility import StatReader, figure, higher_wins, returns_reason
from .contents import Commodity, Doubloons, Modifier

#: the statistic of boxes captured of each kind of content (:mod:`.stats`), and the kind in words
KINDS = {"boxes_doubloons": (Doubloons, "doubloon"), "boxes_commodity": (Commodity, "commodity"),
         "boxes_modifier": (Modifier, "modifier")}


def plausibility(game: Any, returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
    """Why a stored game of ``game`` could not have ended with ``returns``, ``scores`` and the
    statistics ``stats`` (empty when it could)."""
    most = game.score_bound
    reasons = [f"a score of {figure(s)}, beyond the {most} either way the board's contents could give"
               for s in scores if abs(s) > most]
    reasons += returns_reason(returns, higher_wins(scores), scores)
    boxes = game.board.num_boxes
    read = StatReader(stats, 2)
    captured = read.seat("boxes", 0, boxes)
    if captured is not None and sum(captured) != boxes:
        reasons.append(f"{figure(sum(captured))} boxes captured, the board has {boxes}")
    held = {name: read.seat(name, 0, boxes) for name in KINDS}
    for name, (kind, words) in KINDS.items():
        kept = held[name]
        if kept is not None and game.fixed is not None and sum(kept) != (has := sum(type(c) is kind for c in game.fixed)):
            reasons.append(f"{figure(sum(kept))} {words} boxes captured, the board has {has}")
    by_kind = [h for h in held.values() if h is not None]
    if captured is not None and len(by_kind) == len(KINDS):
        for seat, total in enumerate(captured):
            if sum(h[seat] for h in by_kind) != total:
                reasons.append(f"seat {seat + 1}'s boxes by kind do not add up to its {figure(total)} boxes")
    lines = game.num_edges - len(game.board.predrawn)
    read.game("turns", 1, lines)
    return reasons + read.wrong
