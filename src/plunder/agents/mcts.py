"""Monte Carlo tree search over the public game API.

* Chance nodes are sampled by their distribution, so dice, deals and flips need nothing
  special from a game.
* Any number of players: a node keeps the sum of returns for every seat, and each
  decision node picks the child that is best for the seat to move there.
* Leaves are evaluated in batches (virtual loss keeps one batch's paths apart), so a
  game can supply a vectorised evaluator (Pillage's numpy playout kernel); the default
  evaluator plays random rollouts through ``apply``.
* Deterministic for a given ``rng`` and simulation count; the tree is kept between moves
  and reused when the new position is found in it.
* ``root=AGENT`` trades the tree for a search at the root only (:mod:`.improve`): paired
  rollouts per candidate move, keeping ``AGENT``'s move unless another is clearly better.
  In long games of chance a tree with few simulations only adds noise; on Profiteer this
  is what beats the tuned heuristic (docs/ai.md).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Generic, Sequence

from ..core.agent import Agent, AgentFactory, AgentOptions, Appraisal, Evaluator
from ..core.capabilities import CompiledRules, S
from ..core.chance import sample_chance
from ..core.errors import ParameterError
from ..core.game import CHANCE, TERMINAL, Action, Game
from ..core.params import Param, parse_bool, parse_choice, parse_int, parse_or, parse_real
from ..core.declaration import Declaration
from ..core.registry import GameEntry, entry, is_game
from .confidence import judged
from .improve import RootSearch
from .tree import CompiledTree
from .uct import VISITS, explore_term, uct_lists

#: visits a root move needs before the hint gives its value an interval rather than calling it a guess
SURE_VISITS = 30


class RolloutEvaluator(Generic[S]):
    """Plays ``rollouts`` games from each leaf through the public API.

    The rollout policy is uniform random, or ``policy`` (an agent such as ``greedy``), an
    agent of the states it evaluates.
    With ``depth`` > 0 a rollout stops after that many actions and the position is valued
    by its scores (:func:`score_values`, on the scale ``scale``) instead of its returns:
    long games need that, since a full rollout per simulation is too slow. ``by_score``
    values finished games by their scores too, which gives a solitaire whose wins are rare
    something to climb.
    """

    batch = 1

    def __init__(self, rollouts: int = 1, policy: Agent[S] | None = None, depth: int = 0, scale: float = 10.0,
                 by_score: bool = False) -> None:
        self.rollouts = rollouts
        self.policy = policy
        self.depth = depth
        self.scale = scale
        self.by_score = by_score

    def evaluate(self, states: Sequence[S], rng: random.Random) -> list[Sequence[float]]:
        """Mean value of the rollouts from each state."""
        out: list[Sequence[float]] = []
        for state in states:
            total = [0.0] * state.game.num_players
            for _ in range(self.rollouts):
                s = state
                steps = 0
                while not s.is_terminal() and (self.depth == 0 or steps < self.depth):
                    if s.current_player == CHANCE:
                        s = s.apply_unchecked(sample_chance(s, rng))
                    elif self.policy is not None:
                        s = s.apply_unchecked(self.policy.choose(s, rng))
                    else:
                        s = s.apply_unchecked(rng.choice(s.legal_actions()))
                    steps += 1
                done = s.is_terminal() and not self.by_score
                values = s.returns() if done else score_values(s.scores(), self.scale)
                for i, r in enumerate(values):
                    total[i] += r
            out.append([t / self.rollouts for t in total])
        return out


def score_values(scores: Sequence[float], scale: float) -> list[float]:
    """Per-seat values in (-1, 1) from unfinished scores.

    With rivals: ``tanh((own - best rival) / scale)``. Alone: ``tanh(own / scale - 1)``, so
    a score of ``scale`` is worth 0 (set ``scale`` near the score that wins).
    """
    if len(scores) == 1:
        return [math.tanh(scores[0] / scale - 1)]
    out = []
    for i, own in enumerate(scores):
        rival = max(x for j, x in enumerate(scores) if j != i)
        out.append(math.tanh((own - rival) / scale))
    return out


class Node(Generic[S]):
    """A tree node: the position it stands for, how often searches passed through it, what they
    brought back for each seat, and its children.

    A decision node also keeps its expanded children's statistics for its own mover in two
    flat lists, so that choosing a child by UCT reads no child object. Plain lists, not numpy
    arrays: a node has a few dozen children at most, where numpy's per-call cost outweighs its
    vector speed (docs/ai.md, "Pillage: what a move costs"). Those lists and the untried
    actions are made the first time a search passes through the node (:meth:`open`): most
    nodes stay leaves, visited once, and never need them.
    """

    __slots__ = ("state", "player", "terminal", "children", "expanded", "untried", "visits", "total_return",
                 "virtual_losses", "child_visits", "child_return")

    #: the position
    state: S
    #: the seat to move there, :data:`CHANCE` or :data:`TERMINAL`
    player: int
    #: the game is over here (the node's value is the state's returns)
    terminal: bool
    #: the children made so far, by the action (or chance outcome) that leads to each
    children: dict[Action, "Node[S]"]
    #: a decision node's children in the order they were expanded: child ``i`` of the arrays
    expanded: list["Node[S]"]
    #: a decision node's actions not expanded yet (``None`` until :meth:`open`)
    untried: list[Action] | None
    #: completed simulations through this node
    visits: int
    #: per seat, the sum of the values those simulations brought back
    total_return: list[float]
    #: simulations of the current batch that passed through and have not come back yet
    virtual_losses: int
    #: per expanded child: its visits plus its virtual losses (how often selection has taken it)
    child_visits: list[int]
    #: per expanded child: the mover's summed return through it, each virtual loss counting -1
    child_return: list[float]

    def __init__(self, state: S, seats: int) -> None:
        self.state = state
        self.player = state.current_player
        self.terminal = self.player == TERMINAL
        self.children = {}
        self.expanded = []
        self.untried = None
        self.visits = 0
        self.total_return = [0.0] * seats
        self.virtual_losses = 0

    def open(self) -> list[Action]:
        """The untried actions, listing them (and making the statistics' lists) on the first pass."""
        if self.untried is None:
            self.untried = list(self.state.legal_actions())  # a copy: games may share their lists
            self.child_visits = []
            self.child_return = []
        return self.untried

    def best_child(self, c: float) -> int:
        """UCT over the expanded children: the index maximising the mover's mean return (virtual
        losses counting as losses) plus ``c`` times the exploration bonus."""
        terms, roots, inverses = uct_lists(c)
        explore = explore_term(c, self.visits + self.virtual_losses, terms)
        best, pick = -math.inf, 0
        for i, (r, n) in enumerate(zip(self.child_return, self.child_visits)):
            # :mod:`.uct`'s value, written out: a call a child would cost the Python search more
            # than the arithmetic
            value = (r + explore * roots[n]) * inverses[n] if n < VISITS else (r + explore * math.sqrt(n)) * (1.0 / n)
            if value > best:  # the first of equals wins, as numpy's argmax would pick
                best, pick = value, i
        return pick

    def mean(self, seat: int) -> float:
        """Average return of ``seat`` through this node."""
        return self.total_return[seat] / self.visits if self.visits else 0.0


#: one step of a selected path: (parent, index of the child in ``parent.expanded``, child);
#: the index is -1 below a chance node, whose children keep no arrays
Step = tuple[Node[S], int, Node[S]]


class MCTSAgent(Generic[S]):
    """UCT search with chance sampling, batched leaf evaluation and tree reuse, over the states
    its evaluator takes (any game's with the default random rollouts).

    ``sims`` simulations a move decide its strength, so a game replays from its seed;
    ``seconds`` may also cap a move's time, at the price of moves that depend on the machine.
    """

    name = "mcts"

    def __init__(self, game: Game, sims: int | None = 1000, seconds: float | None = None, c: float = 1.0,
                 evaluator: Evaluator[S] | None = None, reuse: bool = True, batch: int | None = None,
                 compiled: CompiledRules[S] | None = None) -> None:
        self.game = game
        self.seats = game.num_players
        self.sims = sims
        self.seconds = seconds
        self.c = c
        rollouts: RolloutEvaluator[S] = RolloutEvaluator()
        self.evaluator: Evaluator[S] = evaluator or rollouts
        self.reuse = reuse
        self.batch = batch or self.evaluator.batch
        self.root: Node[S] | None = None
        #: the compiled tree, searching every position the game's compiled rules hold (with
        #: leaves one at a time: the pure search with ``batch=1``, bit for bit)
        self.tree = None if compiled is None else CompiledTree(compiled, self.seats, c, reuse, game.max_game_length)

    def _find(self, state: S) -> Node[S]:
        """The subtree for ``state`` if the kept tree holds it within a few plies, else a new root."""
        if self.reuse and self.root is not None:
            frontier = [self.root]
            for _ in range(4):
                for node in frontier:
                    if node.state == state:
                        return node
                frontier = [c for node in frontier for c in node.children.values()]
                if len(frontier) > 5000:
                    break
        return Node(state, self.seats)

    def search(self, state: S, rng: random.Random) -> Node[S]:
        """Run the search from ``state`` and return its root node."""
        root = self._find(state)
        self.root = root
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.sims if self.sims is not None else (1 << 62)
        done = 0
        batch = max(1, self.batch)
        evaluate = self.evaluator.evaluate
        while done < budget:
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            paths = [self._select(root, rng) for _ in range(min(batch, budget - done))]
            leaves = [path[-1][2] if path else root for path in paths]
            pending = [leaf.state for leaf in leaves if not leaf.terminal]
            estimates = iter(evaluate(pending, rng) if pending else ())
            for path, leaf in zip(paths, leaves):
                self._backup(root, path, leaf.state.returns() if leaf.terminal else next(estimates))
            done += len(paths)
        return root

    @staticmethod
    def _backup(root: Node[S], path: list[Step[S]], value: Sequence[float]) -> None:
        """Take back the path's virtual losses and add the leaf's value all the way up."""
        root.virtual_losses -= 1
        root.visits += 1
        total = root.total_return
        for seat, v in enumerate(value):
            total[seat] += v
        for parent, i, node in path:
            node.virtual_losses -= 1
            node.visits += 1
            total = node.total_return
            for seat, v in enumerate(value):
                total[seat] += v
            if i >= 0:
                # the virtual loss counted -1: give it back with the value
                parent.child_return[i] += 1 + value[parent.player]

    def _select(self, root: Node[S], rng: random.Random) -> list[Step[S]]:
        """Walk down by UCT (sampling chance) to a new or terminal node, adding virtual losses.

        A virtual loss counts a visit worth -1 for the mover until the path's value comes
        back, so the other paths of a batch spread out.
        """
        node = root
        path: list[Step[S]] = []
        node.virtual_losses += 1
        while not node.terminal:
            if node.player == CHANCE:
                action = sample_chance(node.state, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(node.state.apply_unchecked(action), self.seats)
                child.virtual_losses += 1
                path.append((node, -1, child))
                node = child
                continue
            untried = node.untried if node.untried is not None else node.open()
            fresh = bool(untried)
            if fresh:
                # expand untried actions in random order: swap a random one to the end
                j = int(rng.random() * len(untried))
                untried[j], untried[-1] = untried[-1], untried[j]
                action = untried.pop()
                child = node.children[action] = Node(node.state.apply_unchecked(action), self.seats)
                i = len(node.expanded)
                node.expanded.append(child)
                node.child_visits.append(1)
                node.child_return.append(-1.0)
            else:
                i = node.best_child(self.c)
                child = node.expanded[i]
                node.child_visits[i] += 1
                node.child_return[i] -= 1
            child.virtual_losses += 1
            path.append((node, i, child))
            if fresh:
                return path
            node = child
        return path

    def ranked(self, root: Node[S]) -> list[tuple[Action, int, float]]:
        """Root actions as (action, visits, mean return for the mover), most visited first."""
        seat = root.player
        rows = [(a, c.visits, c.mean(seat)) for a, c in root.children.items()]
        return sorted(rows, key=lambda r: (-r[1], -r[2]))

    def rank(self, state: S, rng: random.Random) -> list[tuple[Action, int, float]]:
        """Search ``state`` (in the compiled tree where it holds the position) and rank the root
        actions as :meth:`ranked` does."""
        if self.tree is not None:
            rows = self.tree.ranked(state, rng, self.sims, self.seconds)
            if rows is not None:
                return rows
        return self.ranked(self.search(state, rng))

    def analyse(self, state: S, rng: random.Random) -> list[tuple[Action, str]]:
        """Root actions, best first, each with its estimated result for the mover in words."""
        # returns lie in [-1, 1], so a mean v bounds their spread by sqrt(1 - v^2); under
        # SURE_VISITS visits the value is called a guess
        return [(a, judged(v, math.sqrt(max(0.0, 1 - v * v)), n, "visit", SURE_VISITS))
                for a, n, v in self.rank(state, rng)]

    def appraise(self, state: S, rng: random.Random) -> list[Appraisal]:
        """Root actions, most visited first, each with its mean return for the mover."""
        return [Appraisal(a, v, n) for a, n, v in self.rank(state, rng)]

    def choose(self, state: S, rng: random.Random) -> Action:
        """The most visited action after searching from ``state``."""
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        return self.rank(state, rng)[0][0]


#: the options of ``mcts`` (``plunder list`` shows them)
MCTS_PARAMS = (
    Param("sims", "auto", parse_or("auto", parse_int(1)),
          "simulations per move: the budget that decides moves (auto: 1000, 200 with root=, no cap with seconds=)"),
    Param("seconds", "none", parse_or("none", parse_real(0, above=True)),
          "also stop after this many seconds a move (moves then depend on the machine: not reproducible)"),
    Param("c", "1", parse_real(0), "UCT exploration constant"),
    Param("rollouts", "1", parse_int(1), "rollouts per leaf"),
    Param("eval", "auto", str, "leaf values: fast (the game's own evaluator), random, or one of the game's agents "
                               "playing the rollouts (auto: fast if the game has one, else random; with root=, the base)"),
    Param("playout", "auto", str, "which playouts the game's fast evaluator plays (a name it does not know is refused with the names it knows)"),
    Param("depth", "0", parse_int(0), "cut rollouts after this many actions and value them by scores (0: play out)"),
    Param("scale", "10", parse_real(0, above=True), "rollouts cut by depth= are valued tanh(score margin / scale)"),
    Param("value", "returns", parse_choice(("returns", "score")), "value finished rollouts by returns or by scores",
          choices=("returns", "score")),
    Param("reuse", "true", parse_bool, "keep the tree between moves"),
    Param("batch", "auto", parse_or("auto", parse_int(1)), "leaves per evaluator call (auto: the evaluator's)"),
    Param("tree", "auto", parse_choice(("auto", "python")),
          "auto: the compiled tree (leaves one at a time) where the game offers compiled rules for eval=fast; "
          "python: the tree in Python", choices=("auto", "python")),
    Param("root", "none", parse_or("none", str), "search at the root only, over this agent's rollouts (a fast agent)"),
    Param("z", "2", parse_real(0), "with root=: standard errors a move must gain over the base move to replace it"),
)


def _make_mcts(game: Game, options: AgentOptions) -> "MCTSAgent[Any] | RootSearch[Any]":
    """``mcts`` from its checked options (:data:`MCTS_PARAMS`).

    ``root=AGENT`` searches at the root only (:class:`plunder.agents.improve.RootSearch`):
    each candidate move gets paired rollouts and ``AGENT``'s own move is kept unless another
    gains more than ``z`` standard errors. Its rollouts use ``eval`` (default: the game's fast
    evaluator if it has one, else rollouts of ``AGENT`` itself, cut by ``depth``/``scale``/``value``).
    """
    root: str | None = options["root"]
    seconds: float | None = options["seconds"]
    sims: int | None = options["sims"]
    if sims is None and seconds is None:
        sims = 1000 if root is None else 200
    rollouts: int = options["rollouts"]
    depth: int = options["depth"]
    scale: float = options["scale"]
    by_score = options["value"] == "score"
    game_entry = entry(game.id) if is_game(game.id) else GameEntry(type(game), Declaration(game.num_players, game.num_players, chance=True))
    base: Agent[Any] | None = None
    if root is not None:
        if root in ("mcts", "hard") or root.startswith(("mcts:", "hard:")):
            raise ParameterError(f"mcts root={root!r}: the base policy must be a fast agent such as greedy or random")
        base = options.agent(root)
    default_eval = "fast" if game_entry.strength.evaluator is not None else ("random" if root is None else "base")
    kind = default_eval if options["eval"] == "auto" else options["eval"]
    evaluator: Evaluator[Any]
    if kind == "fast":
        if game_entry.strength.evaluator is None:
            raise ParameterError(f"{game.id} has no fast evaluator; use eval=random or eval=greedy")
        # the game knows its playouts: it checks the name and picks the default for ""
        playout = options["playout"]
        evaluator = game_entry.strength.evaluator(game, rollouts, "" if playout == "auto" else playout)
    elif kind == "random":
        evaluator = RolloutEvaluator(rollouts, depth=depth, scale=scale, by_score=by_score)
    elif kind == "base" and base is not None:
        evaluator = RolloutEvaluator(rollouts, base, depth=depth, scale=scale, by_score=by_score)
    elif kind in game_entry.strength.agents:
        evaluator = RolloutEvaluator(rollouts, options.agent(kind), depth=depth, scale=scale,
                                     by_score=by_score)
    else:
        raise ParameterError(f"mcts eval={kind!r} is not one of fast, random, {', '.join(game_entry.strength.agents)}")
    if base is not None:
        return RootSearch(base, evaluator, sims=sims, seconds=seconds, z=options["z"], candidates=game_entry.strength.candidates)
    compiled = None
    if kind == "fast" and options["tree"] == "auto" and game_entry.strength.compiled is not None:
        playout = options["playout"]
        compiled = game_entry.strength.compiled(game, rollouts, "" if playout == "auto" else playout)
    return MCTSAgent(game, sims=sims, seconds=seconds, c=options["c"], evaluator=evaluator, reuse=options["reuse"],
                     batch=options["batch"], compiled=compiled)


#: ``mcts``: every game has it
MCTS = AgentFactory(_make_mcts, "Monte Carlo tree search (UCT) with chance sampling; root= searches "
                                "at the root over a base agent's paired rollouts", MCTS_PARAMS)
