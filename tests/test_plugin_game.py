"""A game from outside Plunder: the example Pig (``examples/pig``), found by its
``plunder.games`` entry point, played through the command line, checked by the conformance
check; and games that fail to load are left out in one line while the others still load."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import plunder_pig
import pytest

from plunder import pictures
from plunder.core import chance
from plunder.core.conformance import check_game
from plunder.core.record import Record, replay
from plunder.core.declaration import DEFAULT_ORDER
from plunder.core.registry import OWN_PACKAGE, GameEntry, entry, game_ids, is_game, load_game
from plunder.core.svg import Shown
from plunder.match import play

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "new-game.md"


def plunder_cli(*args: str, input: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``plunder ARGS`` in a fresh interpreter (which finds the games as a user's does)."""
    return subprocess.run([sys.executable, "-m", "plunder.cli", *args], input=input, capture_output=True,
                          text=True, timeout=300, env=env)


#: Plunder's own games, the packages of ``plunder.games``
OWN = sorted(p.name for p in (ROOT / "src" / "plunder" / "games").iterdir() if (p / "__init__.py").exists())


def test_the_games_stand_in_the_order_each_gives_then_by_id() -> None:
    ids = game_ids()
    assert sorted(ids, key=lambda g: (entry(g).declaration.order, g)) == ids
    assert set(OWN) < set(ids) and len(ids) == len(set(ids))
    assert max(entry(g).declaration.order for g in OWN) < entry("pig").declaration.order == DEFAULT_ORDER
    assert ids[:len(OWN)] == ["pillage", "pirates", "hubs", "profiteer", "crossroads"]
    assert entry("pig") is plunder_pig.ENTRY


def test_the_builtin_games_register_their_entry_points() -> None:
    """``pyproject.toml`` registers each package of ``plunder.games`` in the ``plunder.games``
    group, as any package does, and the installed metadata finds each there."""
    import importlib.metadata

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    registered = project["entry-points"]["plunder.games"]
    assert registered == {g: f"{OWN_PACKAGE}.{g}:ENTRY" for g in OWN}
    points = {p.name: p.value for p in importlib.metadata.entry_points(group="plunder.games")}
    assert {g: points[g] for g in OWN} == registered


def test_a_builtin_game_the_metadata_misses_is_found_by_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A source tree whose installed metadata predates a game of its own (run through
    ``PYTHONPATH``) still finds that game by scanning ``plunder.games``; a stale entry point
    naming a package the tree no longer has is passed over."""
    import importlib.metadata

    from plunder.core import registry

    ids_before = registry.game_ids()
    real = importlib.metadata.entry_points(group="plunder.games")
    stale = importlib.metadata.EntryPoint("gone", "plunder.games.gone:ENTRY", "plunder.games")
    kept = [p for p in real if p.name != "hubs"] + [stale]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: kept)
    registry._found.cache_clear()
    try:
        found = registry._found()
        assert found.sources["hubs"] == "plunder.games.hubs:ENTRY" and "gone" not in found.sources
        assert registry.game_ids() == ids_before and registry.broken_games() == []
    finally:
        registry._found.cache_clear()


def test_is_game_loads_that_game_alone() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from plunder.core.registry import is_game; "
                           "print(is_game('hubs'), is_game('chess'), "
                           "sorted(m for m in sys.modules if m.count('.') == 2 and m.startswith('plunder.games.')))"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[0] == "True False ['plunder.games.hubs']", done.stderr
    assert is_game("pig") and not is_game("Bad-Id")


def test_pig_passes_the_conformance_check() -> None:
    for preset in plunder_pig.PigGame.presets:
        report = check_game(load_game("pig", preset=preset), playthroughs=100)
        assert report.games == 100 and report.illegal_refused > 0


def test_the_die_is_chance_drawn_from_the_seed_and_its_index() -> None:
    """Every die of a played game is the outcome :func:`chance.draw` gives for the seed and
    the chance event's index, and a replay of the record checks it."""
    game = load_game("pig", preset="quick")
    record = play(game, ["greedy", "random"], seed=21)
    state, index = game.new_initial_state(), 0
    for move in record.moves:
        if move.by is None:
            assert move.action == game.action_to_text(state, chance.draw(state, 21, index))
            index += 1
        state = state.apply_text(move.action)
    assert index > 5 and state.is_terminal() and replay(record, game) == state


def test_plunder_play_pig_with_scripted_input(tmp_path: Path) -> None:
    path = tmp_path / "pig.json"
    # roll twice then hold, over and over: a hold after a 1 is refused (PG-3) and play goes on
    moves = "moves\n" + "roll\nroll\nhold\n" * 200
    done = plunder_cli("play", "pig", "--preset", "quick", "--vs", "greedy", "--seed", "5", "--record", str(path),
                       input=moves)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Player 1 rolls" in out and "the die shows" in out and "must roll before you hold" in out
    assert re.search(r"^Player [12] wins \d+-\d+$", out, re.M)
    record = Record.from_json(path.read_text())
    assert record.game == "pig" and record.players == ["human", "greedy"]
    assert replay(record).is_terminal() and record.returns is not None


def test_plunder_simulate_pig() -> None:
    done = plunder_cli("simulate", "pig", "--agents", "greedy,random", "--games", "40", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 40 and "greedy" in json.dumps(result)


def test_plunder_list_and_rules_show_pig() -> None:
    listed = plunder_cli("list")
    assert listed.returncode == 0 and "pig — Pig" in listed.stdout and "hold at" in listed.stdout
    assert listed.stderr == ""
    rules = plunder_cli("rules", "pig")
    assert rules.returncode == 0 and "turn total" in rules.stdout


@pytest.mark.parametrize("package", ["pig/src/plunder_pig", "stones/src/plunder_stones"])
def test_the_examples_import_only_the_public_api_the_tutorial_names(package: str) -> None:
    """Each example's package (Pig, Last Stone) is written against the modules
    ``docs/new-game.md`` lists as the public API, and nothing else of Plunder's."""
    public = set(re.findall(r"^- `(plunder[\w.]*)`", TUTORIAL.read_text(), re.M))
    assert {"plunder.core.game", "plunder.core.registry"} <= public
    used = set()
    for source in (ROOT / "examples" / package).glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                used.add(node.module)
            elif isinstance(node, ast.Import):
                used.update(alias.name for alias in node.names)
    ours = {m for m in used if m.split(".")[0] == "plunder"}
    assert ours and ours <= public, ours - public


def _broken_plugins(tmp_path: Path) -> dict[str, str]:
    """An environment with an installed package registering three games that cannot load."""
    dist = tmp_path / "broken_games-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[plunder.games]\nraising = raising_game:ENTRY\nnotentry = notentry_game:ENTRY\n"
        "pillage = notentry_game:ENTRY\nBad-Id = notentry_game:ENTRY\n")
    (tmp_path / "raising_game.py").write_text("raise RuntimeError('the rules file is missing\\nsecond line')\n")
    (tmp_path / "notentry_game.py").write_text("ENTRY = 3\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))


def test_broken_games_are_reported_in_one_line_each_and_the_others_load(tmp_path: Path) -> None:
    env = _broken_plugins(tmp_path)
    listed = plunder_cli("list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "pig — Pig" in listed.stdout and "pillage — Pillage and Profit" in listed.stdout
    warnings = listed.stderr.splitlines()
    assert len(warnings) == 4 and all(w.startswith("plunder: warning: game ") for w in warnings)
    assert "'Bad-Id' (notentry_game:ENTRY) left out: an id is a lowercase letter" in warnings[0]
    assert "'notentry' (notentry_game:ENTRY) left out: it names a int, not a GameEntry" in warnings[1]
    assert "'pillage' (notentry_game:ENTRY) left out: 'pillage' is a built-in game's id" in warnings[2]
    assert "'raising' (raising_game:ENTRY) left out: it failed to load: RuntimeError: the rules file is missing " \
           "second line" in warnings[3]
    refused = plunder_cli("play", "raising", env=env)
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1].startswith("plunder play: game 'raising' (raising_game:ENTRY) left out")


def test_a_game_that_draws_no_picture_gets_the_plain_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The smallest game (a ``GameEntry`` with its rules alone) is drawn by ``plain_picture``:
    its text picture, its legal actions as buttons, the caption."""
    monkeypatch.setattr(pictures, "entry", lambda game_id: GameEntry(plunder_pig.PigGame, plunder_pig.ENTRY.declaration))
    state = load_game("pig").new_initial_state().apply_text("roll").apply_text("die 3")
    root = ET.fromstring(pictures.svg_of(state, Shown(2, "die 3")))
    drawn = ["".join(e.itertext()) for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert str(state).replace(" ", "\u00a0") in drawn and "move 2: die 3" in drawn
    assert [e.get("data-action") for e in root.iter() if e.get("data-action")] == ["roll", "hold"]


def test_a_command_that_plays_one_game_imports_that_game_alone() -> None:
    """The warning every command gives for the games that fail to load imports the other
    packages' games (Pig here) but not Plunder's own, which ``plunder simulate hubs`` does not need."""
    done = subprocess.run([sys.executable, "-c", "import sys; from plunder.cli import main\n"
                           "try:\n    main(['simulate', 'hubs', '--agents', 'random,random', '--games', '1'])\n"
                           "except SystemExit:\n    pass\n"
                           "print(sorted(m for m in sys.modules if m.count('.') == 2 and m.startswith('plunder.games.')))"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "['plunder.games.hubs']", done.stderr


def test_a_game_whose_entry_breaks_its_declaration_is_left_out_in_plunder_list(tmp_path: Path) -> None:
    """An installed game declaring three seats for rules that give two is left out when loaded,
    and ``plunder list`` says why, as for a game that fails to import."""
    dist = tmp_path / "three_pig-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: three-pig\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[plunder.games]\nthreepig = threepig_game:ENTRY\n")
    (tmp_path / "threepig_game.py").write_text(
        "import dataclasses\nfrom plunder_pig import ENTRY as PIG, PigGame\n"
        "class ThreePig(PigGame):\n    id = 'threepig'\n"
        "ENTRY = dataclasses.replace(PIG, game_class=ThreePig,\n"
        "                            declaration=dataclasses.replace(PIG.declaration, min_seats=3, max_seats=3))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    listed = plunder_cli("list", env=env)
    line = ("game 'threepig' (threepig_game:ENTRY) left out: its default game has 2 seats, outside the 3 players "
            "it declares; its presets 'standard' has 2 seats, 'quick' has 2 seats, outside the 3 players it declares")
    assert listed.returncode == 0 and listed.stderr == f"plunder: warning: {line}\n"
    assert "pig — Pig (2 players)" in listed.stdout and listed.stdout.rstrip().endswith(f"games left out\n{line}")
