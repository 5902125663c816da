"""``plunder report``: a self-contained HTML page of plots and a plain-words summary from stored games."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from . import plots
from .measures import Share, agents_of, game_stat, mean, pct, reaching, scores_of, seat_stat, ties, wins
from .store import Row


@dataclass(frozen=True)
class Plot:
    """One plot: file stem, caption and PNG bytes."""

    name: str
    caption: str
    png: bytes


@dataclass
class Report:
    """What a report says: a title, sentences in plain words, plots, and notes on what is missing."""

    title: str
    summary: list[str] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: The per-game statistic that measures a game's length, and its unit, where the game's statistics have one.
LENGTH = {"profiteer": ("passes", "passes"), "pirates": ("turns", "turns"), "crossroads": ("rounds", "rounds"),
          "pillage": ("turns", "turns"), "hubs": ("segments", "segments drawn")}
#: Pillage's kinds of box content, as its statistics name them (``boxes_KIND``)
BOX_KINDS = ("doubloons", "commodity", "modifier")


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
    for a in agents:
        w = wins(rows, a)
        lo, hi = w.interval
        report.summary.append(f"With the {a} agent, {pct(w.p)} of {'games' if players == 1 else 'seats'} are won "
                              f"(95% interval {pct(lo)} to {pct(hi)}, n={w.n}).")
    report.plots.append(Plot("scores", "Score distribution per agent", plots.histogram(
        {a: scores_of(rows, a) for a in agents}, "Score distribution", "score")))
    per_seat = {f"seat {s + 1}": {a: wins(rows, a, s) for a in agents} for s in range(players)}
    report.plots.append(Plot("win_rate", "Win rate per agent and seat, with 95% intervals", plots.shares(
        per_seat, "Win rate per agent and seat", "win rate")))
    if players > 1:
        first = wins(rows, seat=0)
        lo, hi = first.interval
        report.summary.append(
            f"The first seat wins {pct(first.p)} of games (95% interval {pct(lo)} to {pct(hi)}) against an even "
            f"share of {pct(1 / players)}; {ties(rows).words()} of games are ties.")
        report.plots.append(Plot("first_seat", "Win rate by seat over every agent (first-seat advantage)",
                                 plots.shares({f"seat {s + 1}": {"all agents": wins(rows, seat=s)}
                                               for s in range(players)},
                                              "First-seat advantage", "win rate", even=1 / players)))
    if game_id in LENGTH:
        key, unit = LENGTH[game_id]
        lengths = game_stat(rows, key)
        if lengths:
            ordered = sorted(lengths)
            report.summary.append(f"Games last a median {ordered[len(ordered) // 2]:g} {unit} "
                                  f"(from {ordered[0]:g} to {ordered[-1]:g}).")
            report.plots.append(Plot("length", f"Game length ({unit})", plots.histogram(
                {"all games": lengths}, "Game length", unit)))
    else:
        report.notes.append(f"Game length: {game_id}'s statistics have no length measure; not plotted.")
    OWN.get(game_id, lambda *_: None)(report, rows, agents)
    return report


def _profiteer(report: Report, rows: Sequence[Row], agents: list[str]) -> None:
    levels = (24, 26, 40)
    for a in agents:
        parts = [f"{reaching(rows, a, lv).words()} reach {lv} cards" for lv in levels]
        report.summary.append(f"With the {a} agent, " + ", ".join(parts) + " (cards held at the end).")
    report.plots.append(Plot("reaching", "Share of games reaching 24, 26 and 40 cards (the designer's counts)",
                             plots.shares({f"≥ {lv} cards": {a: reaching(rows, a, lv) for a in agents}
                                           for lv in levels}, "Cards held at the end", "share of games")))
    report.plots.append(Plot("endings", "How games end (share of games)", plots.bars(
        {k.removeprefix("end_"): {"all games": mean(game_stat(rows, k))}
         for k in ("end_unequal", "end_declined", "end_empty_side", "end_max_rounds")},
        "How games end", "share of games")))


def _pirates(report: Report, rows: Sequence[Row], agents: list[str]) -> None:
    drowned = game_stat(rows, "drowned")
    turns = game_stat(rows, "turns")
    buried = game_stat(rows, "buried")
    sunk = Share(int(sum(drowned)), len(drowned))
    report.summary.append(f"The ship drowns in {sunk.words()} of games; the others retire. Booty buried: mean "
                          f"{mean(buried):.1f}; score: mean {mean([r.scores[0] for r in rows]):.1f}.")
    report.plots.append(Plot("end_turn", "Turn of drowning or retirement", plots.histogram(
        {"drowned": [t for t, d in zip(turns, drowned) if d], "retired": [t for t, d in zip(turns, drowned) if not d]},
        "Turn the voyage ends", "turn")))
    report.plots.append(Plot("buried", "Booty buried", plots.histogram(
        {a: [float(r.stats["buried"]) for r in rows if r.seats[0] == a] for a in agents}, "Booty buried", "booty")))


def _pillage(report: Report, rows: Sequence[Row], agents: list[str]) -> None:
    margins = [r.scores[0] - r.scores[1] for r in rows]
    report.summary.append(f"The first seat's margin (its score less the second's) averages {mean(margins):+.1f}.")
    report.plots.append(Plot("margin", "Score margin of the first seat", plots.histogram(
        {"seat 1 − seat 2": margins}, "Margin", "score difference")))
    kinds = {a: {k: mean(seat_stat(rows, f"boxes_{k}", a)) for k in BOX_KINDS} for a in agents}
    for a, by_kind in kinds.items():
        report.summary.append(f"The {a} agent captures {sum(by_kind.values()):.1f} boxes a game: "
                              + ", ".join(f"{v:.1f} {k}" for k, v in by_kind.items()) + ".")
    report.plots.append(Plot("boxes", "Boxes captured per agent by kind of content (mean a game)", plots.bars(
        kinds, "Boxes captured by kind", "boxes", stacked=True)))


def _hubs(report: Report, rows: Sequence[Row], agents: list[str]) -> None:
    groups = {a: {"on offense": mean(seat_stat(rows, "offense_points_per_round", a)),
                  "conceded on defense": mean(seat_stat(rows, "conceded_per_defense_round", a))} for a in agents}
    for a, g in groups.items():
        report.summary.append(f"The {a} agent scores {g['on offense']:.1f} points a round on offense and concedes "
                              f"{g['conceded on defense']:.1f} on defense.")
    report.plots.append(Plot("roles", "Points per round by role", plots.bars(groups, "Points per round by role",
                                                                              "points per round")))


def _crossroads(report: Report, rows: Sequence[Row], agents: list[str]) -> None:
    groups = {a: {"income": mean(seat_stat(rows, "income", a)), "trade gold": mean(seat_stat(rows, "trade_gold", a)),
                  "fees paid": -mean(seat_stat(rows, "fees", a))} for a in agents}
    for a, g in groups.items():
        report.summary.append(f"The {a} agent gains {g['income']:.1f} gold from income, {g['trade gold']:.1f} from "
                              f"trades and pays {-g['fees paid']:.1f} in fees, with "
                              f"{mean(seat_stat(rows, 'trades', a)):.1f} trades a game.")
    report.plots.append(Plot("gold", "Gold by source per agent (mean a game)", plots.bars(
        groups, "Gold by source", "gold", stacked=True)))
    report.plots.append(Plot("trades", "Trades, offers and refusals per agent (mean a game)", plots.bars(
        {a: {k: mean(seat_stat(rows, k, a)) for k in ("offers", "trades", "refused")} for a in agents},
        "Trading", "per game")))
    matrix = partners(rows, agents)
    pairs = sorted(((matrix[i][j], a, b) for i, a in enumerate(agents) for j, b in enumerate(agents) if i < j),
                   reverse=True)
    if pairs:
        (most, a1, b1), (least, a2, b2) = pairs[0], pairs[-1]
        report.summary.append(f"Who trades with whom: the {a1} agent trades most with the {b1} agent ({most:.1f} "
                              f"times a game), the {a2} agent least with the {b2} agent ({least:.1f}).")
    report.plots.append(Plot("partners", "Who trades with whom: trades a game between agents", plots.heatmap(
        agents, agents, matrix, "Trades a game with each agent", "agent", "partner", fmt="{:.2f}")))


def partners(rows: Sequence[Row], agents: list[str]) -> list[list[float]]:
    """Mean trades a game of each agent (row) with each agent (column), from ``trades_with_J``.

    An agent seated twice trades with its own kind too; that count is per seat of the row agent.
    """
    total = {a: {b: 0.0 for b in agents} for a in agents}
    seated = {a: 0 for a in agents}
    for r in rows:
        for i, a in enumerate(r.seats):
            seated[a] += 1
            for j, b in enumerate(r.seats):
                row = r.stats.get(f"trades_with_{j + 1}")
                if isinstance(row, list):
                    total[a][b] += float(row[i])
    return [[total[a][b] / seated[a] if seated[a] else 0.0 for b in agents] for a in agents]


OWN: dict[str, Callable[[Report, Sequence[Row], list[str]], None]] = {
    "profiteer": _profiteer, "pirates": _pirates, "pillage": _pillage, "hubs": _hubs, "crossroads": _crossroads}


def write(report: Report, out: str | Path) -> Path:
    """Write ``report.html`` (plots embedded as base64 PNG) and each plot as a PNG file into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(report.title)}</title>"
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto}figure{display:inline-block;"
             "margin:0.5em}</style></head><body>", f"<h1>{html.escape(report.title)}</h1><h2>Summary</h2><ul>"]
    parts += [f"<li>{html.escape(s)}</li>" for s in report.summary]
    parts.append("</ul><h2>Plots</h2>")
    for p in report.plots:
        (folder / f"{p.name}.png").write_bytes(p.png)
        data = base64.b64encode(p.png).decode("ascii")
        parts.append(f"<figure><img alt='{html.escape(p.caption)}' src='data:image/png;base64,{data}'>"
                     f"<figcaption>{html.escape(p.caption)}</figcaption></figure>")
    if report.notes:
        parts.append("<h2>Not measured</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in report.notes)
                     + "</ul>")
    parts.append("</body></html>")
    page = folder / "report.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page
