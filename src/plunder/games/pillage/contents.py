"""What a box holds (PP-1): doubloons, a commodity, or a modifier; the legend (PP-3).

Text forms, used by board files, records and the picture:

* ``3`` -- a pile of 3 doubloons (n >= 1)
* ``food`` -- one commodity of that kind
* ``-5 food/weapons/armor`` -- a modifier: operations (``+``, ``-``, ``x``; several may be
  listed, e.g. ``+-2 food``), an amount, and the kinds it may change (PP-5)
"""

from __future__ import annotations

import re
from math import lcm
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence, Union

#: operations a modifier may offer: the text's + and -, and x as a designer extension (PP-5)
OPS = ("+", "-", "x")

DEFAULT_LEGEND = (("food", 5), ("weapons", 5), ("armor", 5))

#: largest magnitude of a legend value, a floor, a doubloon pile or a modifier amount
MAX_VALUE = 1_000_000
#: most commodity kinds in a legend
MAX_KINDS = 16
#: longest commodity kind name
MAX_KIND_CHARS = 20
#: longest content text
MAX_CONTENT_CHARS = 200
#: largest score any play of a board could reach: every score is then an exact float (PP-7)
MAX_SCORE = 2**53

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


def bounded_int(text: str, what: str, low: int = -MAX_VALUE, high: int = MAX_VALUE) -> int:
    """``text`` (ASCII digits, optional minus) as an int in ``[low, high]``, its length checked first."""
    if not re.fullmatch(r"-?[0-9]+", text, re.ASCII):
        raise ValueError(f"{what} {text!r} is not a whole number")
    if len(text.lstrip("-").lstrip("0")) > len(str(MAX_VALUE)) or not low <= int(text) <= high:
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise ValueError(f"{what} {shown} is outside {low}..{high} (the limit MAX_VALUE is {MAX_VALUE})")
    return int(text)


def make_legend(entries: Sequence[tuple[str, int]]) -> Legend:
    """A legend from (kind, value) pairs, each checked against the limits; ValueError citing PP-3."""
    kinds: list[str] = []
    values: list[int] = []
    if len(entries) > MAX_KINDS:
        raise ValueError(f"the legend has {len(entries)} kinds; the limit is {MAX_KINDS} (PP-3)")
    for kind, value in entries:
        name = kind.lower()
        if not re.fullmatch(_KIND, name, re.ASCII) or len(name) > MAX_KIND_CHARS:
            raise ValueError(f"legend kind {kind[:40]!r} must be up to {MAX_KIND_CHARS} letters a-z or _ (PP-3)")
        if name in kinds:
            raise ValueError(f"legend names {name!r} twice (PP-3)")
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"legend value of {name} must be a whole number, not {type(value).__name__} (PP-3)")
        if abs(value) > MAX_VALUE:
            raise ValueError(f"legend value of {name} is outside -{MAX_VALUE}..{MAX_VALUE} (the limit MAX_VALUE) (PP-3)")
        kinds.append(name)
        values.append(value)
    if not kinds:
        raise ValueError("the legend needs at least one commodity kind (PP-3)")
    return Legend(tuple(kinds), tuple(values))


def parse_legend(text: str) -> Legend:
    """``food:5,weapons:5,armor:5`` -> :class:`Legend`; raises ValueError citing PP-3."""
    entries: list[tuple[str, int]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"([a-z_]+)\s*[:=]\s*(-?[0-9]+)", part.lower(), re.ASCII)
        if not m:
            raise ValueError(f"legend entry {part[:40]!r} must be KIND:VALUE with a whole-number value (PP-3)")
        entries.append((m.group(1), bounded_int(m.group(2), f"legend value of {m.group(1)}")))
    return make_legend(entries)


def content_text(content: Content, legend: Legend) -> str:
    """Canonical text of a content."""
    if isinstance(content, Doubloons):
        return str(content.n)
    if isinstance(content, Commodity):
        return legend.kinds[content.kind]
    return f"{''.join(content.ops)}{content.amount} " + "/".join(legend.kinds[k] for k in content.kinds)


def content_short(content: Content, legend: Legend) -> str:
    """A few characters for the picture: ``$3``, ``F``, ``-5FWA``, ``+-2FA``: a modifier's
    operations spelled as its text, the log and the rules spell them (one spelling everywhere)."""
    if isinstance(content, Doubloons):
        return f"${content.n}"
    if isinstance(content, Commodity):
        return legend.short(content.kind)
    ops = "".join(content.ops)
    return f"{ops}{content.amount}" + "".join(legend.short(k)[0] for k in content.kinds)


def parse_content(text: str, legend: Legend) -> Content:
    """Read a content text; raises ValueError saying what is wrong and citing PP-1/PP-5."""
    if len(text) > MAX_CONTENT_CHARS:
        raise ValueError(f"a content text has {len(text)} characters; the limit is {MAX_CONTENT_CHARS} (PP-1)")
    t = text.strip().lower()
    if re.fullmatch(r"-?[0-9]+", t, re.ASCII):
        if t.startswith("-") or not t.strip("0"):
            raise ValueError(f"a doubloon pile holds 1 or more doubloons, not {t} (PP-1)")
        return Doubloons(bounded_int(t, "a doubloon pile of", 1))
    m = re.fullmatch(rf"([+\-x]+)\s*([0-9]+)\s+({_KIND}(?:\s*[/|]\s*{_KIND})*)", t, re.ASCII)
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
        amount = bounded_int(m.group(2), "a modifier amount of", 0)
        return Modifier(tuple(o for o in OPS if o in ops), amount, tuple(kinds))
    if re.fullmatch(_KIND, t, re.ASCII):
        k = legend.kind_index(t)
        if k is None:
            raise ValueError(f"commodity {t!r} is not in the legend {legend} (PP-3)")
        return Commodity(k)
    raise ValueError(f"{text!r} is not a box content: use a doubloon count like 3, a kind like food, or a modifier like -5 food/armor (PP-1)")


def canonical_content(text: str) -> str:
    """The one spelling of a content text, whatever the legend: ``" +-02 Food|armor"`` reads
    ``"+-2 food/armor"``. Text that is not a content comes back as given (for
    :func:`parse_content` to report against the legend)."""
    names = tuple(dict.fromkeys(re.findall(r"[a-z_]+", text.lower(), re.ASCII)))
    try:
        return content_text(parse_content(text, Legend(names, (0,) * len(names))), Legend(names, (0,) * len(names)))
    except ValueError:
        return text


def score_bound(legend: Legend, floor: int | None, boxes: Iterable[Iterable[Content]]) -> int:
    """The largest magnitude of a score any play of a board could reach (PP-5, PP-7).

    ``boxes`` gives, per box, every content it may hold. The bound takes every pile, every
    commodity at the largest value reachable when each modifier adds its amount (``+``/``-``)
    or multiplies by it (``x``), whichever order and choice is worst; it is capped just above
    :data:`MAX_SCORE`, past which its size no longer matters.
    """
    value = max([abs(v) for v in legend.values] + [abs(floor or 0)])
    piles = commodity_boxes = added = 0
    factor = 1
    for options in boxes:
        pile, add, times, commodity = 0, 0, 1, False
        for c in options:
            if isinstance(c, Doubloons):
                pile = max(pile, c.n)
            elif isinstance(c, Commodity):
                commodity = True
            else:
                if "+" in c.ops or "-" in c.ops:
                    add = max(add, c.amount)
                if "x" in c.ops:
                    times = max(times, c.amount)
        piles += pile
        commodity_boxes += commodity
        added += add
        factor = min(factor * times, MAX_SCORE + 1)  # capped: past the limit the size no longer matters
    return min(piles + commodity_boxes * (value + added) * factor, MAX_SCORE + 1)


def check_scores_fit(legend: Legend, floor: int | None, boxes: Iterable[Iterable[Content]]) -> int:
    """The :func:`score_bound` of a board; a game in which some play could score beyond
    :data:`MAX_SCORE` is refused (a ValueError)."""
    bound = score_bound(legend, floor, boxes)
    if bound > MAX_SCORE:
        raise ValueError(f"some play of this board could score more than {MAX_SCORE} (the limit MAX_SCORE = 2**53): "
                         "lower the legend values, piles or modifier amounts, or use fewer x modifiers (PP-7)")
    return bound


def parse_mix(text: str) -> tuple[Fraction, Fraction, Fraction]:
    """``doubloons:35,commodity:45,modifier:20`` -> shares summing to 1."""
    shares = {"doubloons": 0, "commodity": 0, "modifier": 0}
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"(doubloons|commodity|modifier)\s*[:=]\s*([0-9]+)", part.lower(), re.ASCII)
        if not m:
            raise ValueError(f"mix entry {part[:40]!r} must be doubloons|commodity|modifier:WEIGHT")
        shares[m.group(1)] = bounded_int(m.group(2), f"mix weight of {m.group(1)}", 0)
    total = sum(shares.values())
    if total <= 0:
        raise ValueError("mix weights must not all be zero")
    return (Fraction(shares["doubloons"], total), Fraction(shares["commodity"], total), Fraction(shares["modifier"], total))


def mix_text(shares: tuple[Fraction, Fraction, Fraction]) -> str:
    """The canonical text of a mix: percentages when they are whole, else the smallest whole weights."""
    scale = 100 if all((share * 100).denominator == 1 for share in shares) else lcm(*(s.denominator for s in shares))
    weights = [int(share * scale) for share in shares]
    return ",".join(f"{name}:{w}" for name, w in zip(("doubloons", "commodity", "modifier"), weights))


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
