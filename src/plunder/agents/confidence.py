"""How sure a search is of a move's value, in words: an interval, or "a guess" on too little search."""

from __future__ import annotations

import math

from ..core.words import plural


def judged(mean: float, spread: float, n: int, unit: str, enough: int) -> str:
    """A move's estimated result for the mover (-1 loss .. +1 win) from ``n`` samples (``unit``:
    what a sample is, "visit" or "trial") whose standard deviation is ``spread``: the mean with
    a 95% interval (two standard errors), or "a guess" under ``enough`` samples, where neither
    the mean nor its spread means much yet."""
    counted = plural(n, unit)
    if n < enough:
        return f"a guess: {mean:+.2f} from only {counted}"
    half = 2 * spread / math.sqrt(n)
    return f"{mean:+.2f} ± {half:.2f} from {counted}"
