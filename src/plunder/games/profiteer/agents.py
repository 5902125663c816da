"""Profiteer agents: ``greedy`` (keep the sides level, make wars when affordable) and ``profit``.

Both read only the public position; neither looks at chance. They score each choice at a
flip by what it does to the profiteer (a war brings face-down cards, PF-4) and to the
balance of the sides (an uneven count must be paid for with gifts or ends the game, PF-6),
and they spend the cheapest resource that does the job.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from ...core.params import Param, parse_real
from .actions import END, GIVES, KEEP, ProfiteerAction, Side, Switch
from .cards import rank, ranks_of
from .flow import Phase
from .rules import ProfiteerState


@dataclass(frozen=True)
class Weights:
    """How a greedy profiteer values things, in cards.

    ``war`` is what a war is worth (about two face-down cards a round); ``level`` the cost
    of each card of imbalance between the sides; ``spend`` the cost of using up a resource;
    ``late`` raises the imbalance cost as the pass runs out of flips to mend it with.
    """

    war: float = 2.2
    level: float = 0.5
    spend: float = 0.3
    late: float = 0.0


def after_switch(state: ProfiteerState, action: ProfiteerAction) -> tuple[int, int]:
    """The ranks facing each other after ``action`` (``Keep`` or a switch)."""
    rank_a, rank_b = rank(state.face_up_a), rank(state.face_up_b)
    match action:
        case Switch(side=Side.A, rank=r):
            rank_a = r
        case Switch(rank=r):
            rank_b = r
    return rank_a, rank_b


def imbalance(state: ProfiteerState) -> int:
    """Side A's cards off the table minus side B's (what the count compares, PF-6/PF-10)."""
    return state.pile_a() - state.pile_b()


def balance_choice(state: ProfiteerState) -> ProfiteerAction:
    """At the count: end while that locks in a win the gifts would lose, else give the lowest card.

    Gifts only cost cards and the total never falls otherwise, so balancing is worth it
    whenever the game is not already won, or stays won after the gifts (PF-6, PF-8).
    """
    need = abs(imbalance(state))
    total, target = state.total(), state.game.target
    if not state.balancing and total >= target > total - need:
        return END
    return GIVES[next(ranks_of(state.resources))]


class GreedyAgent:
    """Keeps the sides level and makes wars when they are affordable, one flip at a time."""

    name = "greedy"

    def __init__(self, weights: Weights = Weights()) -> None:
        self.weights = weights

    def value(self, state: ProfiteerState, action: ProfiteerAction) -> float:
        """What ``action`` is worth at a flip, in cards (higher is better)."""
        rank_a, rank_b = after_switch(state, action)
        return self._score(self._context(state), rank_a, rank_b, action != KEEP)

    def _context(self, state: ProfiteerState) -> tuple[int, int, float]:
        """What every choice at this flip shares: imbalance, cards at stake, cost of imbalance."""
        left = min(state.deck_a(), state.deck_b())
        level = self.weights.level * (1.0 + self.weights.late / (1.0 + left))
        return imbalance(state), (state.stake_a | state.stake_b).bit_count(), level

    def _score(self, context: tuple[int, int, float], rank_a: int, rank_b: int, switched: bool) -> float:
        lead, stake, level = context
        if rank_a == rank_b:
            # a war round puts two more face-up cards at stake, then one side takes them all
            swing = stake + 2
            score = self.weights.war - level * 0.5 * (abs(lead + swing) + abs(lead - swing))
        else:
            score = -level * abs(lead + (stake if rank_a > rank_b else -stake))
        return score - self.weights.spend if switched else score

    def choose(self, state: ProfiteerState, rng: random.Random) -> ProfiteerAction:
        """The best flip choice by :meth:`value`; at the count, :func:`balance_choice`."""
        if state.phase == Phase.BALANCE:
            return balance_choice(state)
        if state.phase != Phase.SWITCH:
            return rng.choice(state.legal_actions())
        context = self._context(state)
        rank_a, rank_b = rank(state.face_up_a), rank(state.face_up_b)
        best: ProfiteerAction = KEEP
        best_value = self._score(context, rank_a, rank_b, False)
        # switches come in increasing rank per side: on equal value the cheaper card wins
        for switch in state.switches_possible():
            if switch.side == Side.A:
                v = self._score(context, switch.rank, rank_b, True)
            else:
                v = self._score(context, rank_a, switch.rank, True)
            if v > best_value + 1e-12:
                best, best_value = switch, v
        return best


#: weights found by searching (bench/profiteer_tune.py) and checked on fresh seeds: resources
#: are dear, so it switches mostly to make wars and to mend the balance late in a pass
PROFIT_WEIGHTS = Weights(war=2.0, level=0.3, spend=1.5, late=2.0)


def _weight_params(base: Weights) -> tuple[Param, ...]:
    """The options of a greedy profiteer: its weights (:class:`Weights`), ``base``'s by default."""
    return (
        Param("war", f"{base.war:g}", parse_real(), "what a war is worth, in cards"),
        Param("level", f"{base.level:g}", parse_real(), "cost of each card of imbalance between the sides"),
        Param("spend", f"{base.spend:g}", parse_real(), "cost of using up a resource"),
        Param("late", f"{base.late:g}", parse_real(), "how much the imbalance cost grows as the pass runs out"),
    )


def greedy_agent(game: Game, options: AgentOptions) -> GreedyAgent:
    """A greedy profiteer with the weights ``options`` give (``greedy:war=2.2,level=0.5``)."""
    return GreedyAgent(Weights(war=options["war"], level=options["level"], spend=options["spend"],
                               late=options["late"]))


#: the agents of Profiteer
AGENTS: dict[str, AgentFactory[ProfiteerState]] = {
    "greedy": AgentFactory(greedy_agent, "keeps the sides level and makes wars when affordable",
                           _weight_params(Weights())),
    "profit": AgentFactory(greedy_agent, "greedy with weights tuned for profit (PROFIT_WEIGHTS)",
                           _weight_params(PROFIT_WEIGHTS)),
}
