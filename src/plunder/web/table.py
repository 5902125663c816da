"""A game at a table, independent of HTTP, of the store and of other processes: its stored
row, its moves, positions and log, and what each viewer is sent (:class:`Table`).

The rules decide everything: an action arrives as text and goes through ``apply_text``; chance
is drawn from the game's seed exactly as ``plunder play`` draws it
(:func:`plunder.core.chance.draw` with :func:`plunder.match.chance_index`), so a finished
game's record replays with ``"chance": "seed"``. A table is built from its stored seed, seats
and moves, and takes moves already stored (:meth:`Table.extend`): :mod:`.tables` writes them
first (:mod:`.storage`), then shows them.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core import chance
from ..core.errors import PlunderError
from ..core.game import CHANCE, Action, Game, State
from ..core.record import Move, Record
from ..core.registry import entry, load_game
from ..core.svg import Shown, legal_page, outcome_text, seats_called, status_text
from ..core.words import refusal
from ..match import breakdown_of, chance_index
from ..pictures import svg_of
from .names import Callers, SeatWho, capital, default_name
from .positions import Positions
from .rooms import Rematch
from .clocks import LIVE, shown
from .clockstore import CLAIMED, ON_TIME, Kept
from .store import ABORTED, AI, HUMAN, ON, OPEN, OVER, RESIGNED, GameRow, record_players
from .viewers import Viewer

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
#: a game is in progress while it is on and has a viewer, an AI thinking, or was asked for
#: within this many seconds (a game just created, before its page connects)
ACTIVE_SECONDS = 600.0
#: seconds a live game's player may be away (no connection for their seat) before an opponent
#: may claim the win against them (docs/web.md, "Abandonment")
CLAIM_SECONDS = 30.0


class Refused(Exception):
    """A request the game refuses: ``message`` in a player's words, ``detail`` the full reason
    (with the ruling id) where the rules gave one, ``field`` the form field it is about (said
    beside it), if one."""

    def __init__(self, message: str, detail: str = "", field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message
        self.field = field


class Full(Refused):
    """A new game refused because the server has as many games in progress as it takes
    (:data:`.tables.MAX_GAMES_ON`)."""




@dataclass(frozen=True)
class Told:
    """The persons a server process said are connected to a game, and when it said so."""

    #: their token hashes
    tokens: list[str]
    #: when (the server's :attr:`Table.time`)
    at: float


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
    #: CPU seconds it took, in the thread that worked it out (a slow game is prepared off the event loop from then on)
    cost: float

    @classmethod
    def of(cls, key: PreparedKey, state: State, shown: Shown | None, on: bool, callers: Callers) -> Prepared:
        """Work out what is sent for ``state``, its picture's seats called as ``callers`` call
        them (a pure function of its arguments: it may run in a thread)."""
        # this thread's time: the process's sums every thread's, and under load reading it
        # cost as much as drawing a small board
        began = time.thread_time()
        with seats_called(callers.told):
            picture = svg_of(state, shown)
        fields = entry(state.game.id).presentation.legal_fields
        legal, total, legal_fields = legal_page(state, LEGAL_CAP, fields) if on else ([], 0, [])
        return cls(key, picture, legal, total, legal_fields, time.thread_time() - began)


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
        #: the game is rated (:mod:`.ratings`; set as it is created or loaded, never changed):
        #: no undo, no hints
        self.rated = False
        #: a daily deal's game (:mod:`.daily`): when its deal stops being hidden (the end of its
        #: day); no undo or hints in it ever; ``None`` for any other game
        self.hidden_until: float | None = None
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
        #: the names the seats were played under, kept when the game ended (:mod:`.outcomes`):
        #: they call the seats of a finished game, whatever its players are called since
        self.played: list[str] | None = None
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
        #: the game's clock as stored (:mod:`.clockstore`); ``None`` for a game without a time control
        self.kept: Kept | None = None
        #: the server's time (seconds since the epoch; :attr:`.tables.Tables.time` sets it)
        self.time = time.time
        #: since when each person's seat has had no connection (in :attr:`time`), by seat
        self.absent: dict[int, float] = {}
        #: the persons connected to this game in each server process, by process, as each last
        #: told them (this process's own as it last published them)
        self.remote: dict[str, Told] = {}
        #: the persons (token hashes) who have had a connection to this game
        self.seen: set[str | None] = set()
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
        self.mark_presence()

    def mark_presence(self) -> bool:
        """Note which persons' seats lost their connection (from now on, if they had one: a seat
        never connected is not counted absent, its clock runs all the same); True when that changed."""
        here = {v.token for v in self.viewers} | {t for told in self.remote.values() for t in told.tokens}
        before = set(self.absent)
        now = self.time()
        for i, s in enumerate(self.row.seats):
            if s.kind == HUMAN and s.token in here:
                self.seen.add(s.token)
                self.absent.pop(i, None)
            elif s.kind == HUMAN and s.token in self.seen:
                self.absent.setdefault(i, now)
            else:
                self.absent.pop(i, None)
        return set(self.absent) != before

    def clock_runs_for(self, state: State | None = None) -> int | None:
        """The seat whose clock runs in ``state`` (the position now by default): a person's
        seat to move, while the game is on and no seat is still open; else ``None``."""
        state = state if state is not None else self.state
        p = state.current_player
        if not self.on or p < 0 or self.row.seats[p].kind != HUMAN or any(s.kind == OPEN for s in self.row.seats):
            return None
        return p

    def claimable(self, you: frozenset[int]) -> dict[int, float]:
        """The seats a viewer acting for ``you`` may claim the win against, each with the
        seconds before it may (0: now): another person's seat in a live game with no
        connection (:data:`CLAIM_SECONDS`)."""
        if not you or not self.on or self.kept is None or self.kept.clock.control.kind != LIVE:
            return {}
        mine = {self.row.seats[i].token for i in you}
        now = self.time()
        return {i: max(0.0, CLAIM_SECONDS - (now - since)) for i, since in self.absent.items()
                if self.row.seats[i].kind == HUMAN and self.row.seats[i].token not in mine}

    def abortable(self) -> bool:
        """True while the game may be aborted: on, and some person has not moved yet."""
        moved = {m.by for m in self.moves}
        return self.on and any(s.kind == HUMAN and i not in moved for i, s in enumerate(self.row.seats))

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
        return self.on and self.ai_seat(self.state)

    def ai_seat(self, state: State) -> bool:
        """True when an AI seat decides at ``state`` (a position of this game)."""
        p = state.current_player
        return 0 <= p < len(self.row.seats) and self.row.seats[p].kind == AI

    @property
    def showcase(self) -> bool:
        """True when every seat is an AI: a game for spectators, played at a watcher's pace
        and only while watched (docs/web.md)."""
        return all(s.kind == AI for s in self.row.seats)

    def alone(self, you: frozenset[int]) -> bool:
        """True when every seat but ``you`` is an AI: undo and hints are for such games only
        (unrated ones: :attr:`rated`)."""
        return bool(you) and all(i in you or s.kind == AI for i, s in enumerate(self.row.seats))

    def extend(self, moves: Sequence[Move], states: Sequence[State]) -> None:
        """Append moves already written to the store, with the positions after them, to the log."""
        for move, after in zip(moves, states):
            self.log.append(self.entry_of(self.states[-1], move, after, len(self.moves) + 1))
            self.moves.append(move)
            self.states.append(after)

    def replay_from(self, first: int, moves: Sequence[Move]) -> list[State]:
        """The positions after each of ``moves`` played from ply ``first`` (moves another
        process stored: :meth:`extend` takes them), without touching the table."""
        states = []
        state = self.states[first]
        for move in moves:
            state = state.apply(self.game.parse_action(state, move.action))
            states.append(state)
        return states

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
        """How the seats are called: their players' names, ``the hard AI`` (:mod:`.names`); a
        finished game's as it was played (:attr:`played`)."""
        return Callers([SeatWho(s.kind, s.token, self.level(i) if s.kind == AI else None, self.game.seat_name(i))
                        for i, s in enumerate(self.row.seats)], self.chosen, None if self.on else self.played)

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
                kind, name = "ai", callers.third(i)
            else:  # nobody's seat yet: it has no name but its label
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
        lost to the hard AI``): the verdict and the score's breakdown, the seats called by
        their names; ``None`` while on."""
        if self.on:
            return None
        state = self.state
        if self.row.status == OVER and not state.is_terminal():
            return {"verdict": f"Stopped after {len(self.moves):,} moves, without a winner: a game on this "
                               f"server lasts at most {MAX_GAME_MOVES:,} moves",
                    "breakdown": [], "scores": list(state.scores())}
        if self.row.status == ABORTED:
            return {"verdict": "Aborted before every player had moved: no result, not rated", "breakdown": [],
                    "scores": list(state.scores())}
        if self.row.status == RESIGNED:
            seat = self.row.resigned_by if self.row.resigned_by is not None else 0
            others = [i for i in range(self.game.num_players) if i != seat]
            return {"verdict": self.left_verdict(seat, others, you), "breakdown": self.gone_lines(you),
                    "scores": list(state.scores())}
        verdict = outcome_text(state) if self.game.num_players == 1 else \
            f"Game over: {self.callers().verdict(state.returns(), you)}"
        callers = self.callers()
        return {"verdict": verdict, "breakdown": [*self.gone_lines(you), *(callers.told(line) for line in self.breakdown())],
                "scores": list(state.scores())}

    def left_verdict(self, seat: int, others: list[int], you: frozenset[int]) -> str:
        """The verdict of a game ``seat`` lost by leaving it: resigned, on time, claimed against."""
        callers = self.callers()
        ended = self.kept.ended if self.kept is not None else None
        if ended is None:
            return callers.resigned(seat, others, you)
        who = callers.of(seat, you)
        said = f"{capital(who)} lost on time" if ended == ON_TIME else f"{capital(who)} left the game"
        if len(others) == 1:
            winner = callers.of(others[0], you)
            said += f": {'you win' if winner == 'You' else winner + ' wins'}"
            if ended == CLAIMED:
                said += " (claimed)"
        return said

    def gone_lines(self, you: frozenset[int]) -> list[str]:
        """Who left the game (ran out of time with others playing on) and which AI level played for them."""
        if self.kept is None:
            return []
        lines = []
        for seat, level in sorted(self.kept.gone.items()):
            token = self.row.seats[seat].token
            who = self.chosen.get(token, default_name(token)) if token else self.game.seat_name(seat)
            lines.append(f"{who} ran out of time and left; the {level} AI played on for them")
        return lines

    def your_clock(self, you: frozenset[int]) -> str | None:
        """The time left on the clock of a viewer acting for ``you`` while it runs (``1:23``), else ``None``."""
        if self.kept is None or not self.on or self.kept.clock.running not in you:
            return None
        return shown(self.kept.clock.left_at(self.kept.clock.running, self.time()))

    def clock_view(self, you: frozenset[int]) -> dict[str, Any] | None:
        """The clocks as a viewer acting for ``you`` is sent them: each seat's time left now,
        whose runs, and the seats it may claim the win against (:meth:`claimable`)."""
        if self.kept is None:
            return None
        now = self.time()
        clock = self.kept.clock
        data = clock.data(now) if self.on else clock.stopped(now).data(now)
        data["claim"] = [{"seat": i, "in": round(wait, 3)} for i, wait in sorted(self.claimable(you).items())]
        return data

    def breakdown(self) -> list[str]:
        """The final score taken apart, with the figures of an observer shown every move of the
        game (:func:`plunder.match.breakdown_of`), worked out once at the end."""
        key = (self.version, len(self.moves))
        if self._breakdown is None or self._breakdown[0] != key:
            self._breakdown = (key, breakdown_of(self.game, self.moves))
        return self._breakdown[1]

    def hides_deal(self, now: float) -> bool:
        """True while this daily game's deal is hidden from everyone but its player (:mod:`.daily`)."""
        return self.hidden_until is not None and now < self.hidden_until

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
            "thinking": self.ai_to_move(), "can_undo": self.on and self.alone(you) and not self.rated and self.hidden_until is None,
            "rated": self.rated,
            "over": result is not None, "result": result,
            "clock": self.clock_view(you), "can_abort": bool(you) and self.abortable(),
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
        names = record_players(self.row.seats)
        if self.on:
            return Record(self.game.id, dict(self.game.params), None, names, list(self.moves), chance="free")
        record = Record(self.game.id, dict(self.game.params), self.seed, names, list(self.moves))
        if self.state.is_terminal():
            record.returns = list(self.state.returns())
            record.scores = list(self.state.scores())
        return record
