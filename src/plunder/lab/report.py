"""``plunder report``: a self-contained HTML page of plots and a plain-words summary from stored games.

Every game gets its win rates, scores and seats; what a game adds of its own (its length
measure, sentences, charts) it declares in ``GameEntry.study.figures`` (:mod:`plunder.core.figures`),
and this module evaluates and draws whatever is declared, knowing no game by name.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Sequence

from ..core.figures import (AtLeast, Bars, Chart, Flagged, Fraction, GameStat, Histogram, Length, Mean, Scores,
                            SeatScore, SeatStat, Sentence, Series, Shares, Spread, Sum, Value)
from ..core.registry import entry
from . import plots
from .measures import (Share, agents_of, at_least, game_stat, mean, pct, quantiles, scores_of, seat_points,
                       seat_record, seat_stat, ties, wins)
from .store import Row


@dataclass(frozen=True)
class Plot:
    """One plot: file stem, caption and PNG bytes."""

    name: str
    caption: str
    png: bytes


@dataclass(frozen=True)
class Tabled:
    """A table of a report: its title, column heads and rows of words."""

    title: str
    head: list[str]
    rows: list[list[str]]


@dataclass
class Report:
    """What a report says: a title, sentences in plain words, tables, plots, notes on what is
    missing, and how it was made (``made``: version, commit, date, command)."""

    title: str
    summary: list[str] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tables: list[Tabled] = field(default_factory=list)
    made: dict[str, str] = field(default_factory=dict)


def build(game_id: str, params: dict[str, str], rows: Sequence[Row], seed: int) -> Report:
    """The report on ``rows``: games of ``game_id`` with ``params`` from base seed ``seed``."""
    agents = agents_of(rows)
    players = len(rows[0].seats) if rows else 1
    shown = ", ".join(f"{k}={v}" for k, v in params.items())
    report = Report(f"{game_id} ({shown}): {len(rows)} games, agents {', '.join(agents)}")
    report.summary.append(
        f"{len(rows)} games of {game_id} with {shown or 'the default parameters'}, seeds {seed} to "
        f"{seed + len(rows) - 1}; agents {', '.join(agents)} rotated over {players} seat{'s' * (players > 1)}. "
        "Intervals are 95% (Wilson).")
    figures = entry(game_id).study.figures
    won = f"reach {figures.win}" if figures.win else "are won"
    for a in agents:
        w = wins(rows, a)
        lo, hi = w.interval
        report.summary.append(f"With the {a} agent, {pct(w.p)} of {'games' if players == 1 else 'seats'} {won} "
                              f"(95% interval {pct(lo)} to {pct(hi)}, n={w.n}).")
    report.plots.append(Plot("scores", "Score distribution per agent", plots.histogram(
        {a: scores_of(rows, a) for a in agents}, "Score distribution", "score")))
    per_seat = {f"seat {s + 1}": {a: wins(rows, a, s) for a in agents} for s in range(players)}
    report.plots.append(Plot("win_rate", "Win rate per agent and seat, with 95% intervals", plots.shares(
        per_seat, "Win rate per agent and seat", "win rate")))
    if players > 1:
        seats_section(report, rows, players)
    if figures.length is not None:
        unit = figures.length.unit
        lengths = game_stat(rows, figures.length.stat)
        if lengths:
            ordered = sorted(lengths)
            report.summary.append(f"Games last a median {ordered[len(ordered) // 2]:g} {unit} "
                                  f"(from {ordered[0]:g} to {ordered[-1]:g}).")
            report.plots.append(Plot("length", f"Game length ({unit})", plots.histogram(
                {"all games": lengths}, "Game length", unit)))
        else:
            report.notes.append(f"Game length: no game gave the statistic {figures.length.stat}; not measured.")
    else:
        report.notes.append(f"Game length: {game_id}'s statistics have no length measure; not plotted.")
    for sentence in figures.sentences:
        lines = said(sentence, rows, agents)
        report.summary.extend(lines)
        if not lines:
            report.notes.append(f"The sentence \"{sentence.text[:60]}...\": a value it states was not found in these "
                                "games (a statistic no game gave, or a pair among fewer than two agents); left out.")
    for chart in figures.charts:
        png = drawn(chart, rows, agents)
        if png is None:
            report.notes.append(f"{chart.caption}: no game gave its values; not drawn.")
        else:
            report.plots.append(Plot(chart.name, chart.caption, png))
    return report


def seats_section(report: Report, rows: Sequence[Row], players: int) -> None:
    """Each seat's wins, draws and losses, its points (a tie at the top shares the win, so the seats'
    points sum to one a game and the even share is 1/players whether or not games tie), and the
    seats' balance: 1 less the largest gap between two seats' points (as Ludii's Balance metric,
    which also counts draws as partial wins)."""
    points = [seat_points(rows, s) for s in range(players)]
    first = points[0]
    lo, hi = first.interval
    gap = max(p.p for p in points) - min(p.p for p in points)
    report.summary.append(
        f"The first seat scores {pct(first.p)} of the points (a win 1, a tie its share of the win; 95% interval "
        f"{pct(lo)} to {pct(hi)}) against an even share of {pct(1 / players)}; {ties(rows).words()} of games are "
        f"ties. Seat balance (1 less the largest gap between two seats' points): {1 - gap:.2f}.")
    table = []
    for s, share in enumerate(points):
        won, drawn, lost = seat_record(rows, s)
        a, b = share.interval
        table.append([f"seat {s + 1}", str(won), str(drawn), str(lost), f"{pct(share.p)} ({pct(a)}-{pct(b)})"])
    report.tables.append(Tabled("Wins, draws and losses by seat", ["seat", "wins", "draws", "losses",
                                                                  "points (95%)"], table))
    report.plots.append(Plot("first_seat", "Points by seat over every agent, a tie sharing the win "
                             "(first-seat advantage)",
                             plots.shares({f"seat {s + 1}": {"all agents": p} for s, p in enumerate(points)},
                                          "First-seat advantage", "points (a tie shares the win)",
                                          even=1 / players)))


def length_of(game_id: str) -> Length | None:
    """The statistic measuring a game of ``game_id``'s length and its unit, where the game offers one."""
    return entry(game_id).study.figures.length


def gathered(series: Series, rows: Sequence[Row], agent: str | None) -> list[float]:
    """The values of ``series`` in ``rows``. For ``agent``: a seat statistic or the scores from its
    seats, any other series from the games whose first seat it holds; else from every game."""
    if isinstance(series, SeatStat):
        return seat_stat(rows, series.stat, _needed(agent, series))
    if isinstance(series, Scores):
        return scores_of(rows, _needed(agent, series))
    kept = [r for r in rows if agent is None or r.seats[0] == agent]
    if isinstance(series, GameStat):
        return game_stat([r for r in kept if not series.when or bool(r.stats.get(series.when)) == series.is_set],
                         series.stat)
    if isinstance(series, SeatScore):
        return [r.scores[series.seat] for r in kept]
    return [r.scores[series.seat] - r.scores[series.other] for r in kept]


def _needed(agent: str | None, series: Series) -> str:
    """``agent``; a series of an agent's seats asked for every game is a mistake in a game's figures."""
    if agent is None:
        raise ValueError(f"{series} is gathered from an agent's seats: use it per agent")
    return agent


class Found(NamedTuple):
    """A :class:`~plunder.core.figures.Pair` found: the row's agent, the column's, and their value."""

    value: float
    row: str
    col: str


def evaluated(value: Value, rows: Sequence[Row], agents: list[str], agent: str | None
              ) -> float | str | Share | Found | None:
    """``value`` in ``rows`` (for ``agent``, or over every game); ``None`` when it cannot be had:
    a series no game gave a value, a pair among fewer than two agents."""
    if isinstance(value, Spread):
        values = gathered(value.series, rows, agent)
        return quantiles(values) if values else None
    if isinstance(value, Mean):
        return _number(value, rows, agent)
    if isinstance(value, Sum):
        parts = [_number(part, rows, agent) for part in value.parts]
        return None if None in parts else sum(p for p in parts if p is not None)
    if isinstance(value, (Flagged, AtLeast)):
        share = _fraction(value, rows, agent)
        return share if share.n else None
    matrix = pair_table(rows, agents, value.table.prefix)
    if matrix is None:
        return None
    pairs = sorted(Found(matrix[i][j], a, b) for i, a in enumerate(agents) for j, b in enumerate(agents) if i < j)
    if not pairs:
        return None
    return pairs[-1] if value.most else pairs[0]


def said(sentence: Sentence, rows: Sequence[Row], agents: list[str]) -> list[str]:
    """``sentence`` filled in: once, or once per agent; left out where a value cannot be had."""
    out = []
    for agent in agents if sentence.per_agent else [None]:
        values = {k: evaluated(v, rows, agents, agent) for k, v in sentence.values.items()}
        if any(v is None for v in values.values()):
            continue
        shown = {k: v.words() if isinstance(v, Share) else v for k, v in values.items()}
        out.append(sentence.text.format(**shown, **({"agent": agent} if agent is not None else {})))
    return out


def drawn(chart: Chart, rows: Sequence[Row], agents: list[str]) -> bytes | None:
    """``chart`` drawn from ``rows`` as PNG bytes, of what the games gave: a histogram's empty
    series, a bar whose mean some group lacks and a share of nothing are left out, and a
    chart left with nothing to draw is not drawn (``None``)."""
    if isinstance(chart, Histogram):
        by_agent = chart.by_agent
        series: dict[str, Sequence[float]] = (
            {a: gathered(by_agent, rows, a) for a in agents} if by_agent is not None
            else {label: gathered(s, rows, None) for label, s in chart.series.items()})
        if not any(series.values()):
            return None
        return plots.histogram(series, chart.title, chart.xlabel)
    if isinstance(chart, Bars):
        means = ({a: {label: _number(v, rows, a) for label, v in chart.values.items()} for a in agents}
                 if chart.by == "agent" else
                 {label: {"all games": _number(v, rows, None)} for label, v in chart.values.items()})
        groups = {x: {label: m for label, m in bars.items() if m is not None} for x, bars in means.items()}
        if chart.by == "agent":  # a bar some agent lacks is left out for every agent, so the groups compare
            measured = set.intersection(*(set(bars) for bars in groups.values())) if groups else set()
            groups = {x: {label: m for label, m in bars.items() if label in measured} for x, bars in groups.items()}
        groups = {x: bars for x, bars in groups.items() if bars}
        if not groups:
            return None
        return plots.bars(groups, chart.title, chart.ylabel, stacked=chart.stacked)
    if isinstance(chart, Shares):
        found = {label: {a: _fraction(v, rows, a) for a in agents} for label, v in chart.values.items()}
        if not any(share.n for shares in found.values() for share in shares.values()):
            return None
        return plots.shares(found, chart.title, chart.ylabel)
    matrix = pair_table(rows, agents, chart.table.prefix)
    if matrix is None:
        return None
    return plots.heatmap(agents, agents, matrix, chart.title, chart.row_label, chart.col_label, fmt=chart.fmt)


def _number(value: Mean, rows: Sequence[Row], agent: str | None) -> float | None:
    """A mean, scaled; ``None`` when no game gave the series a value."""
    found = mean(gathered(value.series, rows, agent))
    return None if found is None else value.scale * found


def _fraction(value: Fraction, rows: Sequence[Row], agent: str | None) -> Share:
    """A share with its interval: of values set (``Flagged``: each 0 or 1) or at a level or above."""
    values = gathered(value.series, rows, agent)
    if isinstance(value, Flagged):
        return Share(int(sum(values)), len(values))
    return at_least(values, value.level)


def pair_table(rows: Sequence[Row], agents: list[str], prefix: str) -> list[list[float]] | None:
    """Mean count a game of each agent (row) with each agent (column), from the seat statistics
    ``PREFIXj`` (:class:`~plunder.core.figures.PairTable`); ``None`` when no game gave them.

    An agent seated twice meets its own kind too; that count is per seat of the row agent.
    """
    total = {a: {b: 0.0 for b in agents} for a in agents}
    seated = {a: 0 for a in agents}
    given = False
    for r in rows:
        for i, a in enumerate(r.seats):
            seated[a] += 1
            for j, b in enumerate(r.seats):
                row = r.stats.get(f"{prefix}{j + 1}")
                if isinstance(row, list):
                    total[a][b] += float(row[i])
                    given = True
    if not given:
        return None
    return [[total[a][b] / seated[a] if seated[a] else 0.0 for b in agents] for a in agents]


def write(report: Report, out: str | Path) -> Path:
    """Write ``report.html`` (plots embedded as base64 PNG) and each plot as a PNG file into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(report.title)}</title>"
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto}figure{display:inline-block;"
             "margin:0.5em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:0.2em 0.6em}</style></head><body>", f"<h1>{html.escape(report.title)}</h1><h2>Summary</h2><ul>"]
    parts += [f"<li>{html.escape(s)}</li>" for s in report.summary]
    parts.append("</ul>")
    for t in report.tables:
        parts.append(f"<h2>{html.escape(t.title)}</h2><table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in t.head)
                     + "</tr>" + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                                         for row in t.rows) + "</table>")
    parts.append("<h2>Plots</h2>")
    for p in report.plots:
        (folder / f"{p.name}.png").write_bytes(p.png)
        data = base64.b64encode(p.png).decode("ascii")
        parts.append(f"<figure><img alt='{html.escape(p.caption)}' src='data:image/png;base64,{data}'>"
                     f"<figcaption>{html.escape(p.caption)}</figcaption></figure>")
    if report.notes:
        parts.append("<h2>Not measured</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in report.notes)
                     + "</ul>")
    if report.made:
        parts.append("<h2>How it was made</h2><dl>" + "".join(
            f"<dt>{html.escape(k)}</dt><dd><code>{html.escape(v)}</code></dd>" for k, v in report.made.items())
            + "</dl>")
    parts.append("</body></html>")
    page = folder / "report.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page
