"""UCT's tables: each entry what the formula gives, the same for the compiled tree and the pure
search, and the formula itself past the tables."""

from __future__ import annotations

import math

from plunder.agents.uct import VISITS, explore_term, uct_lists, uct_table


def test_the_tables_hold_the_formula_bit_for_bit() -> None:
    for c in (1.0, 2.0, 0.7):
        table = uct_table(c)
        explore, roots, inverses = uct_lists(c)
        assert table.shape == (3, VISITS)
        for n in (1, 2, 3, 17, 1000, VISITS - 1):
            assert table[0, n] == explore[n] == c * math.sqrt(math.log(n))
            assert table[1, n] == roots[n] == math.sqrt(n)
            assert table[2, n] == inverses[n] == 1.0 / n
        assert uct_table(c) is table  # made once a process


def test_the_exploration_term_past_the_table_is_worked_out() -> None:
    explore = uct_lists(2.0)[0]
    assert explore_term(2.0, 5, explore) == explore[5]
    assert explore_term(2.0, VISITS + 3, explore) == 2.0 * math.sqrt(math.log(VISITS + 3))
