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
    return f"{mean:+.2f} ± {half_width(spread, n):.2f} from {counted}"


def half_width(spread: float, n: int) -> float:
    """The half width of a 95% interval on a mean of ``n`` samples of standard deviation
    ``spread``: two standard errors."""
    return 2 * spread / math.sqrt(n)


def alike(mean: float, spread: float, n: int, playout: str) -> str | None:
    """A move's value when ``n`` playouts of ``playout`` (an agent's name) after it all came to
    about the same (a 95% interval that would print as ± 0.00, as a chance-free game's
    near-deterministic playouts give): what the figure is, that playout's value, rather than an
    interval that reads as certainty about the move. ``None`` when the playouts differ more."""
    if n < 2 or round(half_width(spread, n), 2) > 0:
        return None
    return f"{mean:+.2f}, the value {playout}'s playouts after it reach ({plural(n, 'trial')}, all about the same)"
