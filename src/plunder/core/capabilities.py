"""What a game may offer beyond its rules, in small typed groups.

A game's ``ENTRY`` (:class:`plunder.core.registry.GameEntry`) holds its rules class and one
object per capability group it offers. Each group is optional as a whole and generic over the
game's own state and action types, so a game's hooks are written for its concrete
``XState``/``XAction`` (mypy checks them where the game builds its entry) and need no
``isinstance`` check of what they are given. The adapters above (terminal, web, lab, interop)
use whatever a game offers and fall back on the rules alone where it offers nothing:

============== =============================================== ==============================
group           holds                                           unlocks
============== =============================================== ==============================
Presentation    pitch, how-to-play text and web sections,       ``plunder rules``/``play``'s
                terminal picture, SVG picture, narration,       pictures and words, the web
                move descriptions, move-list order, the final   app's board, how-to pages,
                score taken apart                               logs and verdicts
Strength        the game's own agents, level overrides, the     ``--vs greedy``, the levels,
                hint agent, search candidates, a fast leaf      hints, ``mcts eval=fast``,
                evaluator, an exact solver, compiled rules      ``plunder solve``, the
                                                                compiled MCTS tree
Speed           a one-game and a many-games fast path           ``plunder simulate`` and the
                                                                lab at full speed
Client          the game's own web files, its game page's       its own controls on the web
                browser module and a board editor               app's game page,
                                                                ``/editor/{game}``
Study           the observer giving a played game's             ``plunder simulate``'s and the
                statistics, the lab report's own figures, the   lab's statistics, the report's
                bounds of a stored result                       sentences and charts, the
                                                                results store's check
Learning        the numeric observation and fixed action        the OpenSpiel, Gymnasium and
                space; many copies stepped by one call          PettingZoo adapters; a fast
                                                                vector environment
Analysis        units, mark thresholds, playouts and when the   ``plunder analyse``, the lab's
                solver is exact                                 game-quality metrics
Puzzles         finding and proving puzzles in played games,    ``plunder puzzles``
                the boards and agents they come from, the
                shipped set
============== =============================================== ==============================

What the game *is* (seat range, chance, zero-sum ...) is no capability but its
:class:`~plunder.core.declaration.Declaration`, which every entry gives; the registry checks
the groups against it and against each other when the game is loaded
(:mod:`plunder.core.entry_check`).
"""

from __future__ import annotations

import random
from pathlib import Path
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from .agent import Agent, AgentFactory, Evaluator
from .figures import ReportFigures
from .game import Action, Game, State
from .howto import HowToSection
from .plausibility import Plausibility
from .svg import Shown
from .tallies import Stats

if TYPE_CHECKING:  # numpy, under the observation encodings, is not loaded to list the commands
    from .batched import BatchedFactory
    from .observation import Encoding
    from .puzzle import Puzzle
    from .record import Record

#: a game's own state type (``PillageState`` ...)
S = TypeVar("S", bound=State[Any])
#: a game's own action type
A = TypeVar("A", bound=Action)
S_contra = TypeVar("S_contra", bound=State[Any], contravariant=True)


@dataclass(frozen=True)
class Presentation(Generic[S, A]):
    """How a game shows itself: every hook optional; where one is missing the adapters show the
    state's text picture (``str(state)``) and the action's canonical text."""

    #: the game in one plain sentence, for a list of games (the web app's home page)
    pitch: str = ""
    #: how to play and how to win, in plain words without ruling ids, fitting one 80x24 screen
    #: (``plunder rules``, ``help`` in ``plunder play``); the full rules stay in ``docs/rules/``
    how_to_play: str = ""
    #: ``how_to_web()``: how to play for the web app's how-to page, in a browser player's words,
    #: with positions to picture (:mod:`plunder.core.howto`); the page shows :attr:`how_to_play`
    #: when absent
    how_to_web: Callable[[], Sequence[HowToSection]] | None = None
    #: ``render(state)``: the position drawn for the terminal, as a rich renderable
    render: Callable[[S], Any] | None = None
    #: ``svg(state, shown)``: the position as an SVG document captioned with ``shown``, the move
    #: that led to it (:mod:`plunder.core.svg` says what a picture holds: legal targets carry
    #: ``data-action``, nothing hidden is drawn); the web app's board and ``plunder render --svg``
    svg: Callable[[S, Shown | None], str] | None = None
    #: ``describe(state, action)``: what an action would do, in a few words (move lists, hints)
    describe: Callable[[S, A], str] | None = None
    #: ``narrate(before, action, after)``: what ``action`` did, in a player's words, naming seats
    #: with ``game.seat_name``; chance's actions are narrated too (terminal, game logs, replays)
    narrate: Callable[[S, A, S], str] | None = None
    #: ``breakdown(final, stats)``: the final score taken apart, one line per part with its
    #: numbers; ``stats`` are what the game's :class:`Observer` (:attr:`Study.observer`) gave,
    #: shown the whole game (``{}`` for a game with none; an :class:`Itemiser`'s
    #: ``breakdown_figures``): a tally a position does not keep (trades made, fights won, the
    #: rounds one by one) is read there (:func:`plunder.match.breakdown_of`)
    breakdown: Callable[[S, Stats], list[str]] | None = None
    #: ``move_list(state)``: the legal actions best first by the game's own reckoning for the
    #: mover (Hubs: what a segment scores, by role); ``legal_actions()`` order when absent
    move_list: Callable[[S], Sequence[A]] | None = None
    #: ``legal_fields(state, action)``: a legal action's parts as a small JSON object (Crossroads'
    #: offer: its cities, route, fees and split), sent beside its text in the web app's ``state``
    #: message so the game's browser module (:attr:`Client.module`) builds its choices from
    #: fields instead of reading texts; ``None`` for an action with nothing to add
    legal_fields: Callable[[S, A], Mapping[str, Any] | None] | None = None


class Solution(Protocol):
    """What an exact solver reports: the value for the player to move and a best action."""

    @property
    def value(self) -> float:
        """The exact value for the player to move."""

    @property
    def best_action(self) -> Action | None:
        """An action achieving it (None at the end of the game)."""

    @property
    def nodes(self) -> int:
        """Positions searched."""

    @property
    def seconds(self) -> float:
        """Time taken."""


class SolveHook(Protocol[S_contra]):
    """``Strength.solve``: solve ``state`` exactly within ``time_limit`` seconds (``None``: no
    limit) and ``memory`` MB of tables (``None``: the solver's default); raises
    :class:`~plunder.core.errors.SearchLimitError` at a limit."""

    def __call__(self, state: S_contra, time_limit: float | None = None, memory: float | None = None) -> Solution:
        """The value and a best action of ``state``."""
        ...


class Bound(Protocol):
    """What a null-window test of an exact solver reports (:class:`WindowHook`)."""

    @property
    def holds(self) -> bool:
        """Whether the exact value for the player to move is at least the cut."""

    @property
    def bound(self) -> float:
        """A bound of that value: a lower bound (at least the cut) where :attr:`holds`, else an
        upper bound (below the cut)."""

    @property
    def best_action(self) -> Action | None:
        """Where :attr:`holds`, an action whose value is at least :attr:`bound`; else ``None``."""


class WindowHook(Protocol[S_contra]):
    """``Strength.window``: whether the exact value of ``state`` for the player to move (as
    :attr:`Strength.solve` gives it) is at least ``cut``, by one null-window search within
    ``time_limit`` seconds (``None``: no limit); raises
    :class:`~plunder.core.errors.SearchLimitError` at the limit. Far from the value such a test
    is much cheaper than the value itself: the analysis proves a move's mark with it
    (``docs/analysis.md``)."""

    def __call__(self, state: S_contra, cut: float, time_limit: float | None = None) -> Bound:
        """The test's outcome and the bound it proves."""
        ...


@dataclass(frozen=True)
class CompiledRules(Generic[S]):
    """A game's rules and leaf values as numba-compiled functions over positions held in
    ``int64`` arrays: what the compiled MCTS tree (:mod:`plunder.agents.tree`) needs to search
    with no Python per simulation. Made for one game and one setting of the leaf values
    (:attr:`Strength.compiled`); ``docs/new-game.md`` says what each function must do.

    Every compiled function takes the position's array ``state`` and :attr:`tables`; actions
    are ``int64`` codes of the game's own choosing. ``stream`` arrays are random streams of
    :mod:`plunder.core.compiled_random`: ``tree`` the search's Mersenne Twister (the pure
    search's ``random.Random``), ``leaf`` :attr:`leaf_stream`'s words.
    """

    #: names this game's search in numba's cache (the game id and its settings' shape)
    key: str
    #: the files whose code the functions compile: the cached search is keyed on their contents
    sources: tuple[str, ...]
    #: ``tables(state)``: the constant arrays every function is handed (board, contents,
    #: settings) as a tuple, the same object for positions of one deal; ``None`` for a
    #: position the compiled rules do not hold (the pure search plays it)
    tables: Callable[[S], tuple[Any, ...] | None]
    #: ``encode(state)``: the position as a 1-d ``int64`` array, equal arrays for equal states
    encode: Callable[[S], Any]
    #: compiled ``player(state, tables)``: the seat to move, ``CHANCE`` or ``TERMINAL``
    player: Callable[..., int]
    #: compiled ``legal(state, tables, out)``: the legal actions' codes into ``out`` (length
    #: :attr:`most`), in the order of ``legal_actions()``; returns how many
    legal: Callable[..., int]
    #: compiled ``chances(state, tables, out)``: at a chance node, each legal action's
    #: probability into ``out`` in the same order; returns how many
    chances: Callable[..., int]
    #: compiled ``step(state, action, tables, out)``: the position after ``action`` into ``out``
    step: Callable[..., None]
    #: compiled ``returns(state, tables, out)``: a finished position's returns into ``out``
    returns: Callable[..., None]
    #: compiled ``value(state, tables, tree, leaf, out)``: a leaf's value per seat into ``out``
    #: (the game's evaluator's: its playouts, drawing from the streams as the evaluator does)
    value: Callable[..., None]
    #: most legal actions any position has
    most: int
    #: ``leaf_stream(rng)``: the leaf stream's words for a search drawing with ``rng``, which the
    #: search moves on in place (an empty array when :attr:`value` draws only from the tree's stream)
    leaf_stream: Callable[[random.Random], Any]


@dataclass(frozen=True)
class Strength(Generic[S, A]):
    """How a game plays well: its own agents and the knowledge searches use. ``random``,
    ``mcts`` and the levels ``easy``/``medium``/``hard`` come with every game
    (:mod:`plunder.agents`) whether it offers this group or not."""

    #: the game's own agents by name (``greedy`` ...), each declaring its options; each takes
    #: the game's state (an ``AgentFactory[PillageState]``, or one of ``State[Any]`` for an
    #: agent that plays any game)
    agents: Mapping[str, AgentFactory[S]] = field(default_factory=dict)
    #: ``easy``/``medium``/``hard`` -> agent spec, where :mod:`plunder.agents.levels`' defaults do not suit
    levels: Mapping[str, str] = field(default_factory=dict)
    #: the agent spec behind hints; an agent that can explain its choice
    #: (:class:`~plunder.core.agent.Analyst`) gives its best moves with their values
    hint: str = "hard"
    #: the game's best agent whose every move is cheap (an agent spec), for rollouts that play
    #: thousands of games (the lab's clairvoyant); empty: ``greedy`` where the game has one, else ``random``
    policy: str = ""
    #: ``candidates(state)``: a decision's legal actions narrowed to the distinct ones, for searches
    candidates: Callable[[S], Sequence[A]] | None = None
    #: ``evaluator(game, rollouts, playout)``: a fast leaf evaluator for ``mcts`` (``eval=fast``);
    #: ``playout`` names the playouts it plays ("" for its default), a bad name is a ParameterError
    evaluator: Callable[[Game[Any], int, str], Evaluator[S]] | None = None
    #: ``compiled(game, rollouts, playout)``: the game's rules compiled for the MCTS tree, its
    #: leaves valued as :attr:`evaluator` values them with these settings; ``None`` where it
    #: cannot (no numba, or a playout it has not compiled), and the search then plays in Python
    compiled: Callable[[Game[Any], int, str], CompiledRules[S] | None] | None = None
    #: ``solve(state, time_limit, memory)``: the position solved exactly (``plunder solve``)
    solve: SolveHook[S] | None = None
    #: ``window(state, cut, time_limit)``: the exact solver's null-window test, "is the value at
    #: least ``cut``?" (only with :attr:`solve`, whose values it bounds)
    window: WindowHook[S] | None = None
    #: ``warm()``: prepare once per process what the game's searches compile or load on first
    #: use, so that a player's first move does not wait for it (the web server's AI workers
    #: call it at start)
    warm: Callable[[], None] | None = None

    def rollout_policy(self) -> str:
        """:attr:`policy`, or the default it stands for."""
        return self.policy or ("greedy" if "greedy" in self.agents else "random")


class Observer(Protocol[S_contra]):
    """:attr:`Study.observer`'s product: watches one game move by move and gives its statistics
    (scalars per game, or lists per seat), as :func:`plunder.match.play_out` feeds it."""

    def see(self, before: S_contra, action: Any, after: S_contra) -> None:
        """Take note of one move (chance's too): ``action`` took ``before`` to ``after``."""

    def stats(self, final: S_contra) -> dict[str, float | list[float]]:
        """The figures of the game that ended in ``final``, every move of it seen."""


@runtime_checkable
class Itemiser(Protocol[S_contra]):
    """An :class:`Observer` whose game's breakdown tells more than its statistics: figures item
    by item (Hubs' rounds one by one), which ``simulate`` and the lab do not average over games.
    :func:`plunder.match.breakdown_of` hands the breakdown these in place of ``stats``."""

    def breakdown_figures(self, final: S_contra) -> dict[str, float | list[float]]:
        """The statistics of the game that ended in ``final`` and the items its breakdown tells,
        every move of it seen."""


class EndObserver(Generic[S]):
    """An :class:`Observer` whose figures all follow from the last position (a game's ledger or
    score sheet): it notes nothing on the way. As it is, it gives no figures; a game's
    subclass reads its own from ``final``."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def see(self, before: S, action: Any, after: S) -> None:
        """Nothing to note: the last position holds every figure."""

    def stats(self, final: S) -> dict[str, float | list[float]]:
        """No figures."""
        return {}


@dataclass(frozen=True)
class Study(Generic[S]):
    """What ``plunder simulate`` and the lab learn of a game played out: its statistics, what
    its report says of them, and what its rules bound of a stored result. Without this group a
    game is studied by its returns and scores alone."""

    #: ``observer(game)``: a fresh :class:`Observer` of one game of ``game``, shown every move
    #: (before, action, after) and asked for the game's statistics at its end (``plunder
    #: simulate``, the lab, the breakdown's figures). The observer tallies only statistics read
    #: live there, not in the states, so a state holds its position; no observer, no statistics
    observer: Callable[[Game[Any]], Observer[S]] | None = None
    #: what the lab's report adds of the game: its length measure, sentences and charts, read
    #: from the observer's statistics (:mod:`plunder.core.figures`)
    figures: ReportFigures = field(default_factory=ReportFigures)
    #: ``plausibility(game, returns, scores, stats)``: why a stored game of ``game`` could not
    #: have ended so by its rules (:mod:`plunder.core.plausibility`), for the lab's results
    #: store, which plays such a row again; no check, only the checks every game gets
    plausibility: Plausibility | None = None


@dataclass(frozen=True)
class Learning:
    """What the reinforcement-learning adapters (:mod:`plunder.interop`: OpenSpiel, Gymnasium,
    PettingZoo) need of a game beyond its rules; without this group a game has no adapter."""

    #: ``observation(game)``: the numeric observation and fixed action space of ``game`` with
    #: its parameters (:mod:`plunder.core.observation`)
    observation: Callable[[Game[Any]], "Encoding"] | None = None
    #: ``batched(game, seat, opponent, copies)``: many copies stepped by one call
    #: (:mod:`plunder.core.batched`), which the vector environment uses when it is offered
    batched: "BatchedFactory | None" = None


@dataclass(frozen=True)
class FastResult:
    """The outcome of one game played by a game's fast path: it must equal what
    :func:`plunder.play` gives for the same agents and seed (``returns``, ``scores``, and
    ``stats`` as the game's :class:`Observer` gives them); the game's tests check this."""

    returns: list[float]
    scores: list[float]
    stats: dict[str, float | list[float]]


@dataclass(frozen=True)
class Speed:
    """A game's internal fast paths for batch simulation (``plunder simulate``, the lab): each
    answers ``None`` when it cannot play the agents given, and the runner then plays the games
    through the rules."""

    #: ``fast_play(game, agents, rngs, seed)``: one whole game with the built ``agents`` in seat
    #: order, each deciding with its rng of ``rngs``, chance drawn from ``seed`` as
    #: :mod:`plunder.core.chance` does
    fast_play: Callable[[Game[Any], Sequence[Agent[Any]], Sequence[random.Random], int], FastResult | None] | None = None
    #: ``fast_batch(game, agents, seeds)``: many whole games at once, one per seed
    fast_batch: Callable[[Game[Any], Sequence[Agent[Any]], Sequence[int]], "list[FastResult] | None"] | None = None


@dataclass(frozen=True)
class Editor:
    """A game's board editor (the web app's ``/editor/{game}`` page): the page edits a *sketch*,
    a JSON value of the game's own making, and the game checks it with its own rules, so the
    editor never saves what the game would refuse. Each hook raises
    :class:`~plunder.core.errors.ParameterError` for what it refuses, saying why."""

    #: the page's heading ("Design a Pillage and Profit board")
    title: str
    #: the page's template, in the game's :attr:`Client.assets` folder
    template: str
    #: the largest sketch or file the editor reads, in bytes
    max_bytes: int
    #: ``start()``: what a new page opens on: the sketch and the page's settings, handed to the template
    start: Callable[[], dict[str, Any]]
    #: ``lattice(spec, filled)``: a generated board as a sketch (``square:4x4``)
    lattice: Callable[[str, bool], dict[str, Any]]
    #: ``open(text)``: a saved file's text as a sketch
    open: Callable[[str], dict[str, Any]]
    #: ``check(sketch, options)``: ``{"ok": True, ...}`` with what the page shows of an accepted
    #: sketch (the game parameter that plays it, the file, a picture), or ``{"ok": False,
    #: "error": ...}`` saying which rule it breaks
    check: Callable[[Any, Mapping[str, str]], dict[str, Any]]


@dataclass(frozen=True)
class Client:
    """What a game adds to the web app's pages beyond its SVG picture."""

    #: the folder of the game's own web files (templates, scripts, styles), served under
    #: ``/assets/{game}/``
    assets: Path | None = None
    #: the game page's own browser code: a file in :attr:`assets` holding an ES module the page
    #: imports before it connects (Hubs' lattice clicks, Crossroads' trade panel); it exports
    #: any of ``setup(api)``, ``update(msg)`` and ``click(event)``, which ``docs/web.md``
    #: describes; "" for none
    module: str = ""
    #: ``talk(before, action, after)``: what a move says at the table, for the game page's table
    #: talk (Crossroads' offers and their answers: the table is where they are negotiated), or
    #: ``None`` for a move that is not talk; no hook, no move is told there
    talk: Callable[[Any, Any, Any], str | None] | None = None
    #: a board editor
    editor: Editor | None = None


@dataclass(frozen=True)
class Analysis(Generic[S]):
    """How the analysis engine (:mod:`plunder.analysis`) values a game's positions and judges
    its moves. A value is the mover's final score margin (own score minus the best rival's;
    alone, the own score) in the game's :attr:`units`; a move's loss is the value of the best
    move found minus the value of the move played, marked by the three thresholds (each in
    :attr:`units`, documented in ``docs/analysis.md``)."""

    #: what the game's scores count, plural ("doubloons", "gold", "cards")
    units: str
    #: a loss of at least this much is an inaccuracy
    inaccuracy: float
    #: ... a mistake
    mistake: float
    #: ... a blunder
    blunder: float
    #: the agent spec that plays the playouts valuing a move ("": the game's ``hard`` level);
    #: a game whose ``hard`` level searches names a cheap agent here
    playout: str = ""
    #: playouts per position at the default budget, shared by its candidate moves
    sims: int = 64
    #: cut a playout after this many actions and value it by the scores then (0: play to the
    #: end); a cut playout has no result, so the analysis gives no win probability
    depth: int = 0
    #: the most candidate moves a position's playouts are shared among (the move played and
    #: the playout agent's own choice always among them; then the moves :attr:`screen` ranks
    #: first, or without a screen the game's move list order)
    candidates: int = 12
    #: rollouts per legal move of the game's fast leaf evaluator (:attr:`Strength.evaluator`)
    #: that rank the moves before the candidates are chosen, the moves it values most for the
    #: mover first (0, or a game without an evaluator: the move list's order)
    screen: int = 0
    #: the playouts that evaluator plays for the screen ("": its default)
    screen_playout: str = ""
    #: ``exact(state)``: the game's solver (:attr:`Strength.solve`) values ``state`` and its
    #: children within :attr:`exact_seconds` (two-seat zero-sum games whose solver gives the
    #: final margin for the player to act)
    exact: Callable[[S], bool] | None = None
    #: time allowed to one exact solve before the engine falls back on playouts
    exact_seconds: float = 20.0
    #: ``stretch(state)``: a position beyond :attr:`exact`'s reach where the solver is still
    #: tried, for :attr:`stretch_seconds` only (some such positions settle fast, most do not):
    #: where both solves finish the values are exact; where the game's solver takes a window
    #: (:attr:`Strength.window`), the move played is solved and its mark proven by null-window
    #: tests instead (a bound of its loss); else the playouts value the position (``None``: no
    #: such positions)
    stretch: Callable[[S], bool] | None = None
    #: time allowed to each solve (or null-window test) of a :attr:`stretch` position; a
    #: position's solves and tests together stop at twice this
    stretch_seconds: float = 1.0
    #: how far a move's loss found by the playouts was seen to stray from its exact value, in
    #: :attr:`units` (measured against the solver where the game has one, ``docs/analysis.md``):
    #: a playout-valued move is marked only as far as its interval, widened by this much each
    #: side, clears a threshold; more playouts narrow the interval, never this (0: the playouts'
    #: own standard error alone)
    bias: float = 0.0

    def mark(self, loss: float) -> str:
        """``good``, ``inaccuracy``, ``mistake`` or ``blunder`` for a move losing ``loss``."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"


@dataclass(frozen=True)
class Puzzles:
    """How a game makes puzzles (:mod:`plunder.core.puzzle`) from games its agents play, proves
    them with its exact search, and ships a set of them (:mod:`plunder.puzzles` drives it)."""

    #: ``find(game, record)``: the puzzles of one played game, each already proven
    find: Callable[[Game[Any], "Record"], "list[Puzzle]"]
    #: ``verify(puzzle)``: what no longer holds when the puzzle is solved again from scratch
    #: (empty: the puzzle holds)
    verify: Callable[["Puzzle"], list[str]]
    #: the parameters of the games puzzles come from, taken in turn
    boards: Sequence[Mapping[str, str]]
    #: the agent specs seating those games, taken in turn (one spec per seat)
    mixes: Sequence[Sequence[str]]
    #: the puzzle file shipped with the game (``None``: none shipped)
    shipped: Path | None = None
