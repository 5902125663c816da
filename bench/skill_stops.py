"""How wide ``plunder sweep --rank skill``'s "narrow" stops really are: its stopping rule
(:func:`plunder.lab.sweep.play_rounds`) run on drawn outcomes, no games played.

Run: .venv/bin/python bench/skill_stops.py [STOPS] [PRECISION]
e.g. .venv/bin/python bench/skill_stops.py 600 0.04

Two agents rotate over two seats; "strong" wins each game with its variant's chance (0.5: a gap
of 0; 0.51: a gap of 0.02, where an interval clipped at 0 looked twice as narrow as it was). Prints
how many "narrow" stops have a side of the shown interval (:func:`plunder.lab.sweep.skill_gap`)
wider than the precision, the widest side, and how many intervals hold the true gap.
"""

from __future__ import annotations

import random
import sys
from typing import Sequence

from plunder.lab.measures import wins
from plunder.lab.store import Row, Run
from plunder.lab.sweep import Variant, play_rounds, skill_gap

#: each variant's chance that the agent labelled strong wins a game
EDGES = {"equal": 0.5, "close": 0.51}
#: the four outcomes of a game, shared by every draw: (weak in the first seat, strong won) -> row
ROWS = {(weak_first, won): Row(0, 0, ["weak", "strong"] if weak_first else ["strong", "weak"],
                               [1.0, -1.0] if weak_first != won else [-1.0, 1.0], [0.0, 0.0], {})
        for weak_first in (True, False) for won in (True, False)}


def sweep_once(precision: float, rng: random.Random) -> list[tuple[float, float, float, float]]:
    """One simulated sweep: (gap, low, high, true gap) of each variant that stopped narrow."""
    rows: dict[str, list[Row]] = {key: [] for key in EDGES}

    def fetch(wanted: Sequence[tuple[Variant, int]]) -> list[list[Row]]:
        out = []
        for v, games in wanted:
            mine = rows[v.values["v"]]
            mine.extend(ROWS[(i % 2 == 0, rng.random() < EDGES[v.values["v"]])] for i in range(len(mine), games))
            out.append(mine[:games])
        return out

    variants = [Variant({"v": key}, Run("profiteer", {}, ("weak", "strong"), 0)) for key in EDGES]
    play_rounds(variants, "skill", "profiteer", 200, 20000, precision, fetch)
    out = []
    for v in variants:
        if v.status == "narrow":
            edge = 2 * EDGES[v.values["v"]] - 1
            true = edge if wins(v.rows, "strong").p >= wins(v.rows, "weak").p else -edge
            out.append((*skill_gap(v.rows), true))
    return out


def main() -> None:
    stops = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    precision = float(sys.argv[2]) if len(sys.argv) > 2 else 0.04
    rng = random.Random(37)
    found: list[tuple[float, float, float, float]] = []
    while len(found) < stops:
        found.extend(sweep_once(precision, rng))
    found = found[:stops]
    over = sum(max(g - lo, hi - g) > precision for g, lo, hi, _ in found)
    widest = max(max(g - lo, hi - g) for g, lo, hi, _ in found)
    held = sum(lo <= t <= hi for _, lo, hi, t in found)
    print(f"{stops} narrow stops at precision {precision}: {over} with a side over it (widest {widest:.4f}); "
          f"the interval holds the true gap in {held} ({held / stops:.1%})")


if __name__ == "__main__":
    main()
