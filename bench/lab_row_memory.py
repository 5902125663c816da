"""Memory a lab command holds per stored game: the rows ``Store.rows`` reads back for a report,
a sweep or a tournament (what ``plunder.core.options.MAX_LAB_GAMES`` bounds).

Run: .venv/bin/python bench/lab_row_memory.py GAME AGENTS GAMES
e.g. .venv/bin/python bench/lab_row_memory.py crossroads random 300

Plays the games into a temporary results file, reads them back under ``tracemalloc`` and prints
the bytes kept a row.
"""

from __future__ import annotations

import sys
import tempfile
import tracemalloc
from pathlib import Path

from plunder.core.registry import load_game
from plunder.lab.run import collect
from plunder.lab.store import Run, Store


def main() -> None:
    game_id, agents, games = sys.argv[1], tuple(sys.argv[2].split(",")), int(sys.argv[3])
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "games.sqlite")
        run = Run(game_id, dict(load_game(game_id).params), agents, 0)
        collect(store, run, games)
        tracemalloc.start()
        rows = store.rows(run, games)
        kept, _ = tracemalloc.get_traced_memory()
        store.close()
    print(f"{game_id} {','.join(agents)}: {len(rows)} rows, {kept / len(rows):,.0f} bytes a row")


if __name__ == "__main__":
    main()
