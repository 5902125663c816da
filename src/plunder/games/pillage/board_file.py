"""Board files: a JSON format for any board, its contents, pre-drawn lines and legend.

::

    {
      "format": "plunder-pillage-board", "version": 1,
      "dots":   [[0, 0], [1, 0], [0, 1], [1, 1]],          # x right, y down; or {"x","y","label"}
      "boxes":  [{"dots": [0, 1, 3, 2], "content": "food"}], # dot cycle; content optional
      "drawn":  [["a1", "b1"]],                             # optional pre-drawn lines (PP-2)
      "legend": {"food": 5, "weapons": 5}                   # optional (PP-3)
    }

Contents are given for every box or for none. Every problem raises
:class:`~plunder.games.pillage.board.BoardError` naming the field and the ruling.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .board import Board, BoardError, build_board
from .contents import Content, Legend, parse_content, parse_legend

FORMAT = "plunder-pillage-board"


@dataclass(frozen=True)
class BoardFile:
    """What a board file gives: the board, and optionally contents and a legend."""

    board: Board
    contents: tuple[str, ...] | None
    legend: Legend | None

    def to_json(self) -> str:
        """The board file as compact JSON text (what ``board=json:...`` reads back)."""
        b = self.board
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": 1,
            "dots": [{"x": _plain(x), "y": _plain(y), "label": lab} for (x, y), lab in zip(b.dots, b.labels)],
            "boxes": [{"dots": list(cycle), **({"content": self.contents[i]} if self.contents else {})}
                      for i, cycle in enumerate(b.boxes)],
            "drawn": [list(b.edges[e]) for e in b.predrawn],
        }
        if self.legend is not None:
            data["legend"] = dict(zip(self.legend.kinds, self.legend.values))
        return json.dumps(data, separators=(",", ":"))

    def parsed_contents(self, legend: Legend) -> tuple[Content, ...] | None:
        """The contents read against ``legend`` (BoardError on a bad one)."""
        if self.contents is None:
            return None
        out = []
        for b, text in enumerate(self.contents):
            try:
                out.append(parse_content(text, legend))
            except ValueError as exc:
                raise BoardError(f"box {b} content: {exc}") from None
        return tuple(out)


def _plain(value: Fraction) -> int | float | str:
    """A coordinate as JSON: an int when whole, else an exact fraction text like ``"1/3"``."""
    return int(value) if value.denominator == 1 else str(value)


def _number(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BoardError(f"{where} must be a number (PP-1)")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise BoardError(f"{where} must be a number, got {value!r} (PP-1)") from None


def parse_board_json(text: str, name: str = "file") -> BoardFile:
    """Read a board file's text into a :class:`BoardFile`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"board file is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BoardError("board file must be a JSON object")
    if data.get("format", FORMAT) != FORMAT or data.get("version", 1) != 1:
        raise BoardError(f"board file format must be {FORMAT!r} version 1")
    raw_dots = data.get("dots")
    if not isinstance(raw_dots, list) or not raw_dots:
        raise BoardError("board file needs a non-empty 'dots' list (PP-1)")
    dots = []
    labels: list[str] | None = []
    for i, d in enumerate(raw_dots):
        if isinstance(d, dict):
            dots.append((_number(d.get("x"), f"dots[{i}].x"), _number(d.get("y"), f"dots[{i}].y")))
            if labels is not None and isinstance(d.get("label"), str):
                labels.append(d["label"])
            else:
                labels = None
        elif isinstance(d, list) and len(d) == 2:
            dots.append((_number(d[0], f"dots[{i}][0]"), _number(d[1], f"dots[{i}][1]")))
            labels = None
        else:
            raise BoardError(f"dots[{i}] must be [x, y] or {{\"x\", \"y\", \"label\"}} (PP-1)")
    raw_boxes = data.get("boxes")
    if not isinstance(raw_boxes, list) or not raw_boxes:
        raise BoardError("board file needs a non-empty 'boxes' list (PP-1)")
    cycles: list[list[int]] = []
    contents: list[str] = []
    for b, box in enumerate(raw_boxes):
        cycle = box.get("dots") if isinstance(box, dict) else box
        if not isinstance(cycle, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in cycle):
            raise BoardError(f"boxes[{b}] must list dot indices (PP-1)")
        cycles.append(cycle)
        if isinstance(box, dict) and "content" in box:
            contents.append(str(box["content"]))
    if contents and len(contents) != len(cycles):
        raise BoardError("give a content for every box or for none (PP-1)")
    legend = None
    if "legend" in data:
        raw = data["legend"]
        if not isinstance(raw, dict):
            raise BoardError("'legend' must map kinds to whole-number values (PP-3)")
        try:
            legend = parse_legend(",".join(f"{k}:{v}" for k, v in raw.items()))
        except ValueError as exc:
            raise BoardError(str(exc)) from None
    label_of = {lab.lower(): i for i, lab in enumerate(labels)} if labels else {}
    drawn = []
    for j, pair in enumerate(data.get("drawn", [])):
        if not isinstance(pair, list) or len(pair) != 2:
            raise BoardError(f"drawn[{j}] must be a pair of dots (PP-2)")
        ends = []
        for d in pair:
            if isinstance(d, int) and not isinstance(d, bool) and 0 <= d < len(dots):
                ends.append(d)
            elif isinstance(d, str) and d.lower() in label_of:
                ends.append(label_of[d.lower()])
            else:
                ends.append(-1)
        if -1 in ends:
            if not labels:
                from .board import auto_labels

                auto = {lab: i for i, lab in enumerate(auto_labels(dots))}
                ends = [auto.get(str(d).lower(), -1) if e == -1 else e for d, e in zip(pair, ends)]
            if -1 in ends:
                raise BoardError(f"drawn[{j}] names a dot that does not exist: {pair} (PP-2)")
        drawn.append((ends[0], ends[1]))
    scale = _fit_scale(dots)
    board = build_board(name, dots, cycles, drawn, labels or None, scale=scale)
    return BoardFile(board, tuple(contents) if contents else None, legend)


def _fit_scale(dots: list[tuple[Fraction, Fraction]]) -> tuple[float, float]:
    """Characters per unit so the closest two coordinates land 3 columns / 2 rows apart."""
    xs = sorted({float(p[0]) for p in dots})
    ys = sorted({float(p[1]) for p in dots})
    dx = min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
    dy = min((b - a for a, b in zip(ys, ys[1:])), default=1.0)
    return (3.0 / dx, 2.0 / dy)
