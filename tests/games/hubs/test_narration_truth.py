"""Every dot, segment and round's end of many played Hubs games is told as it happened: the dot
where it was placed, the points the segment gave the offense (HB-4) and to whom, and the round
results and roles (HB-6), read from the positions before and after. A guard: issue 23's audit
found no misstatement here."""

from __future__ import annotations

import re

from plunder.agents import make_agent
from plunder.games.hubs.actions import Dot, Segment, label
from plunder.games.hubs.narrate import narrate
from plunder.games.hubs.rules import HubsGame

from tests.games.narration import moves

GAMES = 60
PLACED = re.compile(r"(Player \d) placed dot (\w+) at (\d+),(\d+)")
DREW = re.compile(r"(Player \d) drew (\w+)-(\w+): \+(\d+) for (Player \d) \(offense: (\d+) at (\w+) \+ (\d+) at (\w+)\)")
OVER = re.compile(r"round (\d+) over: (Player \d) scored (\d+) on offense")
NEXT = re.compile(r"round (\d+): (Player \d) on offense, match (\d+)-(\d+)")


def test_every_move_is_told_as_it_happened() -> None:
    games = [HubsGame.load(preset) for preset in ("small", "tiny", "long")]
    segments = ends = 0
    for seed in range(GAMES):
        game = games[seed % len(games)]
        name = game.seat_name
        agents = [make_agent("random" if seed % 2 else "easy", game) for _ in range(2)]
        for before, action, after in moves(game, agents, seed):
            said = narrate(before, action, after)
            mover = name(before.current_player)
            if isinstance(action, Dot):
                m = PLACED.match(said)
                assert m, said
                assert m.group(1) == mover and m.group(2) == label(len(before.dots)), said
                assert (int(m.group(3)), int(m.group(4))) == after.dots[len(before.dots)] == (action.x, action.y), said
            else:
                assert isinstance(action, Segment)
                m = DREW.match(said)
                assert m, said
                who, a, b, gain, offense, n, at_n, k, at_k = m.groups()
                assert who == mover and (a, b) == (label(action.first), label(action.second)), said
                assert offense == name(before.offense) and (at_n, at_k) == (a, b), said
                assert (int(n), int(k)) == (before.degree[action.first], before.degree[action.second]), said
                assert int(gain) == after.totals[before.offense] - before.totals[before.offense] == int(n) + int(k), said
                assert after.totals[1 - before.offense] == before.totals[1 - before.offense], said
                segments += 1
            over = OVER.search(said)
            assert bool(over) == (after.round > before.round), said
            if over:
                result = after.last_round
                assert result is not None
                assert int(over.group(1)) == before.round + 1 and over.group(2) == name(result.offense), said
                assert result.offense == before.offense and int(over.group(3)) == result.points, said
                nxt = NEXT.search(said)
                assert bool(nxt) == (after.round < game.rounds), said
                if nxt:
                    assert int(nxt.group(1)) == after.round + 1 and nxt.group(2) == name(after.offense), said
                    assert (int(nxt.group(3)), int(nxt.group(4))) == after.totals, said
                ends += 1
    assert segments > 600 and ends > 100, (segments, ends)
