"""One Crossroads agent against a field of the personalities, at any player count.

Run: .venv/bin/python bench/crossroads_field.py AGENT --players N --games G [--seed S]
e.g. .venv/bin/python bench/crossroads_field.py hard --players 4 --games 200 --seed 3000000

Game ``i`` uses seed ``S + i``; the agent sits in seat ``i mod N`` and the other seats go,
in seat order, to ``FIELD[(i // N + k) mod 5]`` for k = 0 .. N-2 (``FIELD`` below: the five
personalities, ``greedy`` and ``always-fair`` trading alike), so over any N*5 consecutive
games every seat and every rival line-up comes round. A line per game keeps a running
tally (wins, win share with its 95% Wilson interval, against the 1/N share), so a run cut
short keeps what it played; runs over disjoint index ranges (``--start``) add up. The last
line gives the CPU time of the agent's decisions (mean, 99th percentile, most).
"""

from __future__ import annotations

import argparse
import random
import time

from plunder.agents import Agent, make_agent
from plunder.core.game import Action, State
from plunder.core.registry import load_game
from plunder.match import play_out
from plunder.simulate import wilson

#: the personalities the rivals are drawn from, in rotation
FIELD = ("greedy", "always-fair", "greedy-splitter", "tit-for-tat", "grudger")


def line_up(agent: str, players: int, index: int) -> tuple[list[str], int]:
    """The specs of game ``index``, seat by seat, and the seat of ``agent``."""
    ours = index % players
    rivals = [FIELD[(index // players + k) % len(FIELD)] for k in range(players - 1)]
    return rivals[:ours] + [agent] + rivals[ours:], ours


class Timed:
    """An agent whose every decision's CPU time is kept."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.times: list[float] = []

    def choose(self, state: State, rng: random.Random) -> Action:
        """The agent's move, timed."""
        began = time.process_time()
        move = self.agent.choose(state, rng)
        self.times.append(time.process_time() - began)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="agent spec, e.g. hard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, help="first game index (seed S + index)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    params = {"players": str(args.players), **dict(p.split("=", 1) for p in args.param)}
    game = load_game("crossroads", **params)
    built = {spec: make_agent(spec, game) for spec in FIELD}
    timed = Timed(make_agent(args.agent, game))
    wins = ties = played = 0
    gold = 0.0
    cpu = 0.0
    print(f"{args.agent} vs the personalities, {args.players} players, seeds {args.seed + args.start}"
          f"..{args.seed + args.start + args.games - 1}; share 1/{args.players} = {1 / args.players:.1%}", flush=True)
    for i in range(args.start, args.start + args.games):
        specs, ours = line_up(args.agent, args.players, i)
        began = time.process_time()
        seats: list[Agent] = [timed if s == ours else built[spec] for s, spec in enumerate(specs)]
        _, final = play_out(game, seats, seed=args.seed + i)
        cpu += time.process_time() - began
        ret = final.returns()[ours]
        played += 1
        wins += ret > 0
        ties += ret == 0
        gold += final.scores()[ours]
        lo, hi = wilson(wins, played)
        print(f"game {i} seed {args.seed + i} seat {ours} {'WIN ' if ret > 0 else 'tie ' if ret == 0 else 'loss'} "
              f"gold {final.scores()[ours]:.0f} (best rival {max(g for s, g in enumerate(final.scores()) if s != ours):.0f}) "
              f"| {wins}/{played} = {wins / played:.1%} ({lo:.1%}-{hi:.1%}), ties {ties}, "
              f"mean gold {gold / played:.1f}, CPU {cpu / played:.2f} s a game", flush=True)
    times = sorted(timed.times)
    if times:
        print(f"{args.agent}: {len(times)} decisions, CPU mean {1000 * sum(times) / len(times):.2f} ms, "
              f"99th percentile {1000 * times[int(0.99 * len(times))]:.2f} ms, most {1000 * times[-1]:.2f} ms")


if __name__ == "__main__":
    main()
