"""Each game's numeric observation and fixed action space (``docs/interop.md`` lists them).

An observation is one ``float32`` vector with a fixed length per parameter set: board
planes (flattened row by row) first, then tracks and piles. It is taken from a seat's
point of view: seats are listed from the observer on (the observer's pieces, then the next
seat's ...), so one policy can play any seat. States hold no secret by design (PF-9: an
unseen card is undecided until it is revealed), so an observation of a state shows no
more than its seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..core.game import Game, State
from ..games.crossroads.board import CELLS, CITY0, ROAD
from ..games.crossroads.rules import Phase as CrossroadsPhase
from ..games.hubs.actions import Segment
from ..games.pillage.contents import Commodity, Doubloons, Modifier
from ..games.pirates.rules import Phase as PiratesPhase
from ..games.profiteer import actions as pf_actions
from ..games.profiteer.flow import Phase as ProfiteerPhase
from .spaces import ActionSpace, SlotSpace, TableSpace

#: slots for the games whose actions cannot be listed up front (see :class:`SlotSpace`)
PIRATES_SLOTS = 256
CROSSROADS_SLOTS = 2048


@dataclass(frozen=True)
class Encoding:
    """A game's observation length, its observer and its action space."""

    #: the game with its parameters
    game: Game
    #: length of the observation vector
    size: int
    #: ``observe(state, seat)``: the vector of ``state`` as ``seat`` sees it
    observe: Callable[[State, int], np.ndarray]
    #: the fixed action space
    actions: ActionSpace


class _Vector:
    """Builds an observation part by part."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []

    def add(self, values: Any) -> None:
        """Numbers or an array, flattened."""
        self.parts.append(np.asarray(values, dtype=np.float32).ravel())

    def one_hot(self, index: int, size: int) -> None:
        """``size`` zeros with a 1 at ``index`` (none when it is out of range: nothing there)."""
        part = np.zeros(size, dtype=np.float32)
        if 0 <= index < size:
            part[index] = 1.0
        self.parts.append(part)

    def bits(self, mask: int, size: int) -> None:
        """The low ``size`` bits of ``mask``, bit 0 first."""
        self.parts.append(((mask >> np.arange(size, dtype=np.uint64)) & 1).astype(np.float32))

    def done(self) -> np.ndarray:
        """The parts joined into one vector."""
        return np.concatenate(self.parts)


def _seats(n: int, seat: int) -> list[int]:
    """The seats from ``seat`` on, in turn order."""
    return [(seat + k) % n for k in range(n)]


# --------------------------------------------------------------------------- Pillage

def _pillage(game: Any) -> Encoding:
    kinds = len(game.legend.kinds)
    choices = [c for options in game.actions.choices.values() for c in options]
    space = TableSpace(list(game.actions.lines) + choices)

    def observe(state: Any, seat: int) -> np.ndarray:
        v = _Vector()
        v.bits(state.drawn, game.board.num_edges)
        order = _seats(2, seat)
        for box, content in enumerate(state.contents):
            v.add([state.owner[box] == order[0], state.owner[box] == order[1], content is None,
                   box in state.pending])
            v.add([content.n if isinstance(content, Doubloons) else 0,
                   content.amount if isinstance(content, Modifier) else 0])
            v.one_hot(content.kind if isinstance(content, Commodity) else -1, kinds)
            v.add([isinstance(content, Modifier) and k in content.kinds for k in range(kinds)])
        v.add(state.values)
        v.add([state.doubloons[s] for s in order])
        for s in order:
            v.add(state.held[s])
        v.add([state.mover == seat])
        return v.done()

    return Encoding(game, len(observe(game.new_initial_state(), 0)), observe, space)


# --------------------------------------------------------------------------- Pirates

def _pirates(game: Any) -> Encoding:
    sea = game.sea
    width, height = sea.width, sea.height
    tiles = len(sea.origins)
    phases = list(PiratesPhase)

    def plane(cells: Sequence[tuple[int, int]], weights: Sequence[float] | None = None) -> np.ndarray:
        grid = np.zeros((height, width), dtype=np.float32)
        for k, (x, y) in enumerate(cells):
            grid[y, x] += 1.0 if weights is None else weights[k]
        return grid

    sea_plane = plane(sea.cells)

    def observe(state: Any, seat: int) -> np.ndarray:
        v = _Vector()
        v.add(sea_plane)
        v.add(plane([state.pos] if state.pos is not None else []))
        v.add(plane([state.chest] if state.chest is not None else []))
        v.add(plane([cell for _, cell in state.coins]))
        v.add(plane([cell for _, cell in state.coins], [coin for coin, _ in state.coins]))
        v.add(np.pad(np.asarray(state.faces, dtype=np.float32), (0, tiles - len(state.faces)), constant_values=-1))
        v.add(np.pad(np.asarray(state.winds, dtype=np.float32), (0, tiles - len(state.winds)), constant_values=-1))
        v.one_hot(phases.index(state.phase), len(phases))
        v.add([state.turn, state.ship, state.crew, state.notoriety, state.booty, state.buried, state.orth,
               state.diag, state.flip, state.wind_tile, state.sight, state.draw, state.combat,
               len(state.fights), len(state.movers), len(state.arrived), state.did_bury, state.did_retrieve,
               state.drowned])
        return v.done()

    return Encoding(game, len(observe(game.new_initial_state(), 0)), observe, SlotSpace(PIRATES_SLOTS))


# --------------------------------------------------------------------------- Hubs

def _hubs(game: Any) -> Encoding:
    n = game.dots
    pairs = [Segment(i, j) for i in range(n) for j in range(i + 1, n)]
    space = TableSpace(list(game.lattice) + pairs)

    def observe(state: Any, seat: int) -> np.ndarray:
        v = _Vector()
        sheet = np.zeros((game.height, game.width), dtype=np.float32)
        degree = np.zeros((game.height, game.width), dtype=np.float32)
        for k, (x, y) in enumerate(state.dots):
            sheet[y, x] = 1.0
            if k < len(state.degree):
                degree[y, x] = state.degree[k]
        v.add(sheet)
        v.add(degree)
        joined = np.zeros((n, n), dtype=np.float32)
        for s in state.segments:
            joined[s.first, s.second] = joined[s.second, s.first] = 1.0
        v.add(joined)
        v.add([state.totals[s] for s in _seats(2, seat)])
        v.add([state.round, state.round < game.rounds and game.offense(state.round) == seat,
               state.current_player == seat])
        return v.done()

    return Encoding(game, len(observe(game.new_initial_state(), 0)), observe, space)


# --------------------------------------------------------------------------- Profiteer

def _profiteer(game: Any) -> Encoding:
    moves = [pf_actions.KEEP, pf_actions.END] + [a for side in pf_actions.SWITCHES.values() for a in side] \
        + list(pf_actions.GIVES)
    phases = list(ProfiteerPhase)

    def observe(state: Any, seat: int) -> np.ndarray:
        v = _Vector()
        for pile in (state.pool, state.known_a, state.known_b, state.discard_a, state.discard_b, state.resources,
                     state.profiteer_discard, state.drawing, state.stake_a, state.stake_b):
            v.bits(pile, 52)
        v.one_hot(state.face_up_a, 52)
        v.one_hot(state.face_up_b, 52)
        v.one_hot(phases.index(state.phase), len(phases))
        v.add([state.unseen_a, state.unseen_b, state.war_round, state.round, state.down_due_a, state.down_due_b,
               state.war_reshuffled, state.balancing])
        return v.done()

    return Encoding(game, len(observe(game.new_initial_state(), 0)), observe, TableSpace(moves))


# --------------------------------------------------------------------------- Crossroads

def _crossroads(game: Any) -> Encoding:
    players = game.num_players
    phases = list(CrossroadsPhase)

    def observe(state: Any, seat: int) -> np.ndarray:
        v = _Vector()
        board = np.asarray(state.board)
        order = _seats(players, seat)
        v.add(board == 0)
        v.add(board == ROAD)
        for s in order:
            v.add(board == CITY0 + s)
        v.add(np.isin(np.arange(CELLS), list(state.lit)))
        if state.offer is not None:
            v.add(np.isin(np.arange(CELLS), [state.offer.a, state.offer.b]))
            v.add(np.isin(np.arange(CELLS), list(state.offer.relays)))
            v.add([state.offer.mine, state.offer.theirs])
        else:
            v.add(np.zeros(2 * CELLS + 2))
        v.add([state.gold[s] for s in order])
        v.add([state.offers[s] for s in order])
        for matrix in (state.last, state.grudge):  # [i*n+j]: how seat j treated seat i
            v.add([matrix[i * players + j] for i in order for j in order])
        v.add([s in state.waiting for s in order])
        v.one_hot(order.index(state.seat) if 0 <= state.seat < players else -1, players)
        v.one_hot(phases.index(state.phase), len(phases))
        dice = list(state.dice)[:2]
        v.add(dice + [0] * (2 - len(dice)))
        v.add([state.round, state.rerolls, state.passes, len(state.used)])
        return v.done()

    return Encoding(game, len(observe(game.new_initial_state(), 0)), observe, SlotSpace(CROSSROADS_SLOTS))


_BUILDERS: dict[str, Callable[[Any], Encoding]] = {
    "pillage": _pillage, "pirates": _pirates, "hubs": _hubs, "profiteer": _profiteer, "crossroads": _crossroads,
}


def encoding(game: Game) -> Encoding:
    """The observation and action space of ``game`` with its parameters."""
    return _BUILDERS[game.id](game)
