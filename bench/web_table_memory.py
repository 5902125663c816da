"""The memory a game in progress holds on the web server: a table (``plunder.web.tables.Table``)
built from a long game's stored moves, measured with ``tracemalloc``.

Run: .venv/bin/python bench/web_table_memory.py [--moves 10000] [--game crossroads] [--preset 6p]
     [-p max_rounds=10000 -p target=100000]

The game is played by random players (chance at random too) for ``--moves`` moves (the server's
limit, ``table.MAX_GAME_MOVES``, by default), then a table is built from them as the server
builds one when it loads a game. It prints the memory the table holds, the peak while it was
built, the CPU time of the build and how many positions it keeps. The parameters by default
are those of the all-AI game of issue 26 (Crossroads for six, ``max_rounds=10000``,
``target=100000``), which no one wins within the limit.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from plunder.match import play_out
from plunder.core.registry import load_game
from plunder.web.store import HUMAN, ON, GameRow, SeatRow
from plunder.web.table import MAX_GAME_MOVES, Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=MAX_GAME_MOVES)
    parser.add_argument("--game", default="crossroads")
    parser.add_argument("--preset", default="6p")
    parser.add_argument("-p", action="append", default=None, metavar="NAME=VALUE", help="a game parameter")
    args = parser.parse_args()
    params = dict(item.split("=", 1) for item in (args.p or ["max_rounds=10000", "target=100000"]))
    game = load_game(args.game, args.preset, **params)
    moves = play_out(game, ["random"] * game.num_players, 1, most=args.moves)[0].moves
    row = GameRow("bench", game.id, dict(game.params), 1, ON, "t", [SeatRow(HUMAN, token="t")] * game.num_players,
                  moves=moves)
    tracemalloc.start()
    began = time.process_time()
    table = Table(row)
    took = time.process_time() - began
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{game.id} {args.preset} {params}: a table of {len(moves):,} moves holds {held / 1e6:.1f} MB "
          f"(peak {peak / 1e6:.1f} MB while built, {took:.1f} s CPU traced), {table.states.kept()} positions kept")


if __name__ == "__main__":
    main()
