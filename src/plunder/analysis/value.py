"""One decision position valued: exactly by the game's solver, its move's mark proven by the
solver's null-window tests (:func:`proven`, on a stretch position), or by paired playouts.

This is the work a worker process does (:func:`value_task`); it gets a :class:`Task` (the
position itself, pickled with its game) and returns a :class:`Valuation`, plain data that the
on-disk cache stores as JSON.

A value is a per-seat *margin* in the game's own units: a seat's final score minus the best
rival's (alone, its own score). Playouts also give a *win probability*: a seat's mean of
``(return + 1) / 2`` over finished playouts, so a win counts 1, a tie ½ and a loss 0.

Playouts are *paired*: round ``i`` of every candidate move draws chance from one stream and
the playout agent's choices from another, both seeded from the analysis seed, the position's
key and ``i``, so candidates are compared on the same luck (common random numbers: the n-th
roll of round ``i`` is the same whatever the agent chose before it) and every figure is the
same on any machine and in any worker.

A loss is looked at twice. The first look plays every candidate and picks the best; the best
of several noisy means looks better than it is (the winner's curse), so where the first look
finds the best move surely better than the move played, a second look plays just those two on
over fresh rounds, and the loss is what they measure (:func:`by_playouts`). The loss is the
gap to the move played's best rival (the top move, or the runner-up where the move played came
top), with its standard error. Where its interval (:data:`SURE_Z` standard errors each side,
widened by the game's ``Analysis.bias``) straddles a mark's threshold, the pair is played on
over more fresh rounds, doubling, up to :data:`ADAPT_CAP` times the position's budget, while
more rounds can still settle it; a mark is given only as far as the interval clears its
threshold, else the move is ``unclear`` (:func:`confident_mark`).
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any, Sequence

from ..agents import make_agent
from ..core.agent import Agent
from ..core.capabilities import Analysis
from ..core.chance import sample_chance
from ..core.errors import SearchLimitError
from ..core.game import Action, State
from ..core.registry import GameEntry, entry

#: playout rounds every candidate gets, however many candidates share the budget (and all a
#: forced move gets)
MIN_ROUNDS = 4
#: fresh playout rounds of the second look at a loss (at least as many as the first look's)
CONFIRM_ROUNDS = 16
#: standard errors of the paired difference a loss found by playouts is shrunk by: a loss counts
#: only as far as it is sure (docs/analysis.md)
SURE_Z = 2.0
#: a decision whose loss interval straddles a threshold gets more playouts, up to this many times
#: its budget in all (docs/analysis.md)
ADAPT_CAP = 8
#: the mark of a playout-valued move whose interval straddles a threshold
UNCLEAR = "unclear"


@dataclass(frozen=True)
class Task:
    """What a worker values: a decision position, the move played there, and how to value it."""

    #: the cache key of the position and settings (:func:`plunder.analysis.engine.position_key`)
    key: str
    #: the position (a decision node)
    state: State[Any]
    #: the canonical text of the move played
    played: str
    #: playouts for the position, shared by its candidates
    sims: int
    #: actions after which a playout stops and is valued by the scores (0: to the end)
    depth: int
    #: the playout agent's spec
    playout: str
    #: the analysis seed
    seed: int
    #: whether the game's solver may value the position
    exact: bool


@dataclass(frozen=True)
class Valuation:
    """A valued decision position: the best move found and the move played, each with its
    per-seat margins (and win probabilities where the playouts finish, or the solver decides)."""

    #: canonical text of the best move found
    best: str
    #: per seat, the margin after the best move
    best_margins: list[float]
    #: per seat, the margin after the move played
    played_margins: list[float]
    #: per seat, the win probability after the best move (``None``: none known)
    best_wins: list[float] | None
    #: per seat, the win probability after the move played
    played_wins: list[float] | None
    #: the candidate moves compared
    candidates: int
    #: the solver gave the values (else playouts did)
    exact: bool
    #: playouts played (0 when exact)
    playouts: int
    #: the standard error of the mover's paired margin difference between the best move and the
    #: move played (0 when exact, or when the best move is the one played): the second look's
    #: where it was taken
    error: float = 0.0
    #: the mover's margin after the best move less after the move played, as the second look
    #: measured it on fresh rounds (``None``: no second look; the gap of the margins above counts)
    gap: float | None = None
    #: per seat, the standard error of the margin after the move played (``None``: exact)
    margin_errors: list[float] | None = None
    #: per seat, the standard error of the win share after the move played (``None``: exact, or
    #: not every playout finished)
    win_errors: list[float] | None = None
    #: a loss proven by the solver's null-window tests (:func:`proven`): ``gap`` is then a lower
    #: bound of the mover's loss and this an upper bound (``None``: none proven); the move
    #: played's margins are exact, the best move's a lower bound
    upper: float | None = None
    #: the loss is a proven bound (:func:`proven`), not an estimate nor an exact figure
    bounded: bool = False

    def to_data(self) -> dict[str, Any]:
        """The valuation as JSON-ready data (the on-disk cache)."""
        return dict(self.__dict__)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Valuation":
        """A valuation from :meth:`to_data`'s data."""
        return cls(**data)


def margins(scores: Sequence[float]) -> list[float]:
    """Per seat: its score minus the best rival's (alone: its score)."""
    if len(scores) == 1:
        return [float(scores[0])]
    return [float(s - max(x for j, x in enumerate(scores) if j != i)) for i, s in enumerate(scores)]


def analysis_of(game_entry: GameEntry[Any, Any], game_id: str) -> Analysis[Any]:
    """The game's :class:`Analysis` group, or a ``ValueError`` saying it offers none."""
    if game_entry.analysis is None:
        raise ValueError(f"{game_id} offers no analysis (its GameEntry has no Analysis group)")
    return game_entry.analysis


def round_seed(seed: int, key: str, i: int) -> int:
    """The seed of playout round ``i`` of the position keyed ``key``: the same for every candidate."""
    digest = hashlib.sha256(f"{seed}:{key}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def screened(state: State[Any], pool: list[Action], game_entry: GameEntry[Any, Any], analysis: Analysis[Any],
             rng: random.Random) -> list[Action]:
    """``pool`` ranked by the game's fast leaf evaluator (``Analysis.screen`` rollouts a move,
    its ``screen_playout`` playouts), the moves it values most for the mover first (ties in
    ``pool``'s order): a cheap look at every move, so that the few candidates the playouts
    compare include the strong ones. Unchanged where the game has no evaluator or no screen."""
    make = game_entry.strength.evaluator
    if make is None or analysis.screen < 1 or len(pool) < 2:
        return pool
    mover = state.current_player
    after = [state.apply_unchecked(a) for a in pool]
    live = [i for i, s in enumerate(after) if not s.is_terminal()]
    values = [float(s.returns()[mover]) if s.is_terminal() else 0.0 for s in after]
    if live:
        evaluator = make(state.game, analysis.screen, analysis.screen_playout)
        for i, v in zip(live, evaluator.evaluate([after[i] for i in live], rng)):
            values[i] = float(v[mover])
    return [pool[i] for i in sorted(range(len(pool)), key=lambda i: (-values[i], i))]


def candidates_of(state: State[Any], played: Action, own: Action, game_entry: GameEntry[Any, Any], cap: int,
                  analysis: Analysis[Any] | None = None, rng: random.Random | None = None) -> list[Action]:
    """The moves a position's playouts compare: the game's distinct candidates (all legal moves
    where it names none), at most ``cap``, the move played and the playout agent's own choice
    always among them; the others in the order of the game's :func:`screened` ranking where
    ``analysis`` asks for a screen (with ``rng`` its rollouts' randomness), else in the game's
    move-list order."""
    narrow = game_entry.strength.candidates
    pool = list(narrow(state)) if narrow is not None else list(state.legal_actions())
    order = game_entry.presentation.move_list
    if order is not None:
        rank = {a: i for i, a in enumerate(order(state))}
        pool.sort(key=lambda a: rank.get(a, len(rank)))
    if analysis is not None and len(pool) > cap:
        pool = screened(state, pool, game_entry, analysis, rng or random.Random(0))
    chosen = [played] + ([own] if own != played else [])
    for action in pool:
        if len(chosen) >= max(cap, len(chosen)):
            break
        if action not in chosen:
            chosen.append(action)
    return chosen


def round_rngs(seed: int, key: str, i: int) -> tuple[random.Random, random.Random]:
    """The two streams of playout round ``i`` of the position keyed ``key``: chance's, and the
    playout agent's choices'. Kept apart, the dice of a round stay the same for every candidate
    however many numbers the agent's choices after different moves draw."""
    root = round_seed(seed, key, i)
    return random.Random(root), random.Random(round_seed(seed, key + ":choices", i))


def playout(state: State[Any], agent: Agent, chance: random.Random, choices: random.Random,
            depth: int) -> tuple[list[float], list[float] | None]:
    """Play ``state`` on with ``agent`` in every seat (chance drawn from ``chance``, the agent's
    choices from ``choices``): the final or cut position's per-seat margins, and its returns if
    the game ended."""
    steps = 0
    while not state.is_terminal() and (depth == 0 or steps < depth):
        action = sample_chance(state, chance) if state.is_chance_node() else agent.choose(state, choices)
        state = state.apply_unchecked(action)
        steps += 1
    return margins(state.scores()), (list(state.returns()) if state.is_terminal() else None)


def _gap(rows_best: list[float], rows_played: list[float]) -> tuple[float, float]:
    """The mean paired difference of two candidates' rounds and its standard error."""
    diffs = [b - p for b, p in zip(rows_best, rows_played)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def interval(analysis: Analysis[Any], gap: float, error: float) -> tuple[float, float]:
    """The interval of a loss estimated by playouts as ``gap`` with standard error ``error``:
    :data:`SURE_Z` standard errors each side, widened by the game's ``Analysis.bias`` (how far
    its playouts' losses were seen to stray from exact ones)."""
    half = SURE_Z * error + analysis.bias
    return gap - half, gap + half


def confident_mark(analysis: Analysis[Any], gap: float, error: float) -> str:
    """The mark a loss estimated as ``gap`` with standard error ``error`` earns: ``good`` only
    where its :func:`interval` stays below the inaccuracy threshold, a worse mark only where the
    interval's low end clears that mark's threshold (the worst one it clears), else ``unclear``
    (docs/analysis.md). An exact value has no error: its mark is the loss's."""
    low, high = interval(analysis, gap, error)
    if high < analysis.inaccuracy:
        return "good"
    if low >= analysis.inaccuracy:
        return analysis.mark(low)
    return UNCLEAR


def settled(analysis: Analysis[Any], gap: float, error: float) -> bool:
    """Whether the :func:`interval` of a loss lies between two thresholds: more playouts would
    not change its mark."""
    low, high = interval(analysis, gap, error)
    return analysis.mark(max(0.0, low)) == analysis.mark(max(0.0, high))


def _pair_rows(task: Task, agent: Agent, pair: tuple[Action, Action], first: int, count: int,
               rows: tuple[list[float], list[float]]) -> None:
    """Play ``count`` fresh paired rounds (numbered from ``first``) of the two moves of ``pair``,
    appending the mover's margins to ``rows``."""
    state, mover = task.state, task.state.current_player
    for i in range(first, first + count):
        for row, move in zip(rows, pair):
            chance, choices = round_rngs(task.seed, task.key, i)
            row.append(playout(state.apply_unchecked(move), agent, chance, choices, task.depth)[0][mover])


def _spread(rows: list[list[float]]) -> list[float]:
    """Per seat, the standard error of the mean of its values over ``rows`` (one row a round)."""
    return [statistics.stdev(col) / math.sqrt(len(col)) for col in zip(*rows)]


def by_playouts(task: Task, game_entry: GameEntry[Any, Any], analysis: Analysis[Any]) -> Valuation:
    """The position valued by paired playouts (see the module's docstring)."""
    state = task.state
    game = state.game
    agent = make_agent(task.playout, game)
    played = game.parse_action(state, task.played)
    own = agent.choose(state, random.Random(round_seed(task.seed, task.key, -1)))
    moves = candidates_of(state, played, own, game_entry, analysis.candidates, analysis,
                          random.Random(round_seed(task.seed, task.key, -2)))
    # a forced move has no loss to find: its playouts only place the value curve
    rounds = MIN_ROUNDS if len(moves) == 1 else max(MIN_ROUNDS, task.sims // len(moves))
    seats = game.num_players
    sums = [[0.0] * seats for _ in moves]
    mover = state.current_player
    rows: list[list[float]] = [[] for _ in moves]  # the mover's margin in each round, per candidate
    wins: list[list[float] | None] = [[0.0] * seats for _ in moves]
    # the move played's per-seat margins and win shares, round by round: the curve's band
    played_margins: list[list[float]] = []
    played_shares: list[list[float]] | None = []
    for i in range(rounds):
        for c, move in enumerate(moves):
            chance, choices = round_rngs(task.seed, task.key, i)
            margin, returns = playout(state.apply_unchecked(move), agent, chance, choices, task.depth)
            sums[c] = [a + b for a, b in zip(sums[c], margin)]
            rows[c].append(margin[mover])
            w = wins[c]
            wins[c] = None if returns is None or w is None else [a + (r + 1) / 2 for a, r in zip(w, returns)]
            if c == 0:
                played_margins.append(margin)
                if returns is None:
                    played_shares = None
                elif played_shares is not None:
                    played_shares.append([(r + 1) / 2 for r in returns])
    means = [[x / rounds for x in row] for row in sums]
    top = max(range(len(moves)), key=lambda c: (means[c][mover], -c))
    shares = [None if w is None else [x / rounds for x in w] for w in wins]
    playouts = rounds * len(moves)
    gap, error = 0.0, 0.0
    rival = top
    if len(moves) > 1:
        # the loss is judged against the best rival of the move played: the top move, or where
        # the move played came top, the runner-up (how sure "good" is)
        rival = top if top != 0 else max(range(1, len(moves)), key=lambda c: (means[c][mover], -c))
        pair = (moves[rival], played)
        gap, error = _gap(rows[rival], rows[0])
        looked: tuple[list[float], list[float]] = (list(rows[rival]), list(rows[0]))
        first = rounds
        if top != 0 and gap - SURE_Z * error > 0:  # a loss the first look is sure of: measured again
            looked = ([], [])
            _pair_rows(task, agent, pair, first, max(CONFIRM_ROUNDS, rounds), looked)
            first += max(CONFIRM_ROUNDS, rounds)
            gap, error = _gap(*looked)
        cap = max(task.sims, playouts) * ADAPT_CAP
        # a decision close to a threshold: more fresh rounds of the pair, doubling, up to the cap,
        # while the interval can still settle (the game's bias alone may straddle a threshold)
        while (not settled(analysis, gap, error) and settled(analysis, gap, 0.0)
               and playouts + 2 * (first - rounds + len(looked[0])) <= cap):
            count = len(looked[0])
            _pair_rows(task, agent, pair, first, count, looked)
            first += count
            gap, error = _gap(*looked)
        playouts += 2 * (first - rounds)
    best = rival if gap > 0 else 0
    return Valuation(game.action_to_text(state, moves[best]), means[best], means[0], shares[best], shares[0],
                     len(moves), False, playouts, error, gap, _spread(played_margins),
                     None if played_shares is None else _spread(played_shares))


def _exact_margin(after: State[Any], mover: int, seconds: float, game_entry: GameEntry[Any, Any]) -> float:
    """The mover's exact final margin after a move (the solver's value turned to the mover's side)."""
    if after.is_terminal():
        return margins(after.scores())[mover]
    solve = game_entry.strength.solve
    if after.is_chance_node() or solve is None:
        raise SearchLimitError("exact value", "chance or no solver")
    value = solve(after, seconds).value
    return value if after.current_player == mover else -value


def exactly(task: Task, game_entry: GameEntry[Any, Any], analysis: Analysis[Any],
            seconds: float | None = None) -> Valuation:
    """The position valued by the solver, each solve within ``seconds`` (default the game's
    ``Analysis.exact_seconds``): its value and best move, and the move played's value (two
    seats, zero-sum: a seat's margin is minus the other's); raises
    :class:`~plunder.core.errors.SearchLimitError` when the solver cannot."""
    state = task.state
    game = state.game
    solve = game_entry.strength.solve
    assert solve is not None, "exact() is only asked of a game with a solver"
    limit = analysis.exact_seconds if seconds is None else seconds
    mover = state.current_player
    solution = solve(state, limit)
    if solution.best_action is None:
        raise SearchLimitError("exact value", "no best move")
    played = _exact_margin(state.apply(game.parse_action(state, task.played)), mover, limit, game_entry)
    best = float(solution.value)
    return Valuation(game.action_to_text(state, solution.best_action), _seats(best, mover), _seats(played, mover),
                     _sure_chances(best, mover), _sure_chances(played, mover), len(state.legal_actions()), True, 0)


def _seats(margin: float, mover: int) -> list[float]:
    """Two seats' margins, zero-sum, from the mover's."""
    return [margin if seat == mover else -margin for seat in range(2)]


def _sure_chances(margin: float, mover: int) -> list[float]:
    """Two seats' win shares where the mover's exact final margin is ``margin``: 1, 1/2 or 0."""
    return [0.5 + 0.5 * (x > 0) - 0.5 * (x < 0) for x in _seats(margin, mover)]


#: a stretch position's solve and null-window tests (:func:`proven`) stop, all together, after
#: this many times ``Analysis.stretch_seconds``: the two solves of a stretch position before them
STRETCH_SOLVES = 2


def proven(task: Task, game_entry: GameEntry[Any, Any], analysis: Analysis[Any], seconds: float) -> Valuation:
    """A stretch position's move played solved exactly and its mark proven by the game's
    null-window tests (``Strength.window``) of the position: is its value at least the move's
    plus a threshold? The blunder's first, then the mistake's and the inaccuracy's: the first
    that holds proves the mark, and its bound less the move's value a lower bound of the loss
    (the move reaching it the better move); a test that fails bounds the loss from above, so
    where none holds the move is proven good. A test far from the position's value settles much
    sooner than the value itself (docs/analysis.md). Each solve or test within ``seconds`` (wall),
    all of them within :data:`STRETCH_SOLVES` times that; raises
    :class:`~plunder.core.errors.SearchLimitError` where one runs past."""
    window = game_entry.strength.window
    assert window is not None, "proven() is only asked of a game whose solver takes a window"
    state = task.state
    game = state.game
    mover = state.current_player
    deadline = time.perf_counter() + STRETCH_SOLVES * seconds

    def limit() -> float:
        rest = min(seconds, deadline - time.perf_counter())
        if rest <= 0:
            raise SearchLimitError("exact bound", "time")
        return rest

    value = _exact_margin(state.apply(game.parse_action(state, task.played)), mover, limit(), game_entry)
    lower, upper, best = 0.0, math.inf, task.played
    for threshold in sorted({analysis.blunder, analysis.mistake, analysis.inaccuracy}, reverse=True):
        outcome = window(state, value + threshold, limit())
        if outcome.holds:
            assert outcome.best_action is not None
            lower, best = float(outcome.bound) - value, game.action_to_text(state, outcome.best_action)
            break
        upper = min(upper, float(outcome.bound) - value)
    return Valuation(best, _seats(value + lower, mover), _seats(value, mover), None, _sure_chances(value, mover),
                     len(state.legal_actions()), False, 0, 0.0, lower, None, None,
                     None if math.isinf(upper) else max(upper, lower), True)


def _reach(task: Task, game_entry: GameEntry[Any, Any], analysis: Analysis[Any]) -> tuple[bool, float] | None:
    """Whether ``task``'s position is on the solver's stretch (``Analysis.stretch``, rather than
    within its reach, ``Analysis.exact``) and the time each solve may take there; ``None`` where
    the solver is not tried (not asked, no solver, not two seats, or beyond both)."""
    if not task.exact or game_entry.strength.solve is None or task.state.game.num_players != 2:
        return None
    if analysis.exact is not None and analysis.exact(task.state):
        return False, analysis.exact_seconds
    if analysis.stretch is not None and analysis.stretch(task.state):
        return True, analysis.stretch_seconds
    return None


def exact_seconds(task: Task, game_entry: GameEntry[Any, Any], analysis: Analysis[Any]) -> float | None:
    """The time each solve of ``task``'s position may take: ``Analysis.exact_seconds`` within
    the solver's reach, ``Analysis.stretch_seconds`` on a position of its stretch, ``None``
    where the solver is not tried (:func:`_reach`)."""
    reach = _reach(task, game_entry, analysis)
    return None if reach is None else reach[1]


def value_task(task: Task) -> Valuation:
    """A worker's job: ``task``'s position valued, exactly where the game's solver applies and
    answers in time (:func:`exact_seconds`); on a stretch position of a game whose solver takes a
    window, its move's mark proven (:func:`proven`); else by paired playouts."""
    game_entry = entry(task.state.game.id)
    analysis = analysis_of(game_entry, task.state.game.id)
    reach = _reach(task, game_entry, analysis)
    if reach is not None:
        stretch, seconds = reach
        try:
            if stretch and game_entry.strength.window is not None:
                # the move played solved, its mark proven by null-window tests
                return proven(task, game_entry, analysis, seconds)
            return exactly(task, game_entry, analysis, seconds)
        except SearchLimitError:
            pass  # too big after all, or a chance move in the way: the playouts value it
    return by_playouts(task, game_entry, analysis)
