"""Every ship's move of many played Pirates games is told, where it really went: a sighted ship
where the lookout placed it (PR-5) and then where it sailed, the ships that sail after a steer
(PR-7), and "choose the order" only when there is an order to choose (PR-6). Issue 23's audit
found sightings told where the ship ended and the moves after a steer left out."""

from __future__ import annotations

import re

from plunder.agents import make_agent
from plunder.games.pirates.actions import Draw, Steer
from plunder.games.pirates.narrate import narrate
from plunder.games.pirates.rules import PiratesGame
from plunder.games.pirates.sea import cell_text
from plunder.games.pirates import tables as T

from tests.games.narration import moves

GAMES = 100
SIGHTED = re.compile(r"It is the (\w+) .*?, at (\d+,\d+) \(")
SAILS = re.compile(r"the (\w+) ([a-z ]+?) sails to (\d+,\d+)", re.IGNORECASE)


def test_every_ship_move_is_told_where_it_went() -> None:
    sightings = steers = orders = 0
    for seed in range(GAMES):
        # both tie rules: the player steers (random agent) or a fixed rule does
        game = PiratesGame.load(seed=str(seed), ties="player" if seed % 2 else "auto")
        agents = [make_agent(("random", "easy", "greedy")[seed % 3], game)]
        for before, action, after in moves(game, agents, seed):
            said = narrate(before, action, after)
            was = dict(before.coins)
            if isinstance(action, Draw):
                assert before.pos is not None
                spot = game.sea.opposite_quadrant(before.pos)
                m = SIGHTED.search(said)
                assert m and m.group(2) == cell_text(spot), f"{said}: placed at {cell_text(spot)}"
                assert m.group(1) == T.coin_suit(action.coin), said
                was[action.coin] = spot
                sightings += 1
            moved = {(T.coin_suit(c), cell_text(at)) for c, at in after.coins if c in was and was[c] != at}
            told = {(m.group(1).lower(), m.group(3)) for m in SAILS.finditer(said)}
            assert told == moved, f"{said}: the ships that sailed are {sorted(moved)}"
            if isinstance(action, Steer):
                steers += 1
            if "choose the order" in said:
                assert len(after.fights) >= 2, said
                orders += 1
    assert sightings > 100 and steers > 10 and orders > 0, (sightings, steers, orders)
