"""The coach's finished analyses kept in the store (:data:`coach_analyses`, a table of its own on
the store's metadata), so that a reopened replay shows its marks, whichever server process
answers, and an analysis is made once per game.

A row holds the judged moves and their words as JSON, with the version of the analysis that
made it (:func:`made_by`: the engine's version and the coach's budget): a row of another
version is not served, and the game is analysed again when asked. Only games of this server
are kept (an uploaded record is not stored, nor its analysis); a game's row goes with it.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, String, Table, Text, delete, insert, select

from ..analysis import ENGINE_VERSION, MoveAnalysis
from .store import Store, metadata

coach_analyses = Table(
    "coach_analyses", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # made_by(): the analysis that made the row
    Column("made_by", String(64), nullable=False),
    # {"moves": [MoveAnalysis fields], "words": [[played, best]]}
    Column("data", Text, nullable=False),
    Column("created", Float, nullable=False),
)


def made_by(sims: int | None) -> str:
    """The version of the coach's analysis: the engine's and the playout budget's."""
    return f"engine {ENGINE_VERSION}, {sims} playouts"


def encoded(moves: list[MoveAnalysis], words: list[tuple[str, str]]) -> str:
    """A finished analysis as the row's JSON."""
    return json.dumps({"moves": [dataclasses.asdict(m) for m in moves], "words": [list(w) for w in words]})


def decoded(text: str) -> tuple[list[MoveAnalysis], list[tuple[str, str]]]:
    """The judged moves and their words of a row's JSON (:func:`encoded`)."""
    data: dict[str, Any] = json.loads(text)
    return [MoveAnalysis(**m) for m in data["moves"]], [(w[0], w[1]) for w in data["words"]]


def save_analysis(store: Store, game_id: str, version: str, text: str) -> None:
    """Keep (or replace) the finished analysis of ``game_id``."""
    with store.engine.begin() as db:
        db.execute(delete(coach_analyses).where(coach_analyses.c.game_id == game_id))
        db.execute(insert(coach_analyses).values(game_id=game_id, made_by=version, data=text, created=time.time()))


def load_analysis(store: Store, game_id: str, version: str) -> str | None:
    """The kept analysis of ``game_id`` made by ``version``, if any."""
    with store.engine.connect() as db:
        found: str | None = db.execute(select(coach_analyses.c.data).where(
            coach_analyses.c.game_id == game_id, coach_analyses.c.made_by == version)).scalar_one_or_none()
    return found
