"""The numpy playout kernel agrees with the public apply path, line for line."""

import random

import numpy as np
import pytest

import plunder
from plunder.core.chance import sample_chance
from plunder.games.pillage.fast import PlayoutKernel, replay_order
from plunder.games.pillage.rules import PillageGame


def dealt(preset: str, seed: int, lines: int = 0):  # type: ignore[no-untyped-def]
    game = PillageGame.load(preset=preset)
    s = game.new_initial_state()
    rng = random.Random(seed)
    while s.is_chance_node():
        s = s.apply(sample_chance(s, rng))
    while lines and not s.is_terminal():  # start mid-game too
        s = s.apply(rng.choice(s.legal_actions()))
        lines -= 1
    while s.pending:
        s = s.apply(s.legal_actions()[0])
    return game, s


@pytest.mark.parametrize("preset", ["classic", "small", "floor", "triangle", "hex", "octagon", "example"])
@pytest.mark.parametrize("lines", [0, 7])
def test_kernel_scores_equal_public_path(preset: str, lines: int) -> None:
    for seed in range(3):
        game, state = dealt(preset, seed, lines)
        if state.is_terminal():
            continue
        kernel = PlayoutKernel(game)
        orders, choice_u = kernel.random_orders(state, 40, np.random.default_rng(seed))
        scores = kernel.playout_scores(state, orders, choice_u)
        for i in range(len(orders)):
            final = replay_order(state, list(orders[i]), list(choice_u[i]))
            assert final.is_terminal()
            assert final.scores() == list(scores[i])


def test_random_orders_are_uniform_permutations() -> None:
    game, state = dealt("classic", 0)
    kernel = PlayoutKernel(game)
    orders, _ = kernel.random_orders(state, 6000, np.random.default_rng(1))
    assert all(sorted(o) == list(range(game.num_edges)) for o in orders[:50])
    first = np.bincount(orders[:, 0], minlength=game.num_edges) / len(orders)
    assert np.all(np.abs(first - 1 / game.num_edges) < 0.02)


def test_kernel_refuses_a_pending_choice() -> None:
    game = PillageGame.load(preset="example")
    s = game.new_initial_state()
    for t in ["a2-b2", "a2-a3", "a3-b3", "b2-b3"]:
        s = s.apply_text(t)
    with pytest.raises(ValueError, match="playouts start"):
        PlayoutKernel(game).random_scores(s, 4, np.random.default_rng(0))


def test_many_start_positions_in_one_batch_match_one_at_a_time() -> None:
    """Rows of one batch may start from different positions (as search leaves do)."""
    game, root = dealt("small", 4)
    rng = random.Random(9)
    states = []
    for _ in range(30):
        s = root
        for _ in range(rng.randrange(0, game.num_edges - 1)):
            s = s.apply(rng.choice(s.legal_actions()))
            while s.pending:
                s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            states.append(s)
    kernel = PlayoutKernel(game)
    gen = np.random.default_rng(2)
    keys = gen.random((len(states), game.num_edges))
    draws = gen.random((len(states), kernel.modifier_slots(states)))
    together = kernel.scores(kernel.batch(states), keys, draws)
    for i, s in enumerate(states):
        order = [e for e in np.argsort(keys[i], kind="stable") if not s.drawn >> int(e) & 1]
        final = replay_order(s, order, list(draws[i]))
        assert final.scores() == list(together[i])


@pytest.mark.parametrize("preset", ["small", "octagon", "hex", "triangle"])
def test_policy_playouts_take_boxes_then_safe_lines_and_score_like_apply(preset: str) -> None:
    """Octagon boards mix box sizes: a square's padding must not count as drawn lines."""
    from plunder.games.pillage.heuristics import closes, sweep

    game, state = dealt(preset, 6, lines=5)
    kernel = PlayoutKernel(game)
    gen = np.random.default_rng(5)
    batch = kernel.batch([state] * 20)
    keys = kernel.policy_keys(batch, gen)
    draws = gen.random((20, kernel.modifier_slots([state])))
    scores = kernel.scores(batch, keys, draws)
    for i in range(20):
        order = [int(e) for e in np.argsort(keys[i], kind="stable") if not state.drawn >> int(e) & 1]
        s = state
        for e in order:
            if s.pending:
                break
            undrawn = s.undrawn()
            can_take = [x for x in undrawn if closes(s, s.drawn, x)]
            safe = [x for x in undrawn if sweep(s, s.drawn | 1 << x, 0)[1] == 0 and not closes(s, s.drawn, x)]
            if can_take:
                assert e in can_take
            elif safe:
                assert e in safe
            s = replay_order(s, [e], [0.0])
        assert replay_order(state, order, list(draws[i])).scores() == list(scores[i])


def test_safe_playouts_draw_safe_lines_while_any_remain() -> None:
    """``safe`` playouts: a line that hands over nothing whenever one exists, captures or not."""
    from plunder.games.pillage.heuristics import closes, sweep

    game, state = dealt("small", 3, lines=4)
    kernel = PlayoutKernel(game)
    batch = kernel.batch([state] * 20)
    keys = kernel.policy_keys(batch, np.random.default_rng(8), capture_first=False)
    for i in range(20):
        s = state
        for e in (int(e) for e in np.argsort(keys[i], kind="stable") if not state.drawn >> int(e) & 1):
            if s.pending:
                break
            safe = [x for x in s.undrawn() if sweep(s, s.drawn | 1 << x, 0)[1] == 0 and not closes(s, s.drawn, x)]
            if safe:
                assert e in safe
            s = replay_order(s, [e], [0.0])


@pytest.mark.parametrize("preset", ["small", "floor", "hex", "example"])
def test_stake_is_what_the_open_boxes_are_worth(preset: str) -> None:
    """Doubloons, commodities at their current values (in magnitude) and modifier amounts of
    the boxes still open, at least 1: the margin's scale in the MCTS evaluator."""
    from plunder.games.pillage.contents import Commodity, Doubloons, Modifier

    states = [dealt(preset, seed, lines)[1] for seed in range(4) for lines in (0, 6, 11)]
    states = [s for s in states if not s.is_terminal()]
    game = states[0].game
    kernel = PlayoutKernel(game)
    stake = kernel.stake(kernel.batch(states))
    for s, got in zip(states, stake):
        worth = 0
        for b, c in enumerate(s.contents):
            if s.owner[b] < 0:
                if isinstance(c, Doubloons):
                    worth += c.n
                elif isinstance(c, Commodity):
                    worth += abs(s.values[c.kind])
                elif isinstance(c, Modifier):
                    worth += c.amount
        assert got == max(worth, 1)


def test_mcts_playouts_are_named_by_the_game() -> None:
    from plunder.agents import make_agent
    from plunder.agents.mcts import MCTSAgent
    from plunder.games.pillage.evaluator import KernelEvaluator

    game = PillageGame.load(preset="small")
    with pytest.raises(plunder.ParameterError, match="no playout 'policy'; playouts are greedy, random, safe"):
        make_agent("mcts:playout=policy", game)
    for spec, policy in [("mcts", "greedy"), ("mcts:playout=random", "random"), ("mcts:playout=safe", "safe")]:
        agent = make_agent(spec, game)
        assert isinstance(agent, MCTSAgent) and isinstance(agent.evaluator, KernelEvaluator)
        assert agent.evaluator.policy == policy


def handed_over(state, edge):  # type: ignore[no-untyped-def]
    """Boxes the opponent takes in a row after ``edge``, found by playing the captures through
    ``apply`` (modifier choices at random: they change no lines)."""
    from plunder.games.pillage.heuristics import closes

    s = state.apply(state.game.lines[edge])
    taken: list[int] = []
    while not s.is_terminal():
        while s.pending:
            s = s.apply(s.legal_actions()[0])
        if s.is_terminal():
            break
        closing = [e for e in s.undrawn() if closes(s, s.drawn, e)]
        if not closing:
            break
        taken += closes(s, s.drawn, closing[0])
        s = s.apply(s.game.lines[closing[0]])
    return taken


@pytest.mark.parametrize("preset", ["classic", "default", "triangle", "hex", "octagon"])
def test_gifts_count_the_chains_a_forced_line_hands_over(preset: str) -> None:
    """Once no line is safe and none closes a box, the kernel's gift of a line is the size of
    the chains of boxes two lines from closing that it opens: exactly what the opponent takes
    when the captures run only through such boxes, and never more than that otherwise (a
    box three lines from closing that a chain runs into twice is taken too: the gift counts
    only chains, a cheap estimate for playouts)."""
    from plunder.games.pillage.heuristics import closes, sweep

    exact = 0
    for seed in range(12):
        game, s = dealt(preset, seed)
        rng = random.Random(seed)
        kernel = PlayoutKernel(game)
        while not s.is_terminal():
            undrawn = s.undrawn()
            if any(closes(s, s.drawn, e) for e in undrawn):
                s = s.apply(game.lines[next(e for e in undrawn if closes(s, s.drawn, e))])
            else:
                safe = [e for e in undrawn if sweep(s, s.drawn | 1 << e, 0)[1] == 0]
                if not safe:
                    break
                s = s.apply(game.lines[rng.choice(safe)])
            while s.pending:
                s = s.apply(s.legal_actions()[0])
        if s.is_terminal():
            continue
        batch = kernel.batch([s])
        missing = kernel.missing(batch)[0]
        assert list(missing[:-1]) == [sum(not s.drawn >> e & 1 for e in edges) for edges in game.board.box_edges]
        gifts = kernel.gifts(missing[None, :], ~batch.drawn[:, : game.num_edges])[0]
        for e in s.undrawn():
            taken = handed_over(s, e)
            assert 1 <= gifts[e] <= len(taken), (preset, seed, e)
            if all(missing[b] == 2 for b in taken):
                assert gifts[e] == len(taken), (preset, seed, e)
                exact += 1
    assert exact >= 20
