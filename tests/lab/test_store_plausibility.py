"""A stored row its game's rules could not have given is not reused (``Store.verdict`` with
``GameEntry.study.plausibility``): for each game, a row tampered to be impossible, its checksum made
again so that only the game's own check can catch it, is played again with a warning naming
the check, and left out of an export; the games' real rows pass."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path
from typing import Any, Callable

import pytest

from plunder.core.registry import entry, load_game
from plunder.lab import store as store_module
from plunder.lab.export import export
from plunder.lab.run import collect
from plunder.lab.store import CHECKED, Run, Store, checksum

Row = tuple[list[float], list[float], dict[str, Any]]


def profiteer(returns: list[float], scores: list[float], stats: dict[str, Any]) -> Row:
    """99 cards counted, the return of a win."""
    return [1.0], [99.0], stats


def pillage(returns: list[float], scores: list[float], stats: dict[str, Any]) -> Row:
    """A score of a million, the winner's return."""
    return [1.0, -1.0], [1e6, scores[1]], stats


def hubs(returns: list[float], scores: list[float], stats: dict[str, Any]) -> Row:
    """Ten thousand points, the winner's return."""
    return [1.0, -1.0], [1e4, 0.0], stats


def pirates(returns: list[float], scores: list[float], stats: dict[str, Any]) -> Row:
    """One point more than the tracks make, below the goal all the same."""
    return [-1.0], [scores[0] + 1], {**stats, "buried": 0.0}


def crossroads(returns: list[float], scores: list[float], stats: dict[str, Any]) -> Row:
    """Thirty cities for the first player."""
    return returns, scores, {**stats, "cities": [30.0, *stats["cities"][1:]]}


#: per game: the preset, the agents, how a row is made impossible, and what the warning then says
CASES: dict[str, tuple[str, tuple[str, ...], Callable[[list[float], list[float], dict[str, Any]], Row], str]] = {
    "profiteer": ("default", ("random",), profiteer, "1 implausible (Profiteer: 99 cards counted, the deck has 52)"),
    "pillage": ("small", ("greedy", "random"), pillage, "a score of 1000000, beyond the 540 either way"),
    "hubs": ("tiny", ("random",), hubs, "a score of 10000, 2 rounds of 6 dots give at most 96"),
    "pirates": ("classic", ("random",), pirates, "the tracks at the end make"),
    "crossroads": ("2p", ("random",), crossroads, "cities: each player has one or more, the board holds 25"),
}


def stored(path: Path, game_id: str) -> Run:
    """Four games of ``game_id`` (its case's preset and agents) in a new store at ``path``."""
    preset, agents, _, _ = CASES[game_id]
    heard: list[str] = []
    store = Store(path, command="test", warn=heard.append)
    run = Run(game_id, dict(load_game(game_id, preset=preset).params), agents, 7)
    collect(store, run, 4)
    store.close()
    assert heard == []  # the real rows pass
    return run


def tamper(path: Path, index: int, change: Callable[[list[float], list[float], dict[str, Any]], Row]) -> None:
    """Make row ``index`` impossible by ``change``, with a checksum that holds."""
    with sqlite3.connect(path) as db:
        row = list(db.execute(f"select {', '.join(CHECKED)} from games where game_index = ?", (index,)).fetchone())
        at = CHECKED.index
        returns, scores, stats = change(json.loads(row[at("returns")]), json.loads(row[at("scores")]),
                                        json.loads(row[at("stats")]))
        row[at("returns")], row[at("scores")], row[at("stats")] = json.dumps(returns), json.dumps(scores), json.dumps(stats)
        db.execute(f"insert or replace into games ({', '.join(CHECKED)}, checksum) values "
                   f"({', '.join('?' * (len(CHECKED) + 1))})", (*row, checksum(row)))


def column(path: Path, name: str) -> list[object]:
    """Every row's ``name`` column, by game index."""
    with sqlite3.connect(path) as db:
        return [v for (v,) in db.execute(f"select {name} from games order by game_index")]


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_an_impossible_row_is_played_again_with_the_check_named(tmp_path: Path, game_id: str) -> None:
    path = tmp_path / "g.sqlite"
    run = stored(path, game_id)
    first = column(path, "scores")
    tamper(path, 2, CASES[game_id][2])
    heard: list[str] = []
    store = Store(path, warn=heard.append)
    assert store.done(run) == {0, 1, 3}
    assert len(heard) == 1 and "\n" not in heard[0] and "played again: 1 implausible (" in heard[0]
    assert CASES[game_id][3] in heard[0] and f"({load_game(game_id).title}: " in heard[0]
    collect(store, run, 4)
    assert column(path, "scores") == first  # the game played again is the real one
    heard.clear()
    assert store.done(run) == {0, 1, 2, 3} and heard == []
    store.close()


@pytest.mark.parametrize("game_id", ["profiteer", "pillage"])
def test_export_leaves_an_impossible_row_out_with_the_check_named(tmp_path: Path, game_id: str) -> None:
    path = tmp_path / "g.sqlite"
    stored(path, game_id)
    tamper(path, 1, CASES[game_id][2])
    heard: list[str] = []
    assert export(path, tmp_path / "g.parquet", warn=heard.append) == 3
    assert len(heard) == 1 and "rows left out of the export: 1 implausible (" in heard[0]
    assert CASES[game_id][3] in heard[0]


def test_rows_failing_different_checks_are_counted_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    run = stored(path, "profiteer")
    tamper(path, 0, profiteer)
    tamper(path, 1, profiteer)
    tamper(path, 3, lambda returns, scores, stats: (returns, scores, {**stats, "passes": 500.0}))
    heard: list[str] = []
    Store(path, warn=heard.append).done(run)
    assert heard == [f"results file {path}: profiteer rows not reused, played again: 3 implausible "
                     "(Profiteer: 99 cards counted, the deck has 52; 1 of them for other reasons)"]


def test_a_game_offering_no_check_gets_the_checks_every_game_gets(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    run = stored(path, "profiteer")
    tamper(path, 2, profiteer)
    profiteer_entry = entry("profiteer")
    unchecked = dataclasses.replace(profiteer_entry, study=dataclasses.replace(profiteer_entry.study, plausibility=None))
    monkeypatch.setattr(store_module, "entry", lambda game_id: unchecked)
    heard: list[str] = []
    assert Store(path, warn=heard.append).done(run) == {0, 1, 2, 3} and heard == []


@pytest.mark.parametrize("game_id", sorted(CASES))
@pytest.mark.parametrize("junk", ["many", 1e308, [1e308, -1e308], None])
def test_statistics_that_are_no_figures_are_named_in_one_short_line(tmp_path: Path, game_id: str, junk: object) -> None:
    # what a file holds is read, never trusted: any value in place of every statistic
    path = tmp_path / "g.sqlite"
    run = stored(path, game_id)
    tamper(path, 0, lambda returns, scores, stats: (returns, scores, {key: junk for key in stats}))
    heard: list[str] = []
    assert Store(path, warn=heard.append).done(run) == {1, 2, 3}
    assert len(heard) == 1 and "1 implausible (" in heard[0] and len(heard[0]) < 300 and "\n" not in heard[0]
