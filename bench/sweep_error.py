"""How often ``plunder sweep`` calls a variant "clearly worse" when it is not, and how often it
separates one that is: its stopping rule (:func:`plunder.lab.sweep.play_rounds`) run on drawn
outcomes, no games played.

Run: .venv/bin/python bench/sweep_error.py [SWEEPS]
e.g. .venv/bin/python bench/sweep_error.py 1000

Each sweep is ranked by ``win``; outcomes are Bernoulli draws from each variant's own chance.
Prints, per setting, the share of sweeps with a wrong separation (identical variants) or with the
worse variant separated, with its 95% Wilson interval.
"""

from __future__ import annotations

import random
import sys
from typing import Sequence

from plunder.lab.measures import Share
from plunder.lab.store import Row, Run
from plunder.lab.sweep import Variant, play_rounds
from plunder.simulate import wilson

WON = Row(0, 0, ["a"], [1.0], [0.0], {})
LOST = Row(0, 0, ["a"], [-1.0], [0.0], {})
#: (label, the variants' chances, batch, most games)
SETTINGS = [
    ("6 identical variants (50%), batch 200, at most 2000 games", [0.5] * 6, 200, 2000),
    ("12 identical variants (30%), batch 50, at most 1000 games", [0.3] * 12, 50, 1000),
    ("one variant 10 points worse (40% against five at 50%), batch 200, at most 2000", [0.4] + [0.5] * 5, 200, 2000),
]


def sweep_once(chances: Sequence[float], batch: int, most: int, rng: random.Random) -> list[str]:
    """One simulated sweep: each variant's final status."""
    rows: dict[str, list[Row]] = {str(k): [] for k in range(len(chances))}

    def fetch(wanted: Sequence[tuple[Variant, int]]) -> list[list[Row]]:
        out = []
        for v, games in wanted:
            mine, chance = rows[v.values["v"]], chances[int(v.values["v"])]
            mine.extend(WON if rng.random() < chance else LOST for _ in range(games - len(mine)))
            out.append(mine[:games])
        return out

    variants = [Variant({"v": k}, Run("profiteer", {}, ("a",), 0)) for k in rows]
    play_rounds(variants, "win", "profiteer", batch, most, 0.001, fetch)
    return [v.status for v in variants]


def main() -> None:
    sweeps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(2026)
    for label, chances, batch, most in SETTINGS:
        hits = 0
        for _ in range(sweeps):
            status = sweep_once(chances, batch, most, rng)
            hits += (status[0] == "separated") if len(set(chances)) > 1 else ("separated" in status)
        lo, hi = wilson(hits, sweeps)
        what = "worse variant separated" if len(set(chances)) > 1 else "sweeps with a wrong separation"
        print(f"{label}: {what} {Share(hits, sweeps).p:.1%} ({lo:.1%}-{hi:.1%}) of {sweeps}")


if __name__ == "__main__":
    main()
