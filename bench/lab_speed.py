"""Lab throughput: games/s per core for each game and agent, 1 -> 2 worker speed-up on both backends,
and the time for 1,000,000 Profiteer games with greedy.

Run: .venv/bin/python bench/lab_speed.py [--repeats R] [--budget SECONDS] [--only per-core,speedup,million,store]
     [--million N] [--quick]

Every figure is the median of R runs with the spread (min-max) beside it, and the 1-minute load
average of the machine before and after each measurement: figures taken while other work runs
are lower, and the load says how much lower to expect.

* per-core: games of each game (default parameters, every seat the same agent, seats and seeds
  as the runner gives them) played through the lab's runner on one process; games per CPU
  second. The ratio is against the random agent of the same game, measured in the same run.
  Profiteer's greedy agents take the batch path (numpy arrays over many games, timed over at
  least 32,000 games: the runner's chunks of 4000); "greedy, one by one" is the same agent on
  the one-game fast path, for the ratio.
* speedup: the same games on 1 and on 2 workers, wall time, for the local process pool and for a
  local Ray (started once per worker count; its start-up is not timed). The games are cut into
  the same chunks for every worker count, so only the number of workers differs.
* store: the rows the driver (the process running the command) writes into the results file a
  CPU second, against the batch path's games per CPU second: how many cores' games one driver
  keeps up with.
* million: 1,000,000 Profiteer games with greedy through ``run_games`` on 2 local workers, wall
  time; the reference is the one-game fast path, timed on a sample in the same run and scaled.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

from plunder.agents import make_agent
from plunder.core.registry import entry, load_game
from plunder.games.profiteer.batch import cumulative_table
from plunder.backends import LocalPool, RayCluster
from plunder.lab.store import Run, Store
from plunder.match import agent_rng
from plunder.simulate import chunks, play_chunk, run_games

#: (game, agents to time) -- the game's own agents, the levels where a game takes well under a
#: second (``hard`` is a search in Pillage, Hubs and Profiteer), and random as the reference
AGENTS: dict[str, list[str]] = {
    "profiteer": ["random", "greedy", "profit", "easy"],
    "pirates": ["random", "greedy", "easy", "hard"],
    "pillage": ["random", "greedy", "easy"],
    "hubs": ["random", "greedy", "easy"],
    "crossroads": ["random", "greedy", "tit-for-tat", "grudger", "always-fair", "easy"],
}
#: games at least for the batch path's figures: 8 of the runner's largest chunks (4000 games)
BATCHED = 32_000
#: the fast solitaires, for the speed-up (target: at least 1.8x from 1 to 2 workers)
SPEEDUP = [("profiteer", "greedy"), ("profiteer", "random"), ("pirates", "greedy")]


def load() -> str:
    """The 1-minute load average, as text."""
    return f"{os.getloadavg()[0]:.1f}"


def spread(values: Sequence[float], fmt: str = "{:.0f}") -> str:
    """``median (min-max)``."""
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def cpu_rate(play: Callable[[int], None], games: int) -> float:
    """Games per CPU second of ``play(games)`` in this process."""
    start = time.process_time()
    play(games)
    return games / (time.process_time() - start)


def runner(game_id: str, agent: str, seed: int) -> Callable[[int], None]:
    """Play ``n`` games as the runner does on one process (its chunks, its fast paths)."""
    params = dict(load_game(game_id).params)

    def play(n: int) -> None:
        for job in chunks(game_id, params, [agent], range(seed, seed + n), 0, 1):
            play_chunk(job)
    return play


def one_by_one(game_id: str, agent: str, seed: int) -> Callable[[int], None]:
    """Play ``n`` games on the one-game fast path (no batch hook), for the batch path's reference."""
    game = load_game(game_id)
    fast = entry(game_id).speed.fast_play
    assert fast is not None
    built = make_agent(agent, game)

    def play(n: int) -> None:
        for i in range(seed, seed + n):
            fast(game, [built], [agent_rng(i, 0)], i)
    return play


def sized(play: Callable[[int], None], budget: float) -> int:
    """How many games take about ``budget`` CPU seconds (from a short probe)."""
    n = 4
    while True:
        start = time.process_time()
        play(n)
        took = time.process_time() - start
        if took > budget / 8 or n >= 1 << 20:
            return max(4, int(n * budget / max(took, 1e-9)))
        n *= 4


def per_core(repeats: int, budget: float) -> None:
    """Games/s per core for each game and agent, with the ratio to random."""
    print("== games per CPU second, one process (median of runs, min-max), ratio to random ==")
    print(f"{'game':11} {'agent':19} {'games':>7} {'games/s':>22} {'x random':>8}  load before/after")
    for game_id, agents in AGENTS.items():
        reference = 0.0
        rows: list[tuple[str, Callable[[int], None]]] = [(a, runner(game_id, a, 10_000)) for a in agents]
        if game_id == "profiteer":
            rows.insert(2, ("greedy, one by one", one_by_one(game_id, "greedy", 10_000)))
        for name, play in rows:
            n = sized(play, budget)
            if name != "random" and game_id == "profiteer" and name in ("greedy", "profit"):
                n = max(n, BATCHED)  # the runner's full chunks, as a long run plays them
            before = load()
            rates = [cpu_rate(play, n) for _ in range(repeats)]
            reference = reference or statistics.median(rates)
            print(f"{game_id:11} {name:19} {n:7d} {spread(rates):>22} {statistics.median(rates) / reference:8.2f}"
                  f"  {before}/{load()}", flush=True)


def wall(backend: LocalPool | RayCluster, jobs: list, expected: int) -> float:
    """Wall seconds to play ``jobs`` on ``backend``."""
    start = time.perf_counter()
    played = sum(len(chunk) for chunk in backend.map(play_chunk, jobs))
    assert played == expected
    return time.perf_counter() - start


def speedup(repeats: int, budget: float, backends: Sequence[str]) -> None:
    """1 -> 2 workers on the pool and on a local Ray: wall times and their ratio."""
    print("== speed-up from 1 to 2 workers, wall time (median of runs, min-max) ==")
    print(f"{'backend':8} {'game':10} {'agent':8} {'games':>7} {'1 worker s':>17} {'2 workers s':>17} "
          f"{'speed-up':>16}  load before/after")
    work = []
    for game_id, agent in SPEEDUP:
        n = 2 * sized(runner(game_id, agent, 20_000), budget)
        if (game_id, agent) == ("profiteer", "greedy"):
            n = max(n, BATCHED)
        params = dict(load_game(game_id).params)
        # the same chunks (sized for 2 workers) for every worker count and backend
        work.append((game_id, agent, n, chunks(game_id, params, [agent], range(20_000, 20_000 + n), 0, 2)))
    for name in backends:
        times: dict[tuple[str, str, int], list[float]] = {}
        loads: dict[tuple[str, str], list[str]] = {}
        for workers in (1, 2):
            backend: LocalPool | RayCluster = LocalPool(workers) if name == "pool" else RayCluster(workers=workers)
            try:
                for game_id, agent, n, jobs in work:
                    wall(backend, jobs[:2], sum(len(j[3]) for j in jobs[:2]))  # warm the workers up
                    loads.setdefault((game_id, agent), []).append(load())
                    times[(game_id, agent, workers)] = [wall(backend, jobs, n) for _ in range(repeats)]
                    loads[(game_id, agent)].append(load())
            finally:
                backend.close()
        for game_id, agent, n, _ in work:
            one, two = times[(game_id, agent, 1)], times[(game_id, agent, 2)]
            ratios = [a / b for a, b in zip(one, two)]
            print(f"{name:8} {game_id:10} {agent:8} {n:7d} {spread(one, '{:.2f}'):>17} {spread(two, '{:.2f}'):>17} "
                  f"{spread(ratios, '{:.2f}x'):>16}  {'/'.join(loads[(game_id, agent)])}", flush=True)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers, once joined)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def million(games: int, repeats: int) -> None:
    """Wall and CPU time of ``games`` Profiteer games with greedy on 2 local workers, against the one-game path."""
    print(f"== {games:,} profiteer games with greedy, 2 local workers (the runner, batch path) ==")
    sample = one_by_one("profiteer", "greedy", 0)
    n = sized(sample, 2.0)
    reference = statistics.median(cpu_rate(sample, n) for _ in range(repeats))
    before = load()
    cpu = cpu_seconds()
    start = time.perf_counter()
    played = sum(len(chunk) for chunk in run_games("profiteer", {}, ["greedy"], range(games), 0, workers=2))
    took = time.perf_counter() - start
    cpu = cpu_seconds() - cpu  # the workers and the process reading their rows
    assert played == games
    print(f"wall {took:.1f} s ({games / took:,.0f} games/s); load {before}/{load()}")
    print(f"CPU {cpu:.1f} s in all = {games / cpu:,.0f} games per CPU s; on 2 idle cores about {cpu / 2:.0f} s wall")
    print(f"one-game fast path (reference, same run): {reference:,.0f} games per CPU s, {games / reference:.0f} CPU s "
          f"for {games:,} games; the batch path takes {games / reference / cpu:.2f}x less CPU")


def store_rate(repeats: int) -> None:
    """Rows per CPU second the driver writes into the results file, against the batch path's games/s."""
    print("== the driver: Profiteer rows written to the SQLite results store (median of runs, min-max) ==")
    results = play_chunk(("profiteer", dict(load_game("profiteer").params), ["greedy"], list(range(8000)), 0))
    run = Run("profiteer", dict(load_game("profiteer").params), ("greedy",), 0)
    rates = []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(repeats):
            store = Store(Path(folder) / f"games{r}.sqlite")
            start = time.process_time()
            for k in range(0, len(results), 4000):  # a chunk at a time, as collect() stores them
                store.add(run, results[k:k + 4000])
            rates.append(len(results) / (time.process_time() - start))
            store.close()
    play = runner("profiteer", "greedy", 10_000)
    batch = statistics.median(cpu_rate(play, BATCHED) for _ in range(repeats))
    print(f"{spread(rates)} rows/CPU s; the batch path plays {batch:,.0f} games/CPU s, so one driver stores "
          f"the games of {statistics.median(rates) / batch:.1f} cores; load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1.5, help="CPU seconds a measurement aims at")
    parser.add_argument("--only", default="per-core,speedup,million,store")
    parser.add_argument("--backends", default="pool,ray")
    parser.add_argument("--million", type=int, default=1_000_000, help="games of the last measurement")
    parser.add_argument("--quick", action="store_true", help="small budgets, 100,000 games, for a look")
    args = parser.parse_args()
    if args.quick:
        args.budget, args.million = 0.3, 100_000
    cumulative_table()  # built once a process; not part of any figure
    parts = args.only.split(",")
    print(f"{os.cpu_count()} CPUs; load average now {load()}")
    if "per-core" in parts:
        per_core(args.repeats, args.budget)
    if "speedup" in parts:
        speedup(args.repeats, args.budget, args.backends.split(","))
    if "million" in parts:
        million(args.million, args.repeats)
    if "store" in parts:
        store_rate(args.repeats)


if __name__ == "__main__":
    main()
