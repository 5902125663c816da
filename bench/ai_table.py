"""Regenerate every figure of docs/ai.md: runs, one after another, each command the document
gives for a figure, printing each command before its output.

Run: .venv/bin/python bench/ai_table.py [--quick] [--only WORD]

The full run takes hours on a 2-core machine (the Profiteer and Pirates tables play tens of
thousands of games); ``--quick`` runs every command with a small sample, to check that each
still works and to see the order of magnitude (its figures are not the document's).
``--only WORD`` runs the commands whose text contains WORD. Each entry is (what it
reproduces, full command, quick command).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

PY = sys.executable
PLUNDER = [str(Path(PY).parent / "plunder")]

COMMANDS: list[tuple[str, list[str], list[str]]] = [
    ("Pillage MCTS speed against OpenSpiel", [PY, "bench/mcts_speed.py", "--runs", "5"],
     [PY, "bench/mcts_speed.py", "--quick"]),
    ("Pillage public API stepping against pyspiel child", [PY, "bench/api_speed.py", "--runs", "7"],
     [PY, "bench/api_speed.py", "--runs", "2", "--games", "5"]),
    ("Pillage random playouts", [PY, "bench/pillage_playouts.py"],
     [PY, "bench/pillage_playouts.py", "--seconds", "0.5"]),
    ("Pillage strength at equal CPU time against OpenSpiel", [PY, "bench/mcts_equal_time.py", "--games", "200"],
     [PY, "bench/mcts_equal_time.py", "--quick"]),
    ("Pillage strength at equal simulations against OpenSpiel",
     [PY, "bench/mcts_strength.py", "--games", "200", "--boards", "3,4"],
     [PY, "bench/mcts_strength.py", "--games", "10", "--boards", "3"]),
    ("Pillage mcts against random on valued boards",
     [PY, "bench/mcts_strength.py", "--versus", "random", "--games", "100"],
     [PY, "bench/mcts_strength.py", "--versus", "random", "--games", "4"]),
    ("Pillage hard against greedy",
     PLUNDER + ["simulate", "pillage", "--agents", "hard,greedy", "--games", "100", "--workers", "1"],
     PLUNDER + ["simulate", "pillage", "--agents", "hard,greedy", "--games", "2", "--workers", "1"]),
    ("Pillage exact solver", [PY, "bench/pillage_solver.py", "--limit", "400"],
     [PY, "bench/pillage_solver.py", "--quick", "--limit", "30"]),
    *[(f"Profiteer {agent}",
       PLUNDER + ["simulate", "profiteer", "--agents", agent, "--games", "10000", "--workers", "1", "--seed", "1000000"],
       PLUNDER + ["simulate", "profiteer", "--agents", agent, "--games", "100", "--workers", "1", "--seed", "1000000"])
      for agent in ("random", "greedy", "profit")],
    ("Profiteer counts", [PY, "bench/profiteer_counts.py", "--games", "10000", "--seed", "1000000"],
     [PY, "bench/profiteer_counts.py", "--games", "100", "--seed", "1000000"]),
    ("Profiteer hard against profit on the same deals",
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "236", "profit", "mcts:root=profit,sims=200"],
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "2", "profit", "mcts:root=profit,sims=200"]),
    ("Pirates tables", [PY, "bench/pirates_tables.py", "2000", "1000000", "greedy", "random", "hard"],
     [PY, "bench/pirates_tables.py", "20", "1000000", "greedy", "random"]),
    ("Hubs round-robin",
     [PY, "bench/round_robin.py", "hubs", "random", "greedy", "mcts:sims=100,eval=greedy,depth=8,scale=20",
      "--games", "10", "--workers", "1"],
     [PY, "bench/round_robin.py", "hubs", "random", "greedy", "--games", "2", "--workers", "1"]),
    ("Crossroads round-robin, 2 players",
     [PY, "bench/round_robin.py", "crossroads", "-p", "players=2", "random", "greedy", "always-fair",
      "greedy-splitter", "tit-for-tat", "grudger", "--games", "40"],
     [PY, "bench/round_robin.py", "crossroads", "-p", "players=2", "random", "greedy", "--games", "2",
      "--workers", "1"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples: checks the commands, not the figures")
    parser.add_argument("--only", default="", help="run only the commands whose text contains this")
    args = parser.parse_args()
    chosen = [(what, quick if args.quick else full) for what, full, quick in COMMANDS
              if args.only in " ".join(full) or args.only in what]
    failed = []
    for i, (what, command) in enumerate(chosen, 1):
        print(f"\n[{i}/{len(chosen)}] {what}\n$ {' '.join(command[1:] if command[0] == PY else command)}", flush=True)
        start = time.perf_counter()
        if subprocess.run(command).returncode:
            failed.append(what)
        print(f"[{i}/{len(chosen)}] done in {time.perf_counter() - start:.0f} s", flush=True)
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
