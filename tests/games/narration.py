"""What the narration tests of every game share: texts played and told, the moves of a
seeded game played by agents, and a narrated line read figure by figure (:class:`Figures`)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from plunder.core import chance
from plunder.core.agent import Agent
from plunder.core.game import Game, State
from plunder.match import play_out

S = TypeVar("S", bound=State[Any])


def told(narrate: Callable[[Any, Any, Any], str], state: S, *texts: str) -> tuple[S, list[str]]:
    """Play ``texts`` from ``state``; the state reached and the narration of each move."""
    said = []
    for text in texts:
        after = state.apply_text(text)
        said.append(narrate(state, state.game.parse_action(state, text), after))
        state = after
    return state, said


def moves(game: Game[Any], agents: Sequence[Agent], seed: int) -> Iterator[tuple[Any, Any, Any]]:
    """(before, action, after) of every move of a game of ``agents`` (one rng of ``seed`` for
    all), chance drawn from ``seed`` as ``plunder play`` draws it."""
    rng = random.Random(seed)
    state, index = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance.draw(state, seed, index)
            index += 1
        else:
            action = agents[state.current_player].choose(state, rng)
        after = state.apply(action)
        yield state, action, after
        state = after


class _Moves:
    """An observer that keeps every move of the game it watches."""

    def __init__(self) -> None:
        self.moves: list[tuple[Any, Any, Any]] = []

    def see(self, before: Any, action: Any, after: Any) -> None:
        self.moves.append((before, action, after))

    def stats(self, final: Any) -> dict[str, float | list[float]]:
        return {}


def played(game: Game[Any], agents: Sequence[Agent | str], seed: int) -> list[tuple[Any, Any, Any]]:
    """(before, action, after) of every move of the game :func:`plunder.match.play_out` plays
    with ``agents`` from ``seed``, as ``plunder play`` and the simulator play it (so a move
    index is the one a record of that game shows)."""
    watch = _Moves()
    play_out(game, agents, seed, observer=watch)
    return watch.moves


DIGITS = re.compile(r"\d")
#: how many seeded games each game's figure test reads, line by line
FIGURE_GAMES = 200
#: a seat as a line names it, captured
SEAT = r"(Player \d+)"


class Figures:
    """One narrated line read clause by clause: :meth:`each` and :meth:`one` find a clause and
    mark its text read; :meth:`all_read` then fails on any figure (any digit) left unread, so a
    figure the narration states that no check reads (a new clause, a changed wording) fails the
    test instead of going unchecked (issue 41)."""

    def __init__(self, said: str) -> None:
        self.said = said
        self._unread = list(said)

    def each(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Every clause of ``pattern`` in the line, marked read."""
        found = list(pattern.finditer(self.said))
        for m in found:
            self._unread[m.start():m.end()] = " " * (m.end() - m.start())
        return found

    def one(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """The one clause of ``pattern`` in the line (failing on two), marked read; ``None`` if none."""
        found = self.each(pattern)
        assert len(found) <= 1, f"{self.said}: {pattern.pattern} said twice"
        return found[0] if found else None

    def all_read(self) -> None:
        """Fail if any figure of the line was in no clause read."""
        rest = "".join(self._unread)
        assert not DIGITS.search(rest), f"{self.said}: a figure no check reads in {rest.strip()!r}"


def figures_read(setup: Callable[[int], tuple[Game[Any], Sequence[Agent | str]]],
                 check: Callable[[Any, Any, Any], Iterable[str] | Mapping[str, int]]) -> Counter[str]:
    """Every line of :data:`FIGURE_GAMES` seeded games checked: ``setup(seed)`` gives a game and
    its seats' agents, ``check(before, action, after)`` checks the line of a move and names the
    figures it read (each once, or each with a count); how often each figure was read, so that a
    test can insist that every kind of line was met."""
    seen: Counter[str] = Counter()
    for seed in range(FIGURE_GAMES):
        game, agents = setup(seed)
        for before, action, after in played(game, agents, seed):
            seen.update(check(before, action, after))
    return seen

