"""Hubs speed and memory: time and peak memory per move against the number of dots.

Run from the repo root::

    .venv/bin/python bench/hubs_speed.py [--before REV] [--runs N] [--dots 24,60,150,300,700]
    .venv/bin/python bench/hubs_speed.py --before '' --width 1000 --height 1000 --dots 700

Each measurement plays round 1 of a real game (the agents place the dots too, on the
default 60x40 sheet unless ``--sheet``) in a fresh process, and reports per segment
move (agent's choice plus ``apply``): the mean and the worst CPU time (and the worst
of any move, placement included: the last dot sets up the round's candidate segments),
the peak of
memory allocated during one move (``tracemalloc``, in a second pass over the same
game), and the process's peak resident size. Pairings: ``random,random``;
``greedy,random`` (greedy on offense in round 1, HB-6) and ``random,greedy`` (greedy
on defense).

``--before REV`` (default 268d802, the last revision whose greedy agent built the
pair-by-pair conflict matrix; ``''`` for none) measures the same games with the package
as it was at git revision REV (extracted with ``git archive``), in the same run, and
prints the ratios. Old runs use ``--before-runs`` seeds and are stopped at
``--limit-seconds`` of CPU and ``--limit-mb`` of address space; a pairing that hit a
limit is not tried at larger dot counts. Times are CPU seconds
(``time.process_time``) so other work on a shared machine inflates them less; the
spread over ``--runs`` seeds is shown as min..max.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAIRINGS = ["random,random", "greedy,random", "random,greedy"]


def play_round(dots: int, pairing: str, seed: int, width: int, height: int, traced: bool) -> dict[str, Any]:
    """Round 1 of one game; per segment move its CPU time or its traced peak memory.

    Uses only the API both old and new versions share (load_game, make_agent, apply).
    """
    import random

    import plunder
    from plunder.agents import make_agent

    game = plunder.load_game("hubs", width=width, height=height, dots=dots)
    agents = [make_agent(spec, game) for spec in pairing.split(",")]
    rng = random.Random(seed)
    state = game.new_initial_state()
    times: list[float] = []
    peaks: list[int] = []
    slowest = 0.0
    candidates = 0
    started = time.process_time()
    if traced:
        tracemalloc.start()
    while state.round == 0:
        segment_move = not state.placing
        if segment_move and traced and not candidates:
            candidates = len(state.legal_actions())
        if traced:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
        t = time.process_time()
        state = state.apply(agents[state.current_player].choose(state, rng))
        took = time.process_time() - t
        slowest = max(slowest, took)
        if segment_move:
            times.append(took)
            if traced:
                peaks.append(tracemalloc.get_traced_memory()[1] - base)
    return {"moves": len(times), "mean_ms": 1e3 * statistics.fmean(times), "worst_ms": 1e3 * max(times),
            "slowest_ms": 1e3 * slowest, "round_s": time.process_time() - started,
            "peak_step_mb": max(peaks) / 2**20 if peaks else None,
            "candidates": candidates, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def worker(args: argparse.Namespace) -> None:
    """One measurement in this process; prints one JSON line."""
    if args.limit_mb:
        limit = args.limit_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if args.limit_seconds:
        resource.setrlimit(resource.RLIMIT_CPU, (args.limit_seconds, args.limit_seconds + 5))
    try:
        result = play_round(args.one_dots, args.one_pairing, args.one_seed, args.width, args.height, args.traced)
    except MemoryError:
        result = {"failed": f"out of memory at {args.limit_mb} MB"}
    print(json.dumps(result))


def measure(source: Path, dots: int, pairing: str, seed: int, traced: bool, args: argparse.Namespace,
            limited: bool) -> dict[str, Any]:
    """Run :func:`worker` in a fresh process with the package found under ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = [sys.executable, __file__, "--worker", "--one-dots", str(dots), "--one-pairing", pairing,
           "--one-seed", str(seed), "--width", str(args.width), "--height", str(args.height)]
    if traced:
        cmd.append("--traced")
    if limited:
        # tracemalloc slows a run about twice over
        cmd += ["--limit-seconds", str(args.limit_seconds * (2 if traced else 1)), "--limit-mb", str(args.limit_mb)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        if done.returncode in (-9, -24, 152, 137) or "CPU" in done.stderr:
            return {"failed": f"over {args.limit_seconds * (2 if traced else 1)} s CPU"}
        if "MemoryError" in done.stderr or "Cannot allocate" in done.stderr:
            return {"failed": f"out of memory at {args.limit_mb} MB"}
        return {"failed": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def summary(source: Path, dots: int, pairing: str, args: argparse.Namespace, limited: bool) -> dict[str, Any]:
    """Timing over several seeds plus one traced pass for memory; ``failed`` if a limit was hit."""
    runs = []
    for seed in range(args.before_runs if limited else args.runs):
        one = measure(source, dots, pairing, seed, False, args, limited)
        if "failed" in one:
            return one
        runs.append(one)
    traced = measure(source, dots, pairing, 0, True, args, limited)
    if "failed" in traced:
        return traced
    return {"mean_ms": [r["mean_ms"] for r in runs], "worst_ms": max(r["worst_ms"] for r in runs),
            "slowest_ms": max(r["slowest_ms"] for r in runs),
            "round_s": [r["round_s"] for r in runs], "moves": statistics.fmean(r["moves"] for r in runs),
            "peak_step_mb": traced["peak_step_mb"], "rss_mb": max(r["rss_mb"] for r in runs),
            "candidates": traced["candidates"]}


def spread(values: list[float], fmt: str) -> str:
    """``median (min..max)``."""
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}..{format(max(values), fmt)})"


def extract(rev: str, into: Path) -> Path:
    """The package at git revision ``rev``, unpacked under ``into``; returns its ``src``."""
    data = subprocess.run(["git", "archive", rev, "src/plunder"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def report(label: str, row: dict[str, Any]) -> str:
    """One table cell group for a measured (or failed) configuration."""
    if "failed" in row:
        return f"{label}: {row['failed']}"
    return (f"{label}: {spread(row['mean_ms'], '.2f')} ms/move mean, worst {row['worst_ms']:.0f} ms "
            f"(any move {row['slowest_ms']:.0f} ms), peak {row['peak_step_mb']:.2f} MB in one move, "
            f"process peak {row['rss_mb']:.0f} MB, "
            f"round {spread(row['round_s'], '.2f')} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="268d802", help="git revision to measure as the reference, in the same run")
    parser.add_argument("--runs", type=int, default=3, help="seeds per configuration (timing)")
    parser.add_argument("--before-runs", type=int, default=1, help="seeds per configuration of the old revision")
    parser.add_argument("--dots", default="24,60,150,300,700", help="comma-separated dot counts")
    parser.add_argument("--pairings", default=",".join(p.replace(",", "+") for p in PAIRINGS),
                        help="agent pairings, e.g. random+random,greedy+random")
    parser.add_argument("--width", type=int, default=60)
    parser.add_argument("--height", type=int, default=40)
    parser.add_argument("--limit-seconds", type=int, default=120, help="CPU limit per old run")
    parser.add_argument("--limit-mb", type=int, default=3000, help="address-space limit per old run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--one-dots", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--one-pairing", help=argparse.SUPPRESS)
    parser.add_argument("--one-seed", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dots_list = [int(d) for d in args.dots.split(",")]
    pairings = [p.replace("+", ",") for p in args.pairings.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        old = extract(args.before, Path(tmp)) if args.before else None
        new = ROOT / "src"
        old_runs = f" ({args.before_runs} for {args.before})" if old else ""
        print(f"hubs, {args.width}x{args.height} sheet, round 1 of a game, {args.runs} seeds per row{old_runs}; "
              f"per segment move (choice + apply), CPU time")
        for pairing in pairings:
            old_failed = False
            for dots in dots_list:
                now = summary(new, dots, pairing, args, limited=False)
                print(f"{pairing} {dots} dots ({now.get('candidates', '?')} candidate segments, "
                      f"{now.get('moves', 0):.0f} moves):")
                print("  " + report("now", now))
                if old is None:
                    continue
                then = {"failed": "not run: a smaller count hit a limit"} if old_failed else \
                    summary(old, dots, pairing, args, limited=True)
                old_failed = old_failed or "failed" in then
                print("  " + report(f"at {args.before}", then))
                if "failed" not in then and "failed" not in now:
                    ratio = statistics.median(then["mean_ms"]) / statistics.median(now["mean_ms"])
                    print(f"  ratio {args.before} / now: time per move {ratio:.1f}x, "
                          f"peak memory in one move {then['peak_step_mb'] / max(now['peak_step_mb'], 1e-3):.1f}x")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
