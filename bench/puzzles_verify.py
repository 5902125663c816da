"""Prove every shipped Pillage puzzle again with a fresh exact search (the suite proves a sample).

    .venv/bin/python bench/puzzles_verify.py

Prints how many hold, any that do not (and exits 1 then), and the CPU time.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from plunder.puzzles import puzzles_of, shipped


def main() -> int:
    """Verify them all; 1 if any fails."""
    group = puzzles_of("pillage")
    start = time.process_time()
    puzzles = shipped("pillage")
    failed = [(p.id, problems) for p in puzzles if (problems := group.verify(p))]
    for name, problems in failed:
        print(f"{name}: {'; '.join(problems)}")
    levels = Counter(p.difficulty for p in puzzles)
    print(f"{len(puzzles) - len(failed)} of {len(puzzles)} puzzles hold, in {time.process_time() - start:.1f} CPU s; "
          "difficulty " + ", ".join(f"{d}: {levels[d]}" for d in sorted(levels)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
