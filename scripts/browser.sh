#!/usr/bin/env bash
# The web client (web/) in a real browser: builds the server, starts it on SQLite on a free
# loopback port (scripts/test-server.env's settings, a fresh data directory), installs the
# client's pinned packages (npm ci: playwright-core and TypeScript, no browser download),
# type-checks the client (tsc --checkJs over web/src and the tests), and runs the browser tests
# (web/test/, node's test runner) in Debian's Chromium (/usr/bin/chromium, or $CHROMIUM): a whole
# game of each kind against bots, two players in two browser contexts with a spectator, a reload
# mid-game, a dropped socket, a seat taken by a bot and reclaimed (on a second server whose clock
# runs out in 2.5 s), the fairness check. Screenshots of each board mid-game are written
# to docs/screenshots/ (SCREENSHOTS=… elsewhere, SCREENSHOTS= for none). Stops the server; fails
# on any failure, or on a panic in the server's log.
#
#   scripts/browser.sh
#   LUDDO_BIN=/path/to/luddo scripts/browser.sh     # a server built elsewhere: no cargo build
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

needs_npm browser
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "browser: needs Chromium at $chromium (apt-get install chromium, or CHROMIUM=…)" >&2
  exit 2
fi
bin="$(luddo_bin)"

work="$(mktemp -d)"
mapfile -t server_env < <(test_server_env)
servers=()
stop() {
  for server in "${servers[@]}"; do
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap stop EXIT
# start_server NAME [SETTING=value…]: a server on a free port with its own data directory; its
# base URL goes into the variable NAME.
start_server() {
  local name="$1" port
  shift
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  env "${server_env[@]}" "$@" LUDDO_ADDR="127.0.0.1:$port" LUDDO_DATA_DIR="$work/$name" RUST_LOG=warn \
    "$bin" >"$work/$name.log" 2>&1 &
  servers+=($!)
  printf -v "$name" 'http://127.0.0.1:%s' "$port"
}
# The tests' server (in test mode: web/test/table.test.mjs sets up positions with scripted dice),
# and one whose clock runs out in 2.5 s for the takeover and reclaim test.
start_server base LUDDO_TEST_MODE=1
start_server fast LUDDO_TURN_SECONDS=2.5
for url in "$base" "$fast"; do
  for _ in $(seq 1 100); do
    curl -sf "$url/ready" >/dev/null && break
    sleep 0.1
  done
  curl -sf "$url/ready" >/dev/null
done

screenshots="${SCREENSHOTS-$PWD/docs/screenshots}"
cd web
npm ci --no-audit --no-fund --loglevel=error
npx tsc -p .
status=0
LUDDO_URL="$base" LUDDO_FAST_URL="$fast" CHROMIUM="$chromium" SCREENSHOTS="$screenshots" \
  timeout --kill-after=10 900 node --test --test-concurrency=1 --test-reporter=spec test/ </dev/null || status=$?
cd - >/dev/null

if grep -E "panicked|internal error" "$work"/*.log; then
  echo "browser: a server logged a panic or an internal error" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "browser: FAILED (exit $status); the servers' logs:" >&2
  tail -n 50 "$work"/*.log >&2
fi
exit "$status"
