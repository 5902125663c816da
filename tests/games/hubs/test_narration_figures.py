"""Every figure a Hubs line states is the position's: the dot placed and where (HB-3), the
number of dots down, each segment's points and the degrees they come from (HB-4), the round
over, its offense's points and the match score after it (HB-6), and the seats named. Each is
read from the action and the positions before and after; a figure no check reads fails the line
(issue 41)."""

from __future__ import annotations

import re

from plunder.games.hubs.actions import Dot, HubsAction, Segment, label
from plunder.games.hubs.narrate import narrate
from plunder.games.hubs.rules import HubsGame, HubsState

from tests.games.narration import SEAT, Figures, figures_read

PLACED = re.compile(rf"^{SEAT} placed dot (\w+) at (\d+),(\d+)")
DOWN = re.compile(rf"all (\d+) dots are down: {SEAT} \(defense\) draws the first segment")
DREW = re.compile(rf"^{SEAT} drew (\w+)-(\w+): \+(\d+) for {SEAT} \(offense: (\d+) at (\w+) \+ (\d+) at (\w+)\)")
OVER = re.compile(rf"round (\d+) over: {SEAT} scored (\d+) on offense")
NEXT = re.compile(rf"round (\d+): {SEAT} on offense, match (\d+)-(\d+)")


def _check(s: HubsState, action: HubsAction, t: HubsState) -> set[str]:
    line = Figures(narrate(s, action, t))
    g = s.game
    name = g.seat_name
    seen = set()
    if isinstance(action, Dot):
        m = line.one(PLACED)
        assert m and m.group(1) == name(s.current_player) and m.group(2) == label(len(s.dots)), line.said
        assert (int(m.group(3)), int(m.group(4))) == (action.x, action.y) == t.dots[len(s.dots)], line.said
        down = line.one(DOWN)
        assert bool(down) == (len(t.dots) == g.dots and t.round == s.round), line.said
        if down:
            assert int(down.group(1)) == g.dots and down.group(2) == name(t.current_player) != name(t.offense), line.said
            seen.add("down")
    else:
        assert isinstance(action, Segment)
        m = line.one(DREW)
        assert m, line.said
        who, a, b, gain, offense, n, at_n, k, at_k = m.groups()
        assert who == name(s.current_player) and (a, b) == (label(action.first), label(action.second)) == (at_n, at_k), line.said
        assert offense == name(s.offense) and (int(n), int(k)) == (s.degree[action.first], s.degree[action.second]), line.said
        # the offense scores the two degrees before the segment (HB-4), the defense nothing
        assert int(gain) == int(n) + int(k) == t.totals[s.offense] - s.totals[s.offense], line.said
        assert t.totals[1 - s.offense] == s.totals[1 - s.offense], line.said
        seen.add("segment")
    over = line.one(OVER)
    assert bool(over) == (t.round > s.round), line.said
    if over:
        result = t.last_round
        assert result is not None and result.offense == s.offense, line.said
        assert int(over.group(1)) == t.round == s.round + 1 and over.group(2) == name(s.offense), line.said
        assert int(over.group(3)) == result.points, line.said
        seen.add("round")
    nxt = line.one(NEXT)
    assert bool(nxt) == (bool(over) and t.round < g.rounds), line.said
    if nxt:
        assert int(nxt.group(1)) == t.round + 1 and nxt.group(2) == name(t.offense) == name(g.offense(t.round)), line.said
        assert (int(nxt.group(3)), int(nxt.group(4))) == t.totals, line.said
    line.all_read()
    return seen


def test_every_figure_of_every_line_is_the_positions() -> None:
    games = [HubsGame.load(preset) for preset in ("small", "tiny", "long")]
    seen = figures_read(lambda seed: (games[seed % len(games)], ["random" if seed % 2 else "easy"] * 2), _check)
    assert seen.get("segment", 0) > 1000 and seen.get("down", 0) > 200 and seen.get("round", 0) > 200, seen
