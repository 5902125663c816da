"""Imports form a ladder: core <- games <- agents <- match/simulate/cli/terminal, never back up.

Every import of every module is read from its source (function-level ones included), resolved
to the ``plunder`` module it names, and placed on a rung; a module may import from its own
rung or below. A game imports no other game. Outside the games, no function-level import of a
``plunder`` module is allowed: one is only ever there to dodge a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "plunder"

#: rung of each top-level part of ``plunder``; anything else (match, simulate, cli, ...) is the top
RUNGS = {"core": 0, "games": 1, "agents": 2}
TOP = 3


def module_name(path: Path) -> str:
    """``plunder.games.pillage.rules`` for ``src/plunder/games/pillage/rules.py``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[tuple[int, str, bool]]:
    """(line, absolute module name, outside any function) of each ``plunder`` import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    in_functions = {id(inner) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    for inner in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join(base + ([node.module] if node.module else []))
            # ``from . import x`` may name a module x: count the deepest name it could be
            names = [f"{stem}.{alias.name}" if not node.module else stem for alias in node.names]
        else:
            continue
        found += [(node.lineno, name, id(node) not in in_functions) for name in names if name.split(".")[0] == "plunder"]
    return found


def rung(module: str) -> int:
    """The ladder rung of a ``plunder`` module (the package itself is the top)."""
    parts = module.split(".")
    return RUNGS.get(parts[1], TOP) if len(parts) > 1 else TOP


def game_of(module: str) -> str | None:
    """The game package a module belongs to, if any."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def test_rung_and_game_are_read_from_names() -> None:
    assert rung("plunder.core.registry") == 0 and rung("plunder.games.hubs.rules") == 1
    assert rung("plunder.agents.mcts") == 2 and rung("plunder.simulate") == 3 and rung("plunder") == 3
    assert game_of("plunder.games.hubs.svg") == "hubs" and game_of("plunder.games") is None


def test_imports_are_resolved_relative_to_their_package() -> None:
    assert module_name(PACKAGE / "games" / "pillage" / "__init__.py") == "plunder.games.pillage"
    found = imported(PACKAGE / "games" / "pillage" / "hard.py")
    assert any(name == "plunder.core.agent" for _, name, _ in found)
    assert any(name == "plunder.games.pillage.rules" for _, name, _ in found)


def test_no_module_imports_up_the_ladder_or_across_games() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = module_name(path)
        for line, other, at_top in imported(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {other}"
            if rung(other) > rung(me):
                wrong.append(f"{where} (up the ladder)")
            elif game_of(me) and game_of(other) and game_of(me) != game_of(other):
                wrong.append(f"{where} (another game)")
            elif not at_top and game_of(me) is None:
                wrong.append(f"{where} (inside a function)")
    assert not wrong, "\n".join(wrong)
