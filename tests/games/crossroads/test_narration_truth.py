"""Every move of many played Crossroads games is told as it happened: the gold each seat gained
or spent (CR-2, CR-4, CR-7), what was built where, the gold at a round's end, and who won, read
from the positions before and after. A guard: issue 23's audit found no misstatement here."""

from __future__ import annotations

import re

from plunder.agents import make_agent
from plunder.games.crossroads.actions import Accept, Axis, City, Road, Roll
from plunder.games.crossroads.board import cell_name
from plunder.games.crossroads.narrate import narrate
from plunder.games.crossroads.rules import CrossroadsGame, Phase

from tests.games.narration import moves

GAMES = 25
PAID = re.compile(r"(Player \d) ([+-]\d+)")
BUILT = re.compile(r"(Player \d) built a (city|road) on (\w+) \(-(\d+) gold, (\d+) left\)")
ROUND = re.compile(r"round (\d+) ends: ((?:Player \d -?\d+(?:, )?)+); round (\d+) begins")
WON = re.compile(r"(Player \d) wins with (\d+) gold")


def test_every_move_is_told_as_it_happened() -> None:
    paid = built = rounds = won = 0
    for seed in range(GAMES):
        # a short game: a low target ends it in a few rounds
        game = CrossroadsGame.load(players=str(2 + seed % 3), target="30")
        name = game.seat_name
        agents = [make_agent("random" if seed % 2 else "greedy", game) for _ in range(game.num_players)]
        for before, action, after in moves(game, agents, seed):
            said = narrate(before, action, after)
            changed = {(name(i), b - a) for i, (a, b) in enumerate(zip(before.gold, after.gold)) if a != b}
            if isinstance(action, (Axis, Accept)) or (isinstance(action, Roll) and after.phase is Phase.BUILD):
                # the activation's or trade's own clauses, before any round's end
                head = "; ".join(said.split("; ")[:1 if isinstance(action, Accept) else 2])
                told = {(who, int(n)) for who, n in PAID.findall(head)}
                assert told == changed, f"{said}: gold changed {sorted(changed)}"
                assert ("nobody is paid" in head) == (not changed) or isinstance(action, Accept), said
                paid += bool(changed)
            if isinstance(action, (City, Road)):
                m = BUILT.match(said)
                assert m, said
                who, kind, cell, cost, left = m.groups()
                assert who == name(before.seat) and cell == cell_name(action.cell), said
                assert kind == ("city" if isinstance(action, City) else "road"), said
                assert changed == {(who, -int(cost))} and int(left) == after.gold[before.seat], said
                built += 1
            r = ROUND.search(said)
            if r:
                assert int(r.group(1)) == before.round and int(r.group(3)) == after.round, said
                assert r.group(2) == ", ".join(f"{name(i)} {g}" for i, g in enumerate(after.gold)), said
                rounds += 1
            w = WON.search(said)
            assert bool(w) == (after.phase is Phase.OVER and len(after.winners) == 1 and before.phase is not Phase.OVER), said
            if w:
                seat = after.winners[0]
                assert w.group(1) == name(seat) and int(w.group(2)) == after.gold[seat] == max(after.gold), said
                assert after.gold[seat] >= int(game.values["target"]) or after.round >= int(game.values["max_rounds"]), said
                won += 1
    assert paid > 100 and built > 50 and rounds > 25 and won > 10, (paid, built, rounds, won)
