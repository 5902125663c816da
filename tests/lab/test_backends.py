"""The same seeds give the same games on every backend: one process, a process pool, a local Ray.

One local Ray cluster of two CPUs is started for the module (a few seconds) and stopped after it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from plunder.cli import main

from plunder.core.errors import ParameterError
from plunder.backends import LocalPool, RayCluster, make_backend
from plunder.lab.run import collect
from plunder.lab.store import Run, Store
from plunder.lab.sweep import parse_grid, sweep
from plunder.simulate import run_games, simulate

PROFITEER = Run("profiteer", {"hand": "10", "keep": "8", "target": "26", "war_switch": "false",
                              "max_rounds": "100"}, ("greedy", "random"), 900)
PILLAGE = Run("pillage", {"board": "square:2x2", "contents": "random"}, ("greedy", "random"), 31)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayCluster]:
    try:
        cluster = RayCluster(workers=2)
    except Exception:  # Ray's own start-up timeout on a machine busy with other work
        cluster = RayCluster(workers=2)  # one more try; a second failure fails the tests
    with cluster:
        yield cluster


def flat(run: Run, games: int, backend: LocalPool | RayCluster) -> list[tuple[int, object]]:
    """Every (index, result) of ``games`` games of ``run`` on ``backend``."""
    return [r for chunk in run_games(run.game, run.params, run.agents, range(games), run.seed, backend=backend)
            for r in chunk]


def test_ray_gives_the_games_of_one_worker_and_of_the_pool(ray_cluster: RayCluster) -> None:
    assert ray_cluster.slots() == 2
    for run, games in ((PROFITEER, 60), (PILLAGE, 12)):
        one = flat(run, games, LocalPool(1))
        with LocalPool(2) as pool:
            assert flat(run, games, pool) == one
        assert flat(run, games, ray_cluster) == one


def test_simulate_tallies_are_the_same_on_ray(ray_cluster: RayCluster) -> None:
    here = simulate("profiteer", PROFITEER.params, ["greedy"], 40, seed=5)
    there = simulate("profiteer", PROFITEER.params, ["greedy"], 40, seed=5, backend=ray_cluster)
    assert there.to_dict() == here.to_dict()


class Stop(Exception):
    """Stands for Ctrl-C in the middle of a run."""


def test_a_run_interrupted_on_ray_resumes_on_ray(ray_cluster: RayCluster, tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    told: list[int] = []

    def stop_after_first_chunk(k: int) -> None:
        told.append(k)
        if len(told) == 2:  # the games already stored, then one chunk
            raise Stop

    store = Store(path)
    with pytest.raises(Stop):
        collect(store, PROFITEER, 80, progress=stop_after_first_chunk, backend=ray_cluster)
    store.close()
    kept = told[1]
    assert 0 < kept < 80
    store = Store(path)
    assert len(store.done(PROFITEER)) == kept  # the finished chunk was committed before the stop
    resumed_told: list[int] = []
    resumed = collect(store, PROFITEER, 80, progress=resumed_told.append, backend=ray_cluster)
    assert resumed_told[0] == kept and sum(resumed_told) == 80
    store.close()
    fresh = collect(Store(tmp_path / "fresh.sqlite"), PROFITEER, 80)
    assert resumed == fresh


def test_backend_names_are_checked() -> None:
    with pytest.raises(ParameterError, match="backends are pool, ray"):
        make_backend("spark")
    with pytest.raises(ParameterError, match="--address is for --backend ray"):
        make_backend("pool", 2, "127.0.0.1:6379")
    with make_backend("pool", 3) as pool:
        assert pool.slots() == 3


def test_a_sweep_on_ray_plays_every_variant_as_the_pool_does(ray_cluster: RayCluster, tmp_path: Path) -> None:
    ranked = {}
    with LocalPool(2) as pool:
        for name, backend in (("ray", ray_cluster), ("pool", pool)):
            store = Store(tmp_path / f"{name}.sqlite")
            variants = sweep(store, "profiteer", PROFITEER.params, parse_grid(["target=18,26", "hand=8,10"]),
                             ["greedy"], "near50", batch=40, most=120, precision=0.1, backend=backend)
            ranked[name] = [(v.values, v.status, v.rows) for v in variants]
            store.close()
    assert ranked["ray"] == ranked["pool"]
    assert min(len(rows) for _, _, rows in ranked["ray"]) < 120  # sequential stopping ended some early


def test_the_report_command_stores_the_same_rows_on_ray_and_on_the_pool(ray_cluster: RayCluster,
                                                                        tmp_path: Path) -> None:
    # Ray is already running in this process: the command uses it and leaves it running
    common = ["report", "profiteer", "--agents", "greedy,random", "--games", "30"]
    rows = {}
    for name, extra in (("ray", ["--backend", "ray"]), ("pool", ["--workers", "2"])):
        result = CliRunner().invoke(main, [*common, *extra, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        with sqlite3.connect(tmp_path / name / "games.sqlite") as db:
            # every row the report stored: its own run's and any others it plays (luck versus skill)
            # the games themselves: when and by which command they were played differs by design
            rows[name] = db.execute("select game, params, agents, base_seed, game_index, seed, seats, returns, "
                                    "scores, stats, version, agent_options from games "
                                    "order by agents, game_index").fetchall()
    assert rows["ray"] == rows["pool"]
    assert sum(row[2] == '["greedy","random"]' for row in rows["ray"]) == 30
    assert ray_cluster.slots() == 2  # still up


def test_an_address_without_ray_is_refused_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sweep", "profiteer", "--grid", "target=20,24", "--agents", "greedy",
                                       "--address", "127.0.0.1:6379", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "plunder sweep: --address is for --backend ray; the local pool has no address"]


def test_cluster_addresses_are_checked_before_ray_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A malformed address (Ray retried ``garbage:99999`` for over a minute) is refused at once; an address
    nothing answers at is refused within RAY_CONNECT_SECONDS."""
    import socket
    import time

    import ray

    from plunder.backends import RAY_CONNECT_SECONDS, BackendError

    def init(**kwargs: object) -> None:
        raise AssertionError("Ray was asked to join an address refused before")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a fresh process: no Ray running yet
    monkeypatch.setattr(ray, "init", init)

    for address in ("garbage:99999", "garbage", "host:0", "ray://", ":6379", "a b:1", "http://x:1"):
        result = CliRunner().invoke(main, ["simulate", "profiteer", "--agents", "random", "--games", "2",
                                           "--backend", "ray", "--address", address])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.output.strip().splitlines() == [
            f"plunder simulate: --address {address!r} is not HOST:PORT, ray://HOST:PORT or auto "
            "(the port a whole number 1..65535)"]
    with socket.socket() as probe:  # a port nobody listens at: bound, never listened
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        start = time.monotonic()
        with pytest.raises(BackendError, match=f"--address 127.0.0.1:{port}: nothing answers"):
            make_backend("ray", 1, f"127.0.0.1:{port}")
    assert time.monotonic() - start < RAY_CONNECT_SECONDS + 5


def test_ray_failing_to_start_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's own start-up timeout (30 s, e.g. under an address-space limit) raised a bare Exception with a
    traceback; it is now one line naming what Ray could not do."""
    import ray

    def init(**kwargs: object) -> None:
        raise Exception("The current node timed out during startup. This could happen because some of the "
                        "raylet failed to startup\nor the GCS has become overloaded.")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    result = CliRunner().invoke(main, ["simulate", "profiteer", "--agents", "random", "--games", "2",
                                       "--backend", "ray"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        "plunder simulate: Ray could not start a local cluster: The current node timed out during startup. This "
        "could happen because some of the raylet failed to startup"]
