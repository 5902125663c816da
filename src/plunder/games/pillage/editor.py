"""The Pillage board editor (the web app's ``/editor/pillage``): draw a board on a lattice (or
open a board file), set each box's contents, the legend and the pre-drawn lines, save it as a
board file, and play it.

The page edits a *sketch*: a lattice's dots and cells (a generator's board, or a board file's
own boxes), which cells are boxes, each box's content text, the pre-drawn lines and the
legend. :func:`board_file_of` turns a sketch into a board file (the boxes kept, their dots
renumbered) and the game itself reads it — :func:`~.board_file.parse_board_json` and
``PillageGame.load`` with every limit and check of ``docs/rules/pillage.md`` — so the editor can
never save a board the game would refuse, and a refusal is shown as the game words it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping

from ...core.capabilities import Editor
from ...core.errors import ParameterError
from ...core.files import MAX_FILE_BYTES
from .board import GENERATORS, MAX_SIDE, Board, BoardError, generated
from .board_file import FORMAT, BoardFile, parse_board_json
from .contents import DEFAULT_LEGEND
from .rules import PillageGame
from .svg import board_spots, svg

#: the game's own web files: the editor's page, script and style
ASSETS = Path(__file__).parent / "web"
#: largest sketch or board file the editor reads: a board file's own limit and room for the sketch's drawing
MAX_SKETCH_BYTES = 2 * MAX_FILE_BYTES
#: the lattice a new sketch starts on
DEFAULT_LATTICE = "square:4x4"
#: the opponents "play it" offers for the second seat (the new-game form's seat choices)
OPPONENTS = (("medium", "the computer (medium)"), ("easy", "the computer (easy)"), ("hard", "the computer (hard)"),
             ("hotseat", "a friend on this screen"), ("open", "a friend online (invite link)"))


#: how the game's messages name a box of a board file ("box 3 content: ...", "boxes[3] ...")
_BOX_NAMED = re.compile(r"\bbox(?:es\[| )(\d{1,6})\b")


def _plain(value: Any) -> int | str:
    """A coordinate as a board file writes it: whole numbers as numbers, others as exact fractions."""
    return int(value) if value.denominator == 1 else str(value)


def sketch_of(board: Board, contents: tuple[str, ...] | None = None, legend: list[list[Any]] | None = None,
              filled: bool = True, lattice: str = "") -> dict[str, Any]:
    """The editor's sketch of ``board``: every dot (exact coordinates, and where it is drawn),
    every box as a cell, which cells are boxes, contents, pre-drawn lines and legend."""
    spots = board_spots(board)
    return {
        "lattice": lattice or board.name,
        "dots": [{"x": _plain(x), "y": _plain(y), "px": round(px, 2), "py": round(py, 2)}
                 for (x, y), (px, py) in zip(board.dots, spots)],
        "cells": [list(cycle) for cycle in board.boxes],
        "on": [filled] * board.num_boxes,
        "contents": list(contents) if contents else [""] * board.num_boxes,
        "drawn": [list(board.edges[e]) for e in board.predrawn],
        "legend": legend if legend is not None else [[k, v] for k, v in DEFAULT_LEGEND],
    }


def sketch_of_file(file: BoardFile) -> dict[str, Any]:
    """The sketch of an opened board file: its boxes are the cells, all of them boxes."""
    legend = None if file.legend is None else [[k, v] for k, v in zip(file.legend.kinds, file.legend.values)]
    return sketch_of(file.board, file.contents, legend, lattice="a board file")


def _list(sketch: dict[str, Any], key: str) -> list[Any]:
    value = sketch.get(key)
    if not isinstance(value, list):
        raise BoardError(f"the sketch needs a {key!r} list")
    return value


def board_file_of(sketch: Any) -> tuple[dict[str, Any], list[int]]:
    """The board file a sketch draws (as JSON data) and, for each of its boxes, the sketch's cell.

    Only the cells that are boxes are kept, with their dots renumbered in order; a pre-drawn
    line is kept when both its dots are; contents are written when some box has one (the
    game then asks for all, PP-1) and the legend always. The game checks the rest.
    """
    if not isinstance(sketch, dict):
        raise BoardError("the sketch must be a JSON object")
    dots, cells, on = _list(sketch, "dots"), _list(sketch, "cells"), _list(sketch, "on")
    contents, drawn, legend = _list(sketch, "contents"), _list(sketch, "drawn"), _list(sketch, "legend")
    if len(on) != len(cells) or len(contents) != len(cells):
        raise BoardError("the sketch's 'on' and 'contents' lists must have one entry per cell")
    kept = [c for c in range(len(cells)) if on[c] is True]
    if not kept:
        raise BoardError("the board has no boxes yet: click cells of the lattice to make them boxes (PP-1)")
    renumber: dict[int, int] = {}
    for c in kept:
        if not isinstance(cells[c], list):
            raise BoardError(f"cell {c} must list dot indices")
        for d in cells[c]:
            if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < len(dots):
                raise BoardError(f"cell {c} names a dot that does not exist: {str(d)[:20]!r}")
            renumber.setdefault(d, len(renumber))
    order = sorted(renumber, key=renumber.__getitem__)
    new_dots = []
    for d in order:
        dot = dots[d]
        if not isinstance(dot, dict) or "x" not in dot or "y" not in dot:
            raise BoardError(f"dot {d} must have x and y")
        new_dots.append([dot["x"], dot["y"]])
    texts = [contents[c] if isinstance(contents[c], str) else str(contents[c]) for c in kept]
    given = [t.strip() for t in texts]
    boxes: list[dict[str, Any]] = [{"dots": [renumber[d] for d in cells[c]]} for c in kept]
    if any(given):
        missing = [i for i, t in enumerate(given) if not t]
        if missing:
            raise BoardError(f"{len(missing)} of the {len(kept)} boxes have no content: give every box a "
                             "content, or none (they are then dealt at random when a game starts) (PP-1)")
        for box, text in zip(boxes, given):
            box["content"] = text
    lines = []
    for j, pair in enumerate(drawn):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < len(dots) for d in pair)):
            raise BoardError(f"drawn line {j} must be a pair of dot numbers (PP-2)")
        if pair[0] in renumber and pair[1] in renumber:  # a line of cells left out goes with them
            lines.append([renumber[pair[0]], renumber[pair[1]]])
    data: dict[str, Any] = {"format": FORMAT, "version": 1, "dots": new_dots, "boxes": boxes, "drawn": lines,
                            "legend": legend}
    return data, kept


def readable(data: dict[str, Any]) -> str:
    """A board file's JSON laid out for people: one line per field, per dot and per box."""
    head = [f' "{k}": {json.dumps(data[k])}' for k in ("format", "version")]
    dots = ",\n".join(f"  {json.dumps(d)}" for d in data["dots"])
    boxes = ",\n".join(f"  {json.dumps(b)}" for b in data["boxes"])
    tail = [f' "{k}": {json.dumps(data[k])}' for k in ("drawn", "legend") if k in data]
    return "{\n" + ",\n".join([*head, f' "dots": [\n{dots}\n ]', f' "boxes": [\n{boxes}\n ]', *tail]) + "\n}\n"


def check(sketch: Any, options: Mapping[str, str]) -> dict[str, Any]:
    """Whether the sketch is a board the game accepts: the board file, the ``board`` parameter
    that plays it, a picture of its start and a summary; or the game's refusal, with the
    sketch's cell of the box it names where it names one. ``options`` may name the ``floor``
    (PP-6) the board is played with."""
    floor = str(options.get("floor", "none"))[:20] or "none"
    kept: list[int] = []
    try:
        data, kept = board_file_of(sketch)
        game = PillageGame.load(board="json:" + json.dumps(data), contents="auto", legend="auto", floor=floor)
    except (BoardError, ParameterError) as exc:
        message = str(exc)
        named = _BOX_NAMED.search(message)
        box = int(named.group(1)) if named else -1
        return {"ok": False, "error": message, "cell": kept[box] if 0 <= box < len(kept) else None}
    board = game.board
    canonical = game.params["board"]
    kinds = ", ".join(f"{k} {v}" for k, v in zip(game.legend.kinds, game.legend.values))
    contents = ("contents as drawn" if game.contents_mode == "file"
                else "contents dealt at random when the game starts")
    return {
        "ok": True,
        "board": canonical,
        "file": readable(json.loads(canonical.removeprefix("json:"))),
        "svg": svg(game.new_initial_state()),
        "summary": f"{board.num_boxes} boxes, {board.num_edges} lines ({len(board.predrawn)} drawn before play), "
                   f"{contents}; legend {kinds}",
        "cells": kept,
    }


def start() -> dict[str, Any]:
    """A new page: a filled square lattice, the generators, the largest side and the opponents."""
    return {"sketch": sketch_of(generated(DEFAULT_LATTICE)), "kinds": list(GENERATORS), "max_side": MAX_SIDE,
            "opponents": OPPONENTS, "limit": MAX_FILE_BYTES}


def lattice(spec: str, filled: bool) -> dict[str, Any]:
    """A generator's board (``hex:3x4``) as a sketch, every cell a box when ``filled``."""
    try:
        return sketch_of(generated(spec[:40]), filled=filled)
    except BoardError as exc:
        raise ParameterError(str(exc)) from None


def open_file(text: str) -> dict[str, Any]:
    """A board file's text as a sketch."""
    try:
        return sketch_of_file(parse_board_json(text))
    except BoardError as exc:
        raise ParameterError(f"That board file cannot be opened: {exc}") from None


#: the editor Pillage offers the web app
EDITOR = Editor(title="Design a Pillage and Profit board", template="editor.html", max_bytes=MAX_SKETCH_BYTES,
                start=start, lattice=lattice, open=open_file, check=check)
