"""Start-up of the ``plunder`` command: CPU time of ``plunder --help`` and ``plunder list``.

Run: .venv/bin/python bench/cli_startup.py [--runs 15]

Each run starts the command as a new process (``python -m plunder.cli``, the same code as the
``plunder`` script) and reads the CPU time it used (user + system) from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after: other work on a shared machine does
not count, though it still slows the caches. The first run of each command is a warm-up (it
fills the disk cache) and is not counted. Printed: min, median and max of the runs and the load
average. The target (issue 22): ``plunder --help`` under 0.3 s of CPU, since the command group
loads a command's module (the web app, the lab's plots) only when that command runs.
``plunder list`` is shown beside it: it finds and loads every installed game.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

#: the target for ``plunder --help``, in seconds of CPU (issue 22)
TARGET = 0.3
#: the commands timed, as arguments of ``plunder``
COMMANDS = (["--help"], ["list"])


def cpu_of(args: list[str]) -> float:
    """Seconds of CPU (user + system) one ``plunder ARGS`` process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "plunder.cli", *args], check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "COLUMNS": "80"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Time each command ``--runs`` times and print the figures with the load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command (after one warm-up)")
    runs = parser.parse_args().runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for args in COMMANDS:
        cpu_of(args)  # warm-up: the disk cache, the bytecode cache
        times = [cpu_of(args) for _ in range(runs)]
        name = " ".join(["plunder", *args])
        print(f"{name:15} CPU s over {runs} runs: min {min(times):.3f}  median {statistics.median(times):.3f}  "
              f"max {max(times):.3f}")
        if args == ["--help"]:
            verdict = "meets" if statistics.median(times) < TARGET else "misses"
            print(f"{'':15} target: under {TARGET} s of CPU (median) — {verdict} it")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
