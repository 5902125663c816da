"""Board symmetries for the Pillage solver, and a fast canonical form of a drawn mask.

A symmetry is a permutation of the board's edges induced by one of the eight
axis-aligned isometries of the plane (rotations by quarter turns and reflections, about
the centre of the dots' bounding box) that maps every dot onto a dot and every box onto a
box holding the same content. Only such maps leave the future of a position unchanged,
so positions whose drawn masks are images of one another share one transposition entry.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Sequence

from .board import Board
from .contents import Content

# (dx, dy) -> image, about the centre: identity first, so ``perms[0]`` is the identity.
_ISOMETRIES: tuple[Callable[[Fraction, Fraction], tuple[Fraction, Fraction]], ...] = (
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
)


def edge_symmetries(board: Board, contents: Sequence[Content | None]) -> list[tuple[int, ...]]:
    """Edge permutations ``perm[e] = image of e`` of the content-preserving symmetries.

    The identity is always first; duplicates (a one-dot-wide board has fewer distinct
    maps) are dropped.
    """
    xs = [p[0] for p in board.dots]
    ys = [p[1] for p in board.dots]
    # Twice the centre keeps the arithmetic in exact integers/fractions.
    cx2, cy2 = min(xs) + max(xs), min(ys) + max(ys)
    dot_at = {p: i for i, p in enumerate(board.dots)}
    edge_at = {e: i for i, e in enumerate(board.edges)}
    box_at = {frozenset(c): b for b, c in enumerate(board.boxes)}
    perms: list[tuple[int, ...]] = []
    for iso in _ISOMETRIES:
        dot_map: list[int] = []
        for x, y in board.dots:
            dx, dy = iso(2 * x - cx2, 2 * y - cy2)
            image = dot_at.get(((dx + cx2) / 2, (dy + cy2) / 2))
            if image is None:
                break
            dot_map.append(image)
        if len(dot_map) != len(board.dots):
            continue
        perm: list[int] = []
        for a, c in board.edges:
            a2, c2 = dot_map[a], dot_map[c]
            image_e = edge_at.get((min(a2, c2), max(a2, c2)))
            if image_e is None:
                break
            perm.append(image_e)
        if len(perm) != len(board.edges):
            continue
        ok = True
        for b, cycle in enumerate(board.boxes):
            image_b = box_at.get(frozenset(dot_map[d] for d in cycle))
            if image_b is None or contents[image_b] != contents[b]:
                ok = False
                break
        if ok and tuple(perm) not in perms:
            perms.append(tuple(perm))
    return perms


def make_canon(perms: list[tuple[int, ...]], num_edges: int) -> tuple[Callable[[int], int], Callable[[int], tuple[int, int]]]:
    """``canon(mask)`` (the least image of ``mask``) and ``canon_sym(mask)`` -> (least image, symmetry index).

    Each symmetry is applied through lookup tables on 12-bit chunks of the mask, and the
    two functions are generated as straight-line code: this is the innermost operation of
    the solver, so a Python loop over chunks and symmetries would dominate its time.
    """
    # 12-bit chunks up to 64 lines (six lookups a symmetry); past that 8-bit ones, so that
    # the tables (2**chunk ints a chunk and symmetry) stay small on a frame of many lines.
    chunk = max(1, min(12 if num_edges <= 64 else 8, num_edges))
    nchunks = max(1, -(-num_edges // chunk))
    env: dict[str, object] = {}
    for s, perm in enumerate(perms):
        for c in range(nchunks):
            images = [1 << perm[c * chunk + i] if c * chunk + i < num_edges else 0 for i in range(chunk)]
            table = [0] * (1 << chunk)
            for v in range(1, 1 << chunk):
                low = v & -v
                # the image of v is the image of v without its lowest bit, plus that bit's image
                table[v] = table[v ^ low] | images[low.bit_length() - 1]
            env[f"t{s}_{c}"] = table
    parts = [f"c{c} = (m >> {c * chunk}) & {(1 << chunk) - 1}" for c in range(nchunks)]
    terms = [" | ".join(f"t{s}_{c}[c{c}]" for c in range(nchunks)) for s in range(len(perms))]
    body = "\n    ".join(parts)
    src = f"def canon(m):\n    {body}\n    return " + (f"min({', '.join(terms)})" if len(terms) > 1 else terms[0]) + "\n"
    src += f"def canon_sym(m):\n    {body}\n    best = {terms[0]}\n    sym = 0\n"
    for s in range(1, len(perms)):
        src += f"    v = {terms[s]}\n    if v < best:\n        best = v\n        sym = {s}\n"
    src += "    return best, sym\n"
    exec(compile(src, "<pillage-solver-canon>", "exec"), env)  # noqa: S102 - generated from ints only
    return env["canon"], env["canon_sym"]  # type: ignore[return-value]
