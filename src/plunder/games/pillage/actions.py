"""Pillage actions as typed values, their canonical texts and their parsing (PP-12).

Three kinds of action:

* :class:`Line` -- draw one line (PP-4); text ``a1-b1``.
* :class:`Choose` -- the capturer's choice for a captured modifier (PP-5): an operation and
  a kind; text ``-5 food``. When two pending modifiers with different contents offer the
  same option, the text names the modifier too: ``-5 food of -5 food/armor`` (PP-5
  amended: the capturer picks which pending modifier to resolve first).
* :class:`Deal` -- chance deals one content to the next box (PP-10); text ``deal 3``,
  ``deal food``, ``deal -5 food/weapons/armor``.

Every action of a game is built once, when the game is made (:class:`ActionTable`), so
``legal_actions()`` hands out the same objects each call and the rules dispatch on them
with ``match``. Search code (the solver, the playout kernel) works on edge numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence, Union

from .board import Board
from .contents import Content, Legend, Modifier, content_text, parse_content

if TYPE_CHECKING:
    from .rules import PillageState


@dataclass(frozen=True, slots=True)
class Line:
    """Draw line ``edge`` (PP-4); ``label`` is its text, the two dots ``a1-b1`` (PP-12)."""

    edge: int
    label: str

    # searches compare and hash lines millions of times: by their edge alone (a game's labels
    # follow from its edges), and never equal to a value of another type
    def __eq__(self, other: object) -> bool:
        return other.__class__ is Line and other.edge == self.edge and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.edge)

    def text(self) -> str:
        """``a1-b1``."""
        return self.label


@dataclass(frozen=True, slots=True)
class Choose:
    """Apply ``op`` with the amount of ``modifier`` to legend kind ``kind`` (PP-5).

    ``modifier`` says which pending modifier this resolves: when one line captured two,
    the capturer resolves them in the order they like (PP-5 amended). ``short`` is the
    text ``-5 food``; ``full`` adds the modifier, ``-5 food of -5 food/armor``.
    """

    modifier: Modifier
    op: str
    kind: int
    short: str
    full: str

    def text(self) -> str:
        """``-5 food`` (see :meth:`PillageGame.action_to_text` for when the full text is used)."""
        return self.short


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance deals ``content`` to the next undealt box (PP-10); ``outcome`` is its place in
    the game's content distribution; ``label`` its text ``deal food``."""

    outcome: int
    content: Content
    label: str

    def text(self) -> str:
        """``deal food``."""
        return self.label


#: every action of a Pillage game
PillageAction = Union[Line, Choose, Deal]

#: why text that is neither a line nor a modifier choice is refused
UNREADABLE = "write a line as two dots like a1-b1, or a modifier choice like -5 food (PP-12)"

_LINE = re.compile(r"([a-z]+\d+)\s*[-–]\s*([a-z]+\d+)")
_CHOICE = re.compile(r"([+\-x])?\s*(\d+)?\s*([a-z][a-z_]*)(?:\s+of\s+(.+))?")


class ActionTable:
    """Every action of one game, made once: lines per edge, deals per outcome, and the
    choices of every modifier the game can hold (``contents``: its fixed contents, or the
    contents it deals)."""

    def __init__(self, board: Board, legend: Legend, contents: Sequence[Content], deals: Sequence[Content]) -> None:
        self.board = board
        self.legend = legend
        #: ``lines[e]`` draws edge ``e``
        self.lines: tuple[Line, ...] = tuple(Line(e, board.edge_label(e)) for e in range(board.num_edges))
        #: ``deals[j]`` deals outcome ``j`` of the content distribution
        self.deals: tuple[Deal, ...] = tuple(Deal(j, c, "deal " + content_text(c, legend)) for j, c in enumerate(deals))
        self.deal_of: dict[Content, Deal] = {d.content: d for d in self.deals}
        #: per modifier the game can hold, its choices in :meth:`Modifier.options` order
        self.choices: dict[Modifier, tuple[Choose, ...]] = {}
        for c in contents:
            if isinstance(c, Modifier) and c not in self.choices:
                name = content_text(c, legend)
                self.choices[c] = tuple(
                    Choose(c, op, k, f"{op}{c.amount} {legend.kinds[k]}", f"{op}{c.amount} {legend.kinds[k]} of {name}")
                    for op, k in c.options())

    def is_line(self, action: Line) -> bool:
        """True when ``action`` is one of this game's lines (not a value made up elsewhere)."""
        edge = action.edge
        return type(edge) is int and 0 <= edge < len(self.lines) and self.lines[edge] == action

    def is_choice(self, action: Choose) -> bool:
        """True when ``action`` is one of this game's modifier choices."""
        try:
            return action in self.choices.get(action.modifier, ())
        except TypeError:  # an unhashable field
            return False

    def is_deal(self, action: Deal) -> bool:
        """True when ``action`` is one of this game's deals."""
        outcome = action.outcome
        return type(outcome) is int and 0 <= outcome < len(self.deals) and self.deals[outcome] == action

    def needs_full_text(self, state: "PillageState", action: Choose) -> bool:
        """True when another pending modifier offers the same option text (PP-5 amended)."""
        return any(mod != action.modifier and any(c.short == action.short for c in self.choices[mod])
                   for mod in state.pending_modifiers())

    # ------------------------------------------------------------------ parsing

    def parse(self, state: "PillageState", text: str) -> PillageAction:
        """Read ``text``; raise :class:`InvalidActionError` (and nothing else) if it is not an action."""
        t = text.strip().lower()
        m = _LINE.fullmatch(t)
        if m:
            return self._line(state, text, m.group(1), m.group(2))
        if t.startswith("deal "):
            try:
                content = parse_content(t[5:], self.legend)
            except ValueError as exc:
                raise state.invalid(text, str(exc)) from None
            deal = self.deal_of.get(content)
            if deal is None:
                raise state.invalid(text, "random contents never deal that (PP-10)")
            return deal
        m = _CHOICE.fullmatch(t)
        if m:
            return self._choice(state, text, *m.groups())
        raise state.invalid(text, UNREADABLE)

    def _line(self, state: "PillageState", text: str, a_label: str, b_label: str) -> Line:
        a, b = self.board.dot_index(a_label), self.board.dot_index(b_label)
        for label, index in ((a_label, a), (b_label, b)):
            if index is None:
                raise state.invalid(text, f"there is no dot {label} on this board (PP-1)")
        assert a is not None and b is not None
        edge = self.board.find_edge(a, b)
        if edge is None:
            raise state.invalid(text, f"dots {a_label} and {b_label} are not adjacent on this board (PP-1)")
        return self.lines[edge]

    def _choice(self, state: "PillageState", text: str, op: str | None, amount: str | None, kind_name: str,
                of: str | None) -> Choose:
        kind = self.legend.kind_index(kind_name)
        if kind is None:
            if not state.pending and op is None and amount is None:
                # a bare word when no choice is asked for is no move at all, not a commodity mistyped
                raise state.invalid(text, UNREADABLE)
            raise state.invalid(text, f"{kind_name!r} is not a commodity of the legend {self.legend} (PP-3)")
        if of is not None:
            try:
                named = parse_content(of, self.legend)
            except ValueError as exc:
                raise state.invalid(text, str(exc)) from None
            if named not in self.choices:
                raise state.invalid(text, f"{of.strip()!r} is not a modifier this game can hold (PP-5)")
            found = self._matching([named], op, amount, kind)
        else:
            # the pending modifiers first; failing them, any modifier the game can hold (the
            # action is then readable, and refused as illegal when applied)
            found = self._matching(dict.fromkeys(state.pending_modifiers()), op, amount, kind) \
                or self._matching(self.choices, op, amount, kind)
        if not found:
            pending = " or ".join(content_text(m, self.legend) for m in dict.fromkeys(state.pending_modifiers()))
            offers = f"the modifier {pending} offers no such choice" if pending else "no modifier offers that choice"
            raise state.invalid(text, f"{offers} (PP-5)")
        if op is None and len(found) > 1 and len({c.modifier for c in found}) == 1:
            raise state.invalid(text, "say the operation too, like -5 food (PP-5)")
        if len({c.modifier for c in found}) > 1:
            if not state.pending:
                raise state.invalid(text, "no captured modifier is waiting for a choice (PP-5)")
            names = " or ".join(dict.fromkeys(f"'{c.full}'" for c in found))
            raise state.invalid(text, f"more than one pending modifier offers that: say which, as in {names} (PP-5)")
        return found[0]

    def _matching(self, modifiers: Iterable[Modifier], op: str | None, amount: str | None, kind: int) -> list[Choose]:
        """The choices of ``modifiers`` that fit an operation, amount digits and kind (each optional but the kind)."""
        # the amount is compared as digits, never converted: a 5000-digit amount is just wrong
        digits = None if amount is None else amount.lstrip("0") or "0"
        return [c for mod in modifiers for c in self.choices[mod]
                if c.kind == kind and (op is None or c.op == op) and (digits is None or str(mod.amount) == digits)]


class PillageCodec:
    """Pillage's notation (PP-12) over one game's :class:`ActionTable`: a line ``a1-b1``, a
    modifier choice ``-5 food`` (naming its modifier, ``-5 food of -5 food/armor``, when another
    pending modifier offers the same text, PP-5), a deal ``deal food``."""

    def __init__(self, table: ActionTable) -> None:
        self.table = table

    def is_action(self, state: "PillageState", value: object) -> bool:
        """True for this game's own lines, choices and deals."""
        table = self.table
        match value:
            case Line():
                return table.is_line(value)
            case Choose():
                return table.is_choice(value)
            case Deal():
                return table.is_deal(value)
        return False

    def text(self, state: "PillageState", action: PillageAction) -> str:
        """``a1-b1``, ``-5 food`` (or its full text) or ``deal food``."""
        if not self.is_action(state, action):
            raise ValueError(f"{action!r} is not a pillage action")
        if isinstance(action, Choose):
            return action.full if self.table.needs_full_text(state, action) else action.short
        return action.label

    def parse(self, state: "PillageState", text: str) -> PillageAction:
        """A line, a modifier choice (``food`` alone when the modifier offers one operation) or a deal."""
        return self.table.parse(state, text)
