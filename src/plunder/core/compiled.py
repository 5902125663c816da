"""Compiled (numba) kernels of any game, built once per process.

A game's compiled code is an option, never a requirement: numba is imported at the first
build, not with the game, and without it (or with ``PLUNDER_PURE=1`` in the environment,
the reference path the tests compare against) the callers get ``None`` and play their pure
path. numba caches compiled code on disk, so a new process loads it rather than compiling.
"""

from __future__ import annotations

import os
from typing import Callable, TypeVar

#: set to ``1`` to play every game without compiled code (the reference path)
PURE_ENV = "PLUNDER_PURE"

T = TypeVar("T")


def pure() -> bool:
    """Whether :data:`PURE_ENV` asks for the pure path (read at each call, as the tests set it)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def built_once(build: Callable[[], T]) -> Callable[[], T | None]:
    """What ``build`` makes (a compiled kernel), built at the first call and kept; ``None`` when
    numba is missing or :data:`PURE_ENV` is set (read at each call, as the tests set it)."""
    kept: list[T | None] = []

    def get() -> T | None:
        if pure():
            return None
        if not kept:
            try:
                kept.append(build())
            except ImportError:
                kept.append(None)
        return kept[0]
    return get
