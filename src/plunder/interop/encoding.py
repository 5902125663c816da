"""Each game's numeric observation and fixed action space (``docs/interop.md`` lists them).

The built-in games have their own encodings here; any other game gives its
``GameEntry.observe`` and ``GameEntry.action_table`` (``docs/new-game.md``), which
:func:`encoding` wraps as they are.

An observation is one ``float32`` vector with a fixed length per parameter set: board
planes (flattened row by row) first, then tracks and piles. It is taken from a seat's
point of view: seats are listed from the observer on (the observer's pieces, then the next
seat's ...), so one policy can play any seat. States hold no secret by design (PF-9: an
unseen card is undecided until it is revealed), so an observation of a state shows no
more than its seat may know.

The observers are built for speed (``bench/interop_speed.py``): each part of the vector has
a fixed slice, written in place into one buffer (no parts joined per call), bit piles are
unpacked by numpy, and the parts that change seldom (Pillage's box contents, Hubs' segment
matrix, Crossroads' board) are kept from the previous call and updated by what changed:
states are immutable values and a transition keeps the fields it does not change, so an
unchanged field is the very same object.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, cast

import numpy as np

from ..core.errors import ParameterError
from ..core.game import Game, State
from ..core.registry import entry
from ..games.crossroads.board import CELLS, CITY0, ROAD
from ..games.crossroads.rules import Phase as CrossroadsPhase
from ..games.hubs.actions import Segment
from ..games.pillage.contents import Commodity, Content, Doubloons, Modifier
from ..games.pirates.rules import Phase as PiratesPhase
from ..games.profiteer import actions as pf_actions
from ..games.profiteer.flow import Phase as ProfiteerPhase
from .spaces import ActionSpace, SlotSpace, TableSpace

#: slots for the games whose actions cannot be listed up front (see :class:`SlotSpace`)
PIRATES_SLOTS = 256
CROSSROADS_SLOTS = 2048

#: ``fill(state, seat, out)``: the vector of ``state`` as ``seat`` sees it, written into ``out``
#: (the vector's length) and returned, or a new array when ``out`` is ``None``
Observer = Callable[[State, int, np.ndarray | None], np.ndarray]


@dataclass(frozen=True)
class Encoding:
    """A game's observation length, its observer and its action space."""

    #: the game with its parameters
    game: Game
    #: length of the observation vector
    size: int
    #: writes the vector of a state as a seat sees it into a buffer (see :meth:`observe`)
    fill: Observer
    #: the fixed action space
    actions: ActionSpace

    def __deepcopy__(self, memo: dict) -> "Encoding":
        """The encoding itself: it belongs to its game, and copies of a state (OpenSpiel
        clones states by deep copy) share it; what it keeps from the states it saw gives the
        same vectors whatever order states come in."""
        return self

    def __reduce__(self) -> tuple:
        """Pickled as its game: unpickling builds the game's encoding afresh (an OpenSpiel
        state serializes its attributes by pickle, this among them)."""
        return encoding, (self.game,)

    def observe(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``state`` as ``seat`` sees it, written into ``out`` when given (a
        ``float32`` array of :attr:`size`, overwritten whole) or into a new array."""
        return self.fill(state, seat, out)


class _Layout:
    """Hands out consecutive slices of the vector, part by part."""

    def __init__(self) -> None:
        self.size = 0

    def take(self, n: int) -> slice:
        """The next ``n`` places."""
        part = slice(self.size, self.size + n)
        self.size += n
        return part


def _bits(masks: tuple[int, ...], width: int) -> np.ndarray:
    """The low ``width`` bits of each of ``masks`` (bit 0 first), one row per mask (``uint8``)."""
    nbytes = (width + 7) // 8
    raw = b"".join(m.to_bytes(nbytes, "little") for m in masks)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    return bits.reshape(len(masks), nbytes * 8)[:, :width]


def _phase_rows(phases: Any) -> dict[int, list[int]]:
    """The one-hot row of each member of an enum, keyed by the member's ``id``: members are
    singletons, and an ``Enum`` hashes in Python (by name), an ``id`` in C."""
    return {id(phase): _one_hot(i, len(phases)) for i, phase in enumerate(phases)}


def _one_hot(index: int, size: int) -> list[int]:
    """``size`` zeros with a 1 at ``index`` (none when it is out of range: nothing there)."""
    row = [0] * size
    if 0 <= index < size:
        row[index] = 1
    return row


def _copy(kept: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``kept`` (a vector kept from call to call) written into ``out``, or a copy of it."""
    if out is None:
        return kept.copy()
    out[:] = kept
    return out


def _picker(places: list[int]) -> Callable[[tuple], tuple]:
    """``t -> tuple(t[i] for i in places)``, as one C call."""
    get = itemgetter(*places)
    return get if len(places) > 1 else lambda t: (get(t),)


# --------------------------------------------------------------------------- Pillage

class _PillageView:
    """One seat's Pillage vector, kept from the state last observed and brought up to date
    by what changed: a move draws one line, and now and then captures a box or leaves a
    modifier pending (PP-5); chance deals one box at a time (PP-10)."""

    def __init__(self, game: Any, seat: int, width: int, size: int, row: Callable[[Content | None], list[float]]) -> None:
        self.seat, self.width, self.row = seat, width, row
        self.edges, self.boxes, self.kinds = game.board.num_edges, game.board.num_boxes, len(game.legend.kinds)
        # the vector of no line drawn, no box dealt or owned, nothing pending
        self.vec = np.zeros(size, dtype=np.float32)
        self.drawn = 0
        self.contents: tuple[Content | None, ...] = (None,) * self.boxes
        self.owner: tuple[int, ...] = (-1,) * self.boxes
        self.pending: tuple[int, ...] = ()
        # the tallies last written (legend values, doubloons, commodities held) and their place
        self.values: tuple[int, ...] | None = None
        self.doubloons: tuple[int, int] | None = None
        self.held: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.tallies = self.edges + self.boxes * width
        for box in range(self.boxes):
            self._box(box, None)

    def _box(self, box: int, content: Content | None) -> None:
        base = self.edges + box * self.width
        self.vec[base + 2:base + self.width] = self.row(content)[2:]

    def update(self, state: Any) -> np.ndarray:
        """The vector of ``state`` (kept, not to be changed by the caller)."""
        vec, seat, edges, width = self.vec, self.seat, self.edges, self.width
        changed = state.drawn ^ self.drawn
        while changed:
            low = changed & -changed
            edge = low.bit_length() - 1
            vec[edge] = state.drawn >> edge & 1
            changed ^= low
        self.drawn = state.drawn
        if state.contents is not self.contents:
            for box, (dealt, before) in enumerate(zip(state.contents, self.contents)):
                if dealt is not before:
                    self._box(box, dealt)
            self.contents = state.contents
        if state.owner is not self.owner:
            for box, (new, old) in enumerate(zip(state.owner, self.owner)):
                if new != old:
                    vec[edges + box * width] = new == seat
                    vec[edges + box * width + 1] = new == 1 - seat
            self.owner = state.owner
        if state.pending is not self.pending:
            for box in self.pending:
                vec[edges + box * width + 3] = 0.0
            for box in state.pending:
                vec[edges + box * width + 3] = 1.0
            self.pending = state.pending
        # the tallies change only when a box is captured or a modifier applied: most lines
        # pass the turn and leave the very same tuples
        if state.values is not self.values or state.doubloons is not self.doubloons or state.held is not self.held:
            other = 1 - seat
            vec[self.tallies:-1] = [*state.values, state.doubloons[seat], state.doubloons[other],
                                    *state.held[seat], *state.held[other]]
            self.values, self.doubloons, self.held = state.values, state.doubloons, state.held
        vec[-1] = state.mover == seat
        return vec


class _PillageSpace(TableSpace):
    """Pillage's table (lines in edge order, then modifier choices) whose mask of lines is
    the undrawn bits, kept up to date line by line like the vector."""

    def __init__(self, game: Any) -> None:
        super().__init__(list(game.actions.lines) + [c for options in game.actions.choices.values() for c in options])
        self.edges = game.board.num_edges
        self.drawn = 0
        self.lines = np.ones(self.size, dtype=np.int8)
        self.lines[self.edges:] = 0

    def indices(self, state: State) -> list[int]:
        """The undrawn lines (their edges, ascending) while the mover draws (PP-4)."""
        if state.current_player < 0 or getattr(state, "pending"):
            return super().indices(state)
        return [line.edge for line in getattr(state, "open_lines")]

    def mask(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """The undrawn lines while the mover draws (PP-4); the table's places of the legal
        actions otherwise (a modifier choice, PP-5; the deals; the end)."""
        drawn = getattr(state, "drawn")
        if state.current_player < 0 or getattr(state, "pending"):
            return super().mask(state, out)
        changed = drawn ^ self.drawn
        while changed:
            low = changed & -changed
            edge = low.bit_length() - 1
            self.lines[edge] = 1 - (drawn >> edge & 1)
            changed ^= low
        self.drawn = drawn
        if out is None:
            return self.lines.copy()
        out[:] = self.lines
        return out


def _pillage(game: Any) -> Encoding:
    kinds = len(game.legend.kinds)
    boxes, edges = game.board.num_boxes, game.board.num_edges
    # per box: owned by me, by the other, undealt, pending, doubloons, modifier amount, kind (K), modifier kinds (K)
    width = 6 + 2 * kinds
    size = edges + boxes * width + 3 * kinds + 3

    def content_row(content: Content | None) -> list[float]:
        row = [0.0] * width
        if content is None:
            row[2] = 1.0
        elif isinstance(content, Doubloons):
            row[4] = content.n
        elif isinstance(content, Commodity):
            row[6 + content.kind] = 1.0
        elif isinstance(content, Modifier):
            row[5] = content.amount
            for k in content.kinds:
                row[6 + kinds + k] = 1.0
        return row

    views = [_PillageView(game, seat, width, size, content_row) for seat in range(2)]

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        return _copy(views[seat].update(state), out)

    return Encoding(game, size, fill, _PillageSpace(game))


# --------------------------------------------------------------------------- Pirates

def _pirates(game: Any) -> Encoding:
    sea = game.sea
    width, height = sea.width, sea.height
    cells = width * height
    tiles = len(sea.origins)
    phase_rows = _phase_rows(PiratesPhase)
    layout = _Layout()
    layout.take(5 * cells)  # the planes
    faces_part, winds_part, phase_part = layout.take(tiles), layout.take(tiles), layout.take(len(phase_rows))
    tail_part = layout.take(19)
    # the vector last written: the sea plane stays; the marks of the ship, the chest and the
    # coins are moved when they moved (a cell is one object from move to move while it stays)
    kept = np.zeros(layout.size, dtype=np.float32)
    for x, y in sea.cells:
        kept[y * width + x] = 1.0
    # what was last written of each part: ship, chest, coins (their cells and flat places),
    # and the tiles' faces and winds and the phase, which change at a flip, a wind choice, a
    # phase's end and stay the very same objects otherwise
    seen: list[Any] = [None, None, None, None, None, None]
    coin_places: list[int] = []

    def mark(plane: int, cell: Any, before: Any) -> None:
        if before is not None:
            kept[plane * cells + before[1] * width + before[0]] = 0.0
        if cell is not None:
            kept[plane * cells + cell[1] * width + cell[0]] = 1.0

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        pos, chest, coins = state.pos, state.chest, state.coins
        if pos != seen[0]:
            mark(1, pos, seen[0])
        if chest != seen[1]:
            mark(2, chest, seen[1])
        if coins is not seen[2]:
            for place in coin_places:
                kept[place] = 0.0
            coin_places.clear()
            sums: dict[int, list[int]] = {}  # cell -> [coins, their value]
            for coin, (x, y) in coins:
                tally = sums.setdefault(y * width + x, [0, 0])
                tally[0] += 1
                tally[1] += coin
            for cell, (count, value) in sums.items():
                coin_places.extend((3 * cells + cell, 4 * cells + cell))
                kept[3 * cells + cell], kept[4 * cells + cell] = count, value
        seen[:3] = pos, chest, coins
        faces, winds, phase = state.faces, state.winds, state.phase
        if faces is not seen[3]:
            kept[faces_part] = (*faces, *(-1,) * (tiles - len(faces)))
        if winds is not seen[4]:
            kept[winds_part] = (*winds, *(-1,) * (tiles - len(winds)))
        if phase is not seen[5]:
            kept[phase_part] = phase_rows[id(phase)]
        seen[3:] = faces, winds, phase
        kept[tail_part] = (
            state.turn, state.ship, state.crew, state.notoriety, state.booty, state.buried, state.orth,
            state.diag, state.flip, state.wind_tile, state.sight, state.draw, state.combat,
            len(state.fights), len(state.movers), len(state.arrived), state.did_bury, state.did_retrieve,
            state.drowned)
        return _copy(kept, out)

    return Encoding(game, layout.size, fill, SlotSpace(PIRATES_SLOTS))


# --------------------------------------------------------------------------- Hubs

class _HubsSpace(TableSpace):
    """Hubs' table (lattice points row by row, then every pair ``i < j`` of dots) whose mask
    is read from the position's own bookkeeping: the free points while placing (HB-1), the
    drawable candidates' bits while drawing (HB-2, HB-3), no segment listed or ordered."""

    def __init__(self, game: Any) -> None:
        n = game.dots
        super().__init__(list(game.lattice) + [Segment(i, j) for i in range(n) for j in range(i + 1, n)])
        self.game = game
        self.points = game.width * game.height

    def _mark(self, state: State, out: np.ndarray) -> None:
        hubs, game, n = cast(Any, state), self.game, self.game.dots
        if hubs.round >= game.rounds:
            return
        if hubs.placing:
            out[:self.points] = 1
            for x, y in hubs.dots:
                out[y * game.width + x] = 0
            return
        ends = hubs.paper.ends[hubs.drawable_ids]
        first, second = ends[:, 0], ends[:, 1]
        # pairs i < j in order: pair (i, j) comes after the n-1 + n-2 + ... + n-i pairs of smaller i
        out[self.points + first * (2 * n - first - 1) // 2 + second - first - 1] = 1


def _hubs(game: Any) -> Encoding:
    n = game.dots
    width, height = game.width, game.height
    space = _HubsSpace(game)
    layout = _Layout()
    sheet_part, degree_part, joined_part = layout.take(width * height), layout.take(width * height), layout.take(n * n)
    tail_part = layout.take(5)
    # the segment matrix of the segments last seen (a round adds segments one by one, HB-3)
    seen: dict[str, Any] = {"segments": (), "joined": np.zeros((n, n), dtype=np.float32)}

    def joined(segments: tuple[Segment, ...]) -> np.ndarray:
        old, matrix = seen["segments"], seen["joined"]
        if segments is not old:
            if len(segments) < len(old) or segments[:len(old)] != old:
                matrix[:] = 0.0
                old = ()
            for s in segments[len(old):]:
                matrix[s.first, s.second] = matrix[s.second, s.first] = 1.0
            seen["segments"] = segments
        return matrix

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        if out is None:
            out = np.empty(layout.size, dtype=np.float32)
        sheet, degree = out[sheet_part], out[degree_part]
        sheet[:] = 0.0
        degree[:] = 0.0
        for k, (x, y) in enumerate(state.dots):
            sheet[y * width + x] = 1.0
        for k, d in enumerate(state.degree):
            x, y = state.dots[k]
            degree[y * width + x] = d
        out[joined_part] = joined(state.segments).ravel()
        out[tail_part] = [state.totals[seat], state.totals[1 - seat], state.round,
                          state.round < game.rounds and game.offense(state.round) == seat, state.current_player == seat]
        return out

    return Encoding(game, layout.size, fill, space)


# --------------------------------------------------------------------------- Profiteer

def _profiteer(game: Any) -> Encoding:
    moves = [pf_actions.KEEP, pf_actions.END] + [a for side in pf_actions.SWITCHES.values() for a in side] \
        + list(pf_actions.GIVES)
    phase_rows = _phase_rows(ProfiteerPhase)
    layout = _Layout()
    piles_part, face_part = layout.take(10 * 52), layout.take(2 * 52)
    tail_part = layout.take(len(phase_rows) + 8)

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        if out is None:
            out = np.empty(layout.size, dtype=np.float32)
        out[piles_part] = _bits((state.pool, state.known_a, state.known_b, state.discard_a, state.discard_b,
                                 state.resources, state.profiteer_discard, state.drawing, state.stake_a,
                                 state.stake_b), 52).ravel()
        faces = out[face_part]
        faces[:] = 0.0
        if 0 <= state.face_up_a < 52:
            faces[state.face_up_a] = 1.0
        if 0 <= state.face_up_b < 52:
            faces[52 + state.face_up_b] = 1.0
        out[tail_part] = [*phase_rows[id(state.phase)], state.unseen_a, state.unseen_b,
                          state.war_round, state.round, state.down_due_a, state.down_due_b, state.war_reshuffled,
                          state.balancing]
        return out

    return Encoding(game, layout.size, fill, TableSpace(moves))


# --------------------------------------------------------------------------- Crossroads

def _crossroads(game: Any) -> Encoding:
    players = game.num_players
    phases = list(CrossroadsPhase)
    phase_rows = _phase_rows(CrossroadsPhase)
    seat_rows = [_one_hot(k, players) for k in range(players)] + [[0] * players]
    layout = _Layout()
    planes_part = layout.take((players + 5) * CELLS)
    tail_part = layout.take(2 + 2 * players + 2 * players * players + 2 * players + len(phases) + 6)
    orders = [[(seat + k) % players for k in range(players)] for seat in range(players)]
    # how each seat treated each, read from the observer on: [i*n+j] is how seat j treated seat i
    relative = [[i * players + j for i in order for j in order] for order in orders]
    # per seat, the seats' entries of a per-seat tuple (gold, offers) and of a seat x seat
    # one (how each treated each, grudges) read from the seat on, as tuples (one C call)
    by_seat, by_pair = [_picker(order) for order in orders], [_picker(index) for index in relative]
    no_seats = (False,) * players
    # per seat, the vector last written: a build changes a cell or two of the board planes
    # (empty, road, each seat's cities from the seat on), and the lit cells and the offer's
    # marks are moved from the places marked last time. ``planes_of``: where the plane of
    # each cell value starts, per seat
    planes_of = [{0: 0, ROAD: CELLS, **{CITY0 + s: (2 + k) * CELLS for k, s in enumerate(order)}} for order in orders]
    boards: list[tuple[int, ...]] = [(0,) * CELLS] * players
    kept = [np.zeros(layout.size, dtype=np.float32) for _ in range(players)]
    for vec in kept:
        vec[:CELLS] = 1.0  # an empty board
    marked: list[list[int]] = [[] for _ in range(players)]
    lit_at, cities_at, relays_at = (players + 2) * CELLS, (players + 3) * CELLS, (players + 4) * CELLS

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        vec, marks, order = kept[seat], marked[seat], orders[seat]
        board, before = state.board, boards[seat]
        if board is not before:
            for cell, (now, then) in enumerate(zip(board, before)):
                if now != then:
                    if then in planes_of[seat]:
                        vec[planes_of[seat][then] + cell] = 0.0
                    if now in planes_of[seat]:
                        vec[planes_of[seat][now] + cell] = 1.0
            boards[seat] = board
        for place in marks:
            vec[place] = 0.0
        marks.clear()
        offer = state.offer
        marks.extend(lit_at + cell for cell in state.lit)
        if offer is not None:
            marks.extend((cities_at + offer.a, cities_at + offer.b))
            marks.extend(relays_at + cell for cell in offer.relays)
        for place in marks:
            vec[place] = 1.0
        seats, pairs, waiting, dice = by_seat[seat], by_pair[seat], state.waiting, state.dice
        vec[tail_part] = (
            *((offer.mine, offer.theirs) if offer is not None else (0, 0)),
            *seats(state.gold), *seats(state.offers), *pairs(state.last), *pairs(state.grudge),
            *([s in waiting for s in order] if waiting else no_seats),
            *seat_rows[(state.seat - seat) % players if 0 <= state.seat < players else players],
            *phase_rows[id(state.phase)],
            *(dice + (0, 0))[:2], state.round, state.rerolls, state.passes, len(state.used))
        return _copy(vec, out)

    return Encoding(game, layout.size, fill, SlotSpace(CROSSROADS_SLOTS))


_BUILDERS: dict[str, Callable[[Any], Encoding]] = {
    "pillage": _pillage, "pirates": _pirates, "hubs": _hubs, "profiteer": _profiteer, "crossroads": _crossroads,
}


def _offered(game: Game) -> Encoding:
    """The encoding a game offers in its ``GameEntry``: ``observe`` as the vector (its length
    taken from the starting position) and ``action_table`` as a :class:`TableSpace`."""
    hooks = entry(game.id)
    observe, table = hooks.observe, hooks.action_table
    if observe is None or table is None:
        raise ParameterError(f"{game.id} offers no observation for the adapters: its GameEntry needs "
                             "observe and action_table (docs/new-game.md)")
    size = len(observe(game.new_initial_state(), 0))

    def fill(state: State, seat: int, out: np.ndarray | None) -> np.ndarray:
        values = observe(state, seat)
        if len(values) != size:
            raise ValueError(f"{game.id}: observe gave {len(values)} numbers at {state.summary()}, "
                             f"{size} at the start; every position needs the same count")
        if out is None:
            return np.asarray(values, dtype=np.float32)
        out[:] = values
        return out

    return Encoding(game, size, fill, TableSpace(table(game)))


def encoding(game: Game) -> Encoding:
    """The observation and action space of ``game`` with its parameters: a built-in game's own,
    any other game's from its ``GameEntry`` (:func:`_offered`)."""
    return _BUILDERS.get(game.id, _offered)(game)
