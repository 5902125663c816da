"""The compiled MCTS tree against the pure search it stands for: the same visits and values, bit
for bit, from the same seeds (the pure search evaluating leaves one at a time, ``batch=1``)."""

from __future__ import annotations

import random

import pytest

import plunder
from plunder.agents import make_agent
from plunder.agents.mcts import MCTSAgent, RolloutEvaluator
from plunder.core.chance import sample_chance
from plunder.games.pillage.evaluator import make_evaluator
from plunder.games.pillage.rules import PillageGame, PillageState

pytest.importorskip("numba")

from plunder.games.pillage.tree_rules import compiled_rules  # noqa: E402

from tests.agents.toy_compiled import race_rules  # noqa: E402
from tests.agents.toy_games import STEP, race  # noqa: E402


def _position(game: PillageGame, seed: int, plies: int) -> PillageState:
    """Deal, then ``plies`` random moves."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(sample_chance(state, rng))
    for _ in range(plies):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _pair(game: PillageGame, sims: int, rollouts: int, playout: str, reuse: bool = False) -> tuple[MCTSAgent, MCTSAgent]:
    """The pure search (leaves one at a time) and the compiled tree, otherwise the same."""
    pure: MCTSAgent = MCTSAgent(game, sims=sims, evaluator=make_evaluator(game, rollouts, playout), reuse=reuse, batch=1)
    rules = compiled_rules(game, rollouts, playout)
    assert rules is not None
    tree: MCTSAgent = MCTSAgent(game, sims=sims, evaluator=make_evaluator(game, rollouts, playout), reuse=reuse,
                                compiled=rules)
    return pure, tree


def _pure_rank(agent: MCTSAgent, state: PillageState, rng: random.Random) -> list:
    # the compiled tree takes its leaf stream from ``rng`` before its first draw, the pure
    # search after its first expansion: the pure one is handed its stream first
    agent.evaluator._numpy_rng(rng)  # type: ignore[attr-defined]
    return agent.ranked(agent.search(state, rng))


@pytest.mark.parametrize("board,contents,playout,rollouts", [
    ("square:3x3", "unit", "random", 1),
    ("square:3x3", "random", "greedy", 4),
    ("square:2x3", "random", "random", 2),
    ("triangle:2x2", "random", "safe", 1),
])
def test_compiled_tree_matches_the_pure_search(board: str, contents: str, playout: str, rollouts: int) -> None:
    game = plunder.load_game("pillage", board=board, contents=contents)
    assert isinstance(game, PillageGame)
    pending_seen = 0
    for seed in range(4):
        state = _position(game, seed, 2 + 3 * seed)
        if len(state.legal_actions()) < 2:
            continue
        pure, tree = _pair(game, 200, rollouts, playout)
        r1, r2 = random.Random(seed), random.Random(seed)
        expected = _pure_rank(pure, state, r1)
        got = tree.rank(state, r2)
        assert got == expected  # actions, visits and mean values, in the same order
        assert r1.random() == r2.random()  # the tree's stream left where the pure search left it
        assert tree.tree is not None and tree.tree._arrays is not None
        states = tree.tree._arrays[0][: tree.tree._meta[0]]
        pending_seen += int((states[:, -4] > 0).sum())  # nodes where a captured modifier waits
    if contents == "random":
        assert pending_seen > 0, "the searches passed modifier choices"


def test_kept_tree_matches_the_pure_search_move_after_move() -> None:
    game = plunder.load_game("pillage", board="square:3x3", contents="random")
    assert isinstance(game, PillageGame)
    pure, tree = _pair(game, 150, 2, "greedy", reuse=True)
    state = _position(game, 7, 0)
    moves = 0
    while not state.is_terminal() and moves < 6:
        if len(state.legal_actions()) > 1:
            r1, r2 = random.Random(moves), random.Random(moves)
            expected = _pure_rank(pure, state, r1)
            assert tree.rank(state, r2) == expected
            moves += 1
        state = state.apply(state.legal_actions()[0])
    assert moves == 6
    assert tree.tree is not None and tree.tree._meta[0] > 150, "the later searches kept the earlier tree"


@pytest.mark.parametrize("players", [1, 2, 3])
def test_chance_nodes_and_any_number_of_seats(players: int) -> None:
    """The race, with chance after every move, compiled in the test: the same ranking as the
    pure search with random rollouts."""
    game = race(players, target=7)
    rules = race_rules(game)
    for seed in range(3):
        state = game.new_initial_state().apply(STEP[1]).apply(STEP[seed % 2])
        pure: MCTSAgent = MCTSAgent(game, sims=300, evaluator=RolloutEvaluator(1), reuse=False)
        tree: MCTSAgent = MCTSAgent(game, sims=300, evaluator=RolloutEvaluator(1), reuse=False, compiled=rules)
        r1, r2 = random.Random(seed), random.Random(seed)
        expected = pure.ranked(pure.search(state, r1))
        assert tree.rank(state, r2) == expected
        assert r1.random() == r2.random()
        assert tree.tree is not None and tree.tree._arrays is not None
        assert (tree.tree._arrays[1][: tree.tree._meta[0], 0] == -1).any(), "the tree holds chance nodes"


def test_growing_arrays_keep_the_search_equal() -> None:
    """A tree that outgrows its arrays mid-search continues where it stopped."""
    game = plunder.load_game("pillage", board="square:2x2", contents="unit")
    assert isinstance(game, PillageGame)
    pure, tree = _pair(game, 400, 1, "random")
    assert tree.tree is not None
    tree.tree.reserve = 390  # so the first arrays hold few simulations
    state = _position(game, 1, 1)
    r1, r2 = random.Random(3), random.Random(3)
    expected = _pure_rank(pure, state, r1)
    assert tree.rank(state, r2) == expected


def test_levels_use_the_compiled_tree_where_the_game_offers_it() -> None:
    game = plunder.load_game("pillage", board="square:3x3", contents="unit")
    assert make_agent("mcts", game).tree is not None  # type: ignore[attr-defined]
    assert make_agent("mcts:tree=python", game).tree is None  # type: ignore[attr-defined]
    assert make_agent("mcts:eval=random", game).tree is None  # type: ignore[attr-defined]
    hard = make_agent("hard", game)
    assert hard.search.tree is not None and hard.search.sims == 7000  # type: ignore[attr-defined]
    before = make_agent("pillage-hard:tree=python,sims=3000", game)
    assert before.search.tree is None  # type: ignore[attr-defined]
    assert make_agent("mcts", race(2)).tree is None  # type: ignore[attr-defined]


def test_positions_still_dealt_play_the_pure_search() -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    assert isinstance(game, PillageGame)
    rules = compiled_rules(game, 1, "")
    assert rules is not None
    assert rules.tables(game.new_initial_state()) is None


def test_more_rollouts_than_the_compiled_mean_holds_play_in_python() -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="unit")
    assert compiled_rules(game, 9, "greedy") is None
    assert compiled_rules(game, 8, "greedy") is not None


def test_warm_compiles_the_tree_of_a_game_with_compiled_rules() -> None:
    from plunder.agents import tree

    tree.warm(plunder.load_game("pillage", board="square:2x2", contents="random"))  # dealt first, then searched
    tree.warm(race(2))  # no compiled rules: nothing to do
    assert any(name.startswith("_search_pillage_") for name in tree._searches)


def test_searches_sharing_one_rng_continue_its_streams_as_the_pure_search_does() -> None:
    game = plunder.load_game("pillage", board="square:3x3", contents="random")
    assert isinstance(game, PillageGame)
    pure, tree = _pair(game, 120, 1, "greedy")
    r1, r2 = random.Random(5), random.Random(5)
    pure.evaluator._numpy_rng(r1)  # type: ignore[attr-defined]
    for plies in (2, 5, 9):
        state = _position(game, plies, plies)
        assert tree.rank(state, r2) == pure.ranked(pure.search(state, r1))
    assert r1.random() == r2.random()
