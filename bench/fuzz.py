"""Fuzz every public entry point for minutes with the strategies of ``tests/fuzz/strategies.py``.

Run: .venv/bin/python bench/fuzz.py --minutes 30 [--entry NAME ...] [--case-seconds 10] [--memory-mb 2048]

Cycles through the entry points (action text, action values, parameters, board files,
records), drawing fresh random cases in batches, each case under a wall-time bound and the
whole process under an address-space limit, so a hang or a memory bomb is a failure, not a
stuck machine. Prints cases tried per entry point, then the failures (anything but the
documented errors) by entry point and exception type, with the shortest example seen of each.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import traceback
import warnings
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from tests.fuzz.strategies import ENTRY_POINTS, TooSlow, check_record, presets, records, time_bound  # noqa: E402

#: the test suite's entry points, and records of every preset (longer games than the tests replay)
ENTRIES = {**ENTRY_POINTS, "Record.from_json/replay, every preset": (lambda: records(presets()), check_record)}


class Failures:
    """Failures by (entry point, exception type): a count and the shortest example seen."""

    def __init__(self) -> None:
        self.count: Counter[tuple[str, str]] = Counter()
        self.example: dict[tuple[str, str], tuple[Any, str, str]] = {}

    def add(self, entry: str, case: Any, exc: BaseException) -> None:
        """Count one failure; keep its example if it is the shortest of its kind."""
        key = (entry, type(exc).__name__)
        self.count[key] += 1
        if key not in self.example or len(repr(case)) < len(repr(self.example[key][0])):
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.example[key] = (case, str(exc)[:300], f"{where.filename}:{where.lineno}")


def fails(entry: str, case: Any, kind: str, case_seconds: float) -> bool:
    """True if ``case`` still makes ``entry`` raise an exception of type ``kind``."""
    try:
        with time_bound(case_seconds):
            ENTRIES[entry][1](case)
    except (Exception, RecursionError, MemoryError, TooSlow) as exc:
        return type(exc).__name__ == kind
    return False


def shrink(entry: str, case: Any, kind: str, case_seconds: float, seconds: float = 30.0) -> Any:
    """A smaller case with the same failure: delete ever smaller runs of the case's text while it
    fails, for at most ``seconds`` (hangs and memory bombs are kept as found: each try costs a bound)."""
    text = getattr(case, "text", "")
    if not text or kind in ("TooSlow", "MemoryError"):
        return case
    end = time.monotonic() + seconds
    size = len(text) // 2
    while size >= 1 and time.monotonic() < end:
        i = 0
        while i < len(text) and time.monotonic() < end:
            smaller = replace(case, text=text[:i] + text[i + size:])
            if fails(entry, smaller, kind, min(case_seconds, 2.0)):
                case, text = smaller, smaller.text
            else:
                i += size
        size //= 2
    return case


def run(entry: str, batch: int, case_seconds: float, tried: Counter[str], failures: Failures) -> None:
    """One batch of fresh random cases for ``entry``."""
    strategy, check = ENTRIES[entry]

    @settings(max_examples=batch, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy())
    def fuzz(case: Any) -> None:
        tried[entry] += 1
        try:
            with time_bound(case_seconds):
                check(case)
        except (Exception, RecursionError, MemoryError, TooSlow) as exc:  # every escape is a finding
            failures.add(entry, case, exc)

    fuzz()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--entry", action="append", choices=sorted(ENTRIES), help="only these entry points")
    parser.add_argument("--batch", type=int, default=50, help="cases per batch")
    parser.add_argument("--case-seconds", type=float, default=10.0, help="wall-time bound of one case")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the process")
    args = parser.parse_args()
    # positions come from cached, seeded playthroughs; hypothesis cannot tell those from a random stream
    warnings.filterwarnings("ignore", "Do not use the `random` module")
    limit = args.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    entries = args.entry or list(ENTRIES)
    tried: Counter[str] = Counter()
    failures = Failures()
    start = time.monotonic()
    end = start + 60 * args.minutes
    while time.monotonic() < end:
        for entry in entries:
            if time.monotonic() >= end:
                break
            run(entry, args.batch, args.case_seconds, tried, failures)
    minutes = (time.monotonic() - start) / 60
    print(f"{sum(tried.values())} cases in {minutes:.1f} min (limits: {args.case_seconds:g} s per case, "
          f"{args.memory_mb} MB address space)")
    for entry in entries:
        found = sum(n for (e, _), n in failures.count.items() if e == entry)
        print(f"  {entry:40} {tried[entry]:8} cases  {found:6} failures")
    if not failures.count:
        print("no failures")
        return
    print("failures by entry point and exception type (shortest example seen, then shrunk):")
    for (entry, kind), n in sorted(failures.count.items()):
        case, message, where = failures.example[(entry, kind)]
        shown = repr(shrink(entry, case, kind, args.case_seconds))
        print(f"- {entry}: {kind} x{n} at {where}\n    {message}\n    example: {shown[:1000]}")


if __name__ == "__main__":
    main()
