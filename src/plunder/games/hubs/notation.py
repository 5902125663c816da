"""Dot labels and action texts for Hubs: ``dot 12,30`` places a dot, ``seg c-k`` joins two.

Dots are labelled in the order they are placed, spreadsheet style: ``a`` .. ``z``,
then ``aa``, ``ab`` .. ``zz`` (so at most 702 dots, far more than a sheet needs).
"""

from __future__ import annotations

import re
import string

#: the most dots a round may have, so that every dot has a label
MAX_DOTS = 26 + 26 * 26

_LETTERS = string.ascii_lowercase
_DOT = re.compile(r"(?:dot\s+)?(-?\d+)\s*[,\s]\s*(-?\d+)")
_SEG = re.compile(r"(?:seg\s+)?([a-z]{1,2})\s*[-\s]\s*([a-z]{1,2})")


def label(index: int) -> str:
    """The label of the dot placed ``index``-th (0-based): a, b, ..., z, aa, ab, ..."""
    if not 0 <= index < MAX_DOTS:
        raise ValueError(f"dot index {index} has no label (0..{MAX_DOTS - 1})")
    if index < 26:
        return _LETTERS[index]
    index -= 26
    return _LETTERS[index // 26] + _LETTERS[index % 26]


def label_index(text: str) -> int:
    """The dot index of a label; ``ValueError`` if ``text`` is not a label."""
    t = text.strip().lower()
    if len(t) == 1 and t in _LETTERS:
        return _LETTERS.index(t)
    if len(t) == 2 and t[0] in _LETTERS and t[1] in _LETTERS:
        return 26 + 26 * _LETTERS.index(t[0]) + _LETTERS.index(t[1])
    raise ValueError(f"{text!r} is not a dot label (a..z, aa..zz)")


def dot_text(x: int, y: int) -> str:
    """Canonical text of placing a dot at lattice point (x, y)."""
    return f"dot {x},{y}"


def seg_text(i: int, j: int) -> str:
    """Canonical text of joining dots ``i`` and ``j`` (lower index first)."""
    lo, hi = min(i, j), max(i, j)
    return f"seg {label(lo)}-{label(hi)}"


def parse_dot(text: str) -> tuple[int, int] | None:
    """``(x, y)`` from ``dot 12,30`` / ``12,30`` / ``12 30``, or ``None`` if it is not that form."""
    m = _DOT.fullmatch(text.strip().lower())
    return None if m is None else (int(m.group(1)), int(m.group(2)))


def parse_seg(text: str) -> tuple[str, str] | None:
    """The two labels of ``seg c-k`` / ``c-k`` / ``c k``, or ``None`` if it is not that form."""
    m = _SEG.fullmatch(text.strip().lower())
    return None if m is None else (m.group(1), m.group(2))
