"""Every figure a Pillage line states is the position's: the box a chance deal filled and what
it holds (PP-1), the line drawn, the boxes it took and the doubloons, commodities and modifiers
they gave (PP-4), the modifiers to choose for, and a choice's operation, amount and the value
before and after it (PP-5, PP-6: below zero, or held at the floor). Each is read from the action
and the positions before and after; a figure no check reads fails the line (issue 41)."""

from __future__ import annotations

import re

from plunder.core.game import CHANCE
from plunder.games.pillage.actions import Choose, Line, PillageAction
from plunder.games.pillage.contents import Commodity, Doubloons, content_text
from plunder.games.pillage.narrate import narrate
from plunder.games.pillage.rules import PillageGame, PillageState

from tests.games.narration import SEAT, Figures, figures_read

BOX = re.compile(r"^Box (\d+) of (\d+) holds (.+)$")
DREW = re.compile(rf"^{SEAT} drew (\S+?)(?= and took |;|$)")
TOOK = re.compile(r" and took (\d+) box(?:es)? \((.*?)\)(?=;|$)")
GAIN = re.compile(r"\+(\d+) (\w+)|(a|\d+) modifiers?")
PENDING = re.compile(rf"; {SEAT} chooses what the modifiers? (.+) do(?:es)?$")
AGAIN = re.compile(rf"; {SEAT} draws again$")
USED = re.compile(rf"^{SEAT} used the modifier (.+?) as ([+\-x])(\d+) (\w+): (\w+) (?:(-?\d+)→|stays at )(-?\d+)$")


def _value(was: int, op: str, amount: int, floor: int | None) -> int:
    """A commodity's value after a modifier (PP-5); the floor, if any, holds it up (PP-6)."""
    now = was + amount if op == "+" else was - amount if op == "-" else was * amount
    return now if floor is None else max(floor, now)


def _check(s: PillageState, action: PillageAction, t: PillageState) -> set[str]:
    line = Figures(narrate(s, action, t))
    g = s.game
    legend = g.legend
    seen = set()
    if s.current_player == CHANCE:
        m = line.one(BOX)
        box = s.contents.index(None)
        dealt = t.contents[box]
        assert m and dealt is not None and (int(m.group(1)), int(m.group(2))) == (box + 1, len(s.contents)), line.said
        words = {Doubloons: lambda c: f"{c.n} doubloon{'' if c.n == 1 else 's'}",
                 Commodity: lambda c: legend.kinds[c.kind]}.get(type(dealt), lambda c: f"the modifier {content_text(c, legend)}")
        assert m.group(3) == words(dealt), line.said
        seen.add("deal")
    elif isinstance(action, Choose):
        m = line.one(USED)
        assert m, line.said
        who, mod, op, amount, kind, again, was, now = m.groups()
        k = action.kind
        assert who == g.seat_name(s.current_player) and mod == content_text(action.modifier, legend), line.said
        assert (op, int(amount), kind, again) == (action.op, action.modifier.amount, legend.kinds[k], legend.kinds[k]), line.said
        assert int(was if was is not None else now) == s.values[k], line.said
        assert int(now) == t.values[k] == _value(s.values[k], action.op, action.modifier.amount, g.floor), line.said
        assert (was is None) == (s.values[k] == t.values[k]), line.said
        seen.add("below zero" if t.values[k] < 0 else "choice")
    else:
        assert isinstance(action, Line)
        p = s.mover
        m = line.one(DREW)
        assert m and m.group(1) == g.seat_name(p) and m.group(2) == g.action_to_text(s, action), line.said
        taken = sum(1 for was, now in zip(s.owner, t.owner) if was != now)
        took = line.one(TOOK)
        assert bool(took) == (taken > 0), line.said
        if took:
            assert int(took.group(1)) == taken, line.said
            gains: dict[str, int] = {}
            for gm in GAIN.finditer(took.group(2)):
                n, what, mods = gm.groups()
                if mods:
                    gains["modifiers"] = 1 if mods == "a" else int(mods)
                else:
                    gains["doubloons" if what.startswith("doubloon") else what] = int(n)
            coins = t.doubloons[p] - s.doubloons[p]
            held = {legend.kinds[k]: now - was for k, (was, now) in enumerate(zip(s.held[p], t.held[p])) if now > was}
            expected = {**({"doubloons": coins} if coins else {}), **held}
            if len(t.pending) > len(s.pending):
                expected["modifiers"] = len(t.pending) - len(s.pending)
            assert gains == expected, f"{line.said}: took {expected}"
            assert not re.search(r"\d", GAIN.sub("", took.group(2))), f"{line.said}: a gain no check reads"
            seen.add("take")
        pending = line.one(PENDING)
        assert bool(pending) == (taken > 0 and bool(t.pending)), line.said
        if pending:
            mods = " and ".join(content_text(m, legend) for m in t.pending_modifiers())
            assert pending.group(1) == g.seat_name(p) and pending.group(2) == mods, line.said
        again = line.one(AGAIN)
        assert bool(again) == (taken > 0 and not t.pending and not t.is_terminal()), line.said
        assert not again or (again.group(1) == g.seat_name(p) and t.current_player == p), line.said
    line.all_read()
    return seen


def test_every_figure_of_every_line_is_the_positions() -> None:
    games = [PillageGame.load(preset) for preset in ("default", "small", "floor", "hex")]
    seen = figures_read(lambda seed: (games[seed % len(games)], ["random" if seed % 2 else "easy"] * 2), _check)
    assert all(seen.get(k, 0) > 50 for k in ("deal", "choice", "take")) and seen.get("below zero", 0) > 0, seen
