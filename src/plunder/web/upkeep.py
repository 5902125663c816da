"""What a live server process does in the background for the whole site when several share a
PostgreSQL database (``docs/web.md``, "Several server processes").

Every :data:`SCAN_SECONDS` each process tells the store how many games it has in progress and
how many games its coach is analysing (:mod:`.quotas`, so that ``tables.MAX_GAMES_ON`` and
``limits.MAX_ANALYSES`` bound the site), and one of them, the holder of
the site's upkeep lease (:data:`UPKEEP_LEASE`, :mod:`.leases`), does the rest:

* it finds the AI turns nobody is doing: a game whose AI lease ran out unreleased (its holder
  died thinking, or lost the store) is loaded here, whether or not anyone is connected, and its
  AI seat moves (taking the lease afresh). A process that dies thinking is so taken over within
  ``autoplay.LEASE_SECONDS`` + :data:`SCAN_SECONDS` (15 s), then the time the AI takes to think:
  its lease runs out within the first, and the next scan finds it. The upkeep lease lasts
  two scans, so when the scanner itself dies another process takes it within three scans
  (at most the same 15 s);
* it forgets the rate limits' buckets that are full again (:func:`.quotas.forget`);
* it declares the clocks run out in games no process has open (:meth:`.tables.Tables.sweep`:
  a turn-based game nobody is looking at); each process declares those of its open games itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Callable

from . import leases, quotas

if TYPE_CHECKING:
    from .tables import Tables

log = logging.getLogger("plunder.web")

#: how often a process reports its games in progress and the upkeep lease's holder scans
SCAN_SECONDS = 5.0
#: the site's upkeep lease, in the leases' table beside the games' (not a game id: those hold no space)
UPKEEP_LEASE = "site upkeep"
#: the load :data:`plunder.web.tables.MAX_GAMES_ON` bounds
GAMES_ON = "games on"
#: the load :data:`plunder.web.limits.MAX_ANALYSES` bounds (:mod:`.coach`)
ANALYSES = "analyses"


class Upkeep:
    """The background work of one process over ``tables`` (several processes only), under the
    process's name ``holder``."""

    def __init__(self, tables: Tables, holder: str) -> None:
        self.tables = tables
        self.holder = holder
        #: this process's counts in the store (:class:`.quotas.Loads`)
        self.loads = quotas.Loads(tables.storage, holder)
        #: what this process counts of each load, reported every scan
        self.counts: dict[str, Callable[[], int]] = {GAMES_ON: tables.games_on}
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the scans in the background (only when several processes may share the store)."""
        if self.tables.storage.shared:
            self.task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop scanning and withdraw this process's counts."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
            try:
                await self.loads.withdraw()
            except Exception:  # they run out by themselves
                log.exception("could not withdraw this process's counts")

    async def _run(self) -> None:
        """:meth:`once` every :data:`SCAN_SECONDS`; a failure (the store unreachable) waits for the next."""
        while True:
            try:
                await self.once()
            except Exception:
                log.exception("the site's upkeep failed; trying again in %s s", SCAN_SECONDS)
            await asyncio.sleep(SCAN_SECONDS)

    async def once(self) -> list[str]:
        """Report this process's games in progress; if it holds the upkeep lease, take over the AI
        turns left behind and forget full buckets: the games whose AI it set thinking."""
        db, engine = self.tables.db, self.tables.store.engine
        for kind, count in list(self.counts.items()):
            await self.loads.report(kind, count())
        # the players connected through a process that died are absent (claimable) here
        self.tables.forget_gone(await db(quotas.alive, engine))
        if not await db(leases.take, engine, UPKEEP_LEASE, self.holder, 2 * SCAN_SECONDS):
            return []
        await db(quotas.forget, engine)
        await self.tables.sweep()  # clocks run out in games nobody has open (a turn-based game)
        taken = []
        for game_id in await db(leases.expired, engine):
            if game_id == UPKEEP_LEASE:
                continue
            table = await self.tables.get(game_id)
            if table is not None:
                self.tables.kick(table)
            if table is None or table.thinking is None or table.thinking.done():
                await db(leases.clear, engine, game_id)  # nothing left to do (or a showcase nobody watches)
                continue
            log.info("taking over the AI of game %s, whose lease ran out", game_id)
            taken.append(game_id)
        return taken
