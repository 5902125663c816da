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
from ...core.game import Action, Game, State
from ...core.params import Param, parse_real
from .cards import cards_of, rank
from .rules import BALANCE, END, GIVE, PASS, SWITCH, SWITCH_A, SWITCH_B, ProfiteerState


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


def switch_options(state: ProfiteerState) -> list[tuple[int, int]]:
    """One switch per (side, rank) the profiteer can make, using the lowest suit, with its rank.

    Suits never matter (PF-1), so equal-rank switches are the same move. Cards of one rank
    are 4 adjacent bits of the resource set, so this walks ranks, not cards.
    """
    out: list[tuple[int, int]] = []
    res = state.res
    for base, up in ((SWITCH_A, state.up_a), (SWITCH_B, state.up_b)):
        for r in range(rank(up) + 1, 13):
            nib = res >> (4 * r) & 15
            if nib:
                out.append((base + 4 * r + (nib & -nib).bit_length() - 1, r))
    return out


def after_switch(state: ProfiteerState, action: Action) -> tuple[int, int]:
    """The ranks facing each other after ``action`` (``PASS`` or a switch)."""
    ra, rb = rank(state.up_a), rank(state.up_b)
    if action != PASS:
        assert isinstance(action, int)
        if action < SWITCH_B:
            ra = rank(action - SWITCH_A)
        else:
            rb = rank(action - SWITCH_B)
    return ra, rb


def imbalance(state: ProfiteerState) -> int:
    """Side A's cards off the table minus side B's (what the count compares, PF-6/PF-10)."""
    return state.pile_a() - state.pile_b()


def balance_choice(state: ProfiteerState) -> Action:
    """At the count: end while that locks in a win the gifts would lose, else give the lowest card.

    Gifts only cost cards and the total never falls otherwise, so balancing is worth it
    whenever the game is not already won, or stays won after the gifts (PF-6, PF-8).
    """
    need = abs(imbalance(state))
    total, target = state.total(), state.game.target
    if not state.gifting and total >= target > total - need:
        return END
    return GIVE + next(cards_of(state.res))


class GreedyAgent:
    """Keeps the sides level and makes wars when they are affordable, one flip at a time."""

    name = "greedy"

    def __init__(self, weights: Weights = Weights()) -> None:
        self.weights = weights

    def value(self, state: ProfiteerState, action: Action) -> float:
        """What ``action`` is worth at a flip, in cards (higher is better)."""
        ra, rb = after_switch(state, action)
        return self._score(self._context(state), ra, rb, action != PASS)

    def _context(self, state: ProfiteerState) -> tuple[int, int, float]:
        """What every choice at this flip shares: imbalance, cards at stake, cost of imbalance."""
        left = min(state.deck_a(), state.deck_b())
        level = self.weights.level * (1.0 + self.weights.late / (1.0 + left))
        return imbalance(state), (state.pot_a | state.pot_b).bit_count(), level

    def _score(self, context: tuple[int, int, float], ra: int, rb: int, switched: bool) -> float:
        d, pot, level = context
        if ra == rb:
            # a war round puts two more face-up cards in the pot, then one side takes it
            swing = pot + 2
            score = self.weights.war - level * 0.5 * (abs(d + swing) + abs(d - swing))
        else:
            score = -level * abs(d + (pot if ra > rb else -pot))
        return score - self.weights.spend if switched else score

    def choose(self, state: State, rng: random.Random) -> Action:
        """The best flip choice by :meth:`value`; at the count, :func:`balance_choice`."""
        assert isinstance(state, ProfiteerState)
        if state.phase == BALANCE:
            return balance_choice(state)
        if state.phase != SWITCH:
            return rng.choice(state.legal_actions())
        context = self._context(state)
        ra, rb = rank(state.up_a), rank(state.up_b)
        best: Action = PASS
        best_value = self._score(context, ra, rb, False)
        # options are in increasing rank per side: on equal value the cheaper card wins
        for action, r in switch_options(state):
            v = self._score(context, r, rb, True) if action < SWITCH_B else self._score(context, ra, r, True)
            if v > best_value + 1e-12:
                best, best_value = action, v
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
AGENTS = {
    "greedy": AgentFactory(greedy_agent, "keeps the sides level and makes wars when affordable",
                           _weight_params(Weights())),
    "profit": AgentFactory(greedy_agent, "greedy with weights tuned for profit (PROFIT_WEIGHTS)",
                           _weight_params(PROFIT_WEIGHTS)),
}


def candidates(state: State) -> list[Action]:
    """The distinct choices of a decision: suits never matter (PF-1), so one card per rank.

    A search need not try both ``switch A 9C`` and ``switch A 9H``; it tries each rank
    once, with the lowest suit, as :func:`switch_options` and the greedy agent do.
    """
    assert isinstance(state, ProfiteerState)
    if state.phase == SWITCH:
        return [PASS, *(a for a, _ in switch_options(state))]
    if state.phase == BALANCE:
        seen: set[int] = set()
        out: list[Action] = [] if state.gifting else [END]
        for c in cards_of(state.res):
            if rank(c) not in seen:
                seen.add(rank(c))
                out.append(GIVE + c)
        return out
    return state.legal_actions()
