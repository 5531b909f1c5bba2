#!/usr/bin/env python3
"""Our backgammon bots against GNU Backgammon: cubeless money games, and gnubg's judgement of
our checker plays.

Our side is `examples/backgammon_gnubg_bridge.rs` (a line protocol: `<position id> <d1> <d2>` in,
the chosen play's result and every legal play's result out, as Position IDs seen by the
opponent). GNU Backgammon is the Python package `gnubg` (its neural nets, no GUI).

Setup (once):

    python3 -m venv .venv && .venv/bin/pip install gnubg
    cargo build --release --example backgammon_gnubg_bridge

Examples:

    .venv/bin/python scripts/gnubg_bench.py --policy strong --games 20           # a quick check
    .venv/bin/python scripts/gnubg_bench.py --policy strong --games 400 --judge-moves 300
    .venv/bin/python scripts/gnubg_bench.py --policy pubeval --games 400         # calibration
    .venv/bin/python scripts/gnubg_bench.py --policy normal --gnubg-plies 1 --games 200

The games: no cube, a win counts 1, 2 for a gammon, 3 for a backgammon. Our bot and gnubg
alternate who starts; the opening roll is two different dice, played by the starter. Dice come
from `--seed` and the game number, so a run is reproducible. gnubg plays its `findbestmove` with
a cubeless evaluation context at `--gnubg-plies` (0 = its static network, no noise); its move
tuple is applied to the board here and must be one of the legal plays our bridge lists (a
mismatch is counted and reported: it would mean our move generation or Position IDs disagree
with gnubg's). The Python binding cuts a move tuple short at the first checker borne off (its
length is then odd), so for those plays gnubg's choice is instead the best of our listed plays
by its evaluation at the same plies: the same play at 0 plies, and at more plies an evaluation
of every play where `findbestmove` would first filter them at 0 plies.

Judging: for up to `--judge-moves` of our bot's non-forced decisions (more than one distinct
legal result; every `--judge-every`th of them, so that they spread over the games), every
candidate result is evaluated by gnubg at `--judge-plies` (cubeless money equity of the position
the play leaves, from the opponent's view, negated), and the best minus the chosen one is the
equity lost. The report gives its mean in millipoints (x1000) per decision, like gnubg's error
rate. `--judge-gnubg-moves` does the same for gnubg's own plays, to show what the judge thinks
of the opponent; `--judge-log FILE` writes each judged decision of ours (position, dice, chosen
and best results, loss) for a closer look. `--check-moves` also compares our list of legal plays
with gnubg's on every gnubg turn.

Report: games, our share of wins and points per game (each with a 95% interval), mean
millipoints lost per judged decision (95% interval, over decisions, ignoring that decisions
within a game are correlated), and wall time.
"""

import argparse
import math
import os
import random
import subprocess
import sys
import time

import gnubg

START_ID = "4HPwATDgc/ABMA"
DEFAULT_BRIDGE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples",
    "backgammon_gnubg_bridge",
)


class Bridge:
    """Our bot behind the line protocol."""

    def __init__(self, path, policy):
        self.proc = subprocess.Popen(
            [path, "--policy", policy], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, pid, dice):
        """(chosen result, [every legal result]) as Position IDs from the opponent's view; with no
        legal play, (the position swapped, [])."""
        self.proc.stdin.write(f"{pid} {dice[0]} {dice[1]}\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().split()
        if not reply or reply[0] == "error:":
            raise RuntimeError(f"bridge: {' '.join(reply) or 'no answer'} for {pid} {dice}")
        return reply[0], reply[1:]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def apply_move(board, move):
    """The board after the side on roll plays `move` (gnubg's flat tuple from, to, from, to, ...;
    1-based points, 25 = bar, 0 = off), seen by the opponent, now on roll."""
    opp, me = list(board[0]), list(board[1])
    pairs = sorted(zip(move[0::2], move[1::2]), reverse=True)  # a checker moved on is moved first
    for src, dst in pairs:
        if src < 1 or me[src - 1] == 0:
            raise ValueError(f"no checker on {src} for {move}")
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            o = 24 - dst  # our point p is the opponent's point 25 - p
            if opp[o] == 1:
                opp[o] = 0
                opp[24] += 1
            elif opp[o] > 1:
                raise ValueError(f"{move} lands on a made point")
    return (tuple(me), tuple(opp))


def equity(board, cube, ctx):
    """Cubeless money equity for the side on roll, gammons and backgammons counted."""
    w, wg, wbg, lg, lbg, _ = gnubg.evaluate(board, cube, ctx)
    return 2 * w - 1 + wg - lg + wbg - lbg


def loss(chosen, candidates, cube, ctx):
    """Equity lost by `chosen` against the best of `candidates` (results from the opponent's view),
    and that best."""
    ours = {c: -equity(gnubg.positionfromid(c), cube, ctx) for c in candidates}
    best = max(ours, key=ours.get)
    return ours[best] - ours[chosen], best


def roll(rng):
    return (rng.randint(1, 6), rng.randint(1, 6))


def mean_ci(xs):
    """Mean and the half-width of its 95% interval (normal approximation)."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--policy", default="strong", choices=["strong", "normal", "easy", "pubeval"])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gnubg-plies", type=int, default=0, help="gnubg's plies when it plays (0 = static)")
    ap.add_argument("--judge-plies", type=int, default=2)
    ap.add_argument("--judge-moves", type=int, default=0, help="judge this many of our non-forced decisions")
    ap.add_argument("--judge-every", type=int, default=1, help="judge every Nth non-forced decision")
    ap.add_argument("--judge-gnubg-moves", type=int, default=0, help="judge this many of gnubg's too")
    ap.add_argument("--judge-log", help="write each judged decision of ours to this file (TSV)")
    ap.add_argument("--check-moves", action="store_true", help="compare all legal plays with gnubg's")
    ap.add_argument("--bridge", default=DEFAULT_BRIDGE, help="path of the bridge binary")
    ap.add_argument("--progress", type=int, default=50, help="print a line every N games (0: never)")
    args = ap.parse_args()

    cube = gnubg.cubeinfo()  # money game, cube centred at 1; irrelevant to cubeless evaluations
    # evalcontext(cubeful, plies, deterministic, prune, noise)
    play_ctx = gnubg.evalcontext(0, args.gnubg_plies, 1, 1, 0.0)
    judge_ctx = gnubg.evalcontext(0, args.judge_plies, 1, 1, 0.0)
    check_ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    bridge = Bridge(args.bridge, args.policy)

    points, errors, gnubg_errors = [], [], []
    wins = gammons = backgammons = mismatches = moves_checked = by_evaluation = 0
    judge_time = 0.0
    unforced = gnubg_unforced = 0
    log = open(args.judge_log, "w") if args.judge_log else None
    if log:
        log.write("game\tposition\tdice\tchosen\tbest\tloss\tcandidates\n")
    t0 = time.time()
    for g in range(args.games):
        rng = random.Random(f"{args.seed}:{g}")
        ours = g % 2 == 0  # whether our bot is on roll; it starts the even-numbered games
        dice = roll(rng)
        while dice[0] == dice[1]:
            dice = roll(rng)
        board = gnubg.positionfromid(START_ID)
        while True:
            pid = gnubg.positionid(board)
            chosen, cands = bridge.ask(pid, dice)
            if ours:
                nxt = chosen
                unforced += len(cands) > 1
                if (len(errors) < args.judge_moves and len(cands) > 1
                        and (unforced - 1) % args.judge_every == 0):
                    t = time.time()
                    lost, best = loss(chosen, cands, cube, judge_ctx)
                    errors.append(lost)
                    judge_time += time.time() - t
                    if log:
                        log.write(f"{g}\t{pid}\t{dice[0]}{dice[1]}\t{chosen}\t{best}\t{1000 * lost:.1f}"
                                  f"\t{len(cands)}\n")
            else:
                nxt = chosen  # no legal play: the position swapped
                if cands:
                    move = gnubg.findbestmove(board, cube, play_ctx, dice)
                    # The binding stops a move tuple at the first checker borne off, leaving an
                    # odd length; then gnubg's choice is the best of our legal plays at its plies.
                    if len(move) % 2 == 0 and move:
                        nxt = gnubg.positionid(apply_move(board, move))
                    else:
                        nxt = max(cands, key=lambda c: -equity(gnubg.positionfromid(c), cube, play_ctx))
                        by_evaluation += 1
                if nxt not in cands and (cands or nxt != chosen):
                    mismatches += 1
                    print(f"mismatch: {pid} {dice} gnubg plays {move} -> {nxt}, bridge lists {cands}",
                          file=sys.stderr)
                    nxt = max(cands, key=lambda c: -equity(gnubg.positionfromid(c), cube, play_ctx))
                if args.check_moves and cands:
                    theirs = [m["move"] for m in gnubg.findbestmoves(board, cube, check_ctx, dice)]
                    complete = {gnubg.positionid(apply_move(board, m)) for m in theirs if len(m) % 2 == 0}
                    moves_checked += 1
                    if len(theirs) != len(cands) or not complete <= set(cands):
                        mismatches += 1
                        print(f"legal plays differ: {pid} {dice}: gnubg has {len(theirs)}, we {len(cands)}; "
                              f"gnubg only {complete - set(cands)}", file=sys.stderr)
                gnubg_unforced += len(cands) > 1
                if (len(gnubg_errors) < args.judge_gnubg_moves and len(cands) > 1
                        and (gnubg_unforced - 1) % args.judge_every == 0):
                    t = time.time()
                    gnubg_errors.append(loss(nxt, cands, cube, judge_ctx)[0])
                    judge_time += time.time() - t
            board = gnubg.positionfromid(nxt)
            mover, loser = board[0], board[1]
            if sum(mover) == 0:
                if sum(loser) < 15:
                    value = 1
                elif any(loser[18:25]):  # on the bar or in the winner's home board
                    value = 3
                else:
                    value = 2
                if ours:
                    wins += 1
                    gammons += value == 2
                    backgammons += value == 3
                points.append(value if ours else -value)
                break
            ours = not ours
            dice = roll(rng)
        if args.progress and (g + 1) % args.progress == 0:
            print(f"{g + 1} games: wins {wins}, points {sum(points):+d}, judged {len(errors)}, "
                  f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    bridge.close()
    if log:
        log.close()
    wall = time.time() - t0

    n = len(points)
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    ppg, ppg_half = mean_ci(points)
    print(f"policy {args.policy} vs gnubg {args.gnubg_plies}-ply, cubeless money, seed {args.seed}")
    print(f"games {n}: our wins {wins} = {100 * p:.1f}% ± {100 * half:.1f}% "
          f"(gammons {gammons}, backgammons {backgammons}; lost {n - wins}, "
          f"gammons {sum(1 for x in points if x == -2)}, backgammons {sum(1 for x in points if x == -3)})")
    print(f"points per game {ppg:+.3f} ± {ppg_half:.3f}")
    if errors:
        m, h = mean_ci(errors)
        big = sum(1 for e in errors if e >= 0.08)
        print(f"judged by gnubg {args.judge_plies}-ply: {len(errors)} non-forced decisions "
              f"(every {args.judge_every} of {unforced}), "
              f"mean loss {1000 * m:.1f} ± {1000 * h:.1f} mp; {big} of them lose ≥ 80 mp")
    if gnubg_errors:
        m, h = mean_ci(gnubg_errors)
        print(f"gnubg {args.gnubg_plies}-ply's own plays, same judge: {len(gnubg_errors)} decisions, "
              f"mean loss {1000 * m:.1f} ± {1000 * h:.1f} mp")
    if args.check_moves:
        print(f"legal plays compared with gnubg's on {moves_checked} gnubg turns")
    print(f"gnubg plays chosen among our legal plays by evaluation (a checker borne off): {by_evaluation}")
    print(f"disagreements with gnubg's legal plays: {mismatches}")
    print(f"wall time {wall:.1f}s (judging {judge_time:.1f}s)")


if __name__ == "__main__":
    main()
