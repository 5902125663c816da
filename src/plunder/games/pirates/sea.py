"""The sea (PR-1): tiles as 2x2 blocks of spaces on a grid; every other cell is land.

Cells are ``(x, y)`` with ``x`` growing east and ``y`` growing south. A tile is
named by its north-west cell (its origin) and covers the four spaces NW, NE, SW, SE.
The grid keeps a border of land one cell wide around the sea.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

Cell = tuple[int, int]

#: step vectors; orthogonal first, then the four wind directions
DIRS: dict[str, Cell] = {
    "N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
    "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1),
}
ORTH: tuple[str, ...] = ("N", "E", "S", "W")
#: the four winds a tile may be oriented to blow (PR-2), by index
WINDS: tuple[str, ...] = ("NE", "SE", "SW", "NW")
OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}

#: named shapes, each 24 tile origins (before the land border is added)
SHAPES: dict[str, tuple[Cell, ...]] = {
    # 6 x 4 tiles, one open sea
    "block": tuple((2 * i, 2 * j) for j in range(4) for i in range(6)),
    # a ring of 7 x 7 tiles around a large island
    "ring": tuple((2 * i, 2 * j) for j in range(7) for i in range(7) if i in (0, 6) or j in (0, 6)),
    # rows of 6 tiles laid like bricks, every other row shifted one space east
    "brick": tuple((2 * i + j % 2, 2 * j) for j in range(4) for i in range(6)),
    # a long strait, 12 tiles by 2
    "channel": tuple((2 * i, 2 * j) for j in range(2) for i in range(12)),
}

#: the most tiles a piecepack has
MAX_TILES = 24
#: digits of a coordinate in a layout or an action text
MAX_COORD_DIGITS = 4


def tile_cells(origin: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four spaces of the tile at ``origin``: NW, NE, SW, SE."""
    x, y = origin
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def shares_edge(a: Cell, b: Cell) -> bool:
    """True when tiles at origins ``a`` and ``b`` share at least one space-length of edge."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx == 2 and dy <= 1) or (dy == 2 and dx <= 1)


def random_origins(seed: int, count: int = MAX_TILES) -> tuple[Cell, ...]:
    """The random generator of PR-1: each new tile two spaces from an existing one on one
    axis and -1..+1 on the other, never overlapping. Deterministic for ``seed``."""
    rng = random.Random(f"pirates-sea:{seed}")
    origins: list[Cell] = [(0, 0)]
    used: set[Cell] = set(tile_cells((0, 0)))
    while len(origins) < count:
        bx, by = rng.choice(origins)
        off = rng.randint(-1, 1)
        jump = rng.choice((-2, 2))
        new = (bx + jump, by + off) if rng.randrange(2) == 0 else (bx + off, by + jump)
        cells = tile_cells(new)
        if any(c in used for c in cells):
            continue
        origins.append(new)
        used.update(cells)
    return tuple(origins)


def check_origins(origins: Iterable[Cell]) -> tuple[Cell, ...]:
    """Validate a tile list (PR-1); raise ``ValueError`` saying what is wrong."""
    tiles = tuple(origins)
    if not 1 <= len(tiles) <= MAX_TILES:
        raise ValueError(f"a sea needs 1 to {MAX_TILES} tiles, got {len(tiles)}")
    seen: dict[Cell, Cell] = {}
    for t in tiles:
        for c in tile_cells(t):
            if c in seen:
                raise ValueError(f"tiles at {t[0]},{t[1]} and {seen[c][0]},{seen[c][1]} overlap")
            seen[c] = t
    # the sea must be one connected surface of edge-sharing tiles
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j, t in enumerate(tiles):
            if j not in reached and shares_edge(tiles[i], t):
                reached.add(j)
                frontier.append(j)
    if len(reached) != len(tiles):
        lone = next(t for j, t in enumerate(tiles) if j not in reached)
        raise ValueError(f"tile at {lone[0]},{lone[1]} is not connected to the rest of the sea by a shared edge")
    return tiles


def read_layout_text(text: str) -> tuple[Cell, ...]:
    """Parse a layout file: one tile origin ``x,y`` (or ``x y``) per line; ``#`` starts a comment.

    Reading stops at the first tile past :data:`MAX_TILES`, so a large file costs no more
    than a small one."""
    origins: list[Cell] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if len(origins) == MAX_TILES:
            raise ValueError(f"line {number}: more than {MAX_TILES} tiles; a sea has at most {MAX_TILES}")
        try:
            origins.append(parse_cell(",".join(line.replace(",", " ").split())))
        except ValueError:
            raise ValueError(f"line {number}: {raw.strip()[:40]!r} is not a tile origin 'x,y' "
                             f"(whole numbers of at most {MAX_COORD_DIGITS} digits)") from None
    return check_origins(origins)


def normalized(origins: Iterable[Cell]) -> tuple[Cell, ...]:
    """Tile origins moved so the westmost is at x = 1 and the northmost at y = 1 (where the
    sea's picture shows them, inside its border of land), listed row by row."""
    tiles = tuple(origins)
    mx = min(x for x, _ in tiles)
    my = min(y for _, y in tiles)
    return tuple(sorted(((x - mx + 1, y - my + 1) for x, y in tiles), key=lambda c: (c[1], c[0])))


@dataclass(frozen=True)
class LayoutSpec:
    """A parsed ``layout`` parameter: ``random``, a shape name, or ``tiles`` with their origins."""

    kind: str
    origins: tuple[Cell, ...] = ()


#: texts the ``layout`` parameter accepts
LAYOUT_CHOICES: tuple[str, ...] = ("random", *SHAPES, "tiles:X,Y;X,Y;...", "file:PATH")
#: how a layout given inline (or read from a file) is written in the parameter text
TILES_PREFIX = "tiles:"


def tiles_text(origins: Iterable[Cell]) -> str:
    """The inline layout text of some tile origins: ``tiles:1,1;3,1;...``."""
    return TILES_PREFIX + ";".join(cell_text(c) for c in origins)


def layout_inline(content: str) -> str:
    """A layout file's content as the inline text the ``layout`` parameter stores (PR-1)."""
    return tiles_text(normalized(read_layout_text(content)))


def parse_layout(text: str) -> LayoutSpec:
    """The ``layout`` parameter parser; it never reads a file (``file:PATH`` is read once
    by the parameter machinery and arrives here as ``tiles:...``)."""
    text = text.strip()
    if text == "random":
        return LayoutSpec("random")
    if text in SHAPES:
        return LayoutSpec(text, SHAPES[text])
    if text.startswith(TILES_PREFIX):
        parts = text[len(TILES_PREFIX):].split(";", MAX_TILES)
        if len(parts) > MAX_TILES:
            raise ValueError(f"more than {MAX_TILES} tiles; a sea has at most {MAX_TILES}")
        return LayoutSpec("tiles", normalized(check_origins(parse_cell(p.strip()) for p in parts)))
    raise ValueError(f"{text[:40]!r} is not a layout")


def layout_text(spec: LayoutSpec) -> str:
    """The canonical text of a parsed layout (what records store)."""
    return tiles_text(spec.origins) if spec.kind == "tiles" else spec.kind


class Sea:
    """The fixed geometry of one sea: which cell is which tile, land, tile neighbours."""

    def __init__(self, origins: Iterable[Cell]) -> None:
        raw = check_origins(origins)
        mx = min(x for x, _ in raw)
        my = min(y for _, y in raw)
        # one cell of land all round, so every edge of the sea is a coast
        self.origins: tuple[Cell, ...] = tuple((x - mx + 1, y - my + 1) for x, y in raw)
        self.width = max(x for x, _ in self.origins) + 3
        self.height = max(y for _, y in self.origins) + 3
        self.tile_at: dict[Cell, int] = {c: i for i, o in enumerate(self.origins) for c in tile_cells(o)}
        self.cells: tuple[Cell, ...] = tuple(sorted(self.tile_at, key=lambda c: (c[1], c[0])))
        self.neighbours: tuple[frozenset[int], ...] = tuple(
            frozenset(j for j, b in enumerate(self.origins) if shares_edge(a, b)) for a in self.origins
        )
        self.coast: tuple[Cell, ...] = tuple(c for c in self.cells if self.land_next_to(c))

    @property
    def num_tiles(self) -> int:
        """Number of tiles (parts of the sea)."""
        return len(self.origins)

    def is_sea(self, cell: Cell) -> bool:
        """True for a space of some tile; everything else is land."""
        return cell in self.tile_at

    def land_next_to(self, cell: Cell) -> tuple[Cell, ...]:
        """Land cells orthogonally adjacent to ``cell``, in N, E, S, W order."""
        x, y = cell
        return tuple(
            (x + dx, y + dy) for dx, dy in (DIRS[d] for d in ORTH) if (x + dx, y + dy) not in self.tile_at
        )

    def step(self, cell: Cell, direction: str) -> Cell | None:
        """Where one step from ``cell`` lands, or ``None`` if it enters land or, diagonally,
        cuts between two land cells (PR-4)."""
        dx, dy = DIRS[direction]
        x, y = cell
        target = (x + dx, y + dy)
        if target not in self.tile_at:
            return None
        if dx and dy and (x + dx, y) not in self.tile_at and (x, y + dy) not in self.tile_at:
            return None
        return target

    def opposite_quadrant(self, cell: Cell) -> Cell:
        """The space of ``cell``'s tile diagonally opposite it (where a sighted ship appears)."""
        ox, oy = self.origins[self.tile_at[cell]]
        return (2 * ox + 1 - cell[0], 2 * oy + 1 - cell[1])

    def nearby_tiles(self, tile: int) -> frozenset[int]:
        """``tile`` and every tile sharing an edge with it (PR-7)."""
        return self.neighbours[tile] | {tile}


def build_sea(spec: LayoutSpec, seed: int) -> Sea:
    """The sea of a layout spec; ``seed`` only matters for ``random``."""
    return Sea(random_origins(seed) if spec.kind == "random" else spec.origins)


def cell_text(cell: Cell) -> str:
    """Canonical text of a cell: ``x,y``."""
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """Read ``x,y`` (whole numbers of at most :data:`MAX_COORD_DIGITS` digits, ``-`` allowed);
    ``ValueError`` if it is anything else."""
    parts = text.split(",")
    if len(parts) != 2 or not all(_is_coordinate(p) for p in parts):
        raise ValueError(f"{text[:40]!r} is not a space 'x,y' (whole numbers of at most {MAX_COORD_DIGITS} digits)")
    return (int(parts[0]), int(parts[1]))


def _is_coordinate(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit() and len(digits) <= MAX_COORD_DIGITS
