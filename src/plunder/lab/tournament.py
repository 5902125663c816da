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

Its verdict rests on a finite sample of games, so it comes with a bootstrap (Efron): the games
of every mix are drawn again with replacement :data:`RESAMPLES` times, the dynamics run on each
resample, and the verdict's *support* is the share of resamples that reach the same verdict;
every agent's final share and round-robin score gets the 2.5-97.5% range of its resamples.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from ..core.errors import ParameterError
from ..core.game import Game
from ..core.declaration import PLAYERS_PARAM
from ..core.registry import entry, load_game
from ..backends import Backend
from .measures import Share, quantile, win_shares
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
        return self.earned(agent).p

    def earned(self, agent: str) -> Share:
        """``agent``'s win shares over its seats in this mix, with their 95% interval (Wilson on the
        summed shares: a tie's share varies less than a whole win, so the interval errs wide)."""
        total, n = 0.0, 0
        for r in self.rows:
            shares = win_shares(r)
            for s, a in enumerate(r.seats):
                if a == agent:
                    total += shares[s]
                    n += 1
        return Share(total, n)


def mixes(agents: Sequence[str], players: int) -> list[Mix]:
    """Every multiset of ``players`` seats drawn from ``agents`` (with repetition), in a fixed order."""
    return list(itertools.combinations_with_replacement(agents, players))


def seated(game_id: str, params: dict[str, str], players: int) -> Game:
    """The game of ``params`` at ``players`` seats, or a :class:`ParameterError` if the game's
    declared seat range holds no such count; a range of several counts is chosen by the
    ``players`` parameter, which the registry checked gives each count."""
    declared = entry(game_id).declaration
    if players not in declared.seat_counts:
        raise ParameterError(f"{game_id} is played by {declared.seats_text()}, not {players}")
    ranged = declared.min_seats < declared.max_seats
    return load_game(game_id, **{**params, **({PLAYERS_PARAM: str(players)} if ranged else {})})


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


#: a mix's mean win share per seat of each agent in it
Payoffs = dict[Mix, dict[str, float]]


def payoffs(tables: Sequence[Table], agents: Sequence[str]) -> Payoffs:
    """Each mix's payoff to each of its agents (:meth:`Table.payoff`)."""
    return {t.mix: {a: t.payoff(a) for a in agents if a in t.mix} for t in tables}


def draws(agents: Sequence[str], players: int) -> list[tuple[Counter[str], float]]:
    """Every multiset of the other ``players - 1`` seats with its multinomial coefficient."""
    out = []
    for others in itertools.combinations_with_replacement(agents, players - 1):
        counts = Counter(others)
        out.append((counts, math.factorial(players - 1) / math.prod(math.factorial(c) for c in counts.values())))
    return out


def _fitness(pay: Payoffs, agents: Sequence[str], players: int, shares: Sequence[float],
             drawn: list[tuple[Counter[str], float]]) -> list[float]:
    """:func:`fitness` from payoffs, the draws of the other seats given."""
    weight = dict(zip(agents, shares))
    order = {a: k for k, a in enumerate(agents)}
    out = []
    for a in agents:
        f = 0.0
        for counts, coefficient in drawn:
            # the multinomial chance of drawing these other seats from the population
            p = coefficient * math.prod(weight[b] ** c for b, c in counts.items())
            if p:
                mix = tuple(sorted((a, *counts.elements()), key=order.__getitem__))
                f += p * pay[mix][a]
        out.append(f)
    return out


def fitness(tables: Sequence[Table], agents: Sequence[str], shares: Sequence[float]) -> list[float]:
    """Each agent's expected win share at a table whose other seats are drawn from ``shares``."""
    players = len(tables[0].mix)
    return _fitness(payoffs(tables, agents), agents, players, shares, draws(agents, players))


def replicator(tables: Sequence[Table], agents: Sequence[str], generations: int,
               start: Sequence[float] | None = None) -> list[list[float]]:
    """Population shares of ``agents`` over ``generations`` of the replicator dynamics, from even
    shares (or ``start``); the first row is the start."""
    return _replicate(payoffs(tables, agents), agents, len(tables[0].mix), generations, start)


def _replicate(pay: Payoffs, agents: Sequence[str], players: int, generations: int,
               start: Sequence[float] | None = None) -> list[list[float]]:
    """:func:`replicator` from payoffs."""
    drawn = draws(agents, players)
    shares = list(start) if start is not None else [1.0 / len(agents)] * len(agents)
    history = [shares]
    for _ in range(generations):
        f = _fitness(pay, agents, players, shares, drawn)
        mean = sum(x * fx for x, fx in zip(shares, f))
        if mean <= 0:
            break  # nobody can win any more: the population stays as it is
        shares = [x * fx / mean for x, fx in zip(shares, f)]
        history.append(shares)
    return history


def verdict(final: dict[str, float]) -> str:
    """The agent holding half the population or more at the end, or ``""``: none takes over."""
    return next((a for a, x in final.items() if x >= 0.5), "")


#: bootstrap resamples behind a tournament's verdict
RESAMPLES = 200
#: the share of resamples a verdict needs before the words call it settled
SETTLED = 0.95


@dataclass
class Bootstrap:
    """What the resamples say: the verdict's support and each agent's 95% range of final share and score."""

    resamples: int
    support: float
    final: dict[str, tuple[float, float]]
    scores: dict[str, tuple[float, float]]


def bootstrap(tables: Sequence[Table], agents: Sequence[str], generations: int, resamples: int = RESAMPLES,
              seed: int = 0) -> Bootstrap:
    """The replicator's verdict and the round-robin scores on ``resamples`` resamples of every mix's
    games (drawn with replacement, the same number per mix), from a fixed ``seed``."""
    rng = random.Random(seed)
    players = len(tables[0].mix)
    # per mix, per game: each agent's (win share, seats) in it
    earned = [[{a: (sum(w for w, b in zip(win_shares(r), r.seats) if b == a), r.seats.count(a)) for a in t.mix}
               for r in t.rows] for t in tables]
    target = verdict(dict(zip(agents, _replicate(payoffs(tables, agents), agents, players, generations)[-1])))
    same = 0
    finals: dict[str, list[float]] = {a: [] for a in agents}
    scores: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(resamples):
        pay: Payoffs = {}
        for t, games in zip(tables, earned):
            picked = [games[rng.randrange(len(games))] for _ in games] if games else []
            pay[t.mix] = {a: (sum(g[a][0] for g in picked) / max(1, sum(g[a][1] for g in picked))) for a in t.mix}
        final = dict(zip(agents, _replicate(pay, agents, players, generations)[-1]))
        same += verdict(final) == target
        for a in agents:
            finals[a].append(final[a])
            mine = [pay[t.mix][a] for t in tables if a in t.mix]
            scores[a].append(sum(mine) / len(mine) if mine else 0.0)
    return Bootstrap(resamples, same / resamples if resamples else 0.0,
                     {a: _range(v) for a, v in finals.items()}, {a: _range(v) for a, v in scores.items()})


def _range(values: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles of ``values`` (0, 0 for none)."""
    if not values:
        return 0.0, 0.0
    ordered = sorted(values)
    return quantile(ordered, 0.025), quantile(ordered, 0.975)


@dataclass
class Standing:
    """One player count's tournament: its tables, the round-robin scores, the replicator's history
    and the bootstrap behind its verdict."""

    players: int
    tables: list[Table]
    scores: dict[str, float]
    history: list[list[float]]
    resampled: Bootstrap


def standing(tables: list[Table], agents: Sequence[str], generations: int, resamples: int = RESAMPLES) -> Standing:
    """The round-robin scores, the replicator history and its bootstrap for one player count's tables."""
    return Standing(len(tables[0].mix), tables, round_robin(tables, agents), replicator(tables, agents, generations),
                    bootstrap(tables, agents, generations, resamples))


def words(s: Standing, agents: Sequence[str]) -> list[str]:
    """The plain-words summary of one player count: every figure with its bootstrap range, and the
    verdict with its support (called settled only when :data:`SETTLED` of the resamples agree)."""
    games = sum(len(t.rows) for t in s.tables)
    ranked = sorted(agents, key=lambda a: -s.scores[a])
    final = dict(zip(agents, s.history[-1]))
    b = s.resampled

    def ranged(x: float, span: tuple[float, float]) -> str:
        return f"{x:.0%} ({span[0]:.0%}-{span[1]:.0%})"

    out = [f"{s.players} players: {len(s.tables)} mixes of seats, {games} games. Round-robin win share (even share "
           f"{1 / s.players:.0%}; 95% bootstrap range): " + ", ".join(f"{a} {ranged(s.scores[a], b.scores[a])}"
                                                                     for a in ranked) + "."]
    fate = ", ".join(f"{a} {ranged(final[a], b.final[a])}" for a in sorted(agents, key=lambda a: -final[a]))
    taker = verdict(final)
    said = f"{taker} takes over" if taker else "no agent takes over; they share the population"
    settled = "settled" if b.support >= SETTLED else "not settled: more games are needed before it is claimed"
    out.append(f"From even shares, after {len(s.history) - 1} generations of the replicator dynamics: {fate}: "
               f"{said}, in {b.support:.0%} of {b.resamples} bootstrap resamples of the games ({settled}).")
    return out


def markdown(standings: Sequence[Standing], agents: Sequence[str]) -> str:
    """Every mix's win shares, per player count, as Markdown tables."""
    lines: list[str] = []
    for s in standings:
        lines += [f"### {s.players} players", "", "| mix | games | " + " | ".join(agents) + " |",
                  "|---|---|" + "---|" * len(agents)]
        for t in s.tables:
            cells = [t.earned(a).words() if a in t.mix else "" for a in agents]
            lines.append(f"| {', '.join(t.mix)} | {len(t.rows)} | " + " | ".join(cells) + " |")
        lines.append("| round robin | | " + " | ".join(f"{s.scores[a]:.0%}" for a in agents) + " |")
        lines += ["", *words(s, agents), ""]
    return "\n".join(lines)
