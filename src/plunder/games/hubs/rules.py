"""Hubs: the dots-and-segments offense/defense game (seed 002, HB-1 .. HB-8). Pure rules.

A match is an even number of rounds (HB-6). Each round starts on a fresh sheet
(HB-7): the players alternately place dots on lattice points, defense first (HB-1),
then alternately join pairs of dots with segments, defense first (HB-3). Every
segment scores for the offensive player the segments already at its two dots (HB-4).
The round ends when every dot has two segments or none can be drawn (HB-5).

Actions are :class:`~.actions.Dot` (place) and :class:`~.actions.Segment` (join).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Callable, ClassVar, cast

import numpy as np

from ...core.errors import ParameterError
from ...core.game import TERMINAL, Game, State
from ...core.params import Param
from .actions import LABELS, Dot, HubsAction, HubsCodec, Segment, label
from .geometry import Point, contact, passes_through
from .paper import IdArray, Paper, paper_for
from .picture import text_picture

#: largest sheet side; keeps every cross product far inside int64 (geometry.py)
MAX_SIDE = 1000
#: most dots a round may have (docs/rules/hubs.md, "Limits"): every dot needs a label, and
#: bench/hubs_speed.py measures a round of this many in bounded time and memory
MAX_DOTS = 700
assert MAX_DOTS <= LABELS


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


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class RoundResult:
    """What the round just finished left behind: the picture and the narration tell it, and
    the match's observer (``stats.py``) notes each as it ends."""

    offense: int
    points: int
    segments: int
    #: True when the round ended because no segment could be drawn with some dot under two (HB-5)
    stalled: bool
    busiest: int


class HubsGame(Game[HubsAction]):
    """Hubs for two players on a W x H integer lattice."""

    id: ClassVar[str] = "hubs"
    title: ClassVar[str] = "Hubs (dots and segments, offense and defense)"
    param_specs: ClassVar[list[Param]] = [
        Param("width", "60", _parse_side, "lattice points across; x runs 0..width-1 (HB-1, HB-8)", label="Sheet width"),
        Param("height", "40", _parse_side, "lattice points up; y runs 0..height-1 (HB-1, HB-8)", label="Sheet height"),
        Param("dots", "24", _parse_even("dots", 2, MAX_DOTS),
              f"dots per round, even, at most {MAX_DOTS}: half each (HB-1)", label="Dots per round"),
        Param("rounds", "2", _parse_even("rounds", 2, 100), "rounds in the match, even (HB-6)", label="Rounds"),
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

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    @property
    def max_game_length(self) -> int:
        """Per round: every dot, plus at most 3n-6 segments (a planar straight-line graph)."""
        return self.rounds * (self.dots + max(1, 3 * self.dots - 6))

    @property
    def lattice(self) -> tuple[Dot, ...]:
        """A :class:`Dot` for every lattice point, row by row (``y * width + x``); placement lists slice it."""
        return _lattice(self.width, self.height)

    def new_initial_state(self) -> "HubsState":
        """Round 1, an empty sheet, the defense (Player 2, HB-6) to place the first dot."""
        return HubsState(game=self, round=0, dots=(), segments=(), degree=(), totals=(0, 0))

    def offense(self, round_index: int) -> int:
        """The seat on offense in a round: Player 1 first, then alternating (HB-6)."""
        return round_index % 2

    def on_sheet(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` is a lattice point of the sheet (HB-1, HB-8)."""
        return 0 <= x < self.width and 0 <= y < self.height

    @cached_property
    def codec(self) -> HubsCodec:
        """Hubs' notation on this sheet (HB-1, HB-2)."""
        return HubsCodec(self.width, self.height, self.dots)


@lru_cache(maxsize=2)
def _lattice(width: int, height: int) -> tuple[Dot, ...]:
    # Shared by every game of one sheet size: a 1000 x 1000 sheet's million points take a
    # second of CPU and 60 MB to make, and the web server loads one game per table.
    return tuple(Dot(x, y) for y in range(height) for x in range(width))


@dataclass(frozen=True)
class HubsState(State[HubsAction]):
    """A Hubs position: the round, its dots and segments, the match points, and the round just
    finished (its sheet and result, shown until the next round's first dot)."""

    game: HubsGame = field(compare=False, repr=False)
    #: 0-based round; equals ``rounds`` once the match is over
    round: int
    #: this round's dots in placement order (their labels are a, b, c ...)
    dots: tuple[Point, ...]
    #: this round's segments in drawing order
    segments: tuple[Segment, ...]
    #: segments at each dot (empty during placement)
    degree: tuple[int, ...]
    #: match points per seat
    totals: tuple[int, int]
    #: bit k set while ``paper.segments[k]`` may still be drawn; follows from dots and segments
    drawable: int = field(default=0, compare=False, repr=False)
    #: offense points so far this round (what the round's result tells; the totals already hold them)
    points: int = field(default=0, compare=False)
    #: the last finished round's result, for the picture and the narration; the rounds before it
    #: are no part of the position (the match's observer notes each as it ends)
    last_round: RoundResult | None = field(default=None, compare=False)
    #: the last finished round's sheet, kept for the picture
    previous: tuple[tuple[Point, ...], tuple[Segment, ...]] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def paper(self) -> Paper:
        """The round's shared :class:`Paper` (only once every dot is placed)."""
        return paper_for(self.dots)

    @cached_property
    def drawable_ids(self) -> IdArray:
        """The ids (into ``paper.segments``) of the segments that may be drawn now, ascending."""
        return self.paper.ids(self.drawable)

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
        made = len(self.dots) if self.placing else len(self.segments)
        defense = 1 - self.offense
        return defense if made % 2 == 0 else 1 - defense

    def legal_actions(self) -> list[HubsAction]:
        """Free lattice points while placing; else legal segments, best-scoring first (HB-4).

        Built afresh on each call (not kept on the state): a position of a large round
        can list a hundred thousand segments, and searches keep many positions.
        """
        if self.round >= self.game.rounds:
            return []
        if self.placing:
            # a fresh list no one else holds as a list of dots, so it may be typed as actions
            return cast("list[HubsAction]", self.free_points())
        paper, ids = self.paper, self.drawable_ids
        degree = np.array(self.degree, dtype=np.int64)
        worth = degree[paper.ends[ids]].sum(axis=1)
        return list(paper.segments(ids[np.lexsort((ids, -worth))]))

    def legal_head(self, most: int) -> tuple[list[HubsAction], int]:
        """While placing, the first ``most`` free points (row by row) without listing the
        others: a 1000 x 1000 sheet has a million."""
        if self.round >= self.game.rounds or not self.placing:
            return super().legal_head(most)
        width, taken = self.game.width, {y * self.game.width + x for x, y in self.dots}
        head: list[HubsAction] = []
        spot = 0
        while len(head) < most and spot < width * self.game.height:
            if spot not in taken:
                head.append(Dot(spot % width, spot // width))
            spot += 1
        return head, width * self.game.height - len(self.dots)

    def free_points(self) -> list[Dot]:
        """The free lattice points, row by row: the legal actions while placing (HB-1), as dots."""
        lattice, width = self.game.lattice, self.game.width
        free: list[Dot] = []
        start = 0
        for taken in sorted(y * width + x for x, y in self.dots):
            free += lattice[start:taken]
            start = taken + 1
        free += lattice[start:]
        return free

    def illegal_reason(self, action: HubsAction) -> tuple[str, str] | None:
        """Why ``action`` is not allowed here (with the ruling), or ``None``."""
        g = self.game
        if self.round >= g.rounds:
            return "the match is over", "HB-6"
        match action:
            case Dot(x, y) if _whole(x) and _whole(y):
                if not self.placing:
                    return f"all {g.dots} dots are placed; the segment phase is on", "HB-3"
                if not g.on_sheet(x, y):
                    return f"({x},{y}) is off the {g.width}x{g.height} lattice", "HB-1"
                if (x, y) in self.dots:
                    return f"dot {label(self.dots.index((x, y)))} already sits on {x},{y}", "HB-1"
                return None
            case Segment(first, second) if _whole(first) and _whole(second):
                if self.placing:
                    return (f"segments come after all {g.dots} dots are placed "
                            f"({len(self.dots)} so far)"), "HB-3"
                if not 0 <= first < second < len(self.dots):
                    return (f"a segment joins two of the round's dots a..{label(len(self.dots) - 1)}, "
                            f"given as first < second; got {first}, {second}"), "HB-2"
                k = self.paper.candidate_id(action)
                if k is not None and self.drawable >> k & 1:
                    return None
                return self._blocked(action)
        return (f"{action!r} is not a hubs action: a move places a Dot (HB-1) or draws a "
                "Segment (HB-3)"), "HB-3"

    def _blocked(self, segment: Segment) -> tuple[str, str]:
        p, q = self.dots[segment.first], self.dots[segment.second]
        name = segment.name()
        if segment in self.segments:
            return f"{name} is already drawn; a pair of dots is joined only once", "HB-2"
        for m, r in enumerate(self.dots):
            if passes_through(p, q, r):
                return f"{name} would pass through dot {label(m)}", "HB-2"
        for drawn in self.segments:
            how = contact(self.dots[drawn.first], self.dots[drawn.second], p, q)
            if how is not None:
                return f"{name} {how} {drawn.name()}", "HB-2"
        raise AssertionError(f"{name} is refused but nothing blocks it")  # pragma: no cover

    def _apply(self, action: HubsAction) -> "HubsState":
        match action:
            case Dot(x, y):
                return self._place((x, y))
            case Segment():
                return self._draw(action)
        raise AssertionError(f"{action!r} passed illegal_reason")  # pragma: no cover

    def _place(self, point: Point) -> "HubsState":
        dots = self.dots + (point,)
        if len(dots) < self.game.dots:
            return self.evolve(dots=dots)
        start = self.evolve(dots=dots, degree=(0,) * len(dots), drawable=paper_for(dots).all_drawable())
        return start._end_round() if not start.drawable else start

    def _draw(self, segment: Segment) -> "HubsState":
        paper = self.paper
        k = paper.candidate_id(segment)
        assert k is not None
        gain = self.degree[segment.first] + self.degree[segment.second]
        degree = list(self.degree)
        degree[segment.first] += 1
        degree[segment.second] += 1
        totals = list(self.totals)
        totals[self.offense] += gain
        drawable = self.drawable & ~paper.bits(paper.ruled_out(k, self.drawable_ids))
        after = self.evolve(segments=self.segments + (segment,), degree=tuple(degree),
                            totals=(totals[0], totals[1]), points=self.points + gain, drawable=drawable)
        if not drawable or min(degree) >= 2:
            return after._end_round()
        return after

    def _end_round(self) -> "HubsState":
        """HB-5: close the round and start the next on a fresh sheet (HB-7)."""
        result = RoundResult(self.offense, self.points, len(self.segments),
                             min(self.degree) < 2, max(self.degree))
        return self.evolve(round=self.round + 1, dots=(), segments=(), degree=(), points=0, drawable=0,
                           last_round=result, previous=(self.dots, self.segments))

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
                 else f"segment {len(self.segments) + 1}")
        return (f"hubs round {self.round + 1}/{g.rounds} ({g.seat_name(self.offense)} on offense), "
                f"{phase}, {g.seat_name(self.current_player)} to move, {score}")

    def __str__(self) -> str:
        return text_picture(self)
