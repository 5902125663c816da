"""Board files: a JSON format for any board, its contents, pre-drawn lines and legend.

::

    {
      "format": "plunder-pillage-board", "version": 1,
      "dots":   [[0, 0], [1, 0], [0, 1], [1, 1]],          # x right, y down; or {"x","y","label"}
      "boxes":  [{"dots": [0, 1, 3, 2], "content": "food"}], # dot cycle; content optional
      "drawn":  [["a1", "b1"]],                             # optional pre-drawn lines (PP-2)
      "legend": {"food": 5, "weapons": 5}                   # optional (PP-3); or [["food", 5], ...]
    }

Contents are given for every box or for none. Every problem raises
:class:`~plunder.games.pillage.board.BoardError` naming the field and the ruling.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.files import canonical_json, load_json
from .board import MAX_BOXES, MAX_COORDINATE, MAX_DENOMINATOR, MAX_DOTS, Board, BoardError, auto_labels, build_board
from .contents import Content, Legend, canonical_content, make_legend, parse_content

FORMAT = "plunder-pillage-board"
FIELDS = ("format", "version", "dots", "boxes", "drawn", "legend")

# A coordinate written as text: a decimal (exponent allowed) or a fraction. The digit counts
# are capped by the pattern itself, so no text can make the arithmetic below large.
_DECIMAL = re.compile(r"([+-]?)([0-9]{1,20})(?:\.([0-9]{0,20}))?(?:[eE]([+-]?[0-9]{1,20}))?", re.ASCII)
_FRACTION = re.compile(r"([+-]?[0-9]{1,20})/([0-9]{1,20})", re.ASCII)
#: an exponent past this cannot give a coordinate within the range and precision limits
_MAX_EXPONENT = 60


@dataclass(frozen=True)
class BoardFile:
    """What a board file gives: the board, and optionally contents and a legend."""

    board: Board
    contents: tuple[str, ...] | None
    legend: Legend | None

    def to_json(self) -> str:
        """The board file as canonical compact JSON (what ``board=json:...`` stores and reads back)."""
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
            # pairs, not an object: canonical JSON sorts keys, and the legend's order is the game's
            data["legend"] = [[k, v] for k, v in zip(self.legend.kinds, self.legend.values)]
        return canonical_json(data)

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


def _plain(value: Fraction) -> int | str:
    """A coordinate as JSON: an int when whole, else an exact fraction text like ``"1/3"``."""
    return int(value) if value.denominator == 1 else str(value)


def coordinate(value: Any, where: str) -> Fraction:
    """A coordinate from JSON (int, finite float, or text like ``"2.5"``, ``"1/3"``), checked
    against :data:`MAX_COORDINATE` and :data:`MAX_DENOMINATOR` before any exact arithmetic."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BoardError(f"{where} must be a number, not {type(value).__name__} (PP-1)")
    if isinstance(value, int):
        if abs(value) > MAX_COORDINATE:
            raise BoardError(f"{where} is outside -{MAX_COORDINATE}..{MAX_COORDINATE} (the limit MAX_COORDINATE) (PP-1)")
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BoardError(f"{where} is {value}; coordinates are finite numbers (PP-1)")
        value = repr(value)  # the shortest decimal that reads back as this float: 0.1, not 2**-55 multiples
    text = value.strip()
    m = _FRACTION.fullmatch(text)
    if m:
        if int(m.group(2)) == 0:
            raise BoardError(f"{where} {text!r} divides by zero (PP-1)")
        number = Fraction(int(m.group(1)), int(m.group(2)))
    else:
        m = _DECIMAL.fullmatch(text)
        if not m:
            raise BoardError(f"{where} {text[:30]!r} must be a number like 3, 2.5, 1e-3 or 1/3, within "
                             f"{MAX_COORDINATE} and 1/{MAX_DENOMINATOR} (PP-1)")
        sign, whole, part, exp = m.group(1), m.group(2), m.group(3) or "", int(m.group(4) or 0)
        if abs(exp) > _MAX_EXPONENT:
            raise BoardError(f"{where} {text!r} is beyond the limits MAX_COORDINATE = {MAX_COORDINATE} "
                             f"and MAX_DENOMINATOR = {MAX_DENOMINATOR} (PP-1)")
        number = Fraction(int(whole + part), 10 ** len(part)) * Fraction(10) ** exp
        number = -number if sign == "-" else number
    if abs(number) > MAX_COORDINATE:
        raise BoardError(f"{where} is outside -{MAX_COORDINATE}..{MAX_COORDINATE} (the limit MAX_COORDINATE) (PP-1)")
    if number.denominator > MAX_DENOMINATOR:
        raise BoardError(f"{where} {text!r} is finer than 1/{MAX_DENOMINATOR} (the precision limit MAX_DENOMINATOR) (PP-1)")
    return number


def _index(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(f"{where} must be a dot index, not {type(value).__name__} (PP-1)")
    return value


def _fields(value: Any, where: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BoardError(f"{where} must be a JSON object")
    unknown = sorted(k for k in value if k not in allowed)
    if unknown:
        raise BoardError(f"{where} has unknown field {unknown[0][:30]!r}; its fields are {', '.join(allowed)}")
    return value


def _list(data: dict[str, Any], key: str, ruling: str, required: bool = True) -> list[Any]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list) or (required and not value):
        raise BoardError(f"board file needs {'a non-empty' if required else 'a'} {key!r} list ({ruling})")
    return value


def parse_board_json(text: str, name: str = "file") -> BoardFile:
    """Read a board file's text into a :class:`BoardFile` (every field's type checked)."""
    try:
        data = _fields(load_json(text, "board file"), "board file", FIELDS)
    except ValueError as exc:
        raise BoardError(str(exc)) from None
    fmt, version = data.get("format", FORMAT), data.get("version", 1)
    if fmt != FORMAT or isinstance(version, bool) or version != 1:
        raise BoardError(f"board file format must be {FORMAT!r} version 1")
    raw_dots = _list(data, "dots", "PP-1")
    if len(raw_dots) > MAX_DOTS:
        raise BoardError(f"the board has {len(raw_dots)} dots; the limit MAX_DOTS is {MAX_DOTS} (PP-1)")
    dots = []
    given: list[str] = []
    for i, d in enumerate(raw_dots):
        if isinstance(d, dict):
            d = _fields(d, f"dots[{i}]", ("x", "y", "label"))
            dots.append((coordinate(d.get("x"), f"dots[{i}].x"), coordinate(d.get("y"), f"dots[{i}].y")))
            if "label" in d:
                if not isinstance(d["label"], str):
                    raise BoardError(f"dots[{i}].label must be text like a1 (PP-1)")
                given.append(d["label"])
        elif isinstance(d, list) and len(d) == 2:
            dots.append((coordinate(d[0], f"dots[{i}][0]"), coordinate(d[1], f"dots[{i}][1]")))
        else:
            raise BoardError(f"dots[{i}] must be [x, y] or {{\"x\", \"y\", \"label\"}} (PP-1)")
    if given and len(given) != len(dots):
        raise BoardError("give a label for every dot or for none (PP-1)")
    raw_boxes = _list(data, "boxes", "PP-1")
    if len(raw_boxes) > MAX_BOXES:
        raise BoardError(f"the board has {len(raw_boxes)} boxes; the limit MAX_BOXES is {MAX_BOXES} (PP-1)")
    cycles: list[list[int]] = []
    contents: list[str] = []
    for b, box in enumerate(raw_boxes):
        cycle = _fields(box, f"boxes[{b}]", ("dots", "content")).get("dots") if isinstance(box, dict) else box
        if not isinstance(cycle, list):
            raise BoardError(f"boxes[{b}] must list dot indices (PP-1)")
        cycles.append([_index(d, f"boxes[{b}] dot") for d in cycle])
        if isinstance(box, dict) and "content" in box:
            content = box["content"]
            if isinstance(content, bool) or not isinstance(content, (str, int)):
                raise BoardError(f"boxes[{b}].content must be text like \"food\" or a doubloon count (PP-1)")
            contents.append(canonical_content(str(content)))
    if contents and len(contents) != len(cycles):
        raise BoardError("give a content for every box or for none (PP-1)")
    legend = None
    if "legend" in data:
        raw = data["legend"]
        if isinstance(raw, dict):
            raw = list(raw.items())
        elif not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                                  for p in raw):
            raise BoardError("'legend' must map kinds to whole-number values, as an object or "
                             "a list of [kind, value] pairs (PP-3)")
        try:
            legend = make_legend([(k, v) for k, v in raw])
        except ValueError as exc:
            raise BoardError(str(exc)) from None
    labels = given or list(auto_labels(dots))
    label_of = {lab.lower(): i for i, lab in enumerate(labels)}
    drawn = []
    for j, pair in enumerate(_list(data, "drawn", "PP-2", required=False)):
        if not isinstance(pair, list) or len(pair) != 2:
            raise BoardError(f"drawn[{j}] must be a pair of dots (PP-2)")
        ends = []
        for d in pair:
            if isinstance(d, int) and not isinstance(d, bool) and 0 <= d < len(dots):
                ends.append(d)
            elif isinstance(d, str) and d.lower() in label_of:
                ends.append(label_of[d.lower()])
            else:
                raise BoardError(f"drawn[{j}] names a dot that does not exist: {str(d)[:20]!r} (PP-2)")
        drawn.append((ends[0], ends[1]))
    board = build_board(name, dots, cycles, drawn, labels)
    return BoardFile(board, tuple(contents) if contents else None, legend)

