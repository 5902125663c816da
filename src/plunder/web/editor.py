"""The Pillage board editor: draw a board on a lattice (or open a board file), set each box's
contents, the legend and the pre-drawn lines, save it as a board file, and play it.

The page edits a *sketch*: a lattice's dots and cells (a generator's board, or a board file's
own boxes), which cells are boxes, each box's content text, the pre-drawn lines and the
legend. The server turns a sketch into a board file (:func:`board_file_of`: the boxes kept,
their dots renumbered) and has the game itself read it — :func:`parse_board_json` and
``load_game`` with every limit and check of ``docs/rules/pillage.md`` — so the editor can
never save a board the game would refuse, and a refusal is shown as the game words it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.errors import ParameterError
from ..core.files import MAX_FILE_BYTES, load_json
from ..core.registry import load_game
from ..games.pillage.board import GENERATORS, MAX_SIDE, Board, BoardError, generated
from ..games.pillage.board_file import FORMAT, BoardFile, parse_board_json
from ..games.pillage.contents import DEFAULT_LEGEND
from ..games.pillage.rules import PillageGame
from ..games.pillage.svg import board_spots
from ..pictures import svg_of
from .replays import read_capped
from .templating import templates

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


def check(sketch: Any, floor: str = "none") -> dict[str, Any]:
    """Whether the sketch is a board the game accepts: the board file, the ``board`` parameter
    that plays it, a picture of its start and a summary; or the game's refusal, with the
    sketch's cell of the box it names where it names one."""
    kept: list[int] = []
    try:
        data, kept = board_file_of(sketch)
        game = load_game("pillage", board="json:" + json.dumps(data), contents="auto", legend="auto", floor=floor)
    except (BoardError, ParameterError) as exc:
        message = str(exc)
        named = _BOX_NAMED.search(message)
        box = int(named.group(1)) if named else -1
        return {"ok": False, "error": message, "cell": kept[box] if 0 <= box < len(kept) else None}
    assert isinstance(game, PillageGame)
    board = game.board
    canonical = game.params["board"]
    kinds = ", ".join(f"{k} {v}" for k, v in zip(game.legend.kinds, game.legend.values))
    contents = ("contents as drawn" if game.contents_mode == "file"
                else "contents dealt at random when the game starts")
    return {
        "ok": True,
        "board": canonical,
        "file": readable(json.loads(canonical.removeprefix("json:"))),
        "svg": svg_of(game.new_initial_state()),
        "summary": f"{board.num_boxes} boxes, {board.num_edges} lines ({len(board.predrawn)} drawn before play), "
                   f"{contents}; legend {kinds}",
        "cells": kept,
    }


async def sketch_json(request: Request) -> Any:
    """The request's body as JSON, within :data:`MAX_SKETCH_BYTES` and the JSON limits."""
    body = await read_capped(request, MAX_SKETCH_BYTES)
    try:
        return load_json(body.decode("utf-8"), "sketch", MAX_SKETCH_BYTES)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BoardError(str(exc)) from None


async def editor_page(request: Request) -> Response:
    """The editor, opened on a filled square lattice."""
    start = sketch_of(generated(DEFAULT_LATTICE))
    return templates.TemplateResponse(request, "editor.html", {
        "sketch": start, "kinds": list(GENERATORS), "max_side": MAX_SIDE, "opponents": OPPONENTS,
        "limit": MAX_FILE_BYTES})


async def lattice(request: Request) -> Response:
    """``GET /editor/lattice?spec=hex:3x4&filled=0``: a generator's board as a sketch."""
    spec = request.query_params.get("spec", DEFAULT_LATTICE)[:40]
    try:
        board = generated(spec)
    except BoardError as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, 400)
    return JSONResponse({"ok": True, "sketch": sketch_of(board, filled=request.query_params.get("filled") != "0")})


async def open_file(request: Request) -> Response:
    """``POST /editor/open`` with a board file's text: the file as a sketch, or why it is refused."""
    body = await read_capped(request, MAX_SKETCH_BYTES)
    try:
        file = await run_in_threadpool(parse_board_json, body.decode("utf-8"))
    except (BoardError, UnicodeDecodeError) as exc:
        return JSONResponse({"ok": False, "error": f"That board file cannot be opened: {exc}"}, 400)
    return JSONResponse({"ok": True, "sketch": sketch_of_file(file)})


async def check_sketch(request: Request) -> Response:
    """``POST /editor/check`` with a sketch (and ``?floor=``): :func:`check`'s answer."""
    try:
        sketch = await sketch_json(request)
    except BoardError as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, 400)
    floor = request.query_params.get("floor", "none")[:20] or "none"
    answer = await run_in_threadpool(check, sketch, floor)
    return JSONResponse(answer, 200 if answer["ok"] else 422)


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/editor", editor_page, name="editor"),
    Route("/editor/lattice", lattice, name="editor_lattice"),
    Route("/editor/open", open_file, methods=["POST"], name="editor_open"),
    Route("/editor/check", check_sketch, methods=["POST"], name="editor_check"),
]
