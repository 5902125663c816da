"""The part of a board the Pillage solver searches: its lines and boxes, numbered from 0.

The solver's positions are ints with one bit a line, and its bounded array table
(:class:`~.solver_table.ArrayTable`) keeps keys below 2**64. On a board of at most
:data:`KEY_BITS` lines the frame is the whole board, numbered as the board numbers it, and
nothing is translated.

On a bigger board the solver searches the *open part* of the position it is asked about:
a position's future depends only on its undrawn lines and its open boxes (a drawn line
only counts towards the sides of its boxes, and a closed box's content is already taken).
The frame numbers the undrawn lines from 0 and keeps the open boxes, each reduced to its
undrawn lines: a box closes when they are all drawn, as on the board. Later positions of
the same game have fewer undrawn lines, all of them in the frame, so one frame and its
tables serve the rest of a game. An endgame of a 40x50 board is then searched position for
position as fast as on a small board (building its frame, with the board's symmetries,
took about 0.2 CPU s), and a frame of at most 64 lines keeps the array table.

Symmetries: a board symmetry that maps the frame's lines onto themselves maps open boxes
onto open boxes with the same content, so it is a symmetry of the frame; the others are
dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board

#: bits of a key in the array table: boards with more lines are searched on their open part
KEY_BITS = 64


@dataclass(frozen=True)
class Frame:
    """Lines and boxes numbered from 0 for the solver (see the module docstring).

    ``lines[i]`` is the board edge of line ``i``, ``boxes[b]`` the board box of box ``b``;
    ``box_edges`` and ``edge_boxes`` are in these numbers, and a box's lines are those of
    its board box that are in the frame. ``perms`` are the symmetries (``perm[i]`` the
    image of line ``i``, identity first); ``order`` the lines nearest the centre of their
    dots first; ``whole`` is True when the frame is the whole board, numbered as it is.
    """

    lines: tuple[int, ...]
    boxes: tuple[int, ...]
    box_edges: tuple[tuple[int, ...], ...]
    edge_boxes: tuple[tuple[int, ...], ...]
    perms: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]
    whole: bool
    #: board mask of the lines outside the frame (all drawn in every position it serves)
    outside: int

    @property
    def num_edges(self) -> int:
        """Lines in the frame."""
        return len(self.lines)

    @property
    def num_boxes(self) -> int:
        """Boxes in the frame."""
        return len(self.boxes)

    def covers(self, drawn: int) -> bool:
        """Whether every line undrawn in the board mask ``drawn`` is in the frame."""
        return drawn & self.outside == self.outside

    def local(self, drawn: int) -> int:
        """The frame mask of the board mask ``drawn`` (which the frame covers)."""
        if self.whole:
            return drawn
        return sum(1 << i for i, e in enumerate(self.lines) if drawn >> e & 1)


def whole_frame(board: Board, perms: list[tuple[int, ...]]) -> Frame:
    """The whole board as a frame: every line and box, numbered as the board numbers them."""
    return _frame(board, range(board.num_edges), range(board.num_boxes), perms, True)


def open_frame(board: Board, drawn: int, perms: list[tuple[int, ...]]) -> Frame:
    """The undrawn lines and open boxes of the board mask ``drawn``; ``perms`` are the
    board's symmetries (those that keep the undrawn lines are kept)."""
    lines = [e for e in range(board.num_edges) if not drawn >> e & 1]
    boxes = [b for b, edges in enumerate(board.box_edges) if any(not drawn >> e & 1 for e in edges)]
    undrawn = set(lines)
    kept = [p for p in perms if all(p[e] in undrawn for e in lines)]
    return _frame(board, lines, boxes, kept, False)


def _frame(board: Board, lines: range | list[int], boxes: range | list[int], perms: list[tuple[int, ...]],
           whole: bool) -> Frame:
    """The frame of board ``lines`` and ``boxes`` with the board symmetries ``perms`` (each
    mapping ``lines`` onto themselves)."""
    index = {e: i for i, e in enumerate(lines)}
    box_index = {b: i for i, b in enumerate(boxes)}
    box_edges = tuple(tuple(index[e] for e in board.box_edges[b] if e in index) for b in boxes)
    edge_boxes = tuple(tuple(box_index[b] for b in board.edge_boxes[e]) for e in lines)
    local: list[tuple[int, ...]] = []
    for perm in perms:
        image = tuple(index[perm[e]] for e in lines)
        if image not in local:
            local.append(image)
    # Lines nearest the centre first: on square boards they are the likeliest best.
    dots = range(len(board.dots)) if whole else sorted({d for e in lines for d in board.edges[e]})
    cx = sum(float(board.dots[d][0]) for d in dots) / max(1, len(dots))
    cy = sum(float(board.dots[d][1]) for d in dots) / max(1, len(dots))

    def distance(i: int) -> float:
        (x1, y1), (x2, y2) = (board.dots[d] for d in board.edges[lines[i]])
        return abs(float(x1 + x2) / 2 - cx) + abs(float(y1 + y2) / 2 - cy)

    outside = ((1 << board.num_edges) - 1) ^ sum(1 << e for e in lines)
    return Frame(tuple(lines), tuple(boxes), box_edges, edge_boxes, tuple(local),
                 tuple(sorted(range(len(lines)), key=distance)), whole, outside)


__all__ = ["Frame", "KEY_BITS", "open_frame", "whole_frame"]
