"""Every position of a game valued: the analysis engine (:mod:`.engine`, :mod:`.value`).

``plunder analyse game.json`` and the lab's game-quality metrics (:mod:`plunder.lab.metrics`)
stand on it; ``docs/analysis.md`` says how values are made and what the marks mean.
"""

from .engine import (ENGINE_VERSION, MARKS, DiskCache, Engine, GameAnalysis, MoveAnalysis, PlayerSummary, Settings,
                     analyse)
from .value import Valuation, margins

__all__ = ["ENGINE_VERSION", "MARKS", "DiskCache", "Engine", "GameAnalysis", "MoveAnalysis", "PlayerSummary",
           "Settings", "Valuation", "analyse", "margins"]
