"""Every public name has a docstring (mypy runs as a step of its own in ``.ci/run``)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_has_a_docstring() -> None:
    """Modules, and public classes, functions and methods (nested helpers excepted)."""
    missing = []
    for path in sorted((ROOT / "src" / "plunder").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if ast.get_docstring(tree) is None and path.name != "__main__.py":
            missing.append(f"{path.relative_to(ROOT)} (module)")
        scopes = [tree.body] + [n.body for n in tree.body if isinstance(n, ast.ClassDef)]
        for body in scopes:
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                    if ast.get_docstring(node) is None:
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not missing, "no docstring: " + ", ".join(missing)
