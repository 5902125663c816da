"""CPU time of the daily deal's par (docs/web.md, "The daily deal"): for each of ``--days``
days, each solitaire's par worked out as the server does (:func:`plunder.web.daily.compute_par`:
the hard level's game, then the clairvoyant's level-1 search for the best score), on the seeds a
fixed secret gives those days.

Run: .venv/bin/python bench/daily_par.py [--days 10]

The CPU time is the process's own (``time.process_time``), so other work on a shared machine
does not count. Printed per game: min, median and max seconds, and the par's scores. The budget
the docs state is the max of a day's games added up.
"""

from __future__ import annotations

import argparse
import os
import statistics
from datetime import date, timedelta

from plunder.web.daily import compute_par, seed_of, solitaires

#: the secret of the benchmark's deals (any fixed text: the seeds are then the same every run)
SECRET = "bench"


def main() -> None:
    """Work out ``--days`` days' pars and print the CPU seconds per game and per day."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=10)
    args = parser.parse_args()
    first = date(2026, 1, 1)
    days = [(first + timedelta(days=i)).isoformat() for i in range(args.days)]
    per_day = {d: 0.0 for d in days}
    for game in solitaires():
        cpu, agent, foresight = [], [], []
        for day in days:
            par = compute_par(game, seed_of(SECRET, day, game))
            cpu.append(par.cpu)
            agent.append(par.agent_score)
            foresight.append(par.foresight)
            per_day[day] += par.cpu
        print(f"{game}: CPU s min {min(cpu):.2f} median {statistics.median(cpu):.2f} max {max(cpu):.2f}; "
              f"hard AI median {statistics.median(agent):g}, foresight median {statistics.median(foresight):g}")
    print(f"a day's pars together: CPU s median {statistics.median(per_day.values()):.2f} "
          f"max {max(per_day.values()):.2f} over {len(days)} days; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
