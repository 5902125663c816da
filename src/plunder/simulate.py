"""Batch simulation for designers: many games, seats rotated, statistics per agent."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from .agents import make_agent
from .match import agent_rng, play_stats
from .core.options import SIMULATE_BATCH, agent_list
from .core.registry import entry, load_game
from .backends import Backend, LocalPool


@dataclass
class Running:
    """A running mean: the total and the count of the values seen (memory independent of the count)."""

    total: float = 0.0
    n: int = 0

    def add(self, value: float) -> None:
        """Count one value."""
        self.total += value
        self.n += 1

    @property
    def mean(self) -> float:
        """The mean of the values seen (NaN before any)."""
        return self.total / self.n if self.n else math.nan


@dataclass
class AgentTally:
    """Everything one agent scored over the games it sat in.

    Scores are counted by value and statistics summed, so a tally's memory depends on how many
    different scores there are, not on how many games were played.
    """

    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    #: how many of its games ended with each score
    scores: Counter[float] = field(default_factory=Counter)
    stats: dict[str, Running] = field(default_factory=dict)

    def add(self, ret: float, score: float, stats: dict[str, float]) -> None:
        """Count one game's outcome for this agent."""
        self.games += 1
        self.wins += ret > 0
        self.ties += ret == 0
        self.losses += ret < 0
        self.scores[score] += 1
        for key, value in stats.items():
            self.stats.setdefault(key, Running()).add(value)


@dataclass
class Simulation:
    """The result of :func:`simulate`."""

    game: str
    params: dict[str, str]
    agents: list[str]
    games: int
    seed: int
    tallies: dict[str, AgentTally]
    #: each per-game statistic's running mean
    game_stats: dict[str, Running]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``plunder simulate --json`` prints)."""
        out: dict[str, Any] = {
            "game": self.game, "params": self.params, "games": self.games, "seed": self.seed,
            "agents": self.agents, "wins": {}, "ties": {}, "losses": {}, "games_played": {},
            "win_rate": {}, "win_rate_ci95": {}, "mean_scores": {}, "median_scores": {}, "max_scores": {},
            "min_scores": {}, "score_histogram": {}, "stats": {},
        }
        for name, t in self.tallies.items():
            out["wins"][name], out["ties"][name], out["losses"][name] = t.wins, t.ties, t.losses
            out["games_played"][name] = t.games
            out["win_rate"][name] = t.wins / t.games if t.games else None
            out["win_rate_ci95"][name] = list(wilson(t.wins, t.games))
            out["mean_scores"][name] = counted_mean(t.scores)
            out["median_scores"][name] = counted_median(t.scores)
            out["max_scores"][name] = max(t.scores, default=None)
            out["min_scores"][name] = min(t.scores, default=None)
            # [score, count] pairs: a JSON object's keys would turn the scores into strings
            out["score_histogram"][name] = [[number(k), n] for k, n in sorted(t.scores.items())]
            out["stats"][name] = {k: v.mean for k, v in t.stats.items()}
        out["game_stats"] = {k: v.mean for k, v in self.game_stats.items()}
        return out


def counted_mean(counts: Counter[float]) -> float | None:
    """The mean of values counted by value (``None`` for none)."""
    n = sum(counts.values())
    return math.fsum(value * k for value, k in counts.items()) / n if n else None


def counted_median(counts: Counter[float]) -> float | None:
    """The median of values counted by value, as :func:`statistics.median` gives it (``None`` for none)."""
    n = sum(counts.values())
    if not n:
        return None
    # the values at ranks (n-1)//2 and n//2 (0-based): one value for odd n, the two middle ones for even n
    wanted, found, seen = [(n - 1) // 2, n // 2], [], 0
    for value in sorted(counts):
        seen += counts[value]
        while wanted and wanted[0] < seen:
            found.append(value)
            wanted.pop(0)
    return found[0] if found[0] == found[1] else (found[0] + found[1]) / 2


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion: 95% by default, ``z`` standard errors wide."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(agents: Sequence[str], num_players: int, index: int) -> list[str]:
    """Agents of game ``index``: seat s gets ``agents[(s + index) % len(agents)]``."""
    return [agents[(s + index) % len(agents)] for s in range(num_players)]


GameResult = tuple[list[str], list[float], list[float], dict[str, Any]]
#: One chunk of work: game id, parameters, agents rotated over the seats, game indices, base seed.
Chunk = tuple[str, dict[str, str], list[str], list[int], int]


def play_chunk(job: Chunk) -> list[tuple[int, GameResult]]:
    """Play the games of one chunk: game ``i`` uses seed ``seed + i`` and :func:`seating` ``i``.

    Each result depends on its index alone, so how games are split into chunks, and where
    the chunks run, never changes a result. A game with a ``fast_batch`` hook plays the games
    of each seating together; the others (and what the hook declines) go one by one.
    """
    game_id, params, agents, indices, seed = job
    game = load_game(game_id, **params)
    hooks = entry(game_id)
    built = {spec: make_agent(spec, game) for spec in dict.fromkeys(agents)}
    done: dict[int, GameResult] = {}
    if hooks.speed.fast_batch is not None:
        groups: dict[tuple[str, ...], list[int]] = {}
        for i in indices:
            groups.setdefault(tuple(seating(agents, game.num_players, i)), []).append(i)
        for seated, group in groups.items():
            batch = hooks.speed.fast_batch(game, [built[spec] for spec in seated], [seed + i for i in group])
            for i, played in zip(group, batch or ()):
                done[i] = (list(seated), played.returns, played.scores, dict(played.stats))
    results: list[tuple[int, GameResult]] = []
    for i in indices:
        if i in done:
            results.append((i, done[i]))
            continue
        seats = seating(agents, game.num_players, i)
        players = [built[spec] for spec in seats]
        rngs = [agent_rng(seed + i, s) for s in range(len(players))]
        result = hooks.speed.fast_play(game, players, rngs, seed + i) if hooks.speed.fast_play is not None else None
        if result is not None:
            results.append((i, (seats, result.returns, result.scores, dict(result.stats))))
            continue
        _, final, stats = play_stats(game, players, seed=seed + i)
        results.append((i, (seats, list(final.returns()), list(final.scores()), stats)))
    return results


def chunks(game_id: str, params: dict[str, str], agents: Sequence[str], indices: Sequence[int], seed: int,
           workers: int) -> list[Chunk]:
    """Split ``indices`` into chunks small enough to keep ``workers`` busy.

    About 8 chunks a worker of at most 200 games; for a game whose ``fast_batch`` hook plays
    many games at once (its arrays pay off only over thousands), 2 a worker of at most 4000.
    """
    batched = entry(game_id).speed.fast_batch is not None
    most, per_worker = (4000, 2) if batched else (200, 8)
    size = max(1, min(most, len(indices) // (workers * per_worker) or 1))
    return [(game_id, dict(params), list(agents), list(indices[s:s + size]), seed)
            for s in range(0, len(indices), size)]


#: Several runs' games to play in one go: game id, parameters, agents, game indices, base seed.
Plan = tuple[str, dict[str, str], Sequence[str], Sequence[int], int]


def run_plans(plans: Sequence[Plan], backend: Backend) -> Iterator[tuple[int, list[tuple[int, GameResult]]]]:
    """Play the games of every plan on ``backend`` at once; yield (plan number, a chunk's results) in order.

    A sweep's variants go together, so a cluster's CPUs share every variant's games.
    """
    jobs: list[Chunk] = []
    owners: list[int] = []
    share = max(1, -(-backend.slots() // max(1, len(plans))))  # the backend's slots split among the plans
    for n, (game_id, params, agents, indices, seed) in enumerate(plans):
        game = load_game(game_id, **params)
        for spec in set(agents):
            make_agent(spec, game)  # fail fast on a bad spec
        for job in chunks(game_id, dict(game.params), agents, indices, seed, share):
            jobs.append(job)
            owners.append(n)
    yield from zip(owners, backend.map(play_chunk, jobs))


def run_games(
    game_id: str, params: dict[str, str], agents: Sequence[str], indices: Sequence[int], seed: int = 0,
    workers: int = 1, backend: Backend | None = None,
) -> Iterator[list[tuple[int, GameResult]]]:
    """Play the games ``indices`` on ``backend`` (else ``workers`` local processes); yield each
    chunk's results in order.

    The one runner behind ``plunder simulate`` and the lab. Results are the same for any backend
    and any number of workers.
    """
    if backend is None:
        with LocalPool(workers) as pool:
            yield from run_games(game_id, params, agents, indices, seed, backend=pool)
        return
    for _, results in run_plans([(game_id, params, agents, indices, seed)], backend):
        yield results


def simulate(
    game_id: str,
    params: dict[str, str],
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    stop: Callable[[], bool] | None = None,
) -> Simulation:
    """Play ``games`` games with seats rotated over ``agents``, on ``backend`` (else ``workers``
    local processes); tally per agent.

    Game ``i`` uses seed ``seed + i``, so results do not depend on the backend or ``workers``.
    Games are played :data:`~plunder.core.options.SIMULATE_BATCH` at a time and tallied as they
    finish, so memory does not grow with ``games``: a huge count runs until ``stop()`` says so
    (asked after every chunk of games); the result then counts the games played, from game 0.
    """
    game = load_game(game_id, **params)
    agent_list(agents, "agents")
    tallies = {a: AgentTally() for a in dict.fromkeys(agents)}
    game_stats: dict[str, Running] = {}
    if backend is None:
        with LocalPool(workers) as pool:
            return simulate(game_id, params, agents, games, seed, progress=progress, backend=pool, stop=stop)
    played = 0
    for start in range(0, games, SIMULATE_BATCH):
        if stop is not None and stop():
            break
        batch = range(start, min(games, start + SIMULATE_BATCH))
        for results in run_games(game_id, dict(game.params), agents, batch, seed, backend=backend):
            played += len(results)
            for _, (seats, returns, scores, stats) in results:
                for s, spec in enumerate(seats):
                    per_seat = {k: float(v[s]) for k, v in stats.items() if isinstance(v, list)}
                    tallies[spec].add(returns[s], scores[s], per_seat)
                for k, v in stats.items():
                    if not isinstance(v, list):
                        game_stats.setdefault(k, Running()).add(float(v))
            if progress:
                progress(len(results))
            if stop is not None and stop():
                break
    return Simulation(game_id, dict(game.params), list(agents), played, seed, tallies, game_stats)


def number(value: float) -> int | float:
    """``value`` as an int when it is whole (a score of 23, not 23.0), else unchanged."""
    return int(value) if float(value).is_integer() else value


def histogram_rows(counts: Mapping[float, int], bins: int = 12, width: int = 40) -> list[tuple[str, int, str]]:
    """(label, count, bar) rows of a histogram of values counted by value; one row per value when
    there are few. Whole-number values get whole-number bins (``20 .. 24``, each bin's own first
    and last value)."""
    if not counts:
        return []
    if len(counts) <= bins * 2:
        rows = [(f"{k:g}", n) for k, n in sorted(counts.items())]
    elif all(float(v).is_integer() for v in counts):
        lo, hi = int(min(counts)), int(max(counts))
        size = -(-(hi - lo + 1) // bins)  # whole values per bin, so that at most ``bins`` cover lo..hi
        tally: Counter[int] = Counter()
        for v, n in counts.items():
            tally[(int(v) - lo) // size] += n
        rows = [(f"{lo + i * size} .. {min(hi, lo + i * size + size - 1)}", tally[i])
                for i in range((hi - lo) // size + 1)]
    else:
        low, high = min(counts), max(counts)
        step = (high - low) / bins
        edges = [low + step * i for i in range(bins + 1)]
        tally_list = [0] * bins
        for v, n in counts.items():
            tally_list[min(bins - 1, int((v - low) / step))] += n
        rows = [(f"{edges[i]:.4g} .. {edges[i + 1]:.4g}", tally_list[i]) for i in range(bins)]
    top = max(n for _, n in rows)
    return [(label, n, "█" * max(1 if n else 0, round(width * n / top))) for label, n in rows]
