"""CI runs exactly the README's test command, whose install step installs the example game the
suite needs (tests/conftest.py refuses to run without it and names that step)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest
from hypothesis.configuration import storage_directory

from tests import conftest
from tests.conftest import INSTALL

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    """Line 2 of the README's first code block."""
    block = (ROOT / "README.md").read_text(encoding="utf-8").split("```")[1]
    return block.strip("\n").splitlines()[1]


def test_ci_runs_the_readme_test_command_which_installs_the_example_game() -> None:
    command = readme_test_command()
    assert command.endswith("python -m pytest") and f"&& {INSTALL} &&" in command
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith("#")]
    assert command in ci


def test_the_suite_refuses_to_run_without_the_example_game_naming_the_install_step(
        monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config) -> None:
    stones = list(importlib.metadata.entry_points(group="plunder.games", name="stones"))
    assert stones
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **selection: [])
    with pytest.raises(pytest.UsageError, match="examples/pig, .*examples/stones are not installed from this "
                                                "checkout") as refused:
        conftest.pytest_configure(pytestconfig)
    assert str(refused.value).endswith(f"from the repository root: {INSTALL}")
    # one missing is named alone
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **selection: stones if selection.get("name") == "stones" else [])
    with pytest.raises(pytest.UsageError, match=r"games \S+examples/pig are not installed"):
        conftest.pytest_configure(pytestconfig)


def test_hypothesis_keeps_its_files_outside_the_checkout() -> None:
    folder = storage_directory("examples", intent_to_write=False).path.resolve()
    assert not folder.is_relative_to(ROOT) and folder.parent.name.startswith("plunder-hypothesis-")
