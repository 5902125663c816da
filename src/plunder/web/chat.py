"""Table talk: a chat per game for the people playing it, over the game's WebSocket.

A seat holder sends ``{"type": "chat", "text": ...}``; every viewer of the game (spectators
too, who read only) is sent ``{"type": "chat", "lines": [...]}``. A viewer that connects is sent
the last :data:`CHAT_HISTORY` lines first (``"history": true``). Lines are stored with the game
(:data:`chat_lines`, on the store's ``metadata``), so a replay shows them. A game's own moves
that belong to the talk (``Client.talk``: Crossroads' offers and their answers) are told there
too, in the game's words, by the server: a browser never composes a line for another seat.

Bounds (docs/limits.md): :data:`MAX_CHAT_CHARS` a line, :data:`CHAT_BURST` lines at once then
:data:`CHAT_RATE` a second per token, :data:`MAX_CHAT_LINES` a game. Each refusal is an ``error``
message (with ``"about": "chat"``) saying which bound it met. The text is stored and sent as
given (control characters aside; characters that are not seen are refused, :mod:`.visible`):
every page shows it as text, never as markup.
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from typing import Any, Callable, Sequence

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Text, func, insert, select
from sqlalchemy import Table as StoredTable

from .limits import Buckets
from .store import HUMAN, OPEN, metadata
from .table import Refused, Table
from .tables import Tables
from .transport import Event, Writer, game_channel
from .viewers import Viewer, offer
from .visible import seen, unseen_refusal

log = logging.getLogger("plunder.web")

#: longest line a player may send, in characters
MAX_CHAT_CHARS = 300
#: a token may send :data:`CHAT_BURST` lines at once, then :data:`CHAT_RATE` a second (5 in 10 s)
CHAT_RATE = 0.5
CHAT_BURST = 5
#: most lines a game holds (the players' and the moves told at the table): past it the talk is closed
MAX_CHAT_LINES = 1_000
#: lines a viewer is sent when it connects (the latest)
CHAT_HISTORY = 100
#: games whose last lines are kept in memory (:attr:`Chat.recent`)
CHAT_KEPT_GAMES = 1_000
#: a line a seat holder wrote, and a move told at the table (``Client.talk``)
SAY, MOVE = "say", "move"
#: the event of lines stored (``lines``: the stored rows)
CHAT = "chat"

chat_lines = StoredTable(
    "chat_lines", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    # SAY or MOVE
    Column("kind", String(8), nullable=False),
    # the number of moves made when it was said (a replay shows it beside that position)
    Column("ply", Integer, nullable=False),
    # seconds since the epoch
    Column("at", Float, nullable=False),
    Column("text", Text, nullable=False),
    Index("chat_lines_game", "game_id", "id"),
)

#: what a line may not hold: control characters (a newline included: a line is one line)
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def cleaned(text: str) -> str:
    """``text`` as a line: control characters made spaces, the ends trimmed; :class:`Refused`
    when it holds a character that is not seen (:func:`.visible.unseen_refusal`: direction
    controls, zero widths, a lone surrogate), when nothing visible is left, or when it is
    longer than :data:`MAX_CHAT_CHARS`."""
    line = CONTROL.sub(" ", text).strip()
    refusal = unseen_refusal(line[: MAX_CHAT_CHARS + 1], "A chat line")
    if refusal is not None:
        raise Refused(refusal)
    if not any(seen(c) for c in line):
        raise Refused("Write something before sending.")
    if len(line) > MAX_CHAT_CHARS:
        raise Refused(f"That line is too long: {len(line):,} characters; the limit is {MAX_CHAT_CHARS}.",
                      f"MAX_CHAT_CHARS = {MAX_CHAT_CHARS}")
    return line


def talkative(table: Table) -> bool:
    """True when the game has a table to talk at: two or more of its seats are people's
    (held or waiting for a friend); a game against the AI alone has none."""
    return sum(s.kind in (HUMAN, OPEN) for s in table.row.seats) >= 2


def speaker(table: Table, seat: int) -> str:
    """How a line names its seat: its player's name (``Anna``), as the page's seat list shows it."""
    return table.callers().third(seat)


def shown(table: Table, row: Any) -> dict[str, Any]:
    """A stored line as sent to the browser."""
    return {"id": row["id"], "seat": row["seat"], "name": speaker(table, row["seat"]), "kind": row["kind"],
            "ply": row["ply"], "at": row["at"], "text": row["text"]}


class ChatStore:
    """The stored lines of the games, over the store's engine (short synchronous calls, run
    as the store's are: :meth:`plunder.web.tables.Tables.db`)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def add(self, game_id: str, lines: Sequence[tuple[int, str, int, str]],
            told: Callable[[list[dict[str, Any]]], Writer | None] = lambda rows: None) -> list[dict[str, Any]] | None:
        """Store ``lines`` (seat, kind, ply, text) of ``game_id`` said now, with what ``told``
        writes of the stored rows in the same transaction (the event telling them:
        :mod:`.transport`); the stored rows, or ``None`` when they would take the game past
        :data:`MAX_CHAT_LINES`."""
        now = time.time()
        with self.engine.begin() as db:
            held = db.execute(select(func.count()).select_from(chat_lines)
                              .where(chat_lines.c.game_id == game_id)).scalar_one()
            if held + len(lines) > MAX_CHAT_LINES:
                return None
            rows = []
            for seat, kind, ply, text in lines:
                done = db.execute(insert(chat_lines).values(game_id=game_id, seat=seat, kind=kind, ply=ply,
                                                            at=now, text=text))
                key = done.inserted_primary_key
                assert key is not None
                rows.append({"id": key[0], "seat": seat, "kind": kind, "ply": ply, "at": now, "text": text})
            writer = told(rows)
            if writer is not None:
                writer(db)
            return rows

    def latest(self, game_id: str, most: int | None = CHAT_HISTORY) -> list[dict[str, Any]]:
        """The last ``most`` lines of ``game_id`` (all: ``None``), oldest first."""
        with self.engine.connect() as db:
            query = select(chat_lines).where(chat_lines.c.game_id == game_id).order_by(chat_lines.c.id.desc())
            if most is not None:
                query = query.limit(most)
            rows = [dict(r) for r in db.execute(query).mappings()]
        return rows[::-1]


class Chat:
    """The table talk of every game a :class:`~plunder.web.tables.Tables` shows."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = ChatStore(tables.store.engine)
        #: each token's rate, by the hash of its token (the oldest forgotten past a bound)
        self.rates = Buckets(CHAT_RATE, CHAT_BURST)
        #: the last :data:`CHAT_HISTORY` lines of the games viewed lately, as stored, by game id (the
        #: least recently viewed forgotten past :data:`CHAT_KEPT_GAMES`): a page reloaded does not read the store
        self.recent: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        #: lines told so far, by every game (a read of the store that saw it change is not kept)
        self.written = 0
        tables.moved.append(self.moved)
        tables.dropped.append(self.forget)
        tables.transport.on(CHAT, self.told)

    async def say(self, table: Table, viewer: Viewer, text: Any) -> None:
        """Store and send a line from the viewer's seat (:class:`Refused`, in words, for a
        spectator, a game without a table to talk at, or a line past a bound)."""
        if not isinstance(text, str):
            raise Refused("A chat message has a text.")
        you = table.seats_of(viewer.token)
        if not you or viewer.token is None:
            raise Refused("Spectators read the table talk; only the players write in it.")
        if not talkative(table):
            raise Refused("This game has no other player to talk to.")
        line = cleaned(text)
        if not self.rates.take(viewer.token):
            raise Refused(f"You are talking too fast: at most {CHAT_BURST} lines in "
                          f"{CHAT_BURST / CHAT_RATE:.0f} seconds.", f"CHAT_BURST = {CHAT_BURST}, CHAT_RATE = {CHAT_RATE}")
        seat = table.state.current_player if table.state.current_player in you else min(you)
        await self.store_and_send(table, [(seat, SAY, len(table.moves), line)])

    async def store_and_send(self, table: Table, lines: list[tuple[int, str, int, str]]) -> None:
        """Store ``lines`` and tell them to every viewer, in every process (:class:`Refused`
        past :data:`MAX_CHAT_LINES`)."""
        transport, channel = self.tables.transport, game_channel(table.id)
        rows = await self.tables.db(self.store.add, table.id, lines,
                                    lambda rows: transport.writer(channel, CHAT, {"lines": rows}))
        if rows is None:
            raise Refused(f"This game's table talk is full: {MAX_CHAT_LINES:,} lines at most.",
                          f"MAX_CHAT_LINES = {MAX_CHAT_LINES}")
        await transport.sent(channel, CHAT, {"lines": rows})

    async def told(self, event: Event) -> None:
        """Lines stored (by this process or another): kept with the game's latest and sent to
        each viewer of its table that has not had them."""
        table = self.tables.open.get(event.channel.partition(":")[2])
        if table is None:
            return
        rows: list[dict[str, Any]] = list(event.data["lines"])
        self.written += 1
        if table.id in self.recent:
            kept = self.recent[table.id]
            seen = {r["id"] for r in kept}  # a read of the store that ended meanwhile may hold them already
            self.recent[table.id] = (kept + [r for r in rows if r["id"] not in seen])[-CHAT_HISTORY:]
        for viewer in list(table.viewers):
            if viewer.chat_seen is None:  # its history is being read: these go with it
                viewer.chat_early.extend(rows)
                continue
            new = [r for r in rows if r["id"] not in viewer.chat_seen]
            if new:
                viewer.chat_seen.update(r["id"] for r in new)
                offer([viewer], {"type": "chat", "history": False, "lines": [shown(table, r) for r in new]})

    def forget(self, game_id: str) -> None:
        """A table dropped from memory: its lines are no longer told here, so none are kept."""
        self.recent.pop(game_id, None)

    async def history(self, table: Table, viewer: Viewer) -> None:
        """Send a viewer that just connected the game's last :data:`CHAT_HISTORY` lines (nothing
        when there are none: a game without talk sends what it always did)."""
        rows = self.recent.pop(table.id, None)
        if rows is None:
            written = self.written
            rows = await self.tables.db(self.store.latest, table.id)
            keep = self.written == written  # else a line stored meanwhile may be missing from what was read
        else:
            keep = True
        if keep:
            self.recent[table.id] = rows
            if len(self.recent) > CHAT_KEPT_GAMES:
                self.recent.popitem(last=False)
        # with the lines told while the store was read (kept or not in what it read), each once
        rows = sorted({r["id"]: r for r in [*rows, *viewer.chat_early]}.values(), key=lambda r: int(r["id"]))
        viewer.chat_early = []
        viewer.chat_seen = {int(r["id"]) for r in rows}
        if rows:
            await viewer.queue.put({"type": "chat", "history": True, "lines": [shown(table, r) for r in rows]})

    async def moved(self, table: Table, first: int) -> None:
        """Tell at the table the moves from ply ``first`` on that the game says belong to the
        talk (``Client.talk``), once they are stored; nothing in a game without a table to talk at."""
        talk = table.entry.client.talk
        if talk is None or not talkative(table):
            return
        lines = []
        callers = table.callers()  # the players' names for the rules' seat labels, as the log has them
        for i in range(first, len(table.moves)):
            move = table.moves[i]
            if move.by is None:
                continue
            before, after = table.states[i], table.states[i + 1]
            said = talk(before, table.game.parse_action(before, move.action), after)
            if said:
                lines.append((move.by, MOVE, i + 1, callers.told(said)))
        if lines:
            try:
                await self.store_and_send(table, lines)
            except Refused:
                pass  # the talk is full: the moves are in the game's log all the same
            except Exception:  # the store unreachable, say: the moves are stored and shown already
                log.exception("could not tell the moves of game %s at the table", table.id)

