"""The fuzz tests' shared bound: a lowered address-space limit, so a memory bomb raises MemoryError."""

from __future__ import annotations

import resource
from typing import Iterator

import pytest

#: address space a case may add to the test process
CASE_MEMORY = 1536 * 2**20


@pytest.fixture
def bounded_memory() -> Iterator[None]:
    """Lower the address-space limit while fuzzing, so a memory bomb raises MemoryError here."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + CASE_MEMORY
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
