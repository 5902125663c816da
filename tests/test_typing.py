"""Type hints are checked: mypy over the whole package."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    if shutil.which("mypy") is None and subprocess.run([sys.executable, "-m", "mypy", "--version"],
                                                       capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed")
    done = subprocess.run([sys.executable, "-m", "mypy", "src/plunder"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
