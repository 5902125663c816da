"""The code in docs/new-game.md is code: every Python snippet type-checks under the project's own
mypy settings, and a snippet that shows a file of the example game is that file, word for word.

A snippet whose first line is a comment naming a file of an example game
(``# examples/pig/src/plunder_pig/rules.py``) is that whole file; it is type-checked in its place
in a copy of the examples' packages. Any other snippet is a module of its own inside the copy of
Pig's package (so it may import Pig's modules as the package's own do, ``from .rules import
PigState``), and must stand alone: no elided bodies, every definition annotated.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "new-game.md"
#: the example games, each a package in ``src/``
EXAMPLES = sorted((ROOT / "examples").glob("*/src"))
#: a fenced Python block of the tutorial
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
#: a block's first line when it shows a whole file of the example
WHOLE_FILE = re.compile(r"# (examples/\w+/src/(\S+\.py))\n")
#: how long mypy may take over the snippets
MYPY_SECONDS = 600


def snippets() -> list[str]:
    """The tutorial's Python blocks, in order."""
    return BLOCK.findall(TUTORIAL.read_text())


def test_the_tutorial_has_snippets_of_both_kinds() -> None:
    blocks = snippets()
    whole = [b for b in blocks if WHOLE_FILE.match(b)]
    assert len(blocks) >= 8 and len(whole) >= 3, (len(blocks), len(whole))


def test_a_snippet_that_shows_a_file_is_that_file() -> None:
    shown = 0
    for block in snippets():
        named = WHOLE_FILE.match(block)
        if named:
            shown += 1
            assert block[named.end():] == (ROOT / named.group(1)).read_text(), f"{named.group(1)} differs from the tutorial"
    assert shown >= 3


def test_every_snippet_type_checks_as_the_project_configures_mypy(tmp_path: Path) -> None:
    package = tmp_path / "src"
    for example in EXAMPLES:
        shutil.copytree(example, package, dirs_exist_ok=True)
    loose = []
    for n, block in enumerate(snippets()):
        named = WHOLE_FILE.match(block)
        if named:
            (package / named.group(2)).write_text(block[named.end():])
        else:
            path = package / "plunder_pig" / f"snippet_{n}.py"
            path.write_text(block)
            loose.append(path)
    assert loose, "no stand-alone snippet was found"
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), *[str(p) for p in package.iterdir() if (p / "__init__.py").exists()]],
                          capture_output=True, text=True, timeout=MYPY_SECONDS, cwd=package)
    assert done.returncode == 0, done.stdout + done.stderr
