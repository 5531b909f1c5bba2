#!/usr/bin/env python3
"""GNU Backgammon's judgement of our hints: its best play at 2 plies against the hint's best.

Reads lines of `<position id> <d1> <d2> <our best result> <our cubeless equity> <listed results...>`
on stdin (tests/analysis.rs writes them from `POST /v1/backgammon/hint`: the position before the
roll with the player on roll, the hint's best play as the Position ID it leaves with the opponent
on roll, that play's cubeless equity for the mover, and every result the hint listed) and prints
one JSON object: how many positions, how many of them gnubg's best play is ours, and the
differences between our cubeless equity of our best play and gnubg's 2-ply cubeless equity of the
same play.

gnubg plays `findbestmove` with a cubeless evaluation context at 2 plies (its default move
filters, deterministic, no noise) and its move tuple is applied to the board here. The Python
binding cuts a move tuple short at the first checker borne off (its length is then odd): for
those positions gnubg's choice is the best of the hint's listed results by its 2-ply
evaluation.

Usage: GNUBG_PYTHON scripts/gnubg_hint_agreement.py < positions.txt
"""

import json
import sys

import gnubg


def apply_move(board, move):
    """The board after the side on roll plays `move`, seen by the opponent, now on roll."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in sorted(zip(move[0::2], move[1::2]), reverse=True):
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            o = 24 - dst
            if opp[o] == 1:
                opp[o] = 0
                opp[24] += 1
    return (tuple(me), tuple(opp))


def main():
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 2, 1, 1, 0.0)

    def mover_equity(result_id):
        w, wg, wbg, lg, lbg, _ = gnubg.evaluate(gnubg.positionfromid(result_id), cube, ctx)
        return -(2 * w - 1 + wg - lg + wbg - lbg)

    n = agree = 0
    diffs = []
    for line in sys.stdin:
        parts = line.split()
        if len(parts) < 6:
            continue
        pid, d1, d2, ours, our_eq = parts[0], int(parts[1]), int(parts[2]), parts[3], float(parts[4])
        listed = parts[5:]
        board = gnubg.positionfromid(pid)
        move = gnubg.findbestmove(board, cube, ctx, (d1, d2))
        if len(move) % 2 == 0:
            theirs = gnubg.positionid(apply_move(board, move))
        else:
            theirs = max(listed, key=mover_equity)
        n += 1
        agree += theirs == ours
        diffs.append(abs(mover_equity(ours) - our_eq))
    diffs.sort()
    out = {
        "positions": n,
        "agree": agree,
        "mean_abs_equity_diff": sum(diffs) / len(diffs) if diffs else None,
        "p90_abs_equity_diff": diffs[int(0.9 * (len(diffs) - 1))] if diffs else None,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
