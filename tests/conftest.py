"""The whole suite's setup: the example game Pig (``examples/pig``) must be installed from this
checkout, and the tests write nothing into the checkout.

Pig is found as any other package's game is, by its ``plunder.games`` entry point, so the
suite proves that a game from outside works everywhere (every test that goes through
``game_ids()`` meets it). It is installed by the install step of the README's test command
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

#: the example game's package
PIG = Path(__file__).resolve().parents[1] / "examples" / "pig"
#: the install step of the README's test command, which installs Pig with Plunder
INSTALL = ".venv/bin/pip install -q -e '.[dev]' -e examples/pig"
#: the session's folder for Hypothesis's files (set in :func:`pytest_configure`)
_hypothesis_home: list[Path] = []


def pig_installed() -> bool:
    """Whether the environment registers Pig from this repository's ``examples/pig``."""
    for point in importlib.metadata.entry_points(group="plunder.games", name="pig"):
        dist = point.dist
        if dist is not None and _source(dist) == PIG:
            return True
    return False


def _source(dist: importlib.metadata.Distribution) -> Path | None:
    """The folder a distribution was installed from, if from a folder (PEP 610's ``direct_url.json``)."""
    url = urlparse(json.loads(dist.read_text("direct_url.json") or "{}").get("url", ""))
    return Path(unquote(url.path)).resolve() if url.scheme == "file" else None


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run without Pig installed from this checkout; send Hypothesis's files to a temporary folder."""
    if not pig_installed():
        raise pytest.UsageError(
            f"the example game {PIG} is not installed from this checkout (the suite plays it as a game "
            f"from outside Plunder): install it with the README's install step, from the repository "
            f"root: {INSTALL}")
    home = Path(tempfile.mkdtemp(prefix="plunder-hypothesis-"))
    set_hypothesis_home_dir(home)
    _hypothesis_home.append(home)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's Hypothesis folder."""
    while _hypothesis_home:
        shutil.rmtree(_hypothesis_home.pop(), ignore_errors=True)
