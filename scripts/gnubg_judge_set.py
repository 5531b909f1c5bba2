#!/usr/bin/env python3
"""A fixed set of backgammon decisions judged once by GNU Backgammon, to compare checker-play
policies on the same decisions in seconds (paired, so small differences show).

`make` plays cubeless games of gnubg 0-ply against itself (dice from `--seed` and the game
number), keeps every `--every`th non-forced decision (more than one distinct legal result, as
listed by our bridge, `examples/backgammon_gnubg_bridge.rs`), and has gnubg evaluate its plays
at `--plies` (2 by default): the `--filter` best by gnubg 0-ply, as gnubg's analysis filters
plays (0: every play). One JSON line per decision: the Position ID, the dice, and the judged
plays' cubeless equities for the mover.

`score` asks the bridge (with `--policy`, `--weights`, `--noise` as in `scripts/gnubg_bench.py`)
for its play at each decision and reports the equity it loses against the best judged play, in
millipoints per decision (a play outside the judged ones is judged on the spot, and kept).

    .venv/bin/python scripts/gnubg_judge_set.py make --decisions 600 --seed 11 --out /tmp/judge-set.jsonl
    .venv/bin/python scripts/gnubg_judge_set.py score --set /tmp/judge-set.jsonl --policy strong
"""

import argparse
import json
import random
import sys
import time

import gnubg

from gnubg_bench import DEFAULT_BRIDGE, START_ID, Bridge, apply_move, equity, mean_ci, roll


def make(args):
    cube = gnubg.cubeinfo()
    play_ctx = gnubg.evalcontext(0, 0, 1, 1, 0.0)
    quick_ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    judge_ctx = gnubg.evalcontext(0, args.plies, 1, 1, 0.0)
    bridge = Bridge(args.bridge, "strong")
    kept = unforced = 0
    t0 = time.time()
    with open(args.out, "w") as out:
        g = 0
        while kept < args.decisions:
            rng = random.Random(f"judge-set:{args.seed}:{g}")
            g += 1
            dice = roll(rng)
            while dice[0] == dice[1]:
                dice = roll(rng)
            board = gnubg.positionfromid(START_ID)
            while kept < args.decisions:
                pid = gnubg.positionid(board)
                _, cands = bridge.ask(pid, dice)
                distinct = list(dict.fromkeys(cands))
                if len(distinct) > 1:
                    unforced += 1
                    if unforced % args.every == 0:
                        quick = {c: -equity(gnubg.positionfromid(c), cube, quick_ctx) for c in distinct}
                        ranked = sorted(quick, key=quick.get, reverse=True)
                        judged = ranked[: args.filter] if args.filter else ranked
                        eq = {c: -equity(gnubg.positionfromid(c), cube, judge_ctx) for c in judged}
                        out.write(json.dumps({"position": pid, "dice": dice, "equity": eq}) + "\n")
                        kept += 1
                if not cands:
                    nxt = gnubg.positionid((board[1], board[0]))
                else:
                    move = gnubg.findbestmove(board, cube, play_ctx, dice)
                    if move and len(move) % 2 == 0:
                        nxt = gnubg.positionid(apply_move(board, move))
                    else:  # a checker borne off: the binding cuts the tuple short
                        nxt = max(distinct, key=lambda c: -equity(gnubg.positionfromid(c), cube, play_ctx))
                board = gnubg.positionfromid(nxt)
                if sum(board[0]) == 0:
                    break
                dice = roll(rng)
    bridge.close()
    print(f"{kept} decisions from {g} games written to {args.out} in {time.time() - t0:.0f}s")


def score(args):
    cube = gnubg.cubeinfo()
    judge_ctx = gnubg.evalcontext(0, args.plies, 1, 1, 0.0)
    bridge = Bridge(args.bridge, args.policy, args.weights, args.noise)
    losses = []
    outside = 0
    with open(args.set) as f:
        for line in f:
            d = json.loads(line)
            chosen, _ = bridge.ask(d["position"], d["dice"])
            eq = d["equity"]
            if chosen not in eq:
                outside += 1
                eq[chosen] = -equity(gnubg.positionfromid(chosen), cube, judge_ctx)
            losses.append(max(eq.values()) - eq[chosen])
    bridge.close()
    m, h = mean_ci(losses)
    what = args.weights or "shipped weights"
    noise = f", noise {args.noise}" if args.noise is not None else ""
    print(f"{args.policy} ({what}{noise}): {len(losses)} decisions, mean loss {1000 * m:.2f} ± {1000 * h:.2f} mp; "
          f"{sum(1 for x in losses if x >= 0.08)} lose >= 80 mp; {outside} plays outside the judged ones")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--decisions", type=int, default=600)
    mk.add_argument("--every", type=int, default=7, help="keep every Nth non-forced decision")
    mk.add_argument("--filter", type=int, default=8, help="judge gnubg 0-ply's N best plays (0: all)")
    mk.add_argument("--out", required=True)
    sc = sub.add_parser("score")
    sc.add_argument("--set", required=True)
    sc.add_argument("--policy", default="strong", help="strong, normal, easy, pubeval, net0, net1 or net1:K (the bridge's policies)")
    sc.add_argument("--weights")
    sc.add_argument("--noise", type=float)
    for p in (mk, sc):
        p.add_argument("--seed", type=int, default=11)
        p.add_argument("--plies", type=int, default=2, help="the judge's plies")
        p.add_argument("--bridge", default=DEFAULT_BRIDGE, help="path of the bridge binary")
    args = ap.parse_args()
    make(args) if args.cmd == "make" else score(args)


if __name__ == "__main__":
    sys.exit(main())
