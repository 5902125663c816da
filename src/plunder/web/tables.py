"""Every game the server shows: :class:`Tables` puts together the parts of a game at a table,
each a module of its own, as a game server's master does (its game, storage and transport):

* :mod:`.table`: a game's state and its rules of play, and what each viewer is sent;
* :mod:`.storage` over :mod:`.store`: where every change is written before it is shown;
* :mod:`.autoplay` over :mod:`.thinking`: the AI seats' moves, behind fair lanes;
* :mod:`.transport` (:mod:`.pgtransport` for several processes): every change told to every
  process showing the game, which tells its connections (:mod:`.viewers`).

A change is written to the store before it is acknowledged, with the event telling it; the
process that made it shows it at once, the others when the event reaches them (a table behind
is rebuilt from its stored seed, seats and moves). Two processes never both change one game:
a write names the version it was planned on (:class:`~.store.StaleWrite`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import time
from typing import Any, Awaitable, Callable, Iterable, Sequence

from sqlalchemy.engine import make_url

from ..core.game import Game, State
from ..core.record import Move
from ..match import new_seed, undo_point
from . import clockstore, daily, leases, outcomes, ratings
from . import autoplay as autoplaying
from .autoplay import Autoplay
from .clocks import Clock, TimeControl
from .clockstore import CLAIMED, ON_TIME, Kept
from .daily import Daily
from .identities import SIGNED_OUT_WORDS, ended_among
from .names import names_of
from .pgtransport import PgTransport
from .quotas import LOAD_SECONDS
from .rooms import list_game, rematch_of
from .security import new_token
from .storage import Storage
from .store import ABORTED, AI, HUMAN, ON, OPEN, OVER, RESIGNED, GameRow, SeatRow, StaleWrite, Store
from .table import MAX_GAME_MOVES, SEAT_CHOICES, Full, Prepared, Refused, Table, Told
from .thinking import Busy, Superseded, Thinkers
from .transport import SITE, Event, InMemory, Transport, chained, game_channel
from .upkeep import GAMES_ON, Upkeep
from .viewers import Viewer, cut_off, tell

log = logging.getLogger("plunder.web")

#: most games kept in memory; idle ones (no viewer, no AI thinking) are dropped first and
#: reloaded from the store when wanted again
MAX_OPEN_TABLES = 5000
#: games in progress on the site at most (every server process's together: :mod:`.quotas`),
#: whatever addresses create them (the limit per address, ``limits.CREATE_RATE``, is bypassed
#: by rotating addresses): past it a new game is refused (:class:`~.table.Full`) until some end
#: or go quiet
MAX_GAMES_ON = 1_000
#: how long an open table trusts the names it read before a page or a connection reads them
#: again (a rename is told at once: :meth:`Tables.renamed`); a table reloaded without pause
#: would otherwise ask the store every time
NAMES_FRESH_SECONDS = 5.0

#: the events of a game: moves stored (``version``, ``first``, ``status``, ``moves``), another
#: change (``version``: a seat taken, a resignation), a rematch offered or accepted
MOVES, CHANGED, REMATCH = "moves", "changed", "rematch"
#: the site's event: a browser chose a name (``token``, its hash)
RENAMED = "renamed"
#: the site's event: a browser signed out (``token``, the hash of the token it held): its
#: game connections, in every process, are told and closed
SIGNED_OUT = "signed-out"


def signed_out_message() -> dict[str, Any]:
    """The last message of a game connection whose browser signed out (or whose sign-in expired)."""
    return {"type": "error", "message": SIGNED_OUT_WORDS, "detail": SIGNED_OUT_WORDS}


#: a game's event: a person's seat has a connection in a process or none any more (``holder``:
#: the process, ``tokens``: the persons connected there)
PRESENCE = "presence"
#: how often a process looks at the clocks of the games it has open (seconds)
CLOCK_CHECK_SECONDS = 0.25
#: how often a single process (SQLite) looks in the store for clocks run out in games nobody
#: has open; several processes leave it to the site's upkeep (:mod:`.upkeep`)
CLOCK_SCAN_SECONDS = 5.0
#: how often a process asks the store whether the sessions its connections were opened with
#: ended without a sign-out it was told of (idle too long): those are closed (seconds)
SESSION_SWEEP_SECONDS = 60.0
#: the AI level that takes over the seat of a player who ran out of time in a game of three
#: seats or more, so the others finish (docs/web.md, "Time controls")
ZOMBIE_LEVEL = "medium"
#: names a file holding seconds to add to the wall clock: tests move the server's time with it
#: (read only when set in the environment of the server's process, which no player reaches)
TIME_SHIFT_ENV = "PLUNDER_TEST_TIME_SHIFT_FILE"


def wall_clock() -> Callable[[], float]:
    """The server's time: ``time.time``, shifted by the seconds in the file that
    :data:`TIME_SHIFT_ENV` names, if set (tests only), read again at most every 0.1 s."""
    path = os.environ.get(TIME_SHIFT_ENV)
    if not path:
        return time.time
    cache = [0.0, 0.0]  # shift, when read (monotonic)

    def shifted() -> float:
        if time.monotonic() - cache[1] > 0.1:
            try:
                with open(path, encoding="utf-8") as f:
                    cache[0] = float(f.read().strip())
            except (OSError, ValueError):
                pass  # caught mid-write (empty): the shift read last stands, rather than days undone for a moment
            cache[1] = time.monotonic()
        return time.time() + cache[0]
    return shifted


class StoredLease:
    """The AI leases of one process in the store (:mod:`.leases`): held under a name of its own."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: this process's name in the leases
        self.holder = new_token()

    async def take(self, game_id: str, seconds: float, version: int | None = None) -> bool:
        """Hold ``game_id``'s lease for ``seconds``, or learn another process holds it (or, given
        the ``version`` shown here, that the stored game has moved past it)."""
        return await self.storage.db(leases.take, self.storage.store.engine, game_id, self.holder, seconds, None,
                                     version)

    async def release(self, game_id: str) -> None:
        """Let go of ``game_id``'s lease."""
        await self.storage.db(leases.release, self.storage.store.engine, game_id, self.holder)


def transport_name(db_url: str) -> str:
    """The name of the transport a server over ``db_url`` uses (:func:`transport_for`), as
    ``plunder serve`` says it on start."""
    return PgTransport.name if make_url(db_url).get_backend_name() == "postgresql" else InMemory.name


def transport_for(storage: Storage) -> Transport:
    """The transport a store calls for: PostgreSQL's own when several processes may share it,
    else the in-memory one of a single process (SQLite)."""
    if storage.shared:
        return PgTransport(storage.store.engine, storage.store.url, storage.db)
    return InMemory()


class Tables:
    """Every game the server is showing, over one store (:class:`~.storage.Storage`), one pool
    of AI workers (:class:`~.autoplay.Autoplay`) and one transport (:mod:`.transport`)."""

    def __init__(self, store: Store, thinkers: Thinkers, hint_agent: str | None = None,
                 transport: Transport | None = None) -> None:
        self.storage = Storage(store)
        self.store = store
        self.db = self.storage.db
        self.thinkers = thinkers
        #: this process's AI leases (used when several processes may share the store)
        self.lease = StoredLease(self.storage)
        self.autoplay = Autoplay(thinkers, self.write, self.lease if self.storage.shared else None)
        #: the site's background work and this process's counts (:mod:`.upkeep`)
        self.upkeep = Upkeep(self, self.lease.holder)
        #: the transport: given, else the one the store calls for (:func:`transport_for`)
        self.transport = transport or transport_for(self.storage)
        #: the agent behind hints; ``None``: each game's own (``Strength.hint``, as ``plunder play``)
        self.hint_agent = hint_agent
        #: the time (seconds since the epoch): which day's deal is on (the tests set their own)
        self.clock: Callable[[], float] = time.time
        self.open: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: called with a table and the ply of its first new move once moves are stored and shown
        #: (the table talk tells the moves that belong to it: :mod:`.chat`)
        self.moved: list[Callable[[Table, int], Awaitable[None]]] = []
        #: called with a game's id when its table is dropped from memory
        self.dropped: list[Callable[[str], None]] = []
        #: called with a table once its seats or status changed otherwise than by moves, stored:
        #: created, a seat taken, a resignation (the lobby and "my games": :mod:`.roomfeed`)
        self.changed: list[Callable[[Table], Awaitable[None]]] = []
        #: called for the token hashes this process's other connections were opened with (the
        #: room's ``/live`` feeds: :mod:`.roomfeed`), whose sessions :meth:`sweep_sessions` checks
        self.connections: list[Callable[[], Iterable[str]]] = []
        self.transport.on(MOVES, self._moves_told)
        self.transport.on(CHANGED, self._change_told)
        self.transport.on(REMATCH, self._rematch_told)
        self.transport.on(RENAMED, self._rename_told)
        self.transport.on(PRESENCE, self._presence_told)
        self.transport.on(SIGNED_OUT, self._signed_out_told)
        #: the server's time, seconds since the epoch (tests give their own)
        self.time: Callable[[], float] = wall_clock()
        self._watching: asyncio.Task[None] | None = None
        #: presence events being published (:meth:`_present`)
        self._telling: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        """Start the transport (call from inside the event loop)."""
        await self.transport.start()
        self.upkeep.start()
        self._watching = asyncio.create_task(self._watch())

    async def close(self) -> None:
        """Stop the upkeep, the transport, the AI workers and the store's threads."""
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None
        await self.upkeep.close()
        await self.transport.close()
        for table in self.open.values():
            if table.thinking is not None:
                table.thinking.cancel()
        self.thinkers.close()
        self.storage.close()

    def kick(self, table: Table) -> None:
        """Let AI seats move, in the background (:meth:`.autoplay.Autoplay.kick`)."""
        self.autoplay.kick(table)

    async def get(self, game_id: str) -> Table | None:
        """The table of ``game_id``, loaded from the store if it is not open; ``None`` if unknown."""
        table = self.open.get(game_id)
        if table is not None:
            table.used = time.monotonic()
            if table.used - table.named_at > NAMES_FRESH_SECONDS:
                await self.named(table)  # a name may have changed since (in another process)
                await self.ready(table)  # and with it the picture's captions
            return table
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            table = self.open.get(game_id)
            if table is None:
                # followed before it is read: a change stored meanwhile is told after (and skipped
                # if the read saw it already)
                await self.transport.follow(game_channel(game_id))
                row = await self.db(self.store.load, game_id)
                if row is None:
                    self.transport.unfollow(game_channel(game_id))
                    self._loading.pop(game_id, None)
                    return None
                # replaying the moves and drawing the position take a second for a long or
                # large game: a thread does it while the event loop serves the other games
                # (its picture is drawn by :meth:`ready` below, once the players' names are read)
                table = await asyncio.to_thread(Table, row)
                table.rated = await self.db(ratings.is_rated, self.store, game_id)
                await self._clock_read(table)
                table.hidden_until = await self.db(daily.hidden_until, self.store, game_id)
                self._evict()
                self.open[game_id] = table
        self._loading.pop(game_id, None)
        await self.named(table)
        await self.settle(table)
        await self.ready(table)
        return table

    async def renamed(self, token: str) -> None:
        """The holder of the token hashed ``token`` chose a name (stored): every process's
        tables where it sits read names anew and tell their viewers."""
        await self.transport.publish(SITE, RENAMED, {"token": token})

    async def signed_out(self, token: str) -> None:
        """The browser holding the token hashed ``token`` signed out (stored): its game
        connections, in every process, are told so and closed, rather than go on receiving its
        seats' states until their next message is refused (:func:`.identities.still_signed_in`)."""
        await self.transport.publish(SITE, SIGNED_OUT, {"token": token})

    async def _signed_out_told(self, event: Event) -> None:
        """A browser signed out: this process's connections opened with its token are told, then closed."""
        token = event.data["token"]
        for table in list(self.open.values()):
            gone = [v for v in table.viewers if v.connection == token]
            for viewer in gone:  # what waited for it is not its any more
                cut_off(table.viewers, viewer, signed_out_message())
            if gone:
                self._present(table)

    async def _rename_told(self, event: Event) -> None:
        """A browser was renamed: its open tables read the names anew; those watched say so."""
        token = event.data["token"]
        for table in list(self.open.values()):
            if any(s.token == token for s in table.row.seats):
                table.named_at = 0.0
                if table.viewers:
                    await self.named(table)
                    await self.ready(table)
                    self.tell(table)

    async def rematched(self, table: Table) -> None:
        """A rematch of ``table`` was offered or accepted (stored): its viewers, in every
        process, are told."""
        await self.named(table)  # this process's pages at once (the asker's next page among them)
        await self.transport.publish(game_channel(table.id), REMATCH, {})

    async def _rematch_told(self, event: Event) -> None:
        """A rematch changed: the table reads it again and tells its viewers."""
        table = self.open.get(event.channel.partition(":")[2])
        if table is not None:
            await self.named(table)
            self.tell(table)

    async def named(self, table: Table) -> None:
        """Read the seats' chosen names and, once the game is over, the names it was played
        under and its rematch, as stored now."""
        table.named_at = time.monotonic()
        table.chosen = await self.db(names_of, self.store, [s.token for s in table.row.seats if s.token])
        # a finished game keeps the names it was played under (kept when it was settled)
        # (written once, never changed: read until found)
        table.played = None if table.on else table.played or await self.db(outcomes.names_played, self.store,
                                                                             table.id)
        table.rematch = None if table.on else await self.db(rematch_of, self.store, table.id)

    async def ready(self, table: Table) -> None:
        """Have the position now's picture and legal moves worked out: in a thread for a game
        whose last ones took longer than :data:`~.table.PREPARE_INLINE_SECONDS`, else here."""
        while not table.ready():
            if not table.slow():
                table.prepare()
                return
            if table.preparing is None or table.preparing.done():
                table.preparing = asyncio.ensure_future(asyncio.to_thread(Prepared.of, *table.now()))
            table.keep(await asyncio.shield(table.preparing))

    def _evict(self) -> None:
        """Drop the longest-unused idle tables past :data:`MAX_OPEN_TABLES` (the store keeps them)."""
        if len(self.open) < MAX_OPEN_TABLES:
            return
        idle = sorted((t for t in self.open.values() if not t.viewers and (t.thinking is None or t.thinking.done())),
                      key=lambda t: t.used)
        for table in idle[: len(self.open) - MAX_OPEN_TABLES + 1]:
            self.drop(table.id)

    def drop(self, game_id: str) -> None:
        """Forget ``game_id``'s table (the store keeps the game): its events are no longer followed."""
        self.open.pop(game_id, None)
        self.transport.unfollow(game_channel(game_id))
        for hook in self.dropped:
            hook(game_id)

    async def create(self, game: Game, choices: Sequence[str], creator: str, rated: bool = False,
                     listed: bool = False, control: TimeControl | None = None, address: str = "") -> str:
        """Store a new game of ``game`` with seats as chosen (:data:`SEAT_CHOICES`) by the holder
        of the token hashed ``creator``, rated or not (:mod:`.ratings`), its open seats in the
        lobby if ``listed`` (counted in the lobby's share of its creator's ``address``), with the
        time control ``control`` (or none); its id. Chance's opening draws are stored with it."""
        if len(choices) != game.num_players:
            raise Refused(f"{game.title} is played by {game.num_players}: give every seat a player")
        refusal = ratings.rated_refusal(game, choices) if rated else None
        if refusal:
            raise Refused(refusal, field="rated")
        if rated and control is None:
            raise Refused("A rated game has a time control, so that its result is one played against the clock.",
                          field="clock")
        await self.admit()
        seats = []
        for choice in choices:
            if choice in ("me", "hotseat"):
                seats.append(SeatRow(HUMAN, token=creator))
            elif choice == "open":
                seats.append(SeatRow(OPEN, invite=new_token()))
            elif choice in ("easy", "medium", "hard"):
                seats.append(SeatRow(AI, agent=choice))
            else:
                raise Refused(f"a seat is {choice!r}; each seat is one of {', '.join(SEAT_CHOICES)}")
        return await self.seated(game, seats, creator, rated, listed, control, address)

    async def admit(self) -> None:
        """Raise :class:`Full` when the site has :data:`MAX_GAMES_ON` games in progress."""
        if not await self.upkeep.loads.claim(GAMES_ON, self.games_on(), MAX_GAMES_ON):
            raise Full(f"The server has {MAX_GAMES_ON:,} games in progress, its limit; "
                       "try again in a few minutes.")

    def games_on(self) -> int:
        """Games in progress in this process's memory (:meth:`.table.Table.active`)."""
        now = time.monotonic()
        return sum(t.active(now) for t in self.open.values())

    async def seated(self, game: Game, seats: list[SeatRow], creator: str, rated: bool = False,
                     listed: bool = False, control: TimeControl | None = None, address: str = "",
                     daily: Daily | None = None, seed: int | None = None) -> str:
        """Store a new game of ``game`` with ``seats``, created by the holder of the token
        hashed ``creator`` from ``address``, rated or not, its open seats in the lobby if
        ``listed``, with the time control ``control`` (or none); its id (:meth:`create` and
        rematches). A ``daily`` game is dealt from its seed and written with its entry (an
        entry already there: ``IntegrityError``, nothing stored); else ``seed`` deals it (a
        past day's deal), by default a fresh one."""
        seed = daily.seed if daily is not None else new_seed() if seed is None else seed
        row = GameRow(new_token(), game.id, dict(game.params), seed, ON, creator, seats)
        table = Table(row)
        table.time = self.time
        moves: list[Move] = []
        states = [table.state]
        table.followed(moves, states)
        row.moves = moves
        if states[-1].is_terminal():
            row.status = OVER
        also = ratings.rated_in(row.id) if rated else None if daily is None else daily.entry(row.id)
        if control is not None:  # the clock stored with the game, in its transaction
            table.kept = Kept(Clock.new(control, len(seats)).started(table.clock_runs_for(states[-1]), self.time()))
            also = chained(also, clockstore.writer(row.id, table.kept))
        await self.db(self.store.create, row, also)
        table.rated = rated
        table.hidden_until = None if daily is None else daily.hidden_until
        if listed and any(s.kind == OPEN for s in seats):
            await self.db(list_game, self.store, row.id, address)
        table.extend(moves, states[1:])
        self._evict()
        await self.transport.follow(game_channel(row.id))
        self.open[row.id] = table
        await self.named(table)
        await self.ready(table)
        self.kick(table)
        await self._changed(table)
        return row.id

    async def claim(self, invite: str, token: str) -> str | None:
        """Give an open seat to the holder of the token hashed ``token``; the game's id, or
        ``None`` when the invite is unknown or used."""
        claimed = await self.db(self.store.claim, invite, token)
        if claimed is None:
            return None
        table = await self.get(claimed[0])
        if table is not None:
            async with table.lock:
                await self.refresh(table)
            # a seat taken is stored already: told after, in a transaction of its own
            await self.transport.publish(game_channel(table.id), CHANGED, {"version": table.version})
            self.kick(table)
            await self._changed(table)
        return claimed[0]

    async def _changed(self, table: Table) -> None:
        """Call the :attr:`changed` hooks."""
        for hook in self.changed:
            await hook(table)

    async def refresh(self, table: Table) -> None:
        """Reload ``table`` from the store and tell its viewers (hold its lock)."""
        row = await self.db(self.store.load, table.id)
        if row is not None:
            table.adopt(row, await asyncio.to_thread(table.replayed, row))
            await self._clock_read(table)
            await self._clock_start(table)
            await self.named(table)
            await self.settle(table)
            await self.ready(table)
            self.tell(table)

    async def write(self, table: Table, first: int, moves: list[Move], states: list[State],
                    at: float | None = None, credit: float = 0.0) -> None:
        """Store ``moves`` from ply ``first`` on (dropping any stored from there: an undo), then
        show them (hold the table's lock), the mover's clock charged to ``at`` (when the move
        arrived; now by default) less ``credit`` (its lag, :meth:`.Clock.lag_credit`). A change
        from another process is refused plainly after the table is reloaded."""
        ended = (states[-1] if states else table.states[first]).is_terminal()
        status = OVER if ended or first + len(moves) >= MAX_GAME_MOVES else ON
        told: dict[str, Any] = {"version": table.version + 1, "first": first, "status": status,
                                "moves": [[m.by, m.action] for m in moves]}
        kept = self._clock_after(table, first, moves, states, status, at, credit)
        if kept is not None:
            told["clock"] = kept.clock.to_json()
        channel = game_channel(table.id)
        also = self.transport.writer(channel, MOVES, told)
        after = states[-1] if states else table.states[first]
        if self.storage.shared and status == ON and table.ai_seat(after) and not table.showcase:
            # the AI's turn is due from the moment the move is stored: its lease goes with it
            holder = self.lease.holder
            also = chained(also, lambda db: leases.take_in(db, table.id, holder, autoplaying.LEASE_SECONDS))
        if kept is not None:
            also = chained(also, clockstore.writer(table.id, kept))
        try:
            # a move after the last one stored has nothing to drop (a statement less per move)
            await self.db(self.store.append, table.id, table.version, first, moves, status, first < len(table.moves),
                          also)
        except StaleWrite:
            await self.refresh(table)
            raise Refused("The game changed in the meantime; here it is as it stands.") from None
        table.row.version += 1
        table.row.status = status
        if kept is not None:
            table.kept = kept
        await self._show(table, first, moves, states)
        await self.transport.sent(channel, MOVES, told)
        for hook in self.moved:
            await hook(table, first)

    def _clock_after(self, table: Table, first: int, moves: list[Move], states: list[State],
                     status: str, at: float | None = None, credit: float = 0.0) -> Kept | None:
        """The clock once ``moves`` are stored from ply ``first`` (``None`` for a game without
        one): the mover's time taken off (less ``credit``, its lag) and its increment added, the
        next person's clock running (none once the game is over); an undo restarts the clock of
        the seat to move."""
        if table.kept is None:
            return None
        now = self.time() if at is None else at
        after = states[-1] if states else table.states[first]
        runs = table.clock_runs_for(after) if status == ON else None
        mover = moves[0].by if moves and first == len(table.moves) else None
        clock = table.kept.clock
        clock = clock.moved(mover, now, runs, credit) if mover is not None else clock.started(runs, now)
        return Kept(clock, table.kept.ended, dict(table.kept.gone))

    async def _clock_read(self, table: Table) -> None:
        """Read ``table``'s clock from the store (and have it keep this server's time)."""
        table.time = self.time
        table.kept = await self.db(clockstore.load, self.store.engine, table.id)

    async def _clock_start(self, table: Table) -> None:
        """Start the clock of the person to move if none runs yet: the last open seat was just
        taken (here or in another process: the first to store it starts it, :func:`.clockstore.start`)."""
        runs = table.clock_runs_for()
        if table.kept is None or table.kept.clock.running is not None or runs is None:
            return
        started = Kept(table.kept.clock.started(runs, self.time()), table.kept.ended, dict(table.kept.gone))
        if await self.db(clockstore.start, self.store.engine, table.id, started):
            table.kept = started
        else:
            await self._clock_read(table)

    async def _show(self, table: Table, first: int, moves: list[Move], states: list[State]) -> None:
        """``table`` shows ``moves`` from ply ``first`` on (those after it taken back), reaching
        ``states``: its game settled if over, its AI seats set going, its viewers told."""
        if first < len(table.moves):
            table.cut(first)
        table.extend(moves, states)
        await self.settle(table)
        await self.ready(table)
        self.tell(table)

    async def _moves_told(self, event: Event) -> None:
        """Moves stored (by this process or another): a table that does not show them yet adds
        them (replayed from the position they follow), or is reloaded when it has fallen
        further behind; its viewers are told."""
        table = self.open.get(event.channel.partition(":")[2])
        version = int(event.data["version"])
        if table is None or table.version >= version:
            return  # not shown here, or shown already (this process wrote it)
        async with table.lock:
            if table.version >= version:
                return
            first = int(event.data["first"])
            if table.version != version - 1 or first > len(table.moves):
                await self.refresh(table)
                return
            moves = [Move(by, action) for by, action in event.data["moves"]]
            # a game slow to prepare is slow to play too: replayed off the event loop
            states = await asyncio.to_thread(table.replay_from, first, moves) if table.slow() \
                else table.replay_from(first, moves)
            table.row.version = version
            table.row.status = str(event.data["status"])
            if "clock" in event.data and table.kept is not None:
                table.kept = Kept(Clock.from_json(str(event.data["clock"])), table.kept.ended, table.kept.gone)
            await self._show(table, first, moves, states)

    async def _change_told(self, event: Event) -> None:
        """A game changed otherwise than by moves (a seat taken, a resignation): a table that
        does not show it yet is reloaded and its viewers told."""
        table = self.open.get(event.channel.partition(":")[2])
        version = int(event.data["version"])
        if table is None or table.version >= version:
            return
        async with table.lock:
            if table.version < version:
                await self.refresh(table)
        self.kick(table)

    async def settle(self, table: Table) -> None:
        """Once the game is over, keep its verdict for the list of replays and the names it was
        played under (:func:`.outcomes.record`),
        have its end rated (or its solitaire score kept) and learn what it means to each seat
        (:func:`.ratings.settle`); each acts once per game whoever calls."""
        if table.on or table.outcome is not None:
            return
        result = table.result()
        if result is not None:
            try:
                called = table.callers().names
                await self.db(outcomes.record, self.store, table.id, str(result["verdict"]), called)
                table.played = table.played or called
                # the row as it stands: its moves are the table's (the row keeps those it was loaded with)
                row = dataclasses.replace(table.row, moves=list(table.moves))
                outcome = await self.db(ratings.settle, self.store, row, table.state)
                if table.hidden_until is not None:
                    outcome = await self.db(daily.settled, self.store, row, table.state, self.clock(), outcome)
                table.outcome = outcome
            except Exception:  # the store failing here costs the game nothing: the next load settles it
                log.exception("could not settle game %s", table.id)

    @staticmethod
    def tell(table: Table) -> None:
        """Queue the table's state for each of its viewers (a viewer too slow to take it is cut off)."""
        tell(table.viewers, lambda viewer: table.view(viewer, creator=viewer.token == table.row.creator))

    def welcome(self, table: Table, viewer: Viewer) -> None:
        """Add ``viewer`` to ``table`` and queue its first message (the whole log)."""
        table.viewers.add(viewer)
        viewer.known = 0
        self._present(table, viewer)
        viewer.queue.put_nowait(table.view(viewer, creator=viewer.token == table.row.creator))
        self.kick(table)

    def leave(self, table: Table, viewer: Viewer) -> None:
        """Forget ``viewer``."""
        table.viewers.discard(viewer)
        self._present(table)

    def _present(self, table: Table, new: Viewer | None = None) -> None:
        """After a connection came (``new``) or went: note which seats have none
        (:meth:`.table.Table.mark_presence`) and, when this process's connected persons changed,
        tell the other viewers of a timed game (a claim's countdown) in every process."""
        here = sorted({v.token for v in table.viewers if v.token is not None} & {s.token for s in table.row.seats})
        mine = table.remote.get(self.upkeep.holder)
        if here == (mine.tokens if mine is not None else []):
            return
        table.remote[self.upkeep.holder] = Told(here, self.time())
        if table.kept is None:
            return
        if table.mark_presence():
            others = table.viewers - {new}
            tell(others, lambda viewer: table.view(viewer, creator=viewer.token == table.row.creator))
            table.viewers -= {v for v in table.viewers if v is not new and v not in others}  # cut off: too slow
        task = asyncio.ensure_future(self.transport.publish(game_channel(table.id), PRESENCE,
                                                            {"holder": self.upkeep.holder, "tokens": here}))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _presence_told(self, event: Event) -> None:
        """Another process's connected persons of a game changed: its viewers here are told."""
        table = self.open.get(event.channel.partition(":")[2])
        holder = str(event.data["holder"])
        if table is None or holder == self.upkeep.holder:
            return
        table.remote[holder] = Told([str(t) for t in event.data["tokens"]], self.time())
        if table.mark_presence():
            self.tell(table)

    def forget_gone(self, alive: set[str]) -> list[str]:
        """Forget the connections other processes said they held, of those not ``alive`` (no
        longer counting their loads, :func:`.quotas.alive`: killed, say) and not heard from for
        :data:`.quotas.LOAD_SECONDS` (a process just started may not have counted yet): their
        players are absent (a claim's countdown) until they connect again. The games whose
        viewers here were told."""
        told = []
        silent_since = self.time() - LOAD_SECONDS
        for table in list(self.open.values()):
            gone = [h for h, said in table.remote.items() if h != self.upkeep.holder and h not in alive
                    and said.at < silent_since]
            for holder in gone:
                del table.remote[holder]
            if gone and table.mark_presence():
                self.tell(table)
                told.append(table.id)
        return told

    async def act(self, table: Table, viewer: Viewer, text: str, ply: int, at: float | None = None,
                  thought: float | None = None) -> None:
        """Play ``text`` for the viewer's seat to move, if ``ply`` is the position it saw; its
        clock runs until ``at``, when the move arrived (now by default: the time the move
        waited in this process, for the table's lock, is not the player's), less the lag its
        page's ``thought`` (seconds from its turn to sending the move) shows, within its lag
        quota (:meth:`.Clock.lag_credit`). A move sent in time that arrives late by no more
        than that lag still stands."""
        at = self.time() if at is None else at
        async with table.lock:
            if not table.on:
                raise Refused("The game is over.")
            seat = table.state.current_player
            you = table.seats_of(viewer.token)
            if seat not in you:
                raise Refused("It is not your turn." if you else "Spectators cannot move.")
            if ply != len(table.moves):
                raise Refused("That was played on an older position; here is the game as it stands.")
            credit = 0.0 if table.kept is None else table.kept.clock.lag_credit(seat, at, thought)
            if table.kept is not None and table.kept.clock.expired(at - credit):
                expired = True
            else:
                expired = False
                moves, states = table.plan(seat, text)
                await self.write(table, len(table.moves), moves, states, at, credit)
        if expired:
            await self.flag(table)
            raise Refused("Your time ran out before that move arrived.")
        self.kick(table)

    async def undo(self, table: Table, viewer: Viewer) -> None:
        """Take back to the viewer's previous decision (against AI seats only; chance is not
        drawn again: the same draws come back, keyed on their index)."""
        async with table.lock:
            you = table.seats_of(viewer.token)
            if table.rated:
                raise Refused(ratings.NO_UNDO)
            if table.hidden_until is not None:
                raise Refused(daily.NO_UNDO)
            if not table.alone(you):
                raise Refused("Undo is only for games against the AI.")
            if not table.on:
                raise Refused("The game is over.")
            i = undo_point(table.states, lambda s: s.current_player in you)
            if i is None:
                raise Refused("Nothing to undo yet.")
            await self.write(table, i, [], [])
        self.kick(table)

    async def resign(self, table: Table, viewer: Viewer) -> None:
        """End the game: the viewer's seat (the one to move, else its first) gives up."""
        async with table.lock:
            you = table.seats_of(viewer.token)
            if not you:
                raise Refused("Spectators cannot resign.")
            if not table.on:
                raise Refused("The game is over.")
            seat = table.state.current_player if table.state.current_player in you else min(you)
            if not await self._end(table, RESIGNED, seat):
                raise Refused("The game changed in the meantime; here it is as it stands.")
        await self._changed(table)

    async def _end(self, table: Table, status: str, seat: int | None, ended: str | None = None) -> bool:
        """End ``table``'s game with ``status`` (``seat``: the seat that lost by leaving it;
        ``ended``: how, :mod:`.clockstore`), its clock stopped, with a conditional write: False
        (the table reloaded) when the game changed meanwhile, in this process or another (hold
        the table's lock)."""
        told = {"version": table.version + 1}
        channel = game_channel(table.id)
        kept = None
        if table.kept is not None:
            kept = Kept(table.kept.clock.stopped(self.time()), ended, dict(table.kept.gone))
        also = chained(self.transport.writer(channel, CHANGED, told),
                               None if kept is None else clockstore.writer(table.id, kept))
        try:
            await self.db(clockstore.ended, self.store.engine, table.id, table.version, status, seat, also)
        except StaleWrite:
            await self.refresh(table)
            return False
        table.row.version += 1
        table.row.status = status
        table.row.resigned_by = seat
        table.kept = kept
        await self.settle(table)
        await self.ready(table)
        self.tell(table)
        await self.transport.sent(channel, CHANGED, told)
        return True

    async def _take_over(self, table: Table, seat: int) -> bool:
        """Give seat ``seat``, whose player ran out of time, to :data:`ZOMBIE_LEVEL` so the
        others play on (conditional, as :meth:`_end`; hold the table's lock)."""
        assert table.kept is not None
        now = self.time()
        gone = {**table.kept.gone, seat: ZOMBIE_LEVEL}
        told = {"version": table.version + 1}
        channel = game_channel(table.id)
        table.row.seats[seat] = SeatRow(AI, agent=ZOMBIE_LEVEL, token=table.row.seats[seat].token)
        kept = Kept(table.kept.clock.started(table.clock_runs_for(), now), table.kept.ended, gone)
        also = chained(self.transport.writer(channel, CHANGED, told), clockstore.writer(table.id, kept))
        try:
            await self.db(clockstore.taken_over, self.store.engine, table.id, table.version, [seat], ZOMBIE_LEVEL, also)
        except StaleWrite:
            await self.refresh(table)
            return False
        table.row.version += 1
        table.kept = kept
        table.absent.pop(seat, None)
        table.named_at = 0.0
        await self.named(table)
        await self.ready(table)
        self.tell(table)
        await self.transport.sent(channel, CHANGED, told)
        return True

    def _plays_on(self, table: Table, seat: int) -> bool:
        """True when the game goes on without ``seat``'s player (taken over by an AI): three
        seats or more, another person still playing."""
        token = table.row.seats[seat].token
        return len(table.row.seats) >= 3 and any(
            s.kind == HUMAN and s.token != token for s in table.row.seats)

    async def flag(self, table: Table) -> bool:
        """If the running clock of ``table`` ran out, declare it: the seat loses on time, or in
        a game that plays on without it (:meth:`_plays_on`) is taken over by an AI. True when
        this call declared it (one process does, :meth:`_end`)."""
        async with table.lock:
            if not table.on or table.kept is None or not table.kept.clock.expired(self.time()):
                return False
            seat = table.kept.clock.running
            assert seat is not None
            if self._plays_on(table, seat):
                done = await self._take_over(table, seat)
            else:
                done = await self._end(table, RESIGNED, seat, ON_TIME)
        if done:
            log.info("game %s: seat %s ran out of time", table.id, seat)
            self.kick(table)
            await self._changed(table)
        return done

    async def claim_win(self, table: Table, viewer: Viewer, seat: int) -> None:
        """The viewer claims the win against seat ``seat``, whose player has been away longer
        than :data:`~.table.CLAIM_SECONDS` (a live game): that seat loses, or an AI takes it
        over in a game that plays on without it."""
        async with table.lock:
            you = table.seats_of(viewer.token)
            wait = table.claimable(you).get(seat)
            if wait is None:
                raise Refused("There is no absent player to claim the win against.")
            if wait > 0:
                raise Refused(f"The other player may come back: you can claim in {wait:.0f} s.")
            if self._plays_on(table, seat):
                done = await self._take_over(table, seat)
            else:
                done = await self._end(table, RESIGNED, seat, CLAIMED)
            if not done:
                raise Refused("The game changed in the meantime; here it is as it stands.")
        self.kick(table)
        await self._changed(table)

    async def abort(self, table: Table, viewer: Viewer) -> None:
        """Call the game off, without a result or rating (while some person has not moved yet)."""
        async with table.lock:
            if not table.seats_of(viewer.token):
                raise Refused("Spectators cannot abort.")
            if not table.abortable():
                raise Refused("Every player has moved: the game can no longer be aborted (resign instead).")
            if not await self._end(table, ABORTED, None):
                raise Refused("The game changed in the meantime; here it is as it stands.")
        await self._changed(table)

    async def sweep(self) -> list[str]:
        """Declare the clocks run out in the store, of games open here or not (nobody
        connected: a turn-based game, a restart): the games declared."""
        declared = []
        for game_id in await self.db(clockstore.due, self.store.engine, self.time()):
            table = await self.get(game_id)
            if table is not None and await self.flag(table):
                declared.append(game_id)
        return declared

    async def sweep_sessions(self) -> list[str]:
        """Close this process's connections (game viewers and :attr:`connections`) whose
        session has ended, each told as a sign-out is (:meth:`signed_out`, so every process
        closes its own too): the token hashes of the ended sessions. A sign-out is told at once;
        this finds the sessions that ended by idling while a connection stayed open and silent
        (a message on a game connection asks the store itself: :func:`.identities.still_signed_in`)."""
        held = {v.connection for t in self.open.values() for v in t.viewers if v.connection is not None}
        for source in self.connections:
            held.update(source())
        ended = await self.db(ended_among, self.store, held, self.time()) if held else []  # the sessions' clock
        for token in ended:
            await self.signed_out(token)
        return ended

    async def _watch(self) -> None:
        """Declare clocks run out: those of the games open here every :data:`CLOCK_CHECK_SECONDS`,
        and, in a single process, those in the store every :data:`CLOCK_SCAN_SECONDS` (several
        processes leave the store's to the site's upkeep); close the connections of ended
        sessions every :data:`SESSION_SWEEP_SECONDS` (:meth:`sweep_sessions`)."""
        scanned = swept = time.monotonic()
        while True:
            try:
                if time.monotonic() - swept > SESSION_SWEEP_SECONDS:
                    swept = time.monotonic()
                    await self.sweep_sessions()
                now = self.time()
                for table in [t for t in self.open.values() if t.on and t.kept is not None]:
                    assert table.kept is not None
                    if table.kept.clock.expired(now):
                        await self.flag(table)
                if not self.storage.shared and time.monotonic() - scanned > CLOCK_SCAN_SECONDS:
                    scanned = time.monotonic()
                    await self.sweep()
            except Exception:
                log.exception("the clocks' check failed; trying again")
            await asyncio.sleep(CLOCK_CHECK_SECONDS)

    async def hint(self, table: Table, viewer: Viewer) -> list[str]:
        """The hint agent's best moves for the viewer's decision (games against the AI only)."""
        async with table.lock:
            you = table.seats_of(viewer.token)
            if table.rated:
                raise Refused(ratings.NO_HINT)
            if table.hidden_until is not None:
                raise Refused(daily.NO_HINT)
            if not table.on or table.state.current_player not in you:
                raise Refused("A hint is for your turn.")
            if not table.alone(you):
                raise Refused("Hints are only for games against the AI.")
            if table.hinting:
                raise Refused("A hint is on its way.")
            state, ply, version = table.state, len(table.moves), table.version
            table.hinting = True
        try:
            lines = await self.thinkers.hint(table.id, lambda: table.version == version, state,
                                             self.hint_agent or table.entry.strength.hint, ply)
            return [table.callers().told(line) for line in lines]  # the seats by their names
        except Superseded:
            raise Refused("The game moved on before the hint was ready; ask again.") from None
        except Busy:
            raise Refused("The server is busy; ask for a hint again in a little while.") from None
        finally:
            table.hinting = False

