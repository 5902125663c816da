"""A hint in a player's words (the web page's): which move to play and why, the value in
game terms, best first — never an agent's spec or a search's jargon.

The agent behind hints (``Strength.hint``) judges the moves as numbers when it can
(:class:`~plunder.core.agent.Appraiser`); the game says what each move does
(``Presentation.describe``). A move the agent only chooses is given as its choice.
"""

from __future__ import annotations

import random

from .core.agent import Agent, Appraisal, Appraiser
from .core.game import State
from .core.registry import entry
from .core.words import plural

#: other moves a hint names after the best
OTHER_MOVES = 2
#: two moves whose chances differ by less than this (in percentage points) are told as alike
ALIKE_POINTS = 3


def chance(value: float) -> int:
    """A search's value for the mover (-1 a loss .. +1 a win) as a chance in percent (a draw
    counting half)."""
    return round(50 * (max(-1.0, min(1.0, value)) + 1))


def advice(hinter: Agent, state: State, rng: random.Random) -> list[str]:
    """The hint's lines: "Play X: what it does." then why, then the next best moves."""
    describe = entry(state.game.id).presentation.describe
    text = state.game.action_to_text

    def play(action: object) -> str:
        said = describe(state, action) if describe else ""
        return f"{text(state, action)} ({said})" if said else text(state, action)

    judged: list[Appraisal] = hinter.appraise(state, rng) if isinstance(hinter, Appraiser) else []
    if not judged:
        return [f"Play {play(hinter.choose(state, rng))}.", "Why: it is the move the hard AI would make here."]
    best = judged[0]
    lines = [f"Play {play(best.action)}."]
    if best.margin is not None:
        margin = round(best.margin)
        lines.append("Why: with best play on both sides you finish "
                     + (f"{plural(abs(margin), 'point')} {'ahead' if margin > 0 else 'behind'}" if margin else "level")
                     + " (worked out exactly).")
        return lines
    others = judged[1:1 + OTHER_MOVES]
    tries = plural(best.tries, "game")
    if others and all(abs(chance(o.value) - chance(best.value)) < ALIKE_POINTS for o in others):
        lines.append(f"Why: of {tries} played out after it you won about {chance(best.value)}%; the next moves "
                     "did about as well, so any of them will do.")
    else:
        lines.append(f"Why: of {tries} played out after it you won about {chance(best.value)}%, more than "
                     "after any other move tried.")
    lines += [f"Next best: {play(o.action)}, won about {chance(o.value)}%." for o in others]
    return lines
