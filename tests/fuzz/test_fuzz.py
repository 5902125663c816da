"""Every public entry point, fed a few fuzzed inputs of each kind, either succeeds or raises a
documented error, within a time bound and an address-space bound.

The examples are derandomized so that the default test run is stable and quick;
``bench/fuzz.py`` runs the same strategies with fresh random cases for as long as asked.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.strategies import ENTRY_POINTS, time_bound

#: wall-time bound of one case (generous: the machine may be busy; a hang is what it catches)
CASE_SECONDS = 20.0

FEW = settings(max_examples=10, derandomize=True, deadline=None, database=None,
               suppress_health_check=list(HealthCheck))


# positions come from cached, seeded playthroughs; hypothesis cannot tell those from a random stream
@pytest.mark.filterwarnings("ignore:Do not use the `random` module")
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_bad_input_is_refused_with_a_documented_error(entry: str, bounded_memory: None) -> None:
    strategy, check = ENTRY_POINTS[entry]

    @FEW
    @given(strategy())
    def fuzz(case: Any) -> None:
        with time_bound(CASE_SECONDS):
            check(case)

    fuzz()
