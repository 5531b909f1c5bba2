#!/usr/bin/env bash
# The web client (web/) in a real browser: builds the server, starts it on SQLite on a free
# loopback port (scripts/test-server.env's settings, a fresh data directory), installs the
# client's pinned packages (npm ci: playwright-core and TypeScript, no browser download),
# type-checks the client (tsc --checkJs over web/src and the tests), and runs the browser tests
# (web/test/, node's test runner) in Debian's Chromium (/usr/bin/chromium, or $CHROMIUM): a whole
# game of each kind against bots, two players in two browser contexts with a spectator, a reload
# mid-game, a dropped socket, the fairness check. Screenshots of each board mid-game are written
# to docs/screenshots/ (SCREENSHOTS=… elsewhere, SCREENSHOTS= for none). Stops the server; fails
# on any failure, or on a panic in the server's log.
#
#   scripts/browser.sh
#   LUDDO_BIN=/path/to/luddo scripts/browser.sh     # a server built elsewhere: no cargo build
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

if ! command -v npm >/dev/null 2>&1; then
  echo "browser: needs Node.js (>= 20.19) and npm on PATH" >&2
  exit 2
fi
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "browser: needs Chromium at $chromium (apt-get install chromium, or CHROMIUM=…)" >&2
  exit 2
fi
if [ -n "${LUDDO_BIN:-}" ]; then
  bin="$LUDDO_BIN"
else
  cargo build --quiet --bin luddo
  bin="$target/debug/luddo"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
work="$(mktemp -d)"
mapfile -t server_env < <(test_server_env)
env "${server_env[@]}" LUDDO_ADDR="127.0.0.1:$port" LUDDO_DATA_DIR="$work/data" RUST_LOG=warn \
  "$bin" >"$work/server.log" 2>&1 &
server=$!
stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

for _ in $(seq 1 100); do
  curl -sf "$base/ready" >/dev/null && break
  sleep 0.1
done
curl -sf "$base/ready" >/dev/null

screenshots="${SCREENSHOTS-$PWD/docs/screenshots}"
cd web
npm ci --no-audit --no-fund --loglevel=error
npx tsc -p .
status=0
LUDDO_URL="$base" CHROMIUM="$chromium" SCREENSHOTS="$screenshots" timeout 300 npm test --silent || status=$?
cd - >/dev/null

if grep -E "panicked|internal error" "$work/server.log"; then
  echo "browser: the server logged a panic or an internal error" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "browser: FAILED (exit $status); the server's log:" >&2
  tail -n 50 "$work/server.log" >&2
fi
exit "$status"
