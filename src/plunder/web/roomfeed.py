"""The room's live updates: the lobby and each browser's "my games" pushed to its pages over
one WebSocket a page (``/live``), in every server process, without a reload or a poll.

A change that concerns them is told on the site's channel (:data:`~.transport.SITE`), so every
process learns it whichever made it: :data:`LOBBY` when a game is created, a seat taken, a game
resigned or a creator comes back; :data:`MINE` (the token hashes of its players) when it becomes
another player's turn or a game's seats or status change. A process tells them through one
:class:`Teller`, one event of each kind at a time: what changes while one is being stored goes
into the next (a move on every game costs the site's channel one transaction per process at a
time, not one per move, and never queues the moves' own transactions behind it). Each process's :class:`Room` then
reads what changed from the store once however many events came meanwhile (a flood costs one
read, not one per event) and sends each of its followers the newest only: a follower keeps at
most one message of each kind waiting (:class:`Follower`), so nothing grows with the events.

A listed game leaves the lobby once its creator has had no connection to it for
:func:`~.rooms.creator_gone_seconds`: each process notes the creators connected to its games
every :data:`RENEWALS`-th of that time (:func:`~.rooms.mark_seen`), and each process with lobby
followers reads the lobby again when the first listed game's time would run out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .games import CLOSE_POLICY
from .identities import identity_of
from .lobby import lobby_games, lobby_rows, mine_lists, mine_rows, your_turns
from .rooms import MAX_LOBBY, creator_gone_seconds, mark_seen
from .security import TokenRefused, token_of
from .store import HUMAN, OPEN, token_hash
from .table import Table
from .tables import RENAMED, SIGNED_OUT, Tables, signed_out_message
from .templating import templates
from .transport import SITE, Event

log = logging.getLogger("plunder.web")

#: the site's events of the room: the lobby changed; it became another player's turn (``tokens``)
LOBBY, MINE = "lobby", "mine"
#: the pages whose lists a follower is sent as they change (any other page: the header's marker only)
PAGES = ("lobby", "mine")
#: how many times within :func:`~.rooms.creator_gone_seconds` a process notes the creators
#: connected to its games: a game leaves the lobby between 5/6 of that time and all of it
#: after its creator's last connection closed
RENEWALS = 6
#: most ``/live`` connections one server process keeps (past it: closed with code 1013)
MAX_FOLLOWERS = 10_000
#: WebSocket close code for a connection refused because the process has too many
CLOSE_TRY_LATER = 1013
#: most token hashes in one :data:`MINE` event (so that it fits its notification, 64 characters each)
MINE_TOKENS = 100


@dataclass(eq=False)
class Follower:
    """One ``/live`` connection: the identity it acts for (``None``: a browser without one), the
    page it shows (one of :data:`PAGES`, else ``""``), the connection (the templates'
    addresses), the hash of the token it was opened with (a passkey session's differs from
    ``token``), and its messages waiting, the newest of each type only. Once :attr:`ended` (its
    browser signed out), what waits is its last message and the connection closes."""

    conn: HTTPConnection
    token: str | None
    page: str
    connection: str | None = None
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    ended: bool = False

    def push(self, message: dict[str, Any]) -> None:
        """Have ``message`` sent, in place of any of its type still waiting (nothing more once
        :attr:`ended`)."""
        if not self.ended:
            self.waiting[message["type"]] = message
            self.woken.set()

    def end(self, last: dict[str, Any]) -> None:
        """Send ``last`` in place of whatever waits, then close the connection."""
        self.waiting = {last["type"]: last}
        self.ended = True
        self.woken.set()

    async def next(self) -> list[dict[str, Any]]:
        """The messages waiting, waited for."""
        await self.woken.wait()
        self.woken.clear()
        messages = list(self.waiting.values())
        self.waiting.clear()
        return messages


class Teller:
    """The room's events of this process on the site's channel, coalesced (see the module):
    :meth:`tell` returns at once with a future done when an event telling the change is stored;
    one event is stored at a time, and what is told meanwhile is told together after it."""

    def __init__(self, publish: Callable[[str, dict[str, Any]], Awaitable[None]]) -> None:
        self.publish = publish
        self._lobby = False
        self._tokens: set[str] = set()
        self._waiting: list[asyncio.Future[None]] = []
        self._task: asyncio.Task[None] | None = None

    def tell(self, lobby: bool, tokens: Iterable[str]) -> asyncio.Future[None]:
        """Have the lobby (when ``lobby``) and the games of ``tokens`` told to every process."""
        self._lobby = self._lobby or lobby
        self._tokens.update(tokens)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(done)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return done

    async def _run(self) -> None:
        while self._waiting:
            lobby, tokens, waiting = self._lobby, sorted(self._tokens), self._waiting
            self._lobby, self._tokens, self._waiting = False, set(), []
            try:
                if lobby:
                    await self.publish(LOBBY, {})
                for at in range(0, len(tokens), MINE_TOKENS):
                    await self.publish(MINE, {"tokens": tokens[at:at + MINE_TOKENS]})
            finally:
                for done in waiting:
                    if not done.done():
                        done.set_result(None)

    def close(self) -> None:
        """Stop telling."""
        if self._task is not None:
            self._task.cancel()


class Room:
    """The lobby and "my games" followers of one server process, kept up to date (see the
    module); ``gone_seconds`` is :func:`~.rooms.creator_gone_seconds` unless given, ``clock``
    the wall clock unless given."""

    def __init__(self, tables: Tables, gone_seconds: float | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.tables = tables
        #: seconds a listed game stays in the lobby once its creator has no connection to it
        self.gone_seconds = creator_gone_seconds() if gone_seconds is None else gone_seconds
        self.clock = clock
        self.followers: set[Follower] = set()
        #: the lobby's games as last read (``None``: none read since nobody here showed it)
        self.lobby: tuple[list[dict[str, Any]], dict[str, str]] | None = None
        #: whether the lobby changed since it was last read (a change told during a read is
        #: read again after it)
        self.lobby_changed = True
        #: the games whose creators were connected here when last noted
        self.present: set[str] = set()
        self._tokens: set[str] = set()  # whose games changed since last sent
        self._sending: asyncio.Task[None] | None = None
        self._expiry: asyncio.TimerHandle | None = None
        self._renewing: asyncio.Task[None] | None = None
        self.teller = Teller(self._publish)
        tables.transport.on(LOBBY, self._lobby_told)
        tables.transport.on(MINE, self._mine_told)
        tables.transport.on(RENAMED, self._renamed_told)
        tables.transport.on(SIGNED_OUT, self._signed_out_told)
        tables.connections.append(lambda: [f.connection for f in self.followers if f.connection is not None])
        tables.moved.append(self._moved)
        tables.changed.append(self._changed)

    async def start(self) -> None:
        """Start noting the creators connected here (call from inside the event loop)."""
        self._renewing = asyncio.create_task(self._renew_every())

    async def close(self) -> None:
        """Stop."""
        for task in (self._renewing, self._sending):
            if task is not None:
                task.cancel()
        self.teller.close()
        if self._expiry is not None:
            self._expiry.cancel()

    # --- what is told -----------------------------------------------------------------------

    async def _publish(self, kind: str, data: dict[str, Any]) -> None:
        try:
            await self.tables.transport.publish(SITE, kind, data)
        except Exception:  # the store unreachable: the change stands, its pages learn it later
            log.exception("could not tell the room's %s event", kind)

    @staticmethod
    def players(table: Table) -> list[str]:
        """The token hashes of ``table``'s human seats."""
        return sorted({s.token for s in table.row.seats if s.kind == HUMAN and s.token})

    @staticmethod
    def to_move(table: Table, ply: int) -> str | None:
        """The token hash of the player to move at ``ply`` (``None``: none, or not a person)."""
        state = table.states[ply]
        if state.is_terminal() or not 0 <= state.current_player < len(table.row.seats):
            return None
        seat = table.row.seats[state.current_player]
        return seat.token if seat.kind == HUMAN else None

    async def _moved(self, table: Table, first: int) -> None:
        """Moves stored here: the players are told when the turn passed to someone else (or
        the game ended, or moves were taken back)."""
        players = self.players(table)
        undone = first >= len(table.moves)
        if players and (undone or not table.on or self.to_move(table, first) != self.to_move(table, len(table.moves))):
            # told in the background: the table's lock (held by the caller) waits for no
            # transaction of the site's channel
            self.teller.tell(False, players)

    async def _changed(self, table: Table) -> None:
        """A game created, a seat taken, a resignation (stored here): the lobby and the players."""
        await self.teller.tell(True, self.players(table))

    async def _lobby_told(self, event: Event) -> None:
        """The lobby changed (in any process): read again, if anyone here shows it."""
        self.lobby_changed = True
        self._send_soon()

    async def _mine_told(self, event: Event) -> None:
        """Some players' games changed (in any process): those followed here are sent again."""
        following = {f.token for f in self.followers}
        self._tokens.update(t for t in event.data.get("tokens", ()) if t in following)
        self._send_soon()

    async def _renamed_told(self, event: Event) -> None:
        """Someone chose a name (in any process): the lobby names creators, and "my games" pages
        name opponents, so both are read again (a marker alone names nobody)."""
        self.lobby_changed = True
        self._tokens.update(f.token for f in self.followers if f.page == "mine" and f.token is not None)
        self._send_soon()

    async def _signed_out_told(self, event: Event) -> None:
        """A browser signed out (or its sign-in expired), in any process: its feeds here stop
        telling it its identity's games; each is told why, then closed."""
        for follower in [f for f in self.followers if f.connection == event.data["token"]]:
            self.leave(follower)
            follower.end(signed_out_message())

    # --- the followers ----------------------------------------------------------------------

    def join(self, follower: Follower) -> None:
        """Follow ``follower``: its first messages (what it shows now) are on their way."""
        self.followers.add(follower)
        if follower.token is None:
            follower.push({"type": "mine", "your_turn": 0, "games": []} if follower.page != "mine"
                          else self.mine_message(follower, {"your_turn": 0, "games": []}, []))
        else:
            self._tokens.add(follower.token)
        if follower.page == "lobby" and self.lobby is not None and not self.lobby_changed:
            follower.push(self.lobby_message(follower, *self.lobby))
        elif follower.page == "lobby":
            self.lobby_changed = True
        self._send_soon()

    def leave(self, follower: Follower) -> None:
        """Forget ``follower``; the lobby is read afresh for the next, once nobody here shows it."""
        self.followers.discard(follower)
        if not any(f.page == "lobby" for f in self.followers):
            self.lobby = None  # not kept up to date while nobody here shows it
            self.lobby_changed = True
            if self._expiry is not None:
                self._expiry.cancel()
                self._expiry = None

    def _send_soon(self) -> None:
        """Have what changed read and sent (one reader at a time: a read under way is followed
        by one more if anything changed meanwhile)."""
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send())

    async def _send(self) -> None:
        try:
            while True:
                lobby_followers = [f for f in self.followers if f.page == "lobby"]
                if self.lobby_changed and lobby_followers:
                    self.lobby_changed = False
                    await self.read_lobby()
                    assert self.lobby is not None
                    for follower in lobby_followers:
                        if follower in self.followers:
                            follower.push(self.lobby_message(follower, *self.lobby))
                    continue  # anything else changed meanwhile is sent next round
                if not self._tokens:
                    return
                token = self._tokens.pop()
                followers = [f for f in self.followers if f.token == token]
                if not followers:
                    continue
                turns = await your_turns(self.tables, token)
                rows = await mine_rows(self.tables, token) if any(f.page == "mine" for f in followers) else []
                for follower in followers:
                    follower.push(self.mine_message(follower, turns, rows))
        except Exception:  # the store unreachable: the next change tries again
            log.exception("could not send the room's changes")

    async def read_lobby(self) -> None:
        """Read the lobby (its games whose creators were seen within the time allowed), and
        have it read again when the first of them would run out of time."""
        now = self.clock()
        self.lobby = await lobby_rows(self.tables, now - self.gone_seconds)
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        rows = self.lobby[0]
        if rows:
            due = min(float(r["seen"]) for r in rows) + self.gone_seconds
            self._expiry = asyncio.get_running_loop().call_later(max(due - now, 0.0) + 0.05, self.expire)

    def expire(self) -> None:
        """A listed game's time may have run out: read the lobby again."""
        self._expiry = None
        self.lobby_changed = True
        self._send_soon()

    def lobby_message(self, follower: Follower, rows: list[dict[str, Any]], chosen: dict[str, str]) -> dict[str, Any]:
        """The lobby as ``follower`` is sent it: its games (:data:`~.rooms.MAX_LOBBY` at most) and their HTML."""
        games = lobby_games(rows[:MAX_LOBBY], chosen, follower.token, self.clock())
        return {"type": "lobby", "games": [g["id"] for g in games],
                "html": templates.get_template("lobby_list.html").render(request=follower.conn, games=games)}

    @staticmethod
    def mine_message(follower: Follower, turns: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
        """Where it is ``follower``'s turn (:func:`~.lobby.your_turns`) and, on its "my games"
        page, the page's lists of ``rows`` (:func:`~.lobby.mine_rows`)."""
        message = {"type": "mine", **turns}
        if follower.page == "mine":
            message["html"] = templates.get_template("mine_list.html").render(request=follower.conn,
                                                                              **mine_lists(rows))
        return message

    # --- the creators' presence -------------------------------------------------------------

    def creators_here(self) -> set[str]:
        """The games with an open seat whose creator is connected to them in this process."""
        return {t.id for t in self.tables.open.values()
                if t.on and any(s.kind == OPEN for s in t.row.seats)
                and any(v.token is not None and v.token == t.row.creator for v in t.viewers)}

    async def renew(self) -> None:
        """Note the creators connected here now; a game whose creator came back is told to the
        lobby (it had perhaps left it)."""
        here = self.creators_here()
        if here:
            await self.tables.db(mark_seen, self.tables.store, sorted(here), self.clock())
        back = here - self.present
        self.present = here
        if back:
            await self.teller.tell(True, ())

    async def _renew_every(self) -> None:
        while True:
            await asyncio.sleep(self.gone_seconds / RENEWALS)
            try:
                await self.renew()
            except Exception:  # the store unreachable for a moment: the next round notes them
                log.exception("could not note the creators connected")


def room_of(conn: HTTPConnection) -> Room:
    """The app's :class:`Room`."""
    room: Room = conn.app.state.room
    return room


async def live(websocket: WebSocket) -> None:
    """``/live?page=lobby|mine``: this browser's "my games" marker as it changes, and the lists
    of the page it shows (docs/web.md, "Names, my games, the lobby, rematch"). What the browser
    sends is ignored."""
    room = room_of(websocket)
    await websocket.accept()
    if len(room.followers) >= MAX_FOLLOWERS:
        await websocket.send_json({"type": "error", "message": "The server is busy; the page will try again.",
                                   "detail": f"MAX_FOLLOWERS = {MAX_FOLLOWERS}"})
        await websocket.close(CLOSE_TRY_LATER)
        return
    page = websocket.query_params.get("page", "")
    try:
        token = token_of(websocket)
    except TokenRefused:  # a malformed token header acts for nobody (identity_of says the same)
        token = None
    follower = Follower(websocket, identity_of(websocket), page if page in PAGES else "",
                        None if token is None else token_hash(token))
    room.join(follower)

    async def pump() -> None:
        try:
            while True:
                for message in await follower.next():
                    await websocket.send_json(message)
                if follower.ended:  # signed out: told so, and closed (the page opens a fresh feed)
                    await websocket.close(CLOSE_POLICY)
                    return
        except Exception:  # the connection is gone: the reading side notices and tidies up
            pass

    writer = asyncio.create_task(pump())
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except WebSocketDisconnect:
        pass
    finally:
        room.leave(follower)
        writer.cancel()


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [WebSocketRoute("/live", live, name="live")]
