"""The ``hard`` level for Pillage: budgets counted in work, so its games replay from their seed."""

import pytest

import plunder
from plunder.agents import make_agent
from plunder.games.pillage.hard import DEFAULT_NODES, HardAgent


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
