"""Crossroads' observation: board planes from the observer's seat on, the dice and lit cells, each
seat's gold and the phase; its action space is a slot space (offers cannot be listed up front).

:mod:`plunder.core.observation` says what every observation holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.observation import NO_RULE_BOUND, Encoding, Layout, copy_into, enum_rows, one_hot, picker
from ...core.spaces import SlotSpace
from .board import CELLS, CITY0, ROAD
from .rules import MAX_REROLLS, TRADE_GOLD, Phase

#: slots: offers cannot be listed up front (see :class:`~plunder.core.spaces.SlotSpace`)
CROSSROADS_SLOTS = 2048


def observation(game: Any) -> Encoding:
    """The observation and action space of ``game`` with its parameters (``GameEntry.learning.observation``)."""
    players = game.num_players
    phases = list(Phase)
    phase_rows = enum_rows(Phase)
    seat_rows = [one_hot(k, players) for k in range(players)] + [[0] * players]
    layout = Layout()
    layout.take((players + 5) * CELLS)  # the board planes, from 0 on (planes_of below)
    # the tail: the open offer's gold (its 3 shared out, CR-7), gold (never below 0; no rule
    # caps it), offers made (``offers`` a trading phase at most, CR-11), how each seat last
    # treated each (-1, 0, 1) and grudges, seats waiting, the seat to act, the phase, the
    # dice (6 at most), the round (``max_rounds``, CR-13), rerolls, passes (a tally the
    # rules leave open) and cities used this round (cells at most)
    tail_start = layout.size
    layout.take(2, 0.0, TRADE_GOLD)
    layout.take(players, 0.0, NO_RULE_BOUND)
    layout.take(players, 0.0, game.values["offers"])
    layout.take(players * players, -1.0, 1.0)
    layout.take(players * players + 2 * players + len(phases))
    layout.take(2, 0.0, 6.0)
    layout.take(4, 0.0, [game.values["max_rounds"] + 1, MAX_REROLLS, NO_RULE_BOUND, CELLS])
    tail_part = slice(tail_start, layout.size)
    orders = [[(seat + k) % players for k in range(players)] for seat in range(players)]
    # how each seat treated each, read from the observer on: [i*n+j] is how seat j treated seat i
    relative = [[i * players + j for i in order for j in order] for order in orders]
    # per seat, the seats' entries of a per-seat tuple (gold, offers) and of a seat x seat
    # one (how each treated each, grudges) read from the seat on, as tuples (one C call)
    by_seat, by_pair = [picker(order) for order in orders], [picker(index) for index in relative]
    no_seats = (False,) * players
    # per seat, the vector last written: a build changes a cell or two of the board planes
    # (empty, road, each seat's cities from the seat on), and the lit cells and the offer's
    # marks are moved from the places marked last time. ``planes_of``: where the plane of
    # each cell value starts, per seat
    planes_of = [{0: 0, ROAD: CELLS, **{CITY0 + s: (2 + k) * CELLS for k, s in enumerate(order)}} for order in orders]
    boards: list[tuple[int, ...]] = [(0,) * CELLS] * players
    kept = [np.zeros(layout.size, dtype=np.float32) for _ in range(players)]
    for vec in kept:
        vec[:CELLS] = 1.0  # an empty board
    marked: list[list[int]] = [[] for _ in range(players)]
    lit_at, cities_at, relays_at = (players + 2) * CELLS, (players + 3) * CELLS, (players + 4) * CELLS

    def fill(state: Any, seat: int, out: np.ndarray | None) -> np.ndarray:
        vec, marks, order = kept[seat], marked[seat], orders[seat]
        board, before = state.board, boards[seat]
        if board is not before:
            for cell, (now, then) in enumerate(zip(board, before)):
                if now != then:
                    if then in planes_of[seat]:
                        vec[planes_of[seat][then] + cell] = 0.0
                    if now in planes_of[seat]:
                        vec[planes_of[seat][now] + cell] = 1.0
            boards[seat] = board
        for place in marks:
            vec[place] = 0.0
        marks.clear()
        offer = state.offer
        marks.extend(lit_at + cell for cell in state.lit)
        if offer is not None:
            marks.extend((cities_at + offer.a, cities_at + offer.b))
            marks.extend(relays_at + cell for cell in offer.relays)
        for place in marks:
            vec[place] = 1.0
        seats, pairs, waiting, dice = by_seat[seat], by_pair[seat], state.waiting, state.dice
        vec[tail_part] = (
            *((offer.mine, offer.theirs) if offer is not None else (0, 0)),
            *seats(state.gold), *seats(state.offers), *pairs(state.last), *pairs(state.grudge),
            *([s in waiting for s in order] if waiting else no_seats),
            *seat_rows[(state.seat - seat) % players if 0 <= state.seat < players else players],
            *phase_rows[id(state.phase)],
            *(dice + (0, 0))[:2], state.round, state.rerolls, state.passes, len(state.used))
        return copy_into(vec, out)

    return Encoding(game, layout.size, fill, SlotSpace(CROSSROADS_SLOTS), observation, layout.bounds())
