"""Every line and modifier choice of many played Pillage games is told as it happened: the
boxes a line took, and the operation, kind and values of the modifier the capturer chose (PP-5),
read from the action and the positions before and after. Issue 23's audit found ``+2`` told as
``x2`` (or the reverse) when both give the same value."""

from __future__ import annotations

import json
import re

from plunder.agents import make_agent
from plunder.games.pillage.actions import Choose, Line
from plunder.games.pillage.narrate import narrate
from plunder.games.pillage.rules import PillageGame

from tests.games.narration import moves

GAMES = 100
USED = re.compile(r"used the modifier (.+?) as ([+\-x])(\d+) (\w+): (\w+) (?:(-?\d+)→|stays at )(-?\d+)")
TOOK = re.compile(r"drew \S+ and took (\d+) box")


def _twins() -> str:
    """A 2x2 board whose every box is ``+x2 food`` on a legend of food 2: the first choice's
    ``+2`` and ``x2`` both give 4, so only the action says which was chosen."""
    dots = [[x, y] for y in range(3) for x in range(3)]
    boxes = [{"dots": [3 * y + x, 3 * y + x + 1, 3 * y + x + 4, 3 * y + x + 3], "content": "+x2 food/weapons"}
             for y in range(2) for x in range(2)]
    return "json:" + json.dumps({"dots": dots, "boxes": boxes, "legend": {"food": 2, "weapons": 2}})


def test_every_choice_is_told_with_the_operation_chosen() -> None:
    games = [PillageGame.load(preset) for preset in ("default", "small", "floor", "hex")] + [PillageGame.load(board=_twins())]
    choices = ties = 0
    for seed in range(GAMES):
        game = games[seed % len(games)]
        agents = [make_agent("random" if seed % 2 else "easy", game) for _ in range(2)]
        for before, action, after in moves(game, agents, seed):
            said = narrate(before, action, after)
            if isinstance(action, Choose):
                m = USED.search(said)
                assert m, said
                _, op, amount, kind, again, was, now = m.groups()
                k = action.kind
                assert (op, int(amount), kind) == (action.op, action.modifier.amount, game.legend.kinds[k]), said
                assert again == kind and (int(was or now), int(now)) == (before.values[k], after.values[k]), said
                choices += 1
                ties += action.op in "+x" and before.values[k] == 2 and action.modifier.amount == 2
            elif isinstance(action, Line):
                taken = sum(1 for was, now in zip(before.owner, after.owner) if was != now)
                m = TOOK.search(said)
                assert (int(m.group(1)) if m else 0) == taken, said
    assert choices > 100 and ties > 10, (choices, ties)
