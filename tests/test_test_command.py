"""CI runs exactly the README's test command, whose install step installs the example game the
suite needs (tests/conftest.py refuses to run without it and names that step)."""

from __future__ import annotations

from pathlib import Path

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
