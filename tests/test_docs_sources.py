"""The docs cite only files that exist in the repository (paths and bare module names)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
EXTENSIONS = "py|md|json|sh|png|svg|toml|txt|csv|html"
#: a path with at least one folder: ``bench/ai_table.py``, ``plunder/games/hubs/svg.py``
PATH = re.compile(rf"(?<![\w./-])((?:[\w.-]+/)+[\w.-]+\.(?:{EXTENSIONS}))\b")
#: a bare source file name in backticks: ``candidates.py`` (a bare data file name, such as a
#: download's ``pillage-board.json``, is often a file the reader makes, not one of ours)
NAME = re.compile(r"`([\w.-]+\.(?:py|md|sh|toml))`")
#: folders a command in the docs writes its output to (``--out rep/``, ``--all frames/``): not sources
OUTPUT_FOLDERS = ("OUT/", "rep/", "frames/")


def _paths() -> list[str]:
    skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis"}
    return ["/" + p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_every_file_a_doc_cites_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    paths = _paths()
    missing = []
    for m in PATH.finditer(text):
        cited = m.group(1)
        if cited.startswith(OUTPUT_FOLDERS):
            continue
        # from the root, the doc's own folder, or any folder of the repository (a package's
        # ``templates/game.html``, ``plunder/games/hubs/svg.py``)
        if not (any((base / cited).exists() for base in (ROOT, doc.parent))
                or any(p.endswith("/" + cited) for p in paths)):
            missing.append(cited)
    names = {p.rsplit("/", 1)[1] for p in paths}
    missing += [m.group(1) for m in NAME.finditer(text) if m.group(1) not in names]
    assert not missing, f"{doc.relative_to(ROOT)} cites files not in the repository: {missing}"
