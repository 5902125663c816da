"""The ``hard`` level for Pillage: budgets counted in work, so its games replay from their seed."""

import random

import pytest

import plunder
from plunder.agents import make_agent
from plunder.games.pillage.actions import Choose, Line
from plunder.games.pillage.hard import DEFAULT_NODES, HardAgent
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.solver import solve


def test_two_games_by_hard_with_one_seed_are_the_same_game() -> None:
    """Issue 12: hard stopped its solver after 5 s of wall time, so a slower machine (or a
    busier moment) could play other moves. Its solver budget now counts positions; this small
    budget makes the solver give up on the first moves and succeed later, both paths taken."""
    game = plunder.load_game("pillage", board="square:2x3", contents="random")
    players = ["pillage-hard:sims=40,nodes=3000", "greedy"]
    first = plunder.play(game, players, seed=11)
    again = plunder.play(plunder.load_game("pillage", board="square:2x3", contents="random"), players, seed=11)
    assert first == again
    assert len(first.moves) > 17


def test_hard_counts_positions_and_its_clock_is_optional() -> None:
    game = plunder.load_game("pillage", preset="small")
    agent = make_agent("hard", game)
    assert isinstance(agent, HardAgent) and agent.nodes == DEFAULT_NODES and agent.seconds is None
    timed = make_agent("pillage-hard:seconds=0.5,nodes=1000", game)
    assert isinstance(timed, HardAgent) and timed.seconds == 0.5 and timed.nodes == 1000
    for bad in ("pillage-hard:seconds=0", "pillage-hard:seconds=soon", "pillage-hard:depth=2"):
        with pytest.raises(plunder.ParameterError):
            make_agent(bad, game)


@pytest.mark.parametrize(("board", "contents"), [("square:5x6", "unit"), ("square:5x6", "random"),
                                                  ("square:8x8", "random"), ("square:12x12", "random")])
def test_hard_plays_whole_games_on_boards_past_64_lines(board: str, contents: str) -> None:
    """Issue 26: once 22 lines were left, hard's solver failed on every board of more than 64
    lines (OverflowError on unit boards, ValueError on valued ones), so the game aborted. A
    whole game against greedy now ends, and near the end hard's answer is the solver's."""
    game = PillageGame.load(board=board, contents=contents)
    hard = make_agent("pillage-hard:sims=5,rollouts=1,nodes=50000", game)
    greedy = make_agent("greedy", game)
    assert isinstance(hard, HardAgent)
    rng = random.Random(5)
    state = game.new_initial_state()
    proven = ""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        agent = hard if state.current_player == 0 else greedy
        if agent is hard and not proven and len(state.legal_actions()) <= 12:
            (best, proven), = hard.analyse(state, rng)
            assert best == solve(state).best_action
        action = agent.choose(state, rng)
        assert isinstance(action, (Line, Choose))
        state = state.apply(action)
    assert proven.endswith("(proven)")
