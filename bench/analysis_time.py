"""Time of ``plunder analyse`` at the default budget: a Pillage 4x4 game and a long Crossroads game.

Run: .venv/bin/python bench/analysis_time.py [--workers 2] [--games pillage,crossroads] [--sims N]

Each game is played by ``medium`` in every seat from a fixed seed (Pillage 4x4: 60
moves; Crossroads with five players: 300), then analysed by a fresh engine (no cache)
with ``--workers`` processes at the game's default budget (docs/analysis.md), or ``--sims``. Printed per game:
its moves and decisions (how many the solver valued, how many losses the playouts looked at
twice), the wall time, the CPU time of this process and of the workers
(``resource.getrusage``: user + system), and the load average before and after. Target (issue 24): under 30 s of wall time each with 2 workers.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from plunder import load_game, play
from plunder.analysis import Engine, Settings

#: the games timed: (label, game id, parameters, seed)
GAMES = (("Pillage 4x4", "pillage", {"board": "square:4x4"}, 1),
         ("Crossroads, 5 players", "crossroads", {"players": "5"}, 5))
#: the target wall time of one analysis with 2 workers, in seconds
TARGET = 30.0


def cpu() -> float:
    """CPU seconds (user + system) of this process and its reaped children so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    """Analyse each game once and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", default="pillage,crossroads", help="which of the games to time")
    parser.add_argument("--sims", type=int, default=None,
                        help="playouts a position (default: the game's own; the web's coach uses plunder.web.limits.COACH_SIMS)")
    args = parser.parse_args()
    for label, game_id, params, seed in GAMES:
        if game_id not in args.games.split(","):
            continue
        game = load_game(game_id, **params)
        record = play(game, ["medium"] * game.num_players, seed=seed)
        load = os.getloadavg()[0]
        wall, used = time.perf_counter(), cpu()
        engine = Engine()
        result = engine.analyse(record, Settings(sims=args.sims), workers=args.workers)
        wall, used = time.perf_counter() - wall, cpu() - used
        exact = sum(m.exact for m in result.moves)
        again = sum(v.gap is not None for v in engine.memory.values())
        print(f"{label}: {len(record.moves)} moves, {len(result.moves)} decisions ({exact} by the solver, "
              f"{again} looked at twice); "
              f"{args.workers} workers: wall {wall:.1f} s, CPU {used:.1f} s "
              f"({'within' if wall <= TARGET else 'over'} the {TARGET:.0f} s target); "
              f"load {load:.2f} -> {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
