"""``plunder tournament``: every mix of seats, then which agents would take over a population.

Axelrod's tournaments of the prisoner's dilemma played every strategy against every other; here
every multiset of agents that fills a table of ``k`` seats (for each player count asked) plays
the same seeds, seats rotated, and each agent earns its *win share* in each mix: a win counts 1,
a tie at the top is split among the tied. The round-robin score of an agent is its mean win share
over the mixes it sits in (1/k is an even share).

The replicator view (Taylor and Jonker 1978, the "ecological" tournament of Axelrod 1984) asks
what happens to a population whose tables are drawn at random from it: an agent's fitness is
its expected win share at a table whose other ``k - 1`` seats are drawn from the population's
shares, and each generation every agent's share grows in proportion to its fitness,
``x'_a = x_a f_a(x) / sum_b x_b f_b(x)``. Agents whose share keeps growing would take over.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from ..core.errors import ParameterError
from ..core.game import Game
from ..core.registry import load_game
from ..backends import Backend
from .measures import win_shares
from .run import collect
from .store import Row, Run, Store

Mix = tuple[str, ...]


@dataclass
class Table:
    """The games of one mix of agents and what each agent earned in them."""

    mix: Mix
    rows: list[Row]

    def payoff(self, agent: str) -> float:
        """``agent``'s mean win share per seat in this mix (0 if it does not sit here)."""
        total = n = 0.0
        for r in self.rows:
            shares = win_shares(r)
            for s, a in enumerate(r.seats):
                if a == agent:
                    total += shares[s]
                    n += 1
        return total / n if n else 0.0


def mixes(agents: Sequence[str], players: int) -> list[Mix]:
    """Every multiset of ``players`` seats drawn from ``agents`` (with repetition), in a fixed order."""
    return list(itertools.combinations_with_replacement(agents, players))


def seated(game_id: str, params: dict[str, str], players: int) -> Game:
    """The game of ``params`` at ``players`` seats, or a :class:`ParameterError` if it cannot seat them."""
    game = load_game(game_id, **{**params, **({"players": str(players)} if "players" in params else {})})
    if game.num_players != players:
        raise ParameterError(f"{game_id} is played by {game.num_players}, not {players}: it has no 'players' "
                             "parameter to change")
    return game


def play(store: Store, game_id: str, params: dict[str, str], agents: Sequence[str], players: int, games: int,
         seed: int = 0, backend: Backend | None = None, progress: Callable[[int], None] | None = None
         ) -> list[Table]:
    """Every mix of ``players`` seats over ``agents``, ``games`` games each (seeds from ``seed``,
    seats rotated); games already in ``store`` are read back, not played again."""
    game = seated(game_id, params, players)
    return [Table(mix, collect(store, Run(game_id, dict(game.params), mix, seed), games, progress=progress,
                               backend=backend)) for mix in mixes(agents, players)]


def round_robin(tables: Sequence[Table], agents: Sequence[str]) -> dict[str, float]:
    """Each agent's mean win share over the mixes it sits in (Axelrod's round-robin score)."""
    out = {}
    for a in agents:
        mine = [t.payoff(a) for t in tables if a in t.mix]
        out[a] = sum(mine) / len(mine) if mine else 0.0
    return out


def fitness(tables: Sequence[Table], agents: Sequence[str], shares: Sequence[float]) -> list[float]:
    """Each agent's expected win share at a table whose other seats are drawn from ``shares``."""
    by_mix = {t.mix: t for t in tables}
    players = len(tables[0].mix)
    weight = dict(zip(agents, shares))
    out = []
    for a in agents:
        f = 0.0
        for others in itertools.combinations_with_replacement(agents, players - 1):
            counts = Counter(others)
            # multinomial chance of drawing these other seats from the population
            p = math.factorial(players - 1) / math.prod(math.factorial(c) for c in counts.values())
            p *= math.prod(weight[b] ** c for b, c in counts.items())
            if p:
                f += p * by_mix[tuple(sorted((a, *others), key=list(agents).index))].payoff(a)
        out.append(f)
    return out


def replicator(tables: Sequence[Table], agents: Sequence[str], generations: int,
               start: Sequence[float] | None = None) -> list[list[float]]:
    """Population shares of ``agents`` over ``generations`` of the replicator dynamics, from even
    shares (or ``start``); the first row is the start."""
    shares = list(start) if start is not None else [1.0 / len(agents)] * len(agents)
    history = [shares]
    for _ in range(generations):
        f = fitness(tables, agents, shares)
        mean = sum(x * fx for x, fx in zip(shares, f))
        if mean <= 0:
            break  # nobody can win any more: the population stays as it is
        shares = [x * fx / mean for x, fx in zip(shares, f)]
        history.append(shares)
    return history


@dataclass
class Standing:
    """One player count's tournament: its tables, the round-robin scores and the replicator's history."""

    players: int
    tables: list[Table]
    scores: dict[str, float]
    history: list[list[float]]


def standing(tables: list[Table], agents: Sequence[str], generations: int) -> Standing:
    """The round-robin scores and the replicator history of one player count's tables."""
    return Standing(len(tables[0].mix), tables, round_robin(tables, agents), replicator(tables, agents, generations))


def words(s: Standing, agents: Sequence[str]) -> list[str]:
    """The plain-words summary of one player count."""
    games = sum(len(t.rows) for t in s.tables)
    ranked = sorted(agents, key=lambda a: -s.scores[a])
    final = dict(zip(agents, s.history[-1]))
    takers = [a for a in agents if final[a] >= 0.5]
    out = [f"{s.players} players: {len(s.tables)} mixes of seats, {games} games. Round-robin win share (even share "
           f"{1 / s.players:.0%}): " + ", ".join(f"{a} {s.scores[a]:.0%}" for a in ranked) + "."]
    fate = ", ".join(f"{a} {final[a]:.0%}" for a in sorted(agents, key=lambda a: -final[a]))
    if takers:
        verdict = f"{takers[0]} takes over"
    else:
        verdict = "no agent takes over; they share the population"
    out.append(f"From even shares, after {len(s.history) - 1} generations of the replicator dynamics: {fate}: "
               f"{verdict}.")
    return out


def markdown(standings: Sequence[Standing], agents: Sequence[str]) -> str:
    """Every mix's win shares, per player count, as Markdown tables."""
    lines: list[str] = []
    for s in standings:
        lines += [f"### {s.players} players", "", "| mix | games | " + " | ".join(agents) + " |",
                  "|---|---|" + "---|" * len(agents)]
        for t in s.tables:
            cells = [f"{t.payoff(a):.0%}" if a in t.mix else "" for a in agents]
            lines.append(f"| {', '.join(t.mix)} | {len(t.rows)} | " + " | ".join(cells) + " |")
        lines.append("| round robin | | " + " | ".join(f"{s.scores[a]:.0%}" for a in agents) + " |")
        lines += ["", *words(s, agents), ""]
    return "\n".join(lines)
