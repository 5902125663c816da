"""Games in progress on the server, independent of HTTP: a :class:`Table` per game, and
:class:`Tables`, which loads them from the store, applies what seats send, lets AI seats move
off the event loop and tells every connected viewer about each change.

The rules decide everything: an action arrives as text and goes through ``apply_text``; chance
is drawn from the game's seed exactly as ``plunder play`` draws it
(:func:`plunder.core.chance.draw` with :func:`plunder.match.chance_index`), so a finished
game's record replays with ``"chance": "seed"``. A change is written to the store before it is
acknowledged, and the table in memory follows the store: a table can always be rebuilt from
its stored seed, seats and moves (after a restart, or when another server process changed it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Sequence, TypeVar


from ..core import chance
from ..core.errors import PlunderError
from ..core.game import CHANCE, Action, Game, State
from ..core.record import Move, Record
from ..core.registry import entry, load_game
from ..core.svg import Shown, legal_page, outcome_text, seats_called, status_text
from ..core.words import refusal
from ..match import breakdown_of, chance_index, new_seed, undo_point
from ..pictures import svg_of
from . import ratings
from .names import Callers, SeatWho, capital, names_of
from .positions import Positions
from .rooms import Rematch, rematch_of
from .security import new_token
from . import outcomes
from .store import AI, HUMAN, ON, OPEN, OVER, RESIGNED, GameRow, SeatRow, StaleWrite, Store, token_hash
from .thinking import Busy, Superseded, Thinkers

log = logging.getLogger("plunder.web")

T = TypeVar("T")
#: what a :class:`Prepared` is of: the stored version, the ply, and each seat's name
PreparedKey = tuple[int, int, tuple[str, ...]]

#: how a refused move that could not be read is answered on the page (``core.words.refusal``'s
#: example, ``{}`` being "a move like b1-c1"): the page's own ways to move, not the terminal's
PAGE_EXAMPLE = "Click a target on the board or choose from the move list, for example {}."
#: most legal moves a state message lists (Hubs and Crossroads can have many)
LEGAL_CAP = 500
#: the seat choices of the new-game form: a person here, a second person at this screen, a
#: friend invited by link, or an AI level
SEAT_CHOICES = ("me", "hotseat", "open", "easy", "medium", "hard")
#: most games kept in memory; idle ones (no viewer, no AI thinking) are dropped first and
#: reloaded from the store when wanted again
MAX_OPEN_TABLES = 5000
#: how often the server looks for changes another process made to the games it shows
SYNC_SECONDS = 1.0
#: messages waiting for a slow viewer before it is cut off
MAX_QUEUED = 100
#: most moves (chance's included) a game on the server lasts: one that reaches it is stopped,
#: without a winner. Games played as meant last hundreds of moves; Profiteer or Crossroads
#: with parameters pushed to their bounds could last millions.
MAX_GAME_MOVES = 10_000
#: most log entries a state message carries; older ones are sent on request (``log`` messages)
LOG_WINDOW = 200
#: log entries a table keeps as sent (:meth:`Table.told`): the window a page is sent, twice over
TOLD_KEPT = 2 * LOG_WINDOW
#: a game whose picture and legal moves took longer than this to prepare (CPU seconds) has
#: them prepared in a thread from then on, off the event loop; quicker ones are prepared on the
#: loop, where a hand-over to a thread would cost more than the work
PREPARE_INLINE_SECONDS = 0.002
#: an all-AI game (a showcase for spectators) moves at most once in this many seconds, and
#: only while someone watches it
SHOWCASE_SECONDS = 1.0
#: games in progress on one server process at most, whatever addresses create them (the limit
#: per address, ``limits.CREATE_RATE``, is bypassed by rotating addresses): past it a new game
#: is refused (:class:`Full`) until some end or go quiet
MAX_GAMES_ON = 1_000
#: a game is in progress while it is on and has a viewer, an AI thinking, or was asked for
#: within this many seconds (a game just created, before its page connects)
ACTIVE_SECONDS = 600.0
#: the simpler level an AI seat falls back to when its agent fails (raises in its worker, or
#: answers a move the rules refuse): the game goes on, and its players are told
FALLBACK = {"hard": "medium", "medium": "easy", "easy": "random"}
#: how long an AI move waits before asking again when its lane is full (``thinking.MAX_WAITING``)
BUSY_RETRY_SECONDS = 1.0


#: how long an open table trusts the names it read before a page or a connection reads them
#: again (a rename in this process is seen at once: :meth:`Tables.renamed`); a table reloaded
#: without pause would otherwise ask the store every time
NAMES_FRESH_SECONDS = 5.0


class Refused(Exception):
    """A request the game refuses: ``message`` in a player's words, ``detail`` the full reason
    (with the ruling id) where the rules gave one."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message


class Full(Refused):
    """A new game refused because :data:`MAX_GAMES_ON` games are in progress."""


@dataclass(eq=False)
class Viewer:
    """One connection watching a table: the hash of its token (``None``: a spectator) and the
    queue its messages wait in."""

    token: str | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(MAX_QUEUED))
    #: log entries it has been sent (the next message sends the rest)
    known: int = 0


@dataclass
class LogEntry:
    """One move in the game log: its number (1 = the first move), who made it and what it did."""

    n: int
    by: int | None
    text: str

    def data(self) -> dict[str, Any]:
        """As sent to the browser."""
        return {"n": self.n, "by": self.by, "text": self.text}


@dataclass
class Prepared:
    """What every viewer of one position is sent alike, worked out once per change: the
    picture (its seats called by their players' names, as the log calls them) and the first
    :data:`LEGAL_CAP` legal moves' texts with their number, and their fields where the game
    gives them (``Presentation.legal_fields``)."""

    #: what it is of: the stored version, the ply and the seats' names (a rename redraws it)
    key: PreparedKey
    svg: str
    legal: list[str]
    legal_total: int
    legal_fields: list[Mapping[str, Any] | None]
    #: CPU seconds it took (a slow game is prepared off the event loop from then on)
    cost: float

    @classmethod
    def of(cls, key: PreparedKey, state: State, shown: Shown | None, on: bool, callers: Callers) -> Prepared:
        """Work out what is sent for ``state``, its picture's seats called as ``callers`` call
        them (a pure function of its arguments: it may run in a thread)."""
        began = time.process_time()
        with seats_called(callers.told):
            picture = svg_of(state, shown)
        fields = entry(state.game.id).presentation.legal_fields
        legal, total, legal_fields = legal_page(state, LEGAL_CAP, fields) if on else ([], 0, [])
        return cls(key, picture, legal, total, legal_fields, time.process_time() - began)


class Table:
    """A game in progress: its stored row, its moves and log, the positions it keeps
    (:class:`~plunder.web.positions.Positions`), what its viewers are sent, and its viewers.

    Building a table replays its moves: a long game takes a second or more, so
    :class:`Tables` builds tables (and rebuilds them, :meth:`replayed`) in a thread."""

    def __init__(self, row: GameRow) -> None:
        self.id = row.id
        self.game: Game = load_game(row.game, **row.params)
        self.entry = entry(row.game)
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.thinking: asyncio.Task[None] | None = None
        #: a hint is being worked out (one at a time per game: each is seconds of search)
        self.hinting = False
        self.used = time.monotonic()
        #: the level an AI seat plays at after its own failed (:data:`FALLBACK`), by seat
        self.levels: dict[int, str] = {}
        #: what the log adds to a move's narration (why an AI seat plays a simpler level or searched less), by move number
        self.notes: dict[int, str] = {}
        self._prepared: Prepared | None = None
        #: what the game's end means to each browser seated in it, by token hash (a rating
        #: change, a personal best: :func:`.ratings.settle`); ``None`` until the game is settled
        self.outcome: dict[str, list[str]] | None = None
        #: the chosen display names of the seats' players, by token hash (:meth:`Tables.named`)
        self.chosen: dict[str, str] = {}
        #: when :attr:`chosen` was read (``time.monotonic``); 0: to be read again
        self.named_at = 0.0
        #: the rematch offered once the game is over (:meth:`Tables.named`)
        self.rematch: Rematch | None = None
        #: the end's breakdown, worked out once: (version, moves) it is of, and its lines
        self._breakdown: tuple[tuple[int, int], list[str]] | None = None
        #: the position's picture and legal moves being worked out in a thread (:meth:`Tables.ready`)
        self.preparing: asyncio.Future[Prepared] | None = None
        #: the log's latest entries as sent (:meth:`told`), by move number, each with the entry it
        #: is of, for the seats' names in :attr:`_told_names`: a page reloaded does not rename them again
        self._told: dict[int, tuple[LogEntry, dict[str, Any]]] = {}
        self._told_names: tuple[str, ...] = ()
        self.adopt(row, self.replayed(row))

    def replayed(self, row: GameRow) -> tuple[list[Move], Positions, list[LogEntry]]:
        """The stored row's moves, positions and log, built afresh without touching the table
        (so a thread can build them while the event loop goes on showing the table)."""
        moves: list[Move] = []
        positions = Positions(self.game, moves)
        log: list[LogEntry] = []
        for move in row.moves:
            before = positions[-1]
            after = before.apply(self.game.parse_action(before, move.action))
            log.append(self.entry_of(before, move, after, len(moves) + 1))
            moves.append(move)
            positions.append(after)
        return moves, positions, log

    def adopt(self, row: GameRow, replayed: tuple[list[Move], Positions, list[LogEntry]]) -> None:
        """Take the stored row as the truth, with its moves, positions and log (:meth:`replayed`)."""
        self.row = row
        self.seed = row.seed
        self.moves, self.states, self.log = replayed
        self._prepared = None
        for viewer in self.viewers:
            viewer.known = 0

    def add_note(self, n: int, note: str) -> None:
        """Add ``note`` to what the log says of move ``n`` (after any note it has)."""
        self.notes[n] = f"{self.notes[n]}; {note}" if n in self.notes else note

    def entry_of(self, before: State, move: Move, after: State, n: int) -> LogEntry:
        """The log entry of move ``n``, ``move`` from ``before`` to ``after``."""
        narrate = self.entry.presentation.narrate
        told = narrate(before, self.game.parse_action(before, move.action), after) if narrate is not None else ""
        who = "Chance" if move.by is None else self.game.seat_name(move.by)
        note = f" ({self.notes[n]})" if n in self.notes else ""
        return LogEntry(n, move.by, (told or f"{who}: {move.action}") + note)

    @property
    def state(self) -> State:
        """The position now."""
        return self.states[-1]

    @property
    def version(self) -> int:
        """The stored version this table shows."""
        return self.row.version

    @property
    def on(self) -> bool:
        """True while the game is being played."""
        return self.row.status == ON

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats the holder of the token hashed ``token`` acts for."""
        if token is None:
            return frozenset()
        return frozenset(i for i, s in enumerate(self.row.seats) if s.kind == HUMAN and s.token == token)

    def level(self, seat: int) -> str:
        """The AI level seat ``seat`` plays at now (its own, unless that failed)."""
        return self.levels.get(seat) or self.row.seats[seat].agent or "medium"

    def active(self, now: float) -> bool:
        """True while the game is in progress (see :data:`ACTIVE_SECONDS`)."""
        thinking = self.thinking is not None and not self.thinking.done()
        return self.on and (bool(self.viewers) or thinking or now - self.used < ACTIVE_SECONDS)

    def ai_to_move(self) -> bool:
        """True when an AI seat must decide now."""
        p = self.state.current_player
        return self.on and p >= 0 and self.row.seats[p].kind == AI

    @property
    def showcase(self) -> bool:
        """True when every seat is an AI: a game for spectators, played at a watcher's pace
        and only while watched (docs/web.md)."""
        return all(s.kind == AI for s in self.row.seats)

    def alone(self, you: frozenset[int]) -> bool:
        """True when every seat but ``you`` is an AI: undo and hints are for such games only."""
        return bool(you) and all(i in you or s.kind == AI for i, s in enumerate(self.row.seats))

    def extend(self, moves: Sequence[Move], states: Sequence[State]) -> None:
        """Append moves already written to the store, with the positions after them, to the log."""
        for move, after in zip(moves, states):
            self.log.append(self.entry_of(self.states[-1], move, after, len(self.moves) + 1))
            self.moves.append(move)
            self.states.append(after)

    def cut(self, first: int) -> None:
        """Forget the moves from ply ``first`` on (an undo stored)."""
        self.states.truncate(first)
        del self.log[first:]
        self.notes = {n: note for n, note in self.notes.items() if n <= first}
        for viewer in self.viewers:
            viewer.known = min(viewer.known, first)

    def followed(self, moves: list[Move], states: list[State]) -> None:
        """Add chance's draws after ``states[-1]`` (positions following the table's) until a seat
        must decide or the game ends; ``moves`` and ``states`` grow in place."""
        while states[-1].current_player == CHANCE:
            state = states[-1]
            outcome = chance.draw(state, self.seed, chance_index([*self.moves, *moves]))
            moves.append(Move(None, self.game.action_to_text(state, outcome)))
            states.append(state.apply(outcome))

    def plan(self, seat: int, text: str) -> tuple[list[Move], list[State]]:
        """The moves (``text`` for ``seat``, then chance's) and positions a decision adds;
        :class:`Refused` in a player's words when the rules refuse it."""
        state = self.state
        try:
            after = state.apply_text(text)
            action: Action = self.game.parse_action(state, text)
        except PlunderError as exc:
            raise Refused(refusal(exc, state, PAGE_EXAMPLE), str(exc)) from None
        moves = [Move(seat, self.game.action_to_text(state, action))]
        states = [after]
        self.followed(moves, states)
        return moves, states

    def now(self) -> tuple[PreparedKey, State, Shown | None, bool, Callers]:
        """What :meth:`Prepared.of` needs for the position now: its key (:meth:`key`), the
        position, its caption, whether the game is on and how the seats are called."""
        ply = len(self.moves)
        shown = Shown(ply, self.moves[-1].action, self.log[-1].text) if self.moves else None
        callers = self.callers()
        return self.key(callers), self.state, shown, self.on, callers

    def key(self, callers: Callers | None = None) -> PreparedKey:
        """What the position now's :class:`Prepared` is of: version, ply and the seats' names."""
        return self.version, len(self.moves), tuple((callers or self.callers()).names)

    def prepare(self) -> Prepared:
        """The picture of the position now (captioned with the last move) and its legal moves,
        worked out once per change: every viewer, and every reload of the page, is sent these
        (:meth:`Tables.ready` works them out in a thread for a slow game)."""
        if not self.ready():
            self.keep(Prepared.of(*self.now()))
        assert self._prepared is not None
        return self._prepared

    def keep(self, prepared: Prepared) -> None:
        """Keep ``prepared`` if it is still the position now's."""
        if prepared.key == self.key():
            self._prepared = prepared

    def ready(self) -> bool:
        """True when the position now is prepared (:meth:`prepare` would not work)."""
        return self._prepared is not None and self._prepared.key == self.key()

    def slow(self) -> bool:
        """True when preparing this game's positions is too slow for the event loop."""
        return self._prepared is None or self._prepared.cost > PREPARE_INLINE_SECONDS

    def callers(self) -> Callers:
        """How the seats are called: their players' names, ``the hard AI`` (:mod:`.names`)."""
        return Callers([SeatWho(s.kind, s.token, self.level(i) if s.kind == AI else None, self.game.seat_name(i))
                        for i, s in enumerate(self.row.seats)], self.chosen)

    def seat_views(self, you: frozenset[int]) -> list[dict[str, Any]]:
        """Each seat as a viewer sees it: who sits there, what kind of player, whether to move."""
        game = self.game
        tokens = [s.token for s in self.row.seats if s.kind == HUMAN]
        callers = self.callers()
        views = []
        for i, s in enumerate(self.row.seats):
            label = game.seat_name(i)
            if s.kind == HUMAN:
                kind = "hotseat" if tokens.count(s.token) > 1 else "human"
                name = ("You" if len(you) == 1 else f"You ({label})") if i in you else callers.third(i)
            elif s.kind == AI:
                kind, name = "ai", f"{label} (AI {self.level(i)})"
            else:
                kind, name = "open", f"{label} (open seat)"
            views.append({"seat": i, "name": name, "label": label, "kind": kind, "level": self.level(i) if s.kind == AI else s.agent,
                          "to_move": self.on and self.state.current_player == i})
        return views

    def status(self, you: frozenset[int] = frozenset()) -> str:
        """Who is to move, in words from the side of a viewer acting for ``you``: ``Anna to
        move``, ``Your turn``, or who the game waits for to join."""
        p = self.state.current_player
        if p >= 0 and self.row.seats[p].kind == OPEN:
            return f"Waiting for {self.game.seat_name(p)} to join by the invite link"
        if p >= 0 and self.game.num_players > 1:
            return "Your turn" if p in you and len(you) == 1 else f"{capital(self.callers().third(p))} to move"
        return status_text(self.state)

    def result(self, you: frozenset[int] = frozenset()) -> dict[str, Any] | None:
        """The end of the game in words from the side of a viewer acting for ``you`` (``You
        lost to the hard AI``): the verdict and the score's breakdown; ``None`` while on."""
        if self.on:
            return None
        state = self.state
        if self.row.status == OVER and not state.is_terminal():
            return {"verdict": f"Stopped after {len(self.moves):,} moves, without a winner: a game on this "
                               f"server lasts at most {MAX_GAME_MOVES:,} moves",
                    "breakdown": [], "scores": list(state.scores())}
        if self.row.status == RESIGNED:
            seat = self.row.resigned_by if self.row.resigned_by is not None else 0
            others = [i for i in range(self.game.num_players) if i != seat]
            return {"verdict": self.callers().resigned(seat, others, you), "breakdown": [],
                    "scores": list(state.scores())}
        verdict = outcome_text(state) if self.game.num_players == 1 else \
            f"Game over: {self.callers().verdict(state.returns(), you)}"
        return {"verdict": verdict, "breakdown": self.breakdown(), "scores": list(state.scores())}

    def breakdown(self) -> list[str]:
        """The final score taken apart, with the figures of an observer shown every move of the
        game (:func:`plunder.match.breakdown_of`), worked out once at the end."""
        key = (self.version, len(self.moves))
        if self._breakdown is None or self._breakdown[0] != key:
            self._breakdown = (key, breakdown_of(self.game, self.moves))
        return self._breakdown[1]

    def view(self, viewer: Viewer, creator: bool = False) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: the picture, the log entries it lacks (the last
        :data:`LOG_WINDOW` at most), the seats, and the legal moves when one of its seats is to
        move (see docs/web.md)."""
        you = self.seats_of(viewer.token)
        state = self.state
        your_turn = self.on and state.current_player in you
        prepared = self.prepare()
        result = self.result(you)
        if result is not None and self.outcome and viewer.token in self.outcome:
            result["yours"] = self.outcome[viewer.token]
        start = max(min(viewer.known, len(self.log)), len(self.log) - LOG_WINDOW)
        message: dict[str, Any] = {
            "type": "state", "game": self.game.id, "ply": len(self.moves), "svg": prepared.svg,
            "status": self.status(you) if result is None else result["verdict"],
            "log_from": start, "log": self.told(self.log[start:]),
            "seats": self.seat_views(you), "you": sorted(you), "your_turn": your_turn,
            "legal": prepared.legal if your_turn else [], "legal_total": prepared.legal_total if your_turn else 0,
            "legal_fields": prepared.legal_fields if your_turn else [],
            "thinking": self.ai_to_move(), "can_undo": self.on and self.alone(you),
            "over": result is not None, "result": result,
        }
        if self.rematch is not None and you:
            message["rematch"] = self.rematch.view(viewer.token)
        if creator:
            message["invites"] = [{"seat": i, "path": f"/join/{s.invite}"}
                                  for i, s in enumerate(self.row.seats) if s.kind == OPEN and s.invite]
        viewer.known = len(self.log)
        return message

    def older(self, before: int) -> dict[str, Any]:
        """The ``log`` message: the :data:`LOG_WINDOW` entries before entry ``before`` (0-based),
        for a client showing a window of the log that asks for more."""
        before = max(0, min(before, len(self.log)))
        start = max(0, before - LOG_WINDOW)
        return {"type": "log", "from": start, "log": self.told(self.log[start:before])}

    def told(self, entries: Sequence[LogEntry]) -> list[dict[str, Any]]:
        """``entries`` as sent, each seat named by its player's name (:meth:`.names.Callers.told`);
        the last :data:`TOLD_KEPT` are kept as sent until a name changes."""
        callers = self.callers()
        if tuple(callers.names) != self._told_names:
            self._told, self._told_names = {}, tuple(callers.names)
        sent = []
        for e in entries:
            kept = self._told.get(e.n)
            if kept is None or kept[0] is not e:  # new, or an entry undone and made again
                kept = self._told[e.n] = (e, {**e.data(), "text": callers.told(e.text)})
            sent.append(kept[1])
        if len(self._told) > TOLD_KEPT:
            first = len(self.log) - TOLD_KEPT // 2
            self._told = {n: kept for n, kept in self._told.items() if n > first}
        return sent

    def record(self) -> Record:
        """The game's record: with its seed once the game is over (the seed is the server's
        secret while it is on: those records say ``"chance": "free"``)."""
        names = [s.agent if s.kind == AI and s.agent else "human" for s in self.row.seats]
        if self.on:
            return Record(self.game.id, dict(self.game.params), None, names, list(self.moves), chance="free")
        record = Record(self.game.id, dict(self.game.params), self.seed, names, list(self.moves))
        if self.state.is_terminal():
            record.returns = list(self.state.returns())
            record.scores = list(self.state.scores())
        return record


class Tables:
    """Every game the server is showing, over one store and one pool of AI workers."""

    def __init__(self, store: Store, thinkers: Thinkers, hint_agent: str | None = None) -> None:
        self.store = store
        self.thinkers = thinkers
        #: the agent behind hints; ``None``: each game's own (``Strength.hint``, as ``plunder play``)
        self.hint_agent = hint_agent
        self.open: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        # the store's calls are short and blocking. A SQLite file answers in well under a
        # millisecond: they run on the event loop, where a hand-over to a thread would cost more
        # than the call on a busy machine. A database over the network gets threads.
        self.inline = store.engine.dialect.name == "sqlite"
        self._db = ThreadPoolExecutor(4, thread_name_prefix="plunder-db")
        self._sync: asyncio.Task[None] | None = None
        #: called with a table and the ply of its first new move once moves are stored and shown
        #: (the table talk tells the moves that belong to it: :mod:`.chat`)
        self.moved: list[Callable[[Table, int], Awaitable[None]]] = []

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call (in the store's threads unless :attr:`inline`)."""
        if self.inline:
            return call(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, call, *args)

    def start(self) -> None:
        """Start noticing other processes' changes (call from inside the event loop)."""
        self._sync = asyncio.create_task(self._watch())

    async def close(self) -> None:
        """Stop the AI workers and the store's threads."""
        if self._sync is not None:
            self._sync.cancel()
        for table in self.open.values():
            if table.thinking is not None:
                table.thinking.cancel()
        self.thinkers.close()
        self._db.shutdown(wait=True)
        self.store.close()

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
                row = await self.db(self.store.load, game_id)
                if row is None:
                    self._loading.pop(game_id, None)
                    return None
                # replaying the moves and drawing the position take a second for a long or
                # large game: a thread does it while the event loop serves the other games
                # (its picture is drawn by :meth:`ready` below, once the players' names are read)
                table = await asyncio.to_thread(Table, row)
                self._evict()
                self.open[game_id] = table
        self._loading.pop(game_id, None)
        await self.named(table)
        await self.settle(table)
        await self.ready(table)
        return table

    def renamed(self, token: str) -> None:
        """The holder of the token hashed ``token`` chose a name: its open tables read names anew."""
        for table in self.open.values():
            if any(s.token == token for s in table.row.seats):
                table.named_at = 0.0

    async def named(self, table: Table) -> None:
        """Read the seats' chosen names and, once the game is over, its rematch, as stored now."""
        table.named_at = time.monotonic()
        table.chosen = await self.db(names_of, self.store, [s.token for s in table.row.seats if s.token])
        table.rematch = None if table.on else await self.db(rematch_of, self.store, table.id)

    async def ready(self, table: Table) -> None:
        """Have the position now's picture and legal moves worked out: in a thread for a game
        whose last ones took longer than :data:`PREPARE_INLINE_SECONDS`, else here."""
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
            del self.open[table.id]

    async def create(self, game: Game, choices: Sequence[str], creator: str, rated: bool = False) -> str:
        """Store a new game of ``game`` with seats as chosen (:data:`SEAT_CHOICES`) by the holder
        of the token hashed ``creator``, rated or not (:mod:`.ratings`); its id. Chance's opening
        draws are stored with it."""
        if len(choices) != game.num_players:
            raise Refused(f"{game.title} is played by {game.num_players}: give every seat a player")
        refusal = ratings.rated_refusal(game, choices) if rated else None
        if refusal:
            raise Refused(refusal)
        now = time.monotonic()
        if sum(t.active(now) for t in self.open.values()) >= MAX_GAMES_ON:
            raise Full(f"The server has {MAX_GAMES_ON:,} games in progress, its limit; "
                       "try again in a few minutes.")
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
        return await self.seated(game, seats, creator, rated)

    async def seated(self, game: Game, seats: list[SeatRow], creator: str, rated: bool = False) -> str:
        """Store a new game of ``game`` with ``seats``, created by the holder of the token
        hashed ``creator``, rated or not; its id (:meth:`create` and rematches)."""
        row = GameRow(new_token(), game.id, dict(game.params), new_seed(), ON, creator, seats)
        table = Table(row)
        moves: list[Move] = []
        states = [table.state]
        table.followed(moves, states)
        row.moves = moves
        if states[-1].is_terminal():
            row.status = OVER
        await self.db(self.store.create, row)
        if rated:
            await self.db(ratings.mark_rated, self.store, row.id)
        table.extend(moves, states[1:])
        self._evict()
        self.open[row.id] = table
        await self.named(table)
        await self.ready(table)
        self.kick(table)
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
            self.kick(table)
        return claimed[0]

    async def refresh(self, table: Table) -> None:
        """Reload ``table`` from the store and tell its viewers (hold its lock)."""
        row = await self.db(self.store.load, table.id)
        if row is not None:
            table.adopt(row, await asyncio.to_thread(table.replayed, row))
            await self.named(table)
            await self.settle(table)
            await self.ready(table)
            self.tell(table)

    async def write(self, table: Table, first: int, moves: list[Move], states: list[State]) -> None:
        """Store ``moves`` from ply ``first`` on (dropping any stored from there: an undo), then
        show them (hold the table's lock). A change from another process is refused plainly
        after the table is reloaded."""
        ended = (states[-1] if states else table.states[first]).is_terminal()
        status = OVER if ended or first + len(moves) >= MAX_GAME_MOVES else ON
        try:
            # a move after the last one stored has nothing to drop (a statement less per move)
            await self.db(self.store.append, table.id, table.version, first, moves, status, first < len(table.moves))
        except StaleWrite:
            await self.refresh(table)
            raise Refused("The game changed in the meantime; here it is as it stands.") from None
        table.row.version += 1
        table.row.status = status
        if first < len(table.moves):
            table.cut(first)
        table.extend(moves, states)
        await self.settle(table)
        await self.ready(table)
        self.tell(table)
        for hook in self.moved:
            await hook(table, first)

    async def settle(self, table: Table) -> None:
        """Once the game is over, keep its verdict for the list of replays (:func:`.outcomes.record`),
        have its end rated (or its solitaire score kept) and learn what it means to each seat
        (:func:`.ratings.settle`); each acts once per game whoever calls."""
        if table.on or table.outcome is not None:
            return
        result = table.result()
        if result is not None:
            try:
                await self.db(outcomes.record, self.store, table.id, str(result["verdict"]))
                table.outcome = await self.db(ratings.settle, self.store, table.row, table.state)
            except Exception:  # the store failing here costs the game nothing: the next load settles it
                log.exception("could not settle game %s", table.id)

    def tell(self, table: Table) -> None:
        """Queue the table's state for each of its viewers (a viewer too slow to take it is cut off)."""
        for viewer in list(table.viewers):
            try:
                viewer.queue.put_nowait(table.view(viewer, creator=viewer.token == table.row.creator))
            except asyncio.QueueFull:
                table.viewers.discard(viewer)
                while not viewer.queue.empty():
                    viewer.queue.get_nowait()
                viewer.queue.put_nowait(None)  # its connection closes

    def welcome(self, table: Table, viewer: Viewer) -> None:
        """Add ``viewer`` to ``table`` and queue its first message (the whole log)."""
        table.viewers.add(viewer)
        viewer.known = 0
        viewer.queue.put_nowait(table.view(viewer, creator=viewer.token == table.row.creator))
        self.kick(table)

    @staticmethod
    def leave(table: Table, viewer: Viewer) -> None:
        """Forget ``viewer``."""
        table.viewers.discard(viewer)

    async def act(self, table: Table, viewer: Viewer, text: str, ply: int) -> None:
        """Play ``text`` for the viewer's seat to move, if ``ply`` is the position it saw."""
        async with table.lock:
            if not table.on:
                raise Refused("The game is over.")
            seat = table.state.current_player
            you = table.seats_of(viewer.token)
            if seat not in you:
                raise Refused("It is not your turn." if you else "Spectators cannot move.")
            if ply != len(table.moves):
                raise Refused("That was played on an older position; here is the game as it stands.")
            moves, states = table.plan(seat, text)
            await self.write(table, len(table.moves), moves, states)
        self.kick(table)

    async def undo(self, table: Table, viewer: Viewer) -> None:
        """Take back to the viewer's previous decision (against AI seats only; chance is not
        drawn again: the same draws come back, keyed on their index)."""
        async with table.lock:
            you = table.seats_of(viewer.token)
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
            try:
                await self.db(self.store.resign, table.id, table.version, seat)
            except StaleWrite:
                await self.refresh(table)
                raise Refused("The game changed in the meantime; here it is as it stands.") from None
            table.row.version += 1
            table.row.status = RESIGNED
            table.row.resigned_by = seat
            await self.settle(table)
            await self.ready(table)
            self.tell(table)

    async def hint(self, table: Table, viewer: Viewer) -> list[str]:
        """The hint agent's best moves for the viewer's decision (games against the AI only)."""
        async with table.lock:
            you = table.seats_of(viewer.token)
            if not table.on or table.state.current_player not in you:
                raise Refused("A hint is for your turn.")
            if not table.alone(you):
                raise Refused("Hints are only for games against the AI.")
            if table.hinting:
                raise Refused("A hint is on its way.")
            state, ply, version = table.state, len(table.moves), table.version
            table.hinting = True
        try:
            return await self.thinkers.hint(table.id, lambda: table.version == version, state,
                                            self.hint_agent or table.entry.strength.hint, ply)
        except Superseded:
            raise Refused("The game moved on before the hint was ready; ask again.") from None
        except Busy:
            raise Refused("The server is busy; ask for a hint again in a little while.") from None
        finally:
            table.hinting = False

    def kick(self, table: Table) -> None:
        """Let AI seats move, in the background, if one is to move and none is thinking (in a
        showcase, only while someone watches)."""
        if table.showcase and not table.viewers:
            return
        if table.ai_to_move() and (table.thinking is None or table.thinking.done()):
            table.thinking = asyncio.create_task(self._think(table))

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
                    self.announce(table, f"{note[0].upper()}{note[1:]}.")
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
            self.announce(table, f"The AI of {name} cannot move; the game cannot go on.", reason[:200])
            return False
        table.levels[seat] = simpler
        # the log names seats by their players (the AI seat by its level, now the simpler one)
        note = f"{name}: the {spec} AI failed on this position and level {simpler} plays from now on"
        table.add_note(ply + 1, note)
        return True

    def announce(self, table: Table, message: str, detail: str = "") -> None:
        """Tell every viewer of ``table`` something that is not a move (a ``notice``)."""
        for viewer in list(table.viewers):
            try:
                viewer.queue.put_nowait({"type": "notice", "message": message, "detail": detail or message})
            except asyncio.QueueFull:
                pass  # a viewer that far behind is cut off by the next state (:meth:`tell`)

    async def _watch(self) -> None:
        """Reload the watched tables another process changed (PostgreSQL with several servers)."""
        while True:
            await asyncio.sleep(SYNC_SECONDS)
            watched = {i: t for i, t in self.open.items() if t.viewers}
            try:
                stored = await self.db(self.store.versions, list(watched))
            except Exception:
                log.exception("could not read the games' versions")
                continue
            for game_id, version in stored.items():
                table = watched[game_id]
                if version > table.version:
                    # read again under the lock: the first read may have raced this process's own write
                    async with table.lock:
                        again = await self.db(self.store.versions, [game_id])
                        if again.get(game_id, table.version) > table.version:
                            await self.refresh(table)
                    self.kick(table)


def hashed(token: str | None) -> str | None:
    """:func:`plunder.web.store.token_hash` of a token, ``None`` for none."""
    return None if not token else token_hash(token)

