#!/usr/bin/env python3
# Slowloris against a running luddo on loopback (docs/reliability.md, "Slow, idle and too many
# connections"): N connections from 127.0.0.2 each send the start of a request head, then one
# byte every 5 s; every 4 s a GET /health from 127.0.0.1 is timed. Prints how many dripping
# connections the server still holds, how many it closed at once, and the /health answer.
#
# Usage: scripts/slowloris.py PORT [CONNECTIONS=1100] [SECONDS=48]
# (raise `ulimit -n` in the shell that runs it: every connection is a file here too)
import asyncio, socket, sys, time
port = int(sys.argv[1])
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1100
duration = float(sys.argv[3]) if len(sys.argv) > 3 else 48
open_now = 0
closed_at_once = 0
async def drip(i):
    global open_now, closed_at_once
    s = socket.socket(); s.setblocking(False); s.bind(("127.0.0.2", 0))
    loop = asyncio.get_running_loop()
    try:
        await loop.sock_connect(s, ("127.0.0.1", port))
        r, w = await asyncio.open_connection(sock=s)
    except OSError:
        return
    open_now += 1
    start = time.monotonic()
    w.write(b"GET /health HTTP/1.1\r\nx-slow: ")
    async def writer():
        try:
            while True:
                await asyncio.sleep(5); w.write(b"a"); await w.drain()
        except Exception:
            pass
    t = asyncio.create_task(writer())
    try:
        data = await asyncio.wait_for(r.read(100), timeout=duration)
    except asyncio.TimeoutError:
        data = None
    except Exception:
        data = b""
    if data is not None:
        open_now -= 1
        if time.monotonic() - start < 1: closed_at_once += 1
    t.cancel()
async def health():
    t0 = time.monotonic()
    try:
        r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
        w.write(b"GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        line = await asyncio.wait_for(r.readline(), 5)
        return line.decode().strip(), time.monotonic() - t0
    except Exception as e:
        return repr(e), time.monotonic() - t0
async def main():
    tasks = [asyncio.create_task(drip(i)) for i in range(n)]
    t0 = time.monotonic()
    while time.monotonic() - t0 < duration:
        await asyncio.sleep(4)
        h, dt = await health()
        print(f"t={time.monotonic()-t0:5.1f}s open={open_now:5d} closed_at_once={closed_at_once:5d} /health: {h} in {dt*1000:.0f} ms", flush=True)
    for t in tasks: t.cancel()
asyncio.run(main())
