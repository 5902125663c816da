"""The whole suite's setup: the example games Pig (``examples/pig``) and Last Stone
(``examples/stones``, 2 to 8 players) must be installed from this checkout, and the tests write
nothing into the checkout.

Each is found as any other package's game is, by its ``plunder.games`` entry point, so the
suite proves that a game from outside works everywhere (every test that goes through
``game_ids()`` meets them). They are installed by the install step of the README's test command
(:data:`INSTALL`), not by the suite: a test run leaves the environment as it found it. (A
dependency on a local path cannot be written in ``pyproject.toml``: its URL would have to be
absolute.)

Hypothesis keeps its example database and its cache of constants in a temporary folder for
the session, removed at its end, rather than in ``.hypothesis/`` of the working directory.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

#: the example games' packages, by game id
EXAMPLES = {game_id: Path(__file__).resolve().parents[1] / "examples" / game_id for game_id in ("pig", "stones")}
#: the install step of the README's test command, which installs the examples with Plunder
INSTALL = ".venv/bin/pip install -q -e '.[dev]' -e examples/pig -e examples/stones"
#: the session's folder for Hypothesis's files (set in :func:`pytest_configure`)
_hypothesis_home: list[Path] = []


def installed(game_id: str) -> bool:
    """Whether the environment registers example game ``game_id`` from this repository's ``examples/``."""
    for point in importlib.metadata.entry_points(group="plunder.games", name=game_id):
        dist = point.dist
        if dist is not None and _source(dist) == EXAMPLES[game_id]:
            return True
    return False


def _source(dist: importlib.metadata.Distribution) -> Path | None:
    """The folder a distribution was installed from, if from a folder (PEP 610's ``direct_url.json``)."""
    url = urlparse(json.loads(dist.read_text("direct_url.json") or "{}").get("url", ""))
    return Path(unquote(url.path)).resolve() if url.scheme == "file" else None


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run without the examples installed from this checkout; send Hypothesis's files to a temporary folder."""
    missing = [str(EXAMPLES[game_id]) for game_id in EXAMPLES if not installed(game_id)]
    if missing:
        raise pytest.UsageError(
            f"the example games {', '.join(missing)} are not installed from this checkout (the suite plays "
            f"them as games from outside Plunder): install them with the README's install step, from the "
            f"repository root: {INSTALL}")
    home = Path(tempfile.mkdtemp(prefix="plunder-hypothesis-"))
    set_hypothesis_home_dir(home)
    _hypothesis_home.append(home)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's Hypothesis folder."""
    while _hypothesis_home:
        shutil.rmtree(_hypothesis_home.pop(), ignore_errors=True)
