"""How much the coach's analyses delay the ``hard`` AI's replies (issue 36).

Run: .venv/bin/python bench/analysis_beside_ai.py [--analyses 4] [--games 4] [--seconds 60] [--runs 2]
     .venv/bin/python bench/analysis_beside_ai.py --direct [--analyses 4] [--seconds 30] [--runs 3]

``--direct`` measures the server's AI pools themselves (:class:`plunder.web.thinking.Thinkers`
with one searching worker per core, started and warmed as the server starts them), without
HTTP or a browser's think time: one game per searching worker asks ``hard`` for a move in a
Pillage ``small`` position again as soon as it is answered, for ``--seconds``, in three
arrangements taken in turn each run (so the machine's other work weighs on each alike): no
analysis; ``--analyses`` analyses of Pillage ``big`` games kept valuing in the coach's worker
(as served now); and the same in a slot of the searching pool (as served before issue 36).
Printed per arrangement: the replies' count, p50, p95 and maximum in wall time, the same of
the time each request waited for a worker to begin its search (the queue, apart from the CPU
the search then gets), and the positions valued.

Without ``--direct``:
Each run starts ``plunder serve`` twice on a fresh SQLite file holding finished Pillage games
(``big``, 5x5, random play: about 60 decisions each to value), and plays ``--games`` games of
Pillage ``small`` against ``hard`` for ``--seconds`` (bots from ``bench/web_load.py``: a random
legal move after ``--think`` seconds on average): once alone, once with ``--analyses`` analyses
under way from the start (each by a seat token of its own, as people press Analyse; one that
ends is replaced by the next game's while the site's shares allow). Printed per phase: the
``hard`` replies' count, p50, p95 and maximum (from the acknowledgement of the person's move
to the AI's reply), the positions the coach valued meanwhile, the refusals, and the load
average. The target: the replies' p95 with analyses no more than the load bench's
acknowledgement target (``web_load.TARGET_P95_MS``, 100 ms) above the p95 without.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.client
import json
import os
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

from web_load import TARGET_P95_MS, Tally, bot, pct, start_server

from plunder.analysis.engine import plan
from plunder.core.game import CHANCE, State
from plunder.core.registry import load_game
from plunder.match import play_out
from plunder.web.coach import COACH_SETTINGS
from plunder.web.limits import MAX_ANALYSES
from plunder.web.thinking import Lane, Thinkers, always, choose
from plunder.web.security import TOKEN_HEADER, new_token
from plunder.web.store import HUMAN, OVER, GameRow, SeatRow, Store

#: the finished games the coach is asked to analyse
ANALYSED = ("pillage", "big")


def stored_games(db: Path, count: int) -> list[str]:
    """``count`` finished games of :data:`ANALYSED` (random play) stored in ``db``; their ids."""
    game = load_game(ANALYSED[0], preset=ANALYSED[1])
    store = Store(f"sqlite:///{db}")
    made = []
    try:
        for seed in range(count):
            record, _ = play_out(game, ["random", "random"], seed=seed)
            row = GameRow(new_token(), game.id, dict(game.params), seed, OVER, "bench",
                          [SeatRow(HUMAN, token="t"), SeatRow(HUMAN, token="t")], moves=list(record.moves))
            store.create(row)
            made.append(row.id)
    finally:
        store.close()
    return made


def post(url: str, path: str, token: str) -> tuple[int, dict[str, Any]]:
    """POST ``path`` as the holder of ``token``: the status and the JSON answer."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    conn.request("POST", path, headers={TOKEN_HEADER: token})
    answer = conn.getresponse()
    body = json.loads(answer.read() or b"{}")
    conn.close()
    return answer.status, body


def get(url: str, path: str) -> dict[str, Any]:
    """GET ``path``: its JSON answer."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    conn.request("GET", path)
    body: dict[str, Any] = json.loads(conn.getresponse().read() or b"{}")
    conn.close()
    return body


async def keep_analysing(url: str, games: list[str], running: int, stop: asyncio.Event,
                         seen: dict[str, Any]) -> None:
    """Keep ``running`` analyses under way until ``stop``: the positions they valued, the refusals."""
    queue = list(games)
    under_way: list[str] = []
    done_before: dict[str, int] = {}
    while not stop.is_set():
        while len(under_way) < running and queue:
            game_id = queue.pop(0)
            status, body = await asyncio.to_thread(post, url, f"/replay/game/{game_id}/analyse", new_token())
            if status in (200, 202):
                under_way.append(game_id)
            else:
                seen["refused"].append(f"{status} {body.get('error', '')[:60]}")
                break
        for game_id in list(under_way):
            body = await asyncio.to_thread(get, url, f"/replay/game/{game_id}/analysis")
            done_before[game_id] = int(body.get("done", 0))
            if body.get("status") != "running":
                under_way.remove(game_id)
                seen["finished"] += 1
        seen["valued"] = sum(done_before.values())
        seen["most"] = max(seen["most"], len(under_way))
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except asyncio.TimeoutError:
            pass


async def phase(url: str, analyses: int, games: list[str], bots: int, seconds: float, think: float) -> dict[str, Any]:
    """One phase: ``bots`` games against ``hard`` beside ``analyses`` analyses kept under way."""
    tally = Tally()
    seen: dict[str, Any] = {"valued": 0, "finished": 0, "refused": [], "most": 0}
    stop = asyncio.Event()
    keeper = asyncio.create_task(keep_analysing(url, games, analyses, stop, seen)) if analyses else None
    if keeper is not None:  # the analyses under way before the first reply is timed
        deadline = time.monotonic() + 120
        while seen["valued"] == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
    start = asyncio.Event()
    end = time.perf_counter() + seconds
    players = [asyncio.create_task(bot(i, url, [("pillage", "small")], ["hard"], 1000, think, tally, start, end))
               for i in range(bots)]
    load = os.getloadavg()[0]
    start.set()
    await asyncio.gather(*players)
    stop.set()
    if keeper is not None:
        await keeper
    hard = tally.replies["hard"]
    return {"analyses": analyses, "replies": len(hard), "p50": pct(hard, 50), "p95": pct(hard, 95),
            "max": pct(hard, 100), "valued": seen["valued"], "finished": seen["finished"], "most": seen["most"],
            "refused": seen["refused"], "errors": tally.errors, "load": load}


def ai_positions(count: int) -> list[State]:
    """``count`` Pillage ``small`` positions with a player to move, from random games."""
    game = load_game("pillage", preset="small")
    found: list[State] = []
    seed = 0
    while len(found) < count:
        record, _ = play_out(game, ["random", "random"], seed=seed)
        state = game.new_initial_state()
        for i, move in enumerate(record.moves):
            if state.current_player != CHANCE and i % 3 == 0:
                found.append(state)
            state = state.apply(state.game.parse_action(state, move.action))
        seed += 1
    return found[:count]


def timed_choose(state: State, spec: str, seed: int, seat: int, ply: int, share: float) -> float:
    """:func:`plunder.web.thinking.choose` in a worker: when it began there (seconds since the epoch)."""
    began = time.time()
    choose(state, spec, seed, seat, ply, share)
    return began


async def direct_phase(thinkers: Thinkers, where: str | None, analyses: int, seconds: float,
                       positions: list[State], tasks: list[Any]) -> dict[str, Any]:
    """``hard`` replies for ``seconds`` with ``analyses`` analyses valuing in the pool ``where``
    (``analysis``: the coach's worker; ``deep``: the searching pool; ``None``: none)."""
    if where is not None:
        thinkers.lanes["analysis"] = Lane(functools.partial(thinkers.pool_of, where), 1, MAX_ANALYSES)
    end = time.monotonic() + seconds
    replies: list[float] = []
    waits: list[float] = []
    valued = [0]

    async def game(k: int) -> None:
        i = k
        while time.monotonic() < end:
            state = positions[i % len(positions)]
            asked, began = time.time(), time.perf_counter()
            # as Thinkers.choose asks, the time the search began in its worker told back
            started = await thinkers.lanes["deep"].run(f"game{k}", always, timed_choose, state, "hard", 1,
                                                       state.current_player, i, shares=True)
            replies.append(time.perf_counter() - began)
            waits.append(max(0.0, started - asked))
            i += len(positions) // 7 + 1

    async def analyse(k: int) -> None:
        i = k
        while time.monotonic() < end:
            await thinkers.value(f"analyse:{k}", tasks[i % len(tasks)])
            valued[0] += 1
            i += analyses

    load = os.getloadavg()[0]
    await asyncio.gather(*(game(k) for k in range(thinkers.workers)),
                         *(analyse(k) for k in range(analyses if where else 0)))
    return {"replies": len(replies), "p50": pct(replies, 50), "p95": pct(replies, 95), "max": pct(replies, 100),
            "wait50": pct(waits, 50), "wait95": pct(waits, 95), "waitmax": pct(waits, 100),
            "valued": valued[0], "load": load}


async def direct(analyses: int, seconds: float, runs: int) -> None:
    """The three arrangements, ``runs`` times each, taken in turn."""
    positions = ai_positions(60)
    game = load_game(*ANALYSED[:1], preset=ANALYSED[1])
    tasks = [t for seed in range(4)
             for t in plan(play_out(game, ["random", "random"], seed=seed)[0], COACH_SETTINGS).tasks]
    thinkers = Thinkers()
    try:
        await thinkers.start()
        await thinkers.value("warm", tasks[0])
        for run in range(runs):
            for label, where in (("no analysis", None), ("coach's worker (now)", "analysis"),
                                 ("searching pool (before)", "deep")):
                r = await direct_phase(thinkers, where, analyses, seconds, positions, tasks)
                print(f"run {run + 1}, {label}, {analyses if where else 0} analyses (load {r['load']:.2f}): "
                      f"hard replies {r['replies']}, p50 {r['p50']:,.0f} ms, p95 {r['p95']:,.0f} ms, "
                      f"max {r['max']:,.0f} ms; waiting for a worker p50 {r['wait50']:,.0f} ms, "
                      f"p95 {r['wait95']:,.0f} ms, max {r['waitmax']:,.0f} ms; positions valued {r['valued']}",
                      flush=True)
    finally:
        thinkers.close()


def main() -> None:
    """Run the phases and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--analyses", type=int, default=4, help="analyses kept under way in the second phase")
    parser.add_argument("--games", type=int, default=4, help="games against hard played in each phase")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a bot waits before its move")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--direct", action="store_true", help="the AI pools themselves, without HTTP")
    args = parser.parse_args()
    if args.direct:
        asyncio.run(direct(args.analyses, args.seconds, args.runs))
        return
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            for analyses in (0, args.analyses):
                db = Path(folder) / f"run{run}-{analyses}.db"
                games = stored_games(db, 12) if analyses else []
                process, url = start_server(db)
                try:
                    time.sleep(5)  # the workers warm
                    result = asyncio.run(phase(url, analyses, games, args.games, args.seconds, args.think))
                finally:
                    process.terminate()  # its workers end with it
                    try:
                        process.wait(30)
                    except Exception:
                        process.kill()
                        process.wait()
                results.append(result)
                print(f"run {run + 1}, {analyses} analyses (load {result['load']:.2f}): hard replies "
                      f"{result['replies']}, p50 {result['p50']:,.0f} ms, p95 {result['p95']:,.0f} ms, "
                      f"max {result['max']:,.0f} ms; positions valued {result['valued']} "
                      f"(analyses at once at most {result['most']}, finished {result['finished']}); "
                      f"refused {len(result['refused'])}; errors {len(result['errors'])}", flush=True)
    for run in range(args.runs):
        alone, beside = results[2 * run], results[2 * run + 1]
        delay = beside["p95"] - alone["p95"]
        print(f"run {run + 1}: p95 {delay:+,.0f} ms with {args.analyses} analyses "
              f"({'within' if delay <= TARGET_P95_MS else 'over'} the {TARGET_P95_MS:.0f} ms target)")


if __name__ == "__main__":
    main()
