"""MCTS strength on Pillage: against OpenSpiel's C++ MCTSBot at equal simulations, and
against the simple agents.

Run: .venv/bin/python bench/mcts_strength.py [--games 200] [--sims 1000] [--boards 3,4]
     .venv/bin/python bench/mcts_strength.py --versus random --board-spec square:4x4 --games 100

Seats alternate game by game. Score = (wins + ties/2) / games, with a 95% Wilson interval
on the win rate. OpenSpiel's bot uses RandomRolloutEvaluator(1) and uct_c=2 (its usual
setting); ours is ``mcts:sims=N`` with its defaults.
"""

from __future__ import annotations

import argparse
import random

import plunder
from plunder.agents import make_agent
from plunder.games.pillage.openspiel_bridge import from_openspiel, to_openspiel
from plunder.simulate import simulate, wilson


def versus_openspiel(side: int, games: int, sims: int, ours: str) -> tuple[int, int, int]:
    """(wins, ties, losses) of ``mcts:sims`` against OpenSpiel's MCTSBot on unit side x side."""
    import pyspiel

    game = plunder.load_game("pillage", board=f"square:{side}x{side}", contents="unit")
    osg = pyspiel.load_game("dots_and_boxes", {"num_rows": side, "num_cols": side})
    tally = [0, 0, 0]
    for g in range(games):
        ours_seat = g % 2
        agent = make_agent(ours, game)
        bot = pyspiel.MCTSBot(osg, pyspiel.RandomRolloutEvaluator(1, g), 2.0, sims, 1000, False, g, False)
        rng = random.Random(g)
        s, t = game.new_initial_state(), osg.new_initial_state()
        while not s.is_terminal():
            if s.current_player == ours_seat:
                line = agent.choose(s, rng)
            else:
                line = game.lines[from_openspiel(game, bot.step(t))]
            s = s.apply(line)
            t.apply_action(to_openspiel(game, line.edge))
        r = s.returns()[ours_seat]
        tally[0 if r > 0 else 1 if r == 0 else 2] += 1

    print()
    return tally[0], tally[1], tally[2]


def versus_agent(board: str, contents: str, ours: str, theirs: str, games: int) -> tuple[int, int, int]:
    """(wins, ties, losses) of agent ``ours`` against ``theirs`` with seats alternating."""
    t = simulate("pillage", {"board": board, "contents": contents}, [ours, theirs], games, workers=2).tallies[ours]
    return t.wins, t.ties, t.losses


def report(label: str, wins: int, ties: int, losses: int) -> None:
    """One result line."""
    n = wins + ties + losses
    lo, hi = wilson(wins, n)
    print(f"{label}: {wins}W {ties}T {losses}L of {n}; win rate {wins / n:.1%} (95% CI {lo:.1%}-{hi:.1%}); "
          f"score {(wins + ties / 2) / n:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--boards", default="3,4", help="unit square sides to play OpenSpiel on")
    parser.add_argument("--versus", default=None, help="play this agent instead of OpenSpiel")
    parser.add_argument("--agent", default=None, help="our agent spec (default mcts:sims=SIMS)")
    parser.add_argument("--board-spec", default="square:4x4")
    parser.add_argument("--contents", default="random")
    args = parser.parse_args()
    ours = args.agent or f"mcts:sims={args.sims}"
    if args.versus:
        report(f"{ours} vs {args.versus} on {args.board_spec} {args.contents}",
               *versus_agent(args.board_spec, args.contents, ours, args.versus, args.games))
        return
    for side in (int(x) for x in args.boards.split(",")):
        report(f"{ours} vs OpenSpiel MCTSBot({args.sims}) on unit {side}x{side}",
               *versus_openspiel(side, args.games, args.sims, ours))


if __name__ == "__main__":
    main()
