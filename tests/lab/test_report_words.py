"""Every game's report says and draws what it said and drew before its figures moved into the
game (``GameEntry.study.figures``): the same sentences, plot names and captions, notes, and the same
data handed to each plot, from a fixed set of stored rows per game.

``report_expected.json`` was written by the report builder of the lab that still held every
game's sections itself, on rows played then (``plunder.lab.run.collect``, base seed 5) and kept
in the file, so the comparison does not depend on how games are played today. Its expected words
were rewritten on purpose once since: seats report points with ties shared and a balance, and
Pirates reports each agent's score quantiles and says whose goal its win rate uses.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from plunder.lab import plots
from plunder.lab.measures import Share
from plunder.lab.report import build
from plunder.lab.store import Row

#: per game: its parameters, base seed, stored rows, and what the report said and drew
EXPECTED = json.loads((Path(__file__).parent / "report_expected.json").read_text(encoding="utf-8"))
#: the plot functions a report draws with
DRAWERS = ("histogram", "shares", "bars", "heatmap")


def plain(value: Any) -> Any:
    """``value`` as JSON keeps it, orders kept: a mapping as its [key, value] pairs, a share as its counts."""
    if isinstance(value, Share):
        return {"hits": value.hits, "n": value.n}
    if isinstance(value, dict):
        return [[k, plain(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def record(game_id: str, case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What the report on ``case``'s rows says, and what it hands each plot function (every
    argument by name, defaults filled in, however it was passed)."""
    drawn: list[Any] = []

    def drawer(name: str) -> Callable[..., bytes]:
        signature = inspect.signature(getattr(plots, name))

        def draw(*args: Any, **kwargs: Any) -> bytes:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            drawn.append([name, plain(dict(bound.arguments))])
            return b""
        return draw

    for name in DRAWERS:
        monkeypatch.setattr(plots, name, drawer(name))
    rows = [Row(**row) for row in case["rows"]]
    report = build(game_id, case["params"], rows, case["seed"])
    return {"title": report.title, "summary": report.summary, "notes": report.notes,
            "plots": [[p.name, p.caption] for p in report.plots], "drawn": drawn}


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_the_report_says_and_draws_what_it_did(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case = EXPECTED[game_id]
    assert case["rows"], "the fixture keeps the rows the report reads"
    assert record(game_id, case, monkeypatch) == case["expected"]
