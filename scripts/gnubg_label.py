#!/usr/bin/env python3
"""Training data for the backgammon network: positions from bot games, labelled by GNU
Backgammon's cubeless probabilities.

Games are played with our `strong` bot's list of legal plays (`examples/backgammon_gnubg_bridge.rs`,
the same bridge as `scripts/gnubg_bench.py`); at each decision every legal play's resulting
position is evaluated by gnubg (`--plies`, 0 = its static networks and bear-off databases,
cubeless), and the game goes on with our strong bot's choice (half of the decisions), gnubg's best
play (four in ten) or a random legal play (one in ten), so that the positions are the ones our bot
meets, the ones good play leads to, and some that only mistakes reach. Contact, race and bear-off
positions all come up, in the proportions games produce them.

Each decision writes up to `--per-decision` of its resulting positions (gnubg's best ones first,
then a random sample of the others), each once over the whole run: the best plays are where a
network must rank finely. A line is

    <position id> <win> <win gammon> <win backgammon> <lose gammon> <lose backgammon>

the Position ID seen from the side on roll (the opponent of the side that has just played), and
gnubg's five probabilities for that side on roll. Finished games (a side with no checker left)
are not written: the network's answer there is exact.

Reproducible: the dice and the choices come from `--seed` and the game number, and gnubg's
evaluation is deterministic. The data file is not committed; the command that made the one
the shipped weights were fitted to is in docs/bots.md. Several processes can share the work with
`--first-game` (their files concatenated; duplicates across files are harmless).

    cargo build --release --example backgammon_gnubg_bridge
    .venv/bin/python scripts/gnubg_label.py --games 4000 --seed 1 --out /tmp/bg-labels-1.tsv
"""

import argparse
import random
import sys
import time

import gnubg

from gnubg_bench import DEFAULT_BRIDGE, START_ID, Bridge, roll


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--first-game", type=int, default=0, help="number of the first game (to split a run)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plies", type=int, default=0, help="gnubg's plies for the labels (0 = static)")
    ap.add_argument("--per-decision", type=int, default=16, help="positions written per decision at most")
    ap.add_argument("--out", required=True)
    ap.add_argument("--bridge", default=DEFAULT_BRIDGE, help="path of the bridge binary")
    ap.add_argument("--progress", type=int, default=100, help="print a line every N games (0: never)")
    args = ap.parse_args()

    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, args.plies, 1, 1, 0.0)  # cubeless, deterministic, pruned, no noise
    bridge = Bridge(args.bridge, "strong")
    seen = set()
    written = decisions = 0
    t0 = time.time()
    with open(args.out, "w") as out:
        for g in range(args.first_game, args.first_game + args.games):
            rng = random.Random(f"label:{args.seed}:{g}")
            dice = roll(rng)
            while dice[0] == dice[1]:
                dice = roll(rng)
            pid = START_ID
            while True:
                chosen, cands = bridge.ask(pid, dice)
                if not cands:
                    pid = chosen  # no legal play: the other side is on roll
                    dice = roll(rng)
                    continue
                cands = list(dict.fromkeys(cands))  # distinct results, in the bridge's order
                labels = {}
                for c in cands:
                    board = gnubg.positionfromid(c)
                    if sum(board[0]) == 0:  # the mover has borne off its last checker
                        continue
                    labels[c] = gnubg.evaluate(board, cube, ctx)[:5]
                if not labels:
                    break  # every play ends the game
                decisions += 1
                # The mover's cubeless equity of each result (the labels are for the side on roll).
                eq = {c: -(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]) for c, p in labels.items()}
                ranked = sorted(labels, key=lambda c: -eq[c])
                keep = args.per_decision
                top = ranked[: keep // 2]
                rest = ranked[keep // 2:]
                picked = top + rng.sample(rest, min(len(rest), keep - len(top)))
                for c in picked:
                    if c not in seen:
                        seen.add(c)
                        p = labels[c]
                        out.write(f"{c} {p[0]:.5f} {p[1]:.5f} {p[2]:.5f} {p[3]:.5f} {p[4]:.5f}\n")
                        written += 1
                r = rng.random()
                nxt = chosen if r < 0.5 else ranked[0] if r < 0.9 else rng.choice(cands)
                if sum(gnubg.positionfromid(nxt)[0]) == 0:
                    break  # the game is over
                pid = nxt
                dice = roll(rng)
            done = g + 1 - args.first_game
            if args.progress and done % args.progress == 0:
                print(f"{done} games, {decisions} decisions, {written} positions, {time.time() - t0:.0f}s",
                      file=sys.stderr, flush=True)
    bridge.close()
    print(f"{args.games} games, {decisions} decisions, {written} positions written to {args.out} "
          f"in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
