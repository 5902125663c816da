"""Python's and numpy's random streams in compiled code: every draw equal to the generators' own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from plunder.core import compiled_random as cr

pytest.importorskip("numba")


class _Subclass(random.Random):
    """A generator whose state compiled code gets as a copy (only a plain ``random.Random``
    is lent in place)."""


@pytest.mark.parametrize("make,lent", [(random.Random, True), (_Subclass, False)])
def test_mersenne_twister_draws_as_random_random(make: type[random.Random], lent: bool) -> None:
    streams = cr.compiled()
    for seed in (0, 123, 2**40 + 7):
        rng, reference = make(seed), random.Random(seed)
        reference.gauss(0, 1)  # a kept Gaussian draw survives the round trip
        rng.gauss(0, 1)
        state = cr.mt_state(rng)
        for i in range(1500):  # past the 624-word regeneration, twice
            assert streams.mt_random(state) == reference.random()
            n = i % 37 + 1
            assert streams.mt_below(state, n) == reference._randbelow(n)  # type: ignore[attr-defined]
        # a lent state is the generator's own: it has moved on before any restore
        assert (rng.getstate() == reference.getstate()) is lent
        cr.mt_restore(rng, state)
        assert rng.getstate() == reference.getstate()
        assert rng.random() == reference.random()


def test_a_generator_is_copied_where_its_layout_was_not_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the interpreter's check fails, a plain ``random.Random`` is copied out and back."""
    monkeypatch.setattr(cr, "_lends", False)
    rng, reference = random.Random(9), random.Random(9)
    state = cr.mt_state(rng)
    assert cr.compiled().mt_random(state) == reference.random()
    assert rng.getstate() != reference.getstate()
    cr.mt_restore(rng, state)
    assert rng.getstate() == reference.getstate()


def test_this_interpreter_lends_a_generator_in_place() -> None:
    """CPython 3.11's layout, which the project pins: the check passes, so searches do not copy."""
    assert cr._lendable()


def test_pcg64_draws_as_numpy() -> None:
    streams = cr.compiled()
    for seed in (0, 99, 2**63 + 5):
        gen, reference = np.random.default_rng(seed), np.random.default_rng(seed)
        words = cr.pcg_state(gen)
        assert [streams.pcg_random(words) for _ in range(3000)] == reference.random(3000).tolist()


def test_a_seeded_stream_is_the_same_in_numpy_and_in_words() -> None:
    """:func:`pcg_seed` draws one number from a ``random.Random``; the numpy generator and the
    words made from it give the same draws, and different seeds give different streams."""
    streams = cr.compiled()
    seeds = [cr.pcg_seed(random.Random(s)) for s in (0, 1, 2**50)]
    assert len({seed for seed in seeds}) == 3 and all(inc % 2 == 1 for _, inc in seeds)
    rng = random.Random(4)
    seed = cr.pcg_seed(rng)
    assert rng.getstate() != random.Random(4).getstate()  # the draw moved ``rng`` on
    expected = cr.pcg_generator(seed).random(500).tolist()
    words = cr.pcg_words(*seed, jumps=5)
    assert [streams.pcg_random(words) for _ in range(200)] == expected[:200]
    assert streams.pcg_ahead(words, 5) == expected[204]
    assert expected != cr.pcg_generator(seeds[0]).random(500).tolist()


def test_pcg64_jumps_land_on_the_draw_numpy_gives() -> None:
    streams = cr.compiled()
    gen, reference = np.random.default_rng(11), np.random.default_rng(11)
    words = cr.pcg_state(gen, jumps=9)
    expected = reference.random(400)
    cursor = 0
    for k in (1, 3, 9, 10, 25, 2, 1, 40):  # within the jumps, and longer ones taken in parts
        assert streams.pcg_ahead(words, k) == expected[cursor + k - 1]
        cursor += k
    streams.pcg_skip(words, 7)
    assert streams.pcg_random(words) == expected[cursor + 7]


def test_chance_draws_as_the_pure_function_compiled_and_on_arrays() -> None:
    """:func:`chance_uniform` is :func:`chance.uniform_keyed`, bit for bit, compiled on scalars
    and in numpy on broadcast arrays (keys past 2**63, indices past 2**32)."""
    from plunder.core import chance

    keys = [chance.seed_key(s) for s in (0, 1, 2**40, -5, 2**70 + 3)] + [2**64 - 1]
    indices = [0, 1, 2, 51, 2**32 + 9, 2**62]
    expected = [[chance.uniform_keyed(k, i) for i in indices] for k in keys]
    streams = cr.compiled()
    assert [[streams.chance_uniform(np.uint64(k), i) for i in indices] for k in keys] == expected
    on_arrays = cr.chance_uniform(np.array(keys, dtype=np.uint64)[:, None], np.array(indices, dtype=np.uint64)[None, :])
    assert on_arrays.tolist() == expected
