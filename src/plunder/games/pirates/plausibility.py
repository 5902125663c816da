"""Whether a stored Pirates voyage could have been sailed (``GameEntry.study.plausibility``).

What the rules bound, read from the score and the observer's statistics (:mod:`.stats`): the
score is the tracks at the end, ship value x crew + buried x aboard x notoriety + turns
completed, a shipless pirate's ship counting 0 (PR-10), and decides the return against
``goal`` (PR-14); the turns completed are 1 to ``turns`` (PR-10); no track is below zero
(PR-6), the ship is a coin value 0-5 or none, its crew at most what it can carry (PR-9), the
booty aboard at most the hold (PR-8); notoriety rises by one a fight won and never otherwise
(PR-6), so it is at most the fights won.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.plausibility import StatReader, figure, returns_reason
from . import tables as T


def plausibility(game: Any, returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
    """Why a stored voyage of ``game`` could not have ended with ``returns``, ``scores`` and the
    statistics ``stats`` (empty when it could)."""
    score = scores[0]
    reasons = returns_reason(returns, [1.0 if score >= game.goal else -1.0], scores)
    read = StatReader(stats, 1)
    turns = read.game("turns", 1, game.turns)
    ship = read.game("ship", T.NO_SHIP, len(T.SHIP_NAMES) - 1)
    crew = read.game("crew", 0, max(T.MAX_CREW))
    notoriety = read.game("notoriety")
    aboard = read.game("aboard", 0, T.HOLD)
    buried = read.game("buried")
    read.game("drowned", 0, 1)
    won = read.game("combats_won")
    for name in ("combats_lost", "standoffs", "sightings", "booty_lost"):
        read.game(name)
    if ship is not None and ship >= 0 and crew is not None and crew > T.MAX_CREW[int(ship)]:
        reasons.append(f"{figure(crew)} crew on a {T.SHIP_NAMES[int(ship)]}, which carries {T.MAX_CREW[int(ship)]}")
    if notoriety is not None and won is not None and notoriety > won:
        reasons.append(f"notoriety {figure(notoriety)} after {figure(won)} fights won, one a win")
    if turns is not None and ship is not None and crew is not None and notoriety is not None \
            and aboard is not None and buried is not None:
        made = max(ship, 0) * crew + buried * aboard * notoriety + turns
        if made != score:
            reasons.append(f"a score of {figure(score)}, the tracks at the end make {figure(made)}")
    return reasons + read.wrong
