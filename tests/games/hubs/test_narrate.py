"""Hubs narration and the per-round breakdown, on a scripted match and on played games."""

from __future__ import annotations

import random

from plunder.agents import make_agent
from plunder.core.record import replay
from plunder.games.hubs import ENTRY
from plunder.games.hubs.actions import Dot, Segment
from plunder.games.hubs.narrate import breakdown, narrate
from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.stats import HubsObserver
from plunder.match import breakdown_of, play

# Round 1 on the tiny 3x3 sheet (Player 1 on offense, Player 2 places and draws first):
#
#   y=2  c . e          c-e closes the round: every dot has two segments
#   y=1  . d f
#   y=0  . b a
#       x=0 1 2
ROUND_1 = ["2,0", "1,0", "0,2", "1,1", "2,2", "2,1",
           "b-c", "b-d", "a-f", "a-b", "d-e", "b-f", "c-e"]


def test_a_round_told_segment_by_segment() -> None:
    game = HubsGame.load(preset="tiny")
    state = game.new_initial_state()
    observer = HubsObserver(game)
    said = []
    for text in ROUND_1:
        action = game.parse_action(state, text)
        after = state.apply(action)
        said.append(narrate(state, action, after))
        observer.see(state, action, after)
        state = after
    assert said[0] == "Player 2 placed dot a at 2,0"
    assert said[5] == "Player 1 placed dot f at 2,1; all 6 dots are down: Player 2 (defense) draws the first segment"
    assert said[6] == "Player 2 drew b-c: +0 for Player 1 (offense: 0 at b + 0 at c)"
    # the text: a segment from a dot with n segments to one with m scores n + m for the offense
    assert said[9] == "Player 1 drew a-b: +3 for Player 1 (offense: 1 at a + 2 at b)"
    assert said[12] == ("Player 2 drew c-e: +2 for Player 1 (offense: 1 at c + 1 at e); round 1 over: "
                        "Player 1 scored 11 on offense; round 2: Player 2 on offense, match 11-0")
    assert breakdown(state, observer.breakdown_figures(state)) == [
        "Round 1: Player 1 on offense scored 11 against Player 2's defense (7 segments, at most 4 at a dot)",
        "Player 1: 11 = 11 on offense",
        "Player 2: 0 = 0 on offense",
    ]
    # the rounds one by one are the observer's, not the position's: without them, the totals
    assert breakdown(state, {}) == ["Player 1: 11 on offense", "Player 2: 0 on offense"]
    assert breakdown(state, observer.stats(state)) == breakdown(state, {})


def test_every_move_of_played_games_is_told() -> None:
    for preset, agent, seed in (("tiny", "random", 1), ("small", "greedy", 2), ("long", "random", 3)):
        game = HubsGame.load(preset=preset)
        player = make_agent(agent, game)
        rng = random.Random(seed)
        state = game.new_initial_state()
        observer = HubsObserver(game)
        while not state.is_terminal():
            action = player.choose(state, rng)
            assert isinstance(action, (Dot, Segment))
            after = state.apply(action)
            said = narrate(state, action, after)
            assert said.startswith(game.seat_name(state.current_player)) and "\n" not in said
            observer.see(state, action, after)
            state = after
        lines = breakdown(state, observer.breakdown_figures(state))
        assert len(lines) == game.rounds + 2
        assert lines[-2].endswith(f"= {state.totals[0]} on offense") and lines[-1].endswith(f"= {state.totals[1]} on offense")
    assert ENTRY.presentation.narrate is narrate and ENTRY.presentation.breakdown is breakdown


def test_the_match_hands_the_breakdown_its_rounds_one_by_one() -> None:
    # breakdown_of (terminal, web table, replay page) shows the observer every move and gives the
    # breakdown its rounds (an Itemiser's figures), which no position keeps
    game = HubsGame.load(preset="long")
    record = play(game, ["greedy", "random"], seed=4)
    lines = breakdown_of(game, record.moves)
    final = replay(record)
    assert isinstance(final, HubsState) and final.is_terminal()
    assert [line.split(":")[0] for line in lines] == [f"Round {i}" for i in range(1, 5)] + ["Player 1", "Player 2"]
    offense = [int(line.split(" scored ")[1].split()[0]) for line in lines[:4]]
    assert lines[4] == f"Player 1: {offense[0]} + {offense[2]} = {final.totals[0]} on offense"
    assert lines[5] == f"Player 2: {offense[1]} + {offense[3]} = {final.totals[1]} on offense"
    assert offense[0] + offense[2] == final.totals[0] and offense[1] + offense[3] == final.totals[1]
