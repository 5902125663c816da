"""Imports form a ladder of floors, never back up:

    core <- games <- agents <- match, pictures, interop, analysis <- simulate, terminal, lab, puzzles <- web <- cli

Every import of every module is read from its source (function-level ones included), resolved
to every ``plunder`` module it names (``from X import Y`` names X, and X.Y where Y is a
submodule), and each placed on a floor; a module may import from its own
floor or below. On one floor the parts stay apart but for the pairs in :data:`SAME_FLOOR` (the
lab is built on simulate). A game imports no other game, and no part outside ``games`` names a
game: it uses what the registry offers. Parts form no circle (simulate may not import the lab
that imports it). Outside the games, no function-level import of a ``plunder`` module is
allowed: one is only ever there to dodge a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "plunder"

#: floor of each top-level part of ``plunder``; the package itself (``plunder``: the public API,
#: over match) is on match's floor
RUNGS = {"core": 0, "games": 1, "agents": 2, "match": 3, "pictures": 3, "interop": 3, "backends": 3, "analysis": 3,
         "simulate": 4, "terminal": 4, "lab": 4, "puzzles": 4, "web": 5, "cli": 6, "__main__": 6}
#: the floor of ``plunder`` itself and of a part not listed (a new part must be given a floor)
TOP = 3
#: parts that never borrow from one another though the floors would allow it (importer, imported):
#: the browser's words are not the terminal's
APART = {("web", "terminal")}
#: parts of one floor that may import one another (importer, imported)
SAME_FLOOR = {("lab", "simulate"), ("interop", "pictures"), ("__main__", "cli")}


def module_name(path: Path) -> str:
    """``plunder.games.pillage.rules`` for ``src/plunder/games/pillage/rules.py``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of the ``plunder`` source tree."""
    where = PACKAGE.parent.joinpath(*name.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def imported(path: Path) -> list[tuple[int, str, bool]]:
    """(line, absolute module name, outside any function) of each ``plunder`` module ``path`` imports."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool) -> list[tuple[int, str, bool]]:
    """(line, absolute module name, outside any function) of each ``plunder`` module that
    ``source``, the text of ``module``, imports: ``from X import Y`` names X and, where Y is a
    submodule of X, X.Y too (``from plunder.games import pillage`` names a game)."""
    tree = ast.parse(source)
    package = module.split(".")
    if not is_package:
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
            names = [stem] + [f"{stem}.{alias.name}" for alias in node.names if is_module(f"{stem}.{alias.name}")]
        else:
            continue
        found += [(node.lineno, name, id(node) not in in_functions) for name in names if name.split(".")[0] == "plunder"]
    return found


def wrong(me: str, imports: list[tuple[int, str, bool]], where: str) -> list[str]:
    """What is wrong with the imports of module ``me`` (shown as ``where``), one line each."""
    found = []
    for line, other, at_top in imports:
        said = f"{where}:{line} imports {other}"
        if rung(other) > rung(me):
            found.append(f"{said} (up the ladder)")
        elif (part(me), part(other)) in APART:
            found.append(f"{said} (parts kept apart)")
        elif (rung(other) == rung(me) and part(me) != part(other) and "plunder" not in (part(me), part(other))
              and (part(me), part(other)) not in SAME_FLOOR):
            found.append(f"{said} (across one floor)")
        elif game_of(me) and game_of(other) and game_of(me) != game_of(other):
            found.append(f"{said} (another game)")
        elif game_of(other) and part(me) != "games":
            found.append(f"{said} (a shared part naming a game)")
        elif not at_top and game_of(me) is None:
            found.append(f"{said} (inside a function)")
    return found


def part(module: str) -> str:
    """The top-level part of a ``plunder`` module (``plunder`` for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "plunder"


def rung(module: str) -> int:
    """The ladder floor of a ``plunder`` module."""
    return RUNGS.get(part(module), TOP)


def game_of(module: str) -> str | None:
    """The game package a module belongs to, if any."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def test_rung_and_game_are_read_from_names() -> None:
    assert rung("plunder.core.registry") == 0 and rung("plunder.games.hubs.rules") == 1
    assert rung("plunder.agents.mcts") == 2 and rung("plunder.interop.encoding") == 3 and rung("plunder") == 3
    assert rung("plunder.simulate") == 4 and rung("plunder.web.tables") == 5 and rung("plunder.cli") == 6
    assert game_of("plunder.games.hubs.svg") == "hubs" and game_of("plunder.games") is None


def test_imports_are_resolved_relative_to_their_package() -> None:
    assert module_name(PACKAGE / "games" / "pillage" / "__init__.py") == "plunder.games.pillage"
    found = imported(PACKAGE / "games" / "pillage" / "hard.py")
    assert any(name == "plunder.core.agent" for _, name, _ in found)
    assert any(name == "plunder.games.pillage.rules" for _, name, _ in found)


def test_no_module_imports_up_the_ladder_or_across_games() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += wrong(module_name(path), imported(path), str(path.relative_to(PACKAGE.parent)))
    assert not found, "\n".join(found)


def test_a_game_named_by_a_from_import_is_seen() -> None:
    """``from X import Y`` names module X.Y when Y is one: a shared part importing a game that
    way, or a game another game, is flagged; a name that is no module (a function) is not."""
    source = """
from plunder.games import pillage
from plunder.games.hubs import rules as hubs_rules
from ..games import pirates
from plunder import games, load_game
from plunder.core import registry
"""
    found = imports_in(source, "plunder.web.fake", is_package=False)
    names = [name for _, name, _ in found]
    assert names == ["plunder.games", "plunder.games.pillage", "plunder.games.hubs", "plunder.games.hubs.rules",
                     "plunder.games", "plunder.games.pirates", "plunder", "plunder.games", "plunder.core",
                     "plunder.core.registry"]
    assert wrong("plunder.web.fake", found, "fake.py") == [
        "fake.py:2 imports plunder.games.pillage (a shared part naming a game)",
        "fake.py:3 imports plunder.games.hubs (a shared part naming a game)",
        "fake.py:3 imports plunder.games.hubs.rules (a shared part naming a game)",
        "fake.py:4 imports plunder.games.pirates (a shared part naming a game)"]
    across = imports_in("from plunder.games import hubs\n", "plunder.games.pillage.fake", is_package=False)
    assert wrong("plunder.games.pillage.fake", across, "fake.py") == ["fake.py:1 imports plunder.games.hubs (another game)"]


def test_parts_form_no_circle() -> None:
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        me = part(module_name(path))
        for _, other, _ in imported(path):
            if part(other) != me:
                edges.setdefault(me, set()).add(part(other))

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in edges.get(start, set()) - seen:
            if nxt == goal or reaches(nxt, goal, seen | {nxt}):
                return True
        return False

    circles = sorted(f"{a} -> {b} -> ... -> {a}" for a in edges for b in edges[a] if b != "plunder" and reaches(b, a, {b}))
    assert not circles, "\n".join(circles)
