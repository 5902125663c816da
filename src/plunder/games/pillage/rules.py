"""Pillage and Profit: Dots and Boxes with valued boxes (PP-1 .. PP-8). Pure rules.

Actions are ints:

* ``0 .. E-1`` -- draw line ``e`` (PP-4); text ``a1-b1``
* ``E + op*K + kind`` -- the choice for a captured modifier (PP-5); text ``-5 food``
* ``E + 3K + j`` -- chance deals outcome ``j`` of the random contents to the next box;
  text ``deal 3`` / ``deal food`` / ``deal -5 food/armor``
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...core.errors import ParameterError
from ...core.game import CHANCE, TERMINAL, Action, Game, State
from ...core.params import Param, parse_int
from .board import Board, BoardError, generated
from .board_file import BoardFile, parse_board_json
from .contents import (
    DEFAULT_LEGEND,
    MAX_VALUE,
    OPS,
    Commodity,
    Content,
    Doubloons,
    Legend,
    Modifier,
    apply_op,
    check_scores_fit,
    content_text,
    parse_content,
    parse_legend,
    parse_mix,
    random_distribution,
)

CONTENT_MODES = ("auto", "random", "unit", "example", "file")

# PP-8: the worked example's 2x2 board, boxes in reading order.
EXAMPLE_CONTENTS = ("food", "weapons", "-5 food/weapons/armor", "armor")


def _parse_board(text: str) -> Board | BoardFile:
    """A generated board (``square:3x3``) or a board file's inline text (``json:{...}``).

    ``file:PATH`` never reaches here: the parameter's ``inline`` hook has the core read the
    file once and hand over ``json:`` + its text (so this module never reads from disk).
    """
    text = text.strip()
    try:
        if text.startswith("json:"):
            return parse_board_json(text[len("json:") :], name="file")
        return generated(text)
    except BoardError as exc:
        raise ValueError(str(exc)) from None


def _board_text(value: Board | BoardFile) -> str:
    """One canonical text per board: the generator spec, or ``json:`` and the canonical board file."""
    return value.name if isinstance(value, Board) else "json:" + value.to_json()


def _parse_floor(text: str) -> int | None:
    return None if text.strip().lower() == "none" else parse_int(-MAX_VALUE, MAX_VALUE)(text)


def _parse_legend_param(text: str) -> Legend | None:
    return None if text == "auto" else parse_legend(text)


def _parse_contents(text: str) -> str:
    if text not in CONTENT_MODES:
        raise ValueError(f"{text!r} is not a contents mode")
    return text


class PillageGame(Game):
    """Pillage and Profit for two players on any board."""

    id: ClassVar[str] = "pillage"
    title: ClassVar[str] = "Pillage and Profit"
    param_specs: ClassVar[list[Param]] = [
        Param("board", "square:4x4", _parse_board, "board shape (PP-1)",
              ("square:RxC", "triangle:RxC", "hex:RxC", "octagon:RxC", "file:PATH", "json:TEXT"),
              canonical=_board_text, inline=lambda content: "json:" + content),
        Param("contents", "auto", _parse_contents,
              "box contents: random (dealt by chance), unit (1 doubloon each), example (PP-8), "
              "file (from the board file); auto = file contents if the board file has them, else random",
              CONTENT_MODES),
        Param("legend", "auto", _parse_legend_param,
              "commodity kinds and starting values, e.g. food:5,weapons:5,armor:5 (PP-3); "
              "auto = the board file's legend, else food, weapons, armor at 5", ("auto", "KIND:VALUE,...")),
        Param("floor", "none", _parse_floor, "lowest commodity value, or none for no floor (PP-6)", ("none", "INT")),
        Param("mix", "doubloons:35,commodity:45,modifier:20", parse_mix,
              "relative weights of random contents", ("doubloons:W,commodity:W,modifier:W",)),
    ]
    presets: ClassVar[dict[str, dict[str, str]]] = {
        "default": {},
        "classic": {"board": "square:3x3", "contents": "unit"},
        "example": {"board": "square:2x2", "contents": "example"},
        "small": {"board": "square:3x3", "contents": "random"},
        "big": {"board": "square:5x5", "contents": "random"},
        "triangle": {"board": "triangle:3x3", "contents": "random"},
        "hex": {"board": "hex:2x3", "contents": "random"},
        "octagon": {"board": "octagon:2x3", "contents": "random"},
        "floor": {"board": "square:3x3", "contents": "random", "floor": "0"},
    }

    def __init__(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(values, texts)
        loaded = values["board"]
        file = None if isinstance(loaded, Board) else loaded
        self.board: Board = loaded if file is None else file.board
        legend = values["legend"] or (file.legend if file and file.legend else None)
        self.legend: Legend = legend or Legend(tuple(k for k, _ in DEFAULT_LEGEND), tuple(v for _, v in DEFAULT_LEGEND))
        self.floor: int | None = values["floor"]
        mode = values["contents"]
        if mode == "auto":
            mode = "file" if file is not None and file.contents is not None else "random"
        self.contents_mode = mode
        self.fixed: tuple[Content, ...] | None = None
        if mode == "unit":
            self.fixed = tuple(Doubloons(1) for _ in self.board.boxes)
        elif mode == "example":
            if self.board.name != "square:2x2":
                raise ParameterError("pillage contents=example is the PP-8 board and needs board=square:2x2")
            self.fixed = tuple(self._content(t) for t in EXAMPLE_CONTENTS)
        elif mode == "file":
            if file is None or file.contents is None:
                raise ParameterError("pillage contents=file needs a board=file:PATH whose boxes have contents (PP-1)")
            try:
                self.fixed = file.parsed_contents(self.legend)
            except BoardError as exc:
                raise ParameterError(f"pillage board file: {exc}") from None
        self.distribution = random_distribution(self.legend, values["mix"])
        try:
            dealt = [c for c, _ in self.distribution]
            check_scores_fit(self.legend, self.floor, ([c] for c in self.fixed) if self.fixed else
                             (dealt for _ in self.board.boxes))
        except ValueError as exc:
            raise ParameterError(f"pillage: {exc}") from None
        self.E = self.board.num_edges
        self.K = len(self.legend.kinds)
        self.choice_base = self.E
        self.deal_base = self.E + len(OPS) * self.K
        self.deal_index = {c: i for i, (c, _) in enumerate(self.distribution)}
        self.all_drawn = (1 << self.E) - 1
        #: per box, the bitmask of its edges: a box is closed when all its bits are drawn
        self.box_masks = tuple(sum(1 << e for e in edges) for edges in self.board.box_edges)

    def _content(self, text: str) -> Content:
        try:
            return parse_content(text, self.legend)
        except ValueError as exc:
            raise ParameterError(f"pillage: {exc}") from None

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    @property
    def max_game_length(self) -> int:
        """Deals + lines + modifier choices."""
        return 2 * self.board.num_boxes + self.E

    def new_initial_state(self) -> "PillageState":
        """Pre-drawn lines in place (PP-2), tallies zero, legend at its starting values."""
        mask = 0
        for e in self.board.predrawn:
            mask |= 1 << e
        zeros = (0,) * self.K
        contents: tuple[Content | None, ...] = self.fixed if self.fixed is not None else (None,) * self.board.num_boxes
        return PillageState(
            game=self, drawn=mask, contents=contents, owner=(-1,) * self.board.num_boxes,
            doubloons=(0, 0), held=(zeros, zeros), values=self.legend.values, mover=0, pending=(),
        )

    def choice_action(self, op: str, kind: int) -> int:
        """The action id of a modifier choice."""
        return self.choice_base + OPS.index(op) * self.K + kind

    def decode_choice(self, action: int) -> tuple[str, int]:
        """(operation, kind) of a modifier-choice action."""
        i = action - self.choice_base
        return OPS[i // self.K], i % self.K

    def action_to_text(self, state: State, action: Action) -> str:
        """``a1-b1``, ``-5 food`` or ``deal food``."""
        assert isinstance(state, PillageState)
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise ValueError(f"{action!r} is not a pillage action")
        if action < self.E:
            return self.board.edge_label(action)
        if action < self.deal_base:
            op, kind = self.decode_choice(action)
            mod = state.pending_modifier()
            amount = "" if mod is None else str(mod.amount)
            return f"{op}{amount} {self.legend.kinds[kind]}"
        j = action - self.deal_base
        if j >= len(self.distribution):
            raise ValueError(f"{action!r} is not a pillage action")
        return "deal " + content_text(self.distribution[j][0], self.legend)

    def parse_action(self, state: State, text: str) -> int:
        """Read a line (``a1-b1``), a modifier choice (``-5 food``, or ``food`` when the
        modifier offers one operation) or a deal (``deal 3``)."""
        assert isinstance(state, PillageState)
        t = text.strip().lower()
        m = re.fullmatch(r"([a-z]+\d+)\s*[-–]\s*([a-z]+\d+)", t)
        if m:
            a, b = (self.board.dot_index(g) for g in m.groups())
            for label, idx in zip(m.groups(), (a, b)):
                if idx is None:
                    raise state.invalid(text, f"there is no dot {label} on this board (PP-1)")
            assert a is not None and b is not None
            e = self.board.find_edge(a, b)
            if e is None:
                raise state.invalid(text, f"dots {m.group(1)} and {m.group(2)} are not adjacent on this board (PP-1)")
            return e
        if t.startswith("deal "):
            try:
                content = parse_content(t[5:], self.legend)
            except ValueError as exc:
                raise state.invalid(text, str(exc)) from None
            if content not in self.deal_index:
                raise state.invalid(text, "random contents never deal that (PP-1)")
            return self.deal_base + self.deal_index[content]
        m = re.fullmatch(r"([+\-x])?\s*(\d+)?\s*([a-z][a-z_]*)", t)
        if m:
            kind = self.legend.kind_index(m.group(3))
            if kind is None:
                raise state.invalid(text, f"{m.group(3)!r} is not a commodity of the legend {self.legend} (PP-3)")
            op = m.group(1)
            mod = state.pending_modifier()
            if op is None:
                if mod is None or len(mod.ops) != 1:
                    raise state.invalid(text, "say the operation too, like -5 food (PP-5)")
                op = mod.ops[0]
            if m.group(2) is not None and mod is not None and int(m.group(2)) != mod.amount:
                raise state.invalid(text, f"the modifier's amount is {mod.amount}, not {m.group(2)} (PP-5)")
            return self.choice_action(op, kind)
        raise state.invalid(text, "write a line as two dots like a1-b1, or a modifier choice like -5 food")


@dataclass(frozen=True, eq=True)
class PillageState(State):
    """A Pillage position: lines drawn (bitmask), contents, captures, tallies, legend values.

    ``mover`` is the player whose turn it is; ``pending`` lists captured modifier boxes
    still waiting for their choice (PP-5), first one first.
    """

    game: PillageGame = field(compare=False, repr=False)
    drawn: int
    contents: tuple[Content | None, ...]
    owner: tuple[int, ...]
    doubloons: tuple[int, int]
    held: tuple[tuple[int, ...], tuple[int, ...]]
    values: tuple[int, ...]
    mover: int
    pending: tuple[int, ...]
    #: actions taken so far and the last line drawn: for display only
    ply: int = field(default=0, compare=False)
    last_edge: int = field(default=-1, compare=False)

    @property
    def current_player(self) -> int:
        """Chance while contents are dealt; then the mover; TERMINAL once all is drawn and chosen."""
        if self.contents and self.contents[-1] is None:
            return CHANCE
        if not self.pending and self.drawn == self.game.all_drawn:
            return TERMINAL
        return self.mover

    def _with(self, **changes: Any) -> "PillageState":
        """A copy with ``changes``: ``dataclasses.replace`` without its per-call introspection."""
        new = object.__new__(PillageState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def pending_modifier(self) -> Modifier | None:
        """The modifier waiting for a choice, if any."""
        if not self.pending:
            return None
        mod = self.contents[self.pending[0]]
        assert isinstance(mod, Modifier)
        return mod

    def undrawn(self) -> list[int]:
        """Edges not yet drawn."""
        return [e for e in range(self.game.E) if not self.drawn >> e & 1]

    def legal_actions(self) -> list[Action]:
        """Deals, modifier choices, or undrawn lines."""
        player = self.current_player
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [self.game.deal_base + j for j in range(len(self.game.distribution))]
        mod = self.pending_modifier()
        if mod is not None:
            return [self.game.choice_action(op, k) for op, k in mod.options()]
        return list(self.undrawn())

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The content distribution of the next box (``contents=random``)."""
        if self.current_player != CHANCE:
            return super().chance_outcomes()
        return [(self.game.deal_base + j, p) for j, (_, p) in enumerate(self.game.distribution)]

    def illegal_reason(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` cannot be taken now, with the ruling it breaks."""
        g = self.game
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < g.deal_base + len(g.distribution):
            return (f"{action!r} is not a pillage action", "PP-4")
        player = self.current_player
        if player == TERMINAL:
            return ("the game is over: every line is drawn", "PP-7")
        if player == CHANCE:
            if action < g.deal_base:
                return ("the box contents are still being dealt", "PP-1")
            return None
        if action >= g.deal_base:
            return ("the box contents are already dealt", "PP-1")
        mod = self.pending_modifier()
        if action < g.E:
            if mod is not None:
                return (f"{g.seat_name(self.mover)} must first choose how to apply the modifier "
                        f"{content_text(mod, g.legend)} just captured", "PP-5")
            if self.drawn >> action & 1:
                return (f"line {g.board.edge_label(action)} is already drawn", "PP-4")
            return None
        if mod is None:
            return ("no captured modifier is waiting for a choice", "PP-5")
        op, kind = g.decode_choice(action)
        if (op, kind) not in mod.options():
            return (f"the modifier {content_text(mod, g.legend)} offers "
                    f"{' or '.join(mod.ops)} on {'/'.join(g.legend.kinds[k] for k in mod.kinds)}, "
                    f"not {op} {g.legend.kinds[kind]}", "PP-5")
        return None

    def _apply(self, action: Action) -> "PillageState":
        assert isinstance(action, int)
        g = self.game
        if action >= g.deal_base:
            i = self.contents.index(None)
            dealt = g.distribution[action - g.deal_base][0]
            return self._with(contents=self.contents[:i] + (dealt,) + self.contents[i + 1 :], ply=self.ply + 1)
        if action >= g.E:
            op, kind = g.decode_choice(action)
            mod = self.pending_modifier()
            assert mod is not None
            values = list(self.values)
            values[kind] = apply_op(values[kind], op, mod.amount, g.floor)
            return self._with(values=tuple(values), pending=self.pending[1:], ply=self.ply + 1)
        drawn = self.drawn | 1 << action
        closed = [b for b in g.board.edge_boxes[action] if drawn & g.box_masks[b] == g.box_masks[b]]
        if not closed:
            return self._with(drawn=drawn, mover=1 - self.mover, ply=self.ply + 1, last_edge=action)
        # PP-4/PP-5: capture every closed box; tallies first, then modifiers in box order.
        p = self.mover
        owner = list(self.owner)
        doubloons = list(self.doubloons)
        held = [list(h) for h in self.held]
        pending = list(self.pending)
        for b in closed:
            owner[b] = p
            content = self.contents[b]
            if isinstance(content, Doubloons):
                doubloons[p] += content.n
            elif isinstance(content, Commodity):
                held[p][content.kind] += 1
            else:
                pending.append(b)
        return self._with(
            drawn=drawn, owner=tuple(owner), doubloons=(doubloons[0], doubloons[1]),
            held=(tuple(held[0]), tuple(held[1])), pending=tuple(pending), ply=self.ply + 1, last_edge=action,
        )

    def scores(self) -> list[float]:
        """Doubloons plus captured commodities at current values (PP-7)."""
        return [float(self.doubloons[p] + sum(n * v for n, v in zip(self.held[p], self.values))) for p in (0, 1)]

    def returns(self) -> list[float]:
        """+1/-1 to the higher/lower final score, 0 each on a tie (PP-7)."""
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.scores()
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def summary(self) -> str:
        """One line: board, ply, who acts, lines drawn."""
        g = self.game
        player = self.current_player
        if player == TERMINAL:
            who = "game over"
        elif player == CHANCE:
            who = f"dealing box {self.contents.index(None) + 1} of {len(self.contents)}"
        elif self.pending:
            who = f"{g.seat_name(player)} to choose for a modifier"
        else:
            who = f"{g.seat_name(player)} to draw"
        lines = [g.board.edge_label(e) for e in range(g.E) if self.drawn >> e & 1]
        shown = " ".join(lines[:16]) + (" ..." if len(lines) > 16 else "")
        return f"pillage {g.board.name} ply {self.ply}, {who}, {len(lines)}/{g.E} lines drawn [{shown}]"

    def stats(self) -> dict[str, float | list[float]]:
        """Boxes captured per seat."""
        return {"boxes": [float(self.owner.count(0)), float(self.owner.count(1))]}

    def __str__(self) -> str:
        from .picture import state_text

        return state_text(self)
