"""Whether a stored Profiteer game could have been played (``GameEntry.study.plausibility``).

What the rules bound, read from the score and the observer's statistics (:mod:`.stats`): the
profiteer's count is a number of the deck's 52 cards (PF-1, PF-8) and decides the return
(PF-8); the passes are at most ``max_rounds``, and a game that ended at the cap ended on its
last pass (PF-8); a game ends for exactly one reason; every war starts from a flip that ties,
with a war round of its own, a flip (and with ``war_switch`` a war round) allows one switch
(PF-3, PF-13), a reshuffle comes at the start of a war round, and a war round
turns over at most one face-down card a side (PF-4, PF-5).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.plausibility import StatReader, figure, returns_reason, whole
from .cards import FULL_DECK
from .flow import TALLIES

#: the cards of the deck (PF-1)
DECK = FULL_DECK.bit_count()
#: the statistics saying why the game ended, one of them 1 (:func:`.stats.final_stats`)
ENDINGS = ("end_unequal", "end_declined", "end_empty_side", "end_max_rounds")


def plausibility(game: Any, returns: Sequence[float], scores: Sequence[float], stats: Mapping[str, Any]) -> list[str]:
    """Why a stored game of ``game`` could not have ended with ``returns``, ``scores`` and the
    statistics ``stats`` (empty when it could)."""
    count = scores[0]
    if not whole(count) or not 0 <= count <= DECK:
        return [f"{figure(count)} cards counted, the deck has {DECK}"]
    reasons = returns_reason(returns, [1.0 if count >= game.target else -1.0], scores)
    read = StatReader(stats, 1)
    passes = read.game("passes", 1, game.max_rounds)
    ends = [e for e in (read.game(name, 0, 1) for name in ENDINGS) if e is not None]
    tally = {name: read.game(name) for name in TALLIES}
    if len(ends) == len(ENDINGS) and sum(ends) != 1:
        reasons.append(f"the game ended for {figure(sum(ends))} reasons, not one")
    if passes is not None and read.stats.get("end_max_rounds") == 1 and passes != game.max_rounds:
        reasons.append(f"it ended at the pass cap after {figure(passes)} passes, the cap is {game.max_rounds}")
    for few, many, why in (("wars", "flips", "every war starts from a flip"),
                           ("wars", "war_rounds", "every war has a war round"),
                           ("reshuffles", "war_rounds", "a reshuffle starts a war round")):
        low, high = tally[few], tally[many]
        if low is not None and high is not None and low > high:
            reasons.append(f"{figure(low)} {few} but {figure(high)} {many}: {why}")
    switches, flips, rounds = tally["switches"], tally["flips"], tally["war_rounds"]
    if switches is not None and flips is not None and rounds is not None:
        chances = flips + (rounds if game.war_switch else 0)  # one switch a flip (PF-3), a war round's too (PF-13)
        if switches > chances:
            reasons.append(f"{figure(switches)} switches in {figure(chances)} flips, at most one a flip")
    down = tally["war_cards"]
    if down is not None and rounds is not None and down > 2 * rounds:
        reasons.append(f"{figure(down)} face-down cards in {figure(rounds)} war rounds, at most 2 a round")
    return reasons + read.wrong
