"""The training example runs end to end through the Gymnasium env (a few episodes only)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "profiteer_tabular.py"


def test_the_tabular_example_learns_and_plots(tmp_path: Path) -> None:
    """Forty episodes, two evaluations of ten games: the curve, the references, the PNG."""
    spec = importlib.util.spec_from_file_location("profiteer_tabular", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    picture = tmp_path / "curve.png"
    result = example.main(["--episodes", "40", "--every", "20", "--eval", "10", "--plot", str(picture)])
    assert result["episodes"] == [0, 20, 40]
    assert all(0.0 <= w <= 1.0 for w in [*result["agent"], result["random"], result["profit"]])
    assert result["situations"] > 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
