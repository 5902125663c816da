"""Plots as PNG bytes, drawn with matplotlib on its file-only Agg backend (no display needed)."""

from __future__ import annotations

import io
import math
from typing import Sequence

import matplotlib

matplotlib.use("Agg")  # files only: reports are written on machines without a display

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from .measures import Share  # noqa: E402


def _png(fig: "plt.Figure") -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


#: a histogram of values none below 0 whose largest is this many times their median (or more)
#: is drawn on a logarithmic axis: a long tail (Pirates' scores) would squeeze the rest into one bin
LOG_SPAN = 50
#: bins of a histogram that are not one a whole number
BINS = 30


def bins_for(values: Sequence[float]) -> tuple[list[float], bool]:
    """The bins every series of a histogram shares, and whether the axis is logarithmic: one bin a
    whole number when values are whole and span at most 80; log-spaced bins (below 1: one bin)
    when none is negative and the largest is :data:`LOG_SPAN` times the median or more; else
    :data:`BINS` even bins."""
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    ordered = sorted(values)
    median = ordered[len(ordered) // 2] if ordered else 0.0
    if lo >= 0 and hi >= 10 and hi >= LOG_SPAN * max(1.0, median):
        return [0.0] + [hi ** (k / BINS) for k in range(BINS + 1)], True
    if all(float(v).is_integer() for v in values) and hi - lo <= 80:
        return [lo - 0.5 + k for k in range(int(hi - lo) + 2)], False
    width = (hi - lo) / BINS or 1.0
    return [lo + k * width for k in range(BINS + 1)], False


def histogram(series: dict[str, Sequence[float]], title: str, xlabel: str) -> bytes:
    """Overlaid histograms, one per named series, on the same bins (:func:`bins_for`)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    bins, log = bins_for([v for xs in series.values() for v in xs])
    for name, xs in series.items():
        if xs:
            ax.hist(xs, bins=bins, histtype="step", linewidth=1.6, label=f"{name} (n={len(xs)})")
    if log:
        ax.set_xscale("symlog", linthresh=1.0)
        xlabel += " (log scale; below 1 in one bin)"
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    return _png(fig)


def shares(groups: dict[str, dict[str, Share]], title: str, ylabel: str, even: float | None = None) -> bytes:
    """Grouped bars of proportions with their 95% intervals: ``groups[x label][series] = share``."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    _share_bars(ax, groups, title, ylabel, even)
    return _png(fig)


def shares_and_stack(groups: dict[str, dict[str, Share]], parts: dict[str, float], title: str, ylabel: str,
                     stack_title: str) -> bytes:
    """:func:`shares` beside one stacked bar of ``parts`` (proportions summing to 1), each labelled."""
    fig, (ax, side) = plt.subplots(1, 2, figsize=(8.4, 3.8), gridspec_kw={"width_ratios": [3, 1.4]})
    _share_bars(ax, groups, title, ylabel, None)
    bottom = 0.0
    for name, p in parts.items():
        side.bar([0], [p], bottom=bottom, width=0.6, label=f"{name} ({p:.0%})")
        bottom += p
    side.set_xlim(-0.5, 0.5)
    side.set_xticks([])
    side.set_ylim(0, 1)
    side.set_title(stack_title)
    side.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.02))
    return _png(fig)


def _share_bars(ax: "plt.Axes", groups: dict[str, dict[str, Share]], title: str, ylabel: str,
                even: float | None) -> None:
    xs = list(groups)
    series = list(dict.fromkeys(s for g in groups.values() for s in g))
    width = 0.8 / max(1, len(series))
    for k, name in enumerate(series):
        pos, ps, lo, hi = [], [], [], []
        for j, x in enumerate(xs):
            share = groups[x].get(name)
            if share is None or not share.n:
                continue
            a, b = share.interval
            pos.append(j + (k - (len(series) - 1) / 2) * width)
            ps.append(share.p)
            lo.append(max(0.0, share.p - a))
            hi.append(max(0.0, b - share.p))
        ax.bar(pos, ps, width=width * 0.9, yerr=[lo, hi], capsize=3, label=name)
    if even is not None:
        ax.axhline(even, color="grey", linestyle="--", linewidth=1, label=f"even share {even:.0%}")
    ax.set_xticks(range(len(xs)), xs)
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)


def bars(groups: dict[str, dict[str, float]], title: str, ylabel: str, stacked: bool = False) -> bytes:
    """Bars of means: ``groups[x label][series] = value``; side by side, or stacked."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    xs = list(groups)
    series = list(dict.fromkeys(s for g in groups.values() for s in g))
    width = 0.8 / (1 if stacked else max(1, len(series)))
    base_pos = [0.0] * len(xs)
    base_neg = [0.0] * len(xs)
    for k, name in enumerate(series):
        vals = [groups[x].get(name, 0.0) for x in xs]
        if stacked:
            bottoms = [base_pos[j] if v >= 0 else base_neg[j] for j, v in enumerate(vals)]
            ax.bar(range(len(xs)), vals, width=width, bottom=bottoms, label=name)
            for j, v in enumerate(vals):
                if v >= 0:
                    base_pos[j] += v
                else:
                    base_neg[j] += v
        else:
            ax.bar([j + (k - (len(series) - 1) / 2) * width for j in range(len(xs))], vals, width=width * 0.9,
                   label=name)
    ax.set_xticks(range(len(xs)), xs)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    return _png(fig)


def lines(panels: dict[str, dict[str, Sequence[float]]], title: str, xlabel: str, ylabel: str) -> bytes:
    """Side-by-side panels of lines: ``panels[panel title][series] = values`` over steps 0, 1, ..."""
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 1, 3.8), squeeze=False, sharey=True)
    for ax, (name, series) in zip(axes[0], panels.items()):
        for label, ys in series.items():
            ax.plot(range(len(ys)), ys, linewidth=1.8, label=label)
        ax.set_title(name)
        ax.set_xlabel(xlabel)
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel(ylabel)
    axes[0][-1].legend(fontsize=8)
    fig.suptitle(title)
    return _png(fig)


def heatmap(rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float]], title: str,
            row_label: str, col_label: str, fmt: str = "{:.0%}",
            halves: Sequence[Sequence[float]] | None = None, centre: tuple[float, str] | None = None) -> bytes:
    """A two-axis grid of values, each cell written on it.

    With ``halves`` (each cell's 95% half-width) and ``centre`` (a reference value and its name),
    the colour shows only how far a cell lies beyond its interval from the reference: a cell whose
    interval holds the reference is white, whatever its value, so noise is never drawn as contrast.
    """
    fig, ax = plt.subplots(figsize=(1.2 * len(cols) + 2.5, 0.8 * len(rows) + 1.8))
    # long values (Pillage's mix) break at their commas so neighbouring labels do not overlap
    ax.set_xticks(range(len(cols)), [c.replace(",", ",\n") for c in cols], fontsize=8)
    ax.set_yticks(range(len(rows)), [r.replace(",", ",\n") for r in rows], fontsize=8)
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    if halves is not None and centre is not None:
        ref, name = centre
        beyond = [[math.copysign(max(0.0, abs(v - ref) - h), v - ref) for v, h in zip(line, hl)]
                  for line, hl in zip(values, halves)]
        reach = max((abs(b) for line in beyond for b in line), default=0.0) or 1.0
        image = ax.imshow(beyond, cmap="RdBu_r", vmin=-reach, vmax=reach, aspect="auto")
        for i, line in enumerate(values):
            for j, v in enumerate(line):
                ink = "white" if abs(beyond[i][j]) > 0.6 * reach else "black"
                ax.text(j, i, f"{fmt.format(v)}\n±{fmt.format(halves[i][j])}", ha="center", va="center",
                        color=ink, fontsize=8)
        bar = fig.colorbar(image, ax=ax)
        bar.set_label(f"beyond the 95% interval from {name}", fontsize=8)
    else:
        image = ax.imshow(values, cmap="viridis", aspect="auto")
        flat = [v for line in values for v in line]
        low, span = min(flat), (max(flat) - min(flat)) or 1.0
        for i, line in enumerate(values):
            for j, v in enumerate(line):
                # dark text on the bright end of the colour map (as imshow scales it), light on the dark end
                ink = "black" if (v - low) / span > 0.6 else "white"
                ax.text(j, i, fmt.format(v), ha="center", va="center", color=ink, fontsize=9)
        fig.colorbar(image, ax=ax)
    ax.set_title(title)
    return _png(fig)
