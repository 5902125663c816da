"""Hubs: the dots-and-segments offense/defense game (seed 002, HB-1 .. HB-8). Pure rules.

A match is an even number of rounds (HB-6). Each round starts on a fresh sheet
(HB-7): the players alternately place dots on lattice points, defense first (HB-1),
then alternately join pairs of dots with segments, defense first (HB-3). Every
segment scores for the offensive player the segments already at its two dots (HB-4).
The round ends when every dot has two segments or none can be drawn (HB-5).

Actions are ints:

* ``0 .. W*H-1`` -- place a dot at ``x = a % W, y = a // W``; text ``dot 12,30``
* ``W*H + i*D + j`` (``i < j < D``) -- join dots ``i`` and ``j``; text ``seg c-k``
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ...core.errors import ParameterError
from ...core.game import TERMINAL, Action, Game, State
from ...core.params import Param
from .geometry import Point, contact, passes_through
from .notation import MAX_DOTS, dot_text, label, label_index, parse_dot, parse_seg, seg_text
from .paper import Paper, paper_for

#: largest sheet side; keeps every cross product far inside int64 (geometry.py)
MAX_SIDE = 1000


def _parse_side(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= MAX_SIDE:
        raise ValueError(f"{value} is outside 2..{MAX_SIDE}")
    return value


def _parse_even(name: str, low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
        if value < low or value > high:
            raise ValueError(f"{value} is outside {low}..{high}")
        if value % 2:
            raise ValueError(f"{name} must be even, got {value}")
        return value

    return parse


@dataclass(frozen=True)
class RoundResult:
    """What a finished round left behind (for the picture and for ``stats``)."""

    offense: int
    points: int
    segments: int
    #: True when the round ended because no segment could be drawn with some dot under two (HB-5)
    stalled: bool
    busiest: int


class HubsGame(Game):
    """Hubs for two players on a W x H integer lattice."""

    id: ClassVar[str] = "hubs"
    title: ClassVar[str] = "Hubs (dots and segments, offense and defense)"
    param_specs: ClassVar[list[Param]] = [
        Param("width", "60", _parse_side, "lattice points across; x runs 0..width-1 (HB-1, HB-8)"),
        Param("height", "40", _parse_side, "lattice points up; y runs 0..height-1 (HB-1, HB-8)"),
        Param("dots", "24", _parse_even("dots", 2, MAX_DOTS - 1), "dots per round, even: half each (HB-1)"),
        Param("rounds", "2", _parse_even("rounds", 2, 100), "rounds in the match, even (HB-6)"),
    ]
    presets: ClassVar[dict[str, dict[str, str]]] = {
        "default": {},
        "small": {"width": "12", "height": "8", "dots": "8"},
        "tiny": {"width": "3", "height": "3", "dots": "6"},
        "long": {"width": "20", "height": "14", "dots": "12", "rounds": "4"},
        "sixty": {"width": "60", "height": "40", "dots": "60"},
    }

    def __init__(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(values, texts)
        self.width: int = values["width"]
        self.height: int = values["height"]
        self.dots: int = values["dots"]
        self.rounds: int = values["rounds"]
        if self.dots > self.width * self.height:
            raise ParameterError(
                f"hubs dots={self.dots} do not fit on a {self.width}x{self.height} lattice "
                f"of {self.width * self.height} points (HB-1)")
        self.seg_base = self.width * self.height

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    @property
    def max_game_length(self) -> int:
        """Per round: every dot, plus at most 3n-6 segments (a planar straight-line graph)."""
        return self.rounds * (self.dots + max(1, 3 * self.dots - 6))

    def new_initial_state(self) -> "HubsState":
        """Round 1, an empty sheet, the defense (Player 2, HB-6) to place the first dot."""
        return HubsState(game=self, round=0, dots=(), segs=(), degree=(), totals=(0, 0), points=0,
                         history=(), previous=None)

    def offense(self, round_index: int) -> int:
        """The seat on offense in a round: Player 1 first, then alternating (HB-6)."""
        return round_index % 2

    def point_action(self, x: int, y: int) -> int:
        """The action placing a dot at ``(x, y)``."""
        return y * self.width + x

    def pair_action(self, i: int, j: int) -> int:
        """The action joining dots ``i`` and ``j``."""
        lo, hi = min(i, j), max(i, j)
        return self.seg_base + lo * self.dots + hi

    def decode(self, action: Action) -> tuple[str, int, int]:
        """``("dot", x, y)`` or ``("seg", i, j)``; ``ValueError`` for a non-action."""
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise ValueError(f"{action!r} is not a hubs action")
        if action < self.seg_base:
            return "dot", action % self.width, action // self.width
        i, j = divmod(action - self.seg_base, self.dots)
        if i >= j or j >= self.dots:
            raise ValueError(f"{action!r} is not a hubs action")
        return "seg", i, j

    def action_to_text(self, state: State, action: Action) -> str:
        """``dot 12,30`` or ``seg c-k``."""
        kind, a, b = self.decode(action)
        return dot_text(a, b) if kind == "dot" else seg_text(a, b)

    def parse_action(self, state: State, text: str) -> int:
        """Read ``dot X,Y`` (also ``X,Y``) or ``seg P-Q`` (also ``P-Q``, either order)."""
        point = parse_dot(text)
        if point is not None:
            x, y = point
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise state.invalid(text, f"({x},{y}) is off the {self.width}x{self.height} lattice: "
                                          f"x runs 0..{self.width - 1}, y 0..{self.height - 1}")
            return self.point_action(x, y)
        ends = parse_seg(text)
        if ends is not None:
            try:
                i, j = (label_index(e) for e in ends)
            except ValueError as exc:
                raise state.invalid(text, str(exc)) from None
            if i == j:
                raise state.invalid(text, "a segment joins two different dots")
            if max(i, j) >= self.dots:
                raise state.invalid(text, f"a round has {self.dots} dots, labelled a..{label(self.dots - 1)}")
            return self.pair_action(i, j)
        raise state.invalid(text, "expected 'dot X,Y' or 'seg P-Q' (dot labels like a, k, ab)")


@dataclass(frozen=True)
class HubsState(State):
    """A Hubs position: the round, its dots and segments, and the match so far."""

    game: HubsGame = field(compare=False, repr=False)
    #: 0-based round; equals ``rounds`` once the match is over
    round: int
    #: this round's dots in placement order (their labels are a, b, c ...)
    dots: tuple[Point, ...]
    #: this round's segments in drawing order, each ``(i, j)`` with ``i < j``
    segs: tuple[tuple[int, int], ...]
    #: segments at each dot (empty during placement)
    degree: tuple[int, ...]
    #: match points per seat
    totals: tuple[int, int]
    #: offense points so far this round
    points: int
    history: tuple[RoundResult, ...]
    #: the last finished round's sheet, kept for the picture
    previous: tuple[tuple[Point, ...], tuple[tuple[int, int], ...]] | None
    #: legal pair ids (into ``paper.pairs``); derived from dots and segs, so not compared
    open: frozenset[int] = field(default=frozenset(), compare=False, repr=False)

    @property
    def paper(self) -> Paper:
        """The round's shared :class:`Paper` (only once every dot is placed)."""
        return paper_for(self.dots)

    @property
    def placing(self) -> bool:
        """True in the placement phase (HB-1)."""
        return len(self.dots) < self.game.dots

    @property
    def offense(self) -> int:
        """The seat on offense this round (HB-6)."""
        return self.game.offense(self.round)

    @property
    def current_player(self) -> int:
        """Defense moves first in each phase and the players alternate (HB-1, HB-3)."""
        if self.round >= self.game.rounds:
            return TERMINAL
        made = len(self.dots) if self.placing else len(self.segs)
        defense = 1 - self.offense
        return defense if made % 2 == 0 else 1 - defense

    def legal_actions(self) -> list[Action]:
        """Free lattice points while placing; else legal segments, best-scoring first (HB-4)."""
        cached = self.__dict__.get("_legal")
        if cached is None:
            cached = self._legal_actions()
            # A frozen dataclass: the memo goes in behind its back; it is derived data.
            object.__setattr__(self, "_legal", cached)
        return list(cached)

    def _legal_actions(self) -> list[Action]:
        if self.round >= self.game.rounds:
            return []
        g = self.game
        if self.placing:
            free: list[Action] = list(range(g.seg_base))
            for a in sorted((g.point_action(x, y) for x, y in self.dots), reverse=True):
                del free[a]
            return free
        paper = self.paper
        pairs, codes, deg, base = paper.pairs, paper.codes, self.degree, g.seg_base
        ordered = sorted((-(deg[pairs[k][0]] + deg[pairs[k][1]]), codes[k]) for k in self.open)
        return [base + code for _, code in ordered]

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is not allowed here (with the ruling), or ``None``."""
        g = self.game
        try:
            kind, a, b = g.decode(action)
        except ValueError as exc:
            return str(exc), "HB-1"
        if self.round >= g.rounds:
            return "the match is over", "HB-6"
        if kind == "dot":
            if not self.placing:
                return f"all {g.dots} dots are placed; the segment phase is on", "HB-3"
            if (a, b) in self.dots:
                return f"dot {label(self.dots.index((a, b)))} already sits on {a},{b}", "HB-1"
            return None
        if self.placing:
            return (f"segments come after all {g.dots} dots are placed "
                    f"({len(self.dots)} so far)"), "HB-3"
        k = self.paper.index.get((a, b))
        if k is not None and k in self.open:
            return None
        return self._blocked(a, b)

    def _blocked(self, i: int, j: int) -> tuple[str, str]:
        p, q = self.dots[i], self.dots[j]
        name = seg_text(i, j)[4:]
        if (i, j) in self.segs:
            return f"{name} is already drawn; a pair of dots is joined only once", "HB-2"
        for m, r in enumerate(self.dots):
            if m != i and m != j and passes_through(p, q, r):
                return f"{name} would pass through dot {label(m)}", "HB-2"
        for s, t in self.segs:
            how = contact(self.dots[s], self.dots[t], p, q)
            if how is not None:
                return f"{name} {how} {seg_text(s, t)[4:]}", "HB-2"
        raise AssertionError(f"{name} is refused but nothing blocks it")  # pragma: no cover

    def _apply(self, action: Action) -> "HubsState":
        g = self.game
        kind, a, b = g.decode(action)
        if kind == "dot":
            dots = self.dots + ((a, b),)
            if len(dots) < g.dots:
                return HubsState(g, self.round, dots, (), (), self.totals, 0, self.history, self.previous)
            start = HubsState(g, self.round, dots, (), (0,) * len(dots), self.totals, 0, self.history,
                              self.previous, frozenset(range(len(paper_for(dots).pairs))))
            return start._end_round() if not start.open else start
        paper = self.paper
        k = paper.index[(a, b)]
        gain = self.degree[a] + self.degree[b]
        degree = list(self.degree)
        degree[a] += 1
        degree[b] += 1
        totals = list(self.totals)
        totals[self.offense] += gain
        after = HubsState(g, self.round, self.dots, self.segs + ((a, b),), tuple(degree),
                          (totals[0], totals[1]), self.points + gain, self.history, self.previous,
                          self.open - paper.conflicts(k))
        if not after.open or min(degree) >= 2:
            return after._end_round()
        return after

    def _end_round(self) -> "HubsState":
        """HB-5: close the round and start the next on a fresh sheet (HB-7)."""
        result = RoundResult(self.offense, self.points, len(self.segs),
                             min(self.degree) < 2, max(self.degree))
        return HubsState(self.game, self.round + 1, (), (), (), self.totals, 0,
                         self.history + (result,), (self.dots, self.segs))

    def returns(self) -> list[float]:
        """+1 / -1 for the higher / lower total at the end, 0 for equal totals (HB-6)."""
        if self.round < self.game.rounds:
            return [0.0, 0.0]
        a, b = self.totals
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def scores(self) -> list[float]:
        """Match points per seat."""
        return [float(self.totals[0]), float(self.totals[1])]

    def summary(self) -> str:
        """One line: round, phase, mover and score."""
        g = self.game
        score = f"score {self.totals[0]}-{self.totals[1]}"
        if self.round >= g.rounds:
            return f"hubs after {g.rounds} rounds, {score}"
        phase = (f"placing dot {len(self.dots) + 1}/{g.dots}" if self.placing
                 else f"segment {len(self.segs) + 1}")
        return (f"hubs round {self.round + 1}/{g.rounds} ({g.seat_name(self.offense)} on offense), "
                f"{phase}, {g.seat_name(self.current_player)} to move, {score}")

    def __str__(self) -> str:
        from .picture import text_picture

        return text_picture(self)

    def stats(self) -> dict[str, float | list[float]]:
        """Offense points per round by seat, points conceded on defense, round shapes."""
        done = self.history
        if not done:
            return {}
        per_seat_off: list[list[int]] = [[], []]
        for r in done:
            per_seat_off[r.offense].append(r.points)

        def mean(xs: list[int]) -> float:
            return sum(xs) / len(xs) if xs else 0.0

        return {
            "offense_points_per_round": [mean(per_seat_off[0]), mean(per_seat_off[1])],
            "conceded_per_defense_round": [mean(per_seat_off[1]), mean(per_seat_off[0])],
            "segments_per_round": mean([r.segments for r in done]),
            "stalled_rounds": float(sum(r.stalled for r in done)),
            "busiest_dot": mean([r.busiest for r in done]),
        }
