"""Luck versus skill: how far apart the weakest and strongest agents land on the same seeds.

In a game of several players the report's own games already seat every agent on the same seeds
(rotated over the seats), so the spread is the strongest agent's win rate less the weakest's. In a
solitaire each agent plays the same seeds alone, and so does the clairvoyant
(:mod:`.clairvoyant`), which sees the cards and tiles to come and is no legal player: each seed
falls in one of four kinds -- won by every agent, won by some agents only, won only with
foresight, lost even with foresight -- and their shares say how much of the result the player
controls.

Either way the spread says how far apart *the agents chosen* land, not how much skill the game
rewards: two agents that play alike show a small spread in any game. So the section also plays,
by default, a reference pair on the same seeds -- the game's strong cheap agent
(``Strength.rollout_policy``) and random play -- whose spread is the room these two leave.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from . import clairvoyant, plots
from ..core.registry import entry
from ..backends import Backend
from .measures import Share, mean, pct, wins
from .report import Plot, Report
from .run import collect
from .store import Row, Run, Store

#: the kinds of seed of a solitaire, in the order the plot stacks them
KINDS = ("won by every agent", "won by some agents only", "won only with foresight", "lost even with foresight")


@dataclass
class Luck:
    """Games of each agent on the same seeds (and of the clairvoyant, for a solitaire)."""

    game_id: str
    players: int
    #: agent name (or the clairvoyant's label) -> its games, in seed order
    games: dict[str, list[Row]]
    #: the clairvoyant's label, when it played
    seer: str | None = None
    #: the reference pair (strong agent, weak agent) and their games on the same seeds, when played
    reference: tuple[str, str, list[Row], list[Row]] | None = None

    def reference_spread(self) -> tuple[Share, Share] | None:
        """The reference pair's win shares (strong, weak), when it played."""
        if self.reference is None:
            return None
        strong, weak, strong_rows, weak_rows = self.reference
        return wins(strong_rows, strong), wins(weak_rows, weak)

    def ranked(self) -> list[str]:
        """The legal agents, weakest first (by win rate, then mean score)."""
        agents = [a for a in self.games if a != self.seer]
        return sorted(agents, key=lambda a: (self.share(a).p, self.score(a)))

    def share(self, agent: str) -> Share:
        """``agent``'s wins over its seats."""
        return wins(self.games[agent], agent)

    def score(self, agent: str) -> float:
        """``agent``'s mean score over its seats (lowest for an agent without one, to rank it)."""
        rows = self.games[agent]
        found = mean([r.scores[s] for r in rows for s, a in enumerate(r.seats) if a == agent])
        return -math.inf if found is None else found

    def kinds(self) -> dict[str, Share]:
        """A solitaire's seeds by kind (see :data:`KINDS`), over the seeds every player has played."""
        won = {a: {r.seed: r.returns[0] > 0 for r in rows} for a, rows in self.games.items()}
        seeds = sorted(set.intersection(*(set(w) for w in won.values())))
        counts = dict.fromkeys(KINDS, 0)
        for seed in seeds:
            if all(won[a][seed] for a in self.ranked()):
                counts[KINDS[0]] += 1
            elif any(won[a][seed] for a in self.ranked()):
                counts[KINDS[1]] += 1
            elif self.seer is not None and won[self.seer][seed]:
                counts[KINDS[2]] += 1
            else:
                counts[KINDS[3]] += 1
        return {k: Share(v, len(seeds)) for k, v in counts.items()}


#: the weak half of the reference pair
WEAK = "random"


def reference_pair(game_id: str) -> tuple[str, str]:
    """The reference pair of ``game_id``: its strong cheap agent and random play."""
    return entry(game_id).strength.rollout_policy(), WEAK


def gather(store: Store, game_id: str, params: dict[str, str], agents: Sequence[str], rows: Sequence[Row],
           games: int, seed: int, backend: Backend | None = None, level: int = 1,
           progress: Callable[[int], None] | None = None, reference: bool = True) -> Luck:
    """The games luck versus skill compares: ``rows`` (the report's) for several players; for a
    solitaire, ``games`` seeds from ``seed`` played by each agent alone and by the clairvoyant of
    ``level`` (``level`` below 0: no clairvoyant), on ``backend`` (default: this process); with
    ``reference``, also ``games`` games of the reference pair (:func:`reference_pair`) on the same
    seeds, unless the agents are that pair. Games already stored are not played again."""
    players = len(rows[0].seats) if rows else 1
    pair = reference_pair(game_id)
    played: tuple[str, str, list[Row], list[Row]] | None = None
    if reference and set(pair) != set(agents):
        if players > 1:
            both = collect(store, Run(game_id, params, pair, seed), games, progress=progress, backend=backend)
            played = (*pair, both, both)
        else:
            strong, weak = (collect(store, Run(game_id, params, (a,), seed), games, progress=progress,
                                    backend=backend) for a in pair)
            played = (*pair, strong, weak)
    if players > 1:
        return Luck(game_id, players, {a: list(rows) for a in dict.fromkeys(agents)}, reference=played)
    found = {a: collect(store, Run(game_id, params, (a,), seed), games, progress=progress, backend=backend)
             for a in dict.fromkeys(agents)}
    if level < 0:
        return Luck(game_id, 1, found, reference=played)
    seer = clairvoyant.label(level)
    run = Run(game_id, params, (seer,), seed)
    todo = sorted(set(range(games)) - store.done(run))
    if progress:
        progress(games - len(todo))
    for results in clairvoyant.run_games(game_id, params, todo, seed, level, backend=backend):
        store.add(run, results)
        if progress:
            progress(len(results))
    found[seer] = store.rows(run, games)
    return Luck(game_id, 1, found, seer, played)


def sentences(luck: Luck) -> list[str]:
    """The section's plain words."""
    ranked = luck.ranked()
    weakest, strongest = ranked[0], ranked[-1]
    low, high = luck.share(weakest), luck.share(strongest)
    spread = high.p - low.p
    overlap = low.interval[1] >= high.interval[0]
    chosen = (f"Luck versus skill among the agents chosen ({', '.join(ranked)}; the spread reflects these agents "
              "only, not the game)")
    if luck.players > 1:
        verdict = (f"a spread of {100 * spread:.0f} points within the intervals: these agents play alike, and the "
                   "chance or the seating decides most of their games" if overlap else
                   f"a spread of {100 * spread:.0f} points: the better play shows in their results")
        out = [f"{chosen}: on the same seeds the strongest agent, {strongest}, wins {pct(high.p)} of its "
               f"seats and the weakest, {weakest}, {pct(low.p)} (even share {pct(1 / luck.players)}); "
               f"{verdict}."]
    else:
        out = [f"{chosen}: on the same {low.n} seeds the strongest agent, {strongest}, wins {pct(high.p)} "
               f"(±{pct(high.half)}) and the weakest, {weakest}, {pct(low.p)} (±{pct(low.half)})."]
    pair = luck.reference_spread()
    if pair is not None and luck.reference is not None:
        strong, weak = pair
        out.append(f"For reference, a strong and a weak agent on the same seeds: {luck.reference[0]} wins "
                   f"{strong.words()} and {luck.reference[1]} {weak.words()}, a spread of "
                   f"{100 * (strong.p - weak.p):.0f} points.")
    if luck.players == 1 and luck.seer is not None:
        seer = luck.share(luck.seer)
        kinds = luck.kinds()
        out.append(
            f"A clairvoyant ({luck.seer}) that sees what chance will bring, the cards or tiles to come (not a "
            f"legal player: it reads the seed), wins "
            f"{pct(seer.p)} (±{pct(seer.half)}) of the same seeds. {pct(kinds[KINDS[0]].p)} of seeds are won by "
            f"every agent, {pct(kinds[KINDS[1]].p)} by some agents only, {pct(kinds[KINDS[2]].p)} only with "
            f"foresight, and {pct(kinds[KINDS[3]].p)} are lost even with foresight (at most that much is beyond "
            f"the player's control; the clairvoyant is a search, so the true share may be smaller).")
        out.append(f"Foresight adds at most {100 * max(0.0, seer.p - high.p):.0f} points to the {strongest} agent's "
                   f"win rate on these seeds: an upper bound on what foresight adds to that agent, since the "
                   f"clairvoyant also searches where the agent does not, so part of the gap is play the agent "
                   f"misses, not luck.")
    return out


def plot(luck: Luck) -> bytes:
    """Win rates of the weakest and strongest agents (and the clairvoyant) on the same seeds; for a
    solitaire with a clairvoyant, also the seeds by kind."""
    ranked = luck.ranked()
    shown = [ranked[0], ranked[-1]] if len(ranked) > 1 else ranked
    groups = {f"{a}\n(weakest)" if a == ranked[0] and len(ranked) > 1 else f"{a}\n(strongest)":
              {"win rate": luck.share(a)} for a in shown}
    pair = luck.reference_spread()
    if pair is not None and luck.reference is not None:
        groups[f"{luck.reference[0]}\n(reference, strong)"] = {"win rate": pair[0]}
        groups[f"{luck.reference[1]}\n(reference, weak)"] = {"win rate": pair[1]}
    if luck.seer is not None:
        groups[f"{luck.seer}\n(NOT a legal player)"] = {"win rate": luck.share(luck.seer)}
        kinds = luck.kinds()
        return plots.shares_and_stack(groups, {k: s.p for k, s in kinds.items()}, "Luck versus skill, same seeds",
                                      "win rate", "seeds by kind")
    return plots.shares(groups, "Luck versus skill, same seeds", "win rate",
                        even=1 / luck.players if luck.players > 1 else None)


def planned(game_id: str, agents: Sequence[str], players: int, games: int) -> int:
    """How many games :func:`gather` may play: each agent, the clairvoyant and the reference pair
    alone on ``games`` seeds (a solitaire), or the reference pair's ``games`` games."""
    extra = 0 if set(reference_pair(game_id)) == set(agents) else (2 if players == 1 else 1)
    return games * ((len(set(agents)) + 1 if players == 1 else 0) + extra)


def section(report: Report, luck: Luck) -> None:
    """Add the luck-versus-skill sentences and plot to ``report``."""
    if not luck.ranked():
        return
    report.summary.extend(sentences(luck))
    report.plots.append(Plot("luck", "Luck versus skill: weakest and strongest agents on the same seeds"
                             + (" beside a clairvoyant (not a legal player)" if luck.seer else ""), plot(luck)))
