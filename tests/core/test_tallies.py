"""An observer's figures read back as counts for a breakdown: a figure missing or of the
other shape reads as zero."""

from __future__ import annotations

from plunder.core.tallies import Stats, count, seat_counts


def test_count_reads_a_game_statistic_and_zero_for_what_is_not_one() -> None:
    figures: Stats = {"wins": 3.0, "trades": [1.0, 2.0]}
    assert count(figures, "wins") == 3
    assert count(figures, "missing") == 0 and count(figures, "trades") == 0


def test_seat_counts_read_a_seat_statistic_and_zeros_for_what_is_not_one() -> None:
    figures: Stats = {"wins": 3.0, "trades": [1.0, 2.0]}
    assert seat_counts(figures, "trades", 2) == [1, 2]
    assert seat_counts(figures, "trades", 3) == [0, 0, 0]
    assert seat_counts(figures, "wins", 2) == [0, 0] and seat_counts({}, "trades", 2) == [0, 0]
