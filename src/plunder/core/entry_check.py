"""What is wrong with a game's entry, seen before any game of it is played.

The registry asks :func:`entry_problems` of every entry it loads and leaves out one with
problems, saying why in one line (``plunder list``, every command's warning); the conformance
check (:func:`plunder.core.conformance.check_game`) reports the same problems. So a game whose
declaration does not fit its rules, or whose report figures ask for what cannot be measured,
is refused in the first second rather than after its games are played.

Checked: the capability groups are of their types; the declared seat range fits the rules (the
default game's seats are in it, every preset's too, and a range of several counts is chosen by
a ``players`` parameter that gives each count); the analysis' thresholds are ordered, its playout
bias not below 0, and its exact solver is offered only where the declaration allows one; the
report figures' sentences name only values they give, ask for an agent's seats only where an
agent is given, name seats every game has, and draw charts of names of their own; and a figure
read from the observer's statistics is asked for only of a game that has an observer.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Sequence

from .capabilities import Analysis, Client, Learning, Presentation, Speed, Strength, Study
from .declaration import PLAYERS_PARAM, Declaration
from .figures import (AtLeast, Bars, Flagged, GameStat, Heatmap, Histogram, Margin, Mean, Pair, ReportFigures,
                      Scores, SeatScore, SeatStat, Sentence, Series, Shares, Spread, Sum, Value)
from .game import Game

if TYPE_CHECKING:
    from .registry import GameEntry

#: the plots every report draws, whose file names a game's charts may not take
COMMON_PLOTS = ("scores", "win_rate", "first_seat", "length")
#: what a chart's name may be: it names the chart's PNG file
CHART_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
#: the groups an entry holds, each with its class (``analysis`` may also be ``None``)
GROUPS: dict[str, type] = {"declaration": Declaration, "presentation": Presentation, "strength": Strength,
                           "speed": Speed, "client": Client, "study": Study, "learning": Learning}


def entry_problems(entry: GameEntry[Any, Any]) -> list[str]:
    """Every problem of ``entry`` that shows without playing a game, each a short clause; none
    for an entry every layer can use as it declares itself."""
    wrong = [f"its {name} is a {type(getattr(entry, name)).__name__}, not a {cls.__name__}"
             for name, cls in GROUPS.items() if not isinstance(getattr(entry, name), cls)]
    if entry.analysis is not None and not isinstance(entry.analysis, Analysis):
        wrong.append(f"its analysis is a {type(entry.analysis).__name__}, not an Analysis")
    if wrong:
        return wrong  # the checks below read the groups
    declared = entry.declaration
    return [*seat_problems(entry.game_class, declared), *declaration_problems(declared),
            *analysis_problems(entry.analysis, declared), *study_problems(entry.study, declared),
            *hook_problems(entry)]


def seat_problems(cls: type[Game[Any]], declared: Declaration) -> list[str]:
    """Whether the rules give the seats ``declared``: the default game's count and every
    preset's lie in the range, and a range of several counts is chosen by the ``players``
    parameter, each of whose counts loads and gives that many seats."""
    seats = declared.seats_text()
    try:
        default = cls.load().num_players
    except Exception as exc:  # a game may fail in any way; the registry reports it in a line
        return [f"its default parameters do not load ({_line(exc)})"]
    wrong = []
    if default not in declared.seat_counts:
        wrong.append(f"its default game has {default} seats, outside the {seats} it declares")
    outside = []
    for preset in cls.presets:
        try:
            count = cls.load(preset).num_players
        except Exception as exc:
            wrong.append(f"its preset {preset!r} does not load ({_line(exc)})")
            continue
        if count not in declared.seat_counts:
            outside.append(f"{preset!r} has {count} seats")
    if outside:
        wrong.append(f"its preset{'s' * (len(outside) > 1)} {', '.join(outside)}, outside the {seats} it declares")
    if declared.min_seats == declared.max_seats:
        return wrong
    if not any(spec.name == PLAYERS_PARAM for spec in cls.param_specs):
        return [*wrong, f"it declares {seats} but has no {PLAYERS_PARAM!r} parameter to choose them"]
    for count in declared.seat_counts:
        try:
            got = cls.load(**{PLAYERS_PARAM: str(count)}).num_players
        except Exception as exc:
            wrong.append(f"it declares {seats} but {PLAYERS_PARAM}={count} does not load ({_line(exc)})")
            continue
        if got != count:
            wrong.append(f"{PLAYERS_PARAM}={count} gives {got} seats")
    return wrong


def declaration_problems(declared: Declaration) -> list[str]:
    """What the declaration says that no game can be: a solitaire's one return cannot sum to zero."""
    if declared.solitaire and declared.zero_sum:
        return ["it declares a solitaire zero-sum: one seat's return sums to zero only if it is always 0"]
    return []


def analysis_problems(analysis: Analysis[Any] | None, declared: Declaration) -> list[str]:
    """Whether the analysis' marks are ordered, its budgets positive, its playout bias not below 0,
    and its exact solver (which values the mover's margin over one rival) offered only by a
    two-seat zero-sum game."""
    if analysis is None:
        return []
    wrong = []
    if not 0 < analysis.inaccuracy <= analysis.mistake <= analysis.blunder:
        wrong.append(f"its analysis marks must grow from above 0 (inaccuracy {analysis.inaccuracy}, mistake "
                     f"{analysis.mistake}, blunder {analysis.blunder})")
    if analysis.sims < 1 or analysis.candidates < 1 or analysis.depth < 0 or analysis.exact_seconds <= 0:
        wrong.append("its analysis needs at least 1 playout and 1 candidate, a depth of 0 or more and time for "
                     "an exact solve")
    if analysis.screen < 0:
        wrong.append(f"its analysis screen must be 0 or more rollouts, not {analysis.screen}")
    if not analysis.stretch_seconds > 0:
        wrong.append(f"its analysis stretch needs time for a solve, not {analysis.stretch_seconds} s")
    if not analysis.bias >= 0:
        wrong.append(f"its analysis' playout bias must be 0 or more, not {analysis.bias}")
    if ((analysis.exact is not None or analysis.stretch is not None)
            and not (declared.zero_sum and declared.min_seats == declared.max_seats == 2)):
        wrong.append("its analysis has an exact solver, which needs a two-seat zero-sum game, and it declares "
                     f"{declared.seats_text()}{'' if declared.zero_sum else ', not zero-sum'}")
    return wrong


class _Use(NamedTuple):
    """A series as a figure uses it: where (for a reason), and whether an agent is given there."""

    where: str
    series: Series
    per_agent: bool


def study_problems(study: Study[Any], declared: Declaration) -> list[str]:
    """What the report figures ask that cannot be measured or said: a statistic of a game without
    an observer, an agent's seats where no agent is given, a seat some game lacks, a sentence
    naming a value it does not give, a chart named as another."""
    figures = study.figures
    if not isinstance(figures, ReportFigures):
        return [f"its study's figures are a {type(figures).__name__}, not ReportFigures"]
    wrong = []
    stats = sorted({name for name in _statistics(figures) if name})
    if stats and study.observer is None:
        wrong.append(f"its report figures read the statistics {', '.join(stats)}, and it has no observer to give them")
    for use in _uses(figures):
        if isinstance(use.series, (SeatStat, Scores)) and not use.per_agent:
            wrong.append(f"{use.where} reads an agent's seats ({type(use.series).__name__}) where no agent is given")
        seats = [use.series.seat] + ([use.series.other] if isinstance(use.series, Margin) else []) \
            if isinstance(use.series, (SeatScore, Margin)) else []
        if any(not 0 <= s < declared.min_seats for s in seats):
            wrong.append(f"{use.where} reads seat {max(seats) + 1}, and a game may have only {declared.min_seats}")
    for sentence in figures.sentences:
        wrong.extend(_sentence_problems(sentence))
    names = [chart.name for chart in figures.charts]
    for name in dict.fromkeys(names):
        if not isinstance(name, str) or not CHART_NAME.fullmatch(name):
            wrong.append(f"chart name {str(name)[:40]!r} is not a file name (letters, digits, _ and -)")
        elif name in COMMON_PLOTS:
            wrong.append(f"chart name {name!r} is taken by a plot every report draws")
        elif names.count(name) > 1:
            wrong.append(f"chart name {name!r} is given to {names.count(name)} charts")
    return wrong


def _statistics(figures: ReportFigures) -> Iterator[str]:
    """The observer's statistics ``figures`` read (a pair table's by its prefix)."""
    if figures.length is not None:
        yield figures.length.stat
    for use in _uses(figures):
        if isinstance(use.series, (GameStat, SeatStat)):
            yield use.series.stat
        if isinstance(use.series, GameStat):
            yield use.series.when
    tables = [v.table for s in figures.sentences for v in s.values.values() if isinstance(v, Pair)]
    tables += [c.table for c in figures.charts if isinstance(c, Heatmap)]
    yield from (f"{t.prefix}N" for t in tables)


def _uses(figures: ReportFigures) -> Iterator[_Use]:
    """Every series ``figures`` gather, with where and whether for an agent."""
    for number, sentence in enumerate(figures.sentences, 1):
        for key, value in sentence.values.items():
            for series in _series(value):
                yield _Use(f"sentence {number}'s {{{key}}}", series, sentence.per_agent)
    for chart in figures.charts:
        where = f"chart {chart.name!r}"
        if isinstance(chart, Histogram):
            yield from (_Use(where, s, False) for s in chart.series.values())
            if chart.by_agent is not None:
                yield _Use(where, chart.by_agent, True)
        elif isinstance(chart, Bars):
            for value in chart.values.values():
                yield from (_Use(where, s, chart.by == "agent") for s in _series(value))
        elif isinstance(chart, Shares):
            for fraction in chart.values.values():
                yield from (_Use(where, s, True) for s in _series(fraction))


def _series(value: Value) -> Sequence[Series]:
    """The series ``value`` is made of (a pair table's are no series: it reads its own statistics)."""
    if isinstance(value, Sum):
        return [part.series for part in value.parts]
    if isinstance(value, (Mean, Flagged, AtLeast, Spread)):
        return [value.series]
    return []


def _sentence_problems(sentence: Sentence) -> list[str]:
    """Whether ``sentence`` formats with values of the kinds it gives: a number for a mean or a
    sum, words for a share or a spread, a pair's fields for a pair, ``{agent}`` when per agent."""
    trial: dict[str, object] = {"agent": "random"} if sentence.per_agent else {}
    for key, value in sentence.values.items():
        if isinstance(value, (Mean, Sum)):
            trial[key] = 1.0
        elif isinstance(value, Pair):
            trial[key] = SimpleNamespace(value=1.0, row="random", col="greedy")  # a pair's fields
        else:
            trial[key] = "50% (±5%)"
    try:
        sentence.text.format(**trial)
    except (KeyError, AttributeError, IndexError, ValueError) as exc:
        return [f"sentence {sentence.text[:40]!r}... does not format with the values it gives ({_line(exc)})"]
    return []


def hook_problems(entry: GameEntry[Any, Any]) -> list[str]:
    """Whether the study's, learning's and solver's hooks, where given, can be called, and a
    null-window test (``Strength.window``) comes with the solver whose values it bounds."""
    hooks = {"study.observer": entry.study.observer, "study.plausibility": entry.study.plausibility,
             "learning.observation": entry.learning.observation, "learning.batched": entry.learning.batched,
             "strength.solve": entry.strength.solve, "strength.window": entry.strength.window}
    wrong = [f"its {name} is a {type(hook).__name__}, not a function"
             for name, hook in hooks.items() if hook is not None and not callable(hook)]
    if entry.strength.window is not None and entry.strength.solve is None:
        wrong.append("its strength has a null-window test (window) but no exact solver (solve) whose values it bounds")
    return wrong


def _line(exc: BaseException) -> str:
    """``exc`` in a short line."""
    text = f"{type(exc).__name__}: " + " ".join(str(exc).split())
    return text if len(text) <= 120 else text[:117] + "..."
