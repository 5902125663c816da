"""Checks of the options several commands share: agent lists, counts of games, workers and
players, precisions, files written, cluster addresses.

Each check refuses a bad value with a :class:`ParameterError` naming the option, the value and
the limit it breaks, before any work starts; the limits are the constants below
(``docs/limits.md``).
"""

from __future__ import annotations

import math
import os
import re
import stat
from typing import Sequence

from .errors import ParameterError, quoted

#: most agents one ``--agents`` list may name (seats are rotated over them)
MAX_AGENTS = 100
#: most local processes (``--workers``); each is a Python process of its own
MAX_WORKERS = 256
#: most games a lab command keeps in memory at once (``report``, ``sweep``, ``tournament``: every
#: game's row is read back for its tables and plots, 1.6 to 4.2 KB a row: about 1 GB at most)
MAX_LAB_GAMES = 250_000
#: games ``plunder simulate`` plays and tallies in one go: memory stays bounded whatever ``--games``
SIMULATE_BATCH = 50_000
#: widest interval a sweep may stop at, on each side (a proportion is at most 0.5 from either end)
MAX_PRECISION = 0.5
#: most player counts one ``tournament --players`` list may name
MAX_PLAYER_COUNTS = 10
#: most mixes of seats a tournament plays (every multiset of agents filling the seats)
MAX_MIXES = 10_000
#: most generations of a tournament's replicator dynamics (each is kept for the plot)
MAX_GENERATIONS = 10_000
#: most variants a sweep's grid may make (the product of its axes' lengths)
MAX_VARIANTS = 10_000
#: a cluster address: ``HOST:PORT`` or ``ray://HOST:PORT`` (or the word ``auto``); a host name or
#: an IPv4 address, or an IPv6 address in brackets
ADDRESS = re.compile(r"(?:ray://)?(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]):(?P<port>\d{1,5})")


def agent_list(specs: Sequence[str], option: str = "--agents") -> list[str]:
    """``specs`` when there are 1 to :data:`MAX_AGENTS` of them; else a refusal naming ``option``."""
    if not specs:
        raise ParameterError(f"{option} names no agent: give one or more, separated by commas (e.g. random,greedy)")
    if len(specs) > MAX_AGENTS:
        raise ParameterError(f"{option} names {len(specs)} agents; the limit is {MAX_AGENTS} (MAX_AGENTS)")
    return list(specs)


def at_most(value: int, limit: int, option: str, why: str) -> int:
    """``value`` if it is at most ``limit``; else a refusal naming ``option``, the limit and ``why``."""
    if value > limit:
        raise ParameterError(f"{option} {value:,} is above the limit {limit:,} ({why})")
    return value


def lab_games(games: int, option: str = "--games") -> int:
    """``games`` if a lab command may keep that many games in memory (:data:`MAX_LAB_GAMES`)."""
    return at_most(games, MAX_LAB_GAMES, option, "MAX_LAB_GAMES: the lab keeps every game's row in memory")


def workers(count: int, option: str = "--workers") -> int:
    """``count`` if it is 1 to :data:`MAX_WORKERS`."""
    if count < 1:
        raise ParameterError(f"{option} {count} is below the minimum 1")
    return at_most(count, MAX_WORKERS, option, "MAX_WORKERS: each worker is a process of its own")


def precision(value: float, option: str = "--precision") -> float:
    """``value`` if it is a finite number in (0, :data:`MAX_PRECISION`]."""
    if not (math.isfinite(value) and 0 < value <= MAX_PRECISION):
        raise ParameterError(f"{option} {value!r}".lstrip() + f" is not a finite number above 0 and at most {MAX_PRECISION} "
                             "(MAX_PRECISION: the half-width of a 95% interval of a proportion)")
    return value


def player_counts(text: str, option: str = "--players") -> list[int]:
    """``"3,4"`` as ``[3, 4]``: whole numbers from 1, at most :data:`MAX_PLAYER_COUNTS` of them, no repeats."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > MAX_PLAYER_COUNTS:
        raise ParameterError(f"{option} names {len(parts)} player counts; the limit is {MAX_PLAYER_COUNTS} "
                             "(MAX_PLAYER_COUNTS)")
    counts = []
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 4 or int(part) < 1:
            raise ParameterError(f"{option} {quoted(text)}: {quoted(part)} is not a player count (a whole number "
                                 "from 1, e.g. --players 3,4)")
        counts.append(int(part))
    return list(dict.fromkeys(counts))


def mixes(agents: int, players: int, option: str = "--agents and --players") -> int:
    """The number of mixes of ``players`` seats over ``agents`` agents, if at most :data:`MAX_MIXES`."""
    count = math.comb(agents + players - 1, players)
    if count > MAX_MIXES:
        raise ParameterError(f"{option}: {agents} agents at {players} seats make {count:,} mixes; the limit is "
                             f"{MAX_MIXES:,} (MAX_MIXES)")
    return count


def writable_file(path: str | os.PathLike[str], what: str, discard: bool = False) -> None:
    """Refuse a ``path`` to write that exists and is not a regular file (a FIFO, a device, a
    folder): opening one could block, or write nowhere. ``discard``: ``/dev/null`` is allowed,
    for output the user means to throw away (``--record /dev/null``). Checked with ``os.stat``,
    which never opens the file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ParameterError(f"{what} {quoted(os.fspath(path))}: {exc.strerror}") from None
    if discard and os.path.samestat(info, os.stat(os.devnull)):
        return
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise ParameterError(f"{what} {quoted(os.fspath(path))} is {kind}: it must be a regular file (or a new one)")


def address(text: str, option: str = "--address") -> tuple[str, int] | None:
    """The (host, port) of a cluster address ``HOST:PORT`` or ``ray://HOST:PORT``; ``None`` for ``auto``."""
    if text == "auto":
        return None
    match = ADDRESS.fullmatch(text)
    port = int(match["port"]) if match else 0
    if match is None or not 1 <= port <= 65535:
        raise ParameterError(f"{option} {quoted(text)} is not HOST:PORT, ray://HOST:PORT or auto "
                             "(the port a whole number 1..65535)")
    return match["host"].strip("[]"), port
