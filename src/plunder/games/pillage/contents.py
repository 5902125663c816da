"""What a box holds (PP-1): doubloons, a commodity, or a modifier; the legend (PP-3).

Text forms, used by board files, records and the picture:

* ``3`` -- a pile of 3 doubloons (n >= 1)
* ``food`` -- one commodity of that kind
* ``-5 food/weapons/armor`` -- a modifier: operations (``+``, ``-``, ``x``; several may be
  listed, e.g. ``+-2 food``), an amount, and the kinds it may change (PP-5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

#: operations a modifier may offer: the text's + and -, and x as a designer extension (PP-5)
OPS = ("+", "-", "x")

DEFAULT_LEGEND = (("food", 5), ("weapons", 5), ("armor", 5))

_KIND = r"[a-z][a-z_]*"


@dataclass(frozen=True)
class Doubloons:
    """A pile of ``n`` doubloons."""

    n: int

    def __str__(self) -> str:
        return str(self.n)


@dataclass(frozen=True)
class Commodity:
    """One commodity of legend kind index ``kind``."""

    kind: int


@dataclass(frozen=True)
class Modifier:
    """Operations (subset of :data:`OPS`), an amount, and legend kind indices."""

    ops: tuple[str, ...]
    amount: int
    kinds: tuple[int, ...]

    def options(self) -> list[tuple[str, int]]:
        """Every (operation, kind) the capturer may pick, in canonical order."""
        return [(op, k) for op in self.ops for k in self.kinds]


Content = Union[Doubloons, Commodity, Modifier]


def apply_op(value: int, op: str, amount: int, floor: int | None) -> int:
    """A commodity value after a modifier operation, clamped at ``floor`` if set (PP-6)."""
    if op == "+":
        value += amount
    elif op == "-":
        value -= amount
    else:
        value *= amount
    return value if floor is None else max(floor, value)


@dataclass(frozen=True)
class Legend:
    """Commodity kinds and their starting values (PP-3)."""

    kinds: tuple[str, ...]
    values: tuple[int, ...]

    def __str__(self) -> str:
        return ",".join(f"{k}:{v}" for k, v in zip(self.kinds, self.values))

    def kind_index(self, name: str) -> int | None:
        """Index of kind ``name`` (case-insensitive), if in the legend."""
        lowered = name.lower()
        for i, k in enumerate(self.kinds):
            if k == lowered:
                return i
        return None

    def short(self, kind: int) -> str:
        """The shortest unambiguous capitalised prefix of a kind, for the picture."""
        name = self.kinds[kind]
        for n in range(1, len(name) + 1):
            if sum(1 for k in self.kinds if k.startswith(name[:n])) == 1:
                return name[:n].capitalize()
        return name.capitalize()


def parse_legend(text: str) -> Legend:
    """``food:5,weapons:5,armor:5`` -> :class:`Legend`; raises ValueError citing PP-3."""
    kinds: list[str] = []
    values: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(rf"({_KIND})\s*[:=]\s*(-?\d+)", part.lower())
        if not m:
            raise ValueError(f"legend entry {part!r} must be KIND:VALUE with a whole-number value (PP-3)")
        if m.group(1) in kinds:
            raise ValueError(f"legend names {m.group(1)!r} twice (PP-3)")
        kinds.append(m.group(1))
        values.append(int(m.group(2)))
    if not kinds:
        raise ValueError("the legend needs at least one commodity kind (PP-3)")
    return Legend(tuple(kinds), tuple(values))


def content_text(content: Content, legend: Legend) -> str:
    """Canonical text of a content."""
    if isinstance(content, Doubloons):
        return str(content.n)
    if isinstance(content, Commodity):
        return legend.kinds[content.kind]
    return f"{''.join(content.ops)}{content.amount} " + "/".join(legend.kinds[k] for k in content.kinds)


def content_short(content: Content, legend: Legend) -> str:
    """A few characters for the picture: ``$3``, ``F``, ``-5FWA``, ``±2FA``."""
    if isinstance(content, Doubloons):
        return f"${content.n}"
    if isinstance(content, Commodity):
        return legend.short(content.kind)
    ops = "".join(content.ops).replace("+-", "±")  # one character, so the code fits a box
    return f"{ops}{content.amount}" + "".join(legend.short(k)[0] for k in content.kinds)


def parse_content(text: str, legend: Legend) -> Content:
    """Read a content text; raises ValueError saying what is wrong and citing PP-1/PP-5."""
    t = text.strip().lower()
    if re.fullmatch(r"-?\d+", t):
        n = int(t)
        if n < 1:
            raise ValueError(f"a doubloon pile holds 1 or more doubloons, not {n} (PP-1)")
        return Doubloons(n)
    m = re.fullmatch(rf"([+\-x]+)\s*(\d+)\s+({_KIND}(?:\s*[/|]\s*{_KIND})*)", t)
    if m:
        ops = tuple(dict.fromkeys(m.group(1)))
        if len(ops) != len(m.group(1)):
            raise ValueError(f"modifier {text!r} repeats an operation (PP-5)")
        kinds = []
        for name in re.split(r"\s*[/|]\s*", m.group(3)):
            k = legend.kind_index(name)
            if k is None:
                raise ValueError(f"modifier {text!r} names {name!r}, which is not in the legend {legend} (PP-3)")
            if k in kinds:
                raise ValueError(f"modifier {text!r} names {name!r} twice (PP-5)")
            kinds.append(k)
        return Modifier(tuple(o for o in OPS if o in ops), int(m.group(2)), tuple(kinds))
    if re.fullmatch(_KIND, t):
        k = legend.kind_index(t)
        if k is None:
            raise ValueError(f"commodity {t!r} is not in the legend {legend} (PP-3)")
        return Commodity(k)
    raise ValueError(f"{text!r} is not a box content: use a doubloon count like 3, a kind like food, or a modifier like -5 food/armor (PP-1)")


def parse_mix(text: str) -> tuple[Fraction, Fraction, Fraction]:
    """``doubloons:35,commodity:45,modifier:20`` -> shares summing to 1."""
    shares = {"doubloons": 0, "commodity": 0, "modifier": 0}
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"(doubloons|commodity|modifier)\s*[:=]\s*(\d+)", part.lower())
        if not m:
            raise ValueError(f"mix entry {part!r} must be doubloons|commodity|modifier:WEIGHT")
        shares[m.group(1)] = int(m.group(2))
    total = sum(shares.values())
    if total <= 0:
        raise ValueError("mix weights must not all be zero")
    return (Fraction(shares["doubloons"], total), Fraction(shares["commodity"], total), Fraction(shares["modifier"], total))


# Pile sizes and their relative weights in random contents: mostly small piles, a rare big one.
PILES = ((1, 4), (2, 4), (3, 3), (5, 2), (10, 1))
# Modifier operations offered and their weights: mostly one operation, sometimes a choice.
MOD_OPS = ((("-",), 4), (("+",), 4), (("+", "-"), 2))
MOD_AMOUNTS = (1, 2, 3, 4, 5)


def random_distribution(legend: Legend, mix: tuple[Fraction, Fraction, Fraction]) -> list[tuple[Content, float]]:
    """The chance distribution of one box's contents for ``contents=random``.

    Doubloon piles by :data:`PILES`; commodities uniform over the legend; modifiers
    uniform over amounts 1-5, with operations by :data:`MOD_OPS` and kinds either all of
    the legend (half the time) or one kind.
    """
    pd, pc, pm = mix
    out: dict[Content, Fraction] = {}
    pile_total = sum(w for _, w in PILES)
    for n, w in PILES:
        out[Doubloons(n)] = out.get(Doubloons(n), Fraction(0)) + pd * Fraction(w, pile_total)
    k = len(legend.kinds)
    for i in range(k):
        out[Commodity(i)] = pc / k
    kind_sets: list[tuple[tuple[int, ...], Fraction]] = [((i,), Fraction(1, 2 * k)) for i in range(k)]
    if k > 1:
        kind_sets.append((tuple(range(k)), Fraction(1, 2)))
    else:
        kind_sets = [((0,), Fraction(1))]
    op_total = sum(w for _, w in MOD_OPS)
    for ops, w in MOD_OPS:
        for amount in MOD_AMOUNTS:
            for kinds, pk in kind_sets:
                out[Modifier(ops, amount, kinds)] = pm * Fraction(w, op_total) * Fraction(1, len(MOD_AMOUNTS)) * pk
    return [(c, float(p)) for c, p in out.items() if p > 0]


__all__ = ["Commodity", "Content", "Doubloons", "Legend", "Modifier", "OPS"]
