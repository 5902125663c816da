"""Pillage and Profit: Dots and Boxes with valued boxes (PP-1 .. PP-8, PP-10 .. PP-12). Pure rules.

The actions are typed values (:mod:`.actions`): :class:`Line` draws a line (PP-4),
:class:`Choose` resolves a captured modifier (PP-5), :class:`Deal` is chance dealing a
box's content (PP-10). Each game makes its actions once; states hand out those values.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .picture import state_text
from ...core.errors import ParameterError
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.params import Param, parse_int
from .actions import ActionTable, Choose, Deal, Line, PillageAction, PillageCodec
from .board import Board, BoardError, generated
from .board_file import BoardFile, parse_board_json
from .contents import (
    DEFAULT_LEGEND,
    MAX_VALUE,
    Commodity,
    Content,
    Doubloons,
    Legend,
    Modifier,
    apply_op,
    check_scores_fit,
    content_text,
    parse_content,
    mix_text,
    parse_legend,
    parse_mix,
    random_distribution,
)

# a state is made by handing it a copy of its parent's attributes: these two, bound once,
# save the lookups on ``object`` in the step every playout takes
_new = object.__new__
_set = object.__setattr__

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
    return None if text.strip().lower() == "auto" else parse_legend(text)


def _floor_text(floor: int | None) -> str:
    return "none" if floor is None else str(floor)


def _legend_text(legend: Legend | None) -> str:
    return "auto" if legend is None else str(legend)


def _parse_contents(text: str) -> str:
    if text not in CONTENT_MODES:
        raise ValueError(f"{text!r} is not a contents mode")
    return text


class PillageGame(Game[PillageAction]):
    """Pillage and Profit for two players on any board."""

    id: ClassVar[str] = "pillage"
    title: ClassVar[str] = "Pillage and Profit"
    param_specs: ClassVar[list[Param]] = [
        Param("board", "square:4x4", _parse_board, "board shape (PP-1)",
              ("square:RxC", "triangle:RxC", "hex:RxC", "octagon:RxC", "file:PATH", "json:TEXT"),
              canonical=_board_text, inline=lambda content: "json:" + content, label="Board"),
        Param("contents", "auto", _parse_contents,
              "box contents: random (dealt by chance), unit (1 doubloon each), example (PP-8), "
              "file (from the board file); auto = file contents if the board file has them, else random",
              CONTENT_MODES, label="Box contents"),
        Param("legend", "auto", _parse_legend_param,
              "commodity kinds and starting values, e.g. food:5,weapons:5,armor:5 (PP-3); "
              "auto = the board file's legend, else food, weapons, armor at 5", ("auto", "KIND:VALUE,..."),
              canonical=_legend_text, label="Commodities"),
        Param("floor", "none", _parse_floor, "lowest commodity value, or none for no floor (PP-6)", ("none", "INT"),
              canonical=_floor_text, label="Lowest commodity value"),
        Param("mix", "doubloons:35,commodity:45,modifier:20", parse_mix,
              "relative weights of random contents", ("doubloons:W,commodity:W,modifier:W",), canonical=mix_text, label="Mix of random contents"),
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
            #: the largest magnitude of a score any play of this board could reach (PP-7)
            self.score_bound: int = check_scores_fit(
                self.legend, self.floor, ([c] for c in self.fixed) if self.fixed else (dealt for _ in self.board.boxes))
        except ValueError as exc:
            raise ParameterError(f"pillage: {exc}") from None
        self.num_edges = self.board.num_edges
        self.num_kinds = len(self.legend.kinds)
        self.all_drawn = (1 << self.num_edges) - 1
        #: per box, the bitmask of its edges: a box is closed when all its bits are drawn
        self.box_masks = tuple(sum(1 << e for e in edges) for edges in self.board.box_edges)
        #: per edge, (box, box mask) of the one or two boxes it borders
        self.edge_box_masks = tuple(tuple((b, self.box_masks[b]) for b in boxes) for boxes in self.board.edge_boxes)
        #: per edge, the masks of the boxes it borders, the one box's twice on the border: the
        #: line closes a box when either is all drawn
        self.edge_closes = tuple((masks[0], masks[-1]) for masks in
                                 (tuple(mask for _, mask in pairs) for pairs in self.edge_box_masks))
        #: every action of this game, made once
        deals = [c for c, _ in self.distribution]
        self.actions = ActionTable(self.board, self.legend, deals if self.fixed is None else self.fixed, deals)
        self.lines = self.actions.lines

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
        return 2 * self.board.num_boxes + self.num_edges

    def new_initial_state(self) -> "PillageState":
        """Pre-drawn lines in place (PP-2), tallies zero, legend at its starting values."""
        mask = 0
        for e in self.board.predrawn:
            mask |= 1 << e
        zeros = (0,) * self.num_kinds
        contents: tuple[Content | None, ...] = self.fixed if self.fixed is not None else (None,) * self.board.num_boxes
        return PillageState(
            game=self, drawn=mask, contents=contents, owner=(-1,) * self.board.num_boxes,
            doubloons=(0, 0), held=(zeros, zeros), values=self.legend.values, mover=0, pending=(),
            open_lines=tuple(line for line in self.lines if not mask >> line.edge & 1),
        )

    @functools.cached_property
    def codec(self) -> PillageCodec:
        """Pillage's notation over this game's actions (PP-12)."""
        return PillageCodec(self.actions)


@dataclass(frozen=True, eq=True)
class PillageState(State[PillageAction]):
    """A Pillage position: lines drawn (bitmask), contents, captures, tallies, legend values.

    ``mover`` is the player whose turn it is; ``pending`` lists the captured modifier boxes
    still waiting for their choice (PP-5), in box order; the capturer resolves them in any
    order (PP-5 amended). ``open_lines`` are the undrawn lines as actions, kept up to date
    move by move so that listing them costs no scan of the board.
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
    #: the undrawn lines in edge order: derived from ``drawn``
    open_lines: tuple[Line, ...] = field(default=(), compare=False, repr=False)
    #: actions taken so far and the last line drawn: for display only
    ply: int = field(default=0, compare=False)
    last_edge: int = field(default=-1, compare=False)

    @property
    def current_player(self) -> int:
        """Chance while contents are dealt (PP-10); then the mover; TERMINAL once every line
        is drawn and every captured modifier resolved (PP-7, PP-11)."""
        if self.pending:
            return self.mover
        if self.open_lines:
            return CHANCE if self.contents[-1] is None else self.mover
        return TERMINAL

    def is_terminal(self) -> bool:
        """True once every line is drawn and every captured modifier resolved (PP-7, PP-11)."""
        return not self.open_lines and not self.pending

    def pending_modifiers(self) -> tuple[Modifier, ...]:
        """The captured modifiers waiting for a choice, in box order."""
        return tuple(self._modifier(b) for b in self.pending)

    def _modifier(self, box: int) -> Modifier:
        mod = self.contents[box]
        assert isinstance(mod, Modifier)
        return mod

    def undrawn(self) -> list[int]:
        """Edges not yet drawn."""
        return [line.edge for line in self.open_lines]

    def choices(self) -> list[Choose]:
        """The options of every pending modifier, modifier by modifier (PP-5): the legal actions
        while one waits, typed as the choices they are."""
        choices = self.game.actions.choices
        return [c for mod in dict.fromkeys(self.pending_modifiers()) for c in choices[mod]]

    def legal_actions(self) -> list[PillageAction]:
        """Deals (PP-10), the options of every pending modifier (PP-5), or the undrawn lines (PP-4)."""
        if self.pending:
            return [*self.choices()]
        if not self.open_lines:
            return []
        if self.contents[-1] is None:
            return list(self.game.actions.deals)
        return list(self.open_lines)

    def chance_outcomes(self) -> list[tuple[PillageAction, float]]:
        """The content distribution of the next box (``contents=random``, PP-10)."""
        if self.current_player != CHANCE:
            return super().chance_outcomes()
        return [(deal, p) for deal, (_, p) in zip(self.game.actions.deals, self.game.distribution)]

    def illegal_reason(self, action: PillageAction) -> tuple[str, str] | None:
        """Why ``action`` cannot be taken now, with the ruling it breaks."""
        g = self.game
        player = self.current_player
        match action:
            case Line() if g.actions.is_line(action):
                if player == TERMINAL:
                    return ("the game is over: every line is drawn", "PP-7")
                if player == CHANCE:
                    return ("the box contents are still being dealt", "PP-10")
                if self.pending:
                    return (f"{g.seat_name(self.mover)} must first choose how to apply the captured modifier "
                            + " and ".join(content_text(m, g.legend) for m in self.pending_modifiers()), "PP-5")
                if self.drawn >> action.edge & 1:
                    return (f"line {action.label} is already drawn", "PP-4")
                return None
            case Choose() if g.actions.is_choice(action):
                if not self.pending:
                    return ("no captured modifier is waiting for a choice", "PP-5")
                mods = self.pending_modifiers()
                if action.modifier not in mods:
                    offered = " and ".join(content_text(m, g.legend) for m in dict.fromkeys(mods))
                    return (f"the modifier waiting for a choice is {offered}, "
                            f"not {content_text(action.modifier, g.legend)}", "PP-5")
                return None
            case Deal() if g.actions.is_deal(action):
                if player == CHANCE:
                    return None
                return ("the box contents are already dealt", "PP-10")
        return (f"{action!r} is not a pillage action", "PP-12")

    def _apply(self, action: PillageAction) -> "PillageState":
        match action:
            case Line(edge=edge):
                return self._draw(edge)
            case Choose(modifier=mod, op=op, kind=kind):
                # PP-5 amended: any pending modifier may be resolved first; of two with the same
                # content either may go, so the first such box does
                box = next(b for b in self.pending if self.contents[b] == mod)
                pending = tuple(b for b in self.pending if b != box)
                values = list(self.values)
                values[kind] = apply_op(values[kind], op, mod.amount, self.game.floor)
                return self.evolve(values=tuple(values), pending=pending, ply=self.ply + 1)
            case Deal(content=dealt):
                i = self.contents.index(None)
                return self.evolve(contents=self.contents[:i] + (dealt,) + self.contents[i + 1 :], ply=self.ply + 1)
        raise AssertionError(f"unchecked action {action!r}")

    def apply(self, action: PillageAction) -> "PillageState":
        """The state after ``action``; raises :class:`IllegalActionError` if it is illegal.

        A line handed out by :meth:`legal_actions` is known by identity, so drawing it costs
        no further validation; anything else goes through :meth:`illegal_reason`."""
        if type(action) is Line and not self.pending:
            edge = action.edge
            try:
                # only the game's own line object is its lines[edge] (whose edge is never
                # negative), so identity stands for the type and range checks
                own = self.game.lines[edge] is action
            except (IndexError, TypeError):
                own = False
            if own and not self.drawn >> edge & 1 and self.contents[-1] is not None:
                return self._draw(edge)
        return self._checked_apply(action, None)

    def _draw(self, edge: int) -> "PillageState":
        """Draw line ``edge``: pass the turn, or capture what it closes and keep it (PP-4).

        The step every playout through the public API takes, so its parts are inline: the new
        state's attributes are a copy of this one's with the line's changes (what evolve does,
        without its per-call field filtering: this class caches no derived values that must
        be dropped); a capture changes a few more (:meth:`_capture`)."""
        attributes = self.__dict__.copy()
        new = _new(PillageState)
        _set(new, "__dict__", attributes)
        before = self.drawn
        drawn = before | 1 << edge
        lines = self.open_lines
        # open lines are kept in edge order, so the line's place is its edge less the lines
        # drawn below it: no comparisons (tuple.index would call Line.__eq__ per line passed)
        i = edge - (before & ((1 << edge) - 1)).bit_count()
        attributes["open_lines"] = lines[:i] + lines[i + 1 :]
        attributes["drawn"] = drawn
        attributes["ply"] = self.ply + 1
        attributes["last_edge"] = edge
        first, second = self.game.edge_closes[edge]
        if drawn & first == first or drawn & second == second:
            self._capture(edge, drawn, attributes)
        else:
            attributes["mover"] = 1 - self.mover
        return new

    def _capture(self, edge: int, drawn: int, attributes: dict[str, Any]) -> None:
        """Line ``edge`` closed one or two boxes: the mover captures them all and keeps the
        turn (PP-4), written into the new state's ``attributes``; doubloons and commodities
        are tallied now, modifiers wait for the capturer's choices, in any order (PP-5 amended)."""
        p = self.mover
        contents = self.contents
        owner = list(self.owner)
        gained = 0
        held = self.held
        pending = self.pending
        for b, mask in self.game.edge_box_masks[edge]:
            if drawn & mask == mask:
                owner[b] = p
                content = contents[b]
                if type(content) is Doubloons:
                    gained += content.n
                elif type(content) is Commodity:
                    mine = list(held[p])
                    mine[content.kind] += 1
                    held = (tuple(mine), held[1]) if p == 0 else (held[0], tuple(mine))
                else:
                    pending += (b,)
        # the copied attributes hold the parent's values: only what changed is written
        attributes["owner"] = tuple(owner)
        if gained:
            first, second = self.doubloons
            attributes["doubloons"] = (first + gained, second) if p == 0 else (first, second + gained)
        if held is not self.held:
            attributes["held"] = held
        if pending:
            attributes["pending"] = pending

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
        """One line: board, the players' move number, who acts, lines drawn."""
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
        lines = [line.label for line in g.lines if self.drawn >> line.edge & 1]
        shown = " ".join(lines[:16]) + (" ..." if len(lines) > 16 else "")
        # chance's deals are no player's moves: the count starts at the first line (issue 13)
        dealt = sum(c is not None for c in self.contents) if g.fixed is None else 0
        return (f"pillage {g.board.name} move {self.ply - dealt + 1}, {who}, "
                f"{len(lines)}/{g.num_edges} lines drawn [{shown}]")

    def __str__(self) -> str:
        return state_text(self)
