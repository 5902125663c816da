"""Time loading Pillage square boards written as board files, against board size.

Usage: .venv/bin/python bench/pillage_board_load.py [--runs N] [--sizes 5,10,20,30]

Each row loads an N x N square board from its board-file text (``board=json:...``, the
form records carry), ``--runs`` times, and prints the median and spread. The reference,
measured in the same run, is the all-pairs line test the loader used before (every pair of
lines checked for a crossing, here in the same integer arithmetic; the old loader used exact
fractions and was slower still), timed on the same boards up to 12 x 12; ``ratio`` is
reference / load. ``us/line`` shows the near-linear growth: it stays roughly flat.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import plunder
from plunder.games.pillage import planar
from plunder.games.pillage.board import integer_points

#: the largest board the all-pairs reference is timed on (it grows with the square of the lines)
REFERENCE_MAX = 12


def square_text(n: int) -> str:
    """An n x n square board as board-file text."""
    w = n + 1
    dots = [[c, r] for r in range(w) for c in range(w)]
    boxes = [[r * w + c, r * w + c + 1, (r + 1) * w + c + 1, (r + 1) * w + c] for r in range(n) for c in range(n)]
    return "json:" + json.dumps({"dots": dots, "boxes": boxes})


def all_pairs(text: str) -> None:
    """The old loader's crossing test: every pair of lines."""
    board = plunder.load_game("pillage", board=text).board
    points = integer_points(board.dots)
    edges = board.edges
    for i, s in enumerate(edges):
        for t in edges[i + 1 :]:
            planar._lines_conflict(points, s, t)


def timed(fn, runs: int) -> list[float]:
    """Seconds per call, ``runs`` times."""
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    """Print one row per board size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="5,10,15,20,25,30")
    args = parser.parse_args()
    print(f"{'board':>8} {'lines':>6} {'load ms':>9} {'spread':>13} {'us/line':>8} {'all-pairs ms':>13} {'ratio':>7}")
    for n in (int(s) for s in args.sizes.split(",")):
        text = square_text(n)
        lines = plunder.load_game("pillage", board=text).board.num_edges
        load = timed(lambda: plunder.load_game("pillage", board=text), args.runs)
        med = statistics.median(load)
        ref = ""
        if n <= REFERENCE_MAX:
            pairs = statistics.median(timed(lambda: all_pairs(text), max(1, args.runs // 2)))
            ref = f"{pairs * 1000:13.1f} {pairs / med:7.1f}"
        print(f"{n:>4}x{n:<3} {lines:>6} {med * 1000:9.1f} {min(load) * 1000:6.1f}-{max(load) * 1000:<6.1f}"
              f" {med / lines * 1e6:8.1f} {ref}")


if __name__ == "__main__":
    main()
