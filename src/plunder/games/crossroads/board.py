"""The 10x10 grid of Crossroads: cells, dice labels, neighbours, road networks and trade routes.

Cells are numbered ``row * 10 + col`` from the top left (0..99). Both axes carry the
labels 1-5 twice (CR-1), so a cell's labels are ``row % 5 + 1`` and ``col % 5 + 1``.
A board is a tuple of 100 ints: :data:`EMPTY`, :data:`ROAD`, or ``CITY0 + seat`` for a
city. Cells are named for people like a chess board: column letter A-J, row number 1-10
(``D3`` is row 3, column 4).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Sequence

SIZE = 10
CELLS = SIZE * SIZE
EMPTY = 0
ROAD = 1
CITY0 = 2
COLUMNS = "ABCDEFGHIJ"

Board = tuple[int, ...]


def cell(row: int, col: int) -> int:
    """The index of the cell at ``row``, ``col`` (both 0-based)."""
    return row * SIZE + col


def row_of(c: int) -> int:
    """0-based row of cell ``c``."""
    return c // SIZE


def col_of(c: int) -> int:
    """0-based column of cell ``c``."""
    return c % SIZE


def label(index: int) -> int:
    """The dice label (1-5) printed beside a 0-based row or column (CR-1)."""
    return index % 5 + 1


def cell_name(c: int) -> str:
    """``D3``-style name of cell ``c``: column letter, then 1-based row."""
    return f"{COLUMNS[col_of(c)]}{row_of(c) + 1}"


def parse_cell(text: str) -> int | None:
    """The cell named ``text`` (``D3``, case-insensitive), or ``None`` if it names none."""
    m = _CELL_NAME.fullmatch(text.strip().upper())
    if m is None:
        return None
    return cell(int(m[2]) - 1, COLUMNS.index(m[1]))


#: a column letter and a row 1-10, in ASCII digits only (``"A²"`` names no cell)
_CELL_NAME = re.compile(r"([A-J])(10|[1-9])")


def owner(value: int) -> int:
    """The seat owning a board value, or -1 when it is not a city."""
    return value - CITY0 if value >= CITY0 else -1


@lru_cache(maxsize=None)
def orthogonal(c: int) -> tuple[int, ...]:
    """The up-to-four cells sharing a side with ``c``."""
    r, k = row_of(c), col_of(c)
    out = []
    for dr, dk in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        if 0 <= r + dr < SIZE and 0 <= k + dk < SIZE:
            out.append(cell(r + dr, k + dk))
    return tuple(out)


@lru_cache(maxsize=None)
def around(c: int) -> tuple[int, ...]:
    """The up-to-eight cells touching ``c`` (diagonals count: "kitty corner")."""
    r, k = row_of(c), col_of(c)
    out = []
    for dr in (-1, 0, 1):
        for dk in (-1, 0, 1):
            if (dr or dk) and 0 <= r + dr < SIZE and 0 <= k + dk < SIZE:
                out.append(cell(r + dr, k + dk))
    return tuple(out)


@lru_cache(maxsize=None)
def activated(col_label: int, row_label: int) -> tuple[int, ...]:
    """The four cells whose labels match a die on the column axis and one on the row axis (CR-1)."""
    return tuple(
        cell(r, k) for r in range(SIZE) for k in range(SIZE) if label(r) == row_label and label(k) == col_label
    )


@lru_cache(maxsize=None)
def manhattan(c: int) -> tuple[int, ...]:
    """Per cell, its Manhattan distance (rows plus columns) from ``c``."""
    r, k = row_of(c), col_of(c)
    return tuple(abs(r - row_of(x)) + abs(k - col_of(x)) for x in range(CELLS))


def touches_city(board: Board, c: int, except_seat: int = -1) -> bool:
    """True when a city (other than ``except_seat``'s) is among the eight cells around ``c``."""
    for n in around(c):
        v = board[n]
        if v >= CITY0 and v - CITY0 != except_seat:
            return True
    return False


class Network:
    """The road networks of one board and which cities each touches (CR-3).

    ``comp[c]`` is the id of the road network holding road cell ``c`` (``-1`` off
    roads); ``touching[c]`` the ids of networks orthogonally next to ``c``;
    ``cities[k]`` the cities orthogonally next to network ``k``.
    """

    def __init__(self, board: Board) -> None:
        comp = [-1] * CELLS
        count = 0
        for start in range(CELLS):
            if board[start] != ROAD or comp[start] >= 0:
                continue
            comp[start] = count
            stack = [start]
            while stack:
                here = stack.pop()
                for n in orthogonal(here):
                    if board[n] == ROAD and comp[n] < 0:
                        comp[n] = count
                        stack.append(n)
            count += 1
        self.board = board
        self.comp = comp
        cities: list[list[int]] = [[] for _ in range(count)]
        self.city_cells = [c for c in range(CELLS) if board[c] >= CITY0]
        #: the networks beside each city, computed once since routes ask for them often
        self.city_touch: dict[int, frozenset[int]] = {c: self.touching(c) for c in self.city_cells}
        for c in self.city_cells:
            for k in self.city_touch[c]:
                cities[k].append(c)
        self.cities: list[tuple[int, ...]] = [tuple(x) for x in cities]
        # routes by (a, b, max_relays): a trading phase asks for the same pairs again and
        # again on one board (every offer's legal moves, every playout of a search)
        self._routes: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}
        self._direct: dict[int, frozenset[int]] = {}
        self._pay: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        #: per cell, the seats owning a city among the eight cells around it
        self.owners_around: list[frozenset[int]] = [frozenset()] * CELLS
        for c in self.city_cells:
            for n in around(c):
                self.owners_around[n] = self.owners_around[n] | {board[c] - CITY0}
        # what the rules and agents ask per seat of one board, worked out on first asking:
        # every seat's every decision between two builds asks it again
        self._mine: dict[int, tuple[int, ...]] = {}
        self._reach: dict[int, tuple[int, ...]] = {}
        self._city_sites: dict[int, tuple[int, ...]] = {}
        self._road_sites: dict[int, tuple[int, ...]] = {}
        self._pairs: dict[tuple[int, int], tuple[tuple[int, int, tuple[int, ...]], ...]] = {}
        self._linked: dict[tuple[int, int], bool] = {}
        self._partners: dict[int, frozenset[int]] = {}

    def touches_city(self, c: int, except_seat: int = -1) -> bool:
        """:func:`touches_city` on this network's board, from the owners counted once."""
        owners = self.owners_around[c]
        return bool(owners) and (except_seat not in owners or len(owners) > 1)

    def touching(self, c: int) -> frozenset[int]:
        """Ids of the road networks orthogonally next to cell ``c``."""
        return frozenset(self.comp[n] for n in orthogonal(c) if self.comp[n] >= 0)

    def direct(self, c: int) -> frozenset[int]:
        """Cities (other than ``c``) that cell ``c``, were it a city, trades with directly (CR-3).

        A path of no roads counts: a city orthogonally next to ``c`` trades with it, which
        is what lets a player lay the first road beside a lone city (CR-4, CR-15).
        """
        known = self._direct.get(c)
        if known is None:
            known = self._direct[c] = frozenset(self._find_direct(c))
        return known

    def _find_direct(self, c: int) -> set[int]:
        """:meth:`direct`, worked out."""
        out: set[int] = set()
        for k in self.touching(c):
            out.update(self.cities[k])
        for n in orthogonal(c):
            if self.board[n] >= CITY0:
                out.add(n)
        out.discard(c)
        return out

    def road_pay(self, c: int) -> list[int]:
        """Cities paid 1 gold when road cell ``c`` is activated (CR-2).

        Treating ``c`` as a city splits its network at ``c``, but every piece still
        borders ``c``, so the cities paid are exactly those touching ``c``'s network.
        """
        return list(self.cities[self.comp[c]])

    def routes(self, a: int, b: int, max_relays: int = 2) -> list[tuple[int, ...]]:
        """Every route between cities ``a`` and ``b`` through at most ``max_relays`` relays (CR-3, CR-7, CR-10).

        A route is the set of relay cities, third players' cities that chain ``a`` to
        ``b`` through roads, as a tuple of cells in board order; ``()`` is the direct
        link. Any route within the limit may be offered, not only the shortest (CR-7
        amended), but every relay on it must be needed (CR-10): a set that still links
        the two cities with one of its relays left out is that smaller route. So a
        directly linked pair has the single route ``()``, and each further route is a
        genuine detour, which keeps the list short. Listed fewest relays first; empty
        when no route exists.
        """
        return list(self.route_tuple(a, b, max_relays))

    def route_tuple(self, a: int, b: int, max_relays: int = 2) -> tuple[tuple[int, ...], ...]:
        """:meth:`routes` as the tuple kept for the pair: for callers that only read it."""
        # the routes of a pair are those of the pair reversed (nothing below tells the ends
        # apart), so one entry serves both
        key = (a, b, max_relays) if a < b else (b, a, max_relays)
        known = self._routes.get(key)
        if known is None:
            known = self._routes[key] = tuple(self._find_routes(a, b, max_relays))
        return known

    def cities_of(self, seat: int) -> tuple[int, ...]:
        """The cells of ``seat``'s cities, in board order."""
        known = self._mine.get(seat)
        if known is None:
            known = self._mine[seat] = tuple(c for c in self.city_cells if self.board[c] - CITY0 == seat)
        return known

    def linked(self, seat: int, max_relays: int) -> bool:
        """True when some city of ``seat`` has a route to a rival's city within ``max_relays`` (CR-3)."""
        known = self._linked.get((seat, max_relays))
        if known is None:
            theirs = [c for c in self.city_cells if self.board[c] - CITY0 != seat]
            known = self._linked[seat, max_relays] = any(
                self.route_tuple(a, b, max_relays) for a in self.cities_of(seat) for b in theirs)
        return known

    def pairs(self, seat: int, max_relays: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """(my city, their city, relays) for every pair of a city of ``seat`` and a rival's and
        every route between them within ``max_relays``, in board order (CR-3, CR-7)."""
        known = self._pairs.get((seat, max_relays))
        if known is None:
            board = self.board
            theirs = [c for c in self.city_cells if board[c] - CITY0 != seat]
            known = self._pairs[seat, max_relays] = tuple(
                (a, b, relays) for a in self.cities_of(seat) for b in theirs
                for relays in self.route_tuple(a, b, max_relays))
        return known

    def reach(self, seat: int) -> tuple[int, ...]:
        """The cells that, were they a city, would trade directly with one of ``seat``'s cities
        (:meth:`direct`), in board order: the cells beside its cities and beside the roads of
        the networks touching them. Only they can hold its next city or road (CR-4)."""
        known = self._reach.get(seat)
        if known is None:
            mine = self.cities_of(seat)
            nets = {k for c in mine for k in self.city_touch[c]}
            near = {n for c in mine for n in orthogonal(c)}
            near.update(n for c in range(CELLS) if self.comp[c] in nets for n in orthogonal(c))
            known = self._reach[seat] = tuple(sorted(c for c in near if self.direct(c).intersection(mine)))
        return known

    def partners(self, c: int) -> frozenset[int]:
        """The other cities sharing a road network with city ``c`` (its direct links, CR-3)."""
        known = self._partners.get(c)
        if known is None:
            cities = self.cities
            known = self._partners[c] = frozenset(x for k in self.city_touch[c] for x in cities[k] if x != c)
        return known

    def _find_routes(self, a: int, b: int, max_relays: int) -> list[tuple[int, ...]]:
        """:meth:`routes`, worked out: a relay is a third player's city sharing a network with
        one end (or both), and two relays share one with each other."""
        near_a, near_b = self.partners(a), self.partners(b)
        if b in near_a:
            return [()]
        if not near_a or not near_b or max_relays < 1:
            return []
        board = self.board
        pa, pb = board[a], board[b]
        both = near_a & near_b
        out: list[tuple[int, ...]] = [(c,) for c in sorted(both) if board[c] != pa and board[c] != pb]
        if max_relays >= 2:
            # A relay beside both ends makes a route alone, so it never sits on a two-relay route.
            only_a = [c for c in near_a - both if board[c] != pa and board[c] != pb]
            only_b = [c for c in near_b - both if board[c] != pa and board[c] != pb]
            out += sorted((r1, r2) if r1 < r2 else (r2, r1)
                          for r1 in only_a for r2 in only_b if r2 in self.partners(r1))
        return out


#: the boards whose networks :func:`network` keeps: the boards asked for again are the last few
#: (a state's, a board weighed before a build and the same board built), so more keep memory
#: and win nothing (bench/analysis_profile.py's positions: 64 boards kept, 50 MB of a worker;
#: 2,048 kept, 131 MB, no faster)
NETWORKS_KEPT = 64


@lru_cache(maxsize=NETWORKS_KEPT)
def network(board: Board) -> Network:
    """The :class:`Network` of ``board``, one per board for the boards met lately: the rules'
    states, the agents' boards weighed before a build and the build itself ask for the same
    boards (a network and what it has worked out is a value of its board alone)."""
    return Network(board)


def city_sites(board: Board, net: Network, seat: int) -> list[int]:
    """Empty cells where ``seat`` may build a city (CR-4); ``net`` is ``board``'s."""
    known = net._city_sites.get(seat)
    if known is None:
        known = net._city_sites[seat] = tuple(
            c for c in net.reach(seat)
            if board[c] == EMPTY and not net.touches_city(c) and any(board[n] == ROAD for n in orthogonal(c)))
    return list(known)


def road_sites(board: Board, net: Network, seat: int) -> list[int]:
    """Empty cells where ``seat`` may build a road (CR-4); ``net`` is ``board``'s."""
    known = net._road_sites.get(seat)
    if known is None:
        known = net._road_sites[seat] = tuple(
            c for c in net.reach(seat) if board[c] == EMPTY and not net.touches_city(c, except_seat=seat))
    return list(known)


def activation_pay(board: Board, net: Network, cells: Iterable[int], players: int) -> list[int]:
    """Gold each seat collects when ``cells`` are activated (CR-2).

    An empty cell pays 3 per neighbouring city, so two cities of one owner beside it
    pay that owner 6 (CR-14). A tuple of cells (a roll's, :func:`activated`) is worked out
    once per board: agents ask it of every roll they weigh.
    """
    if isinstance(cells, tuple):
        known = net._pay.get((cells, players))
        if known is None:
            known = net._pay[cells, players] = tuple(_activation_pay(board, net, cells, players))
        return list(known)
    return _activation_pay(board, net, cells, players)


def _activation_pay(board: Board, net: Network, cells: Iterable[int], players: int) -> list[int]:
    """:func:`activation_pay`, worked out."""
    pay = [0] * players
    for c in cells:
        v = board[c]
        if v >= CITY0:
            pay[v - CITY0] += 5
        elif v == EMPTY:
            for n in around(c):
                if board[n] >= CITY0:
                    pay[board[n] - CITY0] += 3
        else:
            for city in net.road_pay(c):
                pay[board[city] - CITY0] += 1
    return pay


def from_rows(rows: Sequence[str], origin: tuple[int, int] = (0, 0)) -> Board:
    """A board from a picture like the rule text's: ``|R|_|1|`` rows; digits are seats 1-6.

    ``origin`` places the picture's top-left cell on the 10x10 grid. ``R`` is a road,
    ``_`` (or any other mark) an empty cell.
    """
    board = [EMPTY] * CELLS
    for r, line in enumerate(rows):
        marks = [m for m in line.strip().strip("|").split("|")]
        for k, mark in enumerate(marks):
            where = cell(origin[0] + r, origin[1] + k)
            if mark == "R":
                board[where] = ROAD
            elif mark.isdigit():
                board[where] = CITY0 + int(mark) - 1
    return tuple(board)
