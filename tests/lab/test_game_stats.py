"""The statistics the lab reads: Pillage boxes by kind and turns, Crossroads trades per partner, Hubs length."""

from __future__ import annotations

from plunder.core.registry import load_game
from plunder.match import play_stats


def seat(stats: dict[str, float | list[float]], key: str) -> list[float]:
    """A per-seat statistic."""
    value = stats[key]
    assert isinstance(value, list)
    return value


def test_pillage_boxes_by_kind_add_up_to_the_boxes_and_turns_count_the_passes() -> None:
    game = load_game("pillage", board="square:3x3")
    for seed in range(6):
        record, _, stats = play_stats(game, ["greedy", "random"], seed)
        for s in (0, 1):
            kinds = sum(seat(stats, f"boxes_{k}")[s] for k in ("doubloons", "commodity", "modifier"))
            assert kinds == seat(stats, "boxes")[s]
        # a turn passes after each line that captured nothing: the mover of a line changes after it
        movers = [m.by for m in record.moves if m.by is not None]
        changes = sum(1 for a, b in zip(movers, movers[1:]) if a != b)
        assert stats["turns"] == changes + 1 > 1


def test_crossroads_trades_per_partner_are_mutual_and_sum_to_the_trades() -> None:
    game = load_game("crossroads")
    seen = 0.0
    for seed in range(4):
        _, _, stats = play_stats(game, ["greedy", "tit-for-tat", "grudger", "greedy-splitter"], seed)
        n = len(seat(stats, "trades"))
        matrix = [[seat(stats, f"trades_with_{j + 1}")[i] for j in range(n)] for i in range(n)]
        for i in range(n):
            assert matrix[i][i] == 0
            assert sum(matrix[i]) == seat(stats, "trades")[i]
            for j in range(n):
                assert matrix[i][j] == matrix[j][i]
        seen += sum(map(sum, matrix))
    assert seen > 0


def test_hubs_length_is_the_segments_of_every_round() -> None:
    game = load_game("hubs", preset="small")
    _, _, stats = play_stats(game, ["greedy", "random"], 3)
    assert stats["segments"] == stats["segments_per_round"] * game.values["rounds"] > 0
