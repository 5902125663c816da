"""The rating model shared by the server's ratings (:mod:`.ratings`) and the measurement of the
AI levels' fixed ratings (``bench/ai_ratings.py``): OpenSkill's Plackett-Luce model, which
rates free-for-all results of any number of seats (Crossroads seats 2-6), and the order of
finish a game's end gives it.

Ratings are on a scale where a newcomer is ``MU`` with uncertainty ``SIGMA``; what players are
shown is the mean, :func:`shown` (as lichess shows its rating), and :mod:`.ratings` marks it
provisional ("?") while the uncertainty is large. The mean rather than a conservative
mu - 3 sigma, because the AI levels' sigmas are fixed as measured: a player whose sigma fell
below theirs would show above a level that still beats them.
"""

from __future__ import annotations

from typing import Sequence

from openskill.models import PlackettLuce

#: a newcomer's mean rating
MU = 1500.0
#: a newcomer's uncertainty (OpenSkill's default ratio of mu to sigma, 3)
SIGMA = 500.0
#: the model every rating goes through (beta and tau are OpenSkill's defaults for this scale)
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)


def shown(mu: float) -> int:
    """The rating shown to players: the mean ``mu``, rounded (a newcomer shows :data:`MU`)."""
    return round(mu)


def ranks(returns: Sequence[float], scores: Sequence[float]) -> list[int]:
    """Each seat's place at a game's end (0 = first; tied seats share a place): by the game's
    returns (win, tie, loss), then by its points (among Crossroads' losers, more gold is a
    better finish)."""
    keys = list(zip(returns, scores))
    return [sum(other > key for other in keys) for key in keys]


def rate(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """The seats' (mu, sigma) after a game they finished in ``places`` (:func:`ranks`), from
    their (mu, sigma) before: one update of :data:`MODEL`, each seat a team of one."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]
