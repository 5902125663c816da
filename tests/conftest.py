"""The whole suite's setup: the example game Pig (``examples/pig``) installed into the running
environment before the tests are collected.

Pig is found as any other package's game is, by its ``plunder.games`` entry point, so the
suite proves that a game from outside works everywhere (every test that goes through
``game_ids()`` meets it). A fresh clone installs it here, from the repository's own files:
``pip install --no-deps --no-build-isolation -e examples/pig`` needs no network, only the
setuptools the ``dev`` extra pins. (A dependency on a local path cannot be written in
``pyproject.toml``: its URL would have to be absolute.)
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import site
import subprocess
import sys
import sysconfig
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

#: the example game's package
PIG = Path(__file__).resolve().parents[1] / "examples" / "pig"
#: how long pip may take to install it
INSTALL_SECONDS = 300
#: the first setuptools that builds a wheel without the ``wheel`` package (the ``dev`` extra pins a later one)
SETUPTOOLS_BUILDS_ALONE = (70, 1)


def pig_installed() -> bool:
    """Whether the environment registers Pig from this repository's ``examples/pig``."""
    for point in importlib.metadata.entry_points(group="plunder.games", name="pig"):
        dist = point.dist
        if dist is not None and _source(dist) == PIG:
            return True
    return False


def _setuptools_version() -> tuple[int, ...]:
    """The installed setuptools' version as numbers (``()`` when there is none)."""
    try:
        text = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return ()
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())


def _source(dist: importlib.metadata.Distribution) -> Path | None:
    """The folder a distribution was installed from, if from a folder (PEP 610's ``direct_url.json``)."""
    url = urlparse(json.loads(dist.read_text("direct_url.json") or "{}").get("url", ""))
    return Path(unquote(url.path)).resolve() if url.scheme == "file" else None


def pytest_configure(config: pytest.Config) -> None:
    """Install Pig (editable, from ``examples/pig``) when the environment lacks it."""
    if pig_installed():
        return
    have = _setuptools_version()
    if have < SETUPTOOLS_BUILDS_ALONE:
        raise pytest.UsageError(
            f"the example game examples/pig is not installed, and setuptools {'.'.join(map(str, have)) or 'none'} "
            "cannot build it without a network: install the dev extra (pip install -e '.[dev]') and run again")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "-e", str(PIG)], capture_output=True, text=True, timeout=INSTALL_SECONDS)
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        said = next((line for line in reversed(lines) if line.startswith("error:")), lines[-1] if lines else "no output")
        raise pytest.UsageError(f"could not install the example game examples/pig ({said}); the suite needs it: "
                                f"install the dev extra (pip install -e '.[dev]') and run again")
    # the running interpreter read its .pth files at start: read them again for the new one
    site.addsitedir(sysconfig.get_paths()["purelib"])
    importlib.invalidate_caches()
    if not pig_installed():
        raise pytest.UsageError(f"pip installed examples/pig, but no entry point 'pig' of {PIG} is seen")
