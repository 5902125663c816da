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
     [PY, "bench/pillage_playouts.py", "--runs", "2", "--reps", "1"]),
    ("Where a Pillage search spends its CPU, by phase", [PY, "bench/mcts_profile.py"],
     [PY, "bench/mcts_profile.py", "--positions", "2"]),
    ("CPU per move of every game's hard level", [PY, "bench/ai_latency.py", "--games", "6", "--variant",
                                                 "pillage:board=square:5x5"],
     [PY, "bench/ai_latency.py", "--games", "1", "--only", "pirates,crossroads"]),
    ("Pillage hard with a cheaper solver (from 26 lines, 25,000 positions) against hard, paired seeds and seats",
     [PY, "bench/level_match.py", "pillage", "pillage-hard:endgame=26,nodes=25000", "hard", "--seed", "6200000"],
     [PY, "bench/level_match.py", "pillage", "hard:sims=50", "pillage-hard:sims=50,endgame=22", "--pairs", "1",
      "-p", "board=square:2x2"]),
    ("Pillage hard with fewer simulations (800) against hard, paired seeds and seats",
     [PY, "bench/level_match.py", "pillage", "pillage-hard:sims=800", "hard", "--seed", "6300000"],
     [PY, "bench/level_match.py", "pillage", "hard:sims=50", "pillage-hard:sims=50,endgame=22", "--pairs", "1",
      "-p", "board=square:2x2"]),
    *[(f"Pillage hard against OpenSpiel's MCTSBot (solver on) at equal CPU time per game, unit {side}x{side}",
       [PY, "bench/mcts_equal_time.py", "--boards", str(side), "--games", str(games)],
       [PY, "bench/mcts_equal_time.py", "--boards", str(side), "--games", "1", "--seed", "8500000"])
      for side, games in ((3, 200), (4, 100), (5, 100))],
    ("Pillage strength at equal CPU time per move against OpenSpiel (earlier figures)",
     [PY, "bench/mcts_equal_time.py", "--per-move", "--agent", "mcts:sims=1000", "--seed", "1000000",
      "--boards", "3,4", "--games", "200"],
     [PY, "bench/mcts_equal_time.py", "--per-move", "--agent", "mcts:sims=1000", "--seed", "1000000",
      "--boards", "3,4", "--quick"]),
    ("Pillage strength at equal CPU time per move, unit 4x4, the solver for the endgame (tuning run, seeds 3,000,000-)",
     [PY, "bench/mcts_equal_time.py", "--per-move", "--boards", "4", "--games", "24", "--seed", "3000000", "--agent",
      "pillage-hard:sims=1000,rollouts=1,endgame=24,nodes=300000"],
     [PY, "bench/mcts_equal_time.py", "--per-move", "--boards", "4", "--quick", "--seed", "3000000", "--agent",
      "pillage-hard:sims=1000,rollouts=1,endgame=24,nodes=300000"]),
    *[(f"Pillage strength at equal CPU time per move, unit 4x4, the solver for the endgame (evaluation, seeds {s:,}-)",
       [PY, "bench/mcts_equal_time.py", "--per-move", "--boards", "4", "--games", "50", "--seed", str(s), "--sims", "10064",
        "--agent", "pillage-hard:sims=1000,rollouts=1,endgame=24,nodes=300000"],
       [PY, "bench/mcts_equal_time.py", "--per-move", "--boards", "4", "--games", "2", "--seed", str(s), "--sims", "10064",
        "--agent", "pillage-hard:sims=1000,rollouts=1,endgame=24,nodes=300000"])
      for s in (4_000_000, 4_000_050, 4_000_100, 4_000_150)],
    ("Pillage strength at equal simulations against OpenSpiel",
     [PY, "bench/mcts_strength.py", "--games", "200", "--boards", "3,4"],
     [PY, "bench/mcts_strength.py", "--games", "10", "--boards", "3"]),
    *[(f"Pillage {pair.replace(',', ' against ')} on valued boards",
       PLUNDER + ["simulate", "pillage", "--agents", pair, "--games", "100", "--seed", "5000000", "--workers", "1"],
       PLUNDER + ["simulate", "pillage", "--agents", pair, "--games", "2", "--seed", "5000000", "--workers", "1"])
      for pair in ("mcts:sims=1000,random", "hard,greedy")],
    *[(f"Pillage {agent} against greedy on valued boards",
       PLUNDER + ["simulate", "pillage", "--agents", f"{agent},greedy", "--games", "40", "--seed", "5100000", "--workers", "1"],
       PLUNDER + ["simulate", "pillage", "--agents", f"{agent},greedy", "--games", "2", "--seed", "5100000", "--workers", "1"])
      for agent in ("mcts", "mcts:playout=random", "mcts:playout=safe")],
    ("Pillage exact solver", [PY, "bench/pillage_solver.py", "--limit", "400"],
     [PY, "bench/pillage_solver.py", "--quick", "--limit", "30"]),
    ("Pillage exact solver, unit 3x4 within 2 GB",
     [PY, "bench/pillage_solver.py", "--unit", "square:3x4", "--memory", "2000", "--progress", "30", "--limit", "20000"],
     [PY, "bench/pillage_solver.py", "--unit", "square:2x4", "--memory", "2000", "--progress", "1"]),
    ("Pillage exact solver, unit 4x4 attempted",
     [PY, "bench/pillage_solver.py", "--unit", "square:4x4", "--memory", "2000", "--progress", "60", "--limit", "3600"],
     [PY, "bench/pillage_solver.py", "--unit", "square:4x4", "--memory", "200", "--progress", "2", "--limit", "5"]),
    ("Pillage exact solver: the independent check of unit values (needs gcc)",
     ["sh", "-c", "gcc -O2 -o /tmp/dots_check bench/dots_check.c && for b in '2 2' '2 3' '2 4' '3 3' '3 4'; "
      "do /tmp/dots_check $b 27; done"],
     ["sh", "-c", "gcc -O2 -o /tmp/dots_check bench/dots_check.c && /tmp/dots_check 3 3 24"]),
    *[(f"Profiteer {agent}",
       PLUNDER + ["simulate", "profiteer", "--agents", agent, "--games", "10000", "--workers", "1", "--seed", "1000000"],
       PLUNDER + ["simulate", "profiteer", "--agents", agent, "--games", "100", "--workers", "1", "--seed", "1000000"])
      for agent in ("random", "greedy", "profit")],
    ("Profiteer counts", [PY, "bench/profiteer_counts.py", "--games", "10000", "--seed", "1000000"],
     [PY, "bench/profiteer_counts.py", "--games", "100", "--seed", "1000000"]),
    ("Profiteer greedy, profit and the clairvoyant on the same deals",
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "236", "--quiet", "greedy", "profit",
      "--clairvoyant", "1", "--clairvoyant", "2"],
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "4", "--quiet", "greedy", "profit",
      "--clairvoyant", "1"]),
    ("Profiteer hard against profit on the same deals",
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "236", "profit", "mcts:root=profit,sims=200"],
     [PY, "bench/profiteer_agents.py", "--seed", "1000000", "--games", "2", "profit", "mcts:root=profit,sims=200"]),
    ("Pirates tables", [PY, "bench/pirates_tables.py", "2000", "1000000", "greedy", "random", "hard"],
     [PY, "bench/pirates_tables.py", "20", "1000000", "greedy", "random"]),
    ("Pirates hard against greedy game by game", [PY, "bench/pirates_tables.py", "2000", "1000000", "greedy",
                                                  "greedy:bank=true"],
     [PY, "bench/pirates_tables.py", "20", "1000000", "greedy", "greedy:bank=true"]),
    ("Hubs root search against greedy (fresh seeds from 2,100,000)",
     PLUNDER + ["simulate", "hubs", "--agents", "mcts:root=greedy,sims=96,depth=6,scale=20,greedy", "--games", "200",
                "--seed", "2100000", "--workers", "1"],
     PLUNDER + ["simulate", "hubs", "--agents", "mcts:root=greedy,sims=96,depth=6,scale=20,greedy", "--games", "2",
                "--seed", "2100000", "--workers", "1"]),
    ("Hubs root search against the tree search that was hard (fresh seeds from 2,200,000)",
     PLUNDER + ["simulate", "hubs", "--agents", "mcts:root=greedy,sims=96,depth=6,scale=20,mcts:sims=100,eval=greedy,"
                "depth=8,scale=20", "--games", "60", "--seed", "2200000", "--workers", "1"],
     PLUNDER + ["simulate", "hubs", "--agents", "mcts:root=greedy,sims=96,depth=6,scale=20,mcts:sims=100,eval=greedy,"
                "depth=8,scale=20", "--games", "2", "--seed", "2200000", "--workers", "1"]),
    *[(f"Pirates {agent}, game by game (fresh seeds from 1,000,000)",
       [PY, "bench/solitaire_games.py", "pirates", agent, "40", "1000000"],
       [PY, "bench/solitaire_games.py", "pirates", agent, "2", "1000000"])
      for agent in ("mcts:root=greedy,sims=32", "greedy", "hard")],
    ("Hubs round-robin (fresh seeds from 2,300,000)",
     [PY, "bench/round_robin.py", "hubs", "random", "greedy", "hard", "--games", "20", "--seed", "2300000",
      "--workers", "2"],
     [PY, "bench/round_robin.py", "hubs", "random", "greedy", "--games", "2", "--workers", "1"]),
    ("Crossroads round-robin, 2 players (fresh seeds from 2,400,000)",
     [PY, "bench/round_robin.py", "crossroads", "-p", "players=2", "random", "greedy", "always-fair",
      "greedy-splitter", "tit-for-tat", "grudger", "hard", "--games", "40", "--seed", "2400000", "--workers", "2"],
     [PY, "bench/round_robin.py", "crossroads", "-p", "players=2", "random", "greedy", "--games", "2",
      "--workers", "1"]),
    *[(f"Crossroads {agent} against the personalities, {n} players (evaluation, seeds 3,000,000-3,000,999)",
       [PY, "bench/crossroads_field.py", agent, "--players", str(n), "--games", "1000", "--seed", "3000000"],
       [PY, "bench/crossroads_field.py", agent, "--players", str(n), "--games", "4", "--seed", "3000000"])
      for n in (3, 4, 5, 6, 2) for agent in ("hard", "greedy")],
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
        shown = " ".join(command[1:] if command[0] == PY else command)
        print(f"\n[{i}/{len(chosen)}] fills the docs/ai.md table: {what}\n$ {shown}", flush=True)
        start = time.perf_counter()
        if subprocess.run(command).returncode:
            failed.append(what)
        print(f"[{i}/{len(chosen)}] done in {time.perf_counter() - start:.0f} s", flush=True)
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
