"""What a game wants its lab report to say, described as data (``GameEntry.study.figures``).

A report (``plunder report``, :mod:`plunder.lab.report`) shows every game's win rates, scores
and seats by itself; a game adds its own figures here, read from the statistics its observer
gives each game (``GameEntry.study.observer``). Nothing here computes: a game declares *which* numbers it wants (a
:data:`Series` of values gathered from the stored games, turned into one number or share by a
:data:`Value`), the sentences that state them and the charts that draw them, and the lab
evaluates and draws whatever a game offers. So a game, which sits below the lab, needs no plotting.

Two kinds of statistic come from the observer: a *game* statistic is one number a game
(``turns``), a *seat* statistic a list with one number per seat (``income``). A series is
gathered either over every game, or *for an agent*: a seat statistic or the scores from that
agent's seats, a game statistic from the games whose first seat the agent holds (in a
solitaire: its games).

A sentence is a :meth:`str.format` template whose fields name its values: a number takes a
format spec (``{buried:.1f}``), a :class:`Fraction` reads as its share with the half-width of
its 95% interval (``34% (±9.7%)``), a :class:`Pair` gives ``{most.row}``, ``{most.col}`` and
``{most.value}``. A sentence ``per_agent`` is said once for each agent (``{agent}`` names it);
one whose value cannot be had (a pair among fewer than two agents) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping, Sequence, Union


@dataclass(frozen=True)
class Length:
    """The game statistic that measures a game's length, and its unit in words
    (``Length("segments", "segments drawn")``): the report's length sentence and histogram,
    ``plunder sweep``'s ``--rank short`` and its median length column."""

    #: the game statistic
    stat: str
    #: its unit, as the report words it
    unit: str


# --- series: lists of numbers gathered from the stored games ---------------------------------

@dataclass(frozen=True)
class GameStat:
    """A game statistic, one value a game; ``when`` keeps only the games whose game statistic
    ``when`` is true (``is_set``) or false (not ``is_set``)."""

    stat: str
    when: str = ""
    is_set: bool = True


@dataclass(frozen=True)
class SeatStat:
    """A seat statistic from an agent's seats (needs an agent)."""

    stat: str


@dataclass(frozen=True)
class Scores:
    """The scores of an agent's seats (needs an agent)."""


@dataclass(frozen=True)
class SeatScore:
    """The score of seat ``seat`` (0 the first), one a game."""

    seat: int = 0


@dataclass(frozen=True)
class Margin:
    """The score of seat ``seat`` less that of seat ``other``, one a game."""

    seat: int = 0
    other: int = 1


#: a list of numbers gathered from the stored games
Series = Union[GameStat, SeatStat, Scores, SeatScore, Margin]


# --- values: one number, share or pair made of series ----------------------------------------

@dataclass(frozen=True)
class Mean:
    """The mean of a series (0 for none), times ``scale`` (-1 draws what is paid below the axis)."""

    series: Series
    scale: float = 1.0


@dataclass(frozen=True)
class Sum:
    """The sum of several means, in their order."""

    parts: Sequence[Mean]


@dataclass(frozen=True)
class Flagged:
    """The share of a series' values that are set: hits are their sum (each 0 or 1)."""

    series: Series


@dataclass(frozen=True)
class AtLeast:
    """The share of a series' values at ``level`` or above."""

    series: Series
    level: float


@dataclass(frozen=True)
class Spread:
    """How a series' values spread: its median and quantiles, in words (``median 120 (quartiles
    40 to 380; 10% to 90% of games: 12 to 1200)``); for scores whose tail a mean would hide."""
    series: Series


#: a share with its 95% interval
Fraction = Union[Flagged, AtLeast]


@dataclass(frozen=True)
class PairTable:
    """How often each agent (row) did something with each agent (column), a mean per seat of
    the row's agent, from the seat statistics ``PREFIX1``, ``PREFIX2``, ...: ``PREFIXj``'s entry
    for seat ``i`` counts what seat ``i`` did with seat ``j`` (an agent seated twice meets its
    own kind too)."""

    prefix: str


@dataclass(frozen=True)
class Pair:
    """The pair of two different agents with the most (``most``) or the least of a
    :class:`PairTable`, ties broken by the agents' names; it reads as ``{x.row}``, ``{x.col}``
    and ``{x.value}`` in a sentence."""

    table: PairTable
    most: bool = True


#: what a sentence states or a chart draws
Value = Union[Mean, Sum, Flagged, AtLeast, Pair, Spread]


@dataclass(frozen=True)
class Sentence:
    """One sentence of the summary: ``text`` formatted with ``values`` (and ``{agent}`` when
    ``per_agent``, said once for each agent in the order they are first seated)."""

    text: str
    values: Mapping[str, Value] = field(default_factory=dict)
    per_agent: bool = False


# --- charts ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Captioned:
    """What every chart has: a file stem, a caption under it and a title on it."""

    #: the PNG's file stem, unique in the report
    name: str
    caption: str
    title: str


@dataclass(frozen=True)
class Histogram(Captioned):
    """Overlaid histograms of ``series`` (label -> series), or of ``by_agent`` gathered for each
    agent (labelled by the agent) when given."""

    xlabel: str
    series: Mapping[str, Series] = field(default_factory=dict)
    by_agent: Series | None = None


@dataclass(frozen=True)
class Bars(Captioned):
    """Bars of ``values`` (label -> mean). ``by="agent"``: a group of
    bars per agent, one bar per value (each gathered for the agent); ``by="value"``: a group per
    value, one bar for every game (the values gather no agent). ``stacked`` piles a group's bars."""

    ylabel: str
    values: Mapping[str, Mean]
    by: Literal["agent", "value"] = "agent"
    stacked: bool = False


@dataclass(frozen=True)
class Shares(Captioned):
    """Shares with their 95% intervals: a group per label of ``values``, a bar per agent."""

    ylabel: str
    values: Mapping[str, Fraction]


@dataclass(frozen=True)
class Heatmap(Captioned):
    """A :class:`PairTable` drawn agent by agent, each cell written with ``fmt``."""

    table: PairTable
    row_label: str = "agent"
    col_label: str = "partner"
    fmt: str = "{:.2f}"


#: a chart a report draws
Chart = Union[Histogram, Bars, Shares, Heatmap]


@dataclass(frozen=True)
class ReportFigures:
    """What a game adds to its lab report: its length measure, its sentences in order (after
    the ones every game gets) and its charts in order."""

    length: Length | None = None
    sentences: Sequence[Sentence] = ()
    charts: Sequence[Chart] = ()
    #: what the report calls a win when the game's own text names none (its returns follow a
    #: ruling), worded to follow "reach": Pirates' "the goal score (a ruling, PR-14; ...)"
    win: str = ""
