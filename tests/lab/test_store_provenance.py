"""Results a designer can trust and share: every stored row says how it was made; rows of other
code or other agent options, broken or implausible are played again with a warning saying which;
``plunder export`` writes Parquet."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from plunder.agents import agent_options
from plunder.cli import main
from plunder.core.errors import ParameterError
from plunder.core.registry import load_game
from plunder.lab import provenance
from plunder.lab.export import export
from plunder.lab.run import collect
from plunder.lab.store import CHECKED, Run, Store, checksum

OLD_SCHEMA = """create table games (game text not null, params text not null, agents text not null,
    base_seed integer not null, game_index integer not null, seed integer not null, seats text not null,
    returns text not null, scores text not null, stats text not null,
    primary key (game, params, agents, base_seed, game_index))"""


def stored(path: Path) -> tuple[Run, list[str]]:
    """Six Pillage games (greedy against random) in a new store at ``path``, and the warnings heard."""
    heard: list[str] = []
    store = Store(path, command="plunder report pillage", warn=heard.append)
    run = Run("pillage", dict(load_game("pillage", preset="small").params), ("greedy", "random"), 3)
    collect(store, run, 6)
    store.close()
    return run, heard


def rewrite(path: Path, index: int, **changes: str) -> None:
    """Change columns of stored game ``index`` and recompute its checksum, as anyone can."""
    with sqlite3.connect(path) as db:
        row = list(db.execute(f"select {', '.join(CHECKED)} from games where game_index = ?", (index,)).fetchone())
        for name, value in changes.items():
            row[CHECKED.index(name)] = value
        db.execute(f"insert or replace into games ({', '.join(CHECKED)}, checksum) values "
                   f"({', '.join('?' * (len(CHECKED) + 1))})", (*row, checksum(row)))


def column(path: Path, name: str) -> list[object]:
    """Every row's ``name`` column, by game index."""
    with sqlite3.connect(path) as db:
        return [v for (v,) in db.execute(f"select {name} from games order by game_index")]


def test_every_row_records_version_commit_options_time_and_command(tmp_path: Path) -> None:
    run, heard = stored(tmp_path / "g.sqlite")
    assert heard == []
    # the exact code: version, the commit in a checkout, the sources' hash
    code = provenance.code()
    assert set(column(tmp_path / "g.sqlite", "version")) == {code}
    assert code.startswith(f"plunder {provenance.version()} ") and f"sources {provenance.sources()}" in code
    assert len(provenance.sources()) == 16
    if provenance.commit():
        assert f"commit {provenance.commit()[:12]}" in code
    assert set(column(tmp_path / "g.sqlite", "git_commit")) == {provenance.commit()}
    assert set(column(tmp_path / "g.sqlite", "command")) == {"plunder report pillage"}
    options = json.loads(str(column(tmp_path / "g.sqlite", "agent_options")[0]))
    # the defaults are filled in: what was played is known even if a default changes later
    assert options["random"] == {"agent": "random"}
    assert options["greedy"] == agent_options("greedy", load_game("pillage", preset="small"))
    assert agent_options("greedy:caution=2", load_game("pirates"))["bank"] == "false"
    assert all(str(t).endswith("+00:00") for t in column(tmp_path / "g.sqlite", "played_at"))


OTHER_CODE = "plunder 0.1.0 commit 0123456789ab sources 0123456789abcdef"
OTHER_GREEDY = '{"greedy":{"agent":"greedy","caution":"9"},"random":{"agent":"random"}}'


@pytest.mark.parametrize("changes, why", [
    ({"version": OTHER_CODE}, f"made by other code ({OTHER_CODE}) than this (plunder "),
    ({"version": "0.1.0"}, "made by other code (0.1.0) than this"),  # a row of the old version text alone
    ({"agent_options": OTHER_GREEDY}, 'made with other agent options (greedy: {"agent":"greedy","caution":"9"} then'),
    ({"returns": "[1.0,1.0]", "checksum": ""}, "failing their checksum"),
])
def test_a_row_of_other_code_or_agents_or_a_broken_one_is_played_again_with_a_warning(
        tmp_path: Path, changes: dict[str, str], why: str) -> None:
    path = tmp_path / "g.sqlite"
    run, _ = stored(path)
    first = column(path, "returns")
    if "checksum" in changes:  # changed without recomputing the checksum: an accident
        with sqlite3.connect(path) as db:
            db.execute("update games set returns = ? where game_index = 2", (changes["returns"],))
    else:  # the checksum recomputed: only the code or the options tell it apart
        rewrite(path, 2, **changes)
    heard: list[str] = []
    store = Store(path, warn=heard.append)
    assert store.done(run) == {0, 1, 3, 4, 5}
    assert len(heard) == 1 and f"1 {why}" in heard[0] and "played again" in heard[0], heard
    rows = collect(store, run, 6)
    assert [r.index for r in rows] == list(range(6)) and column(path, "returns") == first
    assert set(column(path, "version")) == {provenance.code()}
    assert len(set(column(path, "agent_options"))) == 1
    heard.clear()
    assert store.done(run) == set(range(6)) and heard == []  # the game played again is sound


def test_an_implausible_row_with_a_good_checksum_is_not_reused(tmp_path: Path) -> None:
    # a row whose checksum was recomputed after its seats were changed: only plausibility catches it
    path = tmp_path / "g.sqlite"
    run, _ = stored(path)
    rewrite(path, 1, seats=json.dumps(["greedy", "greedy", "random"]), returns="[1.0,0.0,0.0]",
            scores="[1.0,0.0,0.0]")
    heard: list[str] = []
    store = Store(path, warn=heard.append)
    assert 1 not in store.done(run) and "1 implausible" in heard[0]


def test_a_file_of_the_earlier_layout_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(OLD_SCHEMA)
    with pytest.raises(ParameterError, match="earlier Plunder whose rows do not record their version"):
        Store(path)


def test_export_writes_every_sound_row_as_parquet(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    stored(path)
    with sqlite3.connect(path) as db:
        db.execute("update games set scores = '[99.0,0.0]' where game_index = 4")  # checksum now fails
    heard: list[str] = []
    assert export(path, tmp_path / "g.parquet", warn=heard.append) == 5
    table = pq.read_table(tmp_path / "g.parquet").to_pylist()
    assert [r["game_index"] for r in table] == [0, 1, 2, 3, 5]
    assert table[0]["seats"] == ["greedy", "random"] and table[1]["seats"] == ["random", "greedy"]
    assert table[0]["version"] == provenance.code() and table[0]["command"] == "plunder report pillage"
    assert heard and "1 failing their checksum" in heard[0]


def test_plunder_export_refuses_a_missing_file_in_one_line(tmp_path: Path) -> None:
    stored(tmp_path / "g.sqlite")
    ok = CliRunner().invoke(main, ["export", str(tmp_path / "g.sqlite"), "--out", str(tmp_path / "x.parquet")])
    assert ok.exit_code == 0 and "6 games" in ok.output
    bad = CliRunner().invoke(main, ["export", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "y.parquet")])
    assert bad.exit_code == 1 and "does not exist" in bad.output and "Traceback" not in bad.output


def test_the_sources_hash_names_the_code_when_there_is_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "lab_probe_pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\n", encoding="utf-8")
    (package / "sub" / "rules.py").write_text("y = 2\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = provenance.sources("lab_probe_pkg")
    (package / "sub" / "rules.py").write_text("y = 3\n", encoding="utf-8")
    provenance.sources.cache_clear()
    after = provenance.sources("lab_probe_pkg")
    provenance.sources.cache_clear()
    assert len(before) == len(after) == 16 and before != after  # one changed line is other code
    assert provenance.sources("no_such_package_here") == ""
    # outside a checkout the commit is left out and the sources' hash alone names the code
    monkeypatch.setattr(provenance, "commit", lambda start=None: "")
    code = provenance.code.__wrapped__("lab_probe_pkg")
    assert "commit" not in code and f"sources {provenance.sources()}" in code
    assert code.endswith(f"; lab_probe_pkg unknown sources {after}")
