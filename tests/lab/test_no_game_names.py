"""The lab knows no game by name: what a report says of one game comes from that game's
``GameEntry.study.figures``, so a new game is reported on without touching the lab. Comments and
docstrings may name games (as examples); code may not, neither in names nor in strings."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from plunder.core.registry import game_ids

#: the lab's sources
LAB = Path(__file__).resolve().parents[2] / "src" / "plunder" / "lab"


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``'s module, classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def words_in_code(source: str) -> list[tuple[int, str]]:
    """(line, text) of every name and string of ``source`` but its docstrings (comments are not in the tree)."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            out.append((line, node.value))
        elif isinstance(node, ast.Name):
            out.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, node.name))
        elif isinstance(node, ast.arg):
            out.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((line, node.arg))
        elif isinstance(node, ast.alias):
            out.append((line, node.asname or node.name))
    return out


def named_games(text: str, ids: set[str]) -> set[str]:
    """The game ids among the words of ``text`` (letters only, any case: ``_pillage``, ``"Hubs"``)."""
    return {w for w in re.split(r"[^a-z]+", text.lower()) if w in ids}


def test_words_in_code_skip_docstrings_and_comments_only() -> None:
    source = ('"""About hubs."""\n# pillage\nX = "Pirates\' sea"\n'
              'def _profiteer(crossroads: int) -> None:\n    """Docs."""\n')
    found = {w for _, text in words_in_code(source) for w in named_games(text, set(game_ids()))}
    assert found == {"pirates", "profiteer", "crossroads"}


def test_the_lab_names_no_game_in_its_code() -> None:
    ids = set(game_ids())
    wrong = [f"{path.relative_to(LAB.parents[1])}:{line} names {', '.join(sorted(games))}: {text[:60]!r}"
             for path in sorted(LAB.glob("*.py"))
             for line, text in words_in_code(path.read_text(encoding="utf-8"))
             if (games := named_games(text, ids))]
    assert not wrong, "\n".join(wrong)
