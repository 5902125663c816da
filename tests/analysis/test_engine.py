"""The analysis engine against the truth: the solver's values, reproducibility, the caches."""

from __future__ import annotations

import dataclasses

import pytest

from plunder import load_game, play
from plunder.analysis import DiskCache, Engine, Settings, analyse, margins
from plunder.analysis import engine as engine_module
from plunder.analysis.engine import MoveAnalysis, about, judged
from plunder.analysis.value import Valuation, confident_mark
from plunder.core.capabilities import Analysis
from plunder.core.errors import ParameterError, RecordError
from plunder.core.record import Record
from plunder.core.registry import entry
from plunder.games.pillage.hard import solve_state


def exact_loss(state, played: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The solver's value of ``state`` and the mover's exact margin after ``played``, asked of the
    solver directly."""
    mover = state.current_player
    after = state.apply_text(played)
    if after.is_terminal():
        value_after = margins(after.scores())[mover]
    else:
        v = solve_state(after).value
        value_after = v if after.current_player == mover else -v
    return solve_state(state).value, value_after


# the whole 2x3 board, whose first positions take the solver seconds, is bench/analysis_check.py's
@pytest.mark.parametrize("board,seed", [("square:2x2", 1), ("square:2x2", 2), ("square:1x4", 3)])
def test_values_on_small_boards_are_the_solvers(board: str, seed: int) -> None:
    game = load_game("pillage", board=board)
    record = play(game, ["random", "greedy"], seed=seed)
    result = analyse(record, Settings(sims=8))
    rules = entry("pillage").analysis
    assert rules is not None
    state = game.new_initial_state()
    checked = 0
    by_ply = {m.ply: m for m in result.moves}
    for i, move in enumerate(record.moves):
        if move.by is not None:
            judged = by_ply[i]
            assert judged.exact, f"move {i} of a {board} board is within the solver's reach"
            best, after = exact_loss(state, move.action)
            assert judged.loss == pytest.approx(best - after)
            assert judged.margins[move.by] == pytest.approx(after)
            assert judged.mark == rules.mark(best - after)
            checked += 1
        state = state.apply_text(move.action)
    assert checked == len(result.moves) > 0


def test_a_random_player_is_caught_losing_on_a_small_board() -> None:
    game = load_game("pillage", board="square:2x2")
    record = play(game, ["random", "random"], seed=11)
    result = analyse(record, Settings(sims=8))
    assert any(m.loss > 0 for m in result.moves)
    worst = max(result.moves, key=lambda m: m.loss)
    assert worst.best != worst.played
    summary = result.summary()
    assert sum(s.decisions for s in summary) == len(result.moves)
    assert all(s.average_loss >= 0 for s in summary)


@pytest.mark.parametrize("game_id,params,depth", [("pillage", {"board": "square:3x3"}, None), ("profiteer", {}, None),
                                                  ("crossroads", {}, 20)])
def test_playouts_are_reproducible_and_independent_of_workers(game_id: str, params: dict[str, str],
                                                              depth: int | None) -> None:
    game = load_game(game_id, **params)
    record = play(game, ["medium"] * game.num_players, seed=4)
    record.moves = record.moves[:16]
    record.returns = record.scores = None
    one = analyse(record, Settings(sims=4, depth=depth, exact=False))
    two = analyse(record, Settings(sims=4, depth=depth, exact=False), workers=2)
    assert one.moves == two.moves
    assert len(one.moves) == sum(m.by is not None for m in record.moves) > 0
    assert all(not m.exact for m in one.moves)
    other_seed = analyse(record, Settings(sims=4, depth=depth, seed=1, exact=False))
    assert [m.margins for m in other_seed.moves] != [m.margins for m in one.moves]


def test_memory_and_disk_caches_serve_a_second_analysis(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    game = load_game("pillage", board="square:2x2")
    record = play(game, ["greedy", "random"], seed=5)
    path = tmp_path / "values.sqlite"
    disk = DiskCache(path)
    first = Engine(disk).analyse(record, Settings(sims=4, exact=False))
    disk.close()
    seen: list[tuple[int, int]] = []

    def refuse(task):  # type: ignore[no-untyped-def]
        raise AssertionError("a cached position was valued again")

    monkeypatch.setattr(engine_module, "value_task", refuse)
    again = analyse(record, Settings(sims=4, exact=False), progress=lambda d, t: seen.append((d, t)), cache=path)
    assert again.moves == first.moves
    assert seen == [(len(first.moves), len(first.moves))]
    with pytest.raises(AssertionError, match="valued again"):
        analyse(record, Settings(sims=5, exact=False), cache=path)  # another budget: another key


def test_marks_follow_the_thresholds() -> None:
    a: Analysis = Analysis(units="gold", inaccuracy=1, mistake=3, blunder=6)
    assert [a.mark(x) for x in (0, 0.99, 1, 2.9, 3, 5.9, 6, 100)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_every_built_in_game_offers_analysis_with_ordered_thresholds() -> None:
    for game_id in ("pillage", "pirates", "hubs", "profiteer", "crossroads"):
        a = entry(game_id).analysis
        assert a is not None and a.units
        assert 0 < a.inaccuracy < a.mistake < a.blunder


def test_bad_settings_and_records_are_refused() -> None:
    game = load_game("pillage", board="square:2x2")
    record = play(game, ["random", "random"], seed=1)
    with pytest.raises(ParameterError, match="budget"):
        analyse(record, Settings(sims=0))
    with pytest.raises(ParameterError, match="workers"):
        analyse(record, workers=0)
    bad = Record(record.game, record.params, record.seed, record.players, list(record.moves[:-1]) + [record.moves[0]])
    with pytest.raises(RecordError):
        analyse(bad)


RULES: Analysis = Analysis(units="gold", inaccuracy=1, mistake=3, blunder=6)


def test_a_mark_on_playouts_is_given_only_where_its_interval_clears_the_threshold() -> None:
    # 8 ± 2: the interval 4..12 clears the mistake threshold (3) but not the blunder's (6)
    clear = Valuation("b", [10.0, -10.0], [2.0, -2.0], None, None, 6, False, 24, error=2.0)
    found = judged(0, 0, "a", clear, RULES)
    assert found.loss == pytest.approx(8.0) and found.error == 2.0
    assert found.mark == "mistake" and found.best == "b"
    # the same estimate at ± 5: -2..18 straddles every threshold; neither good nor a mark
    unsure = Valuation("b", [10.0, -10.0], [2.0, -2.0], None, None, 6, False, 24, error=5.0)
    doubt = judged(0, 0, "a", unsure, RULES)
    assert doubt.mark == "unclear" and doubt.loss == pytest.approx(8.0) and doubt.best == "b"


def test_a_fixed_estimate_near_a_threshold_is_unclear_and_a_clear_one_is_marked() -> None:
    # just above the blunder threshold (6.3 ± 0.4: 5.5..7.1) is no sure blunder: a mistake, at least
    assert confident_mark(RULES, 6.3, 0.4) == "mistake"
    assert confident_mark(RULES, 6.3, 0.1) == "blunder"
    # near the inaccuracy threshold, on either side: unclear, never good
    assert confident_mark(RULES, 0.9, 0.2) == "unclear"
    assert confident_mark(RULES, 1.1, 0.2) == "unclear"
    assert confident_mark(RULES, 0.5, 0.2) == "good" and confident_mark(RULES, 1.5, 0.2) == "inaccuracy"
    # the move played came top with a rival close behind (gap below 0): good only when sure
    assert confident_mark(RULES, -0.5, 0.2) == "good" and confident_mark(RULES, -0.5, 1.0) == "unclear"


def test_a_games_playout_bias_widens_the_interval_and_leaves_an_exact_loss_alone() -> None:
    biased = dataclasses.replace(RULES, bias=2.0)
    # 0.5 ± 0.2 is good on the playouts' error alone; 2 more each side reach the inaccuracy
    assert confident_mark(RULES, 0.5, 0.2) == "good" and confident_mark(biased, 0.5, 0.2) == "unclear"
    # 9 ± 0.5: its low end less the bias (6) still clears the blunder threshold; 8.5 ± 0.5 only the mistake's
    assert confident_mark(biased, 9.0, 0.5) == "blunder" and confident_mark(biased, 8.5, 0.5) == "mistake"
    assert confident_mark(biased, -3.0, 0.2) == "good"
    exact = Valuation("b", [0.5, -0.5], [0.0, 0.0], None, None, 3, True, 0)
    assert judged(0, 0, "a", exact, biased).mark == "good"


def test_an_exact_loss_is_marked_by_the_thresholds_alone() -> None:
    exact = Valuation("b", [1.5, -1.5], [0.0, 0.0], None, None, 3, True, 0)
    found = judged(0, 0, "a", exact, RULES)
    assert found.mark == "inaccuracy" and found.loss == 1.5 and found.loss_words() == "1.5" and found.best == "b"


def test_a_proven_bound_is_worded_as_a_bound_and_marked_by_the_thresholds() -> None:
    def proved(lower: float, upper: float | None) -> MoveAnalysis:
        return judged(0, 0, "a", Valuation("b" if lower > 0 else "a", [lower, -lower], [0.0, 0.0], None, [0.5, 0.5],
                                           6, False, 0, gap=lower, upper=upper, bounded=True), RULES)

    blunder = proved(12.0, None)
    assert blunder.loss_words() == "at least 12" and blunder.mark == "blunder" and blunder.best == "b"
    assert blunder.win_loss is None and blunder.bounded and not blunder.exact
    assert proved(4.0, 5.0).loss_words() == "4 to 5" and proved(4.0, 5.0).mark == "mistake"
    assert proved(0.0, 0.5).loss_words() == "at most 0.5" and proved(0.0, 0.5).mark == "good"
    assert proved(0.0, 0.5).best == "a"
    assert proved(2.0, 2.0).loss_words() == "2" and proved(2.0, 2.0).mark == "inaccuracy"


def test_estimates_are_worded_as_estimates() -> None:
    estimate = judged(0, 0, "a", Valuation("b", [0.0, 0.0], [0.0, 0.0], None, None, 6, False, 56, error=6.0,
                                           gap=42.72), RULES)
    assert estimate.loss_words() == "about 40"
    assert about(42.72, 1.0) == "about 43" and about(42.72, 0.2) == "about 42.7" and about(3.3, 40.0) == "about 3"


def test_the_second_looks_gap_is_the_loss_where_it_was_taken() -> None:
    # the first look's margins differ by 8; played on again, the best move was 3 ± 0.5 better
    again = Valuation("b", [10.0, -10.0], [2.0, -2.0], None, None, 6, False, 56, error=0.5, gap=3.0)
    found = judged(0, 0, "a", again, RULES)
    assert found.loss == pytest.approx(3.0) and found.mark == "inaccuracy" and found.best == "b"
    gone = Valuation("b", [10.0, -10.0], [2.0, -2.0], None, None, 6, False, 56, error=0.3, gap=-2.0)
    assert judged(0, 0, "a", gone, RULES).loss == 0.0 and judged(0, 0, "a", gone, RULES).best == "a"
    assert judged(0, 0, "a", gone, RULES).mark == "good"
