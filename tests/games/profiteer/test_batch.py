"""The batch path plays exactly the games the public API plays for the same seeds.

Each game is compared whole: the final position (every field the position compares), the
returns, the scores and the statistics, against :func:`plunder.match.play_stats`.
"""

from __future__ import annotations

from itertools import accumulate

import pytest

import plunder
from plunder.agents import make_agent
from plunder.core.game import Game
from plunder.games.profiteer import batch
from plunder.games.profiteer.agents import GreedyAgent
from plunder.games.profiteer.flow import deck_weights
from plunder.games.profiteer.stats import final_stats
from plunder.match import play_stats
from plunder.simulate import play_chunk


def same_as_public(game: Game, agent: str, seeds: range) -> dict[str, float]:
    """Compare every game of ``seeds``; the statistics summed over them (what the games covered)."""
    built = make_agent(agent, game)
    assert isinstance(built, GreedyAgent)
    finals = batch.play_batch(game, built, list(seeds))  # type: ignore[arg-type]
    covered: dict[str, float] = {}
    for seed, (final, tallies) in zip(seeds, finals, strict=True):
        _, public, stats = play_stats(game, [built], seed=seed)
        assert final == public, seed
        assert (final.returns(), final.scores(), final_stats(final, tallies)) == \
            (public.returns(), public.scores(), stats), seed
        for key, value in stats.items():
            covered[key] = covered.get(key, 0.0) + float(value)  # type: ignore[arg-type]
    return covered


@pytest.fixture
def arrays_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game played on the arrays to its end, none handed to the one-game path."""
    monkeypatch.setattr(batch, "HAND_OVER", 0)
    monkeypatch.setattr(batch, "HAND_OVER_SHARE", 0.0)


@pytest.mark.usefixtures("arrays_to_the_end")
@pytest.mark.parametrize("agent, params, games", [
    ("greedy", {}, 300),
    ("profit", {}, 150),
    ("greedy", {"war_switch": "true"}, 100),  # PF-13: switches in wars too
    ("profit", {"hand": "6", "keep": "4", "target": "20"}, 100),
    ("greedy", {"max_rounds": "2"}, 60),  # PF-8: the last pass ends the game
    ("greedy:war=0,level=1.5,spend=0,late=4", {"hand": "20", "keep": "0"}, 60),  # PF-2: keep nothing
])
def test_the_arrays_play_the_public_games(agent: str, params: dict[str, str], games: int) -> None:
    same_as_public(plunder.load_game("profiteer", **params), agent, range(7000, 7000 + games))


def test_the_last_long_games_are_finished_one_by_one_from_where_they_stood() -> None:
    # 400 games: the arrays play until 128 are left, the one-game path finishes those
    covered = same_as_public(plunder.load_game("profiteer"), "greedy", range(400))
    # the games compared went through wars, reshuffles (PF-5), gifts (PF-6) and every ending
    # but the last pass (which the max_rounds=2 case above reaches)
    assert all(covered[k] > 0 for k in ("war_rounds", "reshuffles", "gifts", "end_unequal", "end_declined",
                                         "end_empty_side"))


def test_the_cumulative_weights_are_the_floats_pick_sums() -> None:
    table = batch.cumulative_table()
    for unseen in (0, 1, 2, 13, 25, 26):
        for k in range(53):
            # a deck with unseen cards draws them from a pool of at least as many; else pool=0
            for p in range(max(unseen, 1), 53 - k) if unseen else (0,) if k else ():
                wk, wu = deck_weights(k, unseen, p)
                expected = list(accumulate([wk] * k + [wu] * p))
                assert table[k, unseen, p, :k + p].tolist() == expected, (k, unseen, p)


def test_the_runner_batches_the_greedy_seats_and_plays_the_rest_one_by_one() -> None:
    game = plunder.load_game("profiteer")
    agents = ["greedy", "random", "profit"]
    results = play_chunk(("profiteer", dict(game.params), agents, list(range(300)), 40))
    assert [i for i, _ in results] == list(range(300))
    for i, (seats, returns, scores, stats) in results[::7]:
        assert seats == [agents[i % 3]]
        _, final, played = play_stats(game, [make_agent(seats[0], game)], seed=40 + i)
        assert (returns, scores, stats) == (final.returns(), final.scores(), played)


def test_other_agents_are_declined() -> None:
    game = plunder.load_game("profiteer")
    assert batch.fast_batch(game, [make_agent("random", game)], [1, 2]) is None
    assert batch.fast_batch(game, [make_agent("mcts:sims=10", game)], [1]) is None
