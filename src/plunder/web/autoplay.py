"""The AI seats of the tables: an AI seat to move thinks in the background (in the AI
workers, behind the fair lanes of :mod:`.thinking`), and its move is written as a person's is.

A showcase (every seat an AI) moves at a watcher's pace and only while watched; an AI that
fails falls back to a simpler level (:data:`FALLBACK`) and the table is told why. With several
server processes one thinks for a game at a time: the one holding its lease (:class:`Lease`,
:mod:`.leases`); another that would think waits for the lease's time to run out, and takes
over if the holder died.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Protocol

from ..core.game import State
from ..core.record import Move
from .names import capital
from .table import Refused, Table
from .thinking import Busy, Superseded, Thinkers
from .viewers import offer

log = logging.getLogger("plunder.web")

#: an all-AI game (a showcase for spectators) moves at most once in this many seconds, and
#: only while someone watches it
SHOWCASE_SECONDS = 1.0
#: the simpler level an AI seat falls back to when its agent fails (raises in its worker, or
#: answers a move the rules refuse): the game goes on, and its players are told
FALLBACK = {"hard": "medium", "medium": "easy", "easy": "random"}
#: how long an AI move waits before asking again when its lane is full (``thinking.MAX_WAITING``)
BUSY_RETRY_SECONDS = 1.0

#: how long a process holds a game's AI work without renewing it (it renews every third of it
#: while thinking): the longest a game waits for another process when the one thinking dies
LEASE_SECONDS = 10.0

#: how a decided move is stored and shown: the table, the ply of its first move, the moves and
#: the positions after them (:meth:`plunder.web.tables.Tables.write`; hold the table's lock)
Write = Callable[[Table, int, list[Move], list[State]], Awaitable[None]]


def announce(table: Table, message: str, detail: str = "") -> None:
    """Tell every viewer of ``table`` something that is not a move (a ``notice``), each seat
    label in it put as its player's name, as the log puts them."""
    message = capital(table.callers().told(message))
    offer(table.viewers, {"type": "notice", "message": message, "detail": detail or message})


class Lease(Protocol):
    """Which process does a game's AI work (:mod:`.leases`, through the store)."""

    async def take(self, game_id: str, seconds: float, version: int | None = None) -> bool:
        """Hold ``game_id``'s lease for ``seconds`` (True), or learn another holds it (False), or,
        given the ``version`` shown here, that the stored game has moved past it (False)."""

    async def release(self, game_id: str) -> None:
        """Let go of ``game_id``'s lease."""


class Autoplay:
    """Moves the AI seats of the tables, through ``thinkers``, storing each move with ``write``;
    with a ``lease``, only while this process holds the game's (several processes)."""

    def __init__(self, thinkers: Thinkers, write: Write, lease: Lease | None = None) -> None:
        self.thinkers = thinkers
        self.write = write
        self.lease = lease

    def kick(self, table: Table) -> None:
        """Let AI seats move, in the background, if one is to move and none is thinking (in a
        showcase, only while someone watches)."""
        if table.showcase and not table.viewers:
            return
        if table.ai_to_move() and (table.thinking is None or table.thinking.done()):
            table.thinking = asyncio.create_task(self._think(table) if self.lease is None else self._leased(table))

    async def _leased(self, table: Table) -> None:
        """Think for ``table`` while holding its lease; when another process holds it, or the
        stored game has moved past what this process shows (the event telling it is on its way),
        look again once its time is up (it is renewed while its holder thinks, and runs out if it died)."""
        assert self.lease is not None
        try:
            # only for the position the store holds: a process yet to hear of the other's last
            # move would think about a turn already played (and its write would be refused)
            held = await self.lease.take(table.id, LEASE_SECONDS, table.version)
        except Exception:  # the store unreachable: try again as if it were held
            log.exception("could not take the AI lease of game %s", table.id)
            held = False
        if not held:
            asyncio.get_running_loop().call_later(LEASE_SECONDS, self.kick, table)
            return
        renewing = asyncio.create_task(self._renew(table.id))
        try:
            await self._think(table)
        finally:
            renewing.cancel()
            version = table.version
            try:
                await self.lease.release(table.id)
            except Exception:  # its time runs out all the same
                log.exception("could not release the AI lease of game %s", table.id)
            if table.version != version:
                # a person moved while the lease was let go, and found this task still running (kick
                # starts nothing then): look again once it is done, or that AI turn would wait for ever
                asyncio.get_running_loop().call_soon(self.kick, table)

    async def _renew(self, game_id: str) -> None:
        """Renew ``game_id``'s lease every third of its time while thinking."""
        assert self.lease is not None
        while True:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                await self.lease.take(game_id, LEASE_SECONDS)
            except Exception:
                log.exception("could not renew the AI lease of game %s", game_id)

    async def _think(self, table: Table) -> None:
        """AI seats move until a person must (a move planned on a position taken back is dropped);
        a showcase moves at its pace (:data:`SHOWCASE_SECONDS`) until its last spectator leaves; an AI
        that fails falls back to a simpler level (:meth:`fall_back`)."""
        while True:
            if table.showcase:
                await asyncio.sleep(SHOWCASE_SECONDS)
                if not table.viewers:
                    return
            async with table.lock:
                if not table.ai_to_move():
                    return
                state, version, ply = table.state, table.version, len(table.moves)
                seat = state.current_player
                spec = table.level(seat)
            try:
                text, cut = await self.thinkers.choose(table.id, lambda: table.version == version, state, spec,
                                                       table.seed, seat, ply)
                async with table.lock:
                    if table.version != version or not table.on:
                        continue
                    if cut:  # the server was busy: the move's log entry and its viewers say how much less it searched
                        table.add_note(ply + 1, f"the server was busy, so the {spec} AI searched {cut}")
                    moves, states = table.plan(seat, text)
                    await self.write(table, ply, moves, states)
                if ply + 1 in table.notes:  # this move was made at a simpler level or budget: say why, after the move
                    note = table.notes[ply + 1]
                    announce(table, f"{note}.")
            except Superseded:
                continue  # the position changed meanwhile: think about the new one
            except Busy:
                await asyncio.sleep(BUSY_RETRY_SECONDS)
            except Refused as exc:
                if table.version != version:
                    continue  # another process moved first: its change is shown; think again
                log.error("AI %s move refused in game %s: %s", spec, table.id, exc.detail)
                if not self.fall_back(table, seat, ply, spec, exc.detail):
                    return
            except Exception as exc:  # the agent raised in its worker, or the worker died
                log.exception("AI %s failed in game %s", spec, table.id)
                if not self.fall_back(table, seat, ply, spec, f"{type(exc).__name__}: {exc}"):
                    return

    def fall_back(self, table: Table, seat: int, ply: int, spec: str, reason: str) -> bool:
        """Let ``seat`` play at the level below ``spec`` (:data:`FALLBACK`) after ``spec`` failed
        at move ``ply + 1``: that move's log entry says so, and the viewers are told once it is
        made; ``False`` when there is no simpler level (the viewers are told the AI cannot move)."""
        simpler = FALLBACK.get(spec)
        name = table.game.seat_name(seat)
        if simpler is None:
            announce(table, f"{name} cannot move; the game cannot go on.", reason[:200])
            return False
        table.levels[seat] = simpler
        # the log names seats by their players (the AI seat by its level, now the simpler one)
        note = f"{name}: the {spec} AI failed on this position and level {simpler} plays from now on"
        table.add_note(ply + 1, note)
        return True
