"""Pillage heuristics: what a line does, box values, and the greedy agent.

The greedy player takes the most valuable box on offer, otherwise draws a line that
hands no box over, otherwise gives away the least it can: it counts the chain the
opponent could then sweep up (every box that keeps becoming three-sided).
"""

from __future__ import annotations

import random

from ...core.agent import AgentFactory, AgentOptions
from ...core.game import Game
from .actions import Choose, Deal, Line, PillageAction
from .contents import Commodity, Doubloons, Modifier, apply_op
from .rules import PillageState


def closes(state: PillageState, drawn: int, edge: int) -> list[int]:
    """Boxes that drawing ``edge`` on mask ``drawn`` would close."""
    g = state.game
    after = drawn | 1 << edge
    return [b for b in g.board.edge_boxes[edge] if all(after >> e & 1 for e in g.board.box_edges[b])]


def modifier_gain(state: PillageState, mod: Modifier, player: int) -> tuple[float, tuple[str, int]]:
    """The best (score margin change, option) a modifier gives ``player`` on current holdings."""
    return max(((option_gain(state, mod, op, kind, player), (op, kind)) for op, kind in mod.options()),
               key=lambda gain_option: gain_option[0])


def option_gain(state: PillageState, mod: Modifier, op: str, kind: int, player: int) -> float:
    """The score margin change for ``player`` of applying ``op`` of ``mod`` to ``kind`` now."""
    new = apply_op(state.values[kind], op, mod.amount, state.game.floor)
    return float((new - state.values[kind]) * (state.held[player][kind] - state.held[1 - player][kind]))


def box_value(state: PillageState, box: int, player: int) -> float:
    """What capturing ``box`` is worth to ``player`` now, in score-margin doubloons."""
    content = state.contents[box]
    if isinstance(content, Doubloons):
        return float(content.n)
    if isinstance(content, Commodity):
        return float(state.values[content.kind])
    assert isinstance(content, Modifier)
    return modifier_gain(state, content, player)[0]


def sweep(state: PillageState, drawn: int, player: int) -> tuple[float, int]:
    """Value and count of the boxes ``player`` can take in a row from mask ``drawn``.

    A worklist of the boxes one line short: drawing a box's last line changes only the boxes
    on that line, so only they are looked at again (the boxes taken do not depend on the
    order they are taken in). Each step costs the boxes of one line, not the whole board."""
    g = state.game
    masks, edge_box_masks = g.box_masks, g.edge_box_masks
    total, count = 0.0, 0
    todo = [b for b, bm in enumerate(masks) if state.owner[b] < 0 and (bm & ~drawn).bit_count() == 1]
    while todo:
        left = masks[todo.pop()] & ~drawn
        if not left:
            continue  # closed meanwhile by the line of a neighbour
        drawn |= left
        for c, cm in edge_box_masks[left.bit_length() - 1]:
            missing = (cm & ~drawn).bit_count()
            if not missing:
                total += box_value(state, c, player)
                count += 1
            elif missing == 1:
                todo.append(c)
    return total, count


def line_effect(state: PillageState, edge: int) -> tuple[float, str]:
    """(margin estimate for the mover, a few words) of drawing ``edge``."""
    g = state.game
    me = state.mover
    closed = closes(state, state.drawn, edge)
    if closed:
        value = sum(box_value(state, b, me) for b in closed)
        return value + 0.5, f"closes {len(closed)} box{'es' if len(closed) > 1 else ''} ({value:+g})"
    after = state.drawn | 1 << edge
    gift, count = sweep(state, after, 1 - me)
    if count == 0:
        return 0.0, "safe: hands over no box"
    return -gift - 0.1 * count, f"hands over {count} box{'es' if count > 1 else ''} ({gift:+g} to {g.seat_name(1 - me)})"


def describe(state: PillageState, action: PillageAction) -> str:
    """A few words on what ``action`` would do (for move lists)."""
    g = state.game
    match action:
        case Line(edge=edge):
            return line_effect(state, edge)[1]
        case Choose(modifier=mod, op=op, kind=kind):
            new = apply_op(state.values[kind], op, mod.amount, g.floor)
            return f"{g.legend.kinds[kind]} {state.values[kind]} -> {new}"
        case Deal():
            return "chance"
    return ""


class GreedyAgent:
    """Takes the best box on offer, else a safe line, else the smallest gift."""

    name = "greedy"

    def choose(self, state: PillageState, rng: random.Random) -> PillageAction:
        """Pick a line (or modifier option) by :func:`line_effect`, ties at random.

        With two modifiers pending (PP-5 amended) it takes the option that gains most now,
        whichever modifier offers it."""
        if state.pending:
            return max(state.choices(), key=lambda c: self._choice_gain(state, c))
        scored = [(line_effect(state, line.edge)[0], line) for line in state.open_lines]
        best = max(s for s, _ in scored)
        return rng.choice([line for s, line in scored if s == best])

    @staticmethod
    def _choice_gain(state: PillageState, action: Choose) -> float:
        return option_gain(state, action.modifier, action.op, action.kind, state.mover)


def make_greedy(game: Game, options: AgentOptions) -> GreedyAgent:
    """Factory for ``greedy`` (no options)."""
    return GreedyAgent()


#: ``greedy`` for Pillage
GREEDY = AgentFactory(make_greedy, "takes the best box on offer, else a safe line, else the smallest gift")
