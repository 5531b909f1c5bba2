#!/usr/bin/env python3
"""The latency fresh dice add to a roll, over real HTTP against a running server.

Plays Luddo tables (the caller's seat against a bot) with and without a dice chain, in turns
(so both see the same machine), and times each `POST /v1/tables/{id}/actions` of a `roll`: with
a chain the request carries the seat's next link, which the server checks (one SHA-256), and it
first asks the game, on a copy, whether the action draws dice. Moves are played but not timed.
Prints p50/p99 (and the mean) of each.

    LUDDO_ADDR=127.0.0.1:8099 LUDDO_DATA_DIR=/tmp/bench luddo serve &
    scripts/fresh_dice_bench.py http://127.0.0.1:8099 --rolls 2000

Standard library only (http.client, keep-alive connection per player).
"""

import argparse
import hashlib
import http.client
import json
import os
import statistics
import time
import urllib.parse


def chain(n):
    h = os.urandom(32)
    links = [h]
    for _ in range(n):
        h = hashlib.sha256(h).digest()
        links.append(h)
    return [x.hex() for x in links]


class Client:
    def __init__(self, base):
        url = urllib.parse.urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port or 80)
        self.token = None

    def call(self, method, path, body=None):
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = self.conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)


def play(base, links, rolls_wanted, timings, name):
    """One table against a bot, to its end or until `rolls_wanted` rolls were timed."""
    c = Client(base)
    status, p = c.call("POST", "/v1/players", {"name": name})
    assert status == 201, p
    c.token = p["token"]
    body = {"game": "luddo", "seat_count": 2, "fresh_dice": links is not None}
    if links:
        body["dice_chain"] = links[-1]
    status, t = c.call("POST", "/v1/tables", body)
    assert status == 201, t
    tid = t["id"]
    status, t = c.call("POST", f"/v1/tables/{tid}/start", {"fill_with_bots": True})
    assert status == 200, t
    reveals = 0
    while len(timings) < rolls_wanted:
        status, view = c.call("GET", f"/v1/tables/{tid}")
        if view["status"] == "finished":
            return
        play_ = view["play"]
        legal = play_["legal_actions"]
        if play_.get("to_act") != 0 or not legal:
            continue
        action = legal[0]
        req = {"action": action, "seq": play_["seq"]}
        is_roll = action["type"] == "roll"
        if is_roll and links:
            req["reveal"] = links[len(links) - 2 - reveals]
        start = time.perf_counter()
        status, answer = c.call("POST", f"/v1/tables/{tid}/actions", req)
        elapsed = time.perf_counter() - start
        if status != 200:
            if answer and answer.get("code") == "stale_seq":
                continue
            raise SystemExit(f"{status} {answer}")
        if is_roll:
            timings.append(elapsed * 1000)
            if links:
                reveals += 1


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--rolls", type=int, default=2000, help="timed rolls of each kind")
    ap.add_argument("--batch", type=int, default=100, help="rolls of one kind before switching")
    args = ap.parse_args()
    with_chain, without = [], []
    n = 0
    while len(with_chain) < args.rolls or len(without) < args.rolls:
        for kind, timings in (("chain", with_chain), ("plain", without)):
            if len(timings) >= args.rolls:
                continue
            target = min(args.rolls, len(timings) + args.batch)
            while len(timings) < target:
                n += 1
                play(args.base, chain(4096) if kind == "chain" else None, target, timings, f"B{n}")
    for label, xs in (("with a dice chain (fresh_dice on, reveal checked)", with_chain),
                      ("without (fresh_dice off)", without)):
        print(f"{label}: n={len(xs)} p50={pct(xs, 50):.2f} ms p99={pct(xs, 99):.2f} ms "
              f"mean={statistics.mean(xs):.2f} ms")


if __name__ == "__main__":
    main()
