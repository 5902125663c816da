"""Pillage and Profit in a player's words: what a move did, and the final score taken apart.

Both read the positions before and after a move, not the action's encoding: a line that
closed boxes shows as boxes changing owner, a modifier choice as a legend value changing.
"""

from __future__ import annotations

from ...core.game import CHANCE
from ...core.tallies import Stats
from ...core.words import plural
from .actions import Choose, PillageAction
from .contents import Commodity, Content, Doubloons, Modifier, content_text
from .rules import PillageState


def narrate(before: PillageState, action: PillageAction, after: PillageState) -> str:
    """``Player 2 drew b1-c1 and took 2 boxes (+7 doubloons, +1 food); Player 2 draws again``."""
    g = before.game
    if before.current_player == CHANCE:
        box = before.contents.index(None)
        dealt = after.contents[box]
        assert dealt is not None
        return f"Box {box + 1} of {len(before.contents)} holds {_content_words(dealt, before)}"
    who = g.seat_name(before.current_player)
    if isinstance(action, Choose):
        return who + " " + _choice_words(before, action, after)
    line = g.action_to_text(before, action)
    taken = [b for b, (was, now) in enumerate(zip(before.owner, after.owner)) if was != now]
    if not taken:
        return f"{who} drew {line}"
    said = f"{who} drew {line} and took {plural(len(taken), 'box', 'boxes')} ({_gains(before, after)})"
    if after.pending:
        mods = " and ".join(content_text(m, g.legend) for m in after.pending_modifiers())
        said += f"; {who} chooses what the modifier{'s' if len(after.pending) > 1 else ''} {mods} "
        said += "do" if len(after.pending) > 1 else "does"
    elif not after.is_terminal():
        said += f"; {who} draws again"
    return said


def _choice_words(before: PillageState, action: Choose, after: PillageState) -> str:
    """``used the modifier -5 f/w as -5 food: food 5→0``: the operation and kind are the
    action's own, as two operations can give the same value (``+2`` and ``x2`` on 2)."""
    g = before.game
    k = action.kind
    kind = g.legend.kinds[k]
    said = f"used the modifier {content_text(action.modifier, g.legend)} as {action.op}{action.modifier.amount} {kind}"
    if before.values[k] == after.values[k]:
        # a floor, or x1: say the value held rather than nothing
        return f"{said}: {kind} stays at {after.values[k]}"
    return f"{said}: {kind} {before.values[k]}→{after.values[k]}"


def _gains(before: PillageState, after: PillageState) -> str:
    """``+7 doubloons, 1 food, a modifier`` for what the mover just took."""
    p, g = before.mover, before.game
    parts = []
    coins = after.doubloons[p] - before.doubloons[p]
    if coins:
        parts.append(f"+{coins} doubloon{'' if coins == 1 else 's'}")
    for k, (was, now) in enumerate(zip(before.held[p], after.held[p])):
        if now > was:
            # "+1 weapons", a tally going up: a kind's name is the legend's, often a plural
            parts.append(f"+{now - was} {g.legend.kinds[k]}")
    mods = len(after.pending) - len(before.pending)
    if mods:
        parts.append("a modifier" if mods == 1 else f"{mods} modifiers")
    return ", ".join(parts)


def _content_words(content: Content, state: PillageState) -> str:
    legend = state.game.legend
    match content:
        case Doubloons(n):
            return f"{n} doubloon{'' if n == 1 else 's'}"
        case Commodity(kind):
            return legend.kinds[kind]
        case Modifier():
            return f"the modifier {content_text(content, legend)}"
    raise AssertionError(content)  # pragma: no cover



def breakdown(state: PillageState, stats: Stats) -> list[str]:
    """Each player's boxes, doubloons and commodities at their final values, summed (PP-7)."""
    g = state.game
    kinds = g.legend.kinds
    lines = ["Final values: " + ", ".join(f"{k} {v}" for k, v in zip(kinds, state.values))]
    scores = state.scores()
    for p in (0, 1):
        terms = [plural(state.doubloons[p], "doubloon", "doubloons")]
        terms += [f"{kinds[k]} {n} x {state.values[k]}" for k, n in enumerate(state.held[p]) if n]
        boxes = state.owner.count(p)
        lines.append(f"{g.seat_name(p)} ({plural(boxes, 'box', 'boxes')}): {' + '.join(terms)} = {scores[p]:g}")
    return lines
