"""Where batches of games are played: this machine's processes, or a Ray cluster.

A backend runs one function over a list of jobs and yields each job's result in the order of
the jobs, whatever order they finished in; the runner's jobs are chunks of games whose results
depend on the game indices alone, so a backend never changes a result, only where and how fast
it is computed. Ray (``pip install 'plunder[cluster]'``) is the distributed engine: this module
only hands it tasks and reads their results back.
"""

from __future__ import annotations

import importlib
import logging
import os
import signal
import socket
from concurrent.futures import Future, ProcessPoolExecutor
from types import ModuleType
from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar

from .core.errors import ParameterError, PlunderError
from .core.options import address as cluster_address, workers as checked_workers

J = TypeVar("J")
R = TypeVar("R")

#: the backends ``--backend`` names
BACKENDS = ("pool", "ray")
#: seconds to wait for a cluster's address to accept a connection before Ray is asked to join it
RAY_CONNECT_SECONDS = 10.0


class BackendError(PlunderError):
    """A backend that cannot start: Ray failed to start a local cluster or to join one."""


class Backend(Protocol):
    """Runs a function over jobs somewhere, yielding the results in job order."""

    def slots(self) -> int:
        """How many jobs run at once (the runner sizes its chunks by it)."""
        ...

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """``fn(job)`` for each job, yielded in the order of ``jobs``."""
        ...

    def close(self) -> None:
        """Let go of the processes or the cluster connection."""
        ...


class LocalPool:
    """``workers`` processes of this machine; one worker plays in this process, without a pool.

    The pool is started at the first batch and kept until :meth:`close`, so a sweep's many
    small batches do not each pay for starting processes.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = checked_workers(workers, "workers")
        self._pool: ProcessPoolExecutor | None = None

    def slots(self) -> int:
        """The number of worker processes."""
        return self.workers

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """Run the jobs on the pool (or here for one worker), results in job order."""
        if self.workers == 1 or not jobs:
            for job in jobs:
                yield fn(job)
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_leave_interrupts)
        futures = [self._pool.submit(fn, job) for job in jobs]
        yield from _in_order(futures)

    def close(self) -> None:
        """Stop the worker processes, dropping jobs not yet started."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _leave_interrupts() -> None:
    """A worker ignores Ctrl-C (the terminal sends it to every process of the group): the main
    process decides what an interrupt stops, and a worker killed midway would break the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_order(futures: list[Future[R]]) -> Iterator[R]:
    """Each future's result in list order; those not yet started are cancelled if the reader stops."""
    done = 0
    try:
        for future in futures:
            yield future.result()
            done += 1
    finally:
        for future in futures[done:]:
            future.cancel()


def load_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`ParameterError` saying how to install it.

    Ray is an optional dependency (the ``cluster`` extra), so it is imported only when a Ray
    backend is asked for: every other command starts without paying for it.
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ParameterError("--backend ray needs Ray: pip install 'plunder[cluster]'") from None


class RayCluster:
    """Tasks on a Ray cluster: the one at ``address``, or a local one with ``workers`` CPUs.

    ``address`` is what ``ray start --head`` prints (``HOST:6379``), ``auto`` for the cluster
    this machine belongs to, or ``ray://HOST:10001`` for a Ray client connection. Every node
    needs the same version of plunder installed (see ``docs/lab.md``). If Ray is already
    initialised in this process that connection is used and left open at :meth:`close`.
    """

    def __init__(self, address: str | None = None, workers: int = 1, option: str = "--address") -> None:
        checked_workers(workers, "workers")
        where = cluster_address(address, option) if address else None
        self.ray = load_ray()
        self._owned = not self.ray.is_initialized()
        if self._owned:
            if where is not None:
                reachable(*where, option)
            try:
                if address:
                    self.ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
                else:
                    self.ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                                  logging_level=logging.WARNING)
            except Exception as exc:  # Ray raises bare Exceptions, RuntimeErrors, ConnectionErrors...
                first = next((line for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
                doing = f"join the cluster at {address}" if address else "start a local cluster"
                raise BackendError(f"Ray could not {doing}: {first}") from None
        self._remote: dict[Callable[..., Any], Any] = {}

    def slots(self) -> int:
        """The CPUs of the cluster: one task runs on each."""
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """Submit every job as a task, then yield their results in job order."""
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self.ray.remote(fn)
        refs = [remote.remote(job) for job in jobs]
        # A stopped run drops its references and lets the tasks already submitted finish
        # unread: cancelling them (``ray.cancel``) races with their completion inside Ray and
        # can abort this process (Ray's "Tried to complete task that was not pending" check).
        for ref in refs:
            yield self.ray.get(ref)

    def close(self) -> None:
        """Disconnect from the cluster (and stop the local one this backend started)."""
        if self._owned and self.ray.is_initialized():
            self.ray.shutdown()

    def __enter__(self) -> "RayCluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def reachable(host: str, port: int, option: str = "--address") -> None:
    """Refuse a cluster address nothing answers at within :data:`RAY_CONNECT_SECONDS` (Ray itself
    would retry it for a minute or more)."""
    try:
        socket.create_connection((host, port), timeout=RAY_CONNECT_SECONDS).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise BackendError(f"{option} {host}:{port}: nothing answers within {RAY_CONNECT_SECONDS:g} s "
                           f"(RAY_CONNECT_SECONDS): {why}") from None


def make_backend(name: str, workers: int = 1, address: str | None = None) -> LocalPool | RayCluster:
    """The backend ``--backend NAME`` asks for: ``pool`` (``workers`` processes) or ``ray``.

    ``address`` is only for Ray; without it Ray starts a local cluster of ``workers`` CPUs.
    """
    if name == "pool":
        if address:
            raise ParameterError("--address is for --backend ray; the local pool has no address")
        return LocalPool(workers)
    if name == "ray":
        given = address or os.environ.get("RAY_ADDRESS") or None
        return RayCluster(given, workers, "--address" if address else "RAY_ADDRESS")
    raise ParameterError(f"no backend {name!r}; backends are {', '.join(BACKENDS)}")
